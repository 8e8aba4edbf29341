//! HPA* returns valid, near-optimal paths, reports unreachable goals like A*, and its local
//! updates agree with a rebuild.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::graph::path_cost;
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery, HpaResult, smooth};
use searchlab::pathfinding::plan_trace::{PlanEvent, PlanStage};
use searchlab::pathfinding::search_trace::SearchEvent;
use searchlab::pathfinding::{Algorithm, GridSearch, SearchSpace, scenarios};
use searchlab::trace::{NoTrace, Recorder};

const SMOOTH: HpaQuery = HpaQuery { smooth: true };

fn bundled(name: &str) -> (Grid, Vec<Scenario>) {
    let map = common::project_map(name);
    (movingai::load_map(&map).unwrap(), movingai::load_scen(&map.with_file_name(format!("{name}.scen"))).unwrap())
}

/// Checks that `path` walks legal grid steps from start to goal with the claimed cost.
fn assert_valid(grid: &Grid, rules: MoveRules, start: u32, goal: u32, cost: f64, path: &[u32]) {
    assert_eq!((path[0], *path.last().unwrap()), (start, goal));
    assert!(path.iter().all(|&c| grid.is_cell_passable(c)));
    let walked = path_cost(&GridGraph::new(grid, rules), path).expect("every step is a legal move");
    assert!((walked - cost).abs() < 1e-6, "claimed {cost}, walked {walked}");
}

fn optimal(grid: &Grid, rules: MoveRules, start: u32, goal: u32, space: &mut SearchSpace) -> Option<f64> {
    GridSearch { algorithm: Algorithm::Dijkstra, rules, ..GridSearch::default() }
        .run(grid, start, goal, space, &mut NoTrace)
        .cost()
}

/// Runs every scenario, checks each path, and returns the mean suboptimality.
fn check_scenarios(grid: &Grid, scenarios: &[Scenario], cluster: u32, levels: usize) -> f64 {
    let hpa = Hpa::build_levels(grid, MoveRules::MOVINGAI, cluster, levels);
    let mut space = SearchSpace::new();
    let mut total = 0.0;
    for s in scenarios {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let result = hpa.query(grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
        let (cost, path) = result.path.expect("scenario goals are reachable");
        assert_valid(grid, MoveRules::MOVINGAI, start, goal, cost, &path);
        assert!(cost >= s.optimal - 1e-3, "line {}: {cost} beats the optimum {}", s.line, s.optimal);
        assert!(cost <= result.unsmoothed_cost.unwrap() + 1e-9, "smoothing never makes a path longer");
        assert_valid(grid, MoveRules::MOVINGAI, start, goal, result.unsmoothed_cost.unwrap(), &result.refined_path);
        total += cost / s.optimal.max(1e-9) - 1.0;
    }
    total / scenarios.len() as f64
}

#[test]
fn bundled_maps_get_valid_near_optimal_paths() {
    // (map, cluster, levels, bound): level 2 passes through fewer transitions, so its bounds are
    // looser (the benchmark has the figures).
    let cases = [
        ("maze64.map", 10, 1, 0.01),
        ("rooms128.map", 16, 1, 0.03),
        ("random512.map", 10, 1, 0.03),
        ("maze64.map", 8, 2, 0.02),
        ("rooms128.map", 10, 2, 0.04),
        ("random512.map", 10, 2, 0.03),
    ];
    for (map, cluster, levels, bound) in cases {
        let (grid, scenarios) = bundled(map);
        let mean = check_scenarios(&grid, &scenarios, cluster, levels);
        assert!(mean <= bound, "{map}, {levels} levels: mean suboptimality {mean:.4} above {bound}");
    }
}

#[test]
fn movingai_maze_paths_are_within_one_percent_on_average() {
    let Some(dir) = common::shared_data("movingai") else { return };
    let grid = movingai::load_map(&dir.join("maze512-32-9.map")).unwrap();
    let scenarios: Vec<Scenario> =
        movingai::load_scen(&dir.join("maze512-32-9.map.scen")).unwrap().into_iter().step_by(20).collect();
    let mean = check_scenarios(&grid, &scenarios, 10, 1);
    assert!(mean <= 0.01, "mean suboptimality {mean:.4}");
}

#[test]
fn other_rules_and_weights_stay_valid() {
    let mut grid = generate::rooms(60, 45, 7, 0.3, 8);
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..300 {
        let (x, y) = (rng.random_range(0..60), rng.random_range(0..45));
        grid.set_weight(x, y, rng.random_range(1..=9));
    }
    let mut space = SearchSpace::new();
    let all_rules = [MoveRules::MOVINGAI, MoveRules::FOUR, MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI }];
    for (rules, levels) in all_rules.into_iter().flat_map(|rules| [(rules, 1), (rules, 2)]) {
        let hpa = Hpa::build_levels(&grid, rules, 6, levels);
        for s in scenarios::generate(&grid, "w", 40, 3) {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let best = optimal(&grid, rules, start, goal, &mut space).unwrap();
            let (cost, path) = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
            assert_valid(&grid, rules, start, goal, cost, &path);
            assert!(cost >= best - 1e-6);
        }
    }
}

/// Smoothing tries runs across the joints of the refined pieces only: trying every stretch of
/// the path finds the same shortcuts, on weighted ground, under every rule and on two levels.
#[test]
fn smoothing_across_joints_only_misses_no_shortcut() {
    for (mut grid, cluster) in [
        (generate::rooms(60, 45, 7, 0.3, 8), 6),
        (generate::random(64, 64, 0.2, 4), 8),
        (generate::maze(63, 63, 1, 2), 8),
    ] {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..400 {
            let (x, y) = (rng.random_range(0..grid.width()), rng.random_range(0..grid.height()));
            grid.set_weight(x, y, rng.random_range(1..=4));
        }
        let mut space = SearchSpace::new();
        let all_rules =
            [MoveRules::MOVINGAI, MoveRules::FOUR, MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI }];
        let mut shortened = 0;
        for (rules, levels) in all_rules.into_iter().flat_map(|rules| [(rules, 1), (rules, 2)]) {
            let hpa = Hpa::build_levels(&grid, rules, cluster, levels);
            for s in scenarios::generate(&grid, "j", 60, 9) {
                let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
                let result = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
                let every_cell: Vec<usize> = (0..result.refined_path.len()).collect();
                let everywhere =
                    smooth(&GridGraph::new(&grid, rules), result.refined_path.clone(), &every_cell, cluster);
                let (cost, path) = result.path.unwrap();
                assert_eq!(path, everywhere.path, "{rules:?}, {levels} levels, {:?} to {:?}", s.start, s.goal);
                // Smoothing adds the costs up as a walk along each path does, to the last bit.
                assert_eq!(cost, path_cost(&GridGraph::new(&grid, rules), &path).unwrap());
                assert_eq!(result.unsmoothed_cost, path_cost(&GridGraph::new(&grid, rules), &result.refined_path));
                shortened += usize::from(cost + 1e-9 < result.unsmoothed_cost.unwrap());
            }
        }
        assert!(shortened > 0, "smoothing shortened no path: the comparison shows nothing");
    }
}

#[test]
fn unreachable_goals_are_reported_like_astar() {
    let grid = generate::random(50, 50, 0.42, 13);
    for levels in [1, 2] {
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 5, levels);
        common::assert_reports_unreachable_like_astar(&grid, 4, |start, goal, space| {
            hpa.query(&grid, start, goal, SMOOTH, space, &mut NoTrace).path.is_some()
        });
    }
}

#[test]
fn start_and_goal_in_one_cluster_or_on_one_cell() {
    let (grid, _) = bundled("maze64.map");
    for levels in [1, 2] {
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, levels);
        let mut space = SearchSpace::new();
        let (a, b) = (grid.cell(1, 1), grid.cell(2, 2));
        let (cost, path) = hpa.query(&grid, a, b, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
        assert_eq!((cost, path.len()), (std::f64::consts::SQRT_2, 2));
        let (cost, path) = hpa.query(&grid, a, a, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
        assert_eq!((cost, path), (0.0, vec![a]));
    }
}

/// Answers rooms128's last scenario recorded and not; checks recording changes nothing and
/// returns the map, the endpoints, the result and the events.
fn recorded_query(cluster: u32, levels: usize) -> (Grid, (u32, u32), HpaResult, Vec<PlanEvent>) {
    let (grid, scenarios) = bundled("rooms128.map");
    let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, cluster, levels);
    let s = scenarios.last().unwrap();
    let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
    let mut recorder = Recorder::default();
    let traced = hpa.query(&grid, start, goal, SMOOTH, &mut SearchSpace::new(), &mut recorder);
    let plain = hpa.query(&grid, start, goal, SMOOTH, &mut SearchSpace::new(), &mut NoTrace);
    assert_eq!(traced, plain);
    (grid, (start, goal), plain, recorder.finish().events)
}

#[test]
fn recording_changes_nothing_and_marks_each_stage() {
    let (grid, _, plain, events) = recorded_query(16, 1);
    let stages: Vec<PlanStage> = events
        .iter()
        .filter_map(|e| if let PlanEvent::Stage { stage, .. } = e { Some(*stage) } else { None })
        .collect();
    assert_eq!(stages.len(), 6, "{stages:?}");
    assert_eq!(stages[0], PlanStage::StraightLine, "the line is tried first");
    let last_found = events.iter().rev().find_map(|e| match e {
        PlanEvent::Search(SearchEvent::Found { path, .. }) => Some(path.clone()),
        _ => None,
    });
    assert_eq!(last_found, plain.path.map(|(_, p)| p), "the last Found event is the final path");
    // The abstract search speaks in grid cells, so the grid view can replay it.
    assert!(events.iter().all(|e| match e {
        PlanEvent::Search(SearchEvent::Expand { node }) => (*node as usize) < grid.cell_count(),
        _ => true,
    }));
}

#[test]
fn edits_update_a_few_clusters_and_match_a_rebuild() {
    for levels in [1, 2] {
        edits_match_a_rebuild(levels);
    }
}

fn edits_match_a_rebuild(levels: usize) {
    let mut grid = generate::random(120, 90, 0.25, 21);
    let mut hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, levels);
    let mut rng = StdRng::seed_from_u64(5);
    let mut space = SearchSpace::new();
    let sorted_edges = |hpa: &Hpa, level| {
        let mut edges: Vec<(u32, u32, i64)> =
            hpa.abstract_edges(level).map(|(a, b, c)| (a, b, (c * 1e6).round() as i64)).collect();
        edges.sort_unstable();
        edges
    };
    for _ in 0..15 {
        let (x, y) = (rng.random_range(0..120), rng.random_range(0..90));
        grid.set_passable(x, y, !grid.is_passable(x as i64, y as i64));
        let redone = hpa.update(&grid, &[(x, y)]);
        assert_eq!(redone.len(), levels);
        assert!(redone[0].len() <= 5, "only the cluster and its neighbours");
        assert!(
            redone.iter().skip(1).all(|clusters| clusters.len() <= 3),
            "a cluster and its neighbours span at most 3 above"
        );
        let fresh = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, levels);
        for level in 1..=levels {
            assert_eq!(sorted_edges(&hpa, level), sorted_edges(&fresh, level), "level {level} after editing {x},{y}");
        }
        for s in scenarios::generate(&grid, "e", 5, x as u64) {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let updated = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
            let rebuilt = fresh.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
            assert_eq!(updated.path.map(|p| p.0), rebuilt.path.map(|p| p.0));
        }
    }
}

/// Whether `inner` appears in `outer` in order (not necessarily contiguously).
fn is_subsequence(inner: &[u32], outer: &[u32]) -> bool {
    let mut rest = outer.iter();
    inner.iter().all(|cell| rest.any(|c| c == cell))
}

#[test]
fn two_level_recording_shows_every_level_and_changes_nothing() {
    let (_, (start, goal), plain, events) = recorded_query(8, 2);
    let stages: Vec<(usize, PlanStage)> = events
        .iter()
        .filter_map(|e| if let PlanEvent::Stage { level, stage } = e { Some((*level, *stage)) } else { None })
        .collect();
    let levels: Vec<usize> = stages.iter().map(|s| s.0).collect();
    assert_eq!(levels, vec![0, 0, 0, 1, 1, 2, 1, 0, 0], "{stages:?}");
    // The abstract search ends with the level-2 path, the refinement shows the level-1 one.
    let found: Vec<Vec<u32>> = events
        .iter()
        .filter_map(
            |e| if let PlanEvent::Search(SearchEvent::Found { path, .. }) = e { Some(path.clone()) } else { None },
        )
        .collect();
    let [top, below] = [1, 0].map(|l| plain.abstract_paths[l].clone());
    assert!(top.len() > 2 && found.contains(&top), "the level-2 path is in the events");
    assert!(found.contains(&below), "so is its refinement to level 1");
    assert!(is_subsequence(&top, &below) && below.len() > top.len());
    assert!(is_subsequence(&below, &plain.refined_path));
    assert_eq!((top[0], *top.last().unwrap()), (start, goal));
}

#[test]
fn drawing_data_covers_the_map_and_joins_up() {
    let (grid, scenarios) = bundled("maze64.map");
    let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 6, 2);
    for level in 1..=2 {
        // The cluster rectangles tile the map.
        let mut covered = vec![0; grid.cell_count()];
        for cluster in 0..hpa.cluster_count(level) as u32 {
            let (x0, y0, x1, y1) = hpa.cluster_rect(&grid, level, cluster);
            for (x, y) in (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))) {
                covered[grid.cell(x, y) as usize] += 1;
                assert_eq!(hpa.cluster_at(level, x, y), cluster);
            }
        }
        assert!(covered.iter().all(|&n| n == 1), "level {level}");
        // Transitions straddle this level's borders; the graph has both directions of each.
        let edges: Vec<(u32, u32, f64)> = hpa.abstract_edges(level).collect();
        for (a, b) in hpa.transitions(level) {
            let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
            assert_eq!(ax.abs_diff(bx) + ay.abs_diff(by), 1);
            assert_ne!(hpa.cluster_at(level, ax, ay), hpa.cluster_at(level, bx, by));
            assert!(edges.iter().any(|e| (e.0, e.1) == (a, b)) && edges.iter().any(|e| (e.0, e.1) == (b, a)));
        }
        assert_eq!(hpa.edge_count(level), edges.len());
    }
    // The middle of each level's abstract path walks that level's edges.
    let mut space = SearchSpace::new();
    for s in scenarios.iter().rev().take(20) {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let result = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
        for level in 1..=2 {
            let path = &result.abstract_paths[level - 1];
            let edges: Vec<(u32, u32)> = hpa.abstract_edges(level).map(|e| (e.0, e.1)).collect();
            if path.len() > 3 {
                assert!(path[1..path.len() - 1].windows(2).all(|w| edges.contains(&(w[0], w[1]))), "level {level}");
            }
        }
    }
}

/// Why 1 and 2 levels give the same unsmoothed costs: a level-2 intra edge is the cheapest way
/// through the level-1 graph inside its cluster, and start and goal are linked to level 2 by
/// searching level 1, so the level-2 graph keeps every level-1 distance between its nodes. Level 2
/// is really searched: fewer abstract nodes, a shorter abstract path that level 1 refines.
#[test]
fn level_two_plans_with_fewer_expansions_at_the_same_unsmoothed_cost() {
    let (grid, scenarios) = bundled("random512.map");
    let [one, two] = [1, 2].map(|levels| Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, levels));
    let mut space = SearchSpace::new();
    let (mut top_one, mut top_two) = (0, 0);
    let long: Vec<&Scenario> = scenarios.iter().filter(|s| s.optimal > 300.0).step_by(5).collect();
    assert!(long.len() >= 10);
    for s in long {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let plain = HpaQuery { smooth: false };
        let a = one.query(&grid, start, goal, plain, &mut space, &mut NoTrace);
        let b = two.query(&grid, start, goal, plain, &mut space, &mut NoTrace);
        assert!((a.unsmoothed_cost.unwrap() - b.unsmoothed_cost.unwrap()).abs() < 1e-6, "line {}", s.line);
        // Per level: level 1's search plans on level 1; level 2's links on level 1 and plans on level 2.
        assert_eq!(a.expanded_per_level.len(), 2);
        assert_eq!(b.expanded_per_level.len(), 3);
        assert_eq!(a.expanded_per_level[1], a.abstract_expanded);
        assert_eq!(b.expanded_per_level[2], b.abstract_expanded);
        assert!(b.expanded_per_level[1] > 0, "start and goal are linked to level 2 through level 1");
        let total = |r: &HpaResult| r.insertion_expanded + r.abstract_expanded;
        assert_eq!(a.expanded_per_level.iter().sum::<usize>(), total(&a));
        assert_eq!(b.expanded_per_level.iter().sum::<usize>(), total(&b));
        let [planned, refined] = [&b.abstract_paths[1], &b.abstract_paths[0]];
        assert!(planned.len() < refined.len() && is_subsequence(planned, refined), "line {}", s.line);
        top_one += a.abstract_expanded;
        top_two += b.abstract_expanded;
    }
    assert!(top_two * 2 < top_one, "level 2 expanded {top_two} abstract nodes, level 1 {top_one}");
}
