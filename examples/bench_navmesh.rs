//! The polygon searches against the `polyanya` crate (Cui, Harabor & Grastien 2017, in f32) on
//! the same polygons and queries: TA* and TRA* on the walkable triangles, and our Polyanya on the
//! triangles and on them merged into convex polygons ([`ConvexMesh::merged`]), each against the
//! crate on the same polygons. Median time per query (each query's fastest of [`ROUNDS`] passes,
//! or `BENCH_ROUNDS`), nodes expanded; all lengths are asserted equal (1e-5 relative against the
//! crate, which works in f32). Grid maps (`.map`, their `.scen` queries between cell centres) are
//! also searched with grid A*, to say how much shorter any-angle paths are than octile ones;
//! polygon maps (`.json`) get 1000 random queries between free points.
//!
//! Point location is timed on both sides: ours walks the triangulation from a vertex found in a
//! grid of buckets built with the mesh, then maps the triangle to its polygon; the crate's mesh is
//! baked (`Mesh::bake`, once per mesh as a game would: an R-tree of the polygons' bounding boxes).
//!
//! cargo run --release --example bench_navmesh [-- MAP.map|MAP.json ...]
//! (`BENCH_ROUNDS=500` runs the passes that often, for a profiler to see small maps' queries.)

#[path = "../tests/common/polyanya_crate.rs"]
mod polyanya_crate;

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::{Grid, movingai};
use searchlab::navmesh::grid_outline::cell_centre;
use searchlab::navmesh::merge::ConvexMesh;
use searchlab::navmesh::polyanya_search::PolyanyaScratch;
use searchlab::navmesh::reduction::{Reduction, Role};
use searchlab::navmesh::tastar::{MeshQuery, SearchScratch};
use searchlab::navmesh::triangulation::Location;
use searchlab::navmesh::{MapFile, Navmesh, Point, load_map_file};
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

/// Runs `solve` on every query in turn: the results and the microseconds each took.
fn pass<Q, R>(queries: &[Q], mut solve: impl FnMut(&Q) -> R) -> (Vec<R>, Vec<f64>) {
    queries.iter().map(|query| timed(|| solve(query))).unzip()
}

/// How many times each search runs over all queries, the searches taking turns: a query's time
/// is its fastest, so a burst of load from the machine's other work does not decide a ratio.
const ROUNDS: usize = 3;

/// Keeps in `fastest` each query's fastest time so far.
fn keep_fastest(fastest: &mut Vec<f64>, times: Vec<f64>) {
    if fastest.is_empty() {
        *fastest = times;
    } else {
        fastest.iter_mut().zip(times).for_each(|(best, t)| *best = best.min(t));
    }
}

/// A grid map's scenarios as cell pairs, or `count` random pairs of free points of a polygon map.
fn map_queries(map: &str, file: &MapFile, mesh: &Navmesh, count: usize) -> (Vec<MeshQuery>, Option<Vec<(u32, u32)>>) {
    if let Some(grid) = &file.grid {
        // MovingAI's water ('W') is blocked here: its queries from or to water are left out.
        let scen = format!("{map}.scen");
        let (scenarios, _) = movingai::load_scen(scen.as_ref())
            .and_then(|all| movingai::searchable_scenarios(&scen, all, grid))
            .unwrap_or_else(|e| panic!("{e}"));
        let cells: Vec<(u32, u32)> =
            scenarios.iter().map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))).collect();
        let queries = cells.iter().map(|&(a, b)| MeshQuery::new(cell_centre(grid, a), cell_centre(grid, b))).collect();
        return (queries, Some(cells));
    }
    let (lo, hi) = mesh.vertices.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
        ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
    });
    let mut rng = StdRng::seed_from_u64(46);
    let mut free_point = || -> Point {
        loop {
            let p = [rng.random_range(lo[0]..hi[0]), rng.random_range(lo[1]..hi[1])];
            if matches!(mesh.locate(p), Location::Triangles(_)) {
                return p;
            }
        }
    };
    ((0..count).map(|_| MeshQuery::new(free_point(), free_point())).collect(), None)
}

/// Grid A*'s octile lengths for the grid's queries, and its median time.
fn octile(grid: &Grid, cells: &[(u32, u32)]) -> (Vec<Option<f64>>, f64) {
    let mut space = SearchSpace::new();
    let (paths, times) =
        pass(cells, |&(start, goal)| GridSearch::default().run(grid, start, goal, &mut space, &mut NoTrace).cost());
    (paths, median(times))
}

fn assert_close(what: &str, a: Option<f64>, b: Option<f64>, relative: f64) {
    match (a, b) {
        (Some(a), Some(b)) => assert!((a - b).abs() <= relative * a.max(1.0), "{what}: {a} vs {b}"),
        _ => assert_eq!(a.is_some(), b.is_some(), "{what}: {a:?} vs {b:?}"),
    }
}

/// Median microseconds per query of each search on one map.
struct Medians {
    ta: f64,
    tra: f64,
    ours: [f64; 2],
    theirs: [f64; 2],
}

fn bench_map(map: &str) -> Medians {
    let file = load_map_file(map.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let (mesh, build_micros) = timed(|| Navmesh::build(&file.outline, None).unwrap_or_else(|e| panic!("{e}")));
    let reduction = Reduction::new(&mesh);
    let (merged, merge_micros) = timed(|| ConvexMesh::merged(&mesh));
    let kinds = [ConvexMesh::triangles(&mesh), merged];
    let crate_meshes = kinds.each_ref().map(|polygons| {
        let mut mesh = polyanya_crate::crate_mesh(polygons);
        mesh.bake();
        mesh
    });
    println!(
        "{map}: {} walkable triangles ({} decision points) -> {} merged polygons; triangulation {:.0} us, merge {:.0} us",
        mesh.walkable_count(),
        reduction.count(Role::Decision),
        kinds[1].len(),
        build_micros,
        merge_micros
    );
    let (queries, cells) = map_queries(map, &file, &mesh, 1000);
    let (mut scratch, mut polyanya) = (SearchScratch::default(), PolyanyaScratch::default());
    let (mut ta, mut tra, mut ours, mut theirs) = (vec![], vec![], [vec![], vec![]], [vec![], vec![]]);
    let (mut ta_us, mut tra_us, mut ours_us, mut theirs_us) = (vec![], vec![], [vec![], vec![]], [vec![], vec![]]);
    let rounds = std::env::var("BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(ROUNDS);
    // Each search keeps its buffers from query to query, as a game would keep one per mesh.
    for _ in 0..rounds {
        let mut times;
        (ta, times) = pass(&queries, |query| scratch.ta_star(&mesh, query, &mut NoTrace).unwrap());
        keep_fastest(&mut ta_us, times);
        (tra, times) = pass(&queries, |query| scratch.tra_star(&mesh, &reduction, query, &mut NoTrace).unwrap());
        keep_fastest(&mut tra_us, times);
        for k in 0..2 {
            (ours[k], times) = pass(&queries, |query| polyanya.search(&mesh, &kinds[k], query, &mut NoTrace).unwrap());
            keep_fastest(&mut ours_us[k], times);
            (theirs[k], times) =
                pass(&queries, |query| polyanya_crate::crate_length(&crate_meshes[k], query.start, query.goal));
            keep_fastest(&mut theirs_us[k], times);
        }
    }
    for (q, query) in queries.iter().enumerate() {
        let what = |name: &str| format!("{map} {:?} -> {:?}: {name}", query.start, query.goal);
        let expected = ta[q].path.as_ref().map(|p| p.length);
        assert_close(&what("TRA*"), expected, tra[q].path.as_ref().map(|p| p.length), 1e-6);
        for k in 0..2 {
            assert_close(&what("Polyanya"), expected, ours[k][q].path.as_ref().map(|p| p.length), 1e-6);
            assert_close(&what("the crate"), expected, theirs[k][q], 1e-5);
        }
    }
    let n = queries.len() as f64;
    let mean = |expanded: usize| expanded as f64 / n;
    let medians =
        Medians { ta: median(ta_us), tra: median(tra_us), ours: ours_us.map(median), theirs: theirs_us.map(median) };
    println!("  {} queries, median time per query and mean nodes expanded:", queries.len());
    if let (Some(grid), Some(cells)) = (&file.grid, &cells) {
        let (octile_lengths, astar_median) = octile(grid, cells);
        let any_angle: f64 = ta.iter().filter_map(|r| r.path.as_ref().map(|p| p.length)).sum();
        let octile_total: f64 = octile_lengths.iter().flatten().sum();
        println!(
            "    grid A* (octile)     {astar_median:>9.1} us; any-angle paths {:.1}% shorter",
            100.0 * (1.0 - any_angle / octile_total)
        );
    }
    let ratio = |us: f64, k: usize| us / medians.theirs[k];
    let ta_expanded = mean(ta.iter().map(|r| r.expanded).sum());
    let tra_expanded = mean(tra.iter().map(|r| r.expanded).sum());
    println!(
        "    TA*  (triangles)     {:>9.1} us {ta_expanded:>9.1} nodes  {:.2}x the crate",
        medians.ta,
        ratio(medians.ta, 0)
    );
    println!(
        "    TRA* (triangles)     {:>9.1} us {tra_expanded:>9.1} nodes  {:.2}x the crate",
        medians.tra,
        ratio(medians.tra, 0)
    );
    for (k, kind) in ["triangles", "merged"].iter().enumerate() {
        let expanded = mean(ours[k].iter().map(|r| r.expanded).sum());
        println!(
            "    Polyanya ({kind:<9})  {:>9.1} us {expanded:>9.1} nodes  {:.2}x the crate ({:.1} us)",
            medians.ours[k],
            ratio(medians.ours[k], k),
            medians.theirs[k]
        );
    }
    medians
}

fn main() {
    let mut maps: Vec<String> = std::env::args().skip(1).collect();
    if maps.is_empty() {
        maps = ["maps/rooms128.map", "maps/maze64.map", "maps/pillars.json"].map(String::from).to_vec();
    }
    let results: Vec<(String, Medians)> = maps.into_iter().map(|map| (map.clone(), bench_map(&map))).collect();
    println!("\nMedian time per query over the crate's on the same polygons (crate's medians in us)");
    println!(
        "{:>7} {:>7} {:>9} {:>9} {:>9} {:>9}  map",
        "TA*", "TRA*", "ours-tri", "crate-tri", "ours-mrg", "crate-mrg"
    );
    let columns =
        |m: &Medians| [m.ta / m.theirs[0], m.tra / m.theirs[0], m.ours[0] / m.theirs[0], m.ours[1] / m.theirs[1]];
    for (map, m) in &results {
        let [ta, tra, tri, merged] = columns(m);
        println!("{ta:>7.2} {tra:>7.2} {tri:>9.2} {:>9.1} {merged:>9.2} {:>9.1}  {map}", m.theirs[0], m.theirs[1]);
    }
    let over_maps = |i: usize| median(results.iter().map(|(_, m)| columns(m)[i]).collect());
    println!(
        "{:>7.2} {:>7.2} {:>9.2} {:>9} {:>9.2} {:>9}  median over maps",
        over_maps(0),
        over_maps(1),
        over_maps(2),
        "",
        over_maps(3),
        ""
    );
}
