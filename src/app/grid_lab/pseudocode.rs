//! The pseudocode of BFS, Dijkstra and A* (one text, line 2 differs), and the line each event belongs to.

use super::GridLab;
use crate::app::widgets;
use crate::pathfinding::Algorithm;
use crate::trace::NO_NODE;
use crate::pathfinding::search_trace::SearchEvent;

const PSEUDOCODE: [&str; 9] = [
    "open := {start}; g(start) := 0",
    "while open is not empty:",
    "",
    "    if u = goal: return the path to u",
    "    for each neighbour v of u:",
    "        if g(u) + cost(u, v) < g(v):",
    "            g(v) := g(u) + cost(u, v); parent(v) := u",
    "            add v to open",
    "return no path",
];

/// Line 2 is where the algorithms differ: which open node comes next.
fn selection_line(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Bfs => "    u := the oldest node in open (first in, first out)",
        Algorithm::Dijkstra => "    u := the open node with the lowest g",
        Algorithm::Astar => "    u := the open node with the lowest f = g + w·h",
        Algorithm::Jps => "    u := the open jump point with the lowest f = g + h",
    }
}

/// The pseudocode line an event belongs to.
fn pseudocode_line(event: &SearchEvent) -> usize {
    match event {
        SearchEvent::Open { parent, .. } if *parent == NO_NODE => 0,
        SearchEvent::Expand { .. } => 2,
        SearchEvent::Found { .. } => 3,
        SearchEvent::Relax { improved: false, .. } => 4,
        SearchEvent::Relax { improved: true, .. } => 5,
        SearchEvent::Open { .. } => 7,
        SearchEvent::Exhausted => 8,
    }
}

impl GridLab {
    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let current: Vec<Option<usize>> =
            self.replays.iter().map(|r| r.player.current_event().map(pseudocode_line)).collect();
        let selection = selection_line(self.replays[0].search.algorithm);
        let lines = PSEUDOCODE.iter().enumerate().map(|(index, text)| if index == 2 { selection } else { *text });
        widgets::pseudocode(ui, lines, &current);
        if self.replays.len() == 2 {
            ui.weak("Yellow: the left search's line; blue: the right one's (where they differ).");
        }
    }
}
