//! One stepping mechanism for every algorithm.
//!
//! An algorithm is generic over a [`Tracer`]. With [`NoTrace`] every `record` call is an empty inline
//! function whose event-building closure is never run, so full-speed runs and benchmarks pay nothing.
//! With a [`Recorder`] the same code yields a [`Trace`]; a [`Player`] replays it forward and backward to
//! any step, rebuilding the visual state through a [`Replay`] implementation. Each event family
//! lives beside its algorithms: best-first search and hierarchical plans in `pathfinding`, game
//! trees and UCT in `adversarial`, the funnel and the walk in `navmesh`.
//!
//! The tracer also steers: at each unit of work (a node expanded or entered, a playout) the
//! algorithm asks [`Tracer::control`] whether to go on, and it tells [`Tracer::best_so_far`] when
//! its answer so far changes, so a [`Watched`] tracer carries progress, the best move so far and
//! cancellation to and from another thread, for recorded and unrecorded runs alike.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

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
    /// Told when the algorithm's answer so far changes (`None`: no answer yet); `make` runs only
    /// for a tracer that passes it on.
    #[inline(always)]
    fn best_so_far(&mut self, _make: impl FnOnce() -> Option<BestSoFar>) {}
}

/// A search's answer so far, for whoever watches it run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestSoFar {
    /// The move's text.
    pub mv: String,
    /// The deepest iteration completed, for searches that deepen (0 for the others).
    pub depth: u32,
    /// Its score for the side to move, for searches that score moves.
    pub score: Option<i32>,
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
    #[inline(always)]
    fn best_so_far(&mut self, make: impl FnOnce() -> Option<BestSoFar>) {
        self.inner.best_so_far(make);
    }
}

/// Shared between a running algorithm and the thread watching it: how far the work got, and
/// whether to stop.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    stopped: AtomicBool,
    best: Mutex<Option<BestSoFar>>,
    /// Told of every change, for a watcher that cannot read this memory (a Web Worker's page).
    listener: Option<fn(&Progress)>,
}

/// A [`Progress`] at one moment, to show it in another memory (the page of a Web Worker).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressReport {
    pub done: usize,
    pub total: usize,
    pub best: Option<BestSoFar>,
}

impl Progress {
    /// A progress that calls `listener` after each change.
    pub fn listened(listener: fn(&Progress)) -> Self {
        Self { listener: Some(listener), ..Self::default() }
    }

    fn changed(&self) {
        if let Some(listener) = self.listener {
            listener(self);
        }
    }

    pub fn add(&self, amount: usize) {
        self.done.fetch_add(amount, Ordering::Relaxed);
        self.changed();
    }

    /// The amount of work expected (an upper bound is fine: the bar then ends early).
    pub fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.changed();
    }

    pub fn report(&self) -> ProgressReport {
        ProgressReport { done: self.done(), total: self.total.load(Ordering::Relaxed), best: self.best_so_far() }
    }

    /// Shows a report of the same work running elsewhere.
    pub fn show(&self, report: ProgressReport) {
        self.done.store(report.done, Ordering::Relaxed);
        self.total.store(report.total, Ordering::Relaxed);
        self.set_best(report.best);
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

    /// The running algorithm's answer so far.
    pub fn best_so_far(&self) -> Option<BestSoFar> {
        self.best.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    fn set_best(&self, best: Option<BestSoFar>) {
        *self.best.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = best;
        self.changed();
    }

    /// Fraction done, if a total is known.
    pub fn fraction(&self) -> Option<f32> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| (self.done() as f32 / total as f32).min(1.0))
    }
}

/// Units of work a [`Watched`] tracer counts before it publishes them and reads the stop flag.
const WATCH_EVERY: usize = 64;

/// Counts units of work on a shared [`Progress`], publishes the best answer so far there and answers
/// [`Control::Stop`] once it is stopped; events go on to `inner` (a [`Recorder`], or [`NoTrace`] for
/// a run that keeps none, as the observer of matches and the computer player).
pub struct Watched<'a, T> {
    inner: T,
    progress: &'a Progress,
    pending: usize,
    stopped: bool,
}

impl<'a, T> Watched<'a, T> {
    /// A search started after the stop answers [`Control::Stop`] at its first unit of work.
    pub fn new(inner: T, progress: &'a Progress) -> Self {
        Self { inner, progress, pending: 0, stopped: progress.is_stopped() }
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

    fn best_so_far(&mut self, make: impl FnOnce() -> Option<BestSoFar>) {
        // The work counted so far goes with the answer, so a watcher sees both from the same moment.
        self.progress.add(std::mem::take(&mut self.pending));
        let best = make();
        self.progress.set_best(best.clone());
        self.inner.best_so_far(|| best);
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
    /// Reserves room for `cap` events (at most [`DEFAULT_EVENT_CAP`]) up front: pages never
    /// written cost no memory, and a growing list would copy its events, briefly holding them twice.
    pub fn new(cap: usize) -> Self {
        Self { events: Vec::with_capacity(cap.min(DEFAULT_EVENT_CAP)), cap, truncated: false }
    }

    pub fn finish(mut self) -> Trace<E> {
        self.events.shrink_to_fit();
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace<E> {
    pub events: Vec<E>,
    pub truncated: bool,
}

/// A view that events move forward; `apply` returns what `revert` needs to move it back beyond the
/// events themselves.
pub trait Replay: Clone {
    type Event;
    type Undo;
    /// `Some` for a view whose events, read backward, carry all that stepping back needs: every
    /// `revert` gets this value, and the player keeps no undo records and no copies of the view.
    const NO_UNDO: Option<Self::Undo> = None;
    fn apply(&mut self, event: &Self::Event) -> Self::Undo;
    /// Takes back the last of `done` (the events applied so far, there to read) given its undo record.
    fn revert(&mut self, done: &[Self::Event], undo: Self::Undo);
    /// Called once with the whole trace before it is replayed: a view that grows (a tree's nodes)
    /// reserves its room here, so that growing never copies it; one that keeps keyframes of its own
    /// takes them here.
    fn prepare(&mut self, _events: &[Self::Event]) {}
    /// True for a view that keeps keyframes of its own and moves with [`Replay::jump`]: the
    /// player then keeps no copies of it.
    const JUMPS: bool = false;
    /// Moves the view from step `from` straight to step `to` if that is quicker than what the
    /// player would replay or revert event by event, `replay` events (`None`: its undo records do
    /// not reach back to `to`, and the view must jump). False leaves it to the player.
    fn jump(&mut self, _events: &[Self::Event], _from: usize, _to: usize, _replay: Option<usize>) -> bool {
        false
    }
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
/// A view may keep keyframes of its own and jump to a step ([`Replay::JUMPS`]). When its events
/// carry what they overwrote ([`Replay::NO_UNDO`]), a seek backward may revert event by event and no
/// undo record is kept. Otherwise only the last [`UNDO_WINDOW`] steps keep undo records, so stepping
/// back one event at a time stays cheap; a seek further back is the view's jump, or restores the
/// nearest of the player's copies of the view (keyframes, taken while moving forward and spaced so
/// that they cost at most [`KEYFRAME_BYTES_PER_EVENT`] per event) and replays from there.
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
    pub fn new(trace: Trace<V::Event>, mut view: V) -> Self {
        view.prepare(&trace.events);
        let keyframes = if V::NO_UNDO.is_some() || V::JUMPS { Vec::new() } else { vec![(0, view.clone())] };
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
        let replay = if target >= self.step {
            Some(target - self.step)
        } else if V::NO_UNDO.is_some() || self.step - target <= self.undo.len() {
            Some(self.step - target)
        } else {
            None
        };
        if V::JUMPS && self.view.jump(&self.trace.events, self.step, target, replay) {
            self.step = target;
            self.undo.clear();
            return target;
        }
        if replay.is_none() {
            let (at, keyframe) =
                self.keyframes.iter().rev().find(|(at, _)| *at <= target).expect("a keyframe at step 0");
            self.view = keyframe.clone();
            self.step = *at;
            self.undo.clear();
        }
        while self.step > target {
            let undo = match V::NO_UNDO {
                Some(undo) => undo,
                None => self.undo.pop_back().expect("undo records reach back to the target"),
            };
            self.view.revert(&self.trace.events[..self.step], undo);
            self.step -= 1;
        }
        while self.step < target {
            self.take_keyframe_if_due();
            let undo = self.view.apply(&self.trace.events[self.step]);
            self.step += 1;
            if V::NO_UNDO.is_some() {
                continue;
            }
            if target - self.step < UNDO_WINDOW {
                // Far from the target the undo record is never needed: skip the bookkeeping.
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
        let Some((last, _)) = self.keyframes.last() else { return };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_marks_truncation_at_cap() {
        let mut rec = Recorder::new(2);
        for event in 0..5u32 {
            rec.record(|| event);
        }
        let trace = rec.finish();
        assert_eq!(trace.events.len(), 2);
        assert!(trace.truncated);
    }

    #[test]
    fn no_trace_never_builds_events() {
        let mut built = false;
        Tracer::<u32>::record(&mut NoTrace, || {
            built = true;
            0
        });
        assert!(!built);
    }

    #[test]
    fn mapped_tracer_converts_and_keeps_no_trace_free() {
        let mut rec: Recorder<(u8, u32)> = Recorder::new(10);
        Mapped::new(&mut rec, |e| (3, e)).record(|| 7);
        assert_eq!(rec.finish().events, vec![(3, 7)]);
        const { assert!(!<Mapped<'_, NoTrace, fn(u32) -> u32> as Tracer<u32>>::ENABLED) };
    }

    /// A view of `n` slots; each event sets one slot. Big enough a footprint for keyframes to matter.
    #[derive(Debug, Clone, PartialEq)]
    struct Slots(Vec<u32>);

    impl Replay for Slots {
        type Event = (usize, u32);
        type Undo = (usize, u32);
        fn apply(&mut self, &(slot, value): &(usize, u32)) -> (usize, u32) {
            (slot, std::mem::replace(&mut self.0[slot], value))
        }
        fn revert(&mut self, _done: &[(usize, u32)], (slot, value): (usize, u32)) {
            self.0[slot] = value;
        }
    }

    fn slots_player(events: usize) -> Player<Slots> {
        let events = (0..events).map(|i| ((i * 7919) % 97, i as u32)).collect();
        Player::new(Trace { events, truncated: false }, Slots(vec![0; 97]))
    }

    #[test]
    fn seeks_anywhere_match_a_replay_from_the_start() {
        let len = 5 * MIN_KEYFRAME_SPACING + 123;
        let mut player = slots_player(len);
        player.seek(len);
        assert!(player.keyframes.len() >= 5, "keyframes were taken on the way");
        for i in 0..40 {
            let target = (i * 104_729) % (len + 1);
            assert_eq!(player.seek(target), target);
            let mut fresh = slots_player(len);
            fresh.seek(target);
            assert_eq!(player.view(), fresh.view(), "at step {target}");
        }
        // Stepping back one at a time across a keyframe boundary.
        player.seek(2 * MIN_KEYFRAME_SPACING + 2);
        for _ in 0..5 {
            assert!(player.back());
        }
        let mut fresh = slots_player(len);
        fresh.seek(2 * MIN_KEYFRAME_SPACING - 3);
        assert_eq!((player.step(), player.view()), (fresh.step(), fresh.view()));
        assert!(player.undo.len() <= UNDO_WINDOW);
    }

    #[test]
    fn watched_tracer_counts_work_and_stops_when_told() {
        let progress = Progress::default();
        let mut watched = Watched::new(Recorder::<u32>::default(), &progress);
        for _ in 0..WATCH_EVERY {
            assert_eq!(Tracer::<u32>::control(&mut watched), Control::Continue);
        }
        assert_eq!(progress.done(), WATCH_EVERY);
        progress.stop();
        let answers: Vec<Control> = (0..WATCH_EVERY).map(|_| Tracer::<u32>::control(&mut watched)).collect();
        assert_eq!(answers.last(), Some(&Control::Stop), "the stop is seen within {WATCH_EVERY} units");
        assert!(watched.stopped());
        assert_eq!(Tracer::<u32>::control(&mut watched), Control::Stop, "and stays");
        watched.into_inner();
        assert_eq!(progress.done(), 2 * WATCH_EVERY + 1);
    }
}
