//! `searchlab barca perft` as a user sees it: JSON lines, divide adding up, one-line errors.

use std::process::{Command, Output};

use serde_json::Value;

fn searchlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab")).args(args).output().expect("the binary runs")
}

fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

#[test]
fn perft_prints_depth_nodes_and_time() {
    let output = searchlab(&["barca", "perft", "--depth", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["depth"], 1);
    assert_eq!(lines[0]["nodes"], 38);
    assert!(lines[0]["micros"].is_u64());
}

#[test]
fn divide_prints_one_line_per_move_then_the_total() {
    let output = searchlab(&["barca", "perft", "--depth", "2", "--divide"]);
    assert!(output.status.success());
    let lines = json_lines(&output);
    let (total, moves) = lines.split_last().unwrap();
    assert_eq!(moves.len(), 38);
    let sum: u64 = moves.iter().map(|line| line["nodes"].as_u64().unwrap()).sum();
    assert_eq!(total["nodes"].as_u64(), Some(sum));
    let plain = json_lines(&searchlab(&["barca", "perft", "--depth", "2"]));
    assert_eq!(plain[0]["nodes"], total["nodes"]);
    assert!(moves.iter().all(|line| line["move"].as_str().is_some_and(|m| m.len() >= 4)));
}

#[test]
fn perft_reads_a_position() {
    let output = searchlab(&["barca", "perft", "--depth", "1", "--fen", "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 b"]);
    assert_eq!(json_lines(&output)[0]["nodes"], 38, "Black's start mirrors White's");
}

#[test]
fn a_bad_position_exits_2_with_one_line() {
    for (fen, fragment) in [
        ("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4", "missing the side to move"),
        ("4ee4/3lmxl3/10/10/10/10/10/10/3LMML3/4EE4 w", "row 9: unexpected character 'x'"),
        ("", "position has 1 row separated by '/', expected 10"),
    ] {
        let output = searchlab(&["barca", "perft", "--depth", "1", "--fen", fen]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(fragment), "{stderr}");
    }
    let output = searchlab(&["barca", "perft"]);
    assert_eq!(output.status.code(), Some(2), "--depth is required");
}

#[test]
fn a_depth_beyond_64_is_refused_not_run() {
    for depth in ["65", "20000", "99999999999"] {
        let output = searchlab(&["barca", "perft", "--depth", depth]);
        assert_eq!(output.status.code(), Some(2), "{depth}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("'{depth}' is not a whole number from 0 to 64")), "{stderr}");
    }
}
