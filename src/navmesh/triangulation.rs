//! The navigation mesh: a constrained Delaunay triangulation (spade) of an [`Outline`], every
//! triangle marked walkable or not, and point location with spade's `locate`.

use std::collections::hash_map::Entry;

use spade::handles::FixedVertexHandle;
use spade::{
    AngleLimit, ConstrainedDelaunayTriangulation, Point2, PositionInTriangulation, RefinementParameters, Triangulation,
};

use super::polygon::within_bounds;
use super::{Outline, Point, point_segment_distance};
use crate::graph::NodeHasher;
use crate::trace::NO_NODE;

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Delaunay refinement against slivers: Steiner points until every angle is at least
/// `min_angle_deg` (and every triangle at most `max_area`, if given).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Refinement {
    pub min_angle_deg: f64,
    pub max_area: Option<f64>,
}

impl Default for Refinement {
    fn default() -> Self {
        Self { min_angle_deg: 25.0, max_area: None }
    }
}

/// One triangle; edge `i` runs from `vertices[i]` to `vertices[(i + 1) % 3]`, counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Triangle {
    pub vertices: [u32; 3],
    /// The triangle across edge `i`, or `NO_NODE` outside the convex hull.
    pub neighbours: [u32; 3],
    /// Edge `i` is an obstacle edge.
    pub constrained: [bool; 3],
    pub walkable: bool,
}

/// Where a point lies: the walkable triangles whose closure holds it (one inside a triangle,
/// two on a shared edge, all around a vertex), or why it is not in free space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Triangles(Vec<u32>),
    InObstacle,
    OutsideMap,
}

/// Serde carries the triangulation itself (point location walks it), so a mesh crossing to a
/// Web Worker is the same mesh, triangle for triangle.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Navmesh {
    cdt: Cdt,
    pub vertices: Vec<Point>,
    /// All finite triangles of the triangulation, walkable or not.
    pub triangles: Vec<Triangle>,
    /// The vertex lies on an obstacle edge (a corner or a point of a wall), not in open space.
    pub on_obstacle: Vec<bool>,
    /// Obstacle edges as vertex pairs, after the triangulation split them at collinear points.
    pub obstacle_edges: Vec<[u32; 2]>,
    hints: VertexHints,
}

/// A vertex in or near each cell of a coarse grid over the mesh, where point location starts
/// walking: spade's default start, the vertex found last, is across the map from the next query's
/// start on big maps.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct VertexHints {
    origin: Point,
    cell: f64,
    columns: usize,
    vertices: Vec<u32>,
}

impl VertexHints {
    /// About one cell per vertex.
    fn new(points: &[Point]) -> VertexHints {
        let (lo, hi) = points.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
            ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
        });
        let (width, height) = ((hi[0] - lo[0]).max(f64::MIN_POSITIVE), (hi[1] - lo[1]).max(f64::MIN_POSITIVE));
        let cell = (width * height / points.len().max(1) as f64).sqrt().max(width.max(height) / 1024.0);
        let (columns, rows) = ((width / cell) as usize + 1, (height / cell) as usize + 1);
        let mut hints = VertexHints { origin: lo, cell, columns, vertices: vec![NO_NODE; columns * rows] };
        let mut filled = Vec::new();
        for (v, &p) in points.iter().enumerate() {
            let c = hints.cell_of(p);
            if hints.vertices[c] == NO_NODE {
                hints.vertices[c] = v as u32;
                filled.push(c);
            }
        }
        // Empty cells take a vertex of the nearest filled ones, breadth first.
        let mut next = 0;
        while next < filled.len() {
            let c = filled[next];
            next += 1;
            let (x, y) = (c % columns, c / columns);
            let around = [
                (x > 0).then(|| c - 1),
                (x + 1 < columns).then(|| c + 1),
                (y > 0).then(|| c - columns),
                (y + 1 < rows).then(|| c + columns),
            ];
            for n in around.into_iter().flatten() {
                if hints.vertices[n] == NO_NODE {
                    hints.vertices[n] = hints.vertices[c];
                    filled.push(n);
                }
            }
        }
        hints
    }

    fn cell_of(&self, p: Point) -> usize {
        let rows = self.vertices.len() / self.columns;
        let index =
            |value: f64, origin: f64, count: usize| (((value - origin) / self.cell).max(0.0) as usize).min(count - 1);
        index(p[1], self.origin[1], rows) * self.columns + index(p[0], self.origin[0], self.columns)
    }

    fn near(&self, p: Point) -> FixedVertexHandle {
        FixedVertexHandle::from_index(self.vertices[self.cell_of(p)] as usize)
    }
}

/// Spade's reason for refusing a vertex, in words.
fn vertex_error(error: spade::InsertionError) -> String {
    match error {
        spade::InsertionError::TooSmall => {
            format!("a nonzero coordinate is below {:e} in size", spade::MIN_ALLOWED_VALUE)
        }
        spade::InsertionError::TooLarge => format!("a coordinate is beyond ±{:e}", spade::MAX_ALLOWED_VALUE),
        spade::InsertionError::NAN => "a coordinate is not a number".to_string(),
    }
}

impl Navmesh {
    /// Triangulates `outline`; free space is where a ray to infinity crosses an odd number of
    /// obstacle edges.
    pub fn build(outline: &Outline, refinement: Option<Refinement>) -> Result<Navmesh, String> {
        // One vertex per position (a later duplicate stands for the first) and each edge once, as
        // spade's bulk load takes them: a 512x512 random grid map took 1.1 s inserted one by one
        // in the outline's order, 0.3 s so.
        type Keyed<V> = std::collections::HashMap<(u64, u64), V, std::hash::BuildHasherDefault<NodeHasher>>;
        let mut first_at = Keyed::with_capacity_and_hasher(outline.points.len(), Default::default());
        let mut vertices = Vec::with_capacity(outline.points.len());
        let mut vertex_of = Vec::with_capacity(outline.points.len());
        for (i, p) in outline.points.iter().enumerate() {
            let point = Point2::new(p[0], p[1]);
            spade::validate_vertex(&point)
                .map_err(|e| format!("point {i} {p:?} cannot be triangulated: {}", vertex_error(e)))?;
            // Adding 0 makes -0.0 the same position as 0.0.
            vertex_of.push(*first_at.entry(((p[0] + 0.0).to_bits(), (p[1] + 0.0).to_bits())).or_insert_with(|| {
                vertices.push(point);
                vertices.len() - 1
            }));
        }
        // Each edge, by its vertices, with the segment it came from (for the error).
        let mut segment_of = Keyed::with_capacity_and_hasher(outline.segments.len(), Default::default());
        let mut edges: Vec<[usize; 2]> = Vec::with_capacity(outline.segments.len());
        for (k, &[a, b]) in outline.segments.iter().enumerate() {
            let (from, to) = (vertex_of[a as usize], vertex_of[b as usize]);
            if from != to
                && let Entry::Vacant(slot) = segment_of.entry((from.min(to) as u64, from.max(to) as u64))
            {
                slot.insert((k, a, b));
                edges.push([from, to]);
            }
        }
        let mut conflict = None;
        let mut cdt = Cdt::try_bulk_load_cdt(vertices, edges, |[from, to]| {
            conflict.get_or_insert((from.min(to) as u64, from.max(to) as u64));
        })
        .map_err(|e| format!("the outline cannot be triangulated: {e:?}"))?;
        if let Some(edge) = conflict {
            let (k, a, b) = segment_of[&edge];
            return Err(format!("obstacle edge {k} ({a} -> {b}) crosses another obstacle edge"));
        }
        if let Some(refinement) = refinement {
            let mut parameters = RefinementParameters::<f64>::new()
                .exclude_outer_faces(true)
                .with_angle_limit(AngleLimit::from_deg(refinement.min_angle_deg.clamp(0.0, 30.0)))
                .with_max_additional_vertices(20 * cdt.num_vertices() + 1000);
            if let Some(max_area) = refinement.max_area.filter(|a| *a > 0.0) {
                parameters = parameters.with_max_allowed_area(max_area);
            }
            cdt.refine(parameters);
        }
        let mesh = Self::from_cdt(cdt);
        if mesh.walkable_count() == 0 {
            return Err("the map has no free space to search (no walkable triangle)".to_string());
        }
        Ok(mesh)
    }

    fn from_cdt(cdt: Cdt) -> Navmesh {
        let vertices: Vec<Point> = cdt.vertices().map(|v| [v.position().x, v.position().y]).collect();
        let mut on_obstacle = vec![false; vertices.len()];
        let mut obstacle_edges = Vec::new();
        for edge in cdt.undirected_edges().filter(|e| e.is_constraint_edge()) {
            let [a, b] = edge.vertices().map(|v| v.fix().index() as u32);
            on_obstacle[a as usize] = true;
            on_obstacle[b as usize] = true;
            obstacle_edges.push([a, b]);
        }
        let triangles: Vec<Triangle> = cdt
            .inner_faces()
            .map(|face| {
                let edges = face.adjacent_edges();
                Triangle {
                    vertices: edges.map(|e| e.from().fix().index() as u32),
                    neighbours: edges
                        .map(|e| e.rev().face().as_inner().map_or(NO_NODE, |f| f.fix().index() as u32 - 1)),
                    constrained: edges.map(|e| e.is_constraint_edge()),
                    walkable: false,
                }
            })
            .collect();
        let hints = VertexHints::new(&vertices);
        let mut mesh = Navmesh { cdt, vertices, triangles, on_obstacle, obstacle_edges, hints };
        mesh.mark_walkable();
        mesh
    }

    /// Flood fill from the outside: crossing an obstacle edge flips between free and blocked.
    fn mark_walkable(&mut self) {
        let mut parity: Vec<Option<bool>> = vec![None; self.triangles.len()];
        let mut stack = Vec::new();
        for (t, tri) in self.triangles.iter().enumerate() {
            for i in 0..3 {
                if tri.neighbours[i] == NO_NODE && parity[t].is_none() {
                    parity[t] = Some(tri.constrained[i]);
                    stack.push(t);
                }
            }
        }
        // Breadth of the fill does not matter: parity is the same along every route.
        while let Some(t) = stack.pop() {
            let inside = parity[t].expect("pushed with a parity");
            for i in 0..3 {
                let next = self.triangles[t].neighbours[i];
                if next != NO_NODE && parity[next as usize].is_none() {
                    parity[next as usize] = Some(inside != self.triangles[t].constrained[i]);
                    stack.push(next as usize);
                }
            }
        }
        for (tri, inside) in self.triangles.iter_mut().zip(parity) {
            tri.walkable = inside == Some(true);
        }
    }

    pub fn triangle_points(&self, t: u32) -> [Point; 3] {
        self.triangles[t as usize].vertices.map(|v| self.vertices[v as usize])
    }

    /// The endpoints of edge `i` of triangle `t`.
    pub fn edge(&self, t: u32, i: usize) -> (Point, Point) {
        let v = self.triangles[t as usize].vertices;
        (self.vertices[v[i] as usize], self.vertices[v[(i + 1) % 3] as usize])
    }

    /// The walkable triangle across edge `i` of `t`, if an agent may cross that edge.
    pub fn passable(&self, t: u32, i: usize) -> Option<u32> {
        let tri = &self.triangles[t as usize];
        let next = tri.neighbours[i];
        (next != NO_NODE && !tri.constrained[i] && self.triangles[next as usize].walkable).then_some(next)
    }

    pub fn walkable_count(&self) -> usize {
        self.triangles.iter().filter(|t| t.walkable).count()
    }

    /// Locates `p` with spade's `locate`, walking from a vertex near `p` (it fails on coordinates
    /// near f64's limits).
    pub fn locate(&self, p: Point) -> Location {
        if !within_bounds(p) {
            return Location::OutsideMap;
        }
        let inner = |face: spade::handles::FixedFaceHandle<spade::handles::PossiblyOuterTag>| {
            let face = self.cdt.face(face);
            face.as_inner().map(|f| f.fix().index() as u32 - 1)
        };
        let mut around: Vec<u32> = match self.cdt.locate_with_hint(Point2::new(p[0], p[1]), self.hints.near(p)) {
            PositionInTriangulation::OnFace(face) => vec![face.index() as u32 - 1],
            PositionInTriangulation::OnEdge(edge) => {
                let edge = self.cdt.directed_edge(edge);
                [edge.face().fix(), edge.rev().face().fix()].into_iter().filter_map(inner).collect()
            }
            PositionInTriangulation::OnVertex(vertex) => self.triangles_around(vertex),
            PositionInTriangulation::OutsideOfConvexHull(_) | PositionInTriangulation::NoTriangulation => {
                return Location::OutsideMap;
            }
        };
        let none_around = around.is_empty();
        around.retain(|&t| self.triangles[t as usize].walkable);
        match (around.is_empty(), none_around) {
            (false, _) => Location::Triangles(around),
            (true, false) => Location::InObstacle,
            (true, true) => Location::OutsideMap,
        }
    }

    fn triangles_around(&self, vertex: FixedVertexHandle) -> Vec<u32> {
        self.cdt
            .vertex(vertex)
            .out_edges()
            .filter_map(|e| e.face().as_inner().map(|f| f.fix().index() as u32 - 1))
            .collect()
    }

    /// The distance from `p` to the nearest obstacle edge.
    pub fn clearance(&self, p: Point) -> f64 {
        self.obstacle_edges
            .iter()
            .map(|&[a, b]| point_segment_distance(p, self.vertices[a as usize], self.vertices[b as usize]))
            .fold(f64::INFINITY, f64::min)
    }
}
