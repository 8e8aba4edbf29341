//! Painting the polygon lesson's canvas: triangles coloured by the replayed search (or by TRA*'s
//! roles), obstacle edges, the path, grid A*'s path, the funnel, the point-location walk and the
//! polygon being drawn.

use egui::emath::TSTransform;
use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke};

use super::{NavmeshLab, ReplayKind};
use crate::app::theme;
use crate::navmesh::funnel::channel_path;
use crate::navmesh::reduction::Role;
use crate::navmesh::walk::WalkEvent;
use crate::navmesh::{Navmesh, Point};
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchOutcome, SearchSnapshot};
use crate::trace::NO_NODE;
use crate::trace::NoTrace;

/// Map coordinates to screen and back: y points up in a polygon map, down (rows) in a grid map.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    pub rect: Rect,
    pub lo: Point,
    pub scale: f32,
    pub y_down: bool,
    /// The student's pan and zoom of the fitted map, relative to the canvas's top-left corner.
    pub view: TSTransform,
}

impl Transform {
    pub fn to_screen(self, p: Point) -> Pos2 {
        let x = (p[0] - self.lo[0]) as f32 * self.scale;
        let dy = (p[1] - self.lo[1]) as f32 * self.scale;
        let fitted = Pos2::new(x, if self.y_down { dy } else { self.rect.height() - dy });
        self.rect.min + (self.view * fitted).to_vec2()
    }

    pub fn to_map(self, p: Pos2) -> Point {
        let fitted = self.view.inverse() * (p - self.rect.min).to_pos2();
        let dy = if self.y_down { fitted.y } else { self.rect.height() - fitted.y };
        [self.lo[0] + (fitted.x / self.scale) as f64, self.lo[1] + (dy / self.scale) as f64]
    }

    /// Screen points per map unit.
    pub fn points_per_unit(self) -> f32 {
        self.scale * self.view.scaling
    }
}

pub(super) fn centre(mesh: &Navmesh, t: u32) -> Point {
    let [a, b, c] = mesh.triangle_points(t);
    [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]
}

impl NavmeshLab {
    pub(super) fn paint(&self, painter: &Painter, at: &Transform) {
        let palette = theme::palette(painter.ctx());
        // The search's colours only in its own replay: the others have their own legends.
        let intervals = self.replay == ReplayKind::Search && self.polyanya();
        let searching = self.replay == ReplayKind::Search && !intervals;
        let empty = SearchSnapshot::new(0);
        let view = if searching { self.player.view() } else { &empty };
        // The funnel is shown over the channel found, wherever the search replay is.
        let channel: &[u32] = match (&view.outcome, self.result.as_ref().and_then(|r| r.path.as_ref())) {
            (_, Some(path)) if self.replay == ReplayKind::Funnel => &path.channel,
            (Some(SearchOutcome::Found { path, .. }), _) => path,
            _ => &[],
        };
        let tra = searching && self.search.algorithm == super::MeshAlgorithm::Tra;
        for (t, tri) in self.mesh.triangles.iter().enumerate() {
            let fill = if !tri.walkable {
                palette.wall
            } else if channel.contains(&(t as u32)) {
                palette.channel
            } else {
                let status = if searching { view.node(t as u32).status } else { NodeStatus::Unseen };
                match (status, tra, self.reduction.roles[t]) {
                    (NodeStatus::Open, ..) => palette.open,
                    (NodeStatus::Closed, ..) => palette.closed,
                    (NodeStatus::Unseen, true, Role::Corridor) => palette.corridor,
                    (NodeStatus::Unseen, true, Role::DeadEnd) => palette.dead_end,
                    (NodeStatus::Unseen, ..) => palette.unseen,
                }
            };
            let points = self.mesh.triangle_points(t as u32).map(|p| at.to_screen(p)).to_vec();
            // Triangles in obstacles are dropped: drawn as solid obstacle, their edges in its colour.
            let edge = if tri.walkable { palette.triangle_edge } else { fill };
            painter.add(Shape::convex_polygon(points, fill, Stroke::new(0.5, edge)));
        }
        for &[a, b] in &self.mesh.obstacle_edges {
            let (a, b) = (self.mesh.vertices[a as usize], self.mesh.vertices[b as usize]);
            painter.line_segment([at.to_screen(a), at.to_screen(b)], Stroke::new(2.5, palette.obstacle_edge));
        }
        if tra {
            for t in (0..self.mesh.triangles.len() as u32).filter(|&t| self.reduction.is_decision(t)) {
                painter.circle_filled(at.to_screen(centre(&self.mesh, t)), 4.0, palette.decision);
            }
        }
        if let Some(current) = view.current {
            let points = self.mesh.triangle_points(current).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::closed_line(points, Stroke::new(2.5, palette.current)));
        }
        if intervals {
            self.paint_intervals(painter, at);
        }
        if self.replay != ReplayKind::Walk && !intervals {
            let best_so_far;
            // Before the end, the best path found so far, as the narration reports it.
            let waypoints: Option<&[Point]> = match &view.outcome {
                _ if self.player.at_end() => {
                    self.result.as_ref().and_then(|r| r.path.as_ref()).map(|path| path.waypoints.as_slice())
                }
                Some(SearchOutcome::Found { path, .. }) if searching => {
                    best_so_far =
                        channel_path(&self.mesh, self.start, self.goal, path, self.search.radius, &mut NoTrace);
                    Some(&best_so_far.waypoints)
                }
                _ => None,
            };
            if let Some(waypoints) = waypoints {
                let points: Vec<Pos2> = waypoints.iter().map(|&p| at.to_screen(p)).collect();
                painter.add(Shape::line(points, Stroke::new(3.0, palette.mesh_path)));
            }
        }
        if let Some((_, centres)) = &self.grid_path {
            let points: Vec<Pos2> = centres.iter().map(|&p| at.to_screen(p)).collect();
            painter.add(Shape::line(points, Stroke::new(2.0, palette.grid_path)));
        }
        match self.replay {
            ReplayKind::Funnel => self.paint_funnel(painter, at),
            ReplayKind::Walk => self.paint_walk(painter, at),
            ReplayKind::Search => {}
        }
        self.paint_numbers(painter, at);
        for (p, colour) in [(self.start, palette.start), (self.goal, palette.goal)] {
            painter.circle_filled(at.to_screen(p), 5.0, colour);
            if self.search.radius > 0.0 {
                painter.circle_stroke(
                    at.to_screen(p),
                    self.search.radius as f32 * at.points_per_unit(),
                    Stroke::new(1.5, colour),
                );
            }
        }
        self.paint_drawing(painter, at);
    }

    /// The funnel at its current step: the corners fixed so far, the portal just added, and the
    /// apex with its left and right chains.
    fn paint_funnel(&self, painter: &Painter, at: &Transform) {
        let palette = theme::palette(painter.ctx());
        let funnel = self.funnel.view();
        let Some(step) = &funnel.step else { return };
        let screen = |points: &[Point]| points.iter().map(|&p| at.to_screen(p)).collect::<Vec<Pos2>>();
        let ends = [step.left.last(), step.right.last()];
        if let [Some(&left), Some(&right)] = ends {
            painter.add(Shape::dashed_line(&screen(&[left, right]), Stroke::new(1.5, palette.portal), 6.0, 4.0));
        }
        let mut fixed = vec![self.start];
        fixed.extend(&funnel.corners);
        painter.add(Shape::line(screen(&fixed), Stroke::new(2.5, palette.apex)));
        for (chain, colour) in [(&step.left, palette.left_side), (&step.right, palette.right_side)] {
            let points = screen(chain);
            for &p in &points[1..] {
                painter.circle_filled(p, 3.5, colour);
            }
            painter.add(Shape::line(points, Stroke::new(2.5, colour)));
        }
        painter.circle_filled(at.to_screen(step.apex), 5.0, palette.apex);
    }

    /// Jump-and-walk locating the goal: the samples, the jump, the triangles walked through.
    fn paint_walk(&self, painter: &Painter, at: &Transform) {
        let palette = theme::palette(painter.ctx());
        let walk = self.walk.view();
        for &t in &walk.samples {
            let points = self.mesh.triangle_points(t).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::closed_line(points, Stroke::new(1.5, palette.sample)));
            painter.circle_filled(at.to_screen(centre(&self.mesh, t)), 3.0, palette.sample);
        }
        for &t in &walk.walked {
            let points = self.mesh.triangle_points(t).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::convex_polygon(
                points,
                palette.walk.gamma_multiply(0.25),
                Stroke::new(1.5, palette.walk),
            ));
        }
        let route: Vec<Pos2> = walk.walked.iter().map(|&t| at.to_screen(centre(&self.mesh, t))).collect();
        painter.add(Shape::line(route, Stroke::new(2.0, palette.walk)));
        if let Some(&last) = walk.walked.last() {
            painter.circle_filled(at.to_screen(centre(&self.mesh, last)), 4.5, palette.walk);
        }
    }

    /// Numbers on the triangles the narration names at this step (and the funnel's portal), so
    /// "triangle 9" can be found on the map.
    fn paint_numbers(&self, painter: &Painter, at: &Transform) {
        let mut triangles = Vec::new();
        match self.replay {
            ReplayKind::Search if self.polyanya() => self.polyanya_numbers(painter, at),
            ReplayKind::Search => match self.player.current_event() {
                Some(&SearchEvent::Open { node, parent, .. }) => {
                    triangles.extend([node, parent].into_iter().filter(|&t| t != NO_NODE))
                }
                Some(&SearchEvent::Expand { node } | &SearchEvent::Relax { node, .. }) => triangles.push(node),
                _ => {}
            },
            ReplayKind::Walk => match self.walk.current_event() {
                Some(
                    &(WalkEvent::Sample { triangle, .. } | WalkEvent::Jump { triangle } | WalkEvent::Step { triangle }),
                ) => triangles.push(triangle),
                Some(&WalkEvent::Found { triangle: Some(triangle) }) => triangles.push(triangle),
                _ => {}
            },
            ReplayKind::Funnel => {
                if let Some(step) = &self.funnel.view().step
                    && let (Some(&left), Some(&right)) = (step.left.last(), step.right.last())
                {
                    let middle = at.to_screen([(left[0] + right[0]) / 2.0, (left[1] + right[1]) / 2.0]);
                    number(painter, middle, &format!("portal {}", step.portal));
                }
            }
        }
        for t in triangles.into_iter().filter(|&t| (t as usize) < self.mesh.triangles.len()) {
            number(painter, at.to_screen(centre(&self.mesh, t)), &t.to_string());
        }
    }

    /// The rings drawn so far (closed) and the one being drawn (open).
    fn paint_drawing(&self, painter: &Painter, at: &Transform) {
        let palette = theme::palette(painter.ctx());
        let Some(drawing) = &self.drawing else { return };
        // The old map fades so the new rings stand out.
        painter.rect_filled(at.rect, 0.0, Color32::from_white_alpha(170));
        for ring in &drawing.rings {
            let points: Vec<Pos2> = ring.iter().map(|&p| at.to_screen(p)).collect();
            painter.add(Shape::closed_line(points, Stroke::new(2.5, palette.drawing)));
        }
        let open: Vec<Pos2> = drawing.current.iter().map(|&p| at.to_screen(p)).collect();
        for &p in &open {
            painter.circle_filled(p, 4.0, palette.drawing);
        }
        painter.add(Shape::line(open, Stroke::new(2.5, palette.drawing)));
        // Named and numbered as the map's validation messages name them ("hole 1 ... vertex 3").
        for (r, ring) in drawing.rings.iter().chain([&drawing.current]).enumerate() {
            for (i, &p) in ring.iter().enumerate() {
                let name = match (r, i) {
                    (0, 0) => "boundary: 0".to_string(),
                    (_, 0) => format!("{}: 0", crate::navmesh::polygon::hole_name(r - 1)),
                    _ => i.to_string(),
                };
                number(painter, at.to_screen(p) + egui::vec2(0.0, -12.0), &name);
            }
        }
    }
}

/// A number (or short name) on the canvas, on a pale plate so it reads on any fill.
pub(super) fn number(painter: &Painter, at: Pos2, text: &str) {
    let galley = painter.layout_no_wrap(text.to_string(), egui::FontId::proportional(13.0), Color32::BLACK);
    let rect = Rect::from_center_size(at, galley.size() + egui::vec2(6.0, 2.0));
    painter.rect_filled(rect, 3.0, Color32::from_white_alpha(220));
    painter.galley(rect.min + egui::vec2(3.0, 1.0), galley, Color32::BLACK);
}
