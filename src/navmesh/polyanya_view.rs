//! Polyanya's recording replayed: every search node (an interval with its root) and what became
//! of it, the node being expanded with its successors and the successors pruned, and the result.

use super::Point;
use super::polyanya_search::{PolyanyaEvent, Pruned, Turn};

/// What became of a search node so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalState {
    /// On the open list.
    Open,
    Expanded,
    /// Taken off the open list unexpanded: its root was reached by a shorter path.
    Dropped,
}

/// A search node: the interval `left`–`right` seen from `root`, looking into `polygon`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntervalNode {
    pub parent: u32,
    pub polygon: u32,
    pub left: Point,
    pub right: Point,
    pub root: Point,
    pub turn: Turn,
    pub g: f64,
    pub f: f64,
    pub state: IntervalState,
}

/// A successor pruned before it became a node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrunedInterval {
    pub polygon: u32,
    pub left: Point,
    pub right: Point,
    pub root: Point,
    pub why: Pruned,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolyanyaView {
    /// Every node pushed so far, by id.
    pub nodes: Vec<IntervalNode>,
    /// The node expanded last.
    pub current: Option<u32>,
    /// The nodes the current expansion made (or, before the first, the start's).
    pub successors: Vec<u32>,
    /// The successors the current expansion pruned.
    pub pruned: Vec<PrunedInterval>,
    pub expanded: usize,
    /// Successors pruned and nodes dropped, in all.
    pub pruned_count: usize,
    /// The shortest path's length and waypoints, once found.
    pub found: Option<(f64, Vec<Point>)>,
    pub exhausted: bool,
}

impl PolyanyaView {
    /// Nodes on the open list now.
    pub fn open_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.state == IntervalState::Open).count()
    }
}

/// What stepping back over an event needs beyond the event.
#[derive(Debug, Clone)]
pub enum PolyanyaUndo {
    Push,
    Expand { current: Option<u32>, successors: Vec<u32>, pruned: Vec<PrunedInterval> },
    Prune,
    Drop,
    Found,
    Exhausted,
}

impl crate::trace::Replay for PolyanyaView {
    type Event = PolyanyaEvent;
    type Undo = PolyanyaUndo;

    fn apply(&mut self, event: &PolyanyaEvent) -> PolyanyaUndo {
        match *event {
            PolyanyaEvent::Push { parent, polygon, left, right, root, turn, g, f, .. } => {
                self.successors.push(self.nodes.len() as u32);
                let state = IntervalState::Open;
                self.nodes.push(IntervalNode { parent, polygon, left, right, root, turn, g, f, state });
                PolyanyaUndo::Push
            }
            PolyanyaEvent::Expand { node } => {
                self.expanded += 1;
                self.nodes[node as usize].state = IntervalState::Expanded;
                PolyanyaUndo::Expand {
                    current: self.current.replace(node),
                    successors: std::mem::take(&mut self.successors),
                    pruned: std::mem::take(&mut self.pruned),
                }
            }
            PolyanyaEvent::Prune { polygon, left, right, root, why } => {
                self.pruned_count += 1;
                self.pruned.push(PrunedInterval { polygon, left, right, root, why });
                PolyanyaUndo::Prune
            }
            PolyanyaEvent::Drop { node } => {
                self.pruned_count += 1;
                self.nodes[node as usize].state = IntervalState::Dropped;
                PolyanyaUndo::Drop
            }
            PolyanyaEvent::Found { length, ref waypoints } => {
                self.found = Some((length, waypoints.clone()));
                PolyanyaUndo::Found
            }
            PolyanyaEvent::Exhausted => {
                self.exhausted = true;
                PolyanyaUndo::Exhausted
            }
        }
    }

    fn revert(&mut self, done: &[PolyanyaEvent], undo: PolyanyaUndo) {
        match undo {
            PolyanyaUndo::Push => {
                self.nodes.pop();
                self.successors.pop();
            }
            PolyanyaUndo::Expand { current, successors, pruned } => {
                self.expanded -= 1;
                if let Some(PolyanyaEvent::Expand { node }) = done.last() {
                    self.nodes[*node as usize].state = IntervalState::Open;
                }
                (self.current, self.successors, self.pruned) = (current, successors, pruned);
            }
            PolyanyaUndo::Prune => {
                self.pruned_count -= 1;
                self.pruned.pop();
            }
            PolyanyaUndo::Drop => {
                self.pruned_count -= 1;
                if let Some(PolyanyaEvent::Drop { node }) = done.last() {
                    self.nodes[*node as usize].state = IntervalState::Open;
                }
            }
            PolyanyaUndo::Found => self.found = None,
            PolyanyaUndo::Exhausted => self.exhausted = false,
        }
    }

    fn footprint(&self) -> usize {
        std::mem::size_of::<Self>() + self.nodes.len() * std::mem::size_of::<IntervalNode>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::merge::ConvexMesh;
    use crate::navmesh::polyanya_search::polyanya;
    use crate::navmesh::tastar::MeshQuery;
    use crate::navmesh::{Navmesh, load_map_file};
    use crate::trace::{Player, Recorder};

    /// Stepping to the end counts what the search counted; stepping back to any step gives the
    /// view that replaying up to that step gives.
    #[test]
    fn the_replay_counts_what_the_search_counted_both_ways() {
        let outline = load_map_file("maps/pillars.json".as_ref()).unwrap().outline;
        let mesh = Navmesh::build(&outline, None).unwrap();
        let polygons = ConvexMesh::merged(&mesh);
        let mut recorder = Recorder::default();
        let result = polyanya(&mesh, &polygons, &MeshQuery::new([1.0, 1.0], [39.0, 29.0]), &mut recorder).unwrap();
        let trace = recorder.finish();
        let len = trace.events.len();
        let mut player = Player::new(trace.clone(), PolyanyaView::default());
        player.seek(len);
        let view = player.view().clone();
        assert_eq!(view.expanded, result.expanded);
        assert_eq!(view.pruned_count, result.pruned);
        assert_eq!(view.found.as_ref().map(|f| f.0), result.path.as_ref().map(|p| p.length));
        for step in [len / 2, 3, 0] {
            player.seek(step);
            let mut fresh = Player::new(trace.clone(), PolyanyaView::default());
            fresh.seek(step);
            assert_eq!(player.view(), fresh.view(), "step {step}");
        }
    }
}
