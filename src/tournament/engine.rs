//! An engine ready to play a match: its [`EngineSpec`] and the search state it keeps between moves.

use rand::Rng;
use rand::rngs::StdRng;

use crate::adversarial::choice::choose_move;
pub use crate::adversarial::engine::EngineSpec;
use crate::adversarial::engine::{EngineAlgorithm, EngineResult};
use crate::adversarial::iterative::IterativeDeepening;
use crate::games::{Evaluator, Game, random_move};
use crate::trace::NoTrace;

pub struct Engine<G: Game> {
    spec: EngineSpec,
    id: IterativeDeepening<G>,
}

impl<G: Game> Engine<G> {
    pub fn new(spec: EngineSpec) -> Self {
        Self { spec, id: EngineSpec::id_engine(18) }
    }

    pub fn choose<E: Evaluator<G>>(&mut self, game: &G, eval: &E, rng: &mut StdRng) -> Option<G::Move> {
        match (self.spec.algorithm, self.spec.level) {
            (EngineAlgorithm::Random, _) => random_move(game, rng),
            (EngineAlgorithm::Id, Some(level)) => choose_move(game, eval, level, &mut self.id, rng),
            _ => {
                // Each UCT move plays new random playouts.
                let mut spec = self.spec;
                if spec.algorithm == EngineAlgorithm::Uct {
                    spec.seed = rng.random();
                }
                match spec.search(game, eval, &mut self.id, &mut NoTrace, &mut NoTrace) {
                    Ok(EngineResult::Tree(result)) => result.best_move,
                    Ok(EngineResult::Uct(result)) => result.best_move,
                    Err(_) => unreachable!("random and the levels are handled above"),
                }
            }
        }
    }
}
