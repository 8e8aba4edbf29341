//! The games a game-tree scene can search, and what the game-tree lab records on each.

use crate::adversarial::engine::{EngineAlgorithm, EngineSpec, UCT_DEFAULT_ITERATIONS};
use crate::adversarial::mcts::MctsConfig;
pub use crate::games::GameKind;

/// What the game-tree lab records on each game.
impl GameKind {
    /// The deepest search offered with `algorithm`.
    pub fn max_depth(self, algorithm: EngineAlgorithm) -> u32 {
        self.max_depth_of(matches!(algorithm, EngineAlgorithm::Minimax | EngineAlgorithm::Negamax))
    }

    /// The searches the game-tree lab offers on the game: a typed-in tree has values only at its
    /// leaves, so only the searches that run to its height.
    pub fn algorithms(self) -> &'static [EngineAlgorithm] {
        match self {
            GameKind::CustomTree => &[EngineAlgorithm::Minimax, EngineAlgorithm::Negamax, EngineAlgorithm::AlphaBeta],
            _ => &EngineAlgorithm::SEARCHES,
        }
    }

    /// The engine the game-tree lab records: plain UCT with `playouts` (its replay computes plain
    /// UCT's selection scores), the others to `depth`.
    pub fn recorded_engine(self, algorithm: EngineAlgorithm, depth: u32, playouts: u64) -> EngineSpec {
        match algorithm {
            EngineAlgorithm::Uct => EngineSpec {
                iterations: Some(playouts),
                // Where random games rarely end (Barca), playouts are scored after a few plies.
                uct: MctsConfig {
                    playout_cutoff: self.playout_cutoff().or(MctsConfig::plain().playout_cutoff),
                    ..MctsConfig::plain()
                },
                ..EngineSpec::new(EngineAlgorithm::Uct)
            },
            algorithm => EngineSpec::depth(algorithm, depth),
        }
    }

    /// Whether the game-tree lab can record `engine` on the game; else why, naming what to write.
    pub fn check_engine(self, engine: &EngineSpec) -> Result<(), String> {
        if !self.algorithms().contains(&engine.algorithm) || engine.level.is_some() {
            return Err(match self {
                GameKind::CustomTree => {
                    format!("a typed-in tree is searched with minimax, negamax or alphabeta, not '{engine}'")
                }
                _ => format!(
                    "the game-tree lab records minimax:D, negamax:D, alphabeta:D, id:D or uct:N,plain, not '{engine}'"
                ),
            });
        }
        let depth = engine.depth.unwrap_or(self.default_depth());
        let recorded =
            self.recorded_engine(engine.algorithm, depth, engine.iterations.unwrap_or(UCT_DEFAULT_ITERATIONS));
        if recorded != *engine {
            return Err(match engine.algorithm {
                EngineAlgorithm::Uct => format!(
                    "the game-tree lab shows plain UCT with a number of playouts: write '{recorded}', not '{engine}'"
                ),
                _ => format!(
                    "the game-tree lab searches to a depth, with no other limits: write '{recorded}', not '{engine}'"
                ),
            });
        }
        let max = self.max_depth(engine.algorithm);
        if engine.algorithm != EngineAlgorithm::Uct && depth > max {
            return Err(format!(
                "the lab searches {} at most {max} plies deep with {}",
                self.name(),
                engine.algorithm.name()
            ));
        }
        Ok(())
    }
}
