//! What the polygon lesson says while it replays: each recording's pseudocode, the line an event
//! belongs to, and a sentence on what the event does.

use super::{NavmeshLab, ReplayKind};
use crate::app::widgets;
use crate::navmesh::Point;
use crate::navmesh::funnel::FunnelEvent;
use crate::navmesh::walk::WalkEvent;
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::NO_NODE;

impl NavmeshLab {
    /// The pseudocode of the selected recording, its current line highlighted.
    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let (lines, current): (&[&str], Option<usize>) = match self.replay {
            // A search that proved its path shortest ends on the loop's test: no channel's f is below it.
            ReplayKind::Search if self.polyanya() => (&super::polyanya::POLYANYA_PSEUDOCODE, self.polyanya_line()),
            ReplayKind::Search if self.proven_shortest() => (&SEARCH_PSEUDOCODE, Some(1)),
            ReplayKind::Search => (&SEARCH_PSEUDOCODE, self.player.current_event().map(search_line)),
            ReplayKind::Funnel => (&FUNNEL_PSEUDOCODE, self.funnel.current_event().map(|e| funnel_line(e, self.goal))),
            ReplayKind::Walk => (&WALK_PSEUDOCODE, self.walk.current_event().map(walk_line)),
        };
        ui.strong(format!("{} pseudocode", self.replay.name()));
        widgets::pseudocode(ui, lines.iter().copied(), &[current]);
    }

    /// What the current line of the selected recording is doing right now, in one sentence.
    pub(super) fn explanation(&self) -> String {
        let (step, len) = self.replay_position();
        if len == 0 {
            return self.nothing_to_replay().to_string();
        }
        if step == 0 {
            return "Press Step > to begin.".to_string();
        }
        let explanation = match self.replay {
            ReplayKind::Search if self.polyanya() && self.intervals.at_end() => {
                self.polyanya_outcome().or_else(|| self.intervals.current_event().map(|e| self.explain_polyanya(e)))
            }
            ReplayKind::Search if self.polyanya() => self.intervals.current_event().map(|e| self.explain_polyanya(e)),
            ReplayKind::Search if self.player.at_end() => {
                self.search_outcome().or_else(|| self.player.current_event().map(|e| self.explain_search(e)))
            }
            ReplayKind::Search => self.player.current_event().map(|e| self.explain_search(e)),
            ReplayKind::Funnel => self.funnel.current_event().map(|e| explain_funnel(e, self.goal)),
            ReplayKind::Walk => self.walk.current_event().map(explain_walk),
        };
        explanation.unwrap_or_default()
    }

    /// The replay is at the end of a search that expanded channels until none could be shorter.
    fn proven_shortest(&self) -> bool {
        self.player.at_end()
            && !self.search.first_path_only
            && self.result.as_ref().is_some_and(|result| result.expanded > 0 && result.path.is_some())
            && !self.player.trace().truncated
    }

    /// What the whole search found, said at the end of its replay in place of its last event
    /// (which may be any expansion): None when it found no path (its last event says so) or its
    /// recording stopped before it did.
    fn search_outcome(&self) -> Option<String> {
        let result = self.result.as_ref().filter(|_| !self.player.trace().truncated)?;
        let path = result.path.as_ref()?;
        let (length, expanded) = (path.length, result.expanded);
        let count = path.channel.len();
        let triangles = crate::text::counted(count, "triangle", "triangles");
        Some(if self.search.first_path_only {
            format!(
                "The search stops at its first path (first-path): length {length:.3} through {triangles}, after {expanded} expansions, not proven the shortest."
            )
        } else if expanded == 0 {
            format!("The goal is in sight of the start: the straight line, length {length:.3}, is the shortest path.")
        } else {
            let first = match result.first_length {
                Some(first) if result.improvements > 1 => format!("; the first path found was {first:.3}"),
                _ => String::new(),
            };
            format!(
                "The search is complete: no open channel has f below {length:.3}, so the path of length {length:.3} through {triangles} \
                 is the shortest ({expanded} expansions{first})."
            )
        })
    }

    pub(super) fn explain_search(&self, event: &SearchEvent) -> String {
        match *event {
            SearchEvent::Open { node, parent, g, h } if parent == NO_NODE => {
                format!("The start lies in triangle {node}: a first channel, f = {:.2}.", g + h)
            }
            SearchEvent::Open { node, parent, g, h } => format!(
                "From triangle {parent} a channel enters triangle {node}: at least {g:.2} travelled, \
                 at least {h:.2} to go, so f = {:.2}. It joins the frontier.",
                g + h
            ),
            SearchEvent::Expand { node } => format!(
                "Triangle {node} ends the channel with the lowest f: its other edges are tried. \
                 A triangle can be reached by several channels, so it may come back."
            ),
            SearchEvent::Found { cost, ref path } => format!(
                "A channel of {} reaches the goal; the funnel makes it a path of length {cost:.3}. \
                 The search goes on until no channel's f is below that.",
                match path.len() {
                    1 => "1 triangle".to_string(),
                    n => format!("{n} triangles"),
                }
            ),
            SearchEvent::Relax { node, .. } => format!("Triangle {node} is looked at again."),
            SearchEvent::Exhausted => {
                "No channel is left: start and goal are not connected for this agent.".to_string()
            }
        }
    }
}

const SEARCH_PSEUDOCODE: [&str; 9] = [
    "open the channel [start triangle]",
    "while some open channel has f < best:",
    "  take the channel c with the lowest f",
    "  if c reaches the goal: best = min(best, funnel(c))",
    "  for each edge e of c's last triangle but its entry:",
    "    skip walls, triangles on c and gaps under 2r",
    "    skip if c's funnel apex was reached shorter",
    "    open c + the triangle across e (f = g + h)",
    "no path (the open list is empty)",
];

fn search_line(event: &SearchEvent) -> usize {
    match event {
        SearchEvent::Open { parent, .. } if *parent == NO_NODE => 0,
        SearchEvent::Expand { .. } => 2,
        SearchEvent::Found { .. } => 3,
        SearchEvent::Relax { .. } => 5,
        SearchEvent::Open { .. } => 7,
        SearchEvent::Exhausted => 8,
    }
}

const FUNNEL_PSEUDOCODE: [&str; 6] = [
    "apex = start; left = right = apex",
    "for each portal (left, right), then the goal:",
    "  narrow a side to the portal's end if it can",
    "  if it crosses the other side: that corner is",
    "    a waypoint and the apex; go on after it",
    "the goal in sight of the apex: the path ends",
];

fn funnel_line(event: &FunnelEvent, goal: Point) -> usize {
    match event {
        FunnelEvent::Step(_) => 2,
        &FunnelEvent::Apex { corner } if corner == goal => 5,
        FunnelEvent::Apex { .. } => 3,
    }
}

fn explain_funnel(event: &FunnelEvent, goal: Point) -> String {
    let at = |p: Point| format!("({:.2}, {:.2})", p[0], p[1]);
    match event {
        FunnelEvent::Step(step) => format!(
            "After portal {} the funnel opens from the apex {}. Its left chain bends round {} corner(s) to {}, \
             its right chain round {} to {}: the shortest paths to the portal's ends. Every straight line \
             between the chains' first legs is free.",
            step.portal,
            at(step.apex),
            step.left.len().saturating_sub(2),
            at(*step.left.last().unwrap_or(&step.apex)),
            step.right.len().saturating_sub(2),
            at(*step.right.last().unwrap_or(&step.apex)),
        ),
        &FunnelEvent::Apex { corner } if corner == goal => {
            format!("The goal {} is in sight of the apex: the path ends there.", at(corner))
        }
        &FunnelEvent::Apex { corner } => format!(
            "The sides crossed: the path must bend round the corner {}. It becomes a waypoint and the new apex.",
            at(corner)
        ),
    }
}

const WALK_PSEUDOCODE: [&str; 4] = [
    "look at k triangles spread over the mesh",
    "jump to the one whose centre is nearest the point",
    "while an edge has the point on its far side: cross it",
    "no such edge: the point lies in this triangle",
];

fn walk_line(event: &WalkEvent) -> usize {
    match event {
        WalkEvent::Sample { .. } => 0,
        WalkEvent::Jump { .. } => 1,
        WalkEvent::Step { .. } => 2,
        WalkEvent::Found { .. } => 3,
    }
}

fn explain_walk(event: &WalkEvent) -> String {
    match *event {
        WalkEvent::Sample { triangle, distance } => {
            format!("Sample triangle {triangle}: its centre is {distance:.2} from the goal.")
        }
        WalkEvent::Jump { triangle } => {
            format!("Triangle {triangle} was the nearest sample; the walk starts there instead of anywhere.")
        }
        WalkEvent::Step { triangle } => {
            format!("The goal is beyond one edge, so the walk crosses it into triangle {triangle}.")
        }
        WalkEvent::Found { triangle: Some(t) } => {
            format!("No edge has the goal beyond it: the goal is in triangle {t}.")
        }
        WalkEvent::Found { triangle: None } => "The walk left the triangulation: the goal is off the map.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::funnel::FunnelView;
    use crate::navmesh::funnel::channel_path;
    use crate::navmesh::search::MeshSearch;
    use crate::navmesh::{Navmesh, load_map_file};
    use crate::trace::{NoTrace, Player, Recorder};

    #[test]
    fn the_funnels_last_step_highlights_the_line_its_narration_tells() {
        let loaded = load_map_file("maps/pillars.json".as_ref()).unwrap();
        let search = MeshSearch::default();
        let mesh = Navmesh::build(&loaded.outline, search.refinement()).unwrap();
        let (start, goal) = ([1.0, 1.0], [39.0, 29.0]);
        let path = search.run(&mesh, None, None, start, goal, &mut NoTrace).unwrap().path.unwrap();
        let mut recorder = Recorder::default();
        channel_path(&mesh, start, goal, &path.channel, 0.0, &mut recorder);
        let mut player = Player::new(recorder.finish(), FunnelView::default());
        player.seek(usize::MAX);
        let last = player.current_event().unwrap();
        assert!(explain_funnel(last, goal).contains("in sight of the apex"));
        assert_eq!(FUNNEL_PSEUDOCODE[funnel_line(last, goal)], "the goal in sight of the apex: the path ends");
        // A corner on the way is the crossing line.
        let corners =
            player.trace().events.iter().filter(|e| matches!(e, FunnelEvent::Apex { corner } if *corner != goal));
        for corner in corners {
            assert_eq!(funnel_line(corner, goal), 3);
        }
    }
}
