//! Events of best-first search on a graph with nodes `0..n` (grid cells, triangles, abstract nodes)
//! and the snapshot that replays them: each node's status, g, h and parent at any step.

use crate::trace::{NO_NODE, Replay};

/// One step of a best-first search.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum SearchEvent {
    /// `node` enters the open list, for the first time or with a better `g` (parent `NO_NODE` for the start).
    Open { node: u32, parent: u32, g: f64, h: f64 },
    /// `node` leaves the open list and is expanded.
    Expand { node: u32 },
    /// The edge from the expanded node to `node` is examined; `improved` says whether it gave a better `g`.
    Relax { node: u32, g: f64, improved: bool },
    /// The goal was reached: total cost and the node path from start to goal.
    Found { cost: f64, path: Vec<u32> },
    /// The open list ran empty before reaching the goal.
    Exhausted,
}

impl SearchEvent {
    /// The same event with every node id passed through `f` (e.g. abstract node -> grid cell).
    pub fn map_nodes(self, f: impl Fn(u32) -> u32) -> SearchEvent {
        match self {
            SearchEvent::Open { node, parent, g, h } => {
                let parent = if parent == NO_NODE { NO_NODE } else { f(parent) };
                SearchEvent::Open { node: f(node), parent, g, h }
            }
            SearchEvent::Expand { node } => SearchEvent::Expand { node: f(node) },
            SearchEvent::Relax { node, g, improved } => SearchEvent::Relax { node: f(node), g, improved },
            SearchEvent::Found { cost, path } => SearchEvent::Found { cost, path: path.into_iter().map(f).collect() },
            SearchEvent::Exhausted => SearchEvent::Exhausted,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStatus {
    Unseen,
    Open,
    Closed,
}

/// What the search knows about one node at a given step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeRecord {
    pub status: NodeStatus,
    pub g: f64,
    pub h: f64,
    pub parent: u32,
}

impl NodeRecord {
    pub const UNSEEN: NodeRecord = NodeRecord { status: NodeStatus::Unseen, g: f64::INFINITY, h: 0.0, parent: NO_NODE };

    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum SearchOutcome {
    Found { cost: f64, path: Vec<u32> },
    Exhausted,
}

/// The full visual state of a best-first search at one step.
#[derive(Debug, Clone)]
pub struct SearchSnapshot {
    nodes: Vec<NodeRecord>,
    /// The node being expanded.
    pub current: Option<u32>,
    /// The neighbour whose edge is being examined.
    pub relaxing: Option<u32>,
    pub open_count: usize,
    pub closed_count: usize,
    pub expanded: usize,
    pub outcome: Option<SearchOutcome>,
    /// Events applied since the snapshot was new or cleared.
    applied: u32,
    /// The records that events overwrote and cannot tell again (a node opened again, or closed
    /// from a state other than open), with the event's number in `overwritten_at`, in event
    /// order: what lets every event be taken back without an undo record. Entries stay when
    /// stepping back (the same events overwrite the same records again); the first `logged`
    /// belong to the events applied.
    overwritten: Vec<NodeRecord>,
    overwritten_at: Vec<u32>,
    logged: usize,
    /// Taken by [`Replay::prepare`] over a whole trace, for [`Replay::jump`]; shared by copies.
    keyframes: std::sync::Arc<[Keyframe]>,
}

/// The nodes of a [`SearchSnapshot`] at a multiple of its keyframe spacing, 4 bytes a node: each
/// node's status in the top two bits and in the rest the number of the last `Open` event, which
/// tells its g, h and parent again; plus the fields that are not per node.
#[derive(Debug)]
struct Keyframe {
    nodes: Box<[u32]>,
    current: Option<u32>,
    expanded: usize,
    outcome: Option<SearchOutcome>,
}

/// A keyframe word's event number when no event opened the node.
const NOT_OPENED: u32 = (1 << 30) - 1;
/// A keyframe is taken every this many events per node: it costs 4 bytes a node, so keyframes
/// cost at most one byte per event.
const KEYFRAME_EVENTS_PER_NODE: usize = 4;
/// Seeks shorter than this replay event by event: that takes well under a millisecond.
const JUMP_MIN: usize = 1 << 12;

impl NodeStatus {
    fn bits(self) -> u32 {
        match self {
            NodeStatus::Unseen => 0,
            NodeStatus::Open => 1,
            NodeStatus::Closed => 2,
        }
    }

    fn from_bits(bits: u32) -> NodeStatus {
        match bits {
            0 => NodeStatus::Unseen,
            1 => NodeStatus::Open,
            _ => NodeStatus::Closed,
        }
    }
}

impl PartialEq for SearchSnapshot {
    /// The same step of the same search: the overwritten records ahead of it and the keyframes are
    /// not part of what is shown.
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes
            && (self.current, self.relaxing, self.open_count, self.closed_count, self.expanded, self.applied)
                == (other.current, other.relaxing, other.open_count, other.closed_count, other.expanded, other.applied)
            && self.outcome == other.outcome
            && self.overwritten[..self.logged] == other.overwritten[..other.logged]
            && self.overwritten_at[..self.logged] == other.overwritten_at[..other.logged]
    }
}

/// A snapshot before [`SearchSnapshot::clear`]: the nodes it had reached and everything but the nodes.
#[derive(Debug, Clone)]
pub struct ClearedSearch {
    reached: Vec<(u32, NodeRecord)>,
    rest: SearchSnapshot,
}

impl SearchSnapshot {
    pub fn new(node_count: usize) -> Self {
        Self {
            nodes: vec![NodeRecord::UNSEEN; node_count],
            current: None,
            relaxing: None,
            open_count: 0,
            closed_count: 0,
            expanded: 0,
            outcome: None,
            applied: 0,
            overwritten: Vec::new(),
            overwritten_at: Vec::new(),
            logged: 0,
            keyframes: std::sync::Arc::new([]),
        }
    }

    pub fn node(&self, node: u32) -> &NodeRecord {
        &self.nodes[node as usize]
    }

    pub fn nodes(&self) -> &[NodeRecord] {
        &self.nodes
    }

    /// Empties the snapshot for a new search on the same nodes; returns what [`Self::restore`] needs
    /// to bring it back: only the nodes reached, so a planner's many searches stay cheap to undo.
    pub fn clear(&mut self) -> ClearedSearch {
        let reached: Vec<(u32, NodeRecord)> = (0..self.nodes.len() as u32)
            .filter(|&node| self.node(node).status != NodeStatus::Unseen)
            .map(|node| (node, *self.node(node)))
            .collect();
        for &(node, _) in &reached {
            self.nodes[node as usize] = NodeRecord::UNSEEN;
        }
        let nodes = std::mem::take(&mut self.nodes);
        let rest = std::mem::replace(self, SearchSnapshot { nodes, ..SearchSnapshot::new(0) });
        ClearedSearch { reached, rest }
    }

    /// Undoes [`Self::clear`].
    pub fn restore(&mut self, cleared: ClearedSearch) {
        let nodes = std::mem::take(&mut self.nodes);
        *self = SearchSnapshot { nodes, ..cleared.rest };
        for (node, record) in cleared.reached {
            self.nodes[node as usize] = record;
        }
    }

    /// Sets a node's record, keeping the open/closed counts in step.
    fn set(&mut self, node: u32, record: NodeRecord) -> NodeRecord {
        let old = std::mem::replace(&mut self.nodes[node as usize], record);
        for (status, delta) in [(old.status, -1isize), (record.status, 1)] {
            match status {
                NodeStatus::Open => self.open_count = self.open_count.wrapping_add_signed(delta),
                NodeStatus::Closed => self.closed_count = self.closed_count.wrapping_add_signed(delta),
                NodeStatus::Unseen => {}
            }
        }
        old
    }

    /// Sets a node's record for an event; logs the old one unless `inferable` (what
    /// [`Self::take_back`] would rebuild from the event) says it can be told again.
    fn overwrite(&mut self, node: u32, record: NodeRecord, inferable: impl Fn(&NodeRecord) -> bool) {
        let old = self.set(node, record);
        if !inferable(&old) {
            if self.logged == self.overwritten.len() {
                self.overwritten.push(old);
                self.overwritten_at.push(self.applied);
            }
            debug_assert_eq!((self.overwritten_at[self.logged], self.overwritten[self.logged]), (self.applied, old));
            self.logged += 1;
        }
    }

    /// Moves the snapshot back over `event`, the last one applied. `earlier` walks the events of
    /// the same search before it, newest first: the node being relaxed and the one expanded before
    /// are read from them.
    pub fn take_back<'a>(&mut self, event: &SearchEvent, mut earlier: impl Iterator<Item = &'a SearchEvent> + Clone) {
        self.applied -= 1;
        let restore = |snapshot: &mut Self, inferred: NodeRecord| {
            if snapshot.logged > 0 && snapshot.overwritten_at[snapshot.logged - 1] == snapshot.applied {
                snapshot.logged -= 1;
                snapshot.overwritten[snapshot.logged]
            } else {
                inferred
            }
        };
        match *event {
            SearchEvent::Open { node, .. } => {
                let record = restore(self, NodeRecord::UNSEEN);
                self.set(node, record);
            }
            SearchEvent::Expand { node } => {
                let record = restore(self, NodeRecord { status: NodeStatus::Open, ..*self.node(node) });
                self.set(node, record);
                self.expanded -= 1;
            }
            SearchEvent::Relax { .. } => {}
            // An anytime search (TA*) finds shorter paths in turn: the one before shows again.
            SearchEvent::Found { .. } => {
                self.outcome = earlier.clone().find_map(|event| match event {
                    SearchEvent::Found { cost, path } => Some(SearchOutcome::Found { cost: *cost, path: path.clone() }),
                    _ => None,
                })
            }
            SearchEvent::Exhausted => self.outcome = None,
        }
        let previous = earlier.next();
        self.relaxing = match previous {
            Some(&SearchEvent::Open { node, .. } | &SearchEvent::Relax { node, .. }) => Some(node),
            _ => None,
        };
        if matches!(event, SearchEvent::Expand { .. } | SearchEvent::Exhausted) {
            self.current = previous.into_iter().chain(earlier).find_map(|event| match *event {
                SearchEvent::Expand { node } => Some(node),
                _ => None,
            });
        }
    }

    fn keyframe_spacing(&self) -> usize {
        (KEYFRAME_EVENTS_PER_NODE * self.nodes.len()).max(JUMP_MIN)
    }

    fn take_keyframe(&self, last_open: &[u32]) -> Keyframe {
        let nodes =
            self.nodes.iter().zip(last_open).map(|(record, &opened)| record.status.bits() << 30 | opened).collect();
        Keyframe { nodes, current: self.current, expanded: self.expanded, outcome: self.outcome.clone() }
    }

    /// Sets every node from `keyframe`, reading g, h and parent from the `Open` events it names.
    fn restore_keyframe(&mut self, keyframe: &Keyframe, events: &[SearchEvent]) {
        let (mut open, mut closed) = (0, 0);
        for (record, &word) in self.nodes.iter_mut().zip(&keyframe.nodes) {
            let status = NodeStatus::from_bits(word >> 30);
            let opened = word & NOT_OPENED;
            *record = match (status, events.get(opened as usize)) {
                (NodeStatus::Unseen, _) => NodeRecord::UNSEEN,
                (status, Some(&SearchEvent::Open { parent, g, h, .. })) => NodeRecord { status, g, h, parent },
                (status, _) => NodeRecord { status, ..NodeRecord::UNSEEN },
            };
            match status {
                NodeStatus::Open => open += 1,
                NodeStatus::Closed => closed += 1,
                NodeStatus::Unseen => {}
            }
        }
        (self.open_count, self.closed_count) = (open, closed);
        (self.current, self.expanded, self.outcome) = (keyframe.current, keyframe.expanded, keyframe.outcome.clone());
    }

    /// Back to the state before any event of a whole trace (the overwritten records and the
    /// keyframes stay: they are the trace's).
    fn restart(&mut self) {
        self.nodes.fill(NodeRecord::UNSEEN);
        (self.current, self.relaxing, self.outcome) = (None, None, None);
        (self.open_count, self.closed_count, self.expanded, self.applied, self.logged) = (0, 0, 0, 0, 0);
    }

    /// Applies `events` (numbered from `self.applied`) to the nodes and counters alone: what
    /// [`Replay::apply`] does but the overwritten records and the node being relaxed, which a
    /// jump sets once at its end.
    fn fast_forward(&mut self, events: &[SearchEvent]) {
        for event in events {
            match *event {
                SearchEvent::Open { node, parent, g, h } => {
                    self.set(node, NodeRecord { status: NodeStatus::Open, g, h, parent });
                }
                SearchEvent::Expand { node } => {
                    self.set(node, NodeRecord { status: NodeStatus::Closed, ..*self.node(node) });
                    self.current = Some(node);
                    self.expanded += 1;
                }
                SearchEvent::Relax { .. } => {}
                SearchEvent::Found { cost, ref path } => {
                    self.outcome = Some(SearchOutcome::Found { cost, path: path.clone() })
                }
                SearchEvent::Exhausted => {
                    self.outcome = Some(SearchOutcome::Exhausted);
                    self.current = None;
                }
            }
        }
        self.applied += events.len() as u32;
    }
}

impl Replay for SearchSnapshot {
    type Event = SearchEvent;
    /// Events carry what the snapshot cannot tell again: no undo record.
    type Undo = ();
    const NO_UNDO: Option<()> = Some(());
    const JUMPS: bool = true;

    fn apply(&mut self, event: &SearchEvent) {
        match *event {
            SearchEvent::Open { node, parent, g, h } => {
                let record = NodeRecord { status: NodeStatus::Open, g, h, parent };
                self.overwrite(node, record, |old| old.status == NodeStatus::Unseen);
                self.relaxing = Some(node);
            }
            SearchEvent::Expand { node } => {
                let record = NodeRecord { status: NodeStatus::Closed, ..*self.node(node) };
                self.overwrite(node, record, |old| old.status == NodeStatus::Open);
                self.current = Some(node);
                self.relaxing = None;
                self.expanded += 1;
            }
            SearchEvent::Relax { node, .. } => self.relaxing = Some(node),
            SearchEvent::Found { cost, ref path } => {
                self.outcome = Some(SearchOutcome::Found { cost, path: path.clone() });
                self.relaxing = None;
            }
            SearchEvent::Exhausted => {
                self.outcome = Some(SearchOutcome::Exhausted);
                self.current = None;
                self.relaxing = None;
            }
        }
        self.applied += 1;
    }

    /// Replays the whole trace once: that logs every overwritten record, and takes a keyframe
    /// every [`SearchSnapshot::keyframe_spacing`] events; then returns to the start.
    fn prepare(&mut self, events: &[SearchEvent]) {
        let spacing = self.keyframe_spacing();
        // Only traces longer than the spacing take keyframes (most searches open each node about once).
        let mut last_open = if events.len() > spacing { vec![NOT_OPENED; self.nodes.len()] } else { Vec::new() };
        let mut keyframes = Vec::new();
        for (number, event) in events.iter().enumerate() {
            if number > 0 && number % spacing == 0 {
                keyframes.push(self.take_keyframe(&last_open));
            }
            if let SearchEvent::Open { node, .. } = *event
                && let Some(opened) = last_open.get_mut(node as usize)
            {
                *opened = number as u32;
            }
            self.apply(event);
        }
        self.keyframes = keyframes.into();
        self.restart();
    }

    /// From the nearest keyframe at or before `to` (or the start), or from `from` if that lies
    /// between them, applying the events to the nodes alone.
    fn jump(&mut self, events: &[SearchEvent], from: usize, to: usize, replay: Option<usize>) -> bool {
        if replay.is_some_and(|events| events < JUMP_MIN) {
            return false;
        }
        let spacing = self.keyframe_spacing();
        let keyframe = (to / spacing).min(self.keyframes.len());
        if !(keyframe * spacing..=to).contains(&from) {
            match keyframe.checked_sub(1) {
                Some(index) => {
                    let keyframes = std::sync::Arc::clone(&self.keyframes);
                    self.restore_keyframe(&keyframes[index], events);
                }
                None => self.restart(),
            }
            self.applied = (keyframe * spacing) as u32;
        }
        self.fast_forward(&events[self.applied as usize..to]);
        self.relaxing = match to.checked_sub(1).map(|last| &events[last]) {
            Some(&SearchEvent::Open { node, .. } | &SearchEvent::Relax { node, .. }) => Some(node),
            _ => None,
        };
        self.logged = self.overwritten_at.partition_point(|&at| (at as usize) < to);
        true
    }

    fn footprint(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<NodeRecord>()
            + self.overwritten.len() * std::mem::size_of::<(u32, NodeRecord)>()
    }

    fn revert(&mut self, done: &[SearchEvent], (): ()) {
        let (event, earlier) = done.split_last().expect("an event to take back");
        self.take_back(event, earlier.iter().rev());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::pathfinding::{Algorithm, GridSearch, SearchSpace};
    use crate::trace::{Player, Recorder, Trace};
    use proptest::prelude::*;

    const SIDE: u32 = 12;

    /// A recorded search on a `SIDE`-square grid with `walls` blocked, from the first open cell to
    /// the last; weighted A* (w = 3) reopens closed nodes.
    fn recorded(walls: &[bool], algorithm: Algorithm, weight: f64) -> Trace<SearchEvent> {
        let mut grid = Grid::new(SIDE, SIDE);
        for (cell, &wall) in walls.iter().enumerate() {
            grid.set_passable(cell as u32 % SIDE, cell as u32 / SIDE, !wall);
        }
        let open = grid.passable_cells();
        let (start, goal) = (open[0], open[open.len() - 1]);
        let mut recorder = Recorder::default();
        GridSearch { algorithm, weight, ..GridSearch::default() }.run(
            &grid,
            start,
            goal,
            &mut SearchSpace::new(),
            &mut recorder,
        );
        recorder.finish()
    }

    proptest! {
        #[test]
        fn seeks_in_any_order_match_a_replay_from_the_start(
            walls in proptest::collection::vec(proptest::bool::weighted(0.25), (SIDE * SIDE) as usize),
            algorithm in proptest::sample::select(Algorithm::ALL.to_vec()),
            weight in proptest::sample::select(vec![1.0, 3.0]),
            targets in proptest::collection::vec(0.0..=1.0f64, 1..12),
        ) {
            let mut walls = walls;
            walls[0] = false;
            let trace = recorded(&walls, algorithm, weight);
            let len = trace.events.len();
            let mut player = Player::new(trace.clone(), SearchSnapshot::new((SIDE * SIDE) as usize));
            for target in targets.iter().map(|t| (t * len as f64) as usize) {
                player.seek(target);
                let mut fresh = Player::new(trace.clone(), SearchSnapshot::new((SIDE * SIDE) as usize));
                fresh.seek(target);
                prop_assert_eq!(player.view(), fresh.view(), "at step {} of {}", target, len);
            }
        }
    }

    /// Seeks far apart (jumps) land on the view a replay event by event gives, and step back from there.
    fn check_jumps(trace: &Trace<SearchEvent>, node_count: usize) {
        let len = trace.events.len();
        let mut player = Player::new(trace.clone(), SearchSnapshot::new(node_count));
        for target in [len, 3, len - 5, len / 2, 2 * len / 3 + 1, len / 3, len - JUMP_MIN - 1, JUMP_MIN + 1, 1] {
            player.seek(target);
            let mut replayed = SearchSnapshot::new(node_count);
            for event in &trace.events[..target] {
                replayed.apply(event);
            }
            assert_eq!(player.view(), &replayed, "at step {target} of {len}");
            player.back();
            replayed.revert(&trace.events[..target], ());
            assert_eq!(player.view(), &replayed, "one back from step {target}");
        }
    }

    #[test]
    fn jumps_match_a_replay_event_by_event() {
        // Towards a blocked cell both search all they reach; weighted A* reopens closed nodes.
        let grid = crate::grid::generate::random(64, 64, 0.2, 7);
        let cells = grid.passable_cells();
        let start = cells[cells.len() / 2];
        let goal = (0..grid.cell_count() as u32).find(|&cell| !grid.is_cell_passable(cell)).expect("a blocked cell");
        for (algorithm, weight) in [(Algorithm::Astar, 3.0), (Algorithm::Dijkstra, 1.0)] {
            let mut recorder = Recorder::default();
            let search = GridSearch { algorithm, weight, ..GridSearch::default() };
            search.run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
            check_jumps(&recorder.finish(), grid.cell_count());
        }
        // A long trace on few nodes, opening, closing and reopening them in every order, reaches
        // past several keyframes.
        let events = (0..40_000u32)
            .map(|i| {
                let node = i * 7919 % 64;
                match i % 5 {
                    0 | 1 => SearchEvent::Open { node, parent: (node + 1) % 64, g: f64::from(i), h: f64::from(node) },
                    2 => SearchEvent::Expand { node },
                    _ => SearchEvent::Relax { node, g: f64::from(i), improved: false },
                }
            })
            .chain([SearchEvent::Exhausted])
            .collect();
        let trace = Trace { events, truncated: false };
        let mut player = Player::new(trace.clone(), SearchSnapshot::new(64));
        player.seek(1);
        assert!(player.view().keyframes.len() >= 4, "{} keyframes", player.view().keyframes.len());
        check_jumps(&trace, 64);
    }

    #[test]
    fn snapshot_counts_follow_status_changes() {
        let events = vec![
            SearchEvent::Open { node: 0, parent: NO_NODE, g: 0.0, h: 2.0 },
            SearchEvent::Expand { node: 0 },
            SearchEvent::Relax { node: 1, g: 1.0, improved: true },
            SearchEvent::Open { node: 1, parent: 0, g: 1.0, h: 1.0 },
            SearchEvent::Found { cost: 1.0, path: vec![0, 1] },
        ];
        let mut player = Player::new(Trace { events, truncated: false }, SearchSnapshot::new(3));
        player.seek(4);
        let view = player.view();
        assert_eq!((view.open_count, view.closed_count, view.expanded), (1, 1, 1));
        assert_eq!(view.node(1).parent, 0);
        assert_eq!(view.current, Some(0));
        player.seek(5);
        assert!(matches!(player.view().outcome, Some(SearchOutcome::Found { .. })));
        player.seek(0);
        assert_eq!(player.view(), &SearchSnapshot::new(3));
    }
}
