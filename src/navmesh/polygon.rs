//! Polygon maps: `{"boundary": [[x,y],...], "holes": [[[x,y],...],...]}` (JSON).
//!
//! Rings may be given in either orientation and may repeat their first point at the end; they are
//! stored with the boundary counter-clockwise and holes clockwise, so free space is always on the
//! left of every edge. A map is rejected when a ring has fewer than 3 vertices, repeats a vertex,
//! has zero area or crosses itself, when two rings touch or cross, when a hole is not inside the
//! boundary or lies inside another hole, when a coordinate is not a finite number in range or is
//! nonzero but below [`MIN_COORDINATE`], or when a ring spans less than [`MIN_EXTENT`].

use std::path::Path;

use super::{ParseError, Point, distance, orient, segments_touch};
use crate::grid::movingai::read_text;
use crate::text::without_bom;

/// Coordinates must lie within ±this, which keeps the triangulation's predicates exact enough.
pub const MAX_COORDINATE: f64 = 1e7;

/// Nonzero coordinates must be at least this large: the triangulation refuses smaller ones
/// (spade's limit is 1.8e-43), and at the search's tolerances they are 0 anyway.
pub const MIN_COORDINATE: f64 = 1e-30;

/// Every ring must span at least this much in x or y: the search tells lengths apart to 1e-9,
/// and the area of a far smaller ring can round to 0.
pub const MIN_EXTENT: f64 = 1e-6;

/// Whether both coordinates are within ±[`MAX_COORDINATE`] (so neither is infinite or NaN).
pub fn within_bounds(p: Point) -> bool {
    p[0].abs() <= MAX_COORDINATE && p[1].abs() <= MAX_COORDINATE
}

/// Other top-level keys (such as a tool's `"queries"`) are ignored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolygonMap {
    pub boundary: Vec<Point>,
    #[serde(default)]
    pub holes: Vec<Vec<Point>>,
}

/// What the triangulation is built from: points and the obstacle edges between them (pairs of
/// point indices). Free space is where a ray to infinity crosses an odd number of edges.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outline {
    pub points: Vec<Point>,
    pub segments: Vec<[u32; 2]>,
}

impl PolygonMap {
    /// Parses and validates JSON text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<PolygonMap, ParseError> {
        let raw: PolygonMap = serde_json::from_str(without_bom(text)).map_err(|e| ParseError {
            file: file.to_string(),
            line: e.line(),
            message: e.to_string(),
        })?;
        raw.validated().map_err(|message| ParseError { file: file.to_string(), line: 0, message })
    }

    pub fn load(path: &Path) -> Result<PolygonMap, ParseError> {
        Self::parse(&path.display().to_string(), &read_text(path)?)
    }

    /// The map with rings normalised, or a message naming the offending ring and vertex.
    pub fn validated(self) -> Result<PolygonMap, String> {
        let boundary = clean(self.boundary, "the boundary")?;
        let holes = self
            .holes
            .into_iter()
            .enumerate()
            .map(|(i, hole)| clean(hole, &hole_name(i)))
            .collect::<Result<Vec<_>, _>>()?;
        // Checked before orienting the rings, so vertex numbers in errors match the file.
        let mut map = PolygonMap { boundary, holes };
        map.check_crossings()?;
        // A ring that neither crosses nor folds back encloses an area; this catches rounding.
        if let Some(ring) = map.rings().position(|ring| signed_area(ring) == 0.0) {
            return Err(format!("{} has zero area", map.ring_name(ring)));
        }
        for (i, hole) in map.holes.iter().enumerate() {
            // Rings do not touch, so one vertex tells where the whole hole lies.
            if !inside_ring(hole[0], &map.boundary) {
                return Err(format!(
                    "{} is not inside the boundary (its vertex 0 {:?} is outside)",
                    hole_name(i),
                    hole[0]
                ));
            }
            if let Some(j) = (0..map.holes.len()).find(|&j| j != i && inside_ring(hole[0], &map.holes[j])) {
                return Err(format!("{} lies inside {}", hole_name(i), hole_name(j)));
            }
        }
        orient_ring(&mut map.boundary, true);
        for hole in &mut map.holes {
            orient_ring(hole, false);
        }
        Ok(map)
    }

    fn ring_name(&self, ring: usize) -> String {
        if ring == 0 { "the boundary".to_string() } else { hole_name(ring - 1) }
    }

    fn rings(&self) -> impl Iterator<Item = &Vec<Point>> {
        std::iter::once(&self.boundary).chain(&self.holes)
    }

    /// Every pair of edges that touch, found by a sweep along one axis; the first is reported.
    fn check_crossings(&self) -> Result<(), String> {
        let rings: Vec<&Vec<Point>> = self.rings().collect();
        let edge_ends = || rings.iter().flat_map(|ring| (0..ring.len()).map(|i| (ring[i], ring[(i + 1) % ring.len()])));
        // Sweep along the axis where edges overlap least (their extents, summed, are the
        // smaller share of the map's): a zigzag of thousands of edges along x overlaps every
        // other edge in x but hardly any in y.
        let share = |axis: usize| {
            let (mut low, mut high, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
            for (a, b) in edge_ends() {
                (low, high, sum) =
                    (low.min(a[axis]).min(b[axis]), high.max(a[axis]).max(b[axis]), sum + (a[axis] - b[axis]).abs());
            }
            sum / (high - low)
        };
        let axis = if share(1) < share(0) { 1 } else { 0 };
        // (min, max along the axis, ring, edge index)
        let mut edges = Vec::new();
        for (r, ring) in rings.iter().enumerate() {
            for i in 0..ring.len() {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                edges.push((a[axis].min(b[axis]), a[axis].max(b[axis]), r, i));
            }
        }
        edges.sort_by(|x, y| x.0.total_cmp(&y.0));
        let edge = |r: usize, i: usize| (rings[r][i], rings[r][(i + 1) % rings[r].len()]);
        for (k, &(_, max, r, i)) in edges.iter().enumerate() {
            for &(min, _, s, j) in &edges[k + 1..] {
                if min > max {
                    break;
                }
                let ((a, b), (c, d)) = (edge(r, i), edge(s, j));
                if !segments_touch(a, b, c, d) {
                    continue;
                }
                if r == s {
                    let n = rings[r].len();
                    let (i, j) = (i.min(j), i.max(j));
                    // Neighbouring edges share a vertex; they only fail when they fold back.
                    let shared = if j == i + 1 {
                        Some((a, b, c, d, i + 1))
                    } else if i == 0 && j == n - 1 {
                        Some((a, b, c, d, 0))
                    } else {
                        None
                    };
                    if let Some(shared) = shared {
                        if !folds_back(shared.0, shared.1, shared.2, shared.3) {
                            continue;
                        }
                        return Err(format!("{} turns back on itself at vertex {}", self.ring_name(r), shared.4));
                    }
                    return Err(format!(
                        "{} crosses itself: its edges from vertex {i} and from vertex {j} meet",
                        self.ring_name(r)
                    ));
                }
                let (first, second) = if r < s { ((r, i), (s, j)) } else { ((s, j), (r, i)) };
                return Err(format!(
                    "{} (edge from vertex {}) touches or crosses {} (edge from vertex {})",
                    self.ring_name(first.0),
                    first.1,
                    self.ring_name(second.0),
                    second.1
                ));
            }
        }
        Ok(())
    }

    /// The rings as triangulation input.
    pub fn outline(&self) -> Outline {
        let mut outline = Outline::default();
        for ring in self.rings() {
            let first = outline.points.len() as u32;
            let n = ring.len() as u32;
            outline.points.extend(ring);
            outline.segments.extend((0..n).map(|i| [first + i, first + (i + 1) % n]));
        }
        outline
    }

    /// Whether `p` is in the closed free space.
    pub fn is_free(&self, p: Point) -> bool {
        let on_edge = |ring: &Vec<Point>| {
            (0..ring.len()).any(|i| super::point_segment_distance(p, ring[i], ring[(i + 1) % ring.len()]) == 0.0)
        };
        if self.rings().any(on_edge) {
            return true;
        }
        inside_ring(p, &self.boundary) && !self.holes.iter().any(|h| inside_ring(p, h))
    }
}

/// Two edges `a b` and `c d` of one ring that share an endpoint overlap along a line.
fn folds_back(a: Point, b: Point, c: Point, d: Point) -> bool {
    let dot = |u: Point, v: Point| u[0] * v[0] + u[1] * v[1];
    let sub = |u: Point, v: Point| [u[0] - v[0], u[1] - v[1]];
    // The shared vertex is b == c or a == d; compare the directions away from it.
    let (shared, p, q) = if b == c { (b, a, d) } else { (a, b, c) };
    orient(shared, p, q) == 0.0 && dot(sub(p, shared), sub(q, shared)) > 0.0
}

/// Point-in-polygon by crossings (p must not be on the ring).
pub fn inside_ring(p: Point, ring: &[Point]) -> bool {
    let mut inside = false;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        if (a[1] > p[1]) != (b[1] > p[1]) && (orient(a, b, p) > 0.0) == (b[1] > a[1]) {
            inside = !inside;
        }
    }
    inside
}

/// Summed as triangles from the ring's first vertex: far from the origin, triangles from
/// (0, 0) are huge and cancel, and a small ring's area would round away.
pub fn signed_area(ring: &[Point]) -> f64 {
    (1..ring.len().saturating_sub(1)).map(|i| orient(ring[0], ring[i], ring[i + 1])).sum::<f64>() / 2.0
}

fn orient_ring(ring: &mut [Point], counter_clockwise: bool) {
    if (signed_area(ring) > 0.0) != counter_clockwise {
        ring.reverse();
    }
}

/// The name of `holes[index]` in messages: holes, like vertices, are numbered by their place in the
/// file's arrays, from 0, so one count finds both ("hole 0 (edge from vertex 3)" is `holes[0][3]`).
pub fn hole_name(index: usize) -> String {
    format!("hole {index}")
}

/// The ring without a repeated closing point, or what is wrong with it.
fn clean(mut ring: Vec<Point>, name: &str) -> Result<Vec<Point>, String> {
    if let Some(i) = ring.iter().position(|p| !(p[0].is_finite() && p[1].is_finite())) {
        return Err(format!("{name}: vertex {i} {:?} is not a finite number", ring[i]));
    }
    if let Some(i) = ring.iter().position(|&p| !within_bounds(p)) {
        return Err(format!("{name}: vertex {i} {:?} is beyond ±{MAX_COORDINATE}", ring[i]));
    }
    if let Some(i) = ring.iter().position(|p| p.iter().any(|c| *c != 0.0 && c.abs() < MIN_COORDINATE)) {
        return Err(format!(
            "{name}: vertex {i} {:?} has a nonzero coordinate below {MIN_COORDINATE:e} in size: write 0 or use a larger unit",
            ring[i]
        ));
    }
    if ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    if ring.len() < 3 {
        return Err(format!("{name} has {} distinct vertices, a polygon needs at least 3", ring.len()));
    }
    for i in 0..ring.len() {
        let next = (i + 1) % ring.len();
        if ring[i] == ring[next] {
            return Err(format!("{name}: vertex {next} repeats vertex {i} {:?}", ring[i]));
        }
    }
    let extent = |axis: usize| {
        let (low, high) =
            ring.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[axis]), h.max(p[axis])));
        high - low
    };
    let span = extent(0).max(extent(1));
    if span < MIN_EXTENT {
        return Err(format!(
            "{name} spans only {span:.3e} across, below the smallest ring of {MIN_EXTENT:e}: use a larger unit"
        ));
    }
    // Flat rings are named for what they are; a ring whose area only sums to zero (a
    // symmetric bow-tie) is left to the crossing check.
    let far = ring
        .iter()
        .copied()
        .max_by(|p, q| distance(ring[0], *p).total_cmp(&distance(ring[0], *q)))
        .expect("3 vertices");
    if ring.iter().all(|&p| orient(ring[0], far, p) == 0.0) {
        return Err(format!("{name} has zero area: its vertices lie on one line"));
    }
    Ok(ring)
}
