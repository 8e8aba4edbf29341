//! TA* and TRA* on triangulated grid maps against grid A* (octile, MovingAI rules) and against the
//! `polyanya` crate (Cui, Harabor & Grastien 2017) run on the same walkable triangles, on the same
//! queries (the maps' .scen files, cell centres): median time per query (each query's fastest of
//! [`ROUNDS`] passes, or `BENCH_ROUNDS`), nodes expanded, and how much shorter the any-angle paths are than the
//! octile ones. TA*, TRA* and Polyanya lengths are asserted equal (Polyanya works in f32).
//!
//! Point location: ours walks the triangulation from a vertex found in a grid of buckets built
//! with the mesh; Polyanya's is timed both unbaked (a scan of every polygon per query) and baked
//! (`Mesh::bake`, once per mesh as a game would: an R-tree of the polygons' bounding boxes). The
//! ratios that count are against the baked mesh.
//!
//! cargo run --release --example bench_navmesh [-- MAP.map ...]
//! (`BENCH_ROUNDS=500` runs the passes that often, for a profiler to see small maps' queries.)

use std::time::Instant;

use searchlab::grid::movingai;
use searchlab::navmesh::Navmesh;
use searchlab::navmesh::grid_outline::{cell_centre, grid_outline};
use searchlab::navmesh::reduction::{Reduction, Role};
use searchlab::navmesh::tastar::{MeshQuery, SearchScratch};
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::{NO_NODE, NoTrace};

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

/// The walkable triangles of `mesh` as a Polyanya mesh: its polygons are those triangles (in
/// order, counter-clockwise), and each vertex lists the triangles around it counter-clockwise,
/// `u32::MAX` where an obstacle or the map's edge interrupts the fan.
fn polyanya_mesh(mesh: &Navmesh) -> polyanya::Mesh {
    let walkable: Vec<u32> =
        (0..mesh.triangles.len() as u32).filter(|&t| mesh.triangles[t as usize].walkable).collect();
    let mut polygon_of = vec![u32::MAX; mesh.triangles.len()];
    for (p, &t) in walkable.iter().enumerate() {
        polygon_of[t as usize] = p as u32;
    }
    // Around vertex v_k of a triangle, the next triangle counter-clockwise lies across the edge
    // v_{k+2} -> v_k; none when that edge is an obstacle.
    let ccw_next = |t: u32, k: usize| mesh.passable(t, (k + 2) % 3);
    let mut around: Vec<Vec<(u32, usize)>> = vec![Vec::new(); mesh.vertices.len()];
    for &t in &walkable {
        for (k, &v) in mesh.triangles[t as usize].vertices.iter().enumerate() {
            around[v as usize].push((t, k));
        }
    }
    let mut used = vec![u32::MAX; mesh.vertices.len()];
    let mut vertices = Vec::new();
    for (v, fan) in around.iter().enumerate() {
        if fan.is_empty() {
            continue;
        }
        let position = |t: u32| fan.iter().find(|&&(u, _)| u == t).map(|&(_, k)| k).expect("the fan holds it");
        let has_predecessor = |t: u32| fan.iter().any(|&(u, k)| ccw_next(u, k) == Some(t));
        // Each run of triangles between two obstacles starts where no triangle precedes it;
        // without obstacles around v the fan is one cycle.
        let mut firsts: Vec<u32> = fan.iter().map(|&(t, _)| t).filter(|&t| !has_predecessor(t)).collect();
        let closed = firsts.is_empty();
        if closed {
            firsts.push(fan[0].0);
        }
        let centre = mesh.vertices[v];
        let angle = |t: u32| {
            let [a, b, c] = mesh.triangle_points(t);
            ((a[1] + b[1] + c[1]) / 3.0 - centre[1]).atan2((a[0] + b[0] + c[0]) / 3.0 - centre[0])
        };
        firsts.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
        let mut polygons = Vec::new();
        for first in firsts {
            let mut t = first;
            loop {
                polygons.push(polygon_of[t as usize]);
                match ccw_next(t, position(t)) {
                    Some(next) if next != first => t = next,
                    Some(_) => break,
                    None => {
                        polygons.push(u32::MAX);
                        break;
                    }
                }
            }
        }
        used[v] = vertices.len() as u32;
        let [x, y] = mesh.vertices[v];
        vertices.push(polyanya::Vertex::new(glam::Vec2::new(x as f32, y as f32), polygons));
    }
    let polygons = walkable
        .iter()
        .map(|&t| {
            let tri = mesh.triangles[t as usize];
            let one_way = tri
                .neighbours
                .iter()
                .enumerate()
                .filter(|&(i, &n)| n != NO_NODE && mesh.passable(t, i).is_some())
                .count()
                == 1;
            polyanya::Polygon::new(tri.vertices.iter().map(|&v| used[v as usize]).collect(), one_way)
        })
        .collect();
    polyanya::Mesh::new(vertices, polygons).unwrap_or_else(|e| panic!("Polyanya refuses the mesh: {e}"))
}

/// Runs `solve` on every query in turn: the results and the microseconds each took.
fn pass<Q, R>(queries: &[Q], mut solve: impl FnMut(&Q) -> R) -> (Vec<R>, Vec<f64>) {
    queries.iter().map(|query| timed(|| solve(query))).unzip()
}

/// How many times each mesh search runs over all queries, the searches taking turns: a query's
/// time is its fastest, so a burst of load from the machine's other work does not decide a ratio.
const ROUNDS: usize = 3;

/// Keeps in `fastest` each query's fastest time so far.
fn keep_fastest(fastest: &mut Vec<f64>, times: Vec<f64>) {
    if fastest.is_empty() {
        *fastest = times;
    } else {
        fastest.iter_mut().zip(times).for_each(|(best, t)| *best = best.min(t));
    }
}

fn main() {
    let mut maps: Vec<String> = std::env::args().skip(1).collect();
    if maps.is_empty() {
        maps = vec!["maps/rooms128.map".to_string(), "maps/maze64.map".to_string()];
    }
    let mut summary = Vec::new();
    for map in maps {
        let grid = movingai::load_map(map.as_ref()).unwrap_or_else(|e| panic!("{e}"));
        // MovingAI's water ('W') is blocked here: its queries from or to water are left out.
        let scen = format!("{map}.scen");
        let (scenarios, _) = movingai::load_scen(scen.as_ref())
            .and_then(|all| movingai::searchable_scenarios(&scen, all, &grid))
            .unwrap_or_else(|e| panic!("{e}"));
        let (mesh, build_micros) =
            timed(|| Navmesh::build(&grid_outline(&grid), None).unwrap_or_else(|e| panic!("{e}")));
        let (reduction, reduce_micros) = timed(|| Reduction::new(&mesh));
        let unbaked = polyanya_mesh(&mesh);
        let mut polyanya = unbaked.clone();
        let ((), bake_micros) = timed(|| polyanya.bake());
        println!(
            "{map}: {} free cells -> {} walkable triangles ({} decision points, {} corridor, {} dead-end); \
             triangulation {:.0} us, reduction {:.0} us, Polyanya's bake {:.0} us",
            grid.passable_count(),
            mesh.walkable_count(),
            reduction.count(Role::Decision),
            reduction.count(Role::Corridor),
            reduction.count(Role::DeadEnd),
            build_micros,
            reduce_micros,
            bake_micros
        );
        let cells: Vec<_> =
            scenarios.iter().map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))).collect();
        let queries: Vec<MeshQuery> = cells
            .iter()
            .map(|&(start, goal)| MeshQuery::new(cell_centre(&grid, start), cell_centre(&grid, goal)))
            .collect();
        // One pass per search over all queries, so no search runs on caches another warmed (grid A*
        // once: it is slow and only a reference). Each keeps its buffers from query to query, as a
        // game would keep one per mesh.
        let mut space = SearchSpace::new();
        let (astar, astar_us) =
            pass(&cells, |&(start, goal)| GridSearch::default().run(&grid, start, goal, &mut space, &mut NoTrace));
        let mut scratch = SearchScratch::default();
        let first_queries: Vec<MeshQuery> =
            queries.iter().map(|&query| MeshQuery { first_path_only: true, ..query }).collect();
        let to_f32 = |p: [f64; 2]| glam::Vec2::new(p[0] as f32, p[1] as f32);
        let (mut ta, mut tra, mut first, mut reference, mut unbaked_paths) = (vec![], vec![], vec![], vec![], vec![]);
        let (mut ta_us, mut tra_us, mut first_us, mut polyanya_us, mut unbaked_us) =
            (vec![], vec![], vec![], vec![], vec![]);
        let rounds = std::env::var("BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(ROUNDS);
        for _ in 0..rounds {
            let mut times;
            (ta, times) = pass(&queries, |query| scratch.ta_star(&mesh, query, &mut NoTrace).unwrap());
            keep_fastest(&mut ta_us, times);
            (tra, times) = pass(&queries, |query| scratch.tra_star(&mesh, &reduction, query, &mut NoTrace).unwrap());
            keep_fastest(&mut tra_us, times);
            (first, times) =
                pass(&first_queries, |query| scratch.tra_star(&mesh, &reduction, query, &mut NoTrace).unwrap());
            keep_fastest(&mut first_us, times);
            (reference, times) = pass(&queries, |query| polyanya.path(to_f32(query.start), to_f32(query.goal)));
            keep_fastest(&mut polyanya_us, times);
            (unbaked_paths, times) = pass(&queries, |query| unbaked.path(to_f32(query.start), to_f32(query.goal)));
            keep_fastest(&mut unbaked_us, times);
        }
        let (astar_exp, ta_exp, tra_exp) = (
            astar.iter().map(|r| r.expanded).sum::<usize>(),
            ta.iter().map(|r| r.expanded).sum::<usize>(),
            tra.iter().map(|r| r.expanded).sum::<usize>(),
        );
        // Queries whose goal TA* saw from the start (a straight walk, no expansion).
        let in_sight: Vec<bool> = ta.iter().map(|r| r.expanded == 0).collect();
        let (mut octile_total, mut any_angle_total, mut first_total) = (0.0, 0.0, 0.0);
        for (q, s) in scenarios.iter().enumerate() {
            assert_eq!(
                unbaked_paths[q].as_ref().map(|p| p.length),
                reference[q].as_ref().map(|p| p.length),
                "{s:?}: baking changes Polyanya's path"
            );
            let (Some(octile), Some(ta), Some(tra), Some(first), Some(reference)) =
                (astar[q].cost(), &ta[q].path, &tra[q].path, &first[q].path, &reference[q])
            else {
                panic!("query {s:?}: all searches must find a path");
            };
            assert!((ta.length - tra.length).abs() < 1e-6, "{s:?}: TA* {} TRA* {}", ta.length, tra.length);
            let tolerance = 1e-5 * ta.length.max(1.0);
            assert!(
                (ta.length - reference.length as f64).abs() < tolerance,
                "{s:?}: TA* {} Polyanya {}",
                ta.length,
                reference.length
            );
            assert!(ta.length <= octile + 1e-9);
            octile_total += octile;
            any_angle_total += ta.length;
            first_total += first.length;
        }
        let n = scenarios.len();
        let (polyanya_median, unbaked_median) = (median(polyanya_us.clone()), median(unbaked_us.clone()));
        let versus =
            |us: f64| format!("{:>5.2}x baked Polyanya ({:.2}x unbaked)", us / polyanya_median, us / unbaked_median);
        println!("  {n} queries, median time per query and mean nodes expanded:");
        println!("    grid A* (octile)       {:>9.1} us {:>9.1} cells", median(astar_us), astar_exp as f64 / n as f64);
        let (ta_median, tra_median) = (median(ta_us.clone()), median(tra_us.clone()));
        println!(
            "    TA*  (optimal)         {:>9.1} us {:>9.1} search nodes  {}",
            ta_median,
            ta_exp as f64 / n as f64,
            versus(ta_median)
        );
        println!(
            "    TRA* (optimal)         {:>9.1} us {:>9.1} search nodes  {}",
            tra_median,
            tra_exp as f64 / n as f64,
            versus(tra_median)
        );
        println!("    TRA* (first path only) {:>9.1} us", median(first_us));
        println!("    Polyanya (crate)       {:>9.1} us baked, {:.1} us unbaked", polyanya_median, unbaked_median);
        // Queries whose goal is not in sight from the start: the ones that search.
        let searched =
            |times: &[f64]| median(times.iter().zip(&in_sight).filter(|&(_, &seen)| !seen).map(|(&t, _)| t).collect());
        let sighted = in_sight.iter().filter(|&&seen| seen).count();
        let searched_ratios = if sighted < n {
            let polyanya_searched = searched(&polyanya_us);
            let ratios = (searched(&ta_us) / polyanya_searched, searched(&tra_us) / polyanya_searched);
            println!(
                "  goal in sight for {sighted} of {n} queries; median of the others: TA* {:.2}x, TRA* {:.2}x baked Polyanya's time",
                ratios.0, ratios.1
            );
            format!("{:>6.2} {:>6.2}", ratios.0, ratios.1)
        } else {
            format!("{:>6} {:>6}", "-", "-")
        };
        summary.push(format!(
            "{:>6.2} {:>6.2} {:>6.2} {:>6.2} {searched_ratios}  {map}",
            ta_median / unbaked_median,
            tra_median / unbaked_median,
            ta_median / polyanya_median,
            tra_median / polyanya_median
        ));
        println!(
            "  total length: octile {octile_total:.1}, any-angle {any_angle_total:.1} ({:.1}% shorter), \
             TRA* first paths {first_total:.1} ({:.2}% over optimal)",
            100.0 * (1.0 - any_angle_total / octile_total),
            100.0 * (first_total / any_angle_total - 1.0)
        );
    }
    println!("\nMedian time over Polyanya's: unbaked, baked, and baked on the queries that search");
    println!("{:>13} {:>13} {:>13}", "unbaked", "baked", "searched");
    println!("{:>6} {:>6} {:>6} {:>6} {:>6} {:>6}", "TA*", "TRA*", "TA*", "TRA*", "TA*", "TRA*");
    for line in summary {
        println!("{line}");
    }
}
