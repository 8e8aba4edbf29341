//! Breadth-first search: expands nodes in order of the number of steps from the start.
//!
//! It finds a path with the fewest steps, which is the cheapest one only when every step costs
//! the same; on an octile grid diagonal steps cost more, so BFS is not optimal there. The goal is
//! tested when a node is first generated, as in the textbook version.

use super::search_trace::SearchEvent;
use super::registry::{GridAlgorithm, Key, Line, Order, Phase};
use super::{GridSearch, PathResult, SearchSpace};
use crate::graph::Graph;
use crate::trace::{Control, NO_NODE, Tracer};

pub fn bfs<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    space.begin(graph.node_count());
    space.discover(start, NO_NODE, 0.0);
    tracer.record(|| SearchEvent::Open { node: start, parent: NO_NODE, g: 0.0, h: 0.0 });
    let mut pushed = 1;
    let mut expanded = 0;
    let mut found = start == goal;
    let mut queue = std::mem::take(&mut space.queue);
    queue.clear();
    queue.push_back(start);
    while !found && let Some(node) = queue.pop_front() {
        space.close(node);
        expanded += 1;
        tracer.record(|| SearchEvent::Expand { node });
        if tracer.control() == Control::Stop {
            space.queue = queue;
            return PathResult { path: None, expanded, pushed, out_of_budget: false };
        }
        let g_node = space.g_seen(node);
        graph.for_each_neighbor(node, |next, step| {
            if found {
                return;
            }
            let fresh = !space.is_seen(next);
            let g = g_node + step;
            tracer.record(|| SearchEvent::Relax { node: next, g, improved: fresh });
            if fresh {
                space.discover(next, node, g);
                pushed += 1;
                tracer.record(|| SearchEvent::Open { node: next, parent: node, g, h: 0.0 });
                queue.push_back(next);
                found = next == goal;
            }
        });
    }
    space.queue = queue;
    if !found {
        tracer.record(|| SearchEvent::Exhausted);
        return PathResult { path: None, expanded, pushed, out_of_budget: false };
    }
    let cost = space.g_seen(goal);
    let path = space.path_to(goal);
    if T::ENABLED {
        tracer.record(|| SearchEvent::Found { cost, path: path.clone() });
    }
    PathResult { path: Some((cost, path)), expanded, pushed, out_of_budget: false }
}

/// BFS in the registry: a FIFO queue, a node marked seen once, the goal tested when generated.
pub struct Bfs;

impl GridAlgorithm for Bfs {
    const ID: &'static str = "bfs";
    const LABEL: &'static str = "BFS";
    /// The goal is tested when it is generated, so the node being expanded is not the goal when
    /// the path is returned.
    const PSEUDOCODE: &'static [Line] = &[
        Line::new("queue := [start]; mark start seen; g(start) := 0", &[Phase::Start]),
        Line::new("if start = goal: return the path to start", &[Phase::StartIsGoal]),
        Line::new("while the queue is not empty:", &[]),
        Line::new("    u := take the oldest node from the queue", &[Phase::Pick]),
        Line::new("    for each neighbour v of u:", &[Phase::Skip]),
        Line::new("        if v is not seen:", &[Phase::Improve]),
        Line::new("            mark v seen; g(v) := g(u) + cost(u, v); parent(v) := u", &[]),
        Line::new("            add v to the back of the queue", &[Phase::Push]),
        Line::new("            if v = goal: return the path to v", &[Phase::Goal]),
        Line::new("return no path", &[Phase::Exhausted]),
    ];

    fn order(_search: &GridSearch) -> Order {
        Order { label: Self::LABEL, key: Key::Arrival, first_route_only: true, jumps: false }
    }

    fn run<T: Tracer<SearchEvent>>(
        search: &GridSearch,
        grid: &crate::grid::Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult {
        bfs(&crate::grid::GridGraph::new(grid, search.rules), start, goal, space, tracer)
    }

    fn suboptimality_reason(search: &GridSearch, weighted_map: bool) -> Option<String> {
        if search.rules.connectivity == crate::grid::Connectivity::Eight {
            Some("BFS minimises the number of steps, not the octile cost".to_string())
        } else if weighted_map {
            Some("BFS ignores cell weights".to_string())
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::pathfinding::registry::line_of;
    use crate::pathfinding::{Algorithm, GridSearch};
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
        let text = |event: &SearchEvent| Bfs::PSEUDOCODE[line_of(Bfs::PSEUDOCODE, event).expect("a line")].text;
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
        assert!(!Bfs::PSEUDOCODE.iter().any(|line| line.text.contains("< g(v)")), "BFS relaxes no g: a node is seen once");
    }
}
