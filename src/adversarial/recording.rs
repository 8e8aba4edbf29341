//! What the game-tree lab records, on its worker and for `lecture --check` alike: a game position,
//! the algorithm and its limits, and the replay of the trace the library's search produced.

use std::borrow::Cow;

use crate::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use crate::adversarial::engine::EngineAlgorithm;
use crate::adversarial::engine::{EngineResult, EngineSpec};
use crate::adversarial::mcts::MctsStats;
use crate::adversarial::mcts_trace::{MctsEvent, MctsView};
use crate::adversarial::tree::{LeafReason, TreeEvent, TreeView, branching_per_ply, minimal_nodes_per_ply};
use crate::adversarial::{INF, SearchStats};
use crate::games::{DefaultEval, Game, GameVisitor, RegisteredGame, Score};
pub use crate::games::{GameKind, Position};
use crate::trace::{NO_NODE, Player, Progress, Recorder, Trace, Watched};

/// What to search and how far: the page's choices, kept for each algorithm while another is shown.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SearchSpec {
    pub algorithm: EngineAlgorithm,
    pub depth: u32,
    pub iterations: u64,
}

impl SearchSpec {
    /// The library engine recorded on `game`: UCT with the playouts, the others to the depth.
    pub fn engine(&self, game: GameKind) -> EngineSpec {
        game.recorded_engine(self.algorithm, self.depth, self.iterations)
    }

    /// Takes `engine`'s algorithm and budget; the page records only these (see
    /// [`GameKind::check_engine`]).
    pub fn set_engine(&mut self, engine: &EngineSpec) {
        *self = SearchSpec {
            algorithm: engine.algorithm,
            depth: engine.depth.unwrap_or(self.depth),
            iterations: engine.iterations.unwrap_or(self.iterations),
        };
    }
}

/// A recorded game-tree search (minimax family) ready to replay.
pub struct TreeReplay {
    pub player: Player<TreeView>,
    pub stats: SearchStats,
    /// Mean moves per expanded node at each ply, pruned moves included.
    pub branching: Vec<f64>,
    /// Knuth–Moore: nodes per ply of the minimal tree with that branching.
    pub minimal: Vec<f64>,
    /// The root of each iteration (one for fixed-depth searches).
    pub roots: Vec<u32>,
    /// No node of the last iteration was scored by the evaluator at a horizon: its values are game results.
    pub exhaustive: bool,
    /// The window (α, β) each node was entered with, by node id: what tells a fail-soft bound from an
    /// exact value. Nodes past its end were entered with the full window (all of minimax's).
    pub windows: Vec<(Score, Score)>,
}

impl TreeReplay {
    /// The root of the iteration being replayed.
    pub fn root(&self) -> Option<u32> {
        let nodes = self.player.view().nodes.len() as u32;
        self.roots.iter().rev().copied().find(|&root| root < nodes)
    }
}

pub struct MctsReplay {
    pub player: Player<MctsView>,
    /// The most visited line at the end of the search.
    pub pv: Vec<String>,
    pub stats: MctsStats,
}

pub enum Replay {
    Tree(TreeReplay),
    Mcts(MctsReplay),
}

pub struct Recording {
    pub position: Position,
    pub spec: SearchSpec,
    pub replay: Replay,
    /// Time to search and record the trace.
    pub record_time: Duration,
    /// The trace reached the recorder's cap; the replay ends before the search did.
    pub truncated: bool,
}

impl Recording {
    pub fn step_count(&self) -> usize {
        match &self.replay {
            Replay::Tree(r) => r.player.len(),
            Replay::Mcts(r) => r.player.len(),
        }
    }

    pub fn step(&self) -> usize {
        match &self.replay {
            Replay::Tree(r) => r.player.step(),
            Replay::Mcts(r) => r.player.step(),
        }
    }

    pub fn seek(&mut self, step: usize) {
        match &mut self.replay {
            Replay::Tree(r) => r.player.seek(step),
            Replay::Mcts(r) => r.player.seek(step),
        };
    }
}

/// A recording crosses to and from a Web Worker as its traces and figures; the page rebuilds the
/// players (borrowed when encoding, owned when decoding).
#[derive(Serialize, Deserialize)]
struct RecordingRecord<'a> {
    position: Cow<'a, Position>,
    spec: SearchSpec,
    replay: ReplayRecord<'a>,
    record_time: Duration,
    truncated: bool,
}

#[derive(Serialize, Deserialize)]
enum ReplayRecord<'a> {
    Tree {
        trace: Cow<'a, Trace<TreeEvent>>,
        stats: Cow<'a, SearchStats>,
        branching: Cow<'a, [f64]>,
        minimal: Cow<'a, [f64]>,
        roots: Cow<'a, [u32]>,
        exhaustive: bool,
        windows: Cow<'a, [(Score, Score)]>,
    },
    Mcts {
        trace: Cow<'a, Trace<MctsEvent>>,
        pv: Cow<'a, [String]>,
        stats: Cow<'a, MctsStats>,
    },
}

impl Serialize for Recording {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let replay = match &self.replay {
            Replay::Tree(r) => ReplayRecord::Tree {
                trace: Cow::Borrowed(r.player.trace()),
                stats: Cow::Borrowed(&r.stats),
                branching: Cow::Borrowed(&r.branching),
                minimal: Cow::Borrowed(&r.minimal),
                roots: Cow::Borrowed(&r.roots),
                exhaustive: r.exhaustive,
                windows: Cow::Borrowed(&r.windows),
            },
            Replay::Mcts(r) => ReplayRecord::Mcts {
                trace: Cow::Borrowed(r.player.trace()),
                pv: Cow::Borrowed(&r.pv),
                stats: Cow::Borrowed(&r.stats),
            },
        };
        let (spec, record_time, truncated) = (self.spec, self.record_time, self.truncated);
        RecordingRecord { position: Cow::Borrowed(&self.position), spec, replay, record_time, truncated }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Recording {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let RecordingRecord { position, spec, replay, record_time, truncated } =
            RecordingRecord::deserialize(deserializer)?;
        let position = position.into_owned();
        let replay = match replay {
            ReplayRecord::Tree { trace, stats, branching, minimal, roots, exhaustive, windows } => {
                Replay::Tree(TreeReplay {
                    player: Player::new(trace.into_owned(), TreeView::new()),
                    stats: stats.into_owned(),
                    branching: branching.into_owned(),
                    minimal: minimal.into_owned(),
                    roots: roots.into_owned(),
                    exhaustive,
                    windows: windows.into_owned(),
                })
            }
            ReplayRecord::Mcts { trace, pv, stats } => {
                let view = MctsView::new(position.side_to_move(), &spec.engine(position.kind()).mcts_config());
                Replay::Mcts(MctsReplay {
                    player: Player::new(trace.into_owned(), view),
                    pv: pv.into_owned(),
                    stats: stats.into_owned(),
                })
            }
        };
        Ok(Recording { position, spec, replay, record_time, truncated })
    }
}

/// Searches `position` with the trace recorded, as the game-tree lab records it: on the page's
/// worker, and for `lecture --check`; `None` if the job was cancelled.
pub fn record(position: Position, spec: SearchSpec, progress: &Progress) -> Option<Recording> {
    struct Record<'a> {
        position: &'a Position,
        spec: SearchSpec,
        progress: &'a Progress,
    }
    impl GameVisitor for Record<'_> {
        type Output = Option<(Replay, bool)>;
        fn visit<G: RegisteredGame>(self, game: &G) -> Self::Output {
            record_game(game.clone(), self.position.kind(), self.spec, self.progress)
        }
    }
    let started = Instant::now();
    let (replay, truncated) = position.visit(Record { position: &position, spec, progress })?;
    Some(Recording { position, spec, replay, record_time: started.elapsed(), truncated })
}

fn record_game<G: Game>(game: G, kind: GameKind, spec: SearchSpec, progress: &Progress) -> Option<(Replay, bool)> {
    let engine = spec.engine(kind);
    if engine.algorithm == EngineAlgorithm::Uct {
        progress.set_total(spec.iterations as usize);
    }
    let mut mcts = Watched::new(Recorder::default(), progress);
    let mut tracer = Watched::new(Recorder::default(), progress);
    let mut id = EngineSpec::id_engine(16);
    let result = engine.search(&game, &DefaultEval, &mut id, &mut tracer, &mut mcts).expect("the lab records searches");
    let (replay, truncated) = match result {
        EngineResult::Uct(result) => {
            if mcts.stopped() {
                return None;
            }
            let trace = mcts.into_inner().finish();
            let truncated = trace.truncated;
            let view = MctsView::new(game.side_to_move(), &engine.mcts_config());
            (
                Replay::Mcts(MctsReplay { player: Player::new(trace, view), pv: result.pv, stats: result.stats }),
                truncated,
            )
        }
        EngineResult::Tree(result) => {
            if tracer.stopped() {
                return None;
            }
            let trace = tracer.into_inner().finish();
            let truncated = trace.truncated;
            let branching = branching_per_ply(&trace.events);
            let minimal = minimal_nodes_per_ply(&branching);
            let mut roots = Vec::new();
            let mut exhaustive = true;
            let mut windows = Vec::new();
            for event in &trace.events {
                match event {
                    // Only the last iteration's values are shown at the end.
                    TreeEvent::Iteration { .. } => exhaustive = true,
                    TreeEvent::Enter { node, parent, alpha, beta, .. } => {
                        if (*alpha, *beta) != (-INF, INF) {
                            windows.resize(*node as usize, (-INF, INF));
                            windows.push((*alpha, *beta));
                        }
                        if *parent == NO_NODE {
                            roots.push(*node);
                        }
                    }
                    TreeEvent::Leaf { reason: LeafReason::Horizon, .. } => exhaustive = false,
                    _ => {}
                }
            }
            let player = Player::new(trace, TreeView::new());
            let stats = result.stats;
            (Replay::Tree(TreeReplay { player, stats, branching, minimal, roots, exhaustive, windows }), truncated)
        }
    };
    Some((replay, truncated))
}

/// The branching factor b* of a uniform tree of `depth` plies with as many nodes as the search
/// visited: nodes = 1 + b* + b*² + ... + b*^depth (root included).
pub fn effective_branching_factor(nodes: u64, depth: u32) -> f64 {
    let size = |b: f64| (0..=depth).map(|d| b.powi(d as i32)).sum::<f64>();
    let (mut low, mut high) = (0.0, nodes.max(1) as f64);
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        if size(mid) < nodes as f64 { low = mid } else { high = mid }
    }
    (low + high) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effective_branching_factor_inverts_a_uniform_tree() {
        assert!((effective_branching_factor(1 + 3 + 9 + 27, 3) - 3.0).abs() < 1e-9);
        assert!((effective_branching_factor(1 + 2, 1) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn positions_parse_and_follow_moves() {
        let start = Position::parse(GameKind::TicTacToe, "x.o/.o./x..").unwrap();
        let after = start.after(["a2"]).unwrap();
        assert_eq!(after.text(), "x.oxo.x..");
        assert!(Position::parse(GameKind::TicTacToe, "xxx/xxx/xxx").is_err());
        assert!(Position::parse(GameKind::Barca, "4ee4 w").unwrap_err().contains("has 1 row separated"));
        assert!(start.after(["a3"]).is_err(), "a3 is taken");
    }

    #[test]
    fn alpha_beta_recording_knows_its_root_and_the_minimal_tree() {
        let position = Position::parse(GameKind::TicTacToe, "x.o/.o./x..").unwrap();
        let spec = SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 9, iterations: 0 };
        let recording = record(position, spec, &Progress::default()).unwrap();
        let Replay::Tree(replay) = &recording.replay else { panic!("a tree replay") };
        assert_eq!(replay.roots, vec![0]);
        assert!(replay.exhaustive);
        assert_eq!(replay.branching[0], 5.0);
        assert_eq!(replay.minimal[1], 5.0);
        assert_eq!(replay.minimal.len(), replay.branching.len() + 1, "the minimum covers every ply searched");
    }
}
