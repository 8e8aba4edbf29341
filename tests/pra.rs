//! PRA*: the clique pyramid is a proper hierarchy, and queries give valid, near-optimal paths.

mod common;

use searchlab::graph::path_cost;
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::plan_trace::{PlanEvent, PlanStage};
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
use searchlab::pathfinding::search_trace::SearchEvent;
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::{NO_NODE, NoTrace, Recorder};

fn bundled(name: &str) -> (Grid, Vec<Scenario>) {
    let map = common::project_map(name);
    (movingai::load_map(&map).unwrap(), movingai::load_scen(&map.with_file_name(format!("{name}.scen"))).unwrap())
}

fn endpoints(grid: &Grid, s: &Scenario) -> (u32, u32) {
    (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))
}

#[test]
fn every_level_partitions_the_one_below() {
    let grid = generate::rooms(70, 50, 8, 0.3, 6);
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    assert!(pyramid.height() >= 4, "a 70x50 map needs several levels, got {}", pyramid.height());
    for level in 1..pyramid.height() {
        let below = pyramid.node_count(&grid, level - 1);
        let mut seen = vec![false; below];
        for node in 0..pyramid.node_count(&grid, level) as u32 {
            let children = pyramid.children(level, node);
            assert!((1..=5).contains(&children.len()), "cliques of up to 4, plus a joined orphan");
            for &child in children {
                assert!(!seen[child as usize], "level {level}: {child} has two parents");
                seen[child as usize] = true;
                assert_eq!(pyramid.parent(level - 1, child), node);
            }
        }
        let live = |n: usize| level > 1 || grid.is_cell_passable(n as u32);
        assert!((0..below).all(|n| seen[n] == live(n)), "level {level} covers exactly the live nodes below");
    }
    let top = pyramid.height() - 1;
    let components: std::collections::HashSet<u32> =
        grid.components(MoveRules::MOVINGAI).into_iter().filter(|&c| c != u32::MAX).collect();
    assert_eq!(pyramid.node_count(&grid, top), components.len(), "one top node per connected component");
}

#[test]
fn open_ground_groups_into_two_by_two_blocks() {
    let grid = Grid::new(4, 4);
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    assert_eq!(pyramid.node_count(&grid, 1), 4);
    for node in 0..4 {
        let mut cells: Vec<(u32, u32)> = pyramid.children(1, node).iter().map(|&c| grid.coords(c)).collect();
        cells.sort();
        let (x, y) = cells[0];
        assert_eq!(cells, vec![(x, y), (x, y + 1), (x + 1, y), (x + 1, y + 1)]);
    }
    assert_eq!(pyramid.parent(0, grid.cell(0, 0)), pyramid.parent(0, grid.cell(1, 1)));
    assert_eq!(pyramid.ancestor(grid.cell(3, 3), pyramid.height() - 1), 0);
    assert_eq!(pyramid.parent(pyramid.height() - 1, 0), NO_NODE);
}

/// Valid paths everywhere; returns the mean suboptimality over the scenarios.
fn check(grid: &Grid, scenarios: &[Scenario], rules: MoveRules) -> f64 {
    let pyramid = Pyramid::build(grid, rules);
    let graph = GridGraph::new(grid, rules);
    let mut space = SearchSpace::new();
    let mut total = 0.0;
    for s in scenarios {
        let (start, goal) = endpoints(grid, s);
        let result = pyramid.query(grid, start, goal, PraOptions::default(), &mut space, &mut NoTrace);
        let (cost, path) = result.path.expect("reachable goals are found");
        assert!(result.complete);
        assert_eq!((path[0], *path.last().unwrap()), (start, goal));
        let walked = path_cost(&graph, &path).expect("every step is a legal move");
        assert!((walked - cost).abs() < 1e-6);
        let best = GridSearch { rules, ..GridSearch::default() }
            .run(grid, start, goal, &mut space, &mut NoTrace)
            .cost()
            .unwrap();
        assert!(cost >= best - 1e-6);
        total += cost / best.max(1e-9) - 1.0;
    }
    total / scenarios.len() as f64
}

#[test]
fn bundled_maps_get_valid_near_optimal_paths() {
    for (map, bound) in [("maze64.map", 0.01), ("rooms128.map", 0.02), ("random512.map", 0.07)] {
        let (grid, scenarios) = bundled(map);
        let sample: Vec<Scenario> = scenarios.into_iter().step_by(2).collect();
        let mean = check(&grid, &sample, MoveRules::MOVINGAI);
        assert!(mean <= bound, "{map}: mean suboptimality {mean:.4} above {bound}");
    }
}

#[test]
fn other_move_rules_stay_valid() {
    let (grid, scenarios) = bundled("rooms128.map");
    for rules in [MoveRules::FOUR, MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI }] {
        check(&grid, &scenarios[..30], rules);
    }
}

#[test]
fn unreachable_goals_are_reported_like_astar() {
    let grid = generate::random(40, 40, 0.42, 13);
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    common::assert_reports_unreachable_like_astar(&grid, 9, |start, goal, space| {
        pyramid.query(&grid, start, goal, PraOptions::default(), space, &mut NoTrace).path.is_some()
    });
}

#[test]
fn pra_k_gives_a_valid_prefix_from_the_start() {
    let (grid, scenarios) = bundled("rooms128.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    for s in scenarios.iter().rev().take(10) {
        let (start, goal) = endpoints(&grid, s);
        for k in [1, 2, 4, 8] {
            let result = pyramid.query(
                &grid,
                start,
                goal,
                PraOptions { k: Some(k), ..PraOptions::default() },
                &mut space,
                &mut NoTrace,
            );
            let (cost, path) = result.path.expect("a first stretch is always found");
            assert_eq!(path[0], start);
            assert!((path_cost(&graph, &path).unwrap() - cost).abs() < 1e-6);
            assert!(path.len() > 1 || start == goal);
            assert!(result.complete == (path.last() == Some(&goal)));
        }
        // PRA*(k) plans higher by default, in corridors without rings; on the same level and
        // with corridors as narrow, a k beyond every path is plain PRA*.
        let level = Some(pyramid.default_level(&grid, start, goal, Some(1_000_000)));
        let unlimited = pyramid.query(
            &grid,
            start,
            goal,
            PraOptions { level, k: Some(1_000_000), ..PraOptions::default() },
            &mut space,
            &mut NoTrace,
        );
        let full = pyramid.query(
            &grid,
            start,
            goal,
            PraOptions { level, width: 0, ..PraOptions::default() },
            &mut space,
            &mut NoTrace,
        );
        assert_eq!(unlimited, full, "a k beyond every path's length is plain PRA*");
    }
}

#[test]
fn every_planning_level_works_and_recording_changes_nothing() {
    let (grid, scenarios) = bundled("maze64.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let s = scenarios.last().unwrap();
    let (start, goal) = endpoints(&grid, s);
    for level in 0..pyramid.height() {
        let options = PraOptions { level: Some(level), ..PraOptions::default() };
        let mut recorder = Recorder::default();
        let traced = pyramid.query(&grid, start, goal, options, &mut SearchSpace::new(), &mut recorder);
        let plain = pyramid.query(&grid, start, goal, options, &mut SearchSpace::new(), &mut NoTrace);
        assert_eq!(traced, plain);
        assert!(plain.complete && plain.expanded_per_level.len() == level + 1);
        let stages = recorder.finish().events.iter().filter(|e| matches!(e, PlanEvent::Stage { .. })).count();
        assert!(stages > level, "one stage per level searched");
    }
    let at_grid = pyramid.query(
        &grid,
        start,
        goal,
        PraOptions { level: Some(0), ..PraOptions::default() },
        &mut SearchSpace::new(),
        &mut NoTrace,
    );
    assert!((at_grid.path.unwrap().0 - s.optimal).abs() < 1e-6, "planning on the grid itself is plain A*");
}

#[test]
fn drawing_data_regions_paths_and_corridors() {
    let (grid, scenarios) = bundled("rooms128.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    for level in 0..pyramid.height() {
        let regions = pyramid.region_map(&grid, level);
        for cell in 0..grid.cell_count() as u32 {
            let expected = if grid.is_cell_passable(cell) { pyramid.ancestor(cell, level) } else { NO_NODE };
            assert_eq!(regions[cell as usize], expected);
        }
        for node in (0..pyramid.node_count(&grid, level) as u32).step_by(7).filter(|_| level > 0) {
            let cells = pyramid.cells_under(level, &[node]);
            assert!(cells.iter().all(|&c| regions[c as usize] == node), "a node's cells are its region");
            let children = pyramid.children(level, node);
            let mean = |axis: fn((f64, f64)) -> f64| {
                children.iter().map(|&c| axis(pyramid.position(&grid, level - 1, c))).sum::<f64>()
                    / children.len() as f64
            };
            let (x, y) = pyramid.position(&grid, level, node);
            assert!((x - mean(|p| p.0)).abs() < 1e-9 && (y - mean(|p| p.1)).abs() < 1e-9);
        }
    }
    let mut space = SearchSpace::new();
    for s in scenarios.iter().rev().take(10) {
        let (start, goal) = endpoints(&grid, s);
        let mut recorder = Recorder::default();
        let result = pyramid.query(&grid, start, goal, PraOptions::default(), &mut space, &mut recorder);
        let events = recorder.finish().events;
        let level = result.level;
        assert_eq!(result.paths[0], result.path.as_ref().unwrap().1, "level 0's path is the grid path");
        assert_eq!(result.paths[level][0], pyramid.ancestor(start, level));
        assert!(
            events.iter().any(
                |e| matches!(e, PlanEvent::Search(SearchEvent::Found { path, .. }) if *path == result.paths[level])
            )
        );
        let corridors: Vec<(usize, Vec<u32>)> = events
            .iter()
            .filter_map(
                |e| if let PlanEvent::Corridor { level, nodes } = e { Some((*level, nodes.clone())) } else { None },
            )
            .collect();
        assert_eq!(corridors.len(), level, "one corridor per level below the planning level");
        let widened =
            events.iter().any(|e| matches!(e, PlanEvent::Stage { stage: PlanStage::RefineWithoutCorridor, .. }));
        for (l, nodes) in corridors {
            assert_eq!(nodes, result.corridors[l]);
            // The corridor lies under the path one level up and its neighbours.
            assert!(
                result.paths[l + 1].iter().all(|&up| pyramid.children(l + 1, up).iter().all(|c| nodes.contains(c)))
            );
            if !widened {
                assert!(result.paths[l].iter().all(|n| nodes.contains(n)), "level {l}'s path stays in its corridor");
            }
        }
    }
}

/// The share of `scenarios` whose default PRA* path is within 3% of the scenario file's optimum,
/// each path checked step by step and its cost recomputed.
fn share_within_3_percent(grid: &Grid, scenarios: &[Scenario]) -> f64 {
    let pyramid = Pyramid::build(grid, MoveRules::MOVINGAI);
    let graph = GridGraph::new(grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    let close = scenarios
        .iter()
        .filter(|s| {
            let (start, goal) = endpoints(grid, s);
            let result = pyramid.query(grid, start, goal, PraOptions::default(), &mut space, &mut NoTrace);
            let (cost, path) = result.path.expect("every scenario is reachable");
            assert!(result.complete && (path[0], *path.last().unwrap()) == (start, goal), "line {}", s.line);
            let walked = path_cost(&graph, &path).expect("every step is a legal move");
            assert!((walked - cost).abs() < 1e-6 && cost >= s.optimal - 1e-6, "line {}", s.line);
            cost <= s.optimal * 1.03
        })
        .count();
    close as f64 / scenarios.len() as f64
}

#[test]
fn paths_on_the_512_maps_are_within_3_percent_of_the_scenario_optimum() {
    for map in ["random512.map", "rooms512.map"] {
        let (grid, scenarios) = bundled(map);
        // 50 of the longer half of the file, where a coarse plan has the most room to go wrong.
        let longer = &scenarios[scenarios.len() / 2..];
        let sample: Vec<Scenario> = longer.iter().step_by(longer.len() / 50).cloned().collect();
        let share = share_within_3_percent(&grid, &sample);
        assert!(share >= 0.95, "{map}: {:.1}% of {} paths within 3%", 100.0 * share, sample.len());
    }
}

#[test]
fn a_corridor_wider_than_the_map_stops_growing_and_gives_the_scenario_optimum() {
    // Rings stop once one adds nothing (a width of usize::MAX once looped for ages); a corridor
    // holding every region leaves the grid-level search unconstrained, so it is optimal.
    let (grid, scenarios) = bundled("maze64.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    let options = PraOptions { level: Some(1), width: usize::MAX, ..PraOptions::default() };
    for s in scenarios.iter().step_by(25) {
        let (start, goal) = endpoints(&grid, s);
        let (cost, _) = pyramid.query(&grid, start, goal, options, &mut space, &mut NoTrace).path.expect("reachable");
        assert!((cost - s.optimal).abs() < 1e-6, "line {}: {cost} vs the .scen's {}", s.line, s.optimal);
    }
}

/// The free cells among the eight around `cell`.
fn free_cells_around(grid: &Grid, cell: u32) -> Vec<u32> {
    let (x, y) = grid.coords(cell);
    let (x, y) = (i64::from(x), i64::from(y));
    (y - 1..=y + 1)
        .flat_map(|ny| (x - 1..=x + 1).map(move |nx| (nx, ny)))
        .filter(|&(nx, ny)| grid.is_passable(nx, ny))
        .map(|(nx, ny)| grid.cell(nx as u32, ny as u32))
        .collect()
}

#[test]
fn pra_k_refines_inside_the_kept_regions_above_without_rings_and_on_the_grid_the_free_cells_around_them() {
    let (grid, scenarios) = bundled("rooms128.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    for s in scenarios.iter().rev().take(10) {
        let (start, goal) = endpoints(&grid, s);
        let result = pyramid.query(
            &grid,
            start,
            goal,
            PraOptions { k: Some(2), ..PraOptions::default() },
            &mut space,
            &mut NoTrace,
        );
        assert!(result.level >= 1, "PRA*(k) plans above the grid");
        for l in 0..result.level {
            let mut corridor = result.corridors[l].clone();
            let mut under: Vec<u32> =
                result.paths[l + 1].iter().flat_map(|&up| pyramid.children(l + 1, up).iter().copied()).collect();
            if l == 0 {
                let around: Vec<u32> = under.iter().flat_map(|&cell| free_cells_around(&grid, cell)).collect();
                under.extend(around);
                under.sort_unstable();
                under.dedup();
            }
            corridor.sort_unstable();
            under.sort_unstable();
            assert_eq!(corridor, under, "line {}: level {l}'s corridor is the kept path above, no rings", s.line);
        }
    }
}

#[test]
fn plans_do_not_depend_on_the_queries_before_them_on_other_maps_or_threads() {
    // Corridor marks are kept per thread between queries, whatever the map's size.
    let (small, small_scen) = bundled("maze64.map");
    let (large, large_scen) = bundled("rooms128.map");
    let plan = |grid: &Grid, scenarios: &[Scenario]| {
        let pyramid = Pyramid::build(grid, MoveRules::MOVINGAI);
        let mut space = SearchSpace::new();
        scenarios
            .iter()
            .step_by(40)
            .map(|s| {
                let (start, goal) = endpoints(grid, s);
                pyramid.query(grid, start, goal, PraOptions::default(), &mut space, &mut NoTrace)
            })
            .collect::<Vec<_>>()
    };
    let fresh_small = std::thread::scope(|scope| scope.spawn(|| plan(&small, &small_scen)).join().unwrap());
    let first_large = plan(&large, &large_scen);
    assert_eq!(plan(&small, &small_scen), fresh_small, "after a larger map");
    assert_eq!(plan(&large, &large_scen), first_large, "after a smaller map");
}

/// The search's guide on an abstract level never claims more than the cheapest way there, as
/// the `pathfinding` crate's Dijkstra measures it over the level's edges (costs in millionths),
/// and never drops by more than an edge costs: admissible and consistent, so the abstract path
/// is a shortest one.
#[test]
fn abstract_lower_bounds_are_admissible_and_consistent() {
    for name in ["rooms128.map", "maze64.map"] {
        let (grid, _) = bundled(name);
        let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
        for level in 1..=2 {
            let count = pyramid.node_count(&grid, level) as u32;
            let successors = |&n: &u32| -> Vec<(u32, u64)> {
                pyramid.edges(level, n).iter().map(|&(m, cost)| (m, (cost * 1e6).round() as u64)).collect()
            };
            let mut above_octile = 0;
            for target in (0..count).step_by((count as usize / 7).max(1)) {
                // Edges are symmetric, so costs from the target are costs to it.
                let reached = pathfinding::prelude::dijkstra_all(&target, successors);
                let lower_bound = pyramid.lower_bound_to(&grid, level, target);
                for (&node, &(_, cost)) in &reached {
                    let bound = lower_bound(node);
                    assert!(
                        bound <= cost as f64 / 1e6 + 1e-3,
                        "{name} level {level}: {node} -> {target} bound {bound} above {cost}"
                    );
                    let ((x, y), (tx, ty)) =
                        (pyramid.position(&grid, level, node), pyramid.position(&grid, level, target));
                    let (dx, dy) = ((x - tx).abs(), (y - ty).abs());
                    let octile = dx.max(dy) + (2f64.sqrt() - 1.0) * dx.min(dy);
                    assert!(bound >= octile - 1e-9, "{name}: never below the octile distance");
                    above_octile += usize::from(bound > octile + 1e-6);
                    for &(next, step) in pyramid.edges(level, node) {
                        assert!(bound <= step + lower_bound(next) + 1e-9, "{name}: inconsistent at {node}");
                    }
                }
            }
            assert!(above_octile > 0, "{name} level {level}: landmarks see detours the octile distance does not");
        }
    }
}

/// Costly ground inside, cheap ground round the edge: the cheapest way goes round.
fn weighted_ring(side: u32, inner: u8) -> Grid {
    let mut grid = Grid::new(side, side);
    for y in 2..side - 2 {
        for x in 2..side - 2 {
            grid.set_weight(x, y, inner);
        }
    }
    grid
}

#[test]
fn plans_steer_round_costly_ground_as_the_grid_search_does() {
    // Ignoring weights, the abstraction once planned straight through weight 9: 4.5x the optimum.
    let grid = weighted_ring(64, 9);
    let mut weighted_blocks = generate::rooms(96, 96, 12, 0.3, 4);
    for cell in weighted_blocks.passable_cells() {
        let (x, y) = weighted_blocks.coords(cell);
        if (x / 16 + y / 16) % 2 == 0 {
            weighted_blocks.set_weight(x, y, 5);
        }
    }
    for (grid, queries) in
        [(&grid, vec![((0, 32), (63, 32)), ((32, 0), (32, 63)), ((1, 1), (62, 40))]), (&weighted_blocks, vec![])]
    {
        let pyramid = Pyramid::build(grid, MoveRules::MOVINGAI);
        let cells = grid.passable_cells();
        let spread: Vec<((u32, u32), (u32, u32))> = (0..20)
            .map(|i| (grid.coords(cells[i * 37 % cells.len()]), grid.coords(cells[(i * 7919 + 500) % cells.len()])))
            .collect();
        let mut over = Vec::new();
        for (from, to) in queries.into_iter().chain(spread) {
            let Some(optimum) = common::reference::movingai_cost(grid, from, to) else { continue };
            let found = pyramid.query(
                grid,
                grid.cell(from.0, from.1),
                grid.cell(to.0, to.1),
                PraOptions::default(),
                &mut SearchSpace::default(),
                &mut NoTrace,
            );
            let (cost, _) = found.path.expect("a reachable goal gets a path");
            over.push(cost / optimum.max(1e-9) - 1.0);
        }
        let worst = over.iter().cloned().fold(0.0, f64::max);
        assert!(worst <= 0.05, "PRA* on weighted ground: worst path {:.1}% over the optimum", worst * 100.0);
    }
}

#[test]
fn a_short_whole_path_is_planned_on_the_grid_by_plain_astar_and_a_long_one_above() {
    let (grid, scenarios) = bundled("rooms128.map");
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let (mut short, mut long) = (0, 0);
    for s in &scenarios {
        let (start, goal) = endpoints(&grid, s);
        let result = pyramid.query(&grid, start, goal, PraOptions::default(), &mut SearchSpace::new(), &mut NoTrace);
        let (dx, dy) = (s.start.0.abs_diff(s.goal.0) as f64, s.start.1.abs_diff(s.goal.1) as f64);
        let crow_flies = dx.max(dy) + (2f64.sqrt() - 1.0) * dx.min(dy);
        if s.optimal < 48.0 {
            short += 1;
            assert_eq!(result.level, 0, "a goal {} away is planned on the grid", s.optimal);
            let astar = GridSearch::default().run(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
            // A free straight line is taken without a search.
            let line = GridGraph::new(&grid, MoveRules::MOVINGAI).straight_path(start, goal);
            let searched = if line.is_ok() { 0 } else { astar.expanded };
            assert_eq!(result.expanded_per_level, vec![searched], "plain A*, no corridor");
            assert!((result.path.unwrap().0 - s.optimal).abs() < 1e-6);
        } else if crow_flies >= 80.0 {
            long += 1;
            assert_eq!(result.level, 1, "a goal {crow_flies} away as the crow flies plans on level 1");
        }
    }
    assert!(short >= 5 && long >= 5, "rooms128's scenarios hold both: {short} short, {long} long");
}

/// Two 1-wide mazes side by side, walled apart, between two walled 2x2 pockets: one in the rows
/// above them (the first cells), one in the rows below (the last).
fn mazes_between_pockets() -> Grid {
    let mazes = [generate::maze(41, 41, 1, 3), generate::maze(41, 41, 1, 4)];
    let (width, height) = (82, 41 + 8);
    let mut grid = Grid::new(width, height);
    for y in 0..height {
        for x in 0..width {
            let in_maze = (4..4 + 41).contains(&y) && mazes[x as usize / 41].is_passable(x as i64 % 41, y as i64 - 4);
            let in_pocket = (1..3).contains(&x) && (1..3).contains(&y)
                || (width - 3..width - 1).contains(&x) && (height - 3..height - 1).contains(&y);
            grid.set_passable(x, y, in_maze || in_pocket);
        }
    }
    grid
}

#[test]
fn landmarks_guide_every_large_region_not_a_pocket_at_either_end() {
    let grid = mazes_between_pockets();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    let labels = grid.components(MoveRules::MOVINGAI);
    for side in [0, 41] {
        let maze_cells: Vec<u32> = (0..grid.cell_count() as u32)
            .filter(|&c| labels[c as usize] == labels[grid.cell(side + 1, 5) as usize])
            .collect();
        assert!(maze_cells.len() > 700, "each maze is one large region");
        // Pairs close as the crow flies but far along the maze: the straight line says little there.
        let (mut bound_sum, mut cost_sum, mut octile_sum) = (0.0, 0.0, 0.0);
        for (i, &a) in maze_cells.iter().enumerate().step_by(7) {
            for &b in &maze_cells[i + 1..] {
                let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
                let (dx, dy) = (ax.abs_diff(bx) as f64, ay.abs_diff(by) as f64);
                let octile = dx.max(dy) + (2f64.sqrt() - 1.0) * dx.min(dy);
                if octile > 8.0 {
                    continue;
                }
                let cost = GridSearch::default().run(&grid, a, b, &mut space, &mut NoTrace).path.expect("one region").0;
                if cost < 40.0 {
                    continue;
                }
                bound_sum += pyramid.lower_bound_to(&grid, 1, pyramid.ancestor(b, 1))(pyramid.ancestor(a, 1));
                cost_sum += cost;
                octile_sum += octile;
            }
        }
        assert!(cost_sum > 20.0 * octile_sum.max(1.0), "the maze has such pairs: cost {cost_sum}, octile {octile_sum}");
        // The straight line alone would give under a twentieth of the cost.
        assert!(
            bound_sum > 0.5 * cost_sum,
            "maze at x = {side}: level 1's bound {bound_sum} against the A* costs {cost_sum}"
        );
    }
}

#[test]
fn a_goal_behind_a_wall_is_out_of_reach_without_a_search() {
    let grid = mazes_between_pockets();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let (start, pocket) = (grid.cell(1, 5), grid.cell(1, 2));
    let labels = grid.components(MoveRules::MOVINGAI);
    assert_ne!(labels[start as usize], labels[pocket as usize], "the pocket is walled off");
    let mut space = SearchSpace::new();
    let astar = GridSearch::default().run(&grid, start, pocket, &mut space, &mut NoTrace);
    assert!(astar.path.is_none() && astar.expanded > 700, "A* floods the maze to learn it: {}", astar.expanded);
    for options in [PraOptions::default(), PraOptions { k: Some(1), ..PraOptions::default() }] {
        let result = pyramid.query(&grid, start, pocket, options, &mut space, &mut NoTrace);
        assert!(result.path.is_none());
        assert_eq!(result.expanded_per_level.iter().sum::<usize>(), 0, "{options:?}");
    }
}
