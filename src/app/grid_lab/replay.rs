//! One recorded search ready to replay: the player, the full-speed result and timing, and an
//! index of expansions so two searches can be stepped in sync by expansions.

use crate::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::grid::Grid;
use crate::pathfinding::search_trace::{SearchEvent, SearchSnapshot};
use crate::pathfinding::{GridSearch, PathResult, SearchSpace};
use crate::trace::{NoTrace, Player, Progress, Recorder, Trace, Watched};

/// What one press of "Step >" advances: one event, or one whole expansion (a node and all its neighbours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum StepUnit {
    #[default]
    Event,
    Expansion,
}

impl StepUnit {
    pub fn name(self) -> &'static str {
        match self {
            StepUnit::Event => "event",
            StepUnit::Expansion => "expansion",
        }
    }
}

/// Timed runs after the warm-up, at most; the fastest is reported.
const TIMED_RUNS: usize = 9;
/// Repeats stop once the timed runs took this long (a big map's search runs once after warm-up).
const TIMING_BUDGET: Duration = Duration::from_millis(100);

/// The wall time of `run`, as every query time on the page is measured: one warm-up run (cold
/// caches and allocations), then the fastest of up to [`TIMED_RUNS`] runs. On a busy machine (a
/// lecture's cells record at once, beside the renderer) a single run is often preempted and reads
/// 10-40x too slow; the fastest run is the one nothing interrupted.
pub fn timed<T>(mut run: impl FnMut() -> T) -> (T, Duration) {
    let answer = run();
    let mut fastest = Duration::MAX;
    let began = Instant::now();
    for _ in 0..TIMED_RUNS {
        let clock = Instant::now();
        std::hint::black_box(run());
        fastest = fastest.min(clock.elapsed());
        if began.elapsed() >= TIMING_BUDGET {
            break;
        }
    }
    (answer, if fastest < clock_tick() * RESOLVED_TICKS { mean_of_repeats(run) } else { fastest })
}

/// Clock ticks a time must span to read true to ~5%.
const RESOLVED_TICKS: u32 = 20;

/// The clock's resolution: nanoseconds on the desktop, 0.1 ms in a browser (which coarsens its
/// clock unless the page is cross-origin isolated), where a fast search would read "0 ms".
fn clock_tick() -> Duration {
    static TICK: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *TICK.get_or_init(|| {
        let next_tick = |from: Instant| loop {
            let now = Instant::now();
            if now > from {
                return now;
            }
        };
        let edge = next_tick(Instant::now()); // the first change may end a tick begun earlier
        next_tick(edge) - edge
    })
}

/// The mean time of `run` over enough repeats for the clock to resolve them.
fn mean_of_repeats<T>(mut run: impl FnMut() -> T) -> Duration {
    let (began, enough) = (Instant::now(), clock_tick() * RESOLVED_TICKS);
    let mut runs = 0;
    while began.elapsed() < enough {
        std::hint::black_box(run());
        runs += 1;
    }
    began.elapsed() / runs
}

/// A wall time in milliseconds to three significant digits ("0.0812 ms", "4.14 ms", "26.0 ms"), so
/// two times on the page can be compared however small they are.
pub fn millis(time: Duration) -> String {
    if time.is_zero() {
        return "< 0.1 ms".into(); // a time read once by the browser's clock, under its tick
    }
    let ms = time.as_secs_f64() * 1e3;
    let decimals = (2 - ms.log10().floor() as i32).clamp(0, 4) as usize;
    format!("{ms:.decimals$} ms")
}

/// `search` from `start` to `goal` at full speed: its result and its [`timed`] wall time.
pub fn flat_search(
    grid: &Grid,
    search: GridSearch,
    start: u32,
    goal: u32,
    space: &mut SearchSpace,
) -> (PathResult, Duration) {
    timed(|| search.run(grid, start, goal, space, &mut NoTrace))
}

pub struct SearchReplay {
    pub search: GridSearch,
    pub player: Player<SearchSnapshot>,
    /// The same query run without recording: its counts and [`timed`] wall time.
    pub result: PathResult,
    pub time: Duration,
    /// Index of every `Expand` event in the trace (a trace holds fewer than 2^32 events).
    expansion_events: Vec<u32>,
}

impl SearchReplay {
    /// Runs the query twice: at full speed for the figures, then recorded for the replay (each
    /// expansion counts as progress). `None` if stopped.
    pub fn record(grid: &Grid, search: GridSearch, start: u32, goal: u32, progress: &Progress) -> Option<SearchReplay> {
        let mut space = SearchSpace::new();
        let (result, time) = flat_search(grid, search, start, goal, &mut space);
        let mut tracer = Watched::new(Recorder::default(), progress);
        search.run(grid, start, goal, &mut space, &mut tracer);
        if tracer.stopped() {
            return None;
        }
        Some(Self::new(search, tracer.into_inner().finish(), result, time, grid.cell_count()))
    }

    fn new(search: GridSearch, trace: Trace<SearchEvent>, result: PathResult, time: Duration, cells: usize) -> Self {
        let expansion_events = trace
            .events
            .iter()
            .enumerate()
            .filter(|(_, event)| matches!(event, SearchEvent::Expand { .. }))
            .map(|(index, _)| index as u32)
            .collect();
        Self { search, player: Player::new(trace, SearchSnapshot::new(cells)), result, time, expansion_events }
    }

    /// The map's size in cells.
    fn cells(&self) -> usize {
        self.player.view().nodes().len()
    }

    /// An empty replay of `search`, shown before its recording arrives or when it was refused.
    pub fn empty(search: GridSearch, cells: usize) -> Self {
        let result = PathResult { path: None, expanded: 0, pushed: 0, out_of_budget: false };
        Self::new(search, Recorder::new(0).finish(), result, Duration::ZERO, cells)
    }

    /// Length of the timeline in `unit`s.
    pub fn len(&self, unit: StepUnit) -> usize {
        match unit {
            StepUnit::Event => self.player.len(),
            StepUnit::Expansion => self.expansion_events.len(),
        }
    }

    /// The position of the current step in `unit`s.
    pub fn position(&self, unit: StepUnit) -> usize {
        match unit {
            StepUnit::Event => self.player.step(),
            StepUnit::Expansion if self.player.at_end() => self.len(unit),
            StepUnit::Expansion => self.player.view().expanded,
        }
    }

    /// Moves to `position` in `unit`s. Position k of the expansion timeline is the state after k
    /// whole expansions: just before the (k+1)-th `Expand` event; the last position is the end.
    pub fn seek(&mut self, unit: StepUnit, position: usize) {
        let step = match unit {
            StepUnit::Event => position,
            StepUnit::Expansion => self.expansion_events.get(position).map_or(usize::MAX, |&index| index as usize),
        };
        self.player.seek(step);
    }
}

/// A replay crosses to and from a Web Worker as its recording; the page rebuilds the player.
#[derive(Serialize)]
struct WireRef<'a> {
    search: &'a GridSearch,
    trace: &'a Trace<SearchEvent>,
    result: &'a PathResult,
    time: Duration,
    cells: usize,
}

#[derive(Deserialize)]
struct Wire {
    search: GridSearch,
    trace: Trace<SearchEvent>,
    result: PathResult,
    time: Duration,
    cells: usize,
}

impl Serialize for SearchReplay {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (trace, cells) = (self.player.trace(), self.cells());
        WireRef { search: &self.search, trace, result: &self.result, time: self.time, cells }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SearchReplay {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Wire { search, trace, result, time, cells } = Wire::deserialize(deserializer)?;
        Ok(Self::new(search, trace, result, time, cells))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;

    #[test]
    fn expansion_positions_land_between_expansions() {
        let grid = generate::maze(16, 16, 1, 3);
        let cells = grid.passable_cells();
        let (start, goal) = (cells[0], *cells.last().unwrap());
        let mut replay = SearchReplay::record(&grid, GridSearch::default(), start, goal, &Progress::default()).unwrap();
        let expansions = replay.result.expanded;
        assert_eq!(replay.len(StepUnit::Expansion), expansions);
        for k in [0, 1, expansions / 2, expansions - 1] {
            replay.seek(StepUnit::Expansion, k);
            assert_eq!(replay.player.view().expanded, k);
            assert!(matches!(replay.player.trace().events[replay.player.step()], SearchEvent::Expand { .. }));
            assert_eq!(replay.position(StepUnit::Expansion), k);
        }
        replay.seek(StepUnit::Expansion, expansions);
        assert!(replay.player.at_end());
        assert_eq!(replay.position(StepUnit::Expansion), expansions);
    }
}
