//! The computer's move on the play page: one [`Engine`] search of any registered game, run as a
//! worker job (a thread, or a Web Worker in the browser), watched and stoppable through its progress.

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::adversarial::engine::{Choice, EngineResult, EngineSpec};
use crate::games::{DefaultEval, GameVisitor, Position, RegisteredGame};
use crate::tournament::Engine;
use crate::trace::{NoTrace, Progress, Watched};

/// The engines a side can be played by, as the page names them, and their spec at `millis` a move.
pub const ENGINES: [&str; 3] = ["Alpha-beta (ID + TT)", "UCT", "UCT + RAVE"];

/// RAVE's equivalence parameter K on the page (beta = sqrt(K / (3n + K))).
pub const RAVE_K: u32 = 300;

/// The spec of engine `index` of [`ENGINES`] thinking `millis` a move.
pub fn engine_spec(index: usize, millis: u64) -> EngineSpec {
    let text = match index {
        0 => format!("id:{millis}ms"),
        1 => format!("uct:{millis}ms"),
        _ => format!("uct:{millis}ms,rave={RAVE_K}"),
    };
    text.parse().expect("the page's engine specs parse")
}

/// One move to choose: the position (with its history) and the engine, by value.
#[derive(Serialize, Deserialize)]
pub struct PlayJob {
    pub position: Position,
    pub spec: EngineSpec,
    pub seed: u64,
}

/// The move chosen (its text; none when the game has no move) and how, in one line.
#[derive(Serialize, Deserialize)]
pub struct PlayAnswer {
    pub mv: Option<String>,
    pub summary: String,
}

impl PlayJob {
    pub fn run(self, progress: &Progress) -> PlayAnswer {
        self.position.visit(Choose { spec: self.spec, seed: self.seed, progress })
    }

    /// What a job ended from outside (a Web Worker) answers: the best move it was last told of.
    pub fn best_so_far(progress: &Progress) -> PlayAnswer {
        let summary = format!("stopped after {} nodes or playouts: the best move so far", progress.done());
        PlayAnswer { mv: progress.best_so_far().map(|best| best.mv), summary }
    }
}

struct Choose<'a> {
    spec: EngineSpec,
    seed: u64,
    progress: &'a Progress,
}

impl GameVisitor for Choose<'_> {
    type Output = PlayAnswer;

    fn visit<G: RegisteredGame>(self, game: &G) -> PlayAnswer {
        let mut engine = Engine::<G>::new(self.spec);
        let mut observer = Watched::new(NoTrace, self.progress);
        let mut rng = StdRng::seed_from_u64(self.seed);
        let Choice { mv, search } = engine.choose(game, &DefaultEval, &mut rng, &mut observer);
        let summary = match search {
            Some(EngineResult::Uct(result)) => {
                format!(
                    "{} playouts, {} nodes, mean reward {:.2}",
                    result.stats.iterations, result.stats.nodes, result.value
                )
            }
            Some(EngineResult::Tree(result)) => {
                format!("depth {}, {} nodes, score {:+}", result.stats.depth_reached, result.stats.nodes, result.score)
            }
            None => "chose without a search".to_string(),
        };
        PlayAnswer { mv: mv.map(|mv| game.move_text(mv)), summary }
    }
}
