//! Every error path of the MovingAI parsers names file, line and problem; nothing panics.

mod common;

use common::scratch::ScratchDir;
use proptest::prelude::*;
use searchlab::grid::movingai::{
    is_map_file, load_map, parse_map, parse_scen, searchable_scenarios, write_map, write_scen,
};
use searchlab::grid::{Grid, generate};
use searchlab::pathfinding::scenarios;

const GOOD_MAP: &str = "type octile\nheight 2\nwidth 3\nmap\n.@.\nTGS\n";

fn map_error(text: &str) -> (usize, String) {
    let error = parse_map("bad.map", text).expect_err("must be rejected");
    assert_eq!(error.file, "bad.map");
    let shown = error.to_string();
    assert!(shown.starts_with("bad.map:"), "{shown}");
    (error.line, error.message)
}

fn assert_map_error(text: &str, line: usize, fragment: &str) {
    let (got_line, message) = map_error(text);
    assert_eq!(got_line, line, "{message}");
    assert!(message.contains(fragment), "'{message}' should mention '{fragment}'");
}

#[test]
fn good_map_parses_with_terrain_classes() {
    let grid = parse_map("ok.map", GOOD_MAP).unwrap();
    assert_eq!((grid.width(), grid.height()), (3, 2));
    let passable: Vec<bool> = (0..6).map(|c| grid.is_cell_passable(c)).collect();
    assert_eq!(passable, vec![true, false, true, false, true, true]);
    // Windows line ends and width-before-height are accepted too.
    let swapped = "type octile\r\nwidth 3\r\nheight 2\r\nmap\r\n.@.\r\nTGS\r\n";
    assert_eq!(parse_map("ok.map", swapped).unwrap(), grid);
    // So are rows padded with trailing spaces or tabs, as hand edits and spreadsheets leave them.
    let padded = "type octile\nheight 2\nwidth 3\nmap\n.@.  \nTGS\t\r\n";
    assert_eq!(parse_map("ok.map", padded).unwrap(), grid);
}

#[test]
fn map_header_errors() {
    assert_map_error("", 1, "expected 'type octile'");
    assert_map_error("type hex\n", 1, "unsupported map type 'hex'");
    assert_map_error("hello\n", 1, "expected 'type octile'");
    assert_map_error("type octile\n", 2, "unexpected end of file");
    assert_map_error("type octile\nheight x\n", 2, "height 'x' is not a whole number");
    assert_map_error("type octile\nheight 99999999999\n", 2, "height '99999999999' is too big (max 4294967295)");
    assert_map_error("type octile\nheight 0\n", 2, "at least 1");
    assert_map_error("type octile\nheight 2 3\n", 2, "unexpected '3'");
    assert_map_error("type octile\nheight 2\nheight 2\n", 3, "expected 'height <number>' or 'width <number>'");
    assert_map_error("type octile\ndepth 2\n", 2, "expected 'height");
    assert_map_error("type octile\nheight\n", 2, "needs a number");
    assert_map_error("type octile\nheight 100000\nwidth 100000\nmap\n", 3, "larger than the limit");
    assert_map_error("type octile\nheight 2\nwidth 3\nmop\n", 4, "expected 'map'");
}

#[test]
fn map_body_errors() {
    let header = "type octile\nheight 2\nwidth 3\nmap\n";
    assert_map_error(&format!("{header}...\n"), 6, "expected 2 map rows, found 1");
    assert_map_error(&format!("{header}...\n..\n"), 6, "row has 2 cells, expected width 3");
    assert_map_error(&format!("{header}....\n...\n"), 5, "row has 4 cells");
    assert_map_error(&format!("{header}.x.\n...\n"), 5, "unknown terrain 'x' in column 2");
    // A space inside a row is still no terrain.
    assert_map_error(&format!("{header}. .\n...\n"), 5, "unknown terrain ' ' in column 2");
    assert_map_error(&format!("{header}...\n...\nextra\n"), 7, "unexpected 'extra'");
}

#[test]
fn weights_section_round_trips_and_checks_digits() {
    let mut grid = generate::random(7, 5, 0.2, 3);
    grid.set_weight(2, 3, 7);
    grid.set_weight(6, 0, 9);
    let text = write_map(&grid);
    assert!(text.contains("\nweights\n"));
    assert_eq!(parse_map("w.map", &text).unwrap(), grid);
    let header = "type octile\nheight 1\nwidth 2\nmap\n..\nweights\n";
    assert_map_error(&format!("{header}10\n"), 7, "weight '0' in column 2 is not a digit 1-9");
    assert_map_error(&format!("{header}1\n"), 7, "weight row has 1 cell, expected width");
    assert_map_error(header, 7, "expected 1 weight rows");
    assert_map_error(&format!("{header}11\nmore\n"), 8, "unexpected 'more' after the weights");
}

#[test]
fn unreadable_files_name_the_file() {
    let error = load_map(std::path::Path::new("/nonexistent/x.map")).unwrap_err();
    assert!(error.to_string().starts_with("/nonexistent/x.map: cannot read"), "{error}");
    let dir = ScratchDir::new("parse");
    let binary = dir.write("binary.map", b"type octile\nheight 1\n\xff\xfe");
    let error = load_map(&binary).unwrap_err();
    assert_eq!((error.line, error.message.as_str()), (3, "not UTF-8 text"));
}

fn assert_scen_error(text: &str, line: usize, fragment: &str) {
    let error = parse_scen("bad.scen", text).expect_err("must be rejected");
    assert_eq!(error.line, line, "{}", error.message);
    assert!(error.message.contains(fragment), "'{}' should mention '{fragment}'", error.message);
}

#[test]
fn scen_errors() {
    assert_scen_error("", 1, "expected 'version 1'");
    assert_scen_error("version 2\n", 1, "unsupported scenario version '2' (version 1 files are read)");
    let v = "version 1\n";
    assert_scen_error(&format!("{v}0\tm.map\t3\t2\t0\t0\t2\n"), 2, "expected 9 fields");
    assert_scen_error(&format!("{v}0\tm.map\t3\t2\tx\t0\t2\t1\t2.5\n"), 2, "start x 'x' is not a whole number");
    assert_scen_error(
        &format!("{v}0\tm.map\t3\t2\t0\t0\t99999999999999999999\t1\t2.5\n"),
        2,
        "goal x '99999999999999999999' is too big (max 4294967295)",
    );
    assert_scen_error(&format!("{v}0\tm.map\t3\t2\t0\t0\t2\t1\t-1\n"), 2, "optimal length '-1'");
    assert_scen_error(&format!("{v}0\tm.map\t3\t2\t0\t0\t2\t1\tNaN\n"), 2, "optimal length 'NaN'");
    assert_scen_error(&format!("{v}\n0\tm.map\t3\t2\t0\t0\t3\t1\t3\n"), 3, "goal (3,1) is outside the 3x2 map");
}

#[test]
fn scenarios_are_checked_against_their_map() {
    let grid = parse_map("ok.map", GOOD_MAP).unwrap();
    let good = parse_scen("s.scen", "version 1\n0 ok.map 3 2 0 0 2 1 2.41421356\n").unwrap();
    assert_eq!(searchable_scenarios("s.scen", good.clone(), &grid).unwrap(), (good.clone(), vec![]));
    // A query from a blocked cell is left out, saying where; the others stay.
    let mixed = parse_scen("s.scen", "version 1\n0 ok.map 3 2 0 0 2 1 2.41421356\n0 ok.map 3 2 1 0 2 1 1\n").unwrap();
    let (kept, left_out) = searchable_scenarios("s.scen", mixed, &grid).unwrap();
    assert_eq!(kept, good);
    assert_eq!(left_out.len(), 1);
    assert_eq!(
        left_out[0].to_string(),
        "s.scen:3: start (1,0) is a blocked cell (searchlab blocks '@', 'O', 'T' and water 'W')"
    );
    let other_size = parse_scen("s.scen", "version 1\n0 ok.map 4 2 0 0 2 1 1\n").unwrap();
    let error = searchable_scenarios("s.scen", other_size, &grid).unwrap_err();
    assert!(error.message.contains("for a 4x2 map, but the map is 3x2"), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        common::assert_one_line_error(parse_map("fuzz.map", &text));
        common::assert_one_line_error(parse_scen("fuzz.scen", &text));
    }

    #[test]
    fn mutated_maps_never_panic(position in 0usize..60, byte in any::<u8>()) {
        let mut bytes = GOOD_MAP.as_bytes().to_vec();
        bytes.insert(position.min(bytes.len()), byte);
        common::assert_one_line_error(parse_map("fuzz.map", &String::from_utf8_lossy(&bytes)));
    }

    #[test]
    fn written_maps_and_scenarios_parse_back(width in 3u32..30, height in 3u32..30, seed in any::<u64>()) {
        let grid: Grid = generate::random(width, height, 0.3, seed);
        prop_assert_eq!(&parse_map("g.map", &write_map(&grid)).unwrap(), &grid);
        let set = scenarios::generate(&grid, "g.map", 5, seed);
        let back = parse_scen("g.scen", &write_scen(&set)).unwrap();
        prop_assert_eq!(back.len(), set.len());
        for (a, b) in back.iter().zip(&set) {
            prop_assert_eq!((a.start, a.goal), (b.start, b.goal));
            prop_assert!((a.optimal - b.optimal).abs() < 1e-7);
        }
    }
}

#[test]
fn a_map_file_is_named_dot_map_in_any_case() {
    let named = |paths: &[&str]| paths.iter().map(|path| is_map_file(path.as_ref())).collect::<Vec<_>>();
    assert_eq!(named(&["a.map", "maps/ARENA.MAP", "x.y/Room.Map"]), [true; 3]);
    assert_eq!(named(&["a.map.scen", "a.json", "a.mapx", "map", ".map", "maps.map/a"]), [false; 6]);
}

#[test]
fn a_scenario_knows_the_precision_its_length_was_printed_to() {
    let text = "version 1\n0\tm.map\t5\t5\t0\t0\t3\t1\t3.41\n0\tm.map\t5\t5\t0\t0\t3\t1\t3.41421356\n0\tm.map\t5\t5\t0\t0\t3\t0\t3\n";
    let [two, eight, whole] = &parse_scen("s.scen", text).unwrap()[..] else { panic!("three scenarios") };
    assert_eq!((two.optimal_decimals, eight.optimal_decimals, whole.optimal_decimals), (2, 8, 0));
    let diagonal_and_two = 2.0 + std::f64::consts::SQRT_2;
    // 3.41 stands for anything from 3.405 to 3.415; 3.41421356 is far finer than the 0.001 slack.
    assert!(two.is_optimal(diagonal_and_two) && two.is_optimal(3.4149) && !two.is_optimal(3.416));
    assert_eq!(two.suboptimality(diagonal_and_two), 0.0);
    assert!((two.suboptimality(3.5) - (3.5 / 3.41 - 1.0)).abs() < 1e-12);
    assert!(eight.is_optimal(diagonal_and_two) && !eight.is_optimal(3.4162));
    assert!(whole.is_optimal(3.0) && whole.is_optimal(3.4) && !whole.is_optimal(3.6));
    assert_eq!(
        (two.optimal_text(), eight.optimal_text(), whole.optimal_text()),
        ("3.41".to_string(), "3.414".to_string(), "3".to_string())
    );
    // Written back with the digits it was read with, not eight that were never there.
    assert!(write_scen(std::slice::from_ref(two)).ends_with("\t3.41\n"));
}
