//! The cave generator (`searchlab gen cave`, `cave:WxH,fill=P`): one connected, irregular cave per
//! seed, and scenarios whose lengths the `pathfinding` crate confirms.

mod common;

use common::cli::{assert_fails, searchlab};
use common::fuzz::cases;
use common::reference::{movingai_cost, movingai_reachable, same_cost};
use common::scratch::ScratchDir;
use proptest::prelude::*;
use searchlab::grid::generate::{Spec, cave};
use searchlab::grid::movingai;

/// Every open cell reaches every other one (counted by the crate's breadth-first search).
fn assert_one_region(spec: &str) {
    let grid = spec.parse::<Spec>().unwrap().generate().unwrap();
    let Some(&first) = grid.passable_cells().first() else { return };
    assert_eq!(movingai_reachable(&grid, grid.coords(first)), grid.passable_count(), "{spec}");
}

#[test]
fn caves_are_one_region_of_irregular_open_ground() {
    for spec in ["cave:128x128,seed=1", "cave:97x61,fill=0.5,seed=4", "cave:200x40,fill=0.4,seed=9"] {
        assert_one_region(spec);
    }
    // At the default fill a cave is neither empty nor a field: open ground with rock around it,
    // and not rows of straight walls (a cell's neighbours disagree often).
    let grid = cave(256, 256, 0.45, 3);
    let open = grid.passable_count() as f64 / grid.cell_count() as f64;
    assert!((0.3..0.8).contains(&open), "open share {open}");
    // A boundary between columns x and x + 1 that does not go on straight down turns there.
    let free = |x: u32, y: u32| grid.is_passable(x as i64, y as i64);
    let cells = || (0..255).flat_map(|y| (0..255).map(move |x| (x, y)));
    let boundary = cells().filter(|&(x, y)| free(x, y) != free(x + 1, y)).count();
    let turning =
        cells().filter(|&(x, y)| free(x, y) != free(x + 1, y) && free(x, y + 1) == free(x + 1, y + 1)).count();
    assert!(boundary > 1000 && turning > boundary / 10, "{boundary} boundary cells, {turning} where it turns");
}

#[test]
fn same_seed_same_cave() {
    assert_eq!(cave(90, 70, 0.45, 7), cave(90, 70, 0.45, 7));
    assert_ne!(cave(90, 70, 0.45, 7), cave(90, 70, 0.45, 8));
    assert_ne!(cave(90, 70, 0.45, 7), cave(90, 70, 0.40, 7));
}

#[test]
fn gen_cave_writes_the_same_map_twice_and_optimal_scenarios() {
    let dir = ScratchDir::new("cave");
    let out = |name: &str| dir.path(name).display().to_string();
    for name in ["a.map", "b.map"] {
        let args = [
            "gen",
            "cave",
            "--width",
            "120",
            "--height",
            "90",
            "--fill",
            "0.44",
            "--seed",
            "5",
            "--scenarios",
            "40",
            "--out",
            &out(name),
        ];
        let output = searchlab(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let read = |name: &str| std::fs::read_to_string(dir.path(name)).unwrap();
    assert_eq!(read("a.map"), read("b.map"));
    assert_eq!(
        read("a.map.scen"),
        read("b.map.scen").replace("b.map", "a.map"),
        "the same queries (each names its map)"
    );
    let grid = movingai::parse_map("a.map", &read("a.map")).unwrap();
    assert_eq!(grid, cave(120, 90, 0.44, 5), "the CLI writes the library's cave");
    let scenarios = movingai::parse_scen("a.map.scen", &read("a.map.scen")).unwrap();
    assert_eq!(scenarios.len(), 40);
    for s in &scenarios {
        let reference = movingai_cost(&grid, s.start, s.goal).expect("written queries are solvable");
        assert!(same_cost(s.optimal, reference), "line {}: {} vs {reference}", s.line, s.optimal);
        assert_eq!(s.bucket, (reference / 4.0) as u32, "line {}: MovingAI's buckets of 4", s.line);
    }
}

#[test]
fn bad_fill_is_one_line_naming_the_option() {
    for fill in ["-0.5", "NaN", "1.5", "inf"] {
        assert_fails(
            &["gen", "cave", "--fill", fill, "--out", "/tmp/never.map"],
            &format!("--fill must be a probability in 0..1, got {fill}"),
        );
    }
    assert_fails(&["gen", "cave", "--fill", "lots", "--out", "/tmp/never.map"], "'lots' is not a number");
    assert_fails(&["gen", "cave", "--width", "2", "--out", "/tmp/never.map"], "map size 2x64 is out of range");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    /// Any size, fill and seed the spec accepts gives one region (or no open cell at all).
    #[test]
    fn any_accepted_cave_is_one_region(width in 3u32..60, height in 3u32..60, fill in 0.0f64..=1.0, seed: u64) {
        assert_one_region(&format!("cave:{width}x{height},fill={fill},seed={seed}"));
    }
}
