//! An engine ready to play: its [`EngineSpec`] and the search state it keeps between moves. The
//! match runner and the Barca page's computer player both play through it.

use rand::Rng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::adversarial::choice::choose_move;
pub use crate::adversarial::engine::EngineSpec;
use crate::adversarial::engine::{Choice, EngineAlgorithm, EngineResult};
use crate::adversarial::iterative::IterativeDeepening;
use crate::adversarial::mcts::{Mcts, MctsConfig};
use crate::adversarial::mcts_trace::MctsEvent;
use crate::adversarial::tree::TreeEvent;
use crate::games::{Evaluator, Game, random_move};
use crate::trace::{NoTrace, Tracer};

/// Serializable, table and tree included, so the page's player can cross to a Web Worker and back.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "G: Serialize, G::Move: Serialize",
    deserialize = "G: Deserialize<'de>, G::Move: Deserialize<'de>"
))]
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

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The move to play in `game`; `observer` watches the searches (and may stop them early: then
    /// the best move found so far).
    pub fn choose<E: Evaluator<G>, T: Tracer<TreeEvent> + Tracer<MctsEvent>>(
        &mut self,
        game: &G,
        eval: &E,
        rng: &mut StdRng,
        observer: &mut T,
    ) -> Choice<G::Move> {
        match (self.spec.algorithm, self.spec.level) {
            (EngineAlgorithm::Random, _) => Choice { mv: random_move(game, rng), search: None },
            (EngineAlgorithm::Id, Some(level)) => choose_move(game, eval, level, &mut self.id, rng, observer),
            (EngineAlgorithm::Uct, _) => {
                // Each UCT move plays new random playouts.
                let config = MctsConfig { seed: rng.random(), ..self.spec.mcts_config() };
                let mut tree = match self.uct.take().and_then(|mut tree| tree.follow(game).then_some(tree)) {
                    Some(mut tree) => {
                        tree.reconfigure(config);
                        tree
                    }
                    _ => Mcts::new(game.clone(), config),
                };
                let result = tree.search(eval, observer);
                if let Some(mv) = result.best_move {
                    tree.advance(mv);
                    self.uct = Some(tree);
                }
                Choice::searched(EngineResult::Uct(result))
            }
            _ => match self.spec.search(game, eval, &mut self.id, observer, &mut NoTrace) {
                Ok(result) => Choice::searched(result),
                Err(_) => unreachable!("random, UCT and the levels are handled above"),
            },
        }
    }
}
