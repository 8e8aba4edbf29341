//! The `path` and `gen` subcommands as a batch user sees them: JSON lines, exit codes, errors.

mod common;

use common::cli::{assert_fails, json_lines, searchlab};
use common::reference::{movingai_cost, same_cost};
use common::scratch::ScratchDir;
use searchlab::grid::movingai;
use serde_json::json;

/// The cheapest cost from `start` to `goal` on a bundled map, by the independent solver.
fn reference_cost(map: &str, start: (u32, u32), goal: (u32, u32)) -> f64 {
    let grid = movingai::load_map(&common::project_map(map)).unwrap();
    movingai_cost(&grid, start, goal).expect("the goal is reachable")
}

/// The scenario file's lengths are checked by an independent solver (tests/bundled_scen.rs).
#[test]
fn scenario_run_prints_one_line_per_query_and_a_summary() {
    let output = searchlab(&[
        "path",
        "--map",
        "maps/rooms128.map",
        "--scen",
        "maps/rooms128.map.scen",
        "--algo",
        "astar",
        "--limit",
        "30",
    ]);
    assert!(output.status.success());
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 31);
    for (i, line) in lines[..30].iter().enumerate() {
        assert_eq!(line["id"], i);
        let (cost, optimal) = (line["cost"].as_f64().unwrap(), line["optimal"].as_f64().unwrap());
        assert!((cost - optimal).abs() < 1e-3);
        for key in ["start", "goal", "expanded", "micros"] {
            assert!(!line[key].is_null(), "{key} missing in {line}");
        }
    }
    let summary = &lines[30]["summary"];
    assert_eq!(summary["queries"], 30);
    assert_eq!(summary["mismatches"], 0);
    assert_eq!(summary["guaranteed_optimal"], true);
    let expanded: u64 = lines[..30].iter().map(|l| l["expanded"].as_u64().unwrap()).sum();
    assert_eq!(summary["total_expanded"], expanded);
}

#[test]
fn bfs_says_it_is_not_optimal_on_octile_maps() {
    let output =
        searchlab(&["path", "--map", "maps/rooms128.map", "--scen", "maps/rooms128.map.scen", "--algo", "bfs"]);
    let lines = json_lines(&output);
    let summary = &lines.last().unwrap()["summary"];
    assert_eq!(summary["guaranteed_optimal"], false);
    assert!(summary["note"].as_str().unwrap().contains("number of steps"));
    assert!(summary["mismatches"].as_u64().unwrap() > 0, "across open rooms fewest steps is not cheapest");
}

#[test]
fn single_query_prints_the_path() {
    let output = searchlab(&["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "62,62", "--algo", "astar"]);
    assert!(output.status.success());
    let line = &json_lines(&output)[0];
    let path = line["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), &serde_json::json!([1, 1]));
    assert_eq!(path.last().unwrap(), &serde_json::json!([62, 62]));
    let (cost, reference) = (line["cost"].as_f64().unwrap(), reference_cost("maze64.map", (1, 1), (62, 62)));
    assert!(same_cost(cost, reference), "{cost} vs {reference}");
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    assert_fails(&["path", "--map", "maps/nope.map", "--from", "1,1", "--to", "2,2"], "maps/nope.map: cannot read");
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "99,2"],
        "goal 99,2 is outside the 64x64 map",
    );
    assert_fails(&["path", "--map", "maps/maze64.map", "--from", "0,0", "--to", "2,2"], "start 0,0 is a blocked cell");
    assert_fails(&["path", "--map", "maps/maze64.map", "--from", "1;1", "--to", "2,2"], "is not x,y");
    // A negative coordinate is read as a value (and refused as one), not as an unknown option.
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "-1,62", "--to", "2,2"],
        "'-1,62' for '--from <FROM>': x '-1' is not a whole number",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1,1", "--to", "2,2"],
        "'1,1,1' is not x,y (two whole numbers, e.g. 3,4)",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,99999999999", "--to", "2,2"],
        "y '99999999999' is too big (max 4294967295)",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2", "--weight", "0.5"],
        "--weight must be a number >= 1",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--scen", "x.scen", "--algo", "bfs", "--heuristic", "octile"],
        "--heuristic applies to astar or greedy only",
    );
    assert_fails(
        &[
            "path",
            "--map",
            "maps/maze64.map",
            "--from",
            "1,1",
            "--to",
            "2,2",
            "--algo",
            "pra",
            "--k",
            "1",
            "--width",
            "2",
        ],
        "--width applies to whole paths only",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--scen", "maps/rooms128.map.scen"],
        "for a 128x128 map, but the map is 64x64",
    );
    assert_fails(&["path", "--map", "maps/maze64.map"], "give either --scen FILE or --from x,y --to x,y");
    assert_fails(&["path", "--map", "maps/maze64.map", "--algo", "dfs"], "invalid value 'dfs'");
    assert_fails(&["path", "--from", "1,1"], "required arguments were not provided: --map <MAP>");
    assert_fails(
        &["path", "--map", "maps/maze64.map.scen", "--from", "1,1", "--to", "2,2"],
        "maps/maze64.map.scen:1: expected 'type octile'",
    );
}

#[test]
fn gen_is_deterministic_and_writes_solvable_scenarios() {
    let dir = ScratchDir::new("gen");
    let out = |name: &str| dir.path(name).display().to_string();
    for name in ["a.map", "b.map"] {
        let output = searchlab(&[
            "gen",
            "rooms",
            "--width",
            "60",
            "--height",
            "40",
            "--seed",
            "9",
            "--scenarios",
            "20",
            "--out",
            &out(name),
        ]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let read = |name: &str| std::fs::read_to_string(dir.path(name)).unwrap();
    assert_eq!(read("a.map"), read("b.map"));
    let grid = movingai::parse_map("a.map", &read("a.map")).unwrap();
    let scenarios = movingai::parse_scen("a.map.scen", &read("a.map.scen")).unwrap();
    for s in &scenarios {
        let reference = movingai_cost(&grid, s.start, s.goal).expect("written queries are solvable");
        assert!(same_cost(s.optimal, reference), "line {}: {} vs {reference}", s.line, s.optimal);
    }
    let scen = out("a.map.scen");
    let check = searchlab(&["path", "--map", &out("a.map"), "--scen", &scen, "--algo", "dijkstra"]);
    let summary = json_lines(&check).pop().unwrap()["summary"].take();
    assert_eq!((summary["queries"].as_u64(), summary["mismatches"].as_u64()), (Some(20), Some(0)));
    assert_fails(&["gen", "random", "--density", "2", "--out", &out("c.map")], "--density must be a probability");
    // A map cut into small pieces yields fewer queries than asked, and says so.
    let pieces =
        searchlab(&["gen", "random", "--width", "200", "--height", "3", "--density", "0.7", "--out", &out("p.map")]);
    assert!(pieces.status.success(), "{}", String::from_utf8_lossy(&pieces.stderr));
    let written = json_lines(&pieces)[0]["scenarios"].as_u64().unwrap();
    assert!(written < 100, "{written} scenarios on a map of small pieces");
    let warning = String::from_utf8_lossy(&pieces.stderr).into_owned();
    assert_eq!(warning.lines().count(), 1, "{warning}");
    assert!(warning.starts_with(&format!("warning: {written} of 100 scenarios written")), "{warning}");
    // One free cell: no pair at all, which is not a matter of pieces.
    let lone = searchlab(&["gen", "maze", "--width", "3", "--height", "3", "--out", &out("lone.map")]);
    assert_eq!(
        String::from_utf8_lossy(&lone.stderr),
        "warning: 0 of 100 scenarios written: no two free cells on this map are connected\n"
    );
    // Every cell blocked is no map to search; more scenarios than a .scen holds is refused at once.
    assert_fails(
        &["gen", "random", "--density", "1", "--out", &out("d.map")],
        "the generated map has no free cell: lower --density",
    );
    assert!(!dir.path("d.map").exists());
    assert_fails(
        &["gen", "maze", "--width", "8", "--height", "8", "--scenarios", "100000000", "--out", &out("e.map")],
        "--scenarios 100000000: at most 100000",
    );
}

#[test]
fn hpa_plans_on_two_levels_when_asked() {
    let best = reference_cost("maze64.map", (1, 1), (62, 62));
    let output = searchlab(&[
        "path",
        "--map",
        "maps/maze64.map",
        "--from",
        "1,1",
        "--to",
        "62,62",
        "--algo",
        "hpa",
        "--cluster",
        "6",
        "--levels",
        "2",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let line = &json_lines(&output)[0];
    assert_eq!(line["levels"], 2);
    let per_level: Vec<u64> =
        line["expanded_per_level"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    assert_eq!(per_level.len(), 3, "the grid and both levels");
    assert_eq!(per_level.iter().sum::<u64>(), line["expanded"].as_u64().unwrap());
    let cost = line["cost"].as_f64().unwrap();
    assert!(cost >= best - 1e-6 && cost <= best * 1.1, "{cost} vs optimal {best}");
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2", "--algo", "hpa", "--levels", "3"],
        "'--levels <LEVELS>': '3' is not a whole number from 1 to 2",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2", "--levels", "2"],
        "apply to hpa only",
    );
}

#[test]
fn hierarchical_planners_say_when_the_straight_line_was_the_answer() {
    // rooms128: (1,1) to (5,3) runs along open floor; (1,1) to (120,120) crosses room walls.
    for (to, free) in [("5,3", true), ("120,120", false)] {
        let goal: Vec<u32> = to.split(',').map(|n| n.parse().unwrap()).collect();
        let best = reference_cost("rooms128.map", (1, 1), (goal[0], goal[1]));
        for algo in ["hpa", "pra"] {
            let output =
                searchlab(&["path", "--map", "maps/rooms128.map", "--from", "1,1", "--to", to, "--algo", algo]);
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let line = &json_lines(&output)[0];
            assert_eq!(line["straight_line"], free, "{algo} to {to}: {line}");
            assert_eq!(line["expanded"] == 0, free, "{algo} to {to}: a free line needs no search");
            if free {
                assert!(same_cost(line["cost"].as_f64().unwrap(), best), "{algo}: the line is a cheapest path");
                if algo == "pra" {
                    assert_eq!(line["level"], 0);
                }
            }
        }
    }
}

#[test]
fn a_blocked_query_is_reported_on_its_line_and_the_rest_run() {
    let dir = ScratchDir::new("cli-path");
    let scen = dir.write_arg(
        "blocked.scen",
        "version 1\n0\tmaze64.map\t64\t64\t1\t1\t3\t1\t2\n0\tmaze64.map\t64\t64\t0\t0\t3\t1\t2\n",
    );
    let output = searchlab(&["path", "--map", "maps/maze64.map", "--scen", &scen, "--algo", "hpa"]);
    assert_eq!(output.status.code(), Some(1), "one query failed");
    let lines = json_lines(&output);
    assert_eq!(lines[0]["cost"], 2.0);
    assert_eq!(lines[1]["error"], "start (0,0) is a blocked cell (searchlab blocks '@', 'O', 'T' and water 'W')");
    assert_eq!(lines[2]["summary"]["failed"], 1);
    assert_eq!(lines[2]["summary"]["mismatches"], 0);
}

#[test]
fn an_empty_path_costs_zero_not_minus_zero() {
    for algo in ["hpa", "pra", "astar"] {
        let output = searchlab(&["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "1,1", "--algo", algo]);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("\"cost\":0.0") && !text.contains("-0.0"), "{algo}: {text}");
    }
}

#[test]
fn an_optimal_search_that_disagrees_with_the_scen_exits_1_naming_the_queries() {
    let dir = ScratchDir::new("cli-path");
    let lines = |optimal: [&str; 3]| {
        let ends = ["1\t1\t3\t1", "1\t1\t1\t1", "1\t1\t3\t1"];
        let rows: Vec<String> = ends
            .iter()
            .zip(optimal)
            .map(|(ends, optimal)| format!("0\tmaze64.map\t64\t64\t{ends}\t{optimal}\n"))
            .collect();
        format!("version 1\n{}", rows.concat())
    };
    let scen = &dir.write_arg("wrong.scen", lines(["2", "0", "2"]));
    let right = searchlab(&["path", "--map", "maps/maze64.map", "--scen", scen]);
    assert_eq!((right.status.code(), right.stderr.len()), (Some(0), 0), "{}", String::from_utf8_lossy(&right.stderr));
    std::fs::write(scen, lines(["2", "0", "7"])).unwrap();
    let wrong = searchlab(&["path", "--map", "maps/maze64.map", "--scen", scen]);
    assert_eq!(wrong.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        ["1 of 3 queries differ from the .scen's optimal length although astar is optimal: id 2"]
    );
    assert_eq!(json_lines(&wrong).last().unwrap()["summary"]["mismatches"], 1);
    // A search that says it is not optimal may differ: no error.
    let bfs = searchlab(&["path", "--map", "maps/maze64.map", "--scen", scen, "--algo", "hpa"]);
    assert_eq!(bfs.status.code(), Some(0));
}

#[test]
fn no_path_reads_the_same_for_every_planner() {
    let dir = ScratchDir::new("cli-path");
    let map = dir.write_arg("split.map", "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n");
    for algo in ["astar", "hpa", "pra"] {
        let output = searchlab(&["path", "--map", &map, "--from", "0,0", "--to", "4,0", "--algo", algo]);
        let line = &json_lines(&output)[0];
        assert_eq!(
            (&line["cost"], &line["path"]),
            (&serde_json::Value::Null, &serde_json::Value::Null),
            "{algo}: {line}"
        );
        // `complete: false` is a partial PRA*(k) path; no path is not one.
        assert!(line.get("complete").is_none_or(serde_json::Value::is_null), "{algo}: {line}");
    }
}

/// PRA*(k) refines only k steps per level, so a long query's path stops short of the goal: each
/// scenario line says whether it is complete, and the summary's suboptimality covers the complete
/// paths only, saying how many, and is null when there are none.
#[test]
fn pra_k_scenario_lines_say_complete_and_the_summary_covers_only_complete_paths() {
    let args = [
        "path",
        "--map",
        "maps/rooms128.map",
        "--scen",
        "maps/rooms128.map.scen",
        "--algo",
        "pra",
        "--k",
        "4",
        "--limit",
        "20",
    ];
    let lines = json_lines(&searchlab(&args));
    let (queries, summary) = (&lines[..20], &lines[20]["summary"]);
    let mut complete = Vec::new();
    for line in queries {
        let (cost, optimal) = (line["cost"].as_f64().unwrap(), line["optimal"].as_f64().unwrap());
        match line["complete"].as_bool() {
            Some(true) => {
                assert!(cost >= optimal - 1e-6, "a complete path is no shorter than the optimum: {line}");
                complete.push(cost / optimal - 1.0);
            }
            Some(false) => assert!(line["suboptimality"].is_null(), "a partial path has no suboptimality: {line}"),
            None => panic!("no \"complete\" in {line}"),
        }
    }
    assert!(complete.len() < 20, "k = 4 leaves some of rooms128's long queries partial");
    assert_eq!(summary["complete"], complete.len());
    let mean = complete.iter().sum::<f64>() / complete.len() as f64;
    assert!((summary["mean_suboptimality"].as_f64().unwrap() - mean).abs() < 1e-9, "{summary}");

    // One long query (length 203) cannot be planned in 4 steps per level: nothing to average.
    let dir = ScratchDir::new("cli-path");
    let scen = dir.write_arg("long.scen", "version 1\n0\trooms128.map\t128\t128\t1\t1\t120\t120\t203.09545443\n");
    let lines =
        json_lines(&searchlab(&["path", "--map", "maps/rooms128.map", "--scen", &scen, "--algo", "pra", "--k", "4"]));
    assert_eq!(lines[0]["complete"], false, "{}", lines[0]);
    let summary = &lines[1]["summary"];
    assert_eq!(summary["complete"], 0);
    assert!(summary["mean_suboptimality"].is_null() && summary["max_suboptimality"].is_null(), "{summary}");
}

/// MovingAI's lengths hold for its rules on unweighted ground only: under corner cutting a
/// 1-wide maze's paths beat them, and weights make an optimal A* "disagree". Neither is a
/// mismatch or a suboptimality, and an optimal search stays marked optimal.
#[test]
fn scenario_lengths_are_not_compared_under_other_rules_or_weights() {
    let args = [
        "path",
        "--map",
        "maps/maze64.map",
        "--scen",
        "maps/maze64.map.scen",
        "--algo",
        "hpa",
        "--corner-cutting",
        "--limit",
        "20",
    ];
    let output = searchlab(&args);
    assert!(output.status.success());
    let lines = json_lines(&output);
    let (queries, summary) = (&lines[..20], &lines[20]["summary"]);
    assert!(
        queries.iter().any(|line| line["cost"].as_f64().unwrap() < line["optimal"].as_f64().unwrap() - 1e-6),
        "corner cutting beats some lengths"
    );
    assert!(queries.iter().all(|line| line["suboptimality"].is_null()), "{queries:?}");
    assert_eq!(
        (&summary["complete"], &summary["mismatches"], &summary["mean_suboptimality"]),
        (&json!(20), &json!(null), &json!(null)),
        "{summary}"
    );
    assert!(summary["note"].as_str().unwrap().contains("assume MovingAI rules"), "{summary}");

    let dir = ScratchDir::new("cli-path");
    let map = dir.write_arg(
        "weighted.map",
        "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\nweights\n1111\n1991\n1111\n",
    );
    let scen = dir.write_arg("weighted.map.scen", "version 1\n0\tweighted.map\t4\t3\t0\t1\t3\t1\t3.00000000\n");
    let output = searchlab(&["path", "--map", &map, "--scen", &scen]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = json_lines(&output);
    assert!(lines[0]["cost"].as_f64().unwrap() > 3.0, "the weights make the straight way dearer: {}", lines[0]);
    let summary = &lines[1]["summary"];
    assert_eq!((&summary["mismatches"], &summary["guaranteed_optimal"]), (&json!(null), &json!(true)), "{summary}");
}

/// A scenario file for another map of the same size passes the size check, so the name is
/// compared too: the run goes on (the names of copied maps may differ) with a warning on stderr.
#[test]
fn a_scenario_naming_another_map_is_warned_about() {
    let dir = ScratchDir::new("cli-path");
    let scen = dir.write_arg("other.scen", "version 1\n9\tother.map\t40\t24\t4\t11\t35\t11\t36.79898987\n");
    let output = searchlab(&["path", "--map", "maps/lecture-u.map", "--scen", &scen]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr, format!("warning: {scen}:2: the scenario is for map 'other.map', not maps/lecture-u.map\n"));
    let own = searchlab(&["path", "--map", "maps/lecture-u.map", "--scen", "maps/lecture-u.map.scen"]);
    assert!(own.stderr.is_empty(), "{}", String::from_utf8_lossy(&own.stderr));
}

/// MovingAI's bg512 and wc3maps512 sets print lengths to two decimals (176.72 for 176.7228...):
/// an optimal search agrees with them at that precision, a planner's path that matches reads 0%
/// over, not a rounding-sized "-0.003%", and a length off by more than the precision is flagged.
#[test]
fn lengths_printed_to_two_decimals_are_compared_at_that_precision() {
    let text = std::fs::read_to_string(common::project_map("rooms128.map.scen")).unwrap();
    let rounded: Vec<String> = text
        .lines()
        .take(41)
        .enumerate()
        .map(|(i, line)| match line.rsplit_once('\t') {
            Some((rest, optimal)) if i > 0 => format!("{rest}\t{:.2}\n", optimal.parse::<f64>().unwrap()),
            _ => format!("{line}\n"),
        })
        .collect();
    let lost = |line: &str| {
        line.rsplit_once('\t')
            .map_or(0.0, |(_, optimal)| optimal.parse::<f64>().map_or(0.0, |v| (v - (v * 100.0).round() / 100.0).abs()))
    };
    assert!(
        text.lines().skip(1).take(40).filter(|line| lost(line) > 1e-3).count() > 10,
        "rounding moves most lengths by more than 0.001"
    );
    let dir = ScratchDir::new("cli-path");
    let scen = dir.write_arg("two-decimals.scen", rounded.concat());
    let astar = searchlab(&["path", "--map", "maps/rooms128.map", "--scen", &scen]);
    assert_eq!((astar.status.code(), astar.stderr.len()), (Some(0), 0), "{}", String::from_utf8_lossy(&astar.stderr));
    assert_eq!(json_lines(&astar).last().unwrap()["summary"]["mismatches"], 0);
    let pra = json_lines(&searchlab(&["path", "--map", "maps/rooms128.map", "--scen", &scen, "--algo", "pra"]));
    for line in &pra[..40] {
        let (cost, optimal, over) = (
            line["cost"].as_f64().unwrap(),
            line["optimal"].as_f64().unwrap(),
            line["suboptimality"].as_f64().unwrap(),
        );
        assert!(over >= 0.0, "{line}");
        assert_eq!(over == 0.0, (cost - optimal).abs() <= 0.005, "{line}");
    }
    // One length 0.01 too long is more than the printed precision allows.
    let mut wrong = rounded.clone();
    let (rest, optimal) = wrong[1].trim_end().rsplit_once('\t').unwrap();
    wrong[1] = format!("{rest}\t{:.2}\n", optimal.parse::<f64>().unwrap() + 0.01);
    std::fs::write(&scen, wrong.concat()).unwrap();
    let flagged = searchlab(&["path", "--map", "maps/rooms128.map", "--scen", &scen]);
    assert_eq!(flagged.status.code(), Some(1));
    assert_eq!(json_lines(&flagged).last().unwrap()["summary"]["mismatches"], 1);
}
