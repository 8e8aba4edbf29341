//! Drawing the planners' layers over the map: clusters, entrances, the abstract graph, regions,
//! corridors, the paths, and the planner's current step.

use std::ops::Range;
use std::time::Duration;

use egui::{Color32, ColorImage, Mesh, Painter, Pos2, Rect, Shape, Stroke, TextureHandle, TextureOptions, Vec2};

use super::{Answer, HierarchySettings, HierarchyState, Layers, Plan, PlannerChoice, Prepared};
use crate::app::grid_lab::canvas::MapView;
use crate::app::theme::{self, Palette};
use crate::grid::Grid;
use crate::pathfinding::hpa::Hpa;
use crate::pathfinding::plan_trace::{PlanStage, PlanView};
use crate::pathfinding::pra::Pyramid;
use crate::pathfinding::search_trace::NodeStatus;
use crate::scene::Replayed;
use crate::trace::NO_NODE;

/// Cluster borders closer than this many points apart are not drawn: they would turn the map grey.
const BORDERS_FROM_SPACING: f32 = 6.0;
/// From this spacing on, borders are drawn at full strength; below it they fade out.
const BORDERS_FULL_SPACING: f32 = 24.0;
/// Seconds the re-computed clusters stay highlighted.
const HIGHLIGHT_SECONDS: f32 = 4.0;

/// A texture drawn over the map, rebuilt only when what it shows changes.
#[derive(Default)]
pub(super) struct CachedTexture {
    key: Option<(u64, usize)>,
    texture: Option<TextureHandle>,
}

impl CachedTexture {
    fn get(
        &mut self,
        ctx: &egui::Context,
        name: &str,
        key: (u64, usize),
        make: impl FnOnce() -> ColorImage,
    ) -> &TextureHandle {
        if self.key != Some(key) || self.texture.is_none() {
            let image = make();
            match &mut self.texture {
                Some(texture) => texture.set(image, TextureOptions::NEAREST),
                None => self.texture = Some(ctx.load_texture(name, image, TextureOptions::NEAREST)),
            }
            self.key = Some(key);
        }
        self.texture.as_ref().expect("made above")
    }
}

/// A distinct colour per region id.
pub(super) fn region_colour(id: u32) -> Color32 {
    let hue = (id as f32 * 0.618_034).fract();
    let [r, g, b, _] = Color32::from(egui::ecolor::Hsva::new(hue, 0.6, 0.95, 1.0)).to_array();
    Color32::from_rgba_unmultiplied(r, g, b, 150)
}

/// Adds a line from `a` to `b` as one quad: thousands of edges stay one mesh.
fn add_segment(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let normal = (b - a).normalized().rot90() * (width / 2.0);
    let first = mesh.vertices.len() as u32;
    for p in [a + normal, a - normal, b - normal, b + normal] {
        mesh.colored_vertex(p, colour);
    }
    mesh.add_triangle(first, first + 1, first + 2);
    mesh.add_triangle(first, first + 2, first + 3);
}

fn polyline(painter: &Painter, points: Vec<Pos2>, width: f32, colour: Color32) {
    if points.len() > 1 {
        painter.add(Shape::line(points.clone(), Stroke::new(width + 2.0, Color32::from_black_alpha(140))));
        painter.add(Shape::line(points, Stroke::new(width, colour)));
    }
}

/// The planner's state at the current step, while the bar steps through the planner.
fn step_view<'a>(plan: &'a Plan, settings: &HierarchySettings) -> Option<&'a PlanView> {
    (settings.planner != PlannerChoice::Off && settings.stepping == Replayed::Planner).then(|| plan.player.view())
}

impl HierarchyState {
    /// over the map in `canvas`, below the search's own path and marks.
    pub fn paint_below(
        &mut self,
        ctx: &egui::Context,
        painter: &Painter,
        canvas: Rect,
        map: &MapView,
        grid: &Grid,
        settings: &HierarchySettings,
    ) {
        let Some(plan) = self.plan.as_ref().filter(|_| settings.planner != PlannerChoice::Off) else { return };
        let palette = theme::palette(ctx);
        let layers = settings.layers;
        let step = step_view(plan, settings);
        // While stepping, the level of the step (the slider's before the first); otherwise the slider's.
        let shown = step.filter(|view| view.stage.is_some()).map_or(settings.shown_level, |view| view.level);
        let surface = Surface::new(painter, canvas, map, grid);
        match (&*plan.abstraction, &plan.answer) {
            (Prepared::Hpa(hpa), Answer::Hpa(_)) => {
                let level = shown.clamp(1, hpa.levels());
                if let Some(redone) = &plan.recomputed {
                    let age = self.installed_at.map_or(f32::MAX, |t| t.elapsed().as_secs_f32());
                    paint_recomputed(ctx, &surface, &palette, hpa, &redone[0], age);
                }
                let mut mesh = Mesh::default();
                if layers.clusters {
                    add_cluster_borders(&mut mesh, &surface, &palette, hpa);
                }
                let (edges, transitions) = (&plan.edges[level - 1], &plan.transitions[level - 1]);
                add_level_graph(&mut mesh, &surface, &palette, layers, edges, transitions);
                painter.add(Shape::mesh(mesh));
            }
            (Prepared::Pra(pyramid), Answer::Pra(result)) => {
                let level = drawn_level(pyramid, shown);
                if layers.regions {
                    let region_count = &mut self.region_count;
                    let texture = self.regions.get(ctx, "pra-regions", (self.plan_id, level), || {
                        region_image(pyramid, grid, level, region_count)
                    });
                    surface.cover(texture);
                }
                // While stepping: the corridor of the level being refined (the grid's too).
                let corridor = match step {
                    Some(view) => view.corridor.as_ref().filter(|(l, _)| *l == shown).map(|(l, nodes)| (*l, nodes)),
                    None => result.corridors.get(shown).map(|nodes| (shown, nodes)),
                };
                if layers.corridor
                    && let Some((level, corridor)) = corridor.filter(|(_, c)| !c.is_empty())
                {
                    let texture = self.corridor.get(ctx, "pra-corridor", (self.plan_id, level), || {
                        corridor_image(pyramid, grid, level, corridor)
                    });
                    surface.cover(texture);
                }
            }
            _ => {}
        }
    }

    /// Draws the switched-on paths, above the search's own path so both stay visible.
    pub fn paint_above(
        &self,
        painter: &Painter,
        canvas: Rect,
        map: &MapView,
        grid: &Grid,
        settings: &HierarchySettings,
    ) {
        let Some(plan) = self.plan.as_ref().filter(|_| settings.planner != PlannerChoice::Off) else { return };
        let palette = theme::palette(painter.ctx());
        if let Some(view) = step_view(plan, settings) {
            paint_step(painter, &palette, canvas, map, grid, &plan.abstraction, view);
            // The returned path, in the final path's colour as when not stepping.
            if plan.player.at_end()
                && let Some((_, path)) = view.found.last()
            {
                let width = (map.zoom * 0.25).clamp(2.0, 5.0);
                polyline(
                    painter,
                    path.iter().map(|&c| map.cell_center(canvas, grid, c)).collect(),
                    width * 0.7,
                    palette.smoothed,
                );
            }
            return;
        }
        let layers = settings.layers;
        let center = |cell: u32| map.cell_center(canvas, grid, cell);
        let width = (map.zoom * 0.25).clamp(2.0, 5.0);
        let dot = (map.zoom * 0.4).clamp(2.0, 8.0);
        let abstract_path = |points: Vec<Pos2>| {
            polyline(painter, points.clone(), width * 0.6, palette.abstract_path);
            // Not over the start and goal marks.
            for &point in points.iter().skip(1).take(points.len().saturating_sub(2)) {
                painter.circle(point, dot, palette.abstract_path, Stroke::new(1.0, Color32::WHITE));
            }
        };
        let (final_path, level_path) = match (&*plan.abstraction, &plan.answer) {
            (Prepared::Hpa(hpa), Answer::Hpa(result)) => {
                if layers.refined {
                    polyline(painter, result.refined_path.iter().map(|&c| center(c)).collect(), width, palette.refined);
                }
                let level = settings.shown_level.clamp(1, hpa.levels());
                (&result.path, result.abstract_paths[level - 1].iter().map(|&c| center(c)).collect())
            }
            (Prepared::Pra(pyramid), Answer::Pra(result)) => {
                let level = drawn_level(pyramid, settings.shown_level);
                let at = |node: &u32| {
                    let (x, y) = pyramid.position(grid, level, *node);
                    map.to_screen(canvas, x as f32 + 0.5, y as f32 + 0.5)
                };
                (&result.path, result.paths.get(level).map_or_else(Vec::new, |nodes| nodes.iter().map(at).collect()))
            }
            _ => return,
        };
        if layers.smoothed
            && let Some((_, path)) = final_path
        {
            polyline(painter, path.iter().map(|&c| center(c)).collect(), width * 0.7, palette.smoothed);
        }
        if layers.abstract_path {
            abstract_path(level_path);
        }
    }
}

/// Where the layers below the search go: the painter over the map's canvas, and the columns
/// and rows in view.
struct Surface<'a> {
    painter: &'a Painter,
    canvas: Rect,
    map: &'a MapView,
    grid: &'a Grid,
    xs: Range<u32>,
    ys: Range<u32>,
}

impl<'a> Surface<'a> {
    fn new(painter: &'a Painter, canvas: Rect, map: &'a MapView, grid: &'a Grid) -> Self {
        let (xs, ys) = map.visible(canvas, grid);
        Self { painter, canvas, map, grid, xs, ys }
    }

    fn to_screen(&self, x: f32, y: f32) -> Pos2 {
        self.map.to_screen(self.canvas, x, y)
    }

    fn center(&self, cell: u32) -> Pos2 {
        self.map.cell_center(self.canvas, self.grid, cell)
    }

    /// Whether the segment between cells `a` and `b` may cross the cells in view.
    fn shows(&self, a: u32, b: u32) -> bool {
        let (a, b) = (self.grid.coords(a), self.grid.coords(b));
        a.0.max(b.0) + 1 >= self.xs.start
            && a.0.min(b.0) < self.xs.end + 1
            && a.1.max(b.1) + 1 >= self.ys.start
            && a.1.min(b.1) < self.ys.end + 1
    }

    /// Lays `texture`, one texel per cell, over the whole map.
    fn cover(&self, texture: &TextureHandle) {
        let (width, height) = (self.grid.width() as f32, self.grid.height() as f32);
        let map_rect = Rect::from_min_max(self.to_screen(0.0, 0.0), self.to_screen(width, height));
        let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
        self.painter.image(texture.id(), map_rect, uv, Color32::WHITE);
    }
}

/// Highlights the level-1 `clusters` an edit made HPA* re-compute, fading out over
/// [`HIGHLIGHT_SECONDS`] from the plan's arrival `age` seconds ago.
fn paint_recomputed(ctx: &egui::Context, surface: &Surface, palette: &Palette, hpa: &Hpa, clusters: &[u32], age: f32) {
    if age < HIGHLIGHT_SECONDS {
        let alpha = (1.0 - age / HIGHLIGHT_SECONDS) * 0.45;
        for &cluster in clusters {
            let (x0, y0, x1, y1) = hpa.cluster_rect(surface.grid, 1, cluster);
            let rect =
                Rect::from_min_max(surface.to_screen(x0 as f32, y0 as f32), surface.to_screen(x1 as f32, y1 as f32));
            surface.painter.rect_filled(rect, 0.0, palette.recomputed.gamma_multiply(alpha));
        }
        // Not an immediate repaint: the fade needs only a few frames a second.
        ctx.request_repaint_after(Duration::from_millis(50));
    }
}

/// Adds the cluster borders of every level, clipped to the cells in view; higher levels thicker.
/// Zoomed out they fade, then go, so a big map is not covered in grey.
fn add_cluster_borders(mesh: &mut Mesh, surface: &Surface, palette: &Palette, hpa: &Hpa) {
    let (grid, xs, ys) = (surface.grid, &surface.xs, &surface.ys);
    for l in 1..=hpa.levels() {
        let side = hpa.cluster_rect(grid, l, 0).2;
        let spacing = side as f32 * surface.map.zoom;
        if spacing < BORDERS_FROM_SPACING {
            continue;
        }
        let strength =
            ((spacing - BORDERS_FROM_SPACING) / (BORDERS_FULL_SPACING - BORDERS_FROM_SPACING)).clamp(0.25, 1.0);
        let colour = palette.cluster.gamma_multiply(strength);
        let thickness = if l == 1 { 1.0 } else { 2.5 };
        let (top, bottom) = (surface.to_screen(0.0, ys.start as f32).y, surface.to_screen(0.0, ys.end as f32).y);
        for x in (side..grid.width()).step_by(side as usize).filter(|x| xs.contains(x)) {
            let sx = surface.to_screen(x as f32, 0.0).x;
            add_segment(mesh, Pos2::new(sx, top), Pos2::new(sx, bottom), thickness, colour);
        }
        let (left, right) = (surface.to_screen(xs.start as f32, 0.0).x, surface.to_screen(xs.end as f32, 0.0).x);
        for y in (side..grid.height()).step_by(side as usize).filter(|y| ys.contains(y)) {
            let sy = surface.to_screen(0.0, y as f32).y;
            add_segment(mesh, Pos2::new(left, sy), Pos2::new(right, sy), thickness, colour);
        }
    }
}

/// Adds the shown level's abstract graph (`edges`) and `transitions` in view, where switched on.
fn add_level_graph(
    mesh: &mut Mesh,
    surface: &Surface,
    palette: &Palette,
    layers: Layers,
    edges: &[(u32, u32)],
    transitions: &[(u32, u32)],
) {
    let zoom = surface.map.zoom;
    if layers.graph {
        for &(a, b) in edges {
            if surface.shows(a, b) {
                add_segment(mesh, surface.center(a), surface.center(b), (zoom * 0.08).clamp(0.6, 2.0), palette.graph);
            }
        }
    }
    if layers.transitions {
        let half = (zoom * 0.35).max(0.8);
        for &(a, b) in transitions {
            if surface.shows(a, b) {
                for cell in [a, b] {
                    mesh.add_colored_rect(
                        Rect::from_center_size(surface.center(cell), Vec2::splat(2.0 * half)),
                        palette.transition,
                    );
                }
            }
        }
    }
}

/// Each cell in the colour of its PRA* region on `level` (walls clear); counts the regions.
fn region_image(pyramid: &Pyramid, grid: &Grid, level: usize, region_count: &mut usize) -> ColorImage {
    let regions = pyramid.region_map(grid, level);
    let mut ids: Vec<u32> = regions.iter().copied().filter(|&r| r != NO_NODE).collect();
    ids.sort_unstable();
    ids.dedup();
    *region_count = ids.len();
    let pixels = regions.iter().map(|&r| if r == NO_NODE { Color32::TRANSPARENT } else { region_colour(r) });
    ColorImage::new([grid.width() as usize, grid.height() as usize], pixels.collect())
}

/// The map shaded but for the cells under the `corridor` nodes of `level`.
fn corridor_image(pyramid: &Pyramid, grid: &Grid, level: usize, corridor: &[u32]) -> ColorImage {
    let mut pixels = vec![Color32::from_black_alpha(120); grid.cell_count()];
    for cell in pyramid.cells_under(level, corridor) {
        pixels[cell as usize] = Color32::TRANSPARENT;
    }
    ColorImage::new([grid.width() as usize, grid.height() as usize], pixels)
}

/// The PRA* level whose regions and path are drawn when `shown` is: the grid has no regions of
/// its own, so level 0 shows level 1's round its corridor; on a map where no two cells join
/// (a pyramid of the grid alone) the grid's cells are the regions.
fn drawn_level(pyramid: &Pyramid, shown: usize) -> usize {
    shown.max(1).min(pyramid.height() - 1)
}

/// While stepping through the planner: the nodes its current search has reached (abstract ones
/// as larger squares at their positions), the node being expanded and the paths found on this
/// level and the one above.
fn paint_step(
    painter: &Painter,
    palette: &Palette,
    canvas: Rect,
    map: &MapView,
    grid: &Grid,
    abstraction: &Prepared,
    view: &PlanView,
) {
    // HPA*'s events name grid cells on every level; PRA*'s name the nodes of the stage's level.
    let at = |level: usize, node: u32| -> Option<Pos2> {
        match abstraction {
            Prepared::Pra(pyramid) if level > 0 => ((node as usize) < pyramid.node_count(grid, level)).then(|| {
                let (x, y) = pyramid.position(grid, level, node);
                map.to_screen(canvas, x as f32 + 0.5, y as f32 + 0.5)
            }),
            _ => ((node as usize) < grid.cell_count()).then(|| map.cell_center(canvas, grid, node)),
        }
    };
    let side = if view.level > 0 { (map.zoom * 1.2).clamp(5.0, 16.0) } else { (map.zoom * 0.7).max(1.5) };
    let mut mesh = Mesh::default();
    for (node, record) in view.search.nodes().iter().enumerate() {
        let colour = match record.status {
            NodeStatus::Open => palette.open,
            NodeStatus::Closed => palette.closed,
            NodeStatus::Unseen => continue,
        };
        if let Some(p) = at(view.level, node as u32) {
            // Outlined, so they stand out on the coloured regions.
            mesh.add_colored_rect(Rect::from_center_size(p, Vec2::splat(side + 2.0)), Color32::from_black_alpha(180));
            mesh.add_colored_rect(Rect::from_center_size(p, Vec2::splat(side)), colour);
        }
    }
    painter.add(Shape::mesh(mesh));
    let width = (map.zoom * 0.25).clamp(2.0, 5.0);
    // The path being refined (one level up) and what this level found: older levels would hide them.
    for (level, path) in view.found.iter().filter(|(level, _)| *level <= view.level + 1) {
        let colour = if *level > 0 { palette.abstract_path } else { palette.refined };
        polyline(painter, path.iter().filter_map(|&node| at(*level, node)).collect(), width, colour);
    }
    if let Some(p) = view.search.current.and_then(|node| at(view.level, node)) {
        painter.circle(p, side * 0.7, palette.current, Stroke::new(1.5, Color32::WHITE));
    }
    // The straight line tried first, up to what stopped it, crossed out.
    if let (Some(PlanStage::StraightLine), Some(stop)) = (view.stage, &view.line_stop) {
        let walked: Vec<Pos2> = stop.walked.iter().map(|&cell| map.cell_center(canvas, grid, cell)).collect();
        let blocked = map.cell_center(canvas, grid, stop.cell);
        polyline(painter, walked.iter().copied().chain([blocked]).collect(), width, palette.refined);
        let arm = (map.zoom * 0.45).clamp(4.0, 12.0);
        let stroke = Stroke::new(width.max(2.5), palette.current);
        painter.line_segment([blocked - Vec2::splat(arm), blocked + Vec2::splat(arm)], stroke);
        painter.line_segment([blocked + Vec2::new(-arm, arm), blocked + Vec2::new(arm, -arm)], stroke);
    }
}
