//! HPA* on weighted maps, checked against an independent solver (the `pathfinding` crate): every
//! path is a legal grid path whose cost is the cost of its moves, no path beats the optimum, and
//! none costs more than `FACTOR` times it.

mod common;

use common::reference::{movingai_cost, movingai_path_cost, same_cost};
use proptest::prelude::*;
use proptest::sample::Index;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::{Grid, MoveRules, generate};
use searchlab::pathfinding::SearchSpace;
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::trace::NoTrace;

/// HPA*'s worst cost over the optimum on small maps. The paper's own transitions reach it on plain
/// ground: a two-step way round a blocked corner that crosses two narrow entrances, each with its
/// transition a cell away, costs 2 + 4 (`plain_ground_reaches_the_factor`). Weighted maps stay
/// within it: the worst of all pairs of cells on 15,000 random weighted maps of 3 to 10 cells a
/// side (cluster sides 2 to 4, one and two levels) was 2.90, and 120,000 cases of the property
/// below never passed it; transitions placed without looking at weights paid up to 15.2 times the
/// optimum on those maps.
const FACTOR: f64 = 3.0;

/// A map `width` × `height` from row-major cells: 0 blocked, else the weight.
fn grid_of(width: u32, height: u32, cells: &[u8]) -> Grid {
    let mut grid = Grid::new(width, height);
    for (i, &cell) in cells.iter().enumerate() {
        let (x, y) = (i as u32 % width, i as u32 / width);
        match cell {
            0 => grid.set_passable(x, y, false),
            weight => grid.set_weight(x, y, weight),
        }
    }
    grid
}

/// A map from rows of digits: 0 blocked, else the weight.
fn map(rows: &[&str]) -> Grid {
    let cells: Vec<u8> = rows.concat().bytes().map(|b| b - b'0').collect();
    grid_of(rows[0].len() as u32, rows.len() as u32, &cells)
}

/// Small maps: a sixth of the cells blocked, a third weighted 1 to 9, the rest plain.
fn weighted_map() -> impl Strategy<Value = Grid> {
    (3u32..=10, 3u32..=10).prop_flat_map(|(width, height)| {
        let cell = prop_oneof![1 => Just(0u8), 3 => Just(1u8), 2 => 1u8..=9];
        proptest::collection::vec(cell, (width * height) as usize).prop_map(move |cells| grid_of(width, height, &cells))
    })
}

/// Answers start → goal with HPA* and checks the answer against the independent solver; returns
/// HPA*'s cost over the optimum (1 when neither finds a way).
fn checked_ratio(grid: &Grid, hpa: &Hpa, start: (u32, u32), goal: (u32, u32)) -> Result<f64, TestCaseError> {
    let optimum = movingai_cost(grid, start, goal);
    let (from, to) = (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1));
    let found = hpa.query(grid, from, to, HpaQuery { smooth: true }, &mut SearchSpace::new(), &mut NoTrace).path;
    let (Some(optimum), Some((cost, path))) = (optimum, &found) else {
        prop_assert!(optimum.is_none() && found.is_none(), "{start:?} -> {goal:?}: reachable for one solver only");
        return Ok(1.0);
    };
    let cells: Vec<(u32, u32)> = path.iter().map(|&cell| grid.coords(cell)).collect();
    prop_assert_eq!((cells[0], cells[cells.len() - 1]), (start, goal));
    let walked = movingai_path_cost(grid, &cells);
    prop_assert!(
        walked.is_some_and(|walked| same_cost(*cost, walked)),
        "{cells:?}: claimed {cost}, its moves cost {walked:?}"
    );
    prop_assert!(*cost >= optimum - 1e-9, "{start:?} -> {goal:?}: {cost} beats the optimum {optimum}");
    Ok(if optimum > 0.0 { cost / optimum } else { 1.0 })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn weighted_paths_are_legal_and_within_the_factor(
        grid in weighted_map(),
        side in 2u32..=5,
        levels in 1usize..=2,
        queries in proptest::collection::vec((any::<Index>(), any::<Index>()), 12),
    ) {
        let cells = grid.passable_cells();
        prop_assume!(!cells.is_empty());
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, side, levels);
        for (start, goal) in queries {
            let (start, goal) = (grid.coords(*start.get(&cells)), grid.coords(*goal.get(&cells)));
            let ratio = checked_ratio(&grid, &hpa, start, goal)?;
            prop_assert!(ratio <= FACTOR + 1e-9, "{start:?} -> {goal:?}: {ratio:.3} times the optimum");
        }
    }
}

/// A 6 x 5 map with cluster side 3 where transitions placed without looking at weights paid 15.1
/// times the optimum; now the worst pair of cells is plain ground's case: (5, 1) to (4, 3) best
/// crosses the two-cell plain entrance x = 3..4 at x = 4, its one transition is at x = 3.
#[test]
fn a_cheap_crossing_beside_a_dear_one_is_taken() {
    let grid = map(&["611531", "918994", "011111", "411116", "530101"]);
    for levels in [1, 2] {
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 3, levels);
        let mut worst: f64 = 1.0;
        for start in grid.passable_cells() {
            for goal in grid.passable_cells() {
                let ratio = checked_ratio(&grid, &hpa, grid.coords(start), grid.coords(goal)).unwrap();
                worst = worst.max(ratio);
            }
        }
        assert!(worst <= 1.6, "{levels} levels: {worst:.3} times the optimum");
    }
}

/// Why `FACTOR` is 3: on plain ground the paper's transitions alone reach it.
#[test]
fn plain_ground_reaches_the_factor() {
    // Clusters of 2: (4, 1) to (3, 2) goes round the blocked (4, 2) by (3, 1), crossing two
    // two-cell entrances beside their transitions, (3, 0)-(4, 0) and (2, 1)-(2, 2).
    let grid = map(&["00011110", "11111111", "01110110", "11111101", "11111101"]);
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 2);
    let ratio = checked_ratio(&grid, &hpa, (4, 1), (3, 2)).unwrap();
    assert!((ratio - FACTOR).abs() < 1e-9, "{ratio}");
}

/// A 32 x 32 map, a fifth blocked: weighted patches (even seeds) or every cell weighted 1 to 9.
fn terrain(seed: u64) -> Grid {
    let mut grid = generate::random(32, 32, 0.2, seed);
    let mut rng = StdRng::seed_from_u64(seed);
    if seed.is_multiple_of(2) {
        for _ in 0..10 {
            let (x0, y0, width, height) =
                (rng.random_range(0..32), rng.random_range(0..32), rng.random_range(2..10), rng.random_range(2..10));
            let weight = rng.random_range(1..=9);
            (y0..(y0 + height).min(32))
                .for_each(|y| (x0..(x0 + width).min(32)).for_each(|x| grid.set_weight(x, y, weight)));
        }
    } else {
        (0..32).for_each(|y| (0..32).for_each(|x| grid.set_weight(x, y, rng.random_range(1..=9))));
    }
    grid
}

/// What a student comparing with A* sees: mean suboptimality on weighted maps no higher than on
/// plain ones (about 2% on plain 32 x 32 random maps with clusters of 4; measured here 0.6% with
/// clusters of 4 and 0.4% with 8, where weight-blind transitions gave 6.7% with 4).
#[test]
fn weighted_maps_are_near_optimal_on_average() {
    for side in [4, 8] {
        let (mut total, mut queries) = (0.0, 0);
        for seed in 0..20 {
            let grid = terrain(seed);
            let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, side);
            let cells = grid.passable_cells();
            let mut rng = StdRng::seed_from_u64(seed);
            for _ in 0..20 {
                let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
                total += checked_ratio(&grid, &hpa, grid.coords(start), grid.coords(goal)).unwrap() - 1.0;
                queries += 1;
            }
        }
        let mean = total / queries as f64;
        assert!(mean <= 0.02, "clusters of {side}: mean suboptimality {:.2}%", 100.0 * mean);
    }
}
