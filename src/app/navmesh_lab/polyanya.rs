//! Polyanya in the polygon lesson: the convex polygons it searches drawn as a layer, its search
//! nodes (intervals with their roots) as they are pushed, expanded, pruned and dropped, its
//! pseudocode with the current line, a sentence per event, and its figures.

use egui::{Color32, Painter, Shape, Stroke};

use super::NavmeshLab;
use super::canvas::{Transform, number};
use crate::app::theme::{self, Palette};
use crate::navmesh::Point;
use crate::navmesh::polyanya_search::{PolyanyaEvent, Pruned, Turn};
use crate::navmesh::polyanya_view::IntervalState;
use crate::navmesh::search::PolygonKind;
use crate::trace::NO_NODE;

pub(super) const POLYANYA_PSEUDOCODE: [&str; 9] = [
    "push the edges of the start's polygon, seen from the start",
    "while the open list is not empty:",
    "  take the node (interval I, root r) with the lowest f",
    "  if I looks into the goal's polygon: the path is found",
    "  drop it if r was reached by a shorter path",
    "  project I from r across the polygon beyond:",
    "    edges in the cone: observable (root r); beside it: round an end",
    "    prune dead ends; push each successor with f = g + h",
    "no path (the open list is empty)",
];

fn polyanya_line(event: &PolyanyaEvent) -> usize {
    match event {
        PolyanyaEvent::Push { parent, .. } if *parent == NO_NODE => 0,
        PolyanyaEvent::Expand { .. } => 5,
        PolyanyaEvent::Found { .. } => 3,
        PolyanyaEvent::Drop { .. } => 4,
        PolyanyaEvent::Push { .. } | PolyanyaEvent::Prune { .. } => 7,
        PolyanyaEvent::Exhausted => 8,
    }
}

fn at(p: Point) -> String {
    format!("({:.2}, {:.2})", p[0], p[1])
}

impl NavmeshLab {
    /// The pseudocode line of the current event of Polyanya's replay.
    pub(super) fn polyanya_line(&self) -> Option<usize> {
        self.intervals.current_event().map(polyanya_line)
    }

    pub(super) fn explain_polyanya(&self, event: &PolyanyaEvent) -> String {
        let nodes = &self.intervals.view().nodes;
        match *event {
            PolyanyaEvent::Push { node, parent, polygon, left, right, root, turn, g, f, immediate } => {
                let how = match turn {
                    Turn::Start => "an edge of the start's polygon, seen from the start".to_string(),
                    Turn::Observable => format!("observable from node {parent}'s root {}: the same root", at(root)),
                    Turn::Left | Turn::Right => format!(
                        "not observable from node {parent}'s root: the path turns round the corner {}, the new root",
                        at(root)
                    ),
                };
                let whither = if immediate {
                    "It is the only successor, so it is expanded at once, without the open list.".to_string()
                } else {
                    "It goes on the open list.".to_string()
                };
                format!(
                    "Node {node}: the interval {}-{} looking into polygon {polygon}, {how}. g = {g:.2} to the root, \
                     h = {:.2} from the root through the interval to the goal, so f = {f:.2}. {whither}",
                    at(left),
                    at(right),
                    f - g
                )
            }
            PolyanyaEvent::Expand { node } => {
                let Some(n) = nodes.get(node as usize) else { return String::new() };
                // The event before names a lone successor, expanded without the open list.
                let before = self.intervals.step().checked_sub(2).and_then(|i| self.intervals.trace().events.get(i));
                let why = match before {
                    Some(PolyanyaEvent::Push { immediate: true, .. }) => "is the only successor",
                    _ => "has the lowest f",
                };
                format!(
                    "Node {node} {why} ({:.2}): its interval is projected from its root {} across polygon {}; \
                     the edges in that cone are observable, those beside it are reached round an interval end that is an obstacle corner.",
                    n.f,
                    at(n.root),
                    n.polygon
                )
            }
            PolyanyaEvent::Prune { polygon, why: Pruned::DeadEnd, .. } => {
                format!("Polygon {polygon} is a dead end (one neighbour) without the goal: no successor goes into it.")
            }
            PolyanyaEvent::Prune { root, why: Pruned::RootDominated, .. } => format!(
                "The corner {} was already reached as a root by a shorter path: this successor is pruned.",
                at(root)
            ),
            PolyanyaEvent::Drop { node } => format!(
                "Node {node} leaves the open list, but its root was reached by a shorter path since: it is dropped unexpanded."
            ),
            PolyanyaEvent::Found { length, ref waypoints } => format!(
                "A node looking into the goal's polygon has the lowest f: its f is a real path, length {length:.3}, \
                 turning at {} corner(s), and no open node can do better.",
                waypoints.len().saturating_sub(2)
            ),
            PolyanyaEvent::Exhausted => "The open list is empty: the start and the goal are not connected.".to_string(),
        }
    }

    /// What Polyanya found, said at the end of its replay.
    pub(super) fn polyanya_outcome(&self) -> Option<String> {
        let view = self.intervals.view();
        let (length, _) = view.found.as_ref().filter(|_| !self.intervals.trace().truncated)?;
        Some(format!(
            "Polyanya is done: the path of length {length:.3} is the shortest, after {} expansions of {} nodes ({} pruned or dropped) \
             on {} {}.",
            view.expanded,
            view.nodes.len(),
            view.pruned_count,
            self.polygons().len(),
            polygons_name(self.search.mesh)
        ))
    }

    pub(super) fn polyanya_stats(&self, ui: &mut egui::Ui) {
        let view = self.intervals.view();
        ui.label(format!("Step {} / {}", self.intervals.step(), self.intervals.len()));
        ui.label(format!(
            "Polygons searched: {} {} (from {} walkable triangles)",
            self.polygons().len(),
            polygons_name(self.search.mesh),
            self.mesh.walkable_count()
        ));
        ui.label(format!(
            "Nodes: {}   open {}   expanded {}   pruned or dropped {}",
            view.nodes.len(),
            view.open_count(),
            view.expanded,
            view.pruned_count
        ));
        ui.label(match (&view.found, view.exhausted) {
            (Some((length, waypoints)), _) => {
                format!("Path found: length {length:.3}, {} waypoints", waypoints.len())
            }
            (None, true) => "No path: the open list ran empty".to_string(),
            (None, false) => "No result yet at this step".to_string(),
        });
    }

    /// The polygons searched, and the replay's intervals: every node's, the one expanded with its
    /// cone from the root, its successors with their f, and what it pruned.
    pub(super) fn paint_intervals(&self, painter: &Painter, to: &Transform) {
        let palette = theme::palette(painter.ctx());
        let polygons = self.polygons();
        for p in 0..polygons.len() as u32 {
            let points = polygons.points(p).map(|q| to.to_screen(q)).collect();
            painter.add(Shape::closed_line(points, Stroke::new(1.5, palette.cluster)));
        }
        let view = self.intervals.view();
        let segment = |a: Point, b: Point, width: f32, colour: Color32| {
            painter.line_segment([to.to_screen(a), to.to_screen(b)], Stroke::new(width, colour));
        };
        for node in &view.nodes {
            match node.state {
                IntervalState::Open => segment(node.left, node.right, 4.0, palette.open),
                IntervalState::Expanded => segment(node.left, node.right, 2.5, palette.closed),
                IntervalState::Dropped => segment(node.left, node.right, 2.5, palette.pruned),
            }
        }
        if let Some(node) = view.current.and_then(|c| view.nodes.get(c as usize)) {
            let cone = vec![to.to_screen(node.root), to.to_screen(node.left), to.to_screen(node.right)];
            painter.add(Shape::convex_polygon(cone, palette.apex.gamma_multiply(0.15), Stroke::NONE));
            segment(node.root, node.left, 1.5, palette.apex);
            segment(node.root, node.right, 1.5, palette.apex);
            segment(node.left, node.right, 5.0, palette.current);
            painter.circle_filled(to.to_screen(node.root), 5.0, palette.apex);
        }
        for pruned in &view.pruned {
            let ends = [to.to_screen(pruned.left), to.to_screen(pruned.right)];
            painter.add(Shape::dashed_line(&ends, Stroke::new(2.5, palette.dead_end), 5.0, 3.0));
        }
        for &s in &view.successors {
            let node = &view.nodes[s as usize];
            let colour = successor_colour(&palette, node.turn);
            segment(node.left, node.right, 4.0, colour);
            painter.circle_filled(to.to_screen(node.root), 4.0, colour);
            let middle = [(node.left[0] + node.right[0]) / 2.0, (node.left[1] + node.right[1]) / 2.0];
            number(painter, to.to_screen(middle), &format!("f={:.1}", node.f));
        }
        if let Some((_, waypoints)) = &view.found {
            let points = waypoints.iter().map(|&p| to.to_screen(p)).collect();
            painter.add(Shape::line(points, Stroke::new(3.0, palette.mesh_path)));
        }
    }

    /// The polygon the narration names at this step, numbered on the map.
    pub(super) fn polyanya_numbers(&self, painter: &Painter, to: &Transform) {
        let polygon = match self.intervals.current_event() {
            Some(&PolyanyaEvent::Push { polygon, .. } | &PolyanyaEvent::Prune { polygon, .. }) => polygon,
            Some(&PolyanyaEvent::Expand { node }) => {
                self.intervals.view().nodes.get(node as usize).map_or(NO_NODE, |n| n.polygon)
            }
            _ => NO_NODE,
        };
        let polygons = self.polygons();
        if (polygon as usize) < polygons.len() {
            let corners: Vec<Point> = polygons.points(polygon).collect();
            let n = corners.len() as f64;
            let centre = corners.iter().fold([0.0, 0.0], |c, p| [c[0] + p[0] / n, c[1] + p[1] / n]);
            number(painter, to.to_screen(centre), &format!("polygon {polygon}"));
        }
    }

    pub(super) fn polyanya_legend(&self, p: &Palette) -> Vec<(Color32, &'static str)> {
        vec![
            (p.cluster, "polygon searched"),
            (p.open, "interval on the open list"),
            (p.closed, "interval expanded"),
            (p.pruned, "interval dropped"),
            (p.current, "interval being expanded"),
            (p.apex, "its root and cone"),
            (p.left_side, "observable successor"),
            (p.smoothed, "successor round a corner"),
            (p.dead_end, "successor pruned"),
            (p.mesh_path, "path"),
        ]
    }
}

fn successor_colour(palette: &Palette, turn: Turn) -> Color32 {
    match turn {
        Turn::Start | Turn::Observable => palette.left_side,
        Turn::Left | Turn::Right => palette.smoothed,
    }
}

fn polygons_name(kind: PolygonKind) -> &'static str {
    match kind {
        PolygonKind::Triangles => "triangles",
        PolygonKind::Merged => "merged convex polygons",
    }
}
