//! The open list beside the canvas: the best entries of the replayed search's open list (node,
//! g, h, f), the one about to be popped first; BFS's queue from its front.

use super::narration::cell_name;
use super::{GridLab, SearchReplay};
use crate::app::widgets;
use crate::pathfinding::registry::Order;
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchSnapshot};

/// Rows the panel shows.
pub const SHOWN: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpenRow {
    pub node: u32,
    pub g: f64,
    pub h: f64,
}

impl OpenRow {
    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

/// The first `count` entries of the open list at the replay's step, in the order the search takes
/// them: BFS's queue from the front; otherwise by f (ties: the lower h, as the heap's key), the
/// node the trace expands next first when it is already open (it is one of the lowest, and the
/// search's own tie-break picked it).
pub fn best_entries(player: &crate::trace::Player<SearchSnapshot>, order: Order, count: usize) -> Vec<OpenRow> {
    let view = player.view();
    let row = |node: u32| {
        let record = view.node(node);
        OpenRow { node, g: record.g, h: record.h }
    };
    let done = &player.trace().events[..player.step()];
    let Some(priority) = order.priority_name().map(|_| |r: &OpenRow| order.priority(r.g, r.h).unwrap_or(0.0)) else {
        return fifo_front(done, view.current).into_iter().take(count).map(row).collect();
    };
    let mut open: Vec<OpenRow> =
        (0..view.nodes().len() as u32).filter(|&node| view.node(node).status == NodeStatus::Open).map(row).collect();
    // The node expanded next goes first; among entries equal in f the search's own order picked it.
    let next = next_expanded(&player.trace().events[player.step()..]);
    let first = next.and_then(|node| open.iter().position(|r| r.node == node)).map(|at| open.swap_remove(at));
    let key = |r: &OpenRow| (priority(r), r.h, r.node);
    let by_key = |a: &OpenRow, b: &OpenRow| key(a).partial_cmp(&key(b)).expect("costs are numbers");
    if open.len() > count {
        open.select_nth_unstable_by(count, by_key);
        open.truncate(count);
    }
    open.sort_unstable_by(by_key);
    open.splice(0..0, first);
    open.truncate(count);
    open
}

/// BFS's queue, front first: every node opened after the one being expanded was (BFS pops in the
/// order it opens, so all before it are gone and none after it is). Read backwards from the step,
/// so it costs the queue's length, not the trace's.
fn fifo_front(done: &[SearchEvent], current: Option<u32>) -> Vec<u32> {
    let mut queue: Vec<u32> = done
        .iter()
        .rev()
        .filter_map(|event| match *event {
            SearchEvent::Open { node, .. } => Some(node),
            _ => None,
        })
        .take_while(|&node| Some(node) != current)
        .collect();
    queue.reverse();
    queue
}

/// The node of the next `Expand` event, if the current expansion has finished opening neighbours.
fn next_expanded(ahead: &[SearchEvent]) -> Option<u32> {
    ahead.iter().find_map(|event| match *event {
        SearchEvent::Expand { node } => Some(node),
        _ => None,
    })
}

/// The rows last shown and the (recording, step) they belong to: a paused replay does not scan
/// the map's nodes every frame.
#[derive(Default)]
pub struct ShownEntries {
    at: Option<(u64, usize)>,
    rows: Vec<OpenRow>,
}

impl GridLab {
    /// The open list's best entries beside the canvas (the left search's when comparing).
    pub(super) fn open_list(&mut self, ui: &mut egui::Ui) {
        let replay: &SearchReplay = &self.replays[0];
        let order = replay.search.order();
        let view = replay.player.view();
        let at = Some((self.replay_id, replay.player.step()));
        if self.open_entries.at != at {
            self.open_entries = ShownEntries { at, rows: best_entries(&replay.player, order, SHOWN) };
        }
        let rows = &self.open_entries.rows;
        let fifo = order.priority_name().is_none();
        if self.replays.len() == 2 {
            ui.weak(format!("The left search's ({})", super::describe(&replay.search)));
        }
        ui.label(match order.priority_name() {
            None => format!("{}'s queue: {} cells, front first", order.label, view.open_count),
            Some(lowest) => format!("{} entries, lowest {lowest} first", view.open_count),
        });
        if rows.is_empty() {
            ui.weak("(empty)");
            return;
        }
        let mut header = vec!["", "cell", "g"];
        if !fifo {
            header.extend(["h", "f"]);
        }
        egui::Grid::new("open-list").striped(true).num_columns(header.len()).show(ui, |ui| {
            for title in &header {
                ui.strong(*title);
            }
            ui.end_row();
            for (index, row) in rows.iter().enumerate() {
                let mut cells = vec![cell_name(&self.grid, row.node), format!("{:.3}", row.g)];
                if !fifo {
                    cells.extend([format!("{:.3}", row.h), format!("{:.3}", row.f())]);
                }
                // The first row is the one the search takes next, while it still runs.
                if index == 0 && view.outcome.is_none() {
                    ui.label(
                        egui::RichText::new("next").background_color(widgets::HIGHLIGHT).color(egui::Color32::BLACK),
                    );
                } else {
                    ui.label(format!("{}", index + 1));
                }
                for cell in cells {
                    ui.monospace(cell);
                }
                ui.end_row();
            }
        });
        if view.open_count > rows.len() {
            ui.weak(format!("… and {} more", view.open_count - rows.len()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;
    use crate::pathfinding::{Algorithm, GridSearch, SearchSpace};
    use crate::trace::{Player, Recorder};
    use std::collections::{HashMap, VecDeque};

    fn player(search: GridSearch) -> Player<SearchSnapshot> {
        let grid = generate::rooms(32, 32, 6, 0.5, 11);
        let cells = grid.passable_cells();
        let mut recorder = Recorder::default();
        search.run(&grid, cells[0], *cells.last().unwrap(), &mut SearchSpace::new(), &mut recorder);
        Player::new(recorder.finish(), SearchSnapshot::new(grid.cell_count()))
    }

    /// The open set at `step`, collected from the events alone: what was opened and not yet expanded.
    fn open_from_events(events: &[SearchEvent]) -> HashMap<u32, (f64, f64)> {
        let mut open = HashMap::new();
        for event in events {
            match *event {
                SearchEvent::Open { node, g, h, .. } => {
                    open.insert(node, (g, h));
                }
                SearchEvent::Expand { node } => {
                    open.remove(&node);
                }
                _ => {}
            }
        }
        open
    }

    #[test]
    fn the_best_entries_are_the_lowest_f_of_the_open_set_and_the_next_expanded_comes_first() {
        for algorithm in [Algorithm::Dijkstra, Algorithm::Astar, Algorithm::Jps] {
            let search = GridSearch { algorithm, weight: 1.0, ..GridSearch::default() };
            let mut player = player(search);
            let expands: Vec<usize> =
                (0..player.len()).filter(|&i| matches!(player.trace().events[i], SearchEvent::Expand { .. })).collect();
            for &step in expands.iter().step_by(7).chain([player.len() / 2].iter()) {
                player.seek(step);
                let shown = best_entries(&player, search.order(), SHOWN);
                let open = open_from_events(&player.trace().events[..step]);
                let mut fs: Vec<f64> = open.values().map(|(g, h)| g + h).collect();
                fs.sort_by(f64::total_cmp);
                assert_eq!(shown.len(), SHOWN.min(open.len()), "{algorithm:?} at {step}");
                // Equal f up to the last bits (sums of √2 steps in another order): the heap's ties.
                let mut shown_fs: Vec<f64> = shown.iter().map(OpenRow::f).collect();
                shown_fs.sort_by(f64::total_cmp);
                for (shown_f, f) in shown_fs.iter().zip(&fs) {
                    assert!(
                        (shown_f - f).abs() < 1e-9,
                        "{algorithm:?} at {step}: {shown_fs:?} are not the lowest {fs:?}"
                    );
                }
                for row in &shown {
                    assert_eq!(
                        open.get(&row.node),
                        Some(&(row.g, row.h)),
                        "{algorithm:?} at {step}: node {}",
                        row.node
                    );
                }
                // Just before an expansion, the marked entry is the node expanded.
                if let SearchEvent::Expand { node } = player.trace().events[step] {
                    assert_eq!(shown[0].node, node, "{algorithm:?} at {step}");
                }
            }
        }
    }

    #[test]
    fn bfs_shows_its_queue_from_the_front() {
        let search = GridSearch { algorithm: Algorithm::Bfs, ..GridSearch::default() };
        let mut player = player(search);
        for step in (0..player.len()).step_by(37) {
            player.seek(step);
            // The queue, simulated from the events: opens go to the back, expansions pop the front.
            let mut queue = VecDeque::new();
            for event in &player.trace().events[..step] {
                match *event {
                    SearchEvent::Open { node, .. } => queue.push_back(node),
                    SearchEvent::Expand { node } => assert_eq!(queue.pop_front(), Some(node)),
                    _ => {}
                }
            }
            let shown: Vec<u32> = best_entries(&player, search.order(), SHOWN).iter().map(|r| r.node).collect();
            let front: Vec<u32> = queue.iter().copied().take(SHOWN).collect();
            assert_eq!(shown, front, "at step {step}");
            assert_eq!(player.view().open_count, queue.len());
        }
    }
}
