//! An engine ready to play a match: its [`EngineSpec`] and the search state it keeps between moves.

use rand::Rng;
use rand::rngs::StdRng;

use crate::adversarial::choice::choose_move;
pub use crate::adversarial::engine::EngineSpec;
use crate::adversarial::engine::{EngineAlgorithm, EngineResult};
use crate::adversarial::iterative::IterativeDeepening;
use crate::adversarial::mcts::{Mcts, MctsConfig};
use crate::games::{Evaluator, Game, random_move};
use crate::trace::NoTrace;

pub struct Engine<G: Game> {
    spec: EngineSpec,
    id: IterativeDeepening<G>,
    /// UCT's tree after its last move, reused when the game goes on from there.
    uct: Option<Mcts<G>>,
}

impl<G: Game> Engine<G> {
    pub fn new(spec: EngineSpec) -> Self {
        Self { spec, id: EngineSpec::id_engine(18), uct: None }
    }

    pub fn choose<E: Evaluator<G>>(&mut self, game: &G, eval: &E, rng: &mut StdRng) -> Option<G::Move> {
        match (self.spec.algorithm, self.spec.level) {
            (EngineAlgorithm::Random, _) => random_move(game, rng),
            (EngineAlgorithm::Id, Some(level)) => choose_move(game, eval, level, &mut self.id, rng),
            (EngineAlgorithm::Uct, _) => {
                // Each UCT move plays new random playouts.
                let config = MctsConfig { seed: rng.random(), ..self.spec.mcts_config() };
                let mut tree = match self.uct.take().and_then(|mut tree| tree.follow(game).then_some(tree)) {
                    Some(mut tree) => {
                        *tree.config_mut() = config;
                        tree
                    }
                    _ => Mcts::new(game.clone(), config),
                };
                let best = tree.search(eval, &mut NoTrace).best_move;
                if let Some(mv) = best {
                    tree.advance(mv);
                    self.uct = Some(tree);
                }
                best
            }
            _ => match self.spec.search(game, eval, &mut self.id, &mut NoTrace, &mut NoTrace) {
                Ok(EngineResult::Tree(result)) => result.best_move,
                Ok(EngineResult::Uct(result)) => result.best_move,
                Err(_) => unreachable!("random, UCT and the levels are handled above"),
            },
        }
    }
}
