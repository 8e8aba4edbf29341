//! The flat grid searches, each described once: [`GridAlgorithm`] says everything about one (its
//! name in specs, what it reads, how it runs, its pseudocode and how its open list is ordered), and
//! [`grid_algorithms!`] lists them. The CLI, the grid lab, its narration and pseudocode, scenes
//! and the web worker all read the list, so adding a search is its own file plus one line there.

use super::search_trace::SearchEvent;
use super::{GridSearch, PathResult, SearchSpace};
use crate::grid::{Grid, MoveRules};
use crate::trace::{NO_NODE, Tracer};

/// One flat grid search.
pub trait GridAlgorithm {
    /// Its name in specs (`astar:octile`), on the command line and in saved settings.
    const ID: &'static str;
    /// Its name on the page ("A*").
    const LABEL: &'static str;
    /// Whether it reads a heuristic (`astar:euclidean`).
    const HEURISTIC: bool = false;
    /// Whether it reads a weight w >= 1 on the heuristic (`astar:weight=1.5`).
    const WEIGHT: bool = false;
    /// Whether it reads `reopen=true|false`, putting closed nodes back on the open list (A*).
    const REOPEN: bool = false;
    /// What it does, line by line, each line with the steps it highlights.
    const PSEUDOCODE: &'static [Line];

    /// How its open list is ordered: what the narration and the open-list panel say.
    fn order(search: &GridSearch) -> Order;

    fn run<T: Tracer<SearchEvent>>(
        search: &GridSearch,
        grid: &Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult;

    /// Builds what its queries on `grid` read, so no query's time includes it (JPS's jump bits).
    fn prepare(_grid: &Grid) {}

    /// Why it cannot search `grid` under `rules`, if it cannot.
    fn refusal(_grid: &Grid, _rules: MoveRules) -> Option<&'static str> {
        None
    }

    /// Why it may return a path that is not the cheapest, if it may.
    fn suboptimality_reason(_search: &GridSearch, _weighted_map: bool) -> Option<String> {
        None
    }
}

/// What a search's open list is ordered by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key {
    /// First in, first out (BFS's queue).
    Arrival,
    /// The lowest g.
    G,
    /// The lowest f = g + w·h (the events' h is already w·h).
    F { weight: f64 },
    /// The lowest h alone.
    H,
}

/// How a search picks its next node and treats a node reached again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Order {
    pub label: &'static str,
    pub key: Key,
    /// A node goes on the open list once, when first reached; a cheaper route found later is
    /// ignored (BFS, greedy best-first). Otherwise a cheaper route updates it.
    pub first_route_only: bool,
    /// Only jump points go on the open list (JPS).
    pub jumps: bool,
}

impl Order {
    /// The value the open list is ordered by, from a node's g and (weighted) h; `None` for a queue.
    pub fn priority(&self, g: f64, h: f64) -> Option<f64> {
        match self.key {
            Key::Arrival => None,
            Key::G => Some(g),
            Key::F { .. } => Some(g + h),
            Key::H => Some(h),
        }
    }

    /// The priority's name: g, f or h.
    pub fn priority_name(&self) -> Option<&'static str> {
        match self.key {
            Key::Arrival => None,
            Key::G => Some("g"),
            Key::F { .. } => Some("f"),
            Key::H => Some("h"),
        }
    }
}

/// What a search is doing at one of its events, for the pseudocode line to highlight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The start goes on the open list.
    Start,
    /// The next node is taken off the open list.
    Pick,
    /// A neighbour is looked at and left as it was.
    Skip,
    /// A neighbour gets a new route.
    Improve,
    /// A neighbour goes on the open list.
    Push,
    /// The start is the goal.
    StartIsGoal,
    /// The goal is reached.
    Goal,
    /// The open list ran empty.
    Exhausted,
}

impl Phase {
    pub fn of(event: &SearchEvent) -> Phase {
        match event {
            SearchEvent::Open { parent, .. } if *parent == NO_NODE => Phase::Start,
            SearchEvent::Open { .. } => Phase::Push,
            SearchEvent::Expand { .. } => Phase::Pick,
            SearchEvent::Relax { improved: false, .. } => Phase::Skip,
            SearchEvent::Relax { improved: true, .. } => Phase::Improve,
            SearchEvent::Found { path, .. } if path.len() == 1 => Phase::StartIsGoal,
            SearchEvent::Found { .. } => Phase::Goal,
            SearchEvent::Exhausted => Phase::Exhausted,
        }
    }
}

/// A line of pseudocode and the steps it highlights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub text: &'static str,
    pub steps: &'static [Phase],
}

impl Line {
    pub const fn new(text: &'static str, steps: &'static [Phase]) -> Line {
        Line { text, steps }
    }
}

/// The line of `lines` that `event` highlights.
pub fn line_of(lines: &[Line], event: &SearchEvent) -> Option<usize> {
    let step = Phase::of(event);
    lines.iter().position(|line| line.steps.contains(&step))
}

/// The pseudocode of a best-first search that updates a node reached by a cheaper route (Dijkstra,
/// A*, JPS): they differ only in `pick`, how the next node is chosen.
pub const fn best_first(pick: &'static str) -> [Line; 9] {
    [
        Line::new("open := {start}; g(start) := 0", &[Phase::Start]),
        Line::new("while open is not empty:", &[]),
        Line::new(pick, &[Phase::Pick]),
        Line::new("    if u = goal: return the path to u", &[Phase::Goal, Phase::StartIsGoal]),
        Line::new("    for each neighbour v of u:", &[Phase::Skip]),
        Line::new("        if g(u) + cost(u, v) < g(v):", &[Phase::Improve]),
        Line::new("            g(v) := g(u) + cost(u, v); parent(v) := u", &[]),
        Line::new("            add v to open", &[Phase::Push]),
        Line::new("return no path", &[Phase::Exhausted]),
    ]
}

/// Lists the flat grid searches: `module: Type` each, in the order pages offer them. Declares
/// each module and the [`Algorithm`] enum that names them (its variant is the type's name).
macro_rules! grid_algorithms {
    ($($module:ident: $kind:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The flat grid searches, one per [`GridAlgorithm`] (see [`registry`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $($kind),+
        }

        impl Algorithm {
            pub const ALL: &'static [Algorithm] = &[$(Algorithm::$kind),+];

            /// The name in specs and saved settings.
            pub fn id(self) -> &'static str {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::ID),+ }
            }

            /// The name on the page.
            pub fn name(self) -> &'static str {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::LABEL),+ }
            }

            pub fn uses_heuristic(self) -> bool {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::HEURISTIC),+ }
            }

            pub fn uses_weight(self) -> bool {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::WEIGHT),+ }
            }

            pub fn uses_reopen(self) -> bool {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::REOPEN),+ }
            }

            pub fn pseudocode(self) -> &'static [registry::Line] {
                match self { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::PSEUDOCODE),+ }
            }

            /// The algorithm with this spec name.
            pub fn from_id(id: &str) -> Option<Algorithm> {
                Algorithm::ALL.iter().copied().find(|algorithm| algorithm.id() == id)
            }
        }

        impl GridSearch {
            pub fn run<T: crate::trace::Tracer<search_trace::SearchEvent>>(
                &self,
                grid: &Grid,
                start: u32,
                goal: u32,
                space: &mut SearchSpace,
                tracer: &mut T,
            ) -> PathResult {
                match self.algorithm {
                    $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::run(self, grid, start, goal, space, tracer)),+
                }
            }

            /// Builds what this search's queries on `grid` read (see [`GridAlgorithm::prepare`]).
            pub fn prepare(&self, grid: &Grid) {
                match self.algorithm { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::prepare(grid)),+ }
            }

            /// How the open list is ordered.
            pub fn order(&self) -> registry::Order {
                match self.algorithm { $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::order(self)),+ }
            }

            /// Why this search cannot run on `grid`, if it cannot; [`Self::run`] expects `None`.
            pub fn refusal(&self, grid: &Grid) -> Option<&'static str> {
                match self.algorithm {
                    $(Algorithm::$kind => <$module::$kind as GridAlgorithm>::refusal(grid, self.rules)),+
                }
            }

            /// Why this search may return a path that is not the cheapest, if it may.
            pub fn suboptimality_reason(&self, weighted_map: bool) -> Option<String> {
                match self.algorithm {
                    $(Algorithm::$kind => {
                        <$module::$kind as GridAlgorithm>::suboptimality_reason(self, weighted_map)
                    }),+
                }
            }
        }
    };
}

pub(crate) use grid_algorithms;
