//! What the grid lesson says at each step: one sentence on the event just replayed, with the
//! numbers read from the replayed state (as the polygon page narrates its search). The planner's
//! steps (HPA*, PRA*) read their searches' events through the same sentences.

use super::GridLab;
use crate::grid::Grid;
use crate::pathfinding::registry::{Key, Order};
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchSnapshot};
#[cfg(test)]
use crate::pathfinding::{Algorithm, GridSearch};
use crate::trace::NO_NODE;

/// A grid cell as the canvas shows it: (x, y).
pub fn cell_name(grid: &Grid, cell: u32) -> String {
    let (x, y) = grid.coords(cell);
    format!("({x},{y})")
}

/// A cost, to the statistics' three decimals (one number reads the same everywhere); unreached reads as ∞.
fn cost(value: f64) -> String {
    if value.is_finite() { format!("{value:.3}") } else { "∞".to_string() }
}

/// The sentence for `event`, the last event applied to `view`; `name` names a node, and a path
/// is counted in cells `on_grid`, else in nodes.
pub fn sentence(
    event: &SearchEvent,
    view: &SearchSnapshot,
    order: Order,
    name: &dyn Fn(u32) -> String,
    on_grid: bool,
) -> String {
    let g_of = |node: u32| view.node(node).g;
    match *event {
        SearchEvent::Open { node, parent, g, h } if parent == NO_NODE => match order.key {
            Key::Arrival => format!("Start {}: the queue holds it alone, g = 0.", name(node)),
            key => format!("Start {}: the open list holds it alone, {}.", name(node), priority(key, g, h)),
        },
        SearchEvent::Open { node, parent, g, h } => match order.key {
            Key::Arrival => {
                format!("{} joins the back of the queue: g = {}, parent {}.", name(node), cost(g), name(parent))
            }
            key => format!("{} goes on the open list: {}, parent {}.", name(node), priority(key, g, h), name(parent)),
        },
        SearchEvent::Expand { node } => {
            let record = view.node(node);
            let what = if order.jumps { "jump point " } else { "" };
            match (order.key, order.priority_name()) {
                (Key::F { weight }, _) => format!(
                    "Expand {what}{}: the lowest f on the open list, f = {} = g {} + {} {}.",
                    name(node),
                    cost(record.f()),
                    cost(record.g),
                    weighted_h(weight),
                    cost(record.h)
                ),
                (key, Some(lowest)) => format!(
                    "Expand {what}{}: the lowest {lowest} on the open list, {}.",
                    name(node),
                    priority(key, record.g, record.h)
                ),
                (_, None) => format!("Expand {}: the front of the queue, g = {}.", name(node), cost(record.g)),
            }
        }
        SearchEvent::Relax { node, g, improved } => {
            // A relax changes nothing in the snapshot: the neighbour's record is still the old one.
            let old = g_of(node);
            let from =
                view.current.map_or_else(String::new, |u| format!(" ({} + step {})", cost(g_of(u)), cost(g - g_of(u))));
            match (order, improved) {
                (Order { jumps: true, .. }, false) => format!(
                    "The scan from jump point {} passes {} at g = {}: not a jump point, or no better.",
                    view.current.map_or_else(String::new, name),
                    name(node),
                    cost(g)
                ),
                (Order { first_route_only: true, label, .. }, false) => {
                    format!("Neighbour {}: already seen (g = {}), {label} skips it.", name(node), cost(old))
                }
                (_, false) => format!(
                    "Neighbour {}: g would be {}{from}, not below its g = {}; no change.",
                    name(node),
                    cost(g),
                    cost(old)
                ),
                (_, true) if view.node(node).status == NodeStatus::Unseen => {
                    format!("Neighbour {}: first reached, g = {}{from}; parent set.", name(node), cost(g))
                }
                (_, true) => {
                    format!("Neighbour {}: g improves from {} to {}{from}; parent set.", name(node), cost(old), cost(g))
                }
            }
        }
        SearchEvent::Found { cost: total, ref path } => format!(
            "The goal {} is reached: a path of cost {} through {}, read back along the parents.",
            path.last().map_or_else(String::new, |&goal| name(goal)),
            cost(total),
            if on_grid {
                crate::text::counted(path.len(), "cell", "cells")
            } else {
                crate::text::counted(path.len(), "node", "nodes")
            }
        ),
        SearchEvent::Exhausted => {
            "The open list is empty and the goal was never reached: there is no path.".to_string()
        }
    }
}

impl GridLab {
    /// The sentence under the replay bar: the planner's step while stepping through it, else the
    /// search's (both searches' when comparing).
    pub(super) fn narration(&self) -> String {
        if let Some(text) = self.hierarchy.narration(&self.grid, &self.settings.hierarchy) {
            return text;
        }
        let name = |node: u32| cell_name(&self.grid, node);
        let one = |replay: &super::SearchReplay| match replay.player.current_event() {
            _ if replay.player.is_empty() && self.refused.is_some() => {
                "Nothing to replay: the search was refused (the message above says why).".to_string()
            }
            _ if replay.player.is_empty() => "Nothing to replay yet.".to_string(),
            None => "Press Step > to begin.".to_string(),
            Some(event) => sentence(event, replay.player.view(), replay.search.order(), &name, true),
        };
        match self.replays.as_slice() {
            [left, right] => format!("Left: {}\nRight: {}", one(left), one(right)),
            replays => replays.iter().map(one).collect(),
        }
    }
}

fn weighted_h(weight: f64) -> String {
    if weight > 1.0 { format!("w·h (w = {weight:.1})") } else { "h".to_string() }
}

/// A node's priority as the open list reads it, from its g and its (weighted) h: "g = 3.000",
/// "f = g 3.000 + h 2.000 = 5.000", "h = 2.000 (g = 3.000)".
fn priority(key: Key, g: f64, h: f64) -> String {
    match key {
        Key::Arrival | Key::G => format!("g = {}", cost(g)),
        Key::F { weight } => format!("f = g {} + {} {} = {}", cost(g), weighted_h(weight), cost(h), cost(g + h)),
        Key::H => format!("h = {} (g = {})", cost(h), cost(g)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;
    use crate::pathfinding::{Heuristic, SearchSpace};
    use crate::trace::{Player, Recorder};

    /// The first event of `kind` at or after step `from` of a recorded search, replayed to just after it.
    fn replayed_to(search: GridSearch, kind: fn(&SearchEvent) -> bool, from: usize) -> (Grid, Player<SearchSnapshot>) {
        let grid = generate::maze(24, 24, 2, 7);
        let cells = grid.passable_cells();
        let mut recorder = Recorder::default();
        search.run(&grid, cells[0], *cells.last().unwrap(), &mut SearchSpace::new(), &mut recorder);
        let mut player = Player::new(recorder.finish(), SearchSnapshot::new(grid.cell_count()));
        let at = player.trace().events.iter().skip(from).position(kind).expect("such an event") + from;
        player.seek(at + 1);
        (grid, player)
    }

    fn numbers(values: &[f64]) -> Vec<String> {
        values.iter().map(|v| format!("{v:.3}")).collect()
    }

    #[test]
    fn an_astar_expansion_names_the_node_and_its_f_g_h_from_the_state() {
        for (algorithm, weight) in [(Algorithm::Astar, 1.0), (Algorithm::Astar, 2.5), (Algorithm::Jps, 1.0)] {
            let search = GridSearch { algorithm, weight, heuristic: Heuristic::Octile, ..GridSearch::default() };
            let (grid, player) = replayed_to(search, |e| matches!(e, SearchEvent::Expand { .. }), 40);
            let view = player.view();
            let node = view.current.unwrap();
            let record = view.node(node);
            let text = sentence(player.current_event().unwrap(), view, search.order(), &|n| cell_name(&grid, n), true);
            let (x, y) = grid.coords(node);
            assert!(text.contains(&format!("({x},{y})")), "{text}");
            for number in numbers(&[record.f(), record.g, record.h]) {
                assert!(text.contains(&number), "{number} missing from {text}");
            }
            assert_eq!(text.contains("w = 2.5"), weight > 1.0, "{text}");
        }
    }

    #[test]
    fn an_improving_relax_tells_the_old_and_new_g_and_the_open_that_follows_the_parent() {
        // Dijkstra on a maze with weights: some neighbour is improved after it was first reached.
        let search = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
        let grid_events = |e: &SearchEvent| matches!(e, SearchEvent::Relax { improved: true, .. });
        let (grid, mut player) = replayed_to(search, grid_events, 30);
        let Some(&SearchEvent::Relax { node, g, .. }) = player.current_event() else { unreachable!() };
        let view = player.view();
        let (old, parent_g) = (view.node(node).g, view.node(view.current.unwrap()).g);
        let text = sentence(player.current_event().unwrap(), view, search.order(), &|n| cell_name(&grid, n), true);
        assert!(text.contains(&cell_name(&grid, node)), "{text}");
        let expected = if old.is_finite() { numbers(&[old, g, parent_g]) } else { numbers(&[g, parent_g]) };
        for number in expected {
            assert!(text.contains(&number), "{number} missing from {text}");
        }
        // The next event opens the node: its parent is the node being expanded.
        player.seek(player.step() + 1);
        let text =
            sentence(player.current_event().unwrap(), player.view(), search.order(), &|n| cell_name(&grid, n), true);
        let record = player.view().node(node);
        assert!(text.contains(&format!("parent {}", cell_name(&grid, record.parent))), "{text}");
        assert!(text.contains(&format!("g = {:.3}", record.g)), "{text}");
    }

    #[test]
    fn a_grid_path_is_counted_in_cells_as_the_statistics_count_it() {
        let (grid, player) = replayed_to(GridSearch::default(), |e| matches!(e, SearchEvent::Found { .. }), 0);
        let Some(SearchEvent::Found { path, .. }) = player.current_event() else { unreachable!() };
        let text = sentence(
            player.current_event().unwrap(),
            player.view(),
            GridSearch::default().order(),
            &|n| cell_name(&grid, n),
            true,
        );
        assert!(text.contains(&format!("through {} cells", path.len())), "{text}");
    }

    #[test]
    fn bfs_reads_as_a_queue() {
        let search = GridSearch { algorithm: Algorithm::Bfs, ..GridSearch::default() };
        let (grid, player) = replayed_to(search, |e| matches!(e, SearchEvent::Expand { .. }), 10);
        let view = player.view();
        let text = sentence(player.current_event().unwrap(), view, search.order(), &|n| cell_name(&grid, n), true);
        let node = view.current.unwrap();
        assert!(text.contains("front of the queue") && text.contains(&cell_name(&grid, node)), "{text}");
        assert!(text.contains(&format!("{:.3}", view.node(node).g)), "{text}");
    }
}
