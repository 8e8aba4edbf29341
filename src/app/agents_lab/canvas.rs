//! Drawing the agents' map at one time step: walls as a texture, the running search's expanded
//! states, the cells reserved at that time, each agent's trail up to it and its path beyond,
//! the agents, their goals, and the collisions of an independent plan.

use egui::{Color32, ColorImage, Pos2, Rect, Sense, Shape, Stroke, TextureOptions, Vec2};

use super::AgentsLab;
use crate::app::theme;
use crate::pathfinding::mapf::Conflict;
use crate::pathfinding::mapf::replay::AgentsView;

/// Agents' colours, in turn: distinct hues readable on both themes.
const AGENT_COLOURS: [Color32; 8] = [
    Color32::from_rgb(230, 159, 0),
    Color32::from_rgb(86, 180, 233),
    Color32::from_rgb(0, 158, 115),
    Color32::from_rgb(204, 121, 167),
    Color32::from_rgb(213, 94, 0),
    Color32::from_rgb(0, 114, 178),
    Color32::from_rgb(240, 228, 66),
    Color32::from_rgb(150, 110, 220),
];

/// Collisions, in a red no agent wears.
pub const COLLISION: Color32 = Color32::from_rgb(235, 30, 45);

/// The states the shown search expanded (free cells only): the closed colour paled towards the
/// floor, so the agents' lines stand out over it; opaque, so the legend's swatch is the same.
pub fn expanded_colour(palette: &theme::Palette) -> Color32 {
    palette.unseen.lerp_to_gamma(palette.closed, 0.55)
}

pub fn agent_colour(agent: usize) -> Color32 {
    AGENT_COLOURS[agent % AGENT_COLOURS.len()]
}

/// The view reaches this many cells beyond what the agents use, and shows at least this many a side.
const MARGIN: f32 = 2.0;
const LEAST_VIEW: f32 = 16.0;

/// Where the map is drawn: its rect, the cell at its top-left corner and points per cell.
#[derive(Clone, Copy)]
struct Frame {
    rect: Rect,
    origin: Vec2,
    cell: f32,
}

impl Frame {
    fn centre(self, [x, y]: [u32; 2]) -> Pos2 {
        self.rect.min + (Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - self.origin) * self.cell
    }

    fn square(self, [x, y]: [u32; 2], shrink: f32) -> Rect {
        let min = self.rect.min + (Vec2::new(x as f32, y as f32) - self.origin) * self.cell;
        Rect::from_min_size(min, Vec2::splat(self.cell)).shrink(shrink * self.cell)
    }
}

impl AgentsLab {
    /// The map `size` at most, its shape kept; returns the rect drawn.
    /// The part of the map around the agents (see [`Self::shown_cells`]) fills it.
    pub(super) fn canvas(&mut self, ui: &mut egui::Ui, size: Vec2) -> Rect {
        let cells = self.shown_cells(size);
        let cell = (size.x / cells.width()).min(size.y / cells.height()).max(0.1);
        let (outer, _) = ui.allocate_exact_size(size, Sense::hover());
        let rect = Rect::from_center_size(outer.center(), cells.size() * cell);
        let frame = Frame { rect, origin: cells.min.to_vec2(), cell };
        let palette = theme::palette(ui.ctx());
        ui.painter_at(outer).rect_filled(outer, 0.0, palette.background);
        let painter = ui.painter_at(rect);
        let texture = self.map_texture(ui.ctx(), palette.wall, palette.unseen);
        let map = Vec2::new(self.grid.width() as f32, self.grid.height() as f32);
        let uv = Rect::from_min_max((cells.min.to_vec2() / map).to_pos2(), (cells.max.to_vec2() / map).to_pos2());
        painter.image(texture, rect, uv, Color32::WHITE);
        let Some(shown) = &self.shown else { return rect };
        let view = shown.player.view();
        for &[x, y, _] in &view.expanded {
            painter.rect_filled(frame.square([x, y], 0.0), 0.0, expanded_colour(&palette));
        }
        for (agent, at) in view.reserved_at(self.time) {
            painter.rect_stroke(
                frame.square(at, 0.12),
                0.0,
                Stroke::new((cell * 0.12).max(1.5), agent_colour(agent)),
                egui::StrokeKind::Inside,
            );
        }
        self.paint_agents(&painter, frame, view);
        paint_conflicts(&painter, frame, &view.conflicts, self.time);
        rect
    }

    /// The cells shown, as a rect in cells: the agents' starts, goals and planned paths with a
    /// margin, at least [`LEAST_VIEW`] a side, in the canvas's shape where the map allows, within
    /// the map. Two agents crossing a corner of a large map then fill the canvas.
    fn shown_cells(&self, canvas: Vec2) -> Rect {
        let map = Vec2::new(self.grid.width() as f32, self.grid.height() as f32);
        let whole = Rect::from_min_size(Pos2::ZERO, map);
        let corner = |(x, y): (u32, u32)| Pos2::new(x as f32, y as f32);
        let mut used = Rect::NOTHING;
        for agent in &self.agents {
            used.extend_with(corner(agent.start));
            used.extend_with(corner(agent.goal));
        }
        let paths = self.shown.iter().flat_map(|shown| shown.plan.agents.iter().filter_map(|a| a.path.as_ref()));
        for &cell in paths.flatten() {
            used.extend_with(corner(self.grid.coords(cell)));
        }
        if !used.is_finite() || canvas.y <= 0.0 {
            return whole;
        }
        let used = Rect::from_min_max(used.min, used.max + Vec2::splat(1.0)).expand(MARGIN);
        let aspect = canvas.x / canvas.y;
        let mut size = used.size().max(Vec2::splat(LEAST_VIEW));
        if size.x < size.y * aspect {
            size.x = size.y * aspect;
        } else {
            size.y = size.x / aspect;
        }
        let size = size.min(map);
        let min = (used.center() - size / 2.0).clamp(Pos2::ZERO, (map - size).to_pos2());
        Rect::from_min_size(min, size)
    }

    /// Each agent's goal, trail up to the time, path after it (faint), and the agent itself.
    fn paint_agents(&self, painter: &egui::Painter, frame: Frame, view: &AgentsView) {
        let last = view.last_time();
        let line = (frame.cell * 0.18).clamp(1.5, 5.0);
        let radius = (frame.cell * 0.42).max(4.0);
        for (agent, a) in self.agents.iter().enumerate() {
            let colour = agent_colour(agent);
            // The goal as a ring the agent's size, so it shows on a large map too.
            let ring = Stroke::new(line.max(2.0), colour);
            painter.circle_stroke(frame.centre([a.goal.0, a.goal.1]), radius.max(6.0), ring);
            // From t = 0 on once the agent has a path (its first one starts then): t indexes them.
            let points: Vec<Pos2> =
                view.positions(agent, 0..=last.max(self.time)).into_iter().map(|at| frame.centre(at)).collect();
            let at = points.get(self.time as usize).copied().unwrap_or(frame.centre([a.start.0, a.start.1]));
            let now = (self.time as usize + 1).min(points.len());
            let (past, future) = (points[..now].to_vec(), points[now.saturating_sub(1)..].to_vec());
            painter.add(Shape::line(future, Stroke::new(line * 0.6, colour.gamma_multiply(0.45))));
            painter.add(Shape::line(past, Stroke::new(line, colour)));
            painter.circle(at, radius, colour, Stroke::new(1.5, Color32::BLACK));
            if radius >= 7.0 {
                let font = egui::FontId::proportional((radius * 1.3).min(22.0));
                let number = (agent + 1).to_string();
                painter.text(at, egui::Align2::CENTER_CENTER, number, font, Color32::BLACK);
            }
        }
    }

    /// The map's walls and free cells, one texel per cell, made again for a new map or theme.
    fn map_texture(&mut self, ctx: &egui::Context, wall: Color32, free: Color32) -> egui::TextureId {
        let key = (self.map_version, wall, free);
        if let Some((texture, made_for)) = &self.texture
            && *made_for == key
        {
            return texture.id();
        }
        let (width, height) = (self.grid.width() as usize, self.grid.height() as usize);
        let pixels =
            (0..width * height).map(|cell| if self.grid.is_cell_passable(cell as u32) { free } else { wall }).collect();
        let image = ColorImage::new([width, height], pixels);
        let texture = ctx.load_texture("agents map", image, TextureOptions::NEAREST);
        let id = texture.id();
        self.texture = Some((texture, key));
        id
    }
}

/// The collisions: a ring on a shared cell, a bar across a swapped edge; thicker at the time shown.
fn paint_conflicts(painter: &egui::Painter, frame: Frame, conflicts: &[Conflict], time: u32) {
    let colour = COLLISION;
    for conflict in conflicts {
        let (centre, t) = match *conflict {
            Conflict::Vertex { cell: (x, y), t, .. } => (frame.centre([x, y]), t),
            Conflict::Edge { from: (fx, fy), to: (tx, ty), t, .. } => {
                (frame.centre([fx, fy]).lerp(frame.centre([tx, ty]), 0.5), t)
            }
        };
        let width = if t == time || t + 1 == time && matches!(conflict, Conflict::Edge { .. }) { 4.0 } else { 2.0 };
        let radius = (frame.cell * 0.9).max(8.0);
        painter.circle_stroke(centre, radius, Stroke::new(width, colour));
        let d = radius * 0.7;
        painter.line_segment([centre - Vec2::splat(d), centre + Vec2::splat(d)], Stroke::new(width, colour));
        painter.line_segment([centre + Vec2::new(-d, d), centre + Vec2::new(d, -d)], Stroke::new(width, colour));
    }
}
