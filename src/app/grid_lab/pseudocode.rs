//! The pseudocode of each grid search (Dijkstra, A* and JPS share one text, line 2 differs; BFS
//! has its own), and the line each event belongs to; two searches compared show both lines.

use super::{GridLab, SearchReplay};
use crate::app::widgets;
use crate::pathfinding::Algorithm;
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::NO_NODE;

const BEST_FIRST: [&str; 9] = [
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

/// What `pathfinding::bfs` does: a FIFO queue, a node marked seen once, the goal tested when it
/// is generated (so the node being expanded is not the goal when the path is returned).
const BFS: [&str; 10] = [
    "queue := [start]; mark start seen; g(start) := 0",
    "if start = goal: return the path to start",
    "while the queue is not empty:",
    "    u := take the oldest node from the queue",
    "    for each neighbour v of u:",
    "        if v is not seen:",
    "            mark v seen; g(v) := g(u) + cost(u, v); parent(v) := u",
    "            add v to the back of the queue",
    "            if v = goal: return the path to v",
    "return no path",
];

/// Line 2 of the best-first text is where those algorithms differ: which open node comes next.
fn selection_line(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Dijkstra => "    u := the open node with the lowest g",
        Algorithm::Astar => "    u := the open node with the lowest f = g + w·h",
        Algorithm::Jps => "    u := the open jump point with the lowest f = g + h",
        Algorithm::Bfs => unreachable!("BFS has its own pseudocode"),
    }
}

fn lines(algorithm: Algorithm) -> Vec<&'static str> {
    if algorithm == Algorithm::Bfs {
        return BFS.to_vec();
    }
    let mut lines = BEST_FIRST.to_vec();
    lines[2] = selection_line(algorithm);
    lines
}

/// The pseudocode line of `algorithm` an event belongs to.
fn pseudocode_line(algorithm: Algorithm, event: &SearchEvent) -> usize {
    if algorithm == Algorithm::Bfs {
        return match event {
            SearchEvent::Open { parent, .. } if *parent == NO_NODE => 0,
            SearchEvent::Found { path, .. } if path.len() == 1 => 1,
            SearchEvent::Expand { .. } => 3,
            SearchEvent::Relax { improved: false, .. } => 4,
            SearchEvent::Relax { improved: true, .. } => 5,
            SearchEvent::Open { .. } => 7,
            SearchEvent::Found { .. } => 8,
            SearchEvent::Exhausted => 9,
        };
    }
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

/// Where a best-first search's line goes in the text both sides share when compared, where the
/// selection line is given twice (the left search's, then the right one's): `right` for the second.
fn merged_line(line: usize, right: bool) -> usize {
    match line {
        2 if right => 3,
        0..=2 => line,
        _ => line + 1,
    }
}

impl GridLab {
    /// The current line of each search, in its colour (the statistics' column headers say which
    /// is which).
    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let line =
            |replay: &SearchReplay| replay.player.current_event().map(|e| pseudocode_line(replay.search.algorithm, e));
        let algorithm = |replay: &SearchReplay| replay.search.algorithm;
        match self.replays.as_slice() {
            [left, right] if lines(algorithm(left)) == lines(algorithm(right)) => {
                widgets::pseudocode(ui, lines(algorithm(left)), &[line(left), line(right)]);
            }
            // Dijkstra, A* and JPS differ in how they pick the next node: that line for each.
            [left, right] if ![algorithm(left), algorithm(right)].contains(&Algorithm::Bfs) => {
                let mut text = BEST_FIRST.to_vec();
                text[2] = selection_line(algorithm(left));
                text.insert(3, selection_line(algorithm(right)));
                let current = [line(left).map(|l| merged_line(l, false)), line(right).map(|l| merged_line(l, true))];
                widgets::pseudocode(ui, text, &current);
            }
            // BFS beside a best-first search: two texts.
            [left, right] => {
                for (side, replay) in [left, right].into_iter().enumerate() {
                    ui.label(format!("{}: {}", ["Left", "Right"][side], algorithm(replay).name()));
                    let mut current = [None, None];
                    current[side] = line(replay);
                    widgets::pseudocode(ui, lines(algorithm(replay)), &current);
                }
            }
            replays => {
                let current: Vec<Option<usize>> = replays.iter().map(line).collect();
                widgets::pseudocode(ui, lines(algorithm(&replays[0])), &current);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::pathfinding::{GridSearch, SearchSpace};
    use crate::trace::Recorder;

    fn bfs_events(grid: &Grid, start: u32, goal: u32) -> Vec<SearchEvent> {
        let mut recorder = Recorder::default();
        let search = GridSearch { algorithm: Algorithm::Bfs, ..GridSearch::default() };
        search.run(grid, start, goal, &mut SearchSpace::new(), &mut recorder);
        recorder.finish().events
    }

    /// The BFS line each event is shown on, read against what `bfs` did at that event.
    #[test]
    fn bfs_highlights_the_line_of_the_code_path_each_event_comes_from() {
        let map = |text: &str| crate::grid::movingai::parse_map("test.map", text).unwrap();
        let grid = map("type octile\nheight 4\nwidth 6\nmap\n......\n.@@@@.\n......\n.@....\n");
        let (start, goal) = (grid.cell(0, 0), grid.cell(5, 3));
        let walled = map("type octile\nheight 1\nwidth 3\nmap\n.@.\n");
        let traces = [bfs_events(&grid, start, goal), bfs_events(&grid, start, start), bfs_events(&walled, 0, 2)];
        let text = |event: &SearchEvent| BFS[pseudocode_line(Algorithm::Bfs, event)];
        let mut kinds = std::collections::HashSet::new();
        for events in &traces {
            let mut expanded = None;
            for (index, event) in events.iter().enumerate() {
                let line = text(event);
                match *event {
                    SearchEvent::Open { parent: NO_NODE, .. } => assert!(line.starts_with("queue := [start]")),
                    SearchEvent::Open { .. } => assert!(line.contains("add v to the back of the queue")),
                    SearchEvent::Expand { node } => {
                        expanded = Some(node);
                        assert!(line.contains("take the oldest node"));
                    }
                    SearchEvent::Relax { improved: true, .. } => assert!(line.contains("if v is not seen")),
                    SearchEvent::Relax { improved: false, .. } => assert!(line.contains("for each neighbour v")),
                    SearchEvent::Found { ref path, .. } if index == 1 => {
                        assert_eq!(path, &[start], "found at once only when the start is the goal");
                        assert!(line.contains("if start = goal"));
                    }
                    SearchEvent::Found { ref path, .. } => {
                        // The goal was generated, not expanded: the line is the neighbour's test.
                        let opened_last = events[..index].iter().rev().find_map(|e| match *e {
                            SearchEvent::Open { node, .. } => Some(node),
                            _ => None,
                        });
                        assert_eq!(opened_last, path.last().copied());
                        assert_ne!(expanded, path.last().copied(), "the node expanded is not the goal");
                        assert!(line.contains("if v = goal"));
                    }
                    SearchEvent::Exhausted => assert_eq!(line, "return no path"),
                }
                kinds.insert(std::mem::discriminant(event));
            }
        }
        assert_eq!(kinds.len(), 5, "every kind of event occurs");
        assert!(!BFS.iter().any(|line| line.contains("< g(v)")), "BFS relaxes no g: a node is seen once");
    }
}
