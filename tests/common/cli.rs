//! Running the `searchlab` binary as a user would.

use std::process::{Command, Output};

use serde_json::Value;

pub fn searchlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

pub fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

/// Exit code 2 and exactly one line on stderr containing `fragment`.
pub fn assert_fails(args: &[&str], fragment: &str) {
    let output = searchlab(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(first.contains(fragment), "{args:?}: '{stderr}' should mention '{fragment}'");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
}
