//! The headless command line: `searchlab <subcommand>`, JSON on stdout, exit code 2 with a
//! one-line error for bad arguments or files, 1 when some of many queries failed.

mod barca;
mod game_search;
mod gen_map;
mod lecture;
mod mesh;
mod path;
mod tictactoe;
mod tournament;

use clap::{Parser, Subcommand};

use crate::games::barca::Barca;

#[derive(Debug, Parser)]
#[command(name = "searchlab", version, about = "A teaching playground for pathfinding and game-tree search")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Shortest paths on a grid map: one query (--from/--to) or every query of a .scen file.
    Path(path::PathArgs),
    /// Generate a map (maze, rooms, random obstacles) and a scenario file for it.
    Gen(gen_map::GenArgs),
    /// Tic-tac-toe: search a position with minimax, negamax, alpha-beta or iterative deepening.
    Tictactoe(tictactoe::TicTacToeArgs),
    /// The Barca engine: perft, search, engine-vs-engine matches, weight tuning.
    Barca(barca::BarcaArgs),
    /// Shortest any-angle paths on polygon maps (TA*, TRA*), or on a triangulated grid map.
    Mesh(mesh::MeshArgs),
    /// Open a lecture notebook (a Markdown file with live cells), or check its cells with --check.
    Lecture(lecture::LectureArgs),
}

/// A failure to report to the user in one line.
#[derive(Debug)]
pub struct CliError(pub String);

impl CliError {
    /// A library spec's validation message as one naming the flag: spec options and `flags`
    /// share their names, and the messages start with the option's name.
    pub fn of_option(message: String, flags: &[&str]) -> CliError {
        let named = message.split_whitespace().next().is_some_and(|word| flags.contains(&word));
        CliError(if named { format!("--{message}") } else { message })
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(error: E) -> Self {
        CliError(error.to_string())
    }
}

pub type CliResult = Result<(), CliError>;

/// For commands answering many queries: how many failed (each has its own JSON line and makes
/// the exit code 1), or why the command could not run at all (exit code 2).
pub type QueriesResult = Result<usize, CliError>;

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version
            let _ = error.print();
            return 0;
        }
        Err(error) => {
            eprintln!("{}", crate::text::one_line(&one_line(&error.render().to_string())));
            return 2;
        }
    };
    let no_failures = |result: CliResult| result.map(|()| 0);
    let result = match cli.command {
        Some(Command::Path(args)) => path::run(args),
        Some(Command::Gen(args)) => no_failures(gen_map::run(args)),
        Some(Command::Tictactoe(args)) => no_failures(tictactoe::run(args)),
        Some(Command::Barca(args)) => no_failures(barca::run(args)),
        Some(Command::Mesh(args)) => mesh::run(args),
        Some(Command::Lecture(args)) => no_failures(lecture::run(args)),
        None => no_failures(open_playground()),
    };
    match result {
        Ok(0) => 0,
        Ok(_failed) => 1,
        Err(CliError(message)) => {
            eprintln!("error: {}", crate::text::one_line(&message));
            2
        }
    }
}

#[cfg(feature = "app")]
fn open_playground() -> CliResult {
    crate::app::run().map_err(|e| CliError(format!("cannot open the window: {e}")))
}

#[cfg(not(feature = "app"))]
fn open_playground() -> CliResult {
    Err(CliError("this build has no playground (feature `app`): give a subcommand (see searchlab --help)".to_string()))
}

/// Folds clap's multi-line message (details, blank lines, usage hints) into one line.
fn one_line(message: &str) -> String {
    let kept: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .collect();
    format!("{} (see searchlab --help)", kept.join(" "))
}

/// Prints one JSON value as a line.
fn emit(value: &serde_json::Value) {
    println!("{value}");
}

/// Parses `--fen`, naming the option in the error.
fn read_fen(text: &str) -> Result<Barca, CliError> {
    Barca::from_fen(text).map_err(|error| CliError(format!("--fen '{}': {error}", crate::text::quote(text))))
}

/// Parses `x,y`.
fn parse_point(text: &str) -> Result<(u32, u32), String> {
    let (x, y) = text.split_once(',').ok_or_else(|| format!("'{text}' is not x,y"))?;
    let coordinate = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("'{s}' in '{text}' is not a whole number"));
    Ok((coordinate(x)?, coordinate(y)?))
}
