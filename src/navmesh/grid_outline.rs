//! A grid map as polygons: the edges between free and blocked cells (the map's border counts as
//! blocked), merged into maximal straight runs, so the blocked regions become rectilinear
//! polygons and the border the boundary. Cell `(x, y)` is the square `[x, x+1] x [y, y+1]`, its
//! centre `(x + 0.5, y + 0.5)`.

use std::collections::HashMap;

use super::{Outline, Point};
use crate::grid::Grid;

pub fn grid_outline(grid: &Grid) -> Outline {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let free = |x: i64, y: i64| grid.is_passable(x, y);
    let mut outline = Outline::default();
    let mut ids: HashMap<(i64, i64), u32> = HashMap::new();
    let mut id = |outline: &mut Outline, x: i64, y: i64| {
        *ids.entry((x, y)).or_insert_with(|| {
            outline.points.push([x as f64, y as f64]);
            outline.points.len() as u32 - 1
        })
    };
    // Which side of the unit edge is free, if exactly one is: runs break where this changes,
    // so runs meet only at their ends (also where two blocked cells touch at a corner).
    let horizontal = |x: i64, y: i64| match (free(x, y - 1), free(x, y)) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    };
    let vertical = |x: i64, y: i64| match (free(x - 1, y), free(x, y)) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    };
    for y in 0..=h {
        for (a, b) in runs(w, |x| horizontal(x, y)) {
            let segment = [id(&mut outline, a, y), id(&mut outline, b, y)];
            outline.segments.push(segment);
        }
    }
    for x in 0..=w {
        for (a, b) in runs(h, |y| vertical(x, y)) {
            let segment = [id(&mut outline, x, a), id(&mut outline, x, b)];
            outline.segments.push(segment);
        }
    }
    // The map's corners keep the triangulation's hull the whole map even where they are blocked.
    for (x, y) in [(0, 0), (w, 0), (0, h), (w, h)] {
        id(&mut outline, x, y);
    }
    outline
}

/// The maximal runs `(from, to)` of unit edges `0..length` along one line over which `side`
/// stays the same `Some`.
fn runs(length: i64, side: impl Fn(i64) -> Option<bool>) -> Vec<(i64, i64)> {
    let mut runs = Vec::new();
    let mut k = 0;
    while k < length {
        let Some(this) = side(k) else {
            k += 1;
            continue;
        };
        let from = k;
        while k < length && side(k) == Some(this) {
            k += 1;
        }
        runs.push((from, k));
    }
    runs
}

/// The centre of a cell in the outline's coordinates.
pub fn cell_centre(grid: &Grid, cell: u32) -> Point {
    let (x, y) = grid.coords(cell);
    [x as f64 + 0.5, y as f64 + 0.5]
}

/// A search's error about its point `what`, a cell's centre on a grid map, said of the cell the
/// user named: "start cell 3,4 is ..." rather than "start [3.5, 4.5] is ...".
pub fn said_of_cell(error: String, what: &str, (x, y): (i64, i64)) -> String {
    match error.strip_prefix(&format!("{what} [")).and_then(|rest| rest.split_once("] ")) {
        Some((_, rest)) => format!("{what} cell {x},{y} {rest}"),
        None => error,
    }
}

/// On a traced grid map, the centre of the cell holding `p`, so grid A* and the triangle search
/// join the same points; elsewhere (or off the grid) `p` itself.
pub fn snap_to_cell(grid: Option<&Grid>, p: Point) -> Point {
    match grid {
        Some(grid) if grid.contains(p[0].floor() as i64, p[1].floor() as i64) => {
            cell_centre(grid, grid.cell(p[0].floor() as u32, p[1].floor() as u32))
        }
        _ => p,
    }
}
