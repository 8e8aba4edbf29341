//! The `polyanya` crate (Cui, Harabor & Grastien's search, ported to Rust, in f32) on the same
//! convex polygons as ours: shared by tests/polyanya.rs and examples/bench_navmesh.rs.

use searchlab::navmesh::merge::ConvexMesh;
use searchlab::trace::NO_NODE;

/// `polygons` as a Polyanya mesh: the same polygons in the same order, counter-clockwise, and
/// each vertex listing the polygons around it counter-clockwise, `u32::MAX` where an obstacle or
/// the map's edge interrupts the fan.
pub fn crate_mesh(polygons: &ConvexMesh) -> polyanya::Mesh {
    let mut around: Vec<Vec<(u32, usize)>> = vec![Vec::new(); polygons.vertices.len()];
    for p in 0..polygons.len() as u32 {
        for (k, &v) in polygons.polygon_vertices(p).iter().enumerate() {
            around[v as usize].push((p, k));
        }
    }
    // Around corner k of a polygon, the next polygon counter-clockwise lies across the edge that
    // ends at that corner.
    let ccw_next = |p: u32, k: usize| {
        let across = polygons.polygon_neighbours(p);
        Some(across[(k + across.len() - 1) % across.len()]).filter(|&q| q != NO_NODE)
    };
    let mut used = vec![u32::MAX; polygons.vertices.len()];
    let mut vertices = Vec::new();
    for (v, fan) in around.iter().enumerate() {
        if fan.is_empty() {
            continue;
        }
        let position = |p: u32| fan.iter().find(|&&(q, _)| q == p).map(|&(_, k)| k).expect("the fan holds it");
        let has_predecessor = |p: u32| fan.iter().any(|&(q, k)| ccw_next(q, k) == Some(p));
        // Each run of polygons between two obstacles starts where none precedes it; without
        // obstacles around v the fan is one cycle.
        let mut firsts: Vec<u32> = fan.iter().map(|&(p, _)| p).filter(|&p| !has_predecessor(p)).collect();
        if firsts.is_empty() {
            firsts.push(fan[0].0);
        }
        let centre = polygons.vertices[v];
        let angle = |p: u32| {
            let (sum, n) =
                polygons.points(p).fold(([0.0, 0.0], 0.0), |(s, n), q| ([s[0] + q[0], s[1] + q[1]], n + 1.0));
            (sum[1] / n - centre[1]).atan2(sum[0] / n - centre[0])
        };
        firsts.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
        let mut fan_polygons = Vec::new();
        for first in firsts {
            let mut p = first;
            loop {
                fan_polygons.push(p);
                match ccw_next(p, position(p)) {
                    Some(next) if next != first => p = next,
                    Some(_) => break,
                    None => {
                        fan_polygons.push(u32::MAX);
                        break;
                    }
                }
            }
        }
        used[v] = vertices.len() as u32;
        let [x, y] = polygons.vertices[v];
        vertices.push(polyanya::Vertex::new(glam::Vec2::new(x as f32, y as f32), fan_polygons));
    }
    let crate_polygons = (0..polygons.len() as u32)
        .map(|p| {
            let corners = polygons.polygon_vertices(p).iter().map(|&v| used[v as usize]).collect();
            polyanya::Polygon::new(corners, polygons.is_dead_end(p))
        })
        .collect();
    polyanya::Mesh::new(vertices, crate_polygons).unwrap_or_else(|e| panic!("Polyanya refuses the mesh: {e}"))
}

/// The crate's path length from `start` to `goal`, `None` when it finds no path.
pub fn crate_length(mesh: &polyanya::Mesh, start: [f64; 2], goal: [f64; 2]) -> Option<f64> {
    let f32_point = |p: [f64; 2]| glam::Vec2::new(p[0] as f32, p[1] as f32);
    mesh.path(f32_point(start), f32_point(goal)).map(|path| path.length as f64)
}
