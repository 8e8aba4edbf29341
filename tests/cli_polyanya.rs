//! `searchlab mesh --algo polyanya`: the same lengths as TA* from the command line, on both
//! mesh kinds, and a round agent refused in one line.
#![cfg(all(feature = "app", feature = "cli"))]

mod common;

use common::cli::{assert_fails, json_lines, searchlab};

fn length(extra: &[&str]) -> f64 {
    let mut args = vec!["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "39,29"];
    args.extend_from_slice(extra);
    let output = searchlab(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    json_lines(&output)[0]["length"].as_f64().unwrap()
}

#[test]
fn polyanya_prints_ta_stars_length_on_triangles_and_merged_polygons() {
    let ta = length(&["--algo", "ta"]);
    assert!(ta > 50.0, "the pillars bend the path: {ta}");
    for mesh in ["triangles", "merged"] {
        let polyanya = length(&["--algo", "polyanya", "--mesh", mesh]);
        assert!((polyanya - ta).abs() < 1e-9 * ta, "{mesh}: {polyanya} vs TA* {ta}");
    }
}

#[test]
fn polyanya_refuses_a_round_agent() {
    let args = ["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "39,29", "--algo", "polyanya"];
    assert_fails(&[&args[..], &["--radius", "0.5"]].concat(), "Polyanya plans for a point agent");
}
