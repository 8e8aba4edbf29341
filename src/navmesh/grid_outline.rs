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
        let mut x = 0;
        while x < w {
            let Some(side) = horizontal(x, y) else {
                x += 1;
                continue;
            };
            let run_start = x;
            while x < w && horizontal(x, y) == Some(side) {
                x += 1;
            }
            let (a, b) = (id(&mut outline, run_start, y), id(&mut outline, x, y));
            outline.segments.push([a, b]);
        }
    }
    for x in 0..=w {
        let mut y = 0;
        while y < h {
            let Some(side) = vertical(x, y) else {
                y += 1;
                continue;
            };
            let run_start = y;
            while y < h && vertical(x, y) == Some(side) {
                y += 1;
            }
            let (a, b) = (id(&mut outline, x, run_start), id(&mut outline, x, y));
            outline.segments.push([a, b]);
        }
    }
    // The map's corners keep the triangulation's hull the whole map even where they are blocked.
    for (x, y) in [(0, 0), (w, 0), (0, h), (w, h)] {
        id(&mut outline, x, y);
    }
    outline
}

/// The centre of a cell in the outline's coordinates.
pub fn cell_centre(grid: &Grid, cell: u32) -> Point {
    let (x, y) = grid.coords(cell);
    [x as f64 + 0.5, y as f64 + 0.5]
}
