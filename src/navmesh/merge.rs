//! A navigation mesh of convex polygons for Polyanya ([`super::polyanya_search`]): the walkable
//! triangles of a [`Navmesh`] as they are, or merged greedily into larger convex polygons as
//! Polyanya's users do (Cui, Harabor & Grastien 2017 search merged meshes: fewer polygons, fewer
//! search nodes). The merge joins two neighbours whenever their union stays convex, the pair with
//! the largest union first, until no pair can be joined.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::triangulation::Navmesh;
use super::{Point, orient};
use crate::trace::NO_NODE;

/// Convex polygons covering the free space, stored flat. Polygon `p`'s corners are the slots
/// `starts[p]..starts[p + 1]`, counter-clockwise; slot `s` also stands for the edge from its
/// vertex to the next slot's, with the polygon across it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConvexMesh {
    pub vertices: Vec<Point>,
    /// The vertex lies on an obstacle edge: the only kind of vertex a shortest path bends at.
    pub corner: Vec<bool>,
    starts: Vec<u32>,
    slot_vertex: Vec<u32>,
    /// The polygon across each slot's edge, `NO_NODE` for an obstacle or the map's edge.
    slot_across: Vec<u32>,
    /// The slot of the same edge in the polygon across (`NO_NODE` where there is none).
    slot_twin: Vec<u32>,
    /// A polygon with one neighbour: a search entering it can only go back.
    dead_end: Vec<bool>,
    /// Each triangle's polygon (`NO_NODE` if not walkable): point location goes through the
    /// triangulation.
    polygon_of_triangle: Vec<u32>,
}

impl ConvexMesh {
    /// Each walkable triangle of `mesh` as one polygon.
    pub fn triangles(mesh: &Navmesh) -> ConvexMesh {
        Self::build(mesh, |_, _| {})
    }

    /// The walkable triangles of `mesh` merged into convex polygons.
    pub fn merged(mesh: &Navmesh) -> ConvexMesh {
        Self::build(mesh, |rings, taken_by| merge(&mesh.vertices, rings, taken_by))
    }

    /// Polygons from rings of `(vertex, neighbour triangle)`, one per walkable triangle, that
    /// `combine` may join: it empties the rings it joins to others and says which ring took each.
    fn build(mesh: &Navmesh, combine: impl FnOnce(&mut [Ring], &mut [u32])) -> ConvexMesh {
        let mut rings: Vec<Ring> = (0..mesh.triangles.len() as u32)
            .map(|t| {
                let tri = &mesh.triangles[t as usize];
                if !tri.walkable {
                    return Vec::new();
                }
                (0..3).map(|i| (tri.vertices[i], mesh.passable(t, i).unwrap_or(NO_NODE))).collect()
            })
            .collect();
        let mut taken_by: Vec<u32> = (0..rings.len() as u32).collect();
        combine(&mut rings, &mut taken_by);
        let mut number = vec![NO_NODE; rings.len()];
        let mut count = 0;
        for (t, ring) in rings.iter().enumerate() {
            if !ring.is_empty() {
                number[t] = count;
                count += 1;
            }
        }
        let polygon_of_triangle = (0..rings.len())
            .map(|t| {
                if !mesh.triangles[t].walkable {
                    return NO_NODE;
                }
                let mut owner = t;
                while rings[owner].is_empty() {
                    owner = taken_by[owner] as usize;
                }
                number[owner]
            })
            .collect();
        let mut convex = ConvexMesh {
            vertices: mesh.vertices.clone(),
            corner: mesh.on_obstacle.clone(),
            starts: vec![0],
            slot_vertex: Vec::new(),
            slot_across: Vec::new(),
            slot_twin: Vec::new(),
            dead_end: Vec::new(),
            polygon_of_triangle,
        };
        for ring in rings.iter().filter(|ring| !ring.is_empty()) {
            for &(vertex, across) in ring {
                convex.slot_vertex.push(vertex);
                let polygon = if across == NO_NODE { NO_NODE } else { convex.polygon_of_triangle[across as usize] };
                convex.slot_across.push(polygon);
            }
            convex.starts.push(convex.slot_vertex.len() as u32);
            convex.dead_end.push(ring.iter().filter(|&&(_, across)| across != NO_NODE).count() == 1);
        }
        convex.link_twins();
        convex
    }

    /// Finds each edge's slot in the polygon across it.
    fn link_twins(&mut self) {
        self.slot_twin = vec![NO_NODE; self.slot_vertex.len()];
        for p in 0..self.len() as u32 {
            for slot in self.slots(p) {
                let across = self.slot_across[slot as usize];
                if across == NO_NODE {
                    continue;
                }
                let (from, to) = (self.slot_vertex(slot), self.slot_vertex(self.next_slot(p, slot)));
                self.slot_twin[slot as usize] = self
                    .slots(across)
                    .find(|&s| self.slot_vertex(s) == to && self.slot_vertex(self.next_slot(across, s)) == from)
                    .expect("neighbours share their edge");
            }
        }
    }

    /// How many polygons.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slots of polygon `p`, counter-clockwise.
    pub fn slots(&self, p: u32) -> std::ops::Range<u32> {
        self.starts[p as usize]..self.starts[p as usize + 1]
    }

    /// The slot after `slot` in polygon `p`.
    pub fn next_slot(&self, p: u32, slot: u32) -> u32 {
        if slot + 1 == self.starts[p as usize + 1] { self.starts[p as usize] } else { slot + 1 }
    }

    pub fn slot_vertex(&self, slot: u32) -> u32 {
        self.slot_vertex[slot as usize]
    }

    pub fn slot_point(&self, slot: u32) -> Point {
        self.vertices[self.slot_vertex[slot as usize] as usize]
    }

    /// The polygon across the edge that starts at `slot`, `NO_NODE` for a wall.
    pub fn across(&self, slot: u32) -> u32 {
        self.slot_across[slot as usize]
    }

    /// The vertex ids of polygon `p`, counter-clockwise.
    pub fn polygon_vertices(&self, p: u32) -> &[u32] {
        &self.slot_vertex[self.starts[p as usize] as usize..self.starts[p as usize + 1] as usize]
    }

    /// The polygons across the edges of `p` (edge `i` from vertex `i` to `i + 1`), `NO_NODE` for walls.
    pub fn polygon_neighbours(&self, p: u32) -> &[u32] {
        &self.slot_across[self.starts[p as usize] as usize..self.starts[p as usize + 1] as usize]
    }

    /// The slot of the same edge seen from the polygon across (`NO_NODE` for a wall).
    pub fn twin(&self, slot: u32) -> u32 {
        self.slot_twin[slot as usize]
    }

    pub fn is_dead_end(&self, p: u32) -> bool {
        self.dead_end[p as usize]
    }

    /// The polygon holding walkable triangle `t` of the mesh this was built from.
    pub fn polygon_of_triangle(&self, t: u32) -> u32 {
        self.polygon_of_triangle[t as usize]
    }

    pub fn points(&self, p: u32) -> impl Iterator<Item = Point> + '_ {
        self.polygon_vertices(p).iter().map(|&v| self.vertices[v as usize])
    }
}

/// A polygon being merged: its corners counter-clockwise, each with the triangle across the edge
/// that follows it (`NO_NODE` for a wall). Triangle ids stand for the ring that holds them.
type Ring = Vec<(u32, u32)>;

/// A pair of neighbours that might merge, with the versions of their rings it was made for.
#[derive(PartialEq)]
struct Candidate {
    area: f64,
    pair: [u32; 2],
    versions: [u32; 2],
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.area.total_cmp(&other.area).then(other.pair.cmp(&self.pair))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Twice the area of a ring.
fn ring_area(points: &[Point], ring: &Ring) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[ring[i].0 as usize], points[ring[(i + 1) % n].0 as usize]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum()
}

/// Greedy merge: the pair of neighbours with the largest union first, while the union is convex.
/// A merged ring keeps the id of one of its triangles; the other's ring is left empty and
/// `taken_by` names the ring that took it.
fn merge(points: &[Point], rings: &mut [Ring], taken_by: &mut [u32]) {
    let mut areas: Vec<f64> = rings.iter().map(|ring| ring_area(points, ring)).collect();
    let mut versions = vec![0u32; rings.len()];
    let mut heap = BinaryHeap::new();
    let candidates = |p: u32, rings: &[Ring], areas: &[f64], versions: &[u32], heap: &mut BinaryHeap<Candidate>| {
        for &(_, q) in &rings[p as usize] {
            if q != NO_NODE {
                heap.push(Candidate {
                    area: areas[p as usize] + areas[q as usize],
                    pair: [p, q],
                    versions: [versions[p as usize], versions[q as usize]],
                });
            }
        }
    };
    for p in 0..rings.len() as u32 {
        candidates(p, rings, &areas, &versions, &mut heap);
    }
    while let Some(Candidate { pair: [p, q], versions: seen, .. }) = heap.pop() {
        if seen != [versions[p as usize], versions[q as usize]] {
            continue;
        }
        let Some(union) = convex_union(points, &rings[p as usize], &rings[q as usize], p, q) else { continue };
        // The rings across q's edges now face p.
        for (_, n) in std::mem::take(&mut rings[q as usize]) {
            if n != NO_NODE && n != p {
                for entry in rings[n as usize].iter_mut().filter(|entry| entry.1 == q) {
                    entry.1 = p;
                }
                versions[n as usize] += 1;
            }
        }
        rings[p as usize] = union;
        taken_by[q as usize] = p;
        areas[p as usize] += areas[q as usize];
        versions[p as usize] += 1;
        versions[q as usize] += 1;
        candidates(p, rings, &areas, &versions, &mut heap);
    }
}

/// The part of `ring` after the run of edges it shares with `other` (convex polygons share one
/// straight run), going round once.
fn without_shared_run(ring: &Ring, other: u32) -> Option<Ring> {
    let n = ring.len();
    let first = (0..n).find(|&i| ring[i].1 == other && ring[(i + n - 1) % n].1 != other)?;
    let end = (first..first + n).find(|&i| ring[i % n].1 != other)?;
    Some((end..first + n).map(|i| ring[i % n]).collect())
}

/// The union of neighbours `p` (ring `a`) and `q` (ring `b`) if it is convex. Collinear corners
/// are kept: other polygons' edges end there.
fn convex_union(points: &[Point], a: &Ring, b: &Ring, p: u32, q: u32) -> Option<Ring> {
    let union: Ring = without_shared_run(a, q)?.into_iter().chain(without_shared_run(b, p)?).collect();
    let n = union.len();
    let at = |i: usize| points[union[i % n].0 as usize];
    (0..n).all(|i| orient(at(i + n - 1), at(i), at(i + 1)) >= 0.0).then_some(union)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::PolygonMap;

    #[test]
    fn a_square_room_becomes_one_polygon() {
        let map: PolygonMap =
            serde_json::from_str(r#"{"boundary": [[0,0],[10,0],[10,10],[0,10]], "holes": []}"#).unwrap();
        let mesh = Navmesh::build(&map.outline(), None).unwrap();
        let merged = ConvexMesh::merged(&mesh);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged.polygon_vertices(0).len(), 4);
        assert!(merged.polygon_neighbours(0).iter().all(|&n| n == NO_NODE));
    }
}
