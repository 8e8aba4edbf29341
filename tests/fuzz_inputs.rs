//! Every parser and every command that reads a file, fed hostile input (see `common::fuzz`):
//! nothing panics or hangs, and every refusal is one readable line. What the parsers accept goes
//! on to what a user would do next (triangulate and search a map, plot a log), which must hold
//! up too. Below the fuzz targets, each problem they found, as a regression test.
//!
//! `cargo test` runs 1,000 cases per parser and 50 per command; the full run is
//! `FUZZ_CASES=100000 cargo test --release --test fuzz_inputs` (commands get a twentieth).

mod common;

use std::path::Path;

use common::fuzz::{assert_one_line, cases, hostile, within_bounded_time};
use common::scratch::ScratchDir;
use proptest::prelude::*;
use searchlab::games::barca::{Barca, Weights, game_text, parse_game, perft::perft};
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{Evaluator, Game};
use searchlab::grid::movingai::{parse_map, parse_scen, searchable_scenarios};
use searchlab::grid::{Grid, generate};
use searchlab::lecture::Lecture;
use searchlab::navmesh::grid_outline::grid_outline;
use searchlab::navmesh::polyanya::parse_mesh;
use searchlab::navmesh::reduction::Reduction;
use searchlab::navmesh::tastar::{MeshQuery, ta_star};
use searchlab::navmesh::trastar::tra_star;
use searchlab::navmesh::{Navmesh, Outline, PolygonMap};
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::tournament::plot::tuning_svg;
use searchlab::tournament::tune::TuneLog;
use searchlab::trace::NoTrace;

fn project_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("bundled file")
}

/// A 6x6 Polyanya mesh of unit squares with one square hole.
fn small_mesh() -> String {
    common::polyanya_grid(6, &[(2, 3)])
}

fn map_seeds() -> Vec<String> {
    let mut weighted: Grid = generate::random(12, 9, 0.2, 4);
    weighted.set_weight(3, 3, 7);
    vec![project_file("maps/lecture-u.map"), searchlab::grid::movingai::write_map(&weighted)]
}

fn polygon_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = ["pillars.json", "u_hall.json", "narrow_corridor.json"]
        .iter()
        .map(|m| project_file(&format!("maps/{m}")))
        .collect();
    seeds.push(
        r#"{"boundary": [[0,0],[10,0],[10,10],[0,10]], "holes": [[[4,4],[6,4],[6,6]]], "queries": [[1,1,9,9]]}"#
            .to_string(),
    );
    seeds
}

fn fen_seeds() -> Vec<String> {
    vec![
        searchlab::games::barca::START_FEN.to_string(),
        "4ee4/3lmml3/10/10/10/4M5/10/10/3L1ML3/4EE4 b".to_string(),
        "e8e/m1l5l1/10/10/2m7/10/10/10/3LMML3/4EE4 w".to_string(),
    ]
}

fn game_seeds() -> Vec<String> {
    let mut seeds = Vec::new();
    for (fen, moves) in [
        (searchlab::games::barca::START_FEN, &["e2e5", "e9e6", "d2b4"][..]),
        ("4ee4/3lmml3/10/10/10/4M5/10/10/3L1ML3/4EE4 b", &["e9e7"][..]),
    ] {
        let mut game = Barca::from_fen(fen).unwrap();
        for text in moves {
            game.make_move(game.parse_move(text).unwrap());
        }
        seeds.push(game_text(fen, &game.moves_played().collect::<Vec<_>>()));
    }
    seeds
}

/// Two points of the map's free space, if it has any: near its first boundary vertex and at the
/// middle of its bounding box.
fn query_points(outline: &Outline) -> Option<([f64; 2], [f64; 2])> {
    let first = *outline.points.first()?;
    let (mut low, mut high) = (first, first);
    for p in &outline.points {
        low = [low[0].min(p[0]), low[1].min(p[1])];
        high = [high[0].max(p[0]), high[1].max(p[1])];
    }
    let middle = [(low[0] + high[0]) / 2.0, (low[1] + high[1]) / 2.0];
    Some(([first[0] * 0.95 + middle[0] * 0.05, first[1] * 0.95 + middle[1] * 0.05], middle))
}

/// What `mesh` does with a map that parsed: triangulate it and search it with TA* and TRA*.
fn triangulate_and_search(outline: &Outline) {
    let mesh = match Navmesh::build(outline, None) {
        Ok(mesh) => mesh,
        Err(error) => return assert_one_line(&error),
    };
    let Some((start, goal)) = query_points(outline) else { return };
    let query = MeshQuery { max_expansions: 100_000, ..MeshQuery::new(start, goal) };
    let ta = ta_star(&mesh, &query, &mut NoTrace);
    let tra = tra_star(&mesh, &Reduction::new(&mesh), &query, &mut NoTrace);
    for result in [&ta, &tra] {
        if let Err(error) = result {
            assert_one_line(error);
        }
    }
    if let (Ok(ta), Ok(tra)) = (ta, tra) {
        let length = |r: &searchlab::navmesh::tastar::MeshSearchResult| r.path.as_ref().map(|p| p.length);
        match (length(&ta), length(&tra)) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-7 * a.max(1.0), "TA* {a} TRA* {b}"),
            (a, b) => assert_eq!(a.is_some(), b.is_some(), "TA* and TRA* disagree on reachability"),
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000)))]

    #[test]
    fn grid_maps(bytes in hostile(map_seeds())) {
        within_bounded_time(".map", || match parse_map("fuzz.map", &text(&bytes)) {
            Err(error) => assert_one_line(&error.to_string()),
            Ok(grid) => {
                let cells = grid.passable_cells();
                if let (Some(&start), Some(&goal)) = (cells.first(), cells.last()) {
                    GridSearch::default().run(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
                }
                if grid.cell_count() <= 10_000 {
                    triangulate_and_search(&grid_outline(&grid));
                }
            }
        });
    }

    #[test]
    fn scenarios(bytes in hostile(vec![project_file("maps/lecture-u.map.scen"), project_file("maps/maze64.map.scen")])) {
        let grid = parse_map("lecture-u.map", &project_file("maps/lecture-u.map")).unwrap();
        within_bounded_time(".scen", || match parse_scen("fuzz.scen", &text(&bytes)) {
            Err(error) => assert_one_line(&error.to_string()),
            Ok(scenarios) => match searchable_scenarios("fuzz.scen", scenarios, &grid) {
                Err(error) => assert_one_line(&error.to_string()),
                Ok((_, left_out)) => left_out.iter().for_each(|error| assert_one_line(&error.to_string())),
            },
        });
    }

    #[test]
    fn polygon_maps(bytes in hostile(polygon_seeds())) {
        within_bounded_time("polygon JSON", || match PolygonMap::parse("fuzz.json", &text(&bytes)) {
            Err(error) => assert_one_line(&error.to_string()),
            Ok(map) => triangulate_and_search(&map.outline()),
        });
    }

    #[test]
    fn polyanya_meshes(bytes in hostile(vec![small_mesh()])) {
        within_bounded_time(".mesh", || match parse_mesh("fuzz.mesh", &text(&bytes)) {
            Err(error) => assert_one_line(&error.to_string()),
            Ok(outline) => triangulate_and_search(&outline),
        });
    }

    #[test]
    fn barca_positions(bytes in hostile(fen_seeds())) {
        within_bounded_time("FEN", || match Barca::from_fen(&text(&bytes)) {
            Err(error) => assert_one_line(&error.to_string()),
            Ok(mut game) => {
                assert_eq!(Barca::from_fen(&game.to_fen()).unwrap().to_fen(), game.to_fen(), "FEN round trip");
                perft(&mut game, 1);
            }
        });
    }

    #[test]
    fn barca_move_lists(bytes in hostile(game_seeds())) {
        within_bounded_time("move list", || {
            if let Err(error) = parse_game(&text(&bytes)) {
                assert_one_line(&error);
            }
        });
    }

    #[test]
    fn barca_weights(bytes in hostile(vec![project_file("examples/data/tuned-weights.json")])) {
        within_bounded_time("weights JSON", || match Weights::from_json(&text(&bytes)) {
            Err(error) => assert_one_line(&error),
            Ok(weights) => {
                weights.evaluate(&Barca::start());
            }
        });
    }

    #[test]
    fn tuning_logs(bytes in hostile(vec![project_file("examples/data/tuning-log.json")])) {
        within_bounded_time("tuning log", || match TuneLog::from_json(&text(&bytes)) {
            Err(error) => assert_one_line(&error),
            Ok(log) => {
                let svg = tuning_svg(&log);
                assert!(!svg.contains("inf") && !svg.contains("NaN"), "a non-finite coordinate in the plot");
            }
        });
    }

    #[test]
    fn tictactoe_positions(bytes in hostile(vec!["x.o/.x./..o".to_string(), "xx./oo./...".to_string(), ".........".to_string()])) {
        within_bounded_time("tic-tac-toe position", || {
            let text = text(&bytes);
            match TicTacToe::from_position(&text) {
                Err(error) => assert_one_line(&error),
                Ok(game) => assert_eq!(TicTacToe::from_position(&game.position_text()).unwrap().position_text(), game.position_text()),
            }
            if let Err(error) = TicTacToe::parse_cell(&text) {
                assert_one_line(&error);
            }
        });
    }
}

/// Whether the system lets a process take `text` as one argument (no NUL, under Linux's 128 kB).
fn passable_as_argument(text: &str) -> bool {
    !text.contains('\0') && text.len() < 100_000
}

/// Runs the command: it may succeed (0), report failed queries (1) or refuse (2), with at most
/// one readable error line on stderr (and at most one warning line), never a panic.
fn assert_command_copes(args: &[&str]) {
    let output = within_bounded_time("the command", || common::cli::searchlab(args));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let start: String = stderr.chars().take(800).collect();
    assert!(matches!(output.status.code(), Some(0..=2)), "exit {:?}, stderr {start}", output.status.code());
    let (warnings, errors): (Vec<&str>, Vec<&str>) = stderr.lines().partition(|line| line.starts_with("warning: "));
    assert!(warnings.len() <= 1 && errors.len() <= 1, "stderr has {} lines: {start}", stderr.lines().count());
    for line in warnings.iter().chain(&errors) {
        assert_one_line(line);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000) / 20))]

    #[test]
    fn grid_map_commands(map in hostile(map_seeds()), scen in hostile(vec![project_file("maps/lecture-u.map.scen")])) {
        let dir = ScratchDir::new("fuzz");
        let (map, scen) = (&dir.write_arg("g.map", &map), &dir.write_arg("g.scen", &scen));
        assert_command_copes(&["path", "--map", map, "--from", "1,1", "--to", "5,5"]);
        assert_command_copes(&["path", "--map", "maps/lecture-u.map", "--scen", scen]);
        assert_command_copes(&["mesh", "--grid", map, "--from", "1,1", "--to", "5,5"]);
        assert_command_copes(&["mesh", "--grid", "maps/lecture-u.map", "--queries", scen]);
    }

    #[test]
    fn mesh_command(json in hostile(polygon_seeds()), mesh in hostile(vec![small_mesh()]), queries in hostile(vec!["1 1 39 29\n2 2 30 20\n".to_string()])) {
        let dir = ScratchDir::new("fuzz");
        let (json, mesh, queries) = (&dir.write_arg("m.json", &json), &dir.write_arg("m.mesh", &mesh), &dir.write_arg("q.txt", &queries));
        assert_command_copes(&["mesh", "--map", json, "--from", "1,1", "--to", "9,9"]);
        assert_command_copes(&["mesh", "--map", mesh, "--from", "0.5,0.5", "--to", "5.5,5.5", "--algo", "tra"]);
        assert_command_copes(&["mesh", "--map", "maps/pillars.json", "--queries", queries]);
    }

    #[test]
    fn barca_commands(fen in hostile(fen_seeds()), weights in hostile(vec![project_file("examples/data/tuned-weights.json")]), log in hostile(vec![project_file("examples/data/tuning-log.json")])) {
        let fen = text(&fen);
        if passable_as_argument(&fen) {
            assert_command_copes(&["barca", "perft", "--depth", "1", "--fen", &fen]);
        }
        let dir = ScratchDir::new("fuzz");
        let weights = dir.write_arg("w.json", &weights);
        assert_command_copes(&["barca", "match", "--white", "alphabeta:1", "--black", "alphabeta:1", "--white-weights", &weights, "--games", "2", "--summary-only"]);
        let (log, svg) = (dir.write_arg("log.json", &log), dir.path("log.svg"));
        assert_command_copes(&["barca", "plot", "--log", &log, "--out", svg.to_str().unwrap()]);
    }

    #[test]
    fn tictactoe_command(position in hostile(vec!["x.o/.x./..o".to_string(), "xx./oo./...".to_string()])) {
        let position = text(&position);
        if passable_as_argument(&position) {
            assert_command_copes(&["tictactoe", "search", "--algo", "alphabeta", "--position", &position]);
        }
    }
}

// What the fuzzing (and issue 19's hostile user) found, each fixed, each kept here.

#[test]
fn a_long_position_is_cut_in_the_error() {
    let long = searchlab::games::barca::START_FEN.repeat(2_000);
    let output = common::cli::searchlab(&["barca", "perft", "--depth", "1", "--fen", &long]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_one_line(stderr.trim_end());
    assert!(stderr.contains("--fen '4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE...'"), "{stderr}");
}

#[test]
fn newlines_and_control_characters_in_input_are_escaped() {
    let error = TicTacToe::from_position("x.o\n.x.\n..\u{1b}[2Jo").unwrap_err();
    assert_one_line(&error);
    assert!(error.contains("x.o\\n.x.\\n..\\u{1b}[2Jo"), "{error}");
    let error = Barca::from_fen("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 \u{202e}w").unwrap_err().to_string();
    assert_one_line(&error);
    let error = parse_game("1. e2e5\n2. \u{7}x9").unwrap_err();
    assert!(error.contains("\\u{7}x9"), "{error}");
    let error = parse_map("evil\nname.map", "type octile\nheight 1\nwidth 1\nmap\n\u{0}").unwrap_err().to_string();
    assert_one_line(&error);
    assert!(error.starts_with("evil\\nname.map:5: unknown terrain '\\u{0}'"), "{error}");
}

#[test]
fn huge_query_coordinates_are_refused_like_map_vertices() {
    let output = common::cli::searchlab(&["mesh", "--map", "maps/pillars.json", "--from", "5e307,1", "--to", "1,1"]);
    assert_eq!(output.status.code(), Some(2), "spade used to panic here");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("start [5e307, 1.0] is beyond ±10000000"), "{stderr}");
    let mesh = Navmesh::build(
        &PolygonMap::parse("square.json", r#"{"boundary": [[0,0],[4,0],[4,4],[0,4]]}"#).unwrap().outline(),
        None,
    )
    .unwrap();
    let error = ta_star(&mesh, &MeshQuery::new([1.0, 1.0], [-1e300, 2.0]), &mut NoTrace).unwrap_err();
    assert_eq!(error, "goal [-1e300, 2.0] is beyond ±10000000");
}

#[test]
fn files_starting_with_a_byte_order_mark_are_read() {
    let map = "\u{feff}type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n..\r\n";
    assert_eq!(parse_map("bom.map", map).unwrap().width(), 2);
    assert_eq!(parse_scen("bom.scen", "\u{feff}version 1\n0\tbom.map\t2\t1\t0\t0\t1\t0\t1\n").unwrap().len(), 1);
    assert!(parse_mesh("bom.mesh", &format!("\u{feff}{}", small_mesh())).is_ok());
    let weights = project_file("examples/data/tuned-weights.json");
    assert_eq!(Weights::from_json(&format!("\u{feff}{weights}")), Weights::from_json(&weights));
    assert!(parse_game("\u{feff}1. e2e5").is_ok());
    let lecture = Lecture::parse("\u{feff}---\nsearchlab: 1\ntitle: Marked\n---\n# Talk\n").unwrap();
    assert_eq!(lecture.title.as_deref(), Some("Marked"), "the front matter is read, not shown as a slide");
    assert_eq!(
        Lecture::parse("\u{feff}---\nsearchlab: 2\n---\n").map(drop).unwrap_err().line,
        2,
        "the version is checked"
    );
}

#[test]
fn headers_claiming_huge_sizes_fail_on_what_is_missing() {
    // These used to reserve the claimed memory (64 MB, 160 MB) before reading a line.
    let error = parse_map("big.map", "type octile\nheight 8192\nwidth 8192\nmap\n").unwrap_err();
    assert_eq!(error.to_string(), "big.map:5: unexpected end of file, expected 8192 map rows, found 0");
    let error = parse_mesh("big.mesh", "mesh\n2\n10000000 10000000\n").unwrap_err();
    assert!(error.to_string().contains("unexpected end of file, expected vertex 0: x"), "{error}");
}

#[test]
fn scores_out_of_range_are_refused_and_plots_stay_finite() {
    let good = project_file("examples/data/tuning-log.json");
    let mut log = TuneLog::from_json(&good).unwrap();
    let huge = good.replacen("\"report_score\": 0.0", "\"report_score\": 1e308", 1);
    assert_ne!(huge, good, "the bundled log starts with a report score of 0.0");
    assert_eq!(TuneLog::from_json(&huge).unwrap_err(), "tuning log: iteration 0: report score 1e308 is outside -1..1");
    // The plot itself copes with any finite values (the app plots logs as they are made).
    log.iterations[0].report_score = 1e308;
    log.iterations[1].report_score = -1e308;
    log.iterations[2].plain_score = f64::NAN;
    let svg = tuning_svg(&log);
    assert!(!svg.contains("inf") && !svg.contains("NaN"), "every coordinate is a number");
}

#[test]
fn a_zigzag_of_many_edges_is_checked_in_bounded_time() {
    // Every edge of this boundary overlaps every other in x: the crossing check, which swept
    // over x, compared all pairs (52 s for these 100,000 edges); over y it compares neighbours.
    let mut boundary: Vec<[f64; 2]> = (0..100_000).map(|i| [f64::from(i % 2), f64::from(i) * 0.001]).collect();
    boundary.extend([[5.0, 100.0], [5.0, -1.0], [0.0, -1.0]]);
    let map = within_bounded_time("the crossing check", || PolygonMap { boundary, holes: vec![] }.validated());
    assert!(map.is_ok());
}
