//! Inputs at the limits (issue 45): huge thread counts and weights, tiny coordinates, and matches
//! split into shards; each answers cleanly or fails in one line.

mod common;

use std::time::{Duration, Instant};

use common::cli::{assert_fails, json_lines, searchlab};
use common::scratch::ScratchDir;
use searchlab::grid::movingai;
use searchlab::navmesh::polygon::PolygonMap;
use searchlab::pathfinding::SearchSpace;
use searchlab::pathfinding::planner::Planner;
use searchlab::scene::Scene;
use searchlab::trace::NoTrace;
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
fn huge_numbers_in_messages_stay_short() {
    let output = searchlab(&["tictactoe", "search", "--algo", "uct", "--exploration", "-1e308"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("-1e308") && stderr.len() < 200, "{stderr}");

    let scene = "version = 1\nlab = \"grid\"\nmap = { bundled = \"maze64.map\" }\nstep = 18446744073709551616\n";
    let error = Scene::from_toml(scene).unwrap_err();
    assert!(error.contains("step 18446744073709551616 is too large"), "{error}");
    assert!(!error.contains("i128"), "{error}");
}

#[test]
fn a_failed_mesh_batch_says_so_on_stderr() {
    let scratch = ScratchDir::new("limits-mesh");
    let queries = scratch.dir().join("queries.txt");
    // The second query starts outside the map.
    std::fs::write(&queries, "2 28 28 28\n-50 -50 28 28\n").unwrap();
    let output = searchlab(&["mesh", "--map", "maps/u_hall.json", "--queries", queries.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("1 of 2 queries failed"), "{stderr}");
}

/// Writes an open `side` x `side` MovingAI map, with a wall across column `side / 2` but for its
/// last row when `walled`.
fn open_map(scratch: &ScratchDir, side: usize, walled: bool) -> String {
    let mut text = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for y in 0..side {
        let mut row = vec![b'.'; side];
        if walled && y + 1 < side {
            row[side / 2] = b'@';
        }
        text.push_str(std::str::from_utf8(&row).unwrap());
        text.push('\n');
    }
    let path = scratch.dir().join(format!("open{side}-{walled}.map"));
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Before: `path` built the whole abstraction before trying the line (PRA* past 20 s on an open
/// 4096² map, HPA* 71 s and out of memory on 8192²).
#[test]
fn a_free_straight_line_is_answered_before_any_abstraction_is_built() {
    let scratch = ScratchDir::new("limits-open");
    let map = open_map(&scratch, 4096, false);
    for algo in ["hpa", "pra"] {
        // Loading the 16 MB map takes most of it; PRA*'s build took over 20 s in a release build.
        let output = quick(&["path", "--map", &map, "--algo", algo, "--from", "0,0", "--to", "4095,4000"], 30);
        let lines = json_lines(&output);
        assert_eq!(lines[0]["straight_line"], true, "{algo}: {}", lines[0]);
        // 4,000 diagonal steps and 95 straight ones.
        let octile = 4000.0 * std::f64::consts::SQRT_2 + 95.0;
        assert!((lines[0]["cost"].as_f64().unwrap() - octile).abs() < 1e-6, "{algo}: {}", lines[0]);
    }
}

/// A blocked line on an open 8192² map: HPA*'s abstraction (about 4.8 GB) and PRA*'s pyramid
/// (about 8.7 GB) are refused in one line.
#[test]
fn an_abstraction_over_the_memory_limit_is_refused_in_one_line() {
    let scratch = ScratchDir::new("limits-wall");
    let map = open_map(&scratch, 8192, true);
    for (algo, name) in [("hpa", "HPA*"), ("pra", "PRA*")] {
        let output = quick(&["path", "--map", &map, "--algo", algo, "--from", "0,0", "--to", "8191,0"], 30);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("{name} on this 8192x8192 map")), "{stderr}");
        assert!(stderr.contains("over the limit of 2.0 GB") && stderr.contains("astar"), "{stderr}");
    }
}

#[test]
fn pra_k_partial_paths_are_not_mismatches() {
    let args = ["path", "--map", "maps/rooms128.map", "--scen", "maps/rooms128.map.scen", "--algo", "pra", "--k", "1"];
    let lines = json_lines(&searchlab(&args));
    let (queries, summary) = lines.split_at(lines.len() - 1);
    let summary = &summary[0]["summary"];
    let scen = movingai::load_scen("maps/rooms128.map.scen".as_ref()).unwrap();
    // Counted here from the .scen: complete paths whose length is not the optimum.
    let wrong_complete = queries
        .iter()
        .zip(&scen)
        .filter(|(line, s)| line["complete"] == true && !s.is_optimal(line["cost"].as_f64().unwrap()))
        .count();
    let partial = queries.iter().filter(|line| line["complete"] == false).count();
    assert!(partial > 0, "PRA*(1) plans the first steps of most long queries");
    assert_eq!(summary["mismatches"], wrong_complete);
}

/// Weighted A* without reopening expands each cell at most once, and its path is within w times
/// the optimum: the MovingAI sets' optimal lengths are the independent check.
#[test]
fn weighted_astar_keeps_its_bound_and_expands_each_cell_once() {
    let Some(dir) = common::shared_data("movingai") else { return };
    for name in ["arena.map", "maze512-32-9.map"] {
        let grid = movingai::load_map(&dir.join(name)).unwrap();
        let scen = movingai::load_scen(&dir.join(format!("{name}.scen"))).unwrap();
        let free = grid.passable_cells().len();
        let mut space = SearchSpace::new();
        for weight in [1.5, 2.0, 5.0, 1e308] {
            let planner: Planner = format!("astar:weight={weight}").parse().unwrap();
            let search = planner.grid_search().unwrap();
            for s in scen.iter().step_by(20) {
                let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
                let result = search.run(&grid, start, goal, &mut space, &mut NoTrace);
                let cost = result.cost().expect("the scenario's goal is reachable");
                assert!(cost <= weight * s.optimal + 1e-6, "{name} w={weight}: {cost} > w * {}", s.optimal);
                assert!(cost >= s.optimal - 1e-3, "{name}: {cost} below the optimum {}", s.optimal);
                assert!(result.expanded <= free, "{name} w={weight}: {} expansions > {free} cells", result.expanded);
            }
        }
    }
}

#[test]
fn reopen_is_in_the_spec_text_and_its_default_is_left_out() {
    let parse = |text: &str| text.parse::<Planner>().unwrap().to_string();
    assert_eq!(parse("astar:weight=2,reopen=true"), "astar:octile,weight=2,reopen=true");
    assert_eq!(parse("astar:weight=2,reopen=false"), "astar:octile,weight=2");
    assert_eq!(parse("astar:reopen=false"), "astar:octile,reopen=false");
    assert_eq!(parse("astar:reopen=true"), "astar:octile");
    let error = "astar:reopen=maybe".parse::<Planner>().unwrap_err();
    assert!(error.contains("'reopen=maybe'"), "{error}");
    let error = "greedy:reopen=true".parse::<Planner>().unwrap_err();
    assert!(error.contains("unknown option 'reopen=true'"), "{error}");
}

#[test]
fn reopening_under_a_huge_weight_ends_at_its_budget_in_one_line() {
    let map = "maps/random512.map";
    let args = ["path", "--map", map, "--from", "18,32", "--to", "498,455", "--weight", "1e308", "--reopen", "true"];
    let output = quick(&args, 20);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("budget") && stderr.contains("reopen=false"), "{stderr}");
    // Without reopening the same query answers at once, each cell expanded at most once.
    let lines = json_lines(&quick(&args[..args.len() - 2], 20));
    let free = movingai::load_map(map.as_ref()).unwrap().passable_cells().len() as u64;
    assert!(lines[0]["cost"].is_number() && lines[0]["expanded"].as_u64().unwrap() <= free, "{}", lines[0]);
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
