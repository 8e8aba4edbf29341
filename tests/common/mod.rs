//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

#[cfg(all(feature = "app", feature = "cli"))]
pub mod cli;
pub mod fuzz;
#[cfg(feature = "app")]
pub mod grid_lab;
#[cfg(feature = "app")]
pub mod navmesh_lab;
pub mod reference;
pub mod scratch;
#[cfg(feature = "app")]
pub mod tree_lab;
#[cfg(feature = "app")]
pub mod ui;

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::{Grid, MoveRules};
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::NoTrace;

/// `../shared/<sub>` next to the project (or `$SEARCHLAB_SHARED/<sub>`), where fetched benchmark
/// data lives (never committed). Under `CI=true` missing data fails the test; elsewhere the test is
/// skipped with a message.
pub fn shared_data(sub: &str) -> Option<PathBuf> {
    // A git worktree lies deeper than the project's checkout: $SEARCHLAB_SHARED names the place.
    let shared = std::env::var_os("SEARCHLAB_SHARED")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"), PathBuf::from);
    let dir = shared.join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{} is missing: CI must provide the shared MovingAI data", dir.display());
    }
    eprintln!("skipping: {} not found (fetched data lives outside the project)", dir.display());
    None
}

/// A bundled map of the project.
pub fn project_map(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)
}

/// Checks on 300 random pairs of `grid` that `finds` (a planner: does it return a path?) agrees
/// with A* and with the connected components, and that both outcomes occur often.
pub fn assert_reports_unreachable_like_astar(
    grid: &Grid,
    seed: u64,
    mut finds: impl FnMut(u32, u32, &mut SearchSpace) -> bool,
) {
    let labels = grid.components(MoveRules::MOVINGAI);
    let cells = grid.passable_cells();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut space = SearchSpace::new();
    let (mut split, mut joined) = (0, 0);
    for _ in 0..300 {
        let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
        let astar = GridSearch::default().run(grid, start, goal, &mut space, &mut NoTrace).path.is_some();
        assert_eq!(finds(start, goal, &mut space), astar, "{start} -> {goal}");
        assert_eq!(astar, labels[start as usize] == labels[goal as usize]);
        if astar { joined += 1 } else { split += 1 }
    }
    assert!(split > 20 && joined > 20, "the map must exercise both cases ({split} / {joined})");
}

/// `count` unfinished positions, each reached by up to `max_plies - 1` random moves from `start`
/// (history included, so repetitions count), deterministic for a seed.
pub fn random_positions<G: searchlab::games::Game>(start: &G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut game = start.clone();
        let plies = rng.random_range(0..max_plies);
        searchlab::games::random_playout(&mut game, plies, &mut rng);
        if game.outcome().is_none() {
            positions.push(game);
        }
    }
    positions
}

/// A Polyanya `.mesh` of the `n` x `n` unit squares from (0, 0), one polygon per square, without
/// the squares in `holes` (given by their lower-left corners).
pub fn polyanya_grid(n: i32, holes: &[(i32, i32)]) -> String {
    let squares: Vec<(i32, i32)> =
        (0..n).flat_map(|y| (0..n).map(move |x| (x, y))).filter(|s| !holes.contains(s)).collect();
    let index: std::collections::HashMap<(i32, i32), usize> =
        squares.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let id = |x: i32, y: i32| index.get(&(x, y)).map_or(-1, |&i| i as i64);
    let vertex = |x: i32, y: i32| y * (n + 1) + x;
    let mut text = format!("mesh\n2\n{} {}\n", (n + 1) * (n + 1), squares.len());
    for y in 0..=n {
        for x in 0..=n {
            text += &format!("{x} {y} 4 {} {} {} {}\n", id(x, y), id(x - 1, y), id(x - 1, y - 1), id(x, y - 1));
        }
    }
    for &(x, y) in &squares {
        let corners = [vertex(x, y), vertex(x + 1, y), vertex(x + 1, y + 1), vertex(x, y + 1)];
        let across = [id(x, y - 1), id(x + 1, y), id(x, y + 1), id(x - 1, y)];
        text += &format!(
            "4 {} {} {} {} {} {} {} {}\n",
            corners[0], corners[1], corners[2], corners[3], across[0], across[1], across[2], across[3]
        );
    }
    text
}

/// What a parser must answer to any input: a value, or one non-empty line saying what is wrong
/// (never a panic, which the calling property test would catch as a failure too).
pub fn assert_one_line_error<T, E: std::fmt::Display>(result: Result<T, E>) {
    if let Err(error) = result {
        let message = error.to_string();
        assert!(!message.trim().is_empty() && !message.contains('\n'), "not one line: {message:?}");
    }
}
