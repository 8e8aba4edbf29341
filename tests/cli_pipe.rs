//! Output piped into a reader that stops early (`searchlab ... | head -1`) ends the command quietly,
//! as it ends `cat`: exit code 0, nothing on stderr, never a panic.

use std::process::{Command, Stdio};

/// Runs `args` with stdout's reading end closed before the first line is written.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the binary finishes");
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn every_multi_line_command_stops_quietly_when_the_reader_goes() {
    let commands: [&[&str]; 5] = [
        &["path", "--map", "maps/rooms128.map", "--scen", "maps/rooms128.map.scen"],
        &["barca", "perft", "--depth", "2", "--divide"],
        &["mesh", "--grid", "maps/maze64.map", "--queries", "maps/maze64.map.scen"],
        &["barca", "match", "--white", "random", "--black", "random", "--games", "2"],
        &["tictactoe", "search", "--algo", "alphabeta"],
    ];
    for args in commands {
        assert_eq!(run_into_closed_pipe(args), (Some(0), String::new()), "{args:?}");
    }
}
