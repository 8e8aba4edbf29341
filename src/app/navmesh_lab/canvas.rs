//! Painting the polygon lesson's canvas: triangles coloured by the replayed search (or by TRA*'s
//! roles), obstacle edges, the path, grid A*'s path, the funnel, the point-location walk and the
//! polygon being drawn.

use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke};

use super::{NavmeshLab, ReplayKind};
use crate::navmesh::reduction::Role;
use crate::navmesh::{Navmesh, Point};
use crate::navmesh::walk::WalkEvent;
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchOutcome, SearchSnapshot};
use crate::trace::NO_NODE;

pub const BLOCKED: Color32 = Color32::from_gray(50);
pub const UNSEEN: Color32 = Color32::from_gray(235);
pub const FRONTIER: Color32 = Color32::from_rgb(150, 220, 150);
pub const EXPLORED: Color32 = Color32::from_rgb(160, 185, 235);
pub const CHANNEL: Color32 = Color32::from_rgb(250, 225, 120);
pub const CORRIDOR: Color32 = Color32::from_rgb(215, 225, 245);
pub const DEAD_END: Color32 = Color32::from_gray(200);
pub const DECISION: Color32 = Color32::from_rgb(200, 60, 160);
pub const PATH: Color32 = Color32::from_rgb(230, 120, 20);
pub const GRID_PATH: Color32 = Color32::from_rgb(0, 170, 190);
pub const APEX: Color32 = Color32::from_rgb(120, 60, 20);
/// Not the goal's blue: both show in the funnel replay.
pub const LEFT_SIDE: Color32 = Color32::from_rgb(130, 80, 220);
pub const RIGHT_SIDE: Color32 = Color32::from_rgb(220, 50, 50);
pub const PORTAL: Color32 = Color32::from_rgb(120, 120, 120);
pub const SAMPLE: Color32 = Color32::from_rgb(240, 150, 30);
pub const WALK: Color32 = Color32::from_rgb(150, 40, 200);
pub const DRAWING: Color32 = Color32::from_rgb(20, 140, 90);
pub const CURRENT: Color32 = Color32::from_rgb(220, 40, 40);
pub const START: Color32 = Color32::from_rgb(30, 160, 60);
/// Not the decision points' magenta: both show at once under TRA*.
pub const GOAL: Color32 = Color32::from_rgb(20, 90, 200);

/// Map coordinates to screen and back: y points up in a polygon map, down (rows) in a grid map.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    pub rect: Rect,
    pub lo: Point,
    pub scale: f32,
    pub y_down: bool,
}

impl Transform {
    pub fn to_screen(self, p: Point) -> Pos2 {
        let x = self.rect.min.x + (p[0] - self.lo[0]) as f32 * self.scale;
        let dy = (p[1] - self.lo[1]) as f32 * self.scale;
        Pos2::new(x, if self.y_down { self.rect.min.y + dy } else { self.rect.max.y - dy })
    }

    pub fn to_map(self, p: Pos2) -> Point {
        let dy = if self.y_down { p.y - self.rect.min.y } else { self.rect.max.y - p.y };
        [self.lo[0] + ((p.x - self.rect.min.x) / self.scale) as f64, self.lo[1] + (dy / self.scale) as f64]
    }
}

pub(super) fn centre(mesh: &Navmesh, t: u32) -> Point {
    let [a, b, c] = mesh.triangle_points(t);
    [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]
}

impl NavmeshLab {
    pub(super) fn paint(&self, painter: &Painter, at: &Transform) {
        // The search's colours only in its own replay: the others have their own legends.
        let searching = self.replay == ReplayKind::Search;
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
                BLOCKED
            } else if channel.contains(&(t as u32)) {
                CHANNEL
            } else {
                let status = if searching { view.node(t as u32).status } else { NodeStatus::Unseen };
                match (status, tra, self.reduction.roles[t]) {
                    (NodeStatus::Open, ..) => FRONTIER,
                    (NodeStatus::Closed, ..) => EXPLORED,
                    (NodeStatus::Unseen, true, Role::Corridor) => CORRIDOR,
                    (NodeStatus::Unseen, true, Role::DeadEnd) => DEAD_END,
                    (NodeStatus::Unseen, ..) => UNSEEN,
                }
            };
            let points = self.mesh.triangle_points(t as u32).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::convex_polygon(points, fill, Stroke::new(0.5, Color32::from_gray(150))));
        }
        for &[a, b] in &self.mesh.obstacle_edges {
            let (a, b) = (self.mesh.vertices[a as usize], self.mesh.vertices[b as usize]);
            painter.line_segment([at.to_screen(a), at.to_screen(b)], Stroke::new(2.5, Color32::BLACK));
        }
        if tra {
            for t in (0..self.mesh.triangles.len() as u32).filter(|&t| self.reduction.is_decision(t)) {
                painter.circle_filled(at.to_screen(centre(&self.mesh, t)), 4.0, DECISION);
            }
        }
        if let Some(current) = view.current {
            let points = self.mesh.triangle_points(current).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::closed_line(points, Stroke::new(2.5, CURRENT)));
        }
        if self.replay != ReplayKind::Walk
            && self.player.at_end()
            && let Some(path) = self.result.as_ref().and_then(|r| r.path.as_ref())
        {
            let points: Vec<Pos2> = path.waypoints.iter().map(|&p| at.to_screen(p)).collect();
            painter.add(Shape::line(points, Stroke::new(3.0, PATH)));
        }
        if let Some((_, centres)) = &self.grid_path {
            let points: Vec<Pos2> = centres.iter().map(|&p| at.to_screen(p)).collect();
            painter.add(Shape::line(points, Stroke::new(2.0, GRID_PATH)));
        }
        match self.replay {
            ReplayKind::Funnel => self.paint_funnel(painter, at),
            ReplayKind::Walk => self.paint_walk(painter, at),
            ReplayKind::Search => {}
        }
        self.paint_numbers(painter, at);
        for (p, colour) in [(self.start, START), (self.goal, GOAL)] {
            painter.circle_filled(at.to_screen(p), 5.0, colour);
            if self.search.radius > 0.0 {
                painter.circle_stroke(at.to_screen(p), self.search.radius as f32 * at.scale, Stroke::new(1.5, colour));
            }
        }
        self.paint_drawing(painter, at);
    }

    /// The funnel at its current step: the corners fixed so far, the portal just added, and the
    /// apex with its left and right chains.
    fn paint_funnel(&self, painter: &Painter, at: &Transform) {
        let funnel = self.funnel.view();
        let Some(step) = &funnel.step else { return };
        let screen = |points: &[Point]| points.iter().map(|&p| at.to_screen(p)).collect::<Vec<Pos2>>();
        let ends = [step.left.last(), step.right.last()];
        if let [Some(&left), Some(&right)] = ends {
            painter.add(Shape::dashed_line(&screen(&[left, right]), Stroke::new(1.5, PORTAL), 6.0, 4.0));
        }
        let mut fixed = vec![self.start];
        fixed.extend(&funnel.corners);
        painter.add(Shape::line(screen(&fixed), Stroke::new(2.5, APEX)));
        for (chain, colour) in [(&step.left, LEFT_SIDE), (&step.right, RIGHT_SIDE)] {
            let points = screen(chain);
            for &p in &points[1..] {
                painter.circle_filled(p, 3.5, colour);
            }
            painter.add(Shape::line(points, Stroke::new(2.5, colour)));
        }
        painter.circle_filled(at.to_screen(step.apex), 5.0, APEX);
    }

    /// Jump-and-walk locating the goal: the samples, the jump, the triangles walked through.
    fn paint_walk(&self, painter: &Painter, at: &Transform) {
        let walk = self.walk.view();
        for &t in &walk.samples {
            let points = self.mesh.triangle_points(t).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::closed_line(points, Stroke::new(1.5, SAMPLE)));
            painter.circle_filled(at.to_screen(centre(&self.mesh, t)), 3.0, SAMPLE);
        }
        for &t in &walk.walked {
            let points = self.mesh.triangle_points(t).map(|p| at.to_screen(p)).to_vec();
            painter.add(Shape::convex_polygon(points, WALK.gamma_multiply(0.25), Stroke::new(1.5, WALK)));
        }
        let route: Vec<Pos2> = walk.walked.iter().map(|&t| at.to_screen(centre(&self.mesh, t))).collect();
        painter.add(Shape::line(route, Stroke::new(2.0, WALK)));
        if let Some(&last) = walk.walked.last() {
            painter.circle_filled(at.to_screen(centre(&self.mesh, last)), 4.5, WALK);
        }
    }

    /// Numbers on the triangles the narration names at this step (and the funnel's portal), so
    /// "triangle 9" can be found on the map.
    fn paint_numbers(&self, painter: &Painter, at: &Transform) {
        let mut triangles = Vec::new();
        match self.replay {
            ReplayKind::Search => match self.player.current_event() {
                Some(&SearchEvent::Open { node, parent, .. }) => triangles.extend([node, parent].into_iter().filter(|&t| t != NO_NODE)),
                Some(&SearchEvent::Expand { node } | &SearchEvent::Relax { node, .. }) => triangles.push(node),
                _ => {}
            },
            ReplayKind::Walk => match self.walk.current_event() {
                Some(&(WalkEvent::Sample { triangle, .. } | WalkEvent::Jump { triangle } | WalkEvent::Step { triangle })) => triangles.push(triangle),
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
        let Some(drawing) = &self.drawing else { return };
        // The old map fades so the new rings stand out.
        painter.rect_filled(at.rect, 0.0, Color32::from_white_alpha(170));
        for ring in &drawing.rings {
            let points: Vec<Pos2> = ring.iter().map(|&p| at.to_screen(p)).collect();
            painter.add(Shape::closed_line(points, Stroke::new(2.5, DRAWING)));
        }
        let open: Vec<Pos2> = drawing.current.iter().map(|&p| at.to_screen(p)).collect();
        for &p in &open {
            painter.circle_filled(p, 4.0, DRAWING);
        }
        painter.add(Shape::line(open, Stroke::new(2.5, DRAWING)));
        // Named and numbered as the map's validation messages name them ("hole 0: vertex 3").
        for (r, ring) in drawing.rings.iter().chain([&drawing.current]).enumerate() {
            for (i, &p) in ring.iter().enumerate() {
                let name = match (r, i) {
                    (0, 0) => "boundary: 0".to_string(),
                    (_, 0) => format!("hole {}: 0", r - 1),
                    _ => i.to_string(),
                };
                number(painter, at.to_screen(p) + egui::vec2(0.0, -12.0), &name);
            }
        }
    }
}

/// A number (or short name) on the canvas, on a pale plate so it reads on any fill.
fn number(painter: &Painter, at: Pos2, text: &str) {
    let galley = painter.layout_no_wrap(text.to_string(), egui::FontId::proportional(13.0), Color32::BLACK);
    let rect = Rect::from_center_size(at, galley.size() + egui::vec2(6.0, 2.0));
    painter.rect_filled(rect, 3.0, Color32::from_white_alpha(220));
    painter.galley(rect.min + egui::vec2(3.0, 1.0), galley, Color32::BLACK);
}
