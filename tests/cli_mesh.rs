//! `searchlab mesh` as a user sees it: JSON lines, exit code 2 and one line for bad input.

mod common;

use common::cli::{assert_fails, json_lines, searchlab};
use common::scratch::ScratchDir;

#[test]
fn single_query_prints_length_waypoints_expanded_and_time() {
    for algo in ["ta", "tra"] {
        let output = searchlab(&[
            "mesh",
            "--map",
            "maps/narrow_corridor.json",
            "--from",
            "2,10",
            "--to",
            "28,10",
            "--algo",
            algo,
        ]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let lines = json_lines(&output);
        assert_eq!(lines.len(), 1);
        assert!((lines[0]["length"].as_f64().unwrap() - 26.0).abs() < 1e-9);
        assert_eq!(lines[0]["waypoints"], serde_json::json!([[2.0, 10.0], [28.0, 10.0]]));
        assert_eq!(lines[0]["expanded"], 0, "the goal is in sight: walked to along the line, not searched");
        assert!(lines[0]["micros"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn radius_takes_the_detour_and_first_path_is_never_shorter() {
    let run = |map: &str, from: &str, to: &str, extra: &[&str]| {
        let mut args = vec!["mesh", "--map", map, "--from", from, "--to", to];
        args.extend_from_slice(extra);
        json_lines(&searchlab(&args))[0]["length"].as_f64().unwrap()
    };
    let corridor = "maps/narrow_corridor.json";
    assert!(run(corridor, "2,10", "28,10", &["--radius", "0.5"]) < 26.0 + 1e-9);
    assert!(
        run(corridor, "2,10", "28,10", &["--radius", "0.9"]) > 30.0,
        "the 1.5 wide corridor is closed to a 1.8 wide agent"
    );
    let optimal = run("maps/pillars.json", "1,1", "39,29", &[]);
    let first = run("maps/pillars.json", "1,1", "39,29", &["--first-path"]);
    assert!(first >= optimal - 1e-9);
}

#[test]
fn query_files_and_grid_maps_print_a_summary() {
    let dir = ScratchDir::new("cli-mesh");
    let queries = dir.write_arg("queries.txt", "# start goal\n1 1 39 29\n5 5 35 25\n\n");
    let lines = json_lines(&searchlab(&["mesh", "--map", "maps/pillars.json", "--queries", &queries, "--algo", "tra"]));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["queries"], 2);
    // A byte-order mark from a Windows editor is not part of the first query.
    let marked = dir.write_arg("queries-bom.txt", "\u{feff}1 1 39 29\n");
    let unmarked = json_lines(&searchlab(&["mesh", "--map", "maps/pillars.json", "--queries", &marked]));
    assert_eq!(unmarked[1]["summary"]["failed"], 0, "{unmarked:?}");
    assert!(lines[2]["summary"]["decision_points"].as_u64().unwrap() > 0);
    let grid = json_lines(&searchlab(&["mesh", "--grid", "maps/lecture-u.map", "--from", "4,11", "--to", "35,11"]));
    let length = grid[0]["length"].as_f64().unwrap();
    assert!(length >= 31.0 - 1e-9, "cell centres 31 apart: {length}");
    // Given as --map, a grid map is still a grid: the same cells, not the corners at those numbers.
    let as_map = json_lines(&searchlab(&["mesh", "--map", "maps/lecture-u.map", "--from", "4,11", "--to", "35,11"]));
    assert_eq!(as_map[0]["waypoints"], grid[0]["waypoints"]);
    assert_eq!(as_map[0]["waypoints"][0], serde_json::json!([4.5, 11.5]), "searched from the start cell's centre");
}

/// A Polyanya mesh: a 4x4 square with a 2x2 hole in the middle, as four trapezoids.
const SQUARE_MESH: &str = "mesh\n2\n8 4\n0 0 0\n4 0 0\n4 4 0\n0 4 0\n1 1 0\n3 1 0\n3 3 0\n1 3 0\n\
                           4 0 1 5 4 -1 1 -1 3\n4 1 2 6 5 -1 2 -1 0\n4 2 3 7 6 -1 3 -1 1\n4 3 0 4 7 -1 0 -1 2\n";

#[test]
fn polyanya_meshes_and_refined_triangulations_give_the_same_lengths() {
    let dir = ScratchDir::new("cli-mesh");
    let mesh = dir.write_arg("square.mesh", SQUARE_MESH);
    let length = |args: &[&str]| json_lines(&searchlab(args))[0]["length"].as_f64().unwrap();
    let around = length(&["mesh", "--map", &mesh, "--from", "0.5,0.5", "--to", "3.5,3.5"]);
    assert!((around - 2.0 * 6.5f64.sqrt()).abs() < 1e-9, "{around}");
    let plain = length(&["mesh", "--map", "maps/u_hall.json", "--from", "2,28", "--to", "28,28"]);
    let refined =
        length(&["mesh", "--map", "maps/u_hall.json", "--from", "2,28", "--to", "28,28", "--min-angle", "25"]);
    assert!((plain - refined).abs() < 1e-9, "{plain} vs {refined}");
    assert_fails(
        &["mesh", "--map", "maps/u_hall.json", "--from", "2,28", "--to", "28,28", "--min-angle", "40"],
        "--min-angle",
    );
    // Three numbers are not a point, whatever the first two are.
    assert_fails(
        &["mesh", "--map", "maps/u_hall.json", "--from", "1,1,1", "--to", "28,28"],
        "'1,1,1' is not x,y (two numbers, e.g. 3.5,4)",
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = ScratchDir::new("cli-mesh");
    let bad_json = dir.write_arg(
        "bad.json",
        "{\"boundary\": [[0,0],[10,0],[10,10],[0,10]],\n \"holes\": [[[1,1],[2,2],[2,1],[1,2]]]}",
    );
    assert_fails(&["mesh", "--map", &bad_json, "--from", "0,0", "--to", "1,1"], "hole 0");
    let broken = dir.write_arg("broken.json", "{\"boundary\": [[0,0],\n[1,0]");
    assert_fails(&["mesh", "--map", &broken, "--from", "0,0", "--to", "1,1"], "broken.json:2:");
    assert_fails(&["mesh", "--map", "maps/none.json", "--from", "0,0", "--to", "1,1"], "cannot read");
    assert_fails(&["mesh", "--map", "maps/pillars.json", "--from", "9,9", "--to", "1,1"], "inside an obstacle");
    assert_fails(&["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "99,1"], "outside the map");
    assert_fails(&["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "2,2", "--radius=-1"], "--radius");
    assert_fails(
        &["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "2,2", "--radius", "-1"],
        "--radius must be a number >= 0",
    );
    assert_fails(&["mesh", "--map", "maps/pillars.json", "--from", "x,1", "--to", "2,2"], "not a number");
    assert_fails(&["mesh", "--grid", "maps/maze64.map", "--from", "0.5,1", "--to", "2,2"], "not a cell");
    let queries = dir.write_arg("queries-bad.txt", "1 1 2 2\n1 1 2\n");
    assert_fails(&["mesh", "--map", "maps/pillars.json", "--queries", &queries], "queries-bad.txt:2:");
    assert_fails(&["mesh", "--from", "1,1", "--to", "2,2"], "--map");
}

#[test]
fn one_bad_query_is_reported_on_its_line_and_the_rest_run() {
    let dir = ScratchDir::new("cli-mesh");
    let queries = dir.write_arg("queries-mixed.txt", "1 1 39 29\n9 9 1 1\n5e307 1 2 2\n2 2 30 20\n");
    let output = searchlab(&["mesh", "--map", "maps/pillars.json", "--queries", &queries]);
    assert_eq!(output.status.code(), Some(1), "some queries failed");
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 5, "four queries and the summary");
    assert!(lines[0]["length"].as_f64().is_some() && lines[3]["length"].as_f64().is_some());
    assert_eq!(lines[1]["error"], "start [9.0, 9.0] is inside an obstacle");
    assert_eq!(lines[2]["error"], "start [5e307, 1.0] is beyond ±10000000", "spade used to panic on this point");
    assert_eq!(lines[4]["summary"]["failed"], 2);
    assert_eq!(lines[4]["summary"]["queries"], 4);
}

#[test]
fn the_expansion_limit_is_an_option_and_names_itself() {
    let run = |limit: &str| {
        searchlab(&["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "39,29", "--max-expansions", limit])
    };
    assert!(run("100000").status.success());
    let output = run("3");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end(), "error: search stopped at its limit of 3 expansions: no path found");
    assert_fails(
        &["mesh", "--map", "maps/pillars.json", "--from", "1,1", "--to", "2,2", "--max-expansions", "0"],
        "--max-expansions must be at least 1",
    );
}

#[test]
fn weighted_grids_and_blocked_cells_are_refused_in_the_users_terms() {
    let dir = ScratchDir::new("cli-mesh");
    // A polygon map is walls and open floor: weights would be dropped without a word.
    let weighted =
        dir.write_arg("weighted.map", "type octile\nheight 3\nwidth 3\nmap\n...\n...\n...\nweights\n111\n191\n111\n");
    assert_fails(&["mesh", "--grid", &weighted, "--from", "0,1", "--to", "2,1"], "weighted cells are refused");
    // Read as a map file (--map, lecture cells, the polygon lab), the same grid is refused alike.
    assert_fails(&["mesh", "--map", &weighted, "--from", "0.5,1.5", "--to", "2.5,1.5"], "weighted cells are refused");
    let blocked = dir.write_arg("blocked.map", "type octile\nheight 3\nwidth 3\nmap\n...\n.@.\n...\n");
    assert_fails(&["mesh", "--grid", &blocked, "--from", "1,1", "--to", "2,2"], "start cell 1,1 is blocked");
    assert_fails(&["mesh", "--grid", &blocked, "--from", "0,0", "--to", "1,1"], "goal cell 1,1 is blocked");
    // A radius the cell's centre has no room for: said of the cell given, as above.
    assert_fails(
        &["mesh", "--grid", &blocked, "--from", "0,0", "--to", "2,2", "--radius", "0.6"],
        "start cell 0,0 is closer than the radius 0.6",
    );
    let open = dir.write_arg("open.map", "type octile\nheight 5\nwidth 5\nmap\n.....\n.....\n.....\n.....\n.....\n");
    assert_fails(
        &["mesh", "--grid", &open, "--from", "2,2", "--to", "4,4", "--radius", "0.6"],
        "goal cell 4,4 is closer than the radius 0.6",
    );
}

#[test]
fn grid_queries_for_another_map_size_are_refused() {
    assert_fails(
        &["mesh", "--grid", "maps/maze64.map", "--queries", "maps/rooms128.map.scen"],
        "for a 128x128 map, but the map is 64x64",
    );
}

/// A MovingAI map and a Polyanya mesh are known by their `.map` and `.mesh` extensions in any
/// case, as the browser build picks its size cap: `U.MAP` is traced as a grid and `SQUARE.MESH`
/// read as a mesh, neither as polygon JSON.
#[test]
fn upper_case_map_and_mesh_extensions_are_read_by_their_kind() {
    let dir = ScratchDir::new("cli-mesh");
    let map = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";
    // A grid map's queries name cells, as with --grid; a mesh's are points.
    let cases = [
        (map, ["u.map", "U.MAP"], ["0,0", "3,2"]),
        (SQUARE_MESH, ["square.mesh", "SQUARE.MESH"], ["0.5,0.5", "3.5,3.5"]),
    ];
    for (contents, [lower, upper], [from, to]) in cases {
        let run =
            |name: &str| searchlab(&["mesh", "--map", &dir.write_arg(name, contents), "--from", from, "--to", to]);
        let (lower, upper) = (run(lower), run(upper));
        assert!(lower.status.success(), "{}", String::from_utf8_lossy(&lower.stderr));
        assert_eq!((upper.status.code(), String::from_utf8_lossy(&upper.stderr)), (Some(0), "".into()));
        // The same path through the same map; only the time taken may differ.
        let path = |output| {
            let mut lines = json_lines(&output);
            lines.iter_mut().for_each(|line| drop(line.as_object_mut().expect("a JSON object").remove("micros")));
            lines
        };
        assert_eq!(path(upper), path(lower));
    }
}
