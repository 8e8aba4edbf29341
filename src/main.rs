fn main() {
    std::process::exit(searchlab::cli::main());
}
