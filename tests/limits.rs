//! Inputs at the limits (issue 45): huge thread counts, tiny coordinates, and matches split into
//! shards; each answers cleanly or fails in one line.

mod common;

use std::time::{Duration, Instant};

use common::cli::{assert_fails, json_lines, searchlab};
use common::scratch::ScratchDir;
use searchlab::navmesh::polygon::PolygonMap;
use serde_json::Value;

/// Runs the binary and checks it answered within `seconds`.
fn quick(args: &[&str], seconds: u64) -> std::process::Output {
    let clock = Instant::now();
    let output = searchlab(args);
    assert!(clock.elapsed() < Duration::from_secs(seconds), "{args:?} took {:?}", clock.elapsed());
    output
}

#[test]
fn a_million_threads_are_capped_at_the_work_and_the_cores() {
    let output = quick(&["barca", "match", "--threads", "1000000", "--games", "2", "--depth", "1"], 30);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = json_lines(&output);
    assert_eq!(lines.last().unwrap()["games"], 2);

    let scratch = ScratchDir::new("limits-tune");
    let out = scratch.dir().join("weights.json");
    let tune = [
        "barca",
        "tune",
        "--threads",
        "1000000",
        "--iterations",
        "0",
        "--games-per-eval",
        "2",
        "--depth",
        "1",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = quick(&tune, 30);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_fails(&["barca", "match", "--threads", "0", "--games", "2"], "--threads must be at least 1");
}

#[test]
fn tiny_coordinates_are_refused_for_what_they_are() {
    let refusal = |json: &str| PolygonMap::parse("tiny.json", json).unwrap_err().message;
    let subnormal = refusal(r#"{"boundary": [[0, 0], [1e-320, 30], [30, 30], [30, 0]]}"#);
    assert!(subnormal.contains("vertex 1") && subnormal.contains("below 1e-30"), "{subnormal}");
    assert!(!subnormal.contains("TooSmall"), "{subnormal}");
    let speck = refusal(r#"{"boundary": [[0, 0], [1e-300, 0], [1e-300, 1e-300], [0, 1e-300]]}"#);
    assert!(speck.contains("vertex 1") && speck.contains("below 1e-30"), "{speck}");
    assert!(!speck.contains("one line"), "a square's vertices are not on one line: {speck}");
    let dust = refusal(r#"{"boundary": [[5, 5], [5.00000001, 5], [5.00000001, 5.00000001], [5, 5.00000001]]}"#);
    assert!(dust.contains("spans only 1.000e-8"), "{dust}");
    // Small but fine: a millimetre square in metres is triangulated and searched.
    let small = r#"{"boundary": [[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001]]}"#;
    assert!(PolygonMap::parse("small.json", small).is_ok());
}

#[test]
fn sharded_matches_merge_to_the_unsharded_summary() {
    let scratch = ScratchDir::new("limits-shards");
    let common = ["barca", "match", "--games", "13", "--depth", "1", "--white", "random", "--seed", "5"];
    for sprt in [None, Some("--sprt=-100,100")] {
        let run = |extra: &[&str]| {
            let mut args: Vec<&str> = common.to_vec();
            args.extend(sprt);
            args.extend(extra);
            searchlab(&args)
        };
        let whole = run(&[]);
        assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
        let whole = json_lines(&whole).pop().unwrap();
        let mut files = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let output = run(&["--shard", &shard, "--threads", "1"]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let file = scratch.dir().join(format!("shard{k}.jsonl"));
            std::fs::write(&file, &output.stdout).unwrap();
            files.push(file.to_str().unwrap().to_string());
        }
        let merge = |files: &[String]| {
            let mut args = vec!["barca", "merge"];
            args.extend(files.iter().map(String::as_str));
            searchlab(&args)
        };
        let merged: Value = json_lines(&merge(&files)).pop().unwrap();
        assert_eq!(merged, whole, "sprt {sprt:?}");
        if sprt.is_some() {
            assert_ne!(whole["sprt"], Value::Null);
        }
        let mut missing = vec!["barca", "merge"];
        missing.extend(files[..2].iter().map(String::as_str));
        assert_fails(&missing, "shard 3/3 is missing");
        let mut twice = missing.clone();
        twice.push(&files[0]);
        assert_fails(&twice, "are both shard 1/3");
    }
}
