//! Drawing the grid: one texel per cell, kept in a colour buffer and re-uploaded only where cells
//! changed since the last frame; pan and zoom; overlays (path, endpoints, parent arrows, values).

use egui::{Color32, ColorImage, Painter, Pos2, Rect, Stroke, TextureHandle, TextureId, TextureOptions, Vec2};

use crate::grid::Grid;
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchOutcome, SearchSnapshot};
use crate::trace::{NO_NODE, Player};

use crate::app::theme::{self, Palette};

/// Zoom (screen points per cell) from which parent arrows are drawn.
pub const ARROWS_FROM_ZOOM: f32 = 12.0;
/// Screen pixels per cell from which f is printed in a cell.
pub const VALUES_FROM_PIXELS: f32 = 14.0;
/// Screen pixels per cell from which g, h and f all are.
pub const ALL_VALUES_FROM_PIXELS: f32 = 28.0;
/// The smallest digits, in screen pixels, that still read on a projector.
pub const VALUE_PIXELS: f32 = 8.0;

/// The values printed in a cell `pixels` screen pixels wide: f alone from `VALUES_FROM_PIXELS`, g,
/// h and f from `ALL_VALUES_FROM_PIXELS` (whole numbers while a decimal would not fit), and the
/// text size in screen pixels.
pub fn cell_values(pixels: f32, g: f64, h: f64, f: f64) -> Option<(String, f32)> {
    let digits = if pixels >= 64.0 { 1 } else { 0 };
    if pixels >= ALL_VALUES_FROM_PIXELS {
        // Three lines, each about 1.15 times the text size, in the cell's height.
        let size = (pixels * 0.28).clamp(VALUE_PIXELS, 18.0);
        Some((format!("g {g:.digits$}\nh {h:.digits$}\nf {f:.digits$}"), size))
    } else if pixels >= VALUES_FROM_PIXELS {
        Some((format!("{f:.0}"), (pixels * 0.55).clamp(VALUE_PIXELS, 18.0)))
    } else {
        None
    }
}

/// Ground darkens with its weight, and so do the search colours on it, so weights stay visible.
fn shade(colour: Color32, weight: u8) -> Color32 {
    let factor = 1.0 - (weight.saturating_sub(1)) as f32 * 0.075;
    Color32::from_rgb(
        (colour.r() as f32 * factor) as u8,
        (colour.g() as f32 * factor) as u8,
        (colour.b() as f32 * factor) as u8,
    )
}

fn cell_colour(palette: &Palette, grid: &Grid, view: &SearchSnapshot, on_path: bool, cell: u32) -> Color32 {
    if !grid.is_cell_passable(cell) {
        return palette.wall;
    }
    let base = if view.current == Some(cell) {
        palette.current
    } else if view.relaxing == Some(cell) {
        palette.relaxing
    } else if on_path {
        palette.path
    } else {
        match view.node(cell).status {
            NodeStatus::Unseen => palette.unseen,
            NodeStatus::Open => palette.open,
            NodeStatus::Closed => palette.closed,
        }
    };
    shade(base, grid.weight(cell))
}

fn found_path(view: &SearchSnapshot) -> &[u32] {
    match &view.outcome {
        Some(SearchOutcome::Found { path, .. }) => path,
        _ => &[],
    }
}

/// What the texture shows now, to find what changed by the next frame.
struct Shown {
    replay: u64,
    step: usize,
    size: [usize; 2],
    marks: [Option<u32>; 2],
    path: Vec<u32>,
    palette: Palette,
}

/// The map as a texture, one texel per cell, updated incrementally.
#[derive(Default)]
pub struct CellTexture {
    colours: Vec<Color32>,
    on_path: Vec<bool>,
    texture: Option<TextureHandle>,
    shown: Option<Shown>,
    /// Cells edited since the last frame.
    edited: Vec<u32>,
    /// Texels uploaded by the last update (for the benchmark and tests).
    pub last_upload: usize,
}

impl CellTexture {
    /// Cells whose terrain changed: redrawn on the next update.
    pub fn mark_edited(&mut self, cells: impl IntoIterator<Item = u32>) {
        self.edited.extend(cells);
    }

    /// Forget everything: the next update redraws the whole map.
    pub fn invalidate(&mut self) {
        self.shown = None;
        self.edited.clear();
    }

    /// Brings the texture up to the replay's current step; `replay` identifies the recording.
    pub fn update(
        &mut self,
        ctx: &egui::Context,
        grid: &Grid,
        replay: u64,
        player: &Player<SearchSnapshot>,
    ) -> TextureId {
        let size = [grid.width() as usize, grid.height() as usize];
        let cells = grid.cell_count();
        let view = player.view();
        let path = found_path(view);
        let step = player.step();
        let palette = theme::palette(ctx);
        let incremental = self.texture.is_some()
            && self.shown.as_ref().is_some_and(|shown| {
                shown.replay == replay
                    && shown.size == size
                    && shown.palette == palette
                    && shown.step.abs_diff(step) <= cells / 8
            });
        if incremental {
            self.update_changed(&palette, grid, player);
        } else {
            self.on_path = vec![false; cells];
            for &cell in path {
                self.on_path[cell as usize] = true;
            }
            self.colours = (0..cells as u32)
                .map(|cell| cell_colour(&palette, grid, view, self.on_path[cell as usize], cell))
                .collect();
            let image = ColorImage::new(size, self.colours.clone());
            match &mut self.texture {
                Some(texture) => texture.set(image, TextureOptions::NEAREST),
                None => self.texture = Some(ctx.load_texture("grid-lab-map", image, TextureOptions::NEAREST)),
            }
            self.edited.clear();
            self.last_upload = cells;
        }
        let path_changed = self.shown.as_ref().is_none_or(|shown| shown.path != path);
        self.shown = Some(Shown {
            replay,
            step,
            size,
            marks: [view.current, view.relaxing],
            path: if path_changed { path.to_vec() } else { self.shown.take().map(|s| s.path).unwrap_or_default() },
            palette,
        });
        self.texture.as_ref().expect("uploaded above").id()
    }

    fn update_changed(&mut self, palette: &Palette, grid: &Grid, player: &Player<SearchSnapshot>) {
        let shown = self.shown.as_ref().expect("checked by the caller");
        let view = player.view();
        let path = found_path(view);
        let mut candidates = std::mem::take(&mut self.edited);
        let (from, to) = (shown.step.min(player.step()), shown.step.max(player.step()));
        for event in &player.trace().events[from..to] {
            match event {
                SearchEvent::Open { node, .. } | SearchEvent::Expand { node } | SearchEvent::Relax { node, .. } => {
                    candidates.push(*node)
                }
                SearchEvent::Found { .. } | SearchEvent::Exhausted => {}
            }
        }
        candidates.extend(shown.marks.iter().flatten());
        candidates.extend([view.current, view.relaxing].iter().flatten());
        if shown.path != path {
            for &cell in &shown.path {
                self.on_path[cell as usize] = false;
            }
            for &cell in path {
                self.on_path[cell as usize] = true;
            }
            candidates.extend(&shown.path);
            candidates.extend(path);
        }
        // The bounding box of the cells whose colour changed: one upload per frame.
        let mut changed: Option<(u32, u32, u32, u32)> = None;
        for cell in candidates {
            let colour = cell_colour(palette, grid, view, self.on_path[cell as usize], cell);
            if self.colours[cell as usize] != colour {
                self.colours[cell as usize] = colour;
                let (x, y) = grid.coords(cell);
                changed = Some(match changed {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            }
        }
        self.last_upload = 0;
        let Some((x0, y0, x1, y1)) = changed else { return };
        let (w, h) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        let width = grid.width() as usize;
        let mut pixels = Vec::with_capacity(w * h);
        for y in y0 as usize..=y1 as usize {
            pixels.extend_from_slice(&self.colours[y * width + x0 as usize..][..w]);
        }
        let texture = self.texture.as_mut().expect("checked by the caller");
        texture.set_partial([x0 as usize, y0 as usize], ColorImage::new([w, h], pixels), TextureOptions::NEAREST);
        self.last_upload = w * h;
    }
}

/// Pan and zoom: where cell (0, 0) sits inside the canvas, and how many points a cell takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapView {
    pub zoom: f32,
    pub offset: Vec2,
    /// Re-fit whenever the canvas or the map changes size, until the user pans or zooms.
    pub fitted: bool,
    /// The canvas's size in the last frame.
    canvas: Vec2,
}

impl Default for MapView {
    fn default() -> Self {
        Self { zoom: 1.0, offset: Vec2::ZERO, fitted: true, canvas: Vec2::ZERO }
    }
}

impl MapView {
    pub const MIN_ZOOM: f32 = 0.25;
    pub const MAX_ZOOM: f32 = 120.0;

    /// Room left round a fitted map, so start and goal marks on its edge are not cut off.
    pub const FIT_MARGIN: f32 = MARK_MIN_RADIUS + 3.0;

    pub fn fit(&mut self, canvas: Vec2, grid: &Grid) {
        let map = Vec2::new(grid.width() as f32, grid.height() as f32);
        self.zoom = Self::fit_zoom(canvas, grid);
        self.offset = (canvas - map * self.zoom) / 2.0;
        self.fitted = true;
        self.canvas = canvas;
    }

    /// The zoom that shows all of `grid` in `canvas`.
    fn fit_zoom(canvas: Vec2, grid: &Grid) -> f32 {
        let room = canvas - Vec2::splat(2.0 * Self::FIT_MARGIN);
        (room.x / grid.width() as f32).min(room.y / grid.height() as f32).clamp(Self::MIN_ZOOM, Self::MAX_ZOOM)
    }

    /// Keeps the view on a canvas now `canvas` large: until the user pans or zooms, the whole
    /// map; after, the same part of it at the same share of the canvas, so a cell zoomed in the
    /// reading view and then presented (a canvas twice the size) shows what it showed, larger.
    pub fn follow(&mut self, canvas: Vec2, grid: &Grid) {
        if self.fitted {
            return self.fit(canvas, grid);
        }
        if self.canvas != canvas && self.canvas.min_elem() > 0.0 && canvas.min_elem() > 0.0 {
            let centre = (self.canvas / 2.0 - self.offset) / self.zoom;
            let scale = Self::fit_zoom(canvas, grid) / Self::fit_zoom(self.canvas, grid);
            self.zoom = (self.zoom * scale).clamp(Self::MIN_ZOOM, Self::MAX_ZOOM);
            self.offset = canvas / 2.0 - centre * self.zoom;
        }
        self.canvas = canvas;
    }

    /// The screen position of grid point (x, y) (cell corners at integers).
    pub fn to_screen(self, canvas: Rect, x: f32, y: f32) -> Pos2 {
        canvas.min + self.offset + Vec2::new(x, y) * self.zoom
    }

    pub fn cell_center(&self, canvas: Rect, grid: &Grid, cell: u32) -> Pos2 {
        let (x, y) = grid.coords(cell);
        self.to_screen(canvas, x as f32 + 0.5, y as f32 + 0.5)
    }

    /// Grid coordinates under a screen position (possibly off the map).
    pub fn cell_at(&self, canvas: Rect, pos: Pos2) -> (i64, i64) {
        let p = (pos - canvas.min - self.offset) / self.zoom;
        (p.x.floor() as i64, p.y.floor() as i64)
    }

    /// Zooms by `factor` keeping the point under `pos` in place.
    pub fn zoom_at(&mut self, canvas: Rect, pos: Pos2, factor: f32) {
        let anchor = (pos - canvas.min - self.offset) / self.zoom;
        self.zoom = (self.zoom * factor).clamp(Self::MIN_ZOOM, Self::MAX_ZOOM);
        self.offset = pos - canvas.min - anchor * self.zoom;
        self.fitted = false;
    }

    pub fn pan(&mut self, delta: Vec2) {
        self.offset += delta;
        self.fitted = false;
    }

    /// The cells (x range, y range) visible in the canvas.
    pub(super) fn visible(&self, canvas: Rect, grid: &Grid) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let (x0, y0) = self.cell_at(canvas, canvas.min);
        let (x1, y1) = self.cell_at(canvas, canvas.max);
        let clamp = |v: i64, max: u32| v.clamp(0, max as i64) as u32;
        (clamp(x0, grid.width())..clamp(x1 + 1, grid.width()), clamp(y0, grid.height())..clamp(y1 + 1, grid.height()))
    }
}

/// What the overlays need besides the view.
pub struct Overlay<'a> {
    pub grid: &'a Grid,
    pub view: &'a SearchSnapshot,
    pub start: u32,
    pub goal: u32,
    pub show_values: bool,
    pub hovered: Option<u32>,
}

/// The smallest radius of the start and goal marks, however far out the map is zoomed.
const MARK_MIN_RADIUS: f32 = 5.0;

/// Path line, parent arrows, values, weights, endpoints, the current cell and the hovered cell,
/// on top of the texture.
pub fn paint_overlays(painter: &Painter, canvas: Rect, map: &MapView, overlay: &Overlay) {
    let Overlay { grid, view, .. } = overlay;
    let palette = theme::palette(painter.ctx());
    let zoom = map.zoom;
    let center = |cell: u32| map.cell_center(canvas, grid, cell);
    // Values are sized in screen pixels: what a projector shows, whatever the text size.
    let pixels_per_point = painter.ctx().pixels_per_point();
    let pixels = zoom * pixels_per_point;
    if zoom >= ARROWS_FROM_ZOOM || (overlay.show_values && pixels >= VALUES_FROM_PIXELS) {
        let (xs, ys) = map.visible(canvas, grid);
        for y in ys {
            for x in xs.clone() {
                let cell = grid.cell(x, y);
                let weight = grid.weight(cell);
                if weight > 1 && grid.is_cell_passable(cell) {
                    // Printed, so a weight still reads under the search's colours.
                    let corner = map.to_screen(canvas, x as f32 + 0.08, y as f32 + 0.04);
                    let font = egui::FontId::monospace((pixels * 0.3).clamp(VALUE_PIXELS, 18.0) / pixels_per_point);
                    painter.text(
                        corner,
                        egui::Align2::LEFT_TOP,
                        weight.to_string(),
                        font,
                        Color32::from_black_alpha(170),
                    );
                }
                let record = view.node(cell);
                if record.status == NodeStatus::Unseen {
                    continue;
                }
                let from = center(cell);
                if record.parent != NO_NODE && zoom >= ARROWS_FROM_ZOOM {
                    let towards = (center(record.parent) - from).normalized() * zoom * 0.42;
                    painter.arrow(from, towards, Stroke::new((zoom * 0.06).max(1.0), Color32::from_black_alpha(150)));
                }
                if overlay.show_values
                    && let Some((text, size)) = cell_values(pixels, record.g, record.h, record.f())
                {
                    let size = size / pixels_per_point;
                    // Centred, on a pale plate drawn over the parent arrow so the arrow never hides it.
                    let galley = painter.layout(text, egui::FontId::monospace(size), Color32::BLACK, f32::INFINITY);
                    let plate = Rect::from_center_size(from, galley.size() + Vec2::new(2.0, 0.0));
                    painter.rect_filled(plate, 2.0, Color32::from_white_alpha(200));
                    painter.galley(plate.min + Vec2::new(1.0, 0.0), galley, Color32::BLACK);
                }
            }
        }
    }
    let path = found_path(view);
    if path.len() > 1 {
        let points: Vec<Pos2> = path.iter().map(|&cell| center(cell)).collect();
        let width = (zoom * 0.3).clamp(2.0, 6.0);
        painter.add(egui::Shape::line(points.clone(), Stroke::new(width + 2.0, Color32::from_black_alpha(160))));
        painter.add(egui::Shape::line(points, Stroke::new(width, palette.path)));
    }
    let radius = (zoom * 0.42).max(MARK_MIN_RADIUS);
    if let Some(current) = view.current {
        painter.circle_stroke(center(current), radius + 1.5, Stroke::new(2.5, palette.current));
    }
    for (cell, colour) in [(overlay.start, palette.start), (overlay.goal, palette.goal)] {
        painter.circle(center(cell), radius, colour, Stroke::new(2.0, Color32::WHITE));
    }
    if let Some(cell) = overlay.hovered {
        let (x, y) = grid.coords(cell);
        let rect = Rect::from_min_max(
            map.to_screen(canvas, x as f32, y as f32),
            map.to_screen(canvas, x as f32 + 1.0, y as f32 + 1.0),
        );
        painter.rect_stroke(rect.expand(1.0), 0.0, Stroke::new(2.0, palette.hovered), egui::StrokeKind::Outside);
    }
}

/// The cells on a straight line between two cells (Bresenham), so a fast drag leaves no gaps.
pub fn line_cells((x0, y0): (i64, i64), (x1, y1): (i64, i64)) -> Vec<(i64, i64)> {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = ((x1 - x0).signum(), (y1 - y0).signum());
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    let mut cells = vec![(x, y)];
    while (x, y) != (x1, y1) {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        cells.push((x, y));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_unbroken_and_end_on_both_cells() {
        for (a, b) in [((0, 0), (5, 2)), ((3, 7), (-2, 1)), ((4, 4), (4, 4)), ((0, 0), (0, -3))] {
            let cells = line_cells(a, b);
            assert_eq!((cells[0], *cells.last().unwrap()), (a, b));
            for pair in cells.windows(2) {
                let (d0, d1) = ((pair[1].0 - pair[0].0).abs(), (pair[1].1 - pair[0].1).abs());
                assert!(d0 <= 1 && d1 <= 1 && d0 + d1 > 0, "{pair:?}");
            }
        }
    }

    #[test]
    fn cell_values_show_f_from_14_pixels_and_g_h_f_from_28_in_readable_digits() {
        assert_eq!(cell_values(13.9, 3.0, 4.0, 7.0), None);
        let (text, size) = cell_values(14.0, 3.0, 4.0, 7.25).unwrap();
        assert_eq!(text, "7");
        assert!(size >= VALUE_PIXELS);
        let (text, size) = cell_values(28.0, 3.0, 4.25, 7.25).unwrap();
        assert_eq!(text, "g 3\nh 4\nf 7");
        assert!(size >= VALUE_PIXELS);
        // Three lines of this size (egui's rows are about 1.15 times the size) fit the cell.
        assert!(3.0 * 1.15 * size <= 28.0 + 1.0);
        assert_eq!(cell_values(64.0, 3.0, 4.26, 7.26).unwrap().0, "g 3.0\nh 4.3\nf 7.3");
    }

    #[test]
    fn a_fitted_map_leaves_room_for_the_marks_on_its_edge() {
        // A wide map fills the canvas's width: before the margin, a mark on its edge was cut in half.
        let grid = Grid::new(512, 64);
        let canvas = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::new(600.0, 400.0));
        let mut map = MapView::default();
        map.fit(canvas.size(), &grid);
        let radius = (map.zoom * 0.42).max(MARK_MIN_RADIUS) + 1.0;
        for cell in [grid.cell(0, 0), grid.cell(511, 63), grid.cell(511, 0)] {
            let mark = Rect::from_center_size(map.cell_center(canvas, &grid, cell), Vec2::splat(2.0 * radius));
            assert!(canvas.contains_rect(mark), "{mark:?} outside {canvas:?}");
        }
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let grid = Grid::new(100, 50);
        let canvas = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::new(400.0, 300.0));
        let mut map = MapView::default();
        map.fit(canvas.size(), &grid);
        assert_eq!(map.zoom, (400.0 - 2.0 * MapView::FIT_MARGIN) / 100.0);
        let cursor = Pos2::new(123.0, 77.0);
        let before = (cursor - canvas.min - map.offset) / map.zoom;
        map.zoom_at(canvas, cursor, 3.0);
        let after = (cursor - canvas.min - map.offset) / map.zoom;
        assert!((before - after).length() < 1e-4);
        assert!(!map.fitted);
    }

    /// Until the user zooms, a canvas that changes size shows the whole map again; after, the
    /// same part of the map, centred as before and at the same share of the canvas.
    #[test]
    fn a_canvas_that_changes_size_keeps_the_map_in_view() {
        let grid = Grid::new(40, 24);
        let fitted_in = |size: Vec2| {
            let mut map = MapView::default();
            map.fit(size, &grid);
            map
        };
        let (small, large) = (Vec2::new(400.0, 300.0), Vec2::new(1200.0, 650.0));
        let mut map = MapView::default();
        map.follow(small, &grid);
        map.follow(large, &grid);
        assert_eq!(map, fitted_in(large), "fitted to the canvas it has now");
        let canvas = Rect::from_min_size(Pos2::ZERO, large);
        map.zoom_at(canvas, Pos2::new(300.0, 200.0), 0.5);
        let centre = |map: &MapView, size: Vec2| (size / 2.0 - map.offset) / map.zoom;
        let (seen, share) = (centre(&map, large), map.zoom / fitted_in(large).zoom);
        map.follow(small, &grid);
        assert!(!map.fitted);
        assert!((centre(&map, small) - seen).length() < 1e-3, "the same point of the map in the middle");
        assert!((map.zoom / fitted_in(small).zoom - share).abs() < 1e-4, "at the same share of the canvas");
    }
}
