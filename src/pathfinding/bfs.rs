//! Breadth-first search: expands nodes in order of the number of steps from the start.
//!
//! It finds a path with the fewest steps, which is the cheapest one only when every step costs
//! the same; on an octile grid diagonal steps cost more, so BFS is not optimal there. The goal is
//! tested when a node is first generated, as in the textbook version.

use super::search_trace::SearchEvent;
use super::{PathResult, SearchSpace};
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
            return PathResult { path: None, expanded, pushed };
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
        return PathResult { path: None, expanded, pushed };
    }
    let cost = space.g_seen(goal);
    let path = space.path_to(goal);
    if T::ENABLED {
        tracer.record(|| SearchEvent::Found { cost, path: path.clone() });
    }
    PathResult { path: Some((cost, path)), expanded, pushed }
}
