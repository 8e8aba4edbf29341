//! Polygon maps: TA* and TRA* against an independent oracle (visibility graph + Dijkstra on the
//! polygon rings), free-space and clearance checks on the paths, the map parsers' errors, and the
//! grid-to-polygon conversion.

mod common;

use std::collections::BinaryHeap;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::navmesh::grid_outline::{cell_centre, grid_outline};
use searchlab::navmesh::polyanya::parse_mesh;
use searchlab::navmesh::polygon::inside_ring;
use searchlab::navmesh::reduction::{Reduction, Role};
use searchlab::navmesh::tastar::{MeshQuery, ta_star};
use searchlab::navmesh::trastar::tra_star;
use searchlab::navmesh::triangulation::Location;
use searchlab::navmesh::walk::jump_and_walk;
use searchlab::navmesh::{Navmesh, Point, PolygonMap, Refinement, orient, path_length, segment_distance};
use searchlab::pathfinding::search_trace::{SearchOutcome, SearchSnapshot};
use searchlab::trace::{NoTrace, Player, Recorder};

fn load(name: &str) -> PolygonMap {
    PolygonMap::load(&common::project_map(name)).expect("bundled map is valid")
}

fn rings(map: &PolygonMap) -> Vec<&Vec<Point>> {
    std::iter::once(&map.boundary).chain(&map.holes).collect()
}

fn ring_edges(map: &PolygonMap) -> Vec<(Point, Point)> {
    rings(map).into_iter().flat_map(|r| (0..r.len()).map(move |i| (r[i], r[(i + 1) % r.len()]))).collect()
}

/// Closed free space, straight from the rings.
fn free(map: &PolygonMap, p: Point) -> bool {
    let on_edge = ring_edges(map).iter().any(|&(a, b)| segment_distance(p, p, a, b) < 1e-12);
    on_edge || (inside_ring(p, &map.boundary) && !map.holes.iter().any(|h| inside_ring(p, h)))
}

/// Whether the segment `p q` lies in free space: cut it where it meets ring vertices or crosses
/// ring edges, then every piece's midpoint must be free.
fn visible(map: &PolygonMap, p: Point, q: Point) -> bool {
    let d = [q[0] - p[0], q[1] - p[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let mut cuts = vec![0.0, 1.0];
    for (a, b) in ring_edges(map) {
        let (o1, o2) = (orient(p, q, a), orient(p, q, b));
        let (o3, o4) = (orient(a, b, p), orient(a, b, q));
        if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
            // A proper crossing of an obstacle edge.
            return false;
        }
        for v in [a, b] {
            if len2 > 0.0 && segment_distance(v, v, p, q) < 1e-12 {
                cuts.push(((v[0] - p[0]) * d[0] + (v[1] - p[1]) * d[1]) / len2);
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.windows(2).all(|w| {
        let t = (w[0] + w[1]) / 2.0;
        free(map, [p[0] + t * d[0], p[1] + t * d[1]])
    })
}

/// The Euclidean shortest path length by Dijkstra on the visibility graph.
fn oracle(map: &PolygonMap, start: Point, goal: Point) -> Option<f64> {
    let mut nodes = vec![start, goal];
    nodes.extend(rings(map).into_iter().flatten());
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::new();
    dist[0] = 0.0;
    heap.push((std::cmp::Reverse(ordered(0.0)), 0));
    while let Some((std::cmp::Reverse(d), u)) = heap.pop() {
        let d = f64::from_bits(d);
        if d > dist[u] {
            continue;
        }
        if u == 1 {
            return Some(d);
        }
        for v in 0..n {
            let step = searchlab::navmesh::distance(nodes[u], nodes[v]);
            if v != u && d + step < dist[v] && visible(map, nodes[u], nodes[v]) {
                dist[v] = d + step;
                heap.push((std::cmp::Reverse(ordered(dist[v])), v));
            }
        }
    }
    None
}

/// Non-negative floats order like their bits.
fn ordered(x: f64) -> u64 {
    x.to_bits()
}

fn random_free_point(map: &PolygonMap, rng: &mut StdRng) -> Point {
    let (lo, hi) = map.boundary.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
        ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
    });
    loop {
        let p = [rng.random_range(lo[0]..hi[0]), rng.random_range(lo[1]..hi[1])];
        if free(map, p) {
            return p;
        }
    }
}

/// TA*, TRA* and the oracle agree, and the waypoints stay in free space.
fn check_query(map: &PolygonMap, mesh: &Navmesh, reduction: &Reduction, start: Point, goal: Point) {
    let query = MeshQuery::new(start, goal);
    let ta = ta_star(mesh, &query, &mut NoTrace).expect("start and goal are free");
    let tra = tra_star(mesh, reduction, &query, &mut NoTrace).expect("start and goal are free");
    let expected = oracle(map, start, goal);
    let (Some(ta_path), Some(tra_path), Some(expected)) = (&ta.path, &tra.path, expected) else {
        assert!(
            ta.path.is_none() && tra.path.is_none() && expected.is_none(),
            "{start:?} -> {goal:?}: reachability differs"
        );
        return;
    };
    assert!(
        (ta_path.length - expected).abs() < 1e-7,
        "TA* {start:?} -> {goal:?}: {} vs oracle {expected}",
        ta_path.length
    );
    assert!(
        (tra_path.length - expected).abs() < 1e-7,
        "TRA* {start:?} -> {goal:?}: {} vs oracle {expected}",
        tra_path.length
    );
    assert!(ta.first_length.unwrap() >= expected - 1e-9);
    assert!(tra.first_length.unwrap() >= expected - 1e-9);
    for path in [ta_path, tra_path] {
        assert_eq!(path.waypoints.first(), Some(&start));
        assert_eq!(path.waypoints.last(), Some(&goal));
        assert!((path_length(&path.waypoints) - path.length).abs() < 1e-9);
        for w in path.waypoints.windows(2) {
            assert!(visible(map, w[0], w[1]), "{start:?} -> {goal:?}: leg {:?} -> {:?} leaves free space", w[0], w[1]);
        }
    }
}

#[test]
fn shortest_paths_match_the_visibility_graph_on_random_queries() {
    for (name, seed) in [("pillars.json", 1), ("u_hall.json", 2), ("narrow_corridor.json", 3)] {
        let map = load(name);
        check_random_queries(&map, &Navmesh::build(&map.outline(), None).unwrap(), seed, 60);
    }
}

fn check_random_queries(map: &PolygonMap, mesh: &Navmesh, seed: u64, queries: usize) {
    let reduction = Reduction::new(mesh);
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..queries {
        let (start, goal) = (random_free_point(map, &mut rng), random_free_point(map, &mut rng));
        check_query(map, mesh, &reduction, start, goal);
    }
}

#[test]
fn refined_meshes_give_the_same_shortest_paths() {
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), Some(Refinement { min_angle_deg: 25.0, max_area: Some(20.0) })).unwrap();
    let plain = Navmesh::build(&map.outline(), None).unwrap();
    assert!(mesh.walkable_count() > 2 * plain.walkable_count(), "refinement adds triangles");
    check_random_queries(&map, &mesh, 4, 15);
}

#[test]
fn start_and_goal_on_vertices_edges_and_collinear_with_corners() {
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let reduction = Reduction::new(&mesh);
    let cases: [(Point, Point); 8] = [
        // On obstacle vertices.
        ([11.0, 11.0], [28.0, 25.0]),
        // On an obstacle edge and on the boundary.
        ([9.5, 8.0], [40.0, 15.0]),
        // Corner to corner straight along a wall, and along the boundary.
        ([18.0, 3.0], [18.0, 27.0]),
        ([0.0, 0.0], [40.0, 0.0]),
        // Collinear with two pillar corners: the path grazes both.
        ([5.0, 5.0], [14.0, 14.0]),
        // Around the long wall, start and goal on its corners.
        ([18.0, 27.0], [20.0, 3.0]),
        ([19.0, 1.0], [19.0, 29.0]),
        // Same point.
        ([2.0, 2.0], [2.0, 2.0]),
    ];
    for (start, goal) in cases {
        check_query(&map, &mesh, &reduction, start, goal);
    }
}

/// A 40 x 40 room with a 7 x 7 field of small square pillars: open space with a great many
/// homotopically different channels between any two points.
fn pillar_field() -> PolygonMap {
    let pillar = |x: f64, y: f64| vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]];
    PolygonMap {
        boundary: vec![[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]],
        holes: (0..7).flat_map(|i| (0..7).map(move |j| pillar(4.0 + 5.0 * i as f64, 4.5 + 5.0 * j as f64))).collect(),
    }
}

#[test]
fn funnel_apexes_bound_and_prune_channels_on_open_maps() {
    let map = pillar_field().validated().unwrap();
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let reduction = Reduction::new(&mesh);
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..12 {
        let (start, goal) = (random_free_point(&map, &mut rng), random_free_point(&map, &mut rng));
        check_query(&map, &mesh, &reduction, start, goal);
    }
    // Corner to corner across the whole field. With g only from the distance to the entry edge
    // the channels multiply with the pillars passed (1268 expanded); the apex's exact distance
    // in g and pruning apexes reached shorter keep it under one expansion per triangle (179).
    let result = ta_star(&mesh, &MeshQuery::new([1.0, 1.0], [39.0, 39.0]), &mut NoTrace).unwrap();
    let expected = oracle(&map, [1.0, 1.0], [39.0, 39.0]).unwrap();
    assert!((result.path.unwrap().length - expected).abs() < 1e-7);
    assert!(
        result.expanded < 2 * mesh.walkable_count(),
        "{} expanded, {} triangles",
        result.expanded,
        mesh.walkable_count()
    );
}

/// Unit-square holes 3 apart in an `n` x `n` room (issue 19's fine meshes), as the polygon map
/// and as the Polyanya mesh of its unit squares: a vertex at every grid point, so every channel
/// passes a great many vertices in open space.
fn hole_field(n: i32) -> (PolygonMap, String) {
    let holes: Vec<(i32, i32)> =
        (0..(n - 3) / 3).flat_map(|i| (0..(n - 3) / 3).map(move |j| (2 + 3 * i, 2 + 3 * j))).collect();
    let square =
        |&(x, y): &(i32, i32)| [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]].map(|p| p.map(f64::from)).to_vec();
    let n_f = f64::from(n);
    let map = PolygonMap {
        boundary: vec![[0.0, 0.0], [n_f, 0.0], [n_f, n_f], [0.0, n_f]],
        holes: holes.iter().map(square).collect(),
    };
    (map.validated().unwrap(), common::polyanya_grid(n, &holes))
}

#[test]
fn fine_meshes_keep_exact_paths_with_few_expansions() {
    let (map, mesh_text) = hole_field(30);
    let polyanya = Navmesh::build(&parse_mesh("field.mesh", &mesh_text).unwrap(), None).unwrap();
    let refined = Navmesh::build(&map.outline(), Some(Refinement { min_angle_deg: 30.0, max_area: None })).unwrap();
    for (mesh, seed) in [(&polyanya, 7), (&refined, 8)] {
        check_random_queries(&map, mesh, seed, 12);
        // Corner to corner: before channels turning round open-space vertices were dropped and
        // portals compared, the Polyanya mesh took 3.4 million expansions (1,638 triangles).
        let (start, goal) = ([0.5, 0.5], [29.5, 29.5]);
        let expected = oracle(&map, start, goal).unwrap();
        let reduction = Reduction::new(mesh);
        for result in [
            ta_star(mesh, &MeshQuery::new(start, goal), &mut NoTrace),
            tra_star(mesh, &reduction, &MeshQuery::new(start, goal), &mut NoTrace),
        ] {
            let result = result.unwrap();
            assert!((result.path.unwrap().length - expected).abs() < 1e-7);
            assert!(
                result.expanded < mesh.walkable_count(),
                "{} expanded, {} triangles",
                result.expanded,
                mesh.walkable_count()
            );
        }
    }
}

#[test]
fn the_expansion_limit_ends_a_search_with_its_number() {
    let (map, _) = hole_field(12);
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let query = MeshQuery { max_expansions: 5, ..MeshQuery::new([0.5, 0.5], [11.5, 11.5]) };
    let error = ta_star(&mesh, &query, &mut NoTrace).unwrap_err();
    assert_eq!(error, "search stopped at its limit of 5 expansions: no path found");
    let unlimited = ta_star(&mesh, &MeshQuery::new([0.5, 0.5], [11.5, 11.5]), &mut NoTrace).unwrap();
    assert!(unlimited.expanded > 5 && unlimited.path.is_some());
}

#[test]
fn points_off_the_free_space_are_errors() {
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let inside_pillar = ta_star(&mesh, &MeshQuery::new([9.0, 9.0], [1.0, 1.0]), &mut NoTrace).unwrap_err();
    assert!(inside_pillar.contains("start") && inside_pillar.contains("inside an obstacle"), "{inside_pillar}");
    let outside = ta_star(&mesh, &MeshQuery::new([1.0, 1.0], [50.0, 1.0]), &mut NoTrace).unwrap_err();
    assert!(outside.contains("goal") && outside.contains("outside the map"), "{outside}");
    assert_eq!(mesh.locate([9.0, 9.0]), Location::InObstacle);
    let crowded = MeshQuery { radius: 1.0, ..MeshQuery::new([0.5, 5.0], [5.0, 5.0]) };
    assert!(ta_star(&mesh, &crowded, &mut NoTrace).unwrap_err().contains("closer than the radius"));
}

/// Every leg of the path keeps `radius` from every obstacle edge.
fn assert_clearance(map: &PolygonMap, waypoints: &[Point], radius: f64) {
    for w in waypoints.windows(2) {
        for (a, b) in ring_edges(map) {
            let d = segment_distance(w[0], w[1], a, b);
            assert!(d >= radius - 1e-9, "radius {radius}: leg {:?} -> {:?} is {d} from wall {a:?}-{b:?}", w[0], w[1]);
        }
    }
}

#[test]
fn radius_paths_keep_their_distance_and_narrow_corridors_close() {
    let map = load("narrow_corridor.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let reduction = Reduction::new(&mesh);
    let (start, goal) = ([2.0, 10.0], [28.0, 10.0]);
    let point = ta_star(&mesh, &MeshQuery::new(start, goal), &mut NoTrace).unwrap().path.unwrap();
    assert!((point.length - 26.0).abs() < 1e-9, "straight through the corridor");
    // The corridor is 1.5 wide: radius 0.5 and 0.7499 (gap just above 2r) fit; 0.7501 (just
    // below) and 0.9 must take a 2-wide detour round a block.
    for radius in [0.25, 0.5, 0.7499, 0.7501, 0.9] {
        let query = MeshQuery { radius, ..MeshQuery::new(start, goal) };
        let ta = ta_star(&mesh, &query, &mut NoTrace).unwrap().path.expect("a way round exists");
        let tra = tra_star(&mesh, &reduction, &query, &mut NoTrace).unwrap().path.unwrap();
        assert!((ta.length - tra.length).abs() < 1e-9, "radius {radius}: TA* {} TRA* {}", ta.length, tra.length);
        assert!(ta.length >= point.length - 1e-9);
        assert_clearance(&map, &ta.waypoints, radius);
        let through_corridor = ta.waypoints.iter().all(|p| (9.25..=10.75).contains(&p[1]));
        assert_eq!(through_corridor, radius < 0.75, "radius {radius}: {:?}", ta.waypoints);
    }
    // r = 0.9 goes round a block (corners 20 apart, each √73 from its end of the query), worked
    // out by hand: a tangent, an arc round the corner, the straight, and the same mirrored. The
    // arcs count as arcs, though they are drawn as short segments outside the circle.
    let r: f64 = 0.9;
    let by_hand = 2.0 * ((73.0 - r * r).sqrt() + r * (8f64.atan2(3.0) + (r / 73f64.sqrt()).asin())) + 20.0;
    let round =
        ta_star(&mesh, &MeshQuery { radius: r, ..MeshQuery::new(start, goal) }, &mut NoTrace).unwrap().path.unwrap();
    assert!((round.length - by_hand).abs() < 1e-9, "{} vs {by_hand} by hand", round.length);
    assert!(path_length(&round.waypoints) > round.length, "the drawn polyline runs outside the arcs");
    let too_wide = MeshQuery { radius: 1.2, ..MeshQuery::new(start, goal) };
    assert!(ta_star(&mesh, &too_wide, &mut NoTrace).unwrap().path.is_none(), "no gap is 2.4 wide");
}

#[test]
fn refinement_keeps_radius_paths_and_closed_corridors() {
    let map = load("narrow_corridor.json");
    let plain = Navmesh::build(&map.outline(), None).unwrap();
    let refined =
        Navmesh::build(&map.outline(), Some(Refinement { min_angle_deg: 25.0, max_area: Some(4.0) })).unwrap();
    assert!(refined.walkable_count() > 3 * plain.walkable_count());
    for radius in [0.0, 0.5, 0.9] {
        let query = MeshQuery { radius, ..MeshQuery::new([2.0, 10.0], [28.0, 10.0]) };
        let a = ta_star(&plain, &query, &mut NoTrace).unwrap().path.unwrap();
        let b = ta_star(&refined, &query, &mut NoTrace).unwrap().path.unwrap();
        assert!((a.length - b.length).abs() < 1e-6, "radius {radius}: {} plain, {} refined", a.length, b.length);
        assert_clearance(&map, &b.waypoints, radius);
    }
}

#[test]
fn radius_paths_round_pillars_with_clearance() {
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    let radius = 0.6;
    let mut checked = 0;
    while checked < 25 {
        let (start, goal) = (random_free_point(&map, &mut rng), random_free_point(&map, &mut rng));
        if mesh.clearance(start) < radius || mesh.clearance(goal) < radius {
            continue;
        }
        checked += 1;
        let query = MeshQuery { radius, ..MeshQuery::new(start, goal) };
        let path = ta_star(&mesh, &query, &mut NoTrace).unwrap().path.expect("gaps are wide enough");
        assert!(path.length >= oracle(&map, start, goal).unwrap() - 1e-9);
        assert_clearance(&map, &path.waypoints, radius);
    }
}

/// Lecture 3's "is the first path the shortest?": on the U hall's coarse triangles, TA*'s first
/// path passes the left arm's square hole on the wrong side even with Polyanya's estimate in f
/// (it ignores the funnel's corners between the apex and the last edge); refined, it is the
/// shortest at once. Lengths against the visibility-graph oracle.
#[test]
fn first_paths_on_coarse_triangles_can_take_the_wrong_side_of_a_hole() {
    let map = load("u_hall.json");
    let (start, goal) = ([27.0, 13.0], [1.0, 23.0]);
    let shortest = oracle(&map, start, goal).unwrap();
    let round_the_left = path_length(&[start, [20.0, 10.0], [10.0, 10.0], [3.0, 14.0], goal]);
    assert!(round_the_left > shortest + 1.0);
    let coarse = Navmesh::build(&map.outline(), None).unwrap();
    let first =
        ta_star(&coarse, &MeshQuery { first_path_only: true, ..MeshQuery::new(start, goal) }, &mut NoTrace).unwrap();
    assert!((first.path.unwrap().length - round_the_left).abs() < 1e-9);
    let best = ta_star(&coarse, &MeshQuery::new(start, goal), &mut NoTrace).unwrap();
    assert!((best.path.unwrap().length - shortest).abs() < 1e-9 && best.improvements == 2);
    let refined = Navmesh::build(&map.outline(), Some(Refinement { min_angle_deg: 25.0, max_area: None })).unwrap();
    let first =
        ta_star(&refined, &MeshQuery { first_path_only: true, ..MeshQuery::new(start, goal) }, &mut NoTrace).unwrap();
    assert!((first.path.unwrap().length - shortest).abs() < 1e-9);
}

#[test]
fn reduction_sorts_triangles_and_first_paths_are_never_shorter() {
    let map = load("u_hall.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let reduction = Reduction::new(&mesh);
    let walkable = mesh.walkable_count();
    let counted: usize = [Role::DeadEnd, Role::Corridor, Role::Decision].iter().map(|&r| reduction.count(r)).sum();
    assert_eq!(counted, walkable);
    assert!(reduction.count(Role::Decision) >= 2, "holes make decision points");
    for t in 0..mesh.triangles.len() as u32 {
        let degree = (0..3).filter(|&i| mesh.passable(t, i).is_some_and(|n| !reduction.is_dead_end(n))).count();
        match reduction.roles[t as usize] {
            Role::Decision => assert_eq!(degree, 3),
            Role::Corridor => assert_eq!(degree, 2),
            _ => {}
        }
    }
    let query = MeshQuery { first_path_only: true, ..MeshQuery::new([2.0, 28.0], [28.0, 28.0]) };
    let first = ta_star(&mesh, &query, &mut NoTrace).unwrap();
    let best = ta_star(&mesh, &MeshQuery::new([2.0, 28.0], [28.0, 28.0]), &mut NoTrace).unwrap();
    assert!(first.path.unwrap().length >= best.path.as_ref().unwrap().length - 1e-9);
    assert!(first.expanded <= best.expanded);
}

#[test]
fn recorded_search_replays_to_the_found_channel() {
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), None).unwrap();
    let mut recorder = Recorder::default();
    let result = ta_star(&mesh, &MeshQuery::new([1.0, 1.0], [39.0, 29.0]), &mut recorder).unwrap();
    let mut player = Player::new(recorder.finish(), SearchSnapshot::new(mesh.triangles.len()));
    player.seek(usize::MAX);
    let Some(SearchOutcome::Found { cost, path }) = &player.view().outcome else {
        panic!("the trace ends with a path")
    };
    let best = result.path.unwrap();
    assert!((cost - best.length).abs() < 1e-12);
    assert_eq!(path, &best.channel);
    assert!(player.view().expanded >= result.expanded);
}

#[test]
fn jump_and_walk_finds_the_triangle_spade_locates() {
    let map = load("u_hall.json");
    let mesh = Navmesh::build(&map.outline(), Some(Refinement::default())).unwrap();
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..200 {
        let p = [rng.random_range(-1.0..31.0), rng.random_range(-1.0..31.0)];
        let walked = jump_and_walk(&mesh, p, 5, &mut NoTrace);
        let inside = |t: u32| {
            let [a, b, c] = mesh.triangle_points(t);
            orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0
        };
        let outside_hull = !(0.0..=30.0).contains(&p[0]) || !(0.0..=30.0).contains(&p[1]);
        match walked {
            Some(t) => assert!(inside(t), "{p:?} is not in triangle {t}"),
            None => assert!(outside_hull, "{p:?} is in the map"),
        }
        if let (Some(t), Location::Triangles(spade)) = (walked, mesh.locate(p)) {
            assert!(spade.contains(&t) || !mesh.triangles[t as usize].walkable, "{p:?}: walk {t}, spade {spade:?}");
        }
    }
}

#[test]
fn the_recorded_walk_samples_jumps_and_steps_between_neighbours() {
    use searchlab::navmesh::walk::WalkEvent;
    let map = load("pillars.json");
    let mesh = Navmesh::build(&map.outline(), Some(Refinement::default())).unwrap();
    let mut recorder = Recorder::default();
    let found = jump_and_walk(&mesh, [39.0, 29.0], 4, &mut recorder).expect("inside the map");
    let events = recorder.finish().events;
    assert!(matches!(
        events[..4],
        [WalkEvent::Sample { .. }, WalkEvent::Sample { .. }, WalkEvent::Sample { .. }, WalkEvent::Sample { .. }]
    ));
    let nearest = events[..4]
        .iter()
        .filter_map(
            |e| if let WalkEvent::Sample { triangle, distance } = e { Some((*distance, *triangle)) } else { None },
        )
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
        .1;
    assert_eq!(events[4], WalkEvent::Jump { triangle: nearest });
    let mut at = nearest;
    for event in &events[5..events.len() - 1] {
        let WalkEvent::Step { triangle } = *event else { panic!("only steps between the jump and the end: {event:?}") };
        assert!(mesh.triangles[at as usize].neighbours.contains(&triangle), "{at} -> {triangle} are not neighbours");
        at = triangle;
    }
    assert!(events.len() > 6, "the walk crosses the map");
    assert_eq!(events.last(), Some(&WalkEvent::Found { triangle: Some(found) }));
    assert_eq!(at, found);
}

fn parse_error(json: &str) -> String {
    PolygonMap::parse("bad.json", json).unwrap_err().to_string()
}

#[test]
fn every_malformed_polygon_is_rejected_with_its_ring_and_vertex() {
    let square = "[[0,0],[10,0],[10,10],[0,10]]";
    let cases = [
        (r#"{"boundary": [[0,0],[1,0]]}"#.to_string(), "the boundary has 2 distinct vertices"),
        (r#"{"boundary": [[0,0],[1,0],[0,0]]}"#.to_string(), "at least 3"),
        (r#"{"boundary": [[0,0],[10,0],[10,0],[0,10]]}"#.to_string(), "vertex 2 repeats vertex 1"),
        (r#"{"boundary": [[0,0],[5,0],[10,0]]}"#.to_string(), "zero area"),
        (r#"{"boundary": [[0,0],[1e9,0],[0,1]]}"#.to_string(), "vertex 1 [1000000000.0, 0.0] is beyond"),
        (r#"{"boundary": [[0,0],[10,10],[10,0],[0,6]]}"#.to_string(), "the boundary crosses itself"),
        (r#"{"boundary": [[0,0],[10,0],[5,0],[5,5]]}"#.to_string(), "turns back on itself at vertex 1"),
        (
            format!(r#"{{"boundary": {square}, "holes": [[[1,1],[2,1],[1,2]], [[2,1],[3,1],[3,2]]]}}"#),
            "hole 0 (edge from vertex 0) touches or crosses hole 1",
        ),
        (
            format!(r#"{{"boundary": {square}, "holes": [[[1,1],[4,1],[4,4],[1,4]], [[3,3],[6,3],[6,6],[3,6]]]}}"#),
            "touches or crosses hole 1",
        ),
        (
            format!(r#"{{"boundary": {square}, "holes": [[[0,1],[2,1],[2,2]]]}}"#),
            "the boundary (edge from vertex 3) touches or crosses hole 0 (edge from vertex 0)",
        ),
        (
            format!(r#"{{"boundary": {square}, "holes": [[[11,1],[12,1],[12,2]]]}}"#),
            "hole 0 is not inside the boundary",
        ),
        (
            format!(r#"{{"boundary": {square}, "holes": [[[1,1],[8,1],[8,8],[1,8]], [[3,3],[4,3],[4,4]]]}}"#),
            "hole 1 lies inside hole 0",
        ),
        (format!(r#"{{"boundary": {square}, "holes": [[[1,1],[3,3],[3,1],[1,2]]]}}"#), "hole 0 crosses itself"),
        (
            r#"{"boundary": [[0,0],[10,0],[10,10]],
  "holes": [[1, 2]]}"#
                .to_string(),
            "bad.json:2:",
        ),
        (r#"{"boundary": [[0,0],[10,10],[10,0],[0,10]]}"#.to_string(), "the boundary crosses itself"),
        (r#"{"boundary": "x\n\u001b[2J"}"#.to_string(), "invalid type: string \"x\\n\\u{1b}[2J\""),
        ("".to_string(), "bad.json:1:"),
    ];
    for (json, expected) in cases {
        let message = parse_error(&json);
        assert!(message.contains(expected), "{json}\n -> '{message}', expected '{expected}'");
        assert!(message.starts_with("bad.json"), "{message}");
    }
    let nan = PolygonMap { boundary: vec![[0.0, 0.0], [f64::NAN, 1.0], [1.0, 1.0]], holes: vec![] };
    assert!(
        !parse_error(r#"{"boundary": "x\n\u001b[2J"}"#).chars().any(char::is_control),
        "input echoed in errors is escaped"
    );
    assert!(nan.validated().unwrap_err().contains("vertex 1 [NaN, 1.0] is not a finite number"));
}

#[test]
fn maps_from_other_tools_are_read() {
    // Keys other tools add are ignored; a byte-order mark and CRLF line ends are fine.
    let map = PolygonMap::parse(
        "tool.json",
        "\u{feff}{\"boundary\": [[0,0],[4,0],[4,4],[0,4]],\r\n \"queries\": [[1,1,3,3]], \"name\": \"x\"}",
    )
    .unwrap();
    assert_eq!(map.boundary.len(), 4);
    // A small hole far from the origin: its area must not cancel away.
    let far = r#"{"boundary": [[999999,999999],[1000001,999999],[1000001,1000001],[999999,1000001]],
        "holes": [[[1000000,1000000],[1000000.01,1000000],[1000000.01,1000000.01],[1000000,1000000.01]]]}"#;
    let map = PolygonMap::parse("far.json", far).unwrap();
    let area = searchlab::navmesh::polygon::signed_area(&map.holes[0]);
    assert!((area + 1e-4).abs() < 1e-9, "the hole's area is -1e-4 (clockwise), got {area}");
}

#[test]
fn rings_are_oriented_and_closing_points_dropped() {
    let map = PolygonMap::parse(
        "ok.json",
        r#"{"boundary": [[0,0],[0,10],[10,10],[10,0],[0,0]], "holes": [[[2,2],[4,2],[4,4],[2,4],[2,2]]]}"#,
    )
    .unwrap();
    assert_eq!(map.boundary.len(), 4);
    assert!(searchlab::navmesh::polygon::signed_area(&map.boundary) > 0.0, "boundary counter-clockwise");
    assert_eq!(map.holes[0].len(), 4);
    assert!(searchlab::navmesh::polygon::signed_area(&map.holes[0]) < 0.0, "holes clockwise");
}

#[test]
fn polyanya_meshes_import_and_errors_name_the_line() {
    // A 4x4 square with a 2x2 hole, as four trapezoids.
    let mesh = "mesh\n2\n8 4\n0 0 0\n4 0 0\n4 4 0\n0 4 0\n1 1 0\n3 1 0\n3 3 0\n1 3 0\n\
        4 0 1 5 4 -1 1 -1 3\n4 1 2 6 5 -1 2 -1 0\n4 2 3 7 6 -1 3 -1 1\n4 3 0 4 7 -1 0 -1 2\n";
    let outline = parse_mesh("square.mesh", mesh).unwrap();
    assert_eq!(outline.segments.len(), 8, "the outer square and the hole");
    let navmesh = Navmesh::build(&outline, None).unwrap();
    assert_eq!(navmesh.locate([2.0, 2.0]), Location::InObstacle);
    let path = ta_star(&navmesh, &MeshQuery::new([0.5, 0.5], [3.5, 3.5]), &mut NoTrace).unwrap().path.unwrap();
    let expected = 2.0 * ((1.0f64 - 0.5).hypot(3.0 - 0.5));
    assert!((path.length - expected).abs() < 1e-9, "{} vs {expected}", path.length);
    for (text, expected) in [
        ("mush\n2\n", "square.mesh:1: expected 'mesh'"),
        ("mesh\n3\n", "square.mesh:2: unsupported mesh version"),
        ("mesh\n2\n1 0\n0 x 0\n", "square.mesh:4: vertex 0: y 'x'"),
        ("mesh\n2\n1 1\n0 0 0\n3 0 5 0 -1 -1 -1\n", "square.mesh:5: polygon 0: vertex 5"),
        ("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1\n", "unexpected end of file"),
        ("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\nextra", "square.mesh:8: unexpected 'extra'"),
    ] {
        let message = parse_mesh("square.mesh", text).unwrap_err().to_string();
        assert!(message.contains(expected), "{text:?}: '{message}' should contain '{expected}'");
    }
}

#[test]
fn grid_free_cells_lie_in_walkable_triangles() {
    let grid = searchlab::grid::movingai::load_map(&common::project_map("maze64.map")).unwrap();
    let mesh = Navmesh::build(&grid_outline(&grid), None).unwrap();
    for cell in 0..grid.cell_count() as u32 {
        let location = mesh.locate(cell_centre(&grid, cell));
        if grid.is_cell_passable(cell) {
            assert!(matches!(location, Location::Triangles(_)), "free cell {:?}", grid.coords(cell));
        } else {
            assert_eq!(location, Location::InObstacle, "blocked cell {:?}", grid.coords(cell));
        }
    }
}

#[test]
fn any_angle_paths_on_a_grid_are_no_longer_than_octile_paths() {
    use searchlab::pathfinding::{GridSearch, SearchSpace};
    let grid = searchlab::grid::movingai::load_map(&common::project_map("rooms128.map")).unwrap();
    let mesh = Navmesh::build(&grid_outline(&grid), None).unwrap();
    let reduction = Reduction::new(&mesh);
    let scenarios = searchlab::grid::movingai::load_scen(&common::project_map("rooms128.map.scen")).unwrap();
    let mut space = SearchSpace::new();
    for s in scenarios.iter().step_by(scenarios.len() / 15) {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let octile = GridSearch::default().run(&grid, start, goal, &mut space, &mut NoTrace).cost().unwrap();
        let query = MeshQuery::new(cell_centre(&grid, start), cell_centre(&grid, goal));
        let ta = ta_star(&mesh, &query, &mut NoTrace).unwrap().path.unwrap();
        let tra = tra_star(&mesh, &reduction, &query, &mut NoTrace).unwrap().path.unwrap();
        assert!(ta.length <= octile + 1e-9, "any-angle {} > octile {octile}", ta.length);
        assert!(ta.length >= searchlab::navmesh::distance(query.start, query.goal) - 1e-9);
        assert!((ta.length - tra.length).abs() < 1e-7, "TA* {} TRA* {}", ta.length, tra.length);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_json_never_panics(text in "\\PC{0,200}") {
        common::assert_one_line_error(PolygonMap::parse("random.json", &text));
        common::assert_one_line_error(parse_mesh("random.mesh", &text));
    }

    #[test]
    fn random_polygons_never_panic(
        boundary in prop::collection::vec((-20i32..20, -20i32..20), 0..9),
        holes in prop::collection::vec(prop::collection::vec((-20i32..20, -20i32..20), 0..6), 0..3),
        start in (-25.0f64..25.0, -25.0f64..25.0),
        goal in (-25.0f64..25.0, -25.0f64..25.0),
    ) {
        let ring = |r: &Vec<(i32, i32)>| r.iter().map(|&(x, y)| [x as f64, y as f64]).collect::<Vec<Point>>();
        let map = PolygonMap { boundary: ring(&boundary), holes: holes.iter().map(ring).collect() };
        if let Ok(map) = map.validated() {
            let mesh = Navmesh::build(&map.outline(), None).expect("a valid map triangulates");
            let query = MeshQuery::new([start.0, start.1], [goal.0, goal.1]);
            if let Ok(result) = ta_star(&mesh, &query, &mut NoTrace) {
                let reduction = Reduction::new(&mesh);
                let tra = tra_star(&mesh, &reduction, &query, &mut NoTrace).unwrap();
                prop_assert_eq!(result.path.is_some(), tra.path.is_some());
                if let (Some(a), Some(b)) = (&result.path, &tra.path) {
                    prop_assert!((a.length - b.length).abs() < 1e-7);
                }
            }
        }
    }
}
