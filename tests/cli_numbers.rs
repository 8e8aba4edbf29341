//! Negative, NaN and malformed numbers given to numeric options: one line naming the option and
//! the values it takes, never clap's "unexpected argument '-3'".

mod common;

use common::cli::assert_fails;

const QUERY: [&str; 7] = ["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2"];

fn path_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    [&QUERY[..], extra].concat()
}

#[test]
fn path_weight_out_of_range_names_the_option_and_the_range() {
    for weight in ["-3", "NaN", "inf", "0.5", "-0.5"] {
        assert_fails(&path_with(&["--weight", weight]), &format!("--weight must be a number >= 1, got {weight}"));
    }
    assert_fails(&path_with(&["--weight", "abc"]), "'--weight <WEIGHT>'");
    assert_fails(&path_with(&["--weight", "abc"]), "'abc' is not a number");
}

#[test]
fn path_whole_number_options_name_their_range() {
    assert_fails(
        &path_with(&["--algo", "hpa", "--cluster", "-3"]),
        "'--cluster <CLUSTER>': '-3' is not a whole number from 2 to 256",
    );
    assert_fails(
        &path_with(&["--algo", "hpa", "--levels", "-1"]),
        "'--levels <LEVELS>': '-1' is not a whole number from 1 to 2",
    );
    assert_fails(&path_with(&["--algo", "pra", "--k", "-2"]), "'--k <K>': '-2' is not a whole number of 1 or more");
    assert_fails(
        &path_with(&["--algo", "pra", "--level", "-2"]),
        "'--level <LEVEL>': '-2' is not a whole number of 0 or more",
    );
    let scenarios = ["path", "--map", "maps/maze64.map", "--scen", "maps/maze64.map.scen", "--limit"];
    assert_fails(&[&scenarios[..], &["-5"]].concat(), "'--limit <LIMIT>': '-5' is not a whole number of 1 or more");
}

#[test]
fn other_commands_read_negative_numbers_as_values() {
    // The value is named, not taken for an unknown option `-4`.
    assert_fails(
        &["gen", "maze", "--width", "-4", "--out", "/tmp/never.map"],
        "'--width <WIDTH>': '-4' is not a whole number of 0 or more",
    );
    assert_fails(
        &["gen", "maze", "--width", "5000000000", "--out", "/tmp/never.map"],
        "'5000000000' is too large (a whole number from 0 to 4294967295)",
    );
    assert_fails(
        &["tictactoe", "search", "--algo", "minimax", "--depth", "-1"],
        "'--depth <DEPTH>': '-1' is not a whole number of 0 or more",
    );
    assert_fails(
        &["tictactoe", "search", "--algo", "uct", "--exploration", "-1"],
        "--exploration -1 must be a number >= 0",
    );
}
