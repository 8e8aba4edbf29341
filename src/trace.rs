//! One stepping mechanism for every algorithm.
//!
//! An algorithm is generic over a [`Tracer`]. With [`NoTrace`] every `record` call is an empty inline
//! function whose event-building closure is never run, so full-speed runs and benchmarks pay nothing.
//! With a [`Recorder`] the same code yields a [`Trace`]; a [`Player`] replays it forward and backward to
//! any step, rebuilding the visual state through a [`Replay`] implementation (one per event family:
//! [`SearchSnapshot`] for best-first graph search here, game-tree views in `adversarial`).
//!
//! The tracer also steers: at each unit of work (a node expanded or entered, a playout) the
//! algorithm asks [`Tracer::control`] whether to go on, so a [`Watched`] tracer carries progress and
//! cancellation to and from another thread, for recorded and unrecorded runs alike.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A tracer's answer to a running algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Return as soon as possible; what the algorithm returns then is its best so far.
    Stop,
}

/// Receives the events of a running algorithm.
pub trait Tracer<E> {
    /// False when events are thrown away, so callers can skip work that only feeds events.
    const ENABLED: bool;
    /// `make` runs only when the tracer keeps events.
    fn record(&mut self, make: impl FnOnce() -> E);
    /// Asked once per unit of work: whether to go on.
    #[inline(always)]
    fn control(&mut self) -> Control {
        Control::Continue
    }
}

/// The tracer for full-speed runs: records nothing, costs nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoTrace;

impl<E> Tracer<E> for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _make: impl FnOnce() -> E) {}
}

/// Passes events of one family on to a tracer of another, converted by `convert`: how a
/// hierarchical planner reports the searches it runs on each level.
pub struct Mapped<'a, T, F> {
    inner: &'a mut T,
    convert: F,
}

impl<'a, T, F> Mapped<'a, T, F> {
    pub fn new(inner: &'a mut T, convert: F) -> Self {
        Self { inner, convert }
    }
}

impl<E, Inner, T: Tracer<E>, F: Fn(Inner) -> E> Tracer<Inner> for Mapped<'_, T, F> {
    const ENABLED: bool = T::ENABLED;
    #[inline(always)]
    fn record(&mut self, make: impl FnOnce() -> Inner) {
        let convert = &self.convert;
        self.inner.record(|| convert(make()));
    }
    #[inline(always)]
    fn control(&mut self) -> Control {
        self.inner.control()
    }
}

/// Shared between a running algorithm and the thread watching it: how far the work got, and
/// whether to stop.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    stopped: AtomicBool,
}

impl Progress {
    pub fn add(&self, amount: usize) {
        self.done.fetch_add(amount, Ordering::Relaxed);
    }

    /// The amount of work expected (an upper bound is fine: the bar then ends early).
    pub fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
    }

    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the algorithm to stop at its next unit of work.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Fraction done, if a total is known.
    pub fn fraction(&self) -> Option<f32> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| (self.done() as f32 / total as f32).min(1.0))
    }
}

/// Units of work a [`Watched`] tracer counts before it publishes them and reads the stop flag.
const WATCH_EVERY: usize = 64;

/// Counts units of work on a shared [`Progress`] and answers [`Control::Stop`] once it is stopped;
/// events go on to `inner` (a [`Recorder`], or [`NoTrace`] for a run that keeps none).
pub struct Watched<'a, T> {
    inner: T,
    progress: &'a Progress,
    pending: usize,
    stopped: bool,
}

impl<'a, T> Watched<'a, T> {
    pub fn new(inner: T, progress: &'a Progress) -> Self {
        Self { inner, progress, pending: 0, stopped: false }
    }

    /// True once the watcher answered [`Control::Stop`]: the run ended early.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Publishes the work not yet counted and gives the inner tracer back.
    pub fn into_inner(self) -> T {
        self.progress.add(self.pending);
        self.inner
    }
}

impl<E, T: Tracer<E>> Tracer<E> for Watched<'_, T> {
    const ENABLED: bool = T::ENABLED;
    #[inline(always)]
    fn record(&mut self, make: impl FnOnce() -> E) {
        self.inner.record(make);
    }

    fn control(&mut self) -> Control {
        self.pending += 1;
        if self.pending == WATCH_EVERY {
            self.progress.add(self.pending);
            self.pending = 0;
            self.stopped |= self.progress.is_stopped();
        }
        if self.stopped { Control::Stop } else { self.inner.control() }
    }
}

/// Default number of events a recording keeps before it is truncated.
pub const DEFAULT_EVENT_CAP: usize = 4_000_000;

/// Records events up to a cap; past the cap it drops them and marks the trace truncated.
#[derive(Debug, Clone)]
pub struct Recorder<E> {
    events: Vec<E>,
    cap: usize,
    truncated: bool,
}

impl<E> Recorder<E> {
    pub fn new(cap: usize) -> Self {
        Self { events: Vec::new(), cap, truncated: false }
    }

    pub fn finish(self) -> Trace<E> {
        Trace { events: self.events, truncated: self.truncated }
    }
}

impl<E> Default for Recorder<E> {
    fn default() -> Self {
        Self::new(DEFAULT_EVENT_CAP)
    }
}

impl<E> Tracer<E> for Recorder<E> {
    const ENABLED: bool = true;
    fn record(&mut self, make: impl FnOnce() -> E) {
        if self.events.len() < self.cap {
            self.events.push(make());
        } else {
            self.truncated = true;
        }
    }
}

/// A finished recording. `truncated` means the algorithm went on after the last event kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace<E> {
    pub events: Vec<E>,
    pub truncated: bool,
}

/// A view that events move forward; `apply` returns what `revert` needs to move it back.
pub trait Replay: Clone {
    type Event;
    type Undo;
    fn apply(&mut self, event: &Self::Event) -> Self::Undo;
    fn revert(&mut self, undo: Self::Undo);
    /// Roughly the bytes a copy of the view holds, so the player can space its keyframes (views
    /// that grow large say so).
    fn footprint(&self) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// Keyframes may cost this many bytes per event of the trace they cover.
const KEYFRAME_BYTES_PER_EVENT: usize = 6;
/// Fewer events than this between keyframes would only cost clone time.
const MIN_KEYFRAME_SPACING: usize = 1 << 12;
/// Undo records kept behind the current step: stepping back this far needs no replay.
const UNDO_WINDOW: usize = 1 << 12;

/// Replays a trace into a view; `step` is the number of events applied.
///
/// It keeps no undo record per event: copies of the view (keyframes) are taken while moving
/// forward, spaced so that they cost at most [`KEYFRAME_BYTES_PER_EVENT`] per event, and a seek
/// backward restores the nearest keyframe before the target and replays from there. Only the last
/// [`UNDO_WINDOW`] steps keep undo records, so stepping back one event at a time stays cheap.
pub struct Player<V: Replay> {
    trace: Trace<V::Event>,
    view: V,
    step: usize,
    /// `(step, view at that step)`, in step order; the first is the view before any event.
    keyframes: Vec<(usize, V)>,
    /// Undo records of the steps just before `step`, the newest last.
    undo: std::collections::VecDeque<V::Undo>,
}

impl<V: Replay> Player<V> {
    /// `view` must be the state before the first event.
    pub fn new(trace: Trace<V::Event>, view: V) -> Self {
        let keyframes = vec![(0, view.clone())];
        Self { trace, view, step: 0, keyframes, undo: Default::default() }
    }

    pub fn len(&self) -> usize {
        self.trace.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trace.events.is_empty()
    }

    pub fn step(&self) -> usize {
        self.step
    }

    pub fn at_end(&self) -> bool {
        self.step() == self.len()
    }

    pub fn view(&self) -> &V {
        &self.view
    }

    pub fn trace(&self) -> &Trace<V::Event> {
        &self.trace
    }

    /// The event shown at this step: the last one applied.
    pub fn current_event(&self) -> Option<&V::Event> {
        self.step().checked_sub(1).map(|i| &self.trace.events[i])
    }

    /// Moves to `step` (clamped to the trace length) and returns the step reached.
    pub fn seek(&mut self, step: usize) -> usize {
        let target = step.min(self.len());
        if target < self.step && self.step - target > self.undo.len() {
            let (at, keyframe) = self.keyframes.iter().rev().find(|(at, _)| *at <= target).expect("a keyframe at step 0");
            self.view = keyframe.clone();
            self.step = *at;
            self.undo.clear();
        }
        while self.step > target {
            let undo = self.undo.pop_back().expect("undo records reach back to the target");
            self.view.revert(undo);
            self.step -= 1;
        }
        while self.step < target {
            self.take_keyframe_if_due();
            let undo = self.view.apply(&self.trace.events[self.step]);
            self.step += 1;
            // Far from the target the undo record is never needed: skip the bookkeeping.
            if target - self.step < UNDO_WINDOW {
                if self.undo.len() == UNDO_WINDOW {
                    self.undo.pop_front();
                }
                self.undo.push_back(undo);
            } else {
                self.undo.clear();
            }
        }
        target
    }

    fn take_keyframe_if_due(&mut self) {
        let (last, _) = self.keyframes.last().expect("a keyframe at step 0");
        if self.step <= *last {
            return;
        }
        let spacing = (self.view.footprint() / KEYFRAME_BYTES_PER_EVENT).max(MIN_KEYFRAME_SPACING);
        if self.step - last >= spacing {
            self.keyframes.push((self.step, self.view.clone()));
        }
    }

    pub fn forward(&mut self) -> bool {
        let before = self.step();
        self.seek(before + 1) != before
    }

    pub fn back(&mut self) -> bool {
        let before = self.step();
        before > 0 && self.seek(before - 1) != before
    }
}

/// Marks "no node" in parent links.
pub const NO_NODE: u32 = u32::MAX;

/// Events of best-first search on a graph with nodes `0..n` (grid cells, triangles, abstract nodes).
#[derive(Debug, Clone, PartialEq)]
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
    pub const UNSEEN: NodeRecord =
        NodeRecord { status: NodeStatus::Unseen, g: f64::INFINITY, h: 0.0, parent: NO_NODE };

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
#[derive(Debug, Clone, PartialEq)]
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
}

/// A snapshot before [`SearchSnapshot::clear`]: the nodes it had reached and everything but the nodes.
#[derive(Debug, Clone)]
pub struct ClearedSearch {
    reached: Vec<(u32, NodeRecord)>,
    rest: SearchSnapshot,
}

/// How to take one [`SearchEvent`] back.
#[derive(Debug, Clone)]
pub struct SearchUndo {
    changed: Option<(u32, NodeRecord)>,
    current: Option<u32>,
    relaxing: Option<u32>,
    expanded: usize,
    outcome_set: bool,
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
}

impl Replay for SearchSnapshot {
    type Event = SearchEvent;
    type Undo = SearchUndo;

    fn apply(&mut self, event: &SearchEvent) -> SearchUndo {
        let mut undo = SearchUndo {
            changed: None,
            current: self.current,
            relaxing: self.relaxing,
            expanded: self.expanded,
            outcome_set: false,
        };
        match *event {
            SearchEvent::Open { node, parent, g, h } => {
                let record = NodeRecord { status: NodeStatus::Open, g, h, parent };
                undo.changed = Some((node, self.set(node, record)));
                self.relaxing = Some(node);
            }
            SearchEvent::Expand { node } => {
                let record = NodeRecord { status: NodeStatus::Closed, ..*self.node(node) };
                undo.changed = Some((node, self.set(node, record)));
                self.current = Some(node);
                self.relaxing = None;
                self.expanded += 1;
            }
            SearchEvent::Relax { node, .. } => self.relaxing = Some(node),
            SearchEvent::Found { cost, ref path } => {
                self.outcome = Some(SearchOutcome::Found { cost, path: path.clone() });
                self.relaxing = None;
                undo.outcome_set = true;
            }
            SearchEvent::Exhausted => {
                self.outcome = Some(SearchOutcome::Exhausted);
                self.current = None;
                self.relaxing = None;
                undo.outcome_set = true;
            }
        }
        undo
    }

    fn footprint(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<NodeRecord>()
    }

    fn revert(&mut self, undo: SearchUndo) {
        if let Some((node, record)) = undo.changed {
            self.set(node, record);
        }
        if undo.outcome_set {
            self.outcome = None;
        }
        self.current = undo.current;
        self.relaxing = undo.relaxing;
        self.expanded = undo.expanded;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_marks_truncation_at_cap() {
        let mut rec = Recorder::new(2);
        for node in 0..5 {
            rec.record(|| SearchEvent::Expand { node });
        }
        let trace = rec.finish();
        assert_eq!(trace.events.len(), 2);
        assert!(trace.truncated);
    }

    #[test]
    fn no_trace_never_builds_events() {
        let mut built = false;
        Tracer::<SearchEvent>::record(&mut NoTrace, || {
            built = true;
            SearchEvent::Exhausted
        });
        assert!(!built);
    }

    #[test]
    fn mapped_tracer_converts_and_keeps_no_trace_free() {
        let mut rec: Recorder<(u8, SearchEvent)> = Recorder::new(10);
        Mapped::new(&mut rec, |e| (3, e)).record(|| SearchEvent::Expand { node: 7 });
        assert_eq!(rec.finish().events, vec![(3, SearchEvent::Expand { node: 7 })]);
        assert!(!<Mapped<'_, NoTrace, fn(SearchEvent) -> SearchEvent> as Tracer<SearchEvent>>::ENABLED);
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
