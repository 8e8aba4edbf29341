//! TA* and TRA* on triangulated grid maps against grid A* (octile, MovingAI rules) on the same
//! queries (the maps' .scen files, cell centres): time per query, nodes expanded, and how much
//! shorter the any-angle paths are than the octile ones. TA* and TRA* lengths are asserted equal.
//!
//! cargo run --release --example bench_navmesh [-- MAP.map ...]

use std::time::Instant;

use searchlab::grid::movingai;
use searchlab::navmesh::Navmesh;
use searchlab::navmesh::grid_outline::{cell_centre, grid_outline};
use searchlab::navmesh::tastar::{MeshQuery, ta_star};
use searchlab::navmesh::reduction::{Reduction, Role};
use searchlab::navmesh::trastar::tra_star;
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::NoTrace;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs `solve` and returns its result and the elapsed microseconds.
fn timed<R>(solve: impl FnOnce() -> R) -> (R, f64) {
    let clock = Instant::now();
    let result = solve();
    (result, clock.elapsed().as_secs_f64() * 1e6)
}

fn main() {
    let mut maps: Vec<String> = std::env::args().skip(1).collect();
    if maps.is_empty() {
        maps = vec!["maps/rooms128.map".to_string(), "maps/maze64.map".to_string()];
    }
    for map in maps {
        let grid = movingai::load_map(map.as_ref()).unwrap_or_else(|e| panic!("{e}"));
        let scenarios = movingai::load_scen(format!("{map}.scen").as_ref()).unwrap_or_else(|e| panic!("{e}"));
        let (mesh, build_micros) = timed(|| Navmesh::build(&grid_outline(&grid), None).unwrap_or_else(|e| panic!("{e}")));
        let (reduction, reduce_micros) = timed(|| Reduction::new(&mesh));
        println!(
            "{map}: {} free cells -> {} walkable triangles ({} decision points, {} corridor, {} dead-end); \
             triangulation {:.0} us, reduction {:.0} us",
            grid.passable_count(),
            mesh.walkable_count(),
            reduction.count(Role::Decision),
            reduction.count(Role::Corridor),
            reduction.count(Role::DeadEnd),
            build_micros,
            reduce_micros
        );
        let mut space = SearchSpace::new();
        let (mut astar_us, mut ta_us, mut tra_us, mut first_us) = (vec![], vec![], vec![], vec![]);
        let (mut astar_exp, mut ta_exp, mut tra_exp) = (0, 0, 0);
        let (mut octile_total, mut any_angle_total, mut first_total) = (0.0, 0.0, 0.0);
        for s in &scenarios {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let (astar, us) = timed(|| GridSearch::default().run(&grid, start, goal, &mut space, &mut NoTrace));
            astar_us.push(us);
            astar_exp += astar.expanded;
            let query = MeshQuery::new(cell_centre(&grid, start), cell_centre(&grid, goal));
            let (ta, us) = timed(|| ta_star(&mesh, &query, &mut NoTrace).unwrap());
            ta_us.push(us);
            ta_exp += ta.expanded;
            let (tra, us) = timed(|| tra_star(&mesh, &reduction, &query, &mut NoTrace).unwrap());
            tra_us.push(us);
            tra_exp += tra.expanded;
            let first_query = MeshQuery { first_path_only: true, ..query };
            let (first, us) = timed(|| tra_star(&mesh, &reduction, &first_query, &mut NoTrace).unwrap());
            first_us.push(us);
            let (Some(octile), Some(ta), Some(tra), Some(first)) = (astar.cost(), ta.path, tra.path, first.path) else {
                panic!("query {s:?}: all searches must find a path");
            };
            assert!((ta.length - tra.length).abs() < 1e-6, "{s:?}: TA* {} TRA* {}", ta.length, tra.length);
            assert!(ta.length <= octile + 1e-9);
            octile_total += octile;
            any_angle_total += ta.length;
            first_total += first.length;
        }
        let n = scenarios.len();
        println!("  {n} queries, median time per query and mean nodes expanded:");
        println!("    grid A* (octile)       {:>9.1} us {:>9.1} cells", median(astar_us), astar_exp as f64 / n as f64);
        println!("    TA*  (optimal)         {:>9.1} us {:>9.1} search nodes", median(ta_us), ta_exp as f64 / n as f64);
        println!("    TRA* (optimal)         {:>9.1} us {:>9.1} search nodes", median(tra_us), tra_exp as f64 / n as f64);
        println!("    TRA* (first path only) {:>9.1} us", median(first_us));
        println!(
            "  total length: octile {octile_total:.1}, any-angle {any_angle_total:.1} ({:.1}% shorter), \
             TRA* first paths {first_total:.1} ({:.2}% over optimal)",
            100.0 * (1.0 - any_angle_total / octile_total),
            100.0 * (first_total / any_angle_total - 1.0)
        );
    }
}
