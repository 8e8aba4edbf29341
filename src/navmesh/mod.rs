//! Pathfinding on polygon maps: a constrained Delaunay triangulation of the free space (spade),
//! point location, the funnel algorithm (also for a round agent of radius r), and the triangle
//! searches TA* and TRA* of Demyen & Buro (2006). Free of any GUI; searches are traced.

pub mod funnel;
pub mod grid_outline;
pub mod merge;
pub mod polyanya;
pub mod polyanya_search;
pub mod polyanya_view;
pub mod polygon;
pub mod reduction;
pub mod search;
pub mod tastar;
pub mod trastar;
pub mod triangulation;
pub mod walk;

pub use crate::grid::movingai::ParseError;
pub use polygon::{Outline, PolygonMap};
pub use triangulation::{Navmesh, Refinement};

/// A point of the plane, `[x, y]` with y up: counter-clockwise turns are positive.
pub type Point = [f64; 2];

/// Twice the signed area of `a b c`: > 0 when `c` is left of the ray `a -> b`.
pub fn orient(a: Point, b: Point, c: Point) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Coordinates stay within ±`MAX_COORDINATE` (1e7), so the squares cannot overflow and libm's
/// slower `hypot` buys nothing (it took ~6% of a TA* query).
pub fn distance(a: Point, b: Point) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// The point of segment `a b` closest to `p`.
pub fn closest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    if len2 == 0.0 {
        return a;
    }
    let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
    [a[0] + t * d[0], a[1] + t * d[1]]
}

pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    distance(p, closest_on_segment(p, a, b))
}

/// Whether the closed segments `a b` and `c d` share at least one point.
pub fn segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true;
    }
    let on = |p: Point, q: Point, r: Point, o: f64| {
        o == 0.0 && r[0] >= p[0].min(q[0]) && r[0] <= p[0].max(q[0]) && r[1] >= p[1].min(q[1]) && r[1] <= p[1].max(q[1])
    };
    on(a, b, c, o1) || on(a, b, d, o2) || on(c, d, a, o3) || on(c, d, b, o4)
}

/// The distance between the closed segments `a b` and `c d`.
pub fn segment_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    if segments_touch(a, b, c, d) {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

/// The length of a polyline.
pub fn path_length(points: &[Point]) -> f64 {
    points.windows(2).map(|w| distance(w[0], w[1])).sum()
}

/// What a map file holds: its outline, and the grid or the polygons it was read from.
pub struct MapFile {
    pub outline: Outline,
    pub grid: Option<crate::grid::Grid>,
    pub polygons: Option<PolygonMap>,
}

impl MapFile {
    /// A grid map, traced into its outline.
    pub fn of_grid(grid: crate::grid::Grid) -> Self {
        MapFile { outline: grid_outline::grid_outline(&grid), grid: Some(grid), polygons: None }
    }

    pub fn of_polygons(map: PolygonMap) -> Self {
        MapFile { outline: map.outline(), grid: None, polygons: Some(map) }
    }
}

/// A MovingAI grid to trace into a polygon map; refused when weighted, as the polygons would drop
/// the weights.
pub fn load_grid_for_polygons(path: &std::path::Path) -> Result<crate::grid::Grid, ParseError> {
    let grid = crate::grid::movingai::load_map(path)?;
    if grid.has_weights() {
        let message = "polygon maps need uniform ground: a polygon is open or wall, with no cost per cell, so weighted cells are refused";
        return Err(ParseError { file: path.display().to_string(), line: 0, message: message.to_string() });
    }
    Ok(grid)
}

/// Reads a map file by its extension, in any case: `.mesh` Polyanya mesh, `.map` MovingAI grid
/// (see [`load_grid_for_polygons`]), any other a JSON polygon map.
pub fn load_map_file(path: &std::path::Path) -> Result<MapFile, ParseError> {
    Ok(if crate::files::has_extension(path, "mesh") {
        MapFile { outline: polyanya::load_mesh(path)?, grid: None, polygons: None }
    } else if crate::grid::movingai::is_map_file(path) {
        MapFile::of_grid(load_grid_for_polygons(path)?)
    } else {
        MapFile::of_polygons(PolygonMap::load(path)?)
    })
}

/// The outline of a map file (see [`load_map_file`]).
pub fn load_outline(path: &std::path::Path) -> Result<Outline, ParseError> {
    load_map_file(path).map(|file| file.outline)
}
