//! Polyanya on triangles and on merged convex polygons, against facts it does not compute: a
//! visibility graph with Dijkstra written here on the raw outline (polygon maps, small and
//! generated grids), TA* (anytime, run to its proof of the shortest path) and the `polyanya`
//! crate on the same polygons (bundled grid maps' scenarios). Also the merge (convex polygons
//! covering the free area, computed here from the map's rings) and the trace.

mod common;
#[path = "common/polyanya_crate.rs"]
mod polyanya_crate;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::movingai;
use searchlab::navmesh::grid_outline::{cell_centre, grid_outline};
use searchlab::navmesh::merge::ConvexMesh;
use searchlab::navmesh::polyanya_search::{PolyanyaEvent, PolyanyaScratch, polyanya};
use searchlab::navmesh::tastar::{MeshQuery, SearchScratch};
use searchlab::navmesh::{Navmesh, Outline, PolygonMap};
use searchlab::trace::{NO_NODE, NoTrace, Recorder};

type Point = [f64; 2];

/// Relative tolerance of the lengths compared in f64.
const RELATIVE: f64 = 1e-6;

fn cross(a: Point, b: Point, c: Point) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn length(a: Point, b: Point) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * a.abs().max(b.abs()).max(1.0)
}

/// Shortest paths by Dijkstra on the visibility graph of an outline's points: free space is where
/// a ray to the right crosses an odd number of obstacle edges, edges themselves included.
struct Oracle {
    points: Vec<Point>,
    edges: Vec<(Point, Point)>,
    /// Which points see each other.
    sees: Vec<Vec<bool>>,
}

impl Oracle {
    fn new(outline: &Outline) -> Oracle {
        let edges: Vec<_> =
            outline.segments.iter().map(|&[a, b]| (outline.points[a as usize], outline.points[b as usize])).collect();
        let mut points = outline.points.clone();
        points.sort_by(|a, b| a.partial_cmp(b).unwrap());
        points.dedup();
        let mut oracle = Oracle { points, edges, sees: Vec::new() };
        let n = oracle.points.len();
        oracle.sees = vec![vec![false; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let seen = oracle.visible(oracle.points[i], oracle.points[j]);
                oracle.sees[i][j] = seen;
                oracle.sees[j][i] = seen;
            }
        }
        oracle
    }

    fn on_edge(&self, p: Point) -> bool {
        self.edges.iter().any(|&(a, b)| {
            cross(a, b, p).abs() <= 1e-12 * length(a, b).max(1.0)
                && p[0] >= a[0].min(b[0]) - 1e-12
                && p[0] <= a[0].max(b[0]) + 1e-12
                && p[1] >= a[1].min(b[1]) - 1e-12
                && p[1] <= a[1].max(b[1]) + 1e-12
        })
    }

    fn free(&self, p: Point) -> bool {
        let crossings = self
            .edges
            .iter()
            .filter(|&&(a, b)| {
                (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            })
            .count();
        crossings % 2 == 1 || self.on_edge(p)
    }

    /// Whether segment `p q` stays in free space: it crosses no edge properly, and between the
    /// outline points on it every piece's midpoint is free.
    fn visible(&self, p: Point, q: Point) -> bool {
        let d = [q[0] - p[0], q[1] - p[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let mut cuts = vec![0.0, 1.0];
        for &(a, b) in &self.edges {
            let (o1, o2, o3, o4) = (cross(p, q, a), cross(p, q, b), cross(a, b, p), cross(a, b, q));
            if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
                return false;
            }
            for v in [a, b] {
                let t = ((v[0] - p[0]) * d[0] + (v[1] - p[1]) * d[1]) / len2;
                if len2 > 0.0 && (0.0..=1.0).contains(&t) && cross(p, q, v).abs() <= 1e-12 * len2.sqrt().max(1.0) {
                    cuts.push(t);
                }
            }
        }
        cuts.sort_by(f64::total_cmp);
        cuts.windows(2).all(|w| {
            let t = (w[0] + w[1]) / 2.0;
            self.free([p[0] + t * d[0], p[1] + t * d[1]])
        })
    }

    fn shortest(&self, start: Point, goal: Point) -> Option<f64> {
        if self.visible(start, goal) {
            return Some(length(start, goal));
        }
        let n = self.points.len();
        let mut dist: Vec<f64> = self
            .points
            .iter()
            .map(|&p| if self.visible(start, p) { length(start, p) } else { f64::INFINITY })
            .collect();
        let to_goal: Vec<bool> = self.points.iter().map(|&p| self.visible(p, goal)).collect();
        let mut done = vec![false; n];
        let mut best = f64::INFINITY;
        while let Some(u) =
            (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        {
            done[u] = true;
            if to_goal[u] {
                best = best.min(dist[u] + length(self.points[u], goal));
            }
            for v in 0..n {
                if self.sees[u][v] {
                    dist[v] = dist[v].min(dist[u] + length(self.points[u], self.points[v]));
                }
            }
        }
        best.is_finite().then_some(best)
    }

    fn random_free_point(&self, rng: &mut StdRng) -> Point {
        let (lo, hi) = self.points.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
            ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
        });
        loop {
            let p = [rng.random_range(lo[0]..hi[0]), rng.random_range(lo[1]..hi[1])];
            if self.free(p) {
                return p;
            }
        }
    }
}

/// Both mesh kinds of one outline.
struct Meshes {
    navmesh: Navmesh,
    kinds: [(&'static str, ConvexMesh); 2],
}

fn meshes(outline: &Outline) -> Meshes {
    let navmesh = Navmesh::build(outline, None).unwrap();
    let kinds = [("triangles", ConvexMesh::triangles(&navmesh)), ("merged", ConvexMesh::merged(&navmesh))];
    Meshes { navmesh, kinds }
}

/// Polyanya's length for each mesh kind matches the oracle, and its waypoints are a free path of
/// that length.
fn check_against_oracle(oracle: &Oracle, meshes: &Meshes, start: Point, goal: Point, scratch: &mut PolyanyaScratch) {
    let expected = oracle.shortest(start, goal);
    for (kind, polygons) in &meshes.kinds {
        let result = scratch.search(&meshes.navmesh, polygons, &MeshQuery::new(start, goal), &mut NoTrace).unwrap();
        let Some(path) = result.path else {
            assert_eq!(expected, None, "{kind} {start:?} -> {goal:?}: Polyanya finds no path");
            continue;
        };
        let expected = expected.unwrap_or_else(|| panic!("{kind} {start:?} -> {goal:?}: a path where none exists"));
        if !close(path.length, expected, RELATIVE) {
            let ta = searchlab::navmesh::tastar::ta_star(&meshes.navmesh, &MeshQuery::new(start, goal), &mut NoTrace);
            let ta = ta.unwrap().path.map(|p| p.length);
            panic!("{kind} {start:?} -> {goal:?}: {} vs the oracle's {expected} (TA*: {ta:?})", path.length);
        }
        assert_eq!((path.waypoints.first(), path.waypoints.last()), (Some(&start), Some(&goal)));
        let walked: f64 = path.waypoints.windows(2).map(|w| length(w[0], w[1])).sum();
        assert!(close(walked, path.length, 1e-9), "{kind}: waypoints {walked} vs length {}", path.length);
        for w in path.waypoints.windows(2) {
            assert!(
                oracle.visible(w[0], w[1]),
                "{kind} {start:?} -> {goal:?}: leg {:?} -> {:?} leaves free space",
                w[0],
                w[1]
            );
        }
    }
}

fn polygon_map(name: &str) -> PolygonMap {
    PolygonMap::load(&common::project_map(name)).expect("bundled map is valid")
}

#[test]
fn lengths_match_the_visibility_graph_on_polygon_maps() {
    let mut scratch = PolyanyaScratch::default();
    for (name, seed) in [("pillars.json", 1), ("u_hall.json", 2), ("narrow_corridor.json", 3)] {
        let outline = polygon_map(name).outline();
        let (oracle, meshes) = (Oracle::new(&outline), meshes(&outline));
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..80 {
            let (start, goal) = (oracle.random_free_point(&mut rng), oracle.random_free_point(&mut rng));
            check_against_oracle(&oracle, &meshes, start, goal, &mut scratch);
        }
        // The outline's corners and edge midpoints as starts and goals: on vertices, on edges,
        // collinear with walls.
        let corners: Vec<Point> = outline.points.clone();
        let mids: Vec<Point> = outline
            .segments
            .iter()
            .map(|&[a, b]| {
                let (a, b) = (outline.points[a as usize], outline.points[b as usize]);
                [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
            })
            .collect();
        for (i, &start) in corners.iter().chain(&mids).enumerate().step_by(3) {
            let goal = corners[(i * 7 + 3) % corners.len()];
            check_against_oracle(&oracle, &meshes, start, goal, &mut scratch);
            check_against_oracle(&oracle, &meshes, start, mids[(i * 5 + 1) % mids.len()], &mut scratch);
        }
    }
}

/// A random `size` x `size` grid map, about a fifth of its cells blocked, where no two blocked
/// cells touch by a corner only: the oracle's closed free space would squeeze through such a
/// point, which a mesh (and MovingAI's rules) does not.
fn random_grid_text(size: usize, rng: &mut StdRng) -> String {
    let mut blocked: Vec<Vec<bool>> = (0..size).map(|_| (0..size).map(|_| rng.random_bool(0.2)).collect()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for y in 0..size - 1 {
            for x in 0..size - 1 {
                let (a, b, c, d) = (blocked[y][x], blocked[y][x + 1], blocked[y + 1][x], blocked[y + 1][x + 1]);
                if a == d && b == c && a != b {
                    (blocked[y][x], blocked[y][x + 1], blocked[y + 1][x], blocked[y + 1][x + 1]) =
                        (true, true, true, true);
                    changed = true;
                }
            }
        }
    }
    let rows: String =
        blocked.iter().map(|row| row.iter().map(|&b| if b { '@' } else { '.' }).collect::<String>() + "\n").collect();
    format!("type octile\nheight {size}\nwidth {size}\nmap\n{rows}")
}

#[test]
fn lengths_match_the_visibility_graph_on_generated_grids_and_a_bundled_one() {
    let mut scratch = PolyanyaScratch::default();
    let mut rng = StdRng::seed_from_u64(46);
    let mut grids: Vec<_> = (0..4)
        .map(|_| movingai::parse_map("random.map", &random_grid_text(20, &mut rng)).expect("a valid map"))
        .collect();
    grids.push(movingai::load_map(&common::project_map("lecture-u.map")).unwrap());
    for grid in grids {
        let outline = grid_outline(&grid);
        let (oracle, meshes) = (Oracle::new(&outline), meshes(&outline));
        let cells = grid.passable_cells();
        for _ in 0..40 {
            let (a, b) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
            check_against_oracle(&oracle, &meshes, cell_centre(&grid, a), cell_centre(&grid, b), &mut scratch);
            // Random points too, off the cells' centres (these may be unreachable from each other).
            let (start, goal) = (oracle.random_free_point(&mut rng), oracle.random_free_point(&mut rng));
            check_against_oracle(&oracle, &meshes, start, goal, &mut scratch);
        }
    }
}

/// Polyanya on both mesh kinds, TA* and the crate on the merged polygons agree on `queries`.
fn check_against_ta_and_crate(name: &str, outline: &Outline, queries: &[(Point, Point)]) {
    let meshes = meshes(outline);
    let crate_mesh = {
        let mut mesh = polyanya_crate::crate_mesh(&meshes.kinds[1].1);
        mesh.bake();
        mesh
    };
    let (mut ours, mut ta) = (PolyanyaScratch::default(), SearchScratch::default());
    for &(start, goal) in queries {
        let query = MeshQuery::new(start, goal);
        let expected = ta.ta_star(&meshes.navmesh, &query, &mut NoTrace).unwrap().path.map(|p| p.length);
        for (kind, polygons) in &meshes.kinds {
            let found = ours.search(&meshes.navmesh, polygons, &query, &mut NoTrace).unwrap().path.map(|p| p.length);
            match (found, expected) {
                (Some(found), Some(expected)) => {
                    assert!(
                        close(found, expected, RELATIVE),
                        "{name} {kind} {start:?} -> {goal:?}: {found} vs TA* {expected}"
                    )
                }
                _ => assert_eq!(found, expected, "{name} {kind} {start:?} -> {goal:?}"),
            }
        }
        // The crate computes in f32: 24-bit mantissas, so a relative 1e-5 on these map sizes.
        let reference = polyanya_crate::crate_length(&crate_mesh, start, goal);
        match (reference, expected) {
            (Some(reference), Some(expected)) => {
                assert!(
                    close(reference, expected, 1e-5),
                    "{name} {start:?} -> {goal:?}: crate {reference} vs {expected}"
                )
            }
            _ => assert_eq!(reference.is_some(), expected.is_some(), "{name} {start:?} -> {goal:?}"),
        }
    }
}

fn scenario_queries(path: &std::path::Path, every: usize) -> (Outline, Vec<(Point, Point)>) {
    let grid = movingai::load_map(path).unwrap();
    let scen = format!("{}.scen", path.display());
    let (scenarios, _) =
        movingai::load_scen(scen.as_ref()).and_then(|all| movingai::searchable_scenarios(&scen, all, &grid)).unwrap();
    let queries = scenarios
        .iter()
        .step_by(every)
        .map(|s| {
            let cell = |(x, y): (u32, u32)| cell_centre(&grid, grid.cell(x, y));
            (cell(s.start), cell(s.goal))
        })
        .collect();
    (grid_outline(&grid), queries)
}

#[test]
fn lengths_match_ta_star_and_the_crate_on_bundled_grid_maps() {
    for (name, every) in [("rooms128.map", 40), ("maze64.map", 15), ("random512.map", 120), ("rooms512.map", 150)] {
        let (outline, queries) = scenario_queries(&common::project_map(name), every);
        check_against_ta_and_crate(name, &outline, &queries);
    }
    if let Some(dir) = common::shared_data("movingai") {
        for (name, every) in [("arena.map", 10), ("maze512-32-9.map", 60)] {
            let (outline, queries) = scenario_queries(&dir.join(name), every);
            check_against_ta_and_crate(name, &outline, &queries);
        }
    }
}

#[test]
fn lengths_match_ta_star_and_the_crate_on_random_queries_of_polygon_maps() {
    let mut rng = StdRng::seed_from_u64(17);
    for name in ["pillars.json", "u_hall.json", "narrow_corridor.json"] {
        let outline = polygon_map(name).outline();
        let oracle = Oracle::new(&outline);
        let queries: Vec<_> =
            (0..100).map(|_| (oracle.random_free_point(&mut rng), oracle.random_free_point(&mut rng))).collect();
        check_against_ta_and_crate(name, &outline, &queries);
    }
}

/// Twice the signed area of a ring.
fn ring_area(ring: &[Point]) -> f64 {
    (0..ring.len()).map(|i| cross([0.0, 0.0], ring[i], ring[(i + 1) % ring.len()])).sum()
}

#[test]
fn merged_polygons_are_convex_fewer_and_cover_the_free_area() {
    for name in ["pillars.json", "u_hall.json", "narrow_corridor.json"] {
        let map = polygon_map(name);
        let free_area = ring_area(&map.boundary).abs() - map.holes.iter().map(|h| ring_area(h).abs()).sum::<f64>();
        let meshes = meshes(&map.outline());
        let [(_, triangles), (_, merged)] = &meshes.kinds;
        assert!(merged.len() < triangles.len(), "{name}: {} polygons of {} triangles", merged.len(), triangles.len());
        for polygons in [triangles, merged] {
            let mut area = 0.0;
            for p in 0..polygons.len() as u32 {
                let ring: Vec<Point> = polygons.points(p).collect();
                let n = ring.len();
                assert!(
                    (0..n).all(|i| cross(ring[i], ring[(i + 1) % n], ring[(i + 2) % n]) >= 0.0),
                    "{name}: {ring:?}"
                );
                area += ring_area(&ring);
                // Neighbours see each other across the same edge.
                for (i, &q) in polygons.polygon_neighbours(p).iter().enumerate() {
                    if q == NO_NODE {
                        continue;
                    }
                    let (a, b) = (polygons.polygon_vertices(p)[i], polygons.polygon_vertices(p)[(i + 1) % n]);
                    let theirs = polygons.polygon_vertices(q);
                    let m = theirs.len();
                    let j = polygons.polygon_neighbours(q).iter().position(|&r| r == p).expect("mutual neighbours");
                    assert_eq!((theirs[j], theirs[(j + 1) % m]), (b, a), "{name}: polygons {p} and {q}");
                }
            }
            assert!(close(area, free_area, 1e-12), "{name}: polygons cover {area}, the map {free_area}");
        }
    }
}

#[test]
fn the_trace_pushes_expands_and_ends_with_the_path() {
    let outline = polygon_map("pillars.json").outline();
    let meshes = meshes(&outline);
    for (kind, polygons) in &meshes.kinds {
        let mut recorder = Recorder::default();
        let query = MeshQuery::new([1.0, 1.0], [39.0, 29.0]);
        let result = polyanya(&meshes.navmesh, polygons, &query, &mut recorder).unwrap();
        let events = recorder.finish().events;
        let count = |wanted: fn(&PolyanyaEvent) -> bool| events.iter().filter(|e| wanted(e)).count();
        assert_eq!(count(|e| matches!(e, PolyanyaEvent::Push { immediate: false, .. })), result.pushed, "{kind}");
        assert_eq!(count(|e| matches!(e, PolyanyaEvent::Expand { .. })), result.expanded, "{kind}");
        let pruned = count(|e| matches!(e, PolyanyaEvent::Prune { .. } | PolyanyaEvent::Drop { .. }));
        assert_eq!(pruned, result.pruned, "{kind}");
        let path = result.path.unwrap();
        assert_eq!(events.last(), Some(&PolyanyaEvent::Found { length: path.length, waypoints: path.waypoints }));
        // h is never negative.
        for event in &events {
            if let PolyanyaEvent::Push { f, g, .. } = event {
                assert!(g <= f, "{kind}: g {g} above f {f}");
            }
        }
    }
}

#[test]
fn bad_queries_are_refused_in_one_line() {
    let outline = polygon_map("pillars.json").outline();
    let meshes = meshes(&outline);
    let polygons = &meshes.kinds[1].1;
    let refuse = |query: MeshQuery| polyanya(&meshes.navmesh, polygons, &query, &mut NoTrace).unwrap_err();
    let round = MeshQuery { radius: 0.5, ..MeshQuery::new([1.0, 1.0], [39.0, 29.0]) };
    assert_eq!(refuse(round), "Polyanya plans for a point agent: the radius must be 0, not 0.5");
    assert!(refuse(MeshQuery::new([9.0, 9.0], [1.0, 1.0])).contains("start [9.0, 9.0] is inside an obstacle"));
    assert!(refuse(MeshQuery::new([1.0, 1.0], [50.0, 1.0])).contains("goal [50.0, 1.0] is outside the map"));
    let limited = MeshQuery { max_expansions: 1, ..MeshQuery::new([1.0, 1.0], [39.0, 29.0]) };
    assert!(refuse(limited).contains("limit of 1 expansions"));
}
