//! The computer player: one move chosen on a worker thread by the library's engine (the one
//! `barca match` plays, keeping its table and UCT tree between moves), watched and stopped through
//! a watching tracer (its progress counts the work and holds the best move so far). In the browser
//! the engine stays in the player's Web Worker between moves: the page never holds its tree.

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::adversarial::choice::Difficulty;
use crate::adversarial::engine::{Choice, EngineAlgorithm, EngineResult, EngineSpec};
use crate::adversarial::mcts::{ChildStats, MctsConfig, MctsResult, Proven};
use crate::app::worker::{Job, Request, Session};
use crate::games::barca::{Barca, BarcaMove, Weights};
use crate::games::{Game, Score, is_proven};
use crate::text::plural;
use crate::tournament::Engine;
use crate::trace::{NoTrace, Progress, Watched};

/// The computer's two families, as the page names them.
pub const AI_ALGORITHMS: [(EngineAlgorithm, &str); 2] = [
    (EngineAlgorithm::Id, "Alpha-beta (iterative deepening)"),
    (EngineAlgorithm::Uct, "UCT (Monte Carlo tree search)"),
];

/// The computer player of `algorithm` (`Id` or `Uct`) at `difficulty`.
pub fn ai_engine(algorithm: EngineAlgorithm, difficulty: Difficulty) -> EngineSpec {
    EngineSpec { level: Some(difficulty), ..EngineSpec::new(algorithm) }
}

/// What one move of `engine` costs, in words.
pub fn budget(engine: &EngineSpec) -> String {
    let level = engine.level.unwrap_or(Difficulty::Hard);
    match (engine.algorithm, level.sampling_depth()) {
        (EngineAlgorithm::Uct, _) => match engine.mcts_config() {
            MctsConfig { iterations: Some(iterations), .. } => {
                format!("runs {iterations} playouts, then plays the most visited move")
            }
            config => {
                format!("runs playouts for {} ms, then plays the most visited move", config.millis.unwrap_or_default())
            }
        },
        (_, Some(depth)) => format!("scores every move {depth} plies deep, then picks among the best five at random"),
        (_, None) => format!("deepens for {} ms and plays its best move", level.search_millis()),
    }
}

pub fn difficulty_name(difficulty: Difficulty) -> &'static str {
    match difficulty {
        Difficulty::Easy => "Easy",
        Difficulty::Medium => "Medium",
        Difficulty::Hard => "Hard",
    }
}

/// What the worker sends back.
#[derive(Serialize, Deserialize)]
pub struct AiAnswer {
    pub mv: Option<BarcaMove>,
    pub summary: String,
    /// The engine, handed back so its table and UCT tree carry over to the next move; `None`
    /// when it stays in the Web Worker (or was lost with an ended one).
    pub engine: Option<Engine<Barca>>,
}

impl AiAnswer {
    /// The answer of a search ended from outside (a Web Worker): the best move it was last told of.
    pub fn best_so_far(position: &Barca, progress: &Progress) -> AiAnswer {
        let best = progress.best_so_far();
        let mv = best.as_ref().and_then(|best| position.parse_move(&best.mv).ok());
        let summary = format!("stopped after {} nodes: the best move so far", progress.done());
        AiAnswer { mv, summary, engine: None }
    }
}

/// Choosing one move: everything the search needs, by value.
#[derive(Serialize, Deserialize)]
pub struct MoveJob {
    position: Barca,
    eval: Weights,
    /// Its table and tree carry over from the last move.
    engine: Carried,
    seed: u64,
}

/// How a move's engine gets to the search, and where it goes after.
#[derive(Serialize, Deserialize)]
// One per move job, moved to the worker and back: boxing the engine would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Carried {
    /// With the job, and back with the answer (to a thread it is moved, not copied).
    Along(Engine<Barca>),
    /// It stays where the job runs (a session's Web Worker) for the next move: a UCT tree is tens
    /// of MB after a few Hard moves, and copying it would hold the page up ~100 ms each way.
    /// `fresh`: start a new one there (the last was lost, or this is the player's first move).
    Kept { spec: EngineSpec, fresh: bool },
}

thread_local! {
    /// The engine the last [`Carried::Kept`] move left here.
    static KEPT: std::cell::RefCell<Option<Engine<Barca>>> = const { std::cell::RefCell::new(None) };
}

impl MoveJob {
    pub fn new(position: &Barca, eval: &Weights, engine: Engine<Barca>, seed: u64) -> Self {
        MoveJob { position: position.clone(), eval: eval.clone(), engine: Carried::Along(engine), seed }
    }

    pub fn position(&self) -> &Barca {
        &self.position
    }

    pub fn run(self, progress: &Progress) -> AiAnswer {
        let MoveJob { position, eval, engine, seed } = self;
        let (mut engine, keep) = match engine {
            Carried::Along(engine) => (engine, false),
            Carried::Kept { spec, fresh } => {
                let kept = KEPT.take().filter(|kept| !fresh && *kept.spec() == spec);
                (kept.unwrap_or_else(|| Engine::new(spec)), true)
            }
        };
        let mut observer = Watched::new(NoTrace, progress);
        let Choice { mv, search } = engine.choose(&position, &eval, &mut StdRng::seed_from_u64(seed), &mut observer);
        let summary = match search {
            Some(EngineResult::Uct(result)) => {
                uct_summary(&result, crate::games::barca::side_name(position.side_to_move()))
            }
            Some(EngineResult::Tree(result)) => {
                format!(
                    "depth {}, {} nodes, score {}",
                    result.stats.depth_reached,
                    result.stats.nodes,
                    score_text(result.score)
                )
            }
            None => {
                let depth = engine.spec().level.and_then(Difficulty::sampling_depth).unwrap_or_default();
                format!("sampled among the best five moves at depth {depth}")
            }
        };
        let engine = if keep {
            KEPT.set(Some(engine));
            None
        } else {
            Some(engine)
        };
        AiAnswer { mv, summary, engine }
    }
}

/// The computer player between moves: its engine, with the table and UCT tree it keeps for the
/// next move, or (in the browser) the session whose Web Worker keeps the engine.
pub struct ComputerPlayer {
    spec: EngineSpec,
    /// Between moves, when the session keeps no state.
    engine: Option<Engine<Barca>>,
    session: Session,
}

impl ComputerPlayer {
    pub fn new(spec: EngineSpec) -> ComputerPlayer {
        ComputerPlayer { spec, engine: None, session: Session::default() }
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The job choosing this player's move in `position`.
    fn job(&mut self, position: &Barca, eval: &Weights, seed: u64) -> MoveJob {
        let engine = match self.session.keeps_state() {
            true => Carried::Kept { spec: self.spec, fresh: !self.session.holds_state() },
            false => Carried::Along(self.engine.take().unwrap_or_else(|| Engine::new(self.spec))),
        };
        MoveJob { position: position.clone(), eval: eval.clone(), engine, seed }
    }
}

/// A move being chosen.
pub struct Thinking {
    /// Its progress's stop ("Stop") makes the searches answer with the best move found so far.
    pub job: Job,
    /// Dropped after the job: a job hands its worker back to a live session only.
    player: ComputerPlayer,
    algorithm: EngineAlgorithm,
    /// The position thought about, to read the best move so far.
    game: Barca,
}

fn score_text(score: Score) -> String {
    if is_proven(score) {
        if score > 0 { "winning".to_string() } else { "losing".to_string() }
    } else {
        format!("{score:+}")
    }
}

impl Thinking {
    pub fn start(
        game: &Barca,
        weights: &Weights,
        mut player: ComputerPlayer,
        seed: u64,
        repaint: Option<egui::Context>,
    ) -> Thinking {
        let spec = player.spec;
        let name = AI_ALGORITHMS.iter().find(|(a, _)| *a == spec.algorithm).map_or("", |(_, name)| name);
        let difficulty = spec.level.unwrap_or(Difficulty::Hard);
        let label = format!("{name} ({})", difficulty_name(difficulty));
        let request = Request::BarcaMove(player.job(game, weights, seed));
        let job = Job::start_in(&player.session, label, repaint, request);
        Thinking { job, player, algorithm: spec.algorithm, game: game.clone() }
    }

    /// The player, once its move is in, with the engine the answer handed back (if any).
    pub fn into_player(self, engine: Option<Engine<Barca>>) -> ComputerPlayer {
        let mut player = self.player;
        player.engine = engine;
        player
    }

    /// Asks the search to answer now with the best move found so far.
    pub fn stop(&self) {
        self.job.progress().stop();
    }

    pub fn is_stopping(&self) -> bool {
        self.job.progress().is_stopped()
    }

    /// The best move found so far, once the search has one.
    pub fn best_so_far(&self) -> Option<BarcaMove> {
        self.game.parse_move(&self.job.progress().best_so_far()?.mv).ok()
    }

    /// The search so far, in one line (the progress counts playouts for UCT, nodes for alpha-beta).
    pub fn progress_text(&self) -> String {
        let elapsed = self.job.elapsed().as_secs_f32();
        let progress = self.job.progress();
        let best = progress.best_so_far();
        match (self.algorithm, best) {
            (EngineAlgorithm::Uct, best) => {
                let best = best.map(|best| best.mv).unwrap_or_default();
                format!("Thinking... {elapsed:.1} s, {} playouts, best so far {best}", progress.done())
            }
            (_, Some(best)) if best.depth > 0 => {
                let score = best.score.map(score_text).unwrap_or_default();
                format!(
                    "Thinking... {elapsed:.1} s, depth {} done, {} nodes, best so far {} ({score})",
                    best.depth,
                    progress.done(),
                    best.mv
                )
            }
            _ => format!("Thinking... {elapsed:.1} s"),
        }
    }
}

/// What a UCT search did for the move it played: that move's own visits and mean reward (or
/// its proof), for the computer, `mover`, who played it.
fn uct_summary<M>(result: &MctsResult<M>, mover: &str) -> String {
    let stats = &result.stats;
    let kept = u64::from(stats.root_visits).saturating_sub(stats.iterations);
    let kept = if kept > 0 { format!(" + {kept} kept from the last move") } else { String::new() };
    let played = stats.children.iter().find(|c| Some(&c.mv) == result.best_move_text.as_ref());
    let how = match played {
        Some(ChildStats { proven: Some(proven), visits, .. }) => {
            let result = match proven {
                Proven::Win => "a proven win",
                Proven::Draw => "a proven draw",
                Proven::Loss => "a proven loss, the longest",
            };
            format!("{result}, tried {visits} {}", plural(*visits as usize, "time", "times"))
        }
        Some(ChildStats { visits, .. }) => {
            format!(
                "tried {visits} {}, mean reward {:.2} for {mover}",
                plural(*visits as usize, "time", "times"),
                result.value
            )
        }
        None => "none: the game is over".to_string(),
    };
    format!("{} playouts{kept}, {} nodes; the move played: {how}", stats.iterations, stats.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::worker::{FromWorker, Place, Response, decode, encode, serve};
    use std::time::{Duration, Instant};

    fn within_seconds<T>(seconds: u64, mut poll: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            if let Some(value) = poll() {
                return value;
            }
            assert!(Instant::now() < deadline, "no answer within {seconds} s");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn thinking_shows_its_best_move_so_far_and_answers_when_stopped() {
        let game = Barca::start();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for algorithm in [EngineAlgorithm::Id, EngineAlgorithm::Uct] {
            let thinking = Thinking::start(
                &game,
                &Weights::default(),
                ComputerPlayer::new(ai_engine(algorithm, Difficulty::Hard)),
                5,
                None,
            );
            let best = within_seconds(10, || thinking.best_so_far());
            assert!(moves.contains(&best), "{algorithm:?}: {best} is a legal move");
            assert!(thinking.progress_text().contains("best so far"), "{}", thinking.progress_text());
            thinking.stop();
            let Response::BarcaMove(answer) = within_seconds(10, || thinking.job.poll()?.ok()) else {
                panic!("not a move")
            };
            assert!(answer.mv.is_some_and(|mv| moves.contains(&mv)), "{algorithm:?} answers with a move");
        }
    }

    /// The whole number just before `words` in `text`.
    fn number_before(text: &str, words: &str) -> u32 {
        let head = &text[..text.find(words).unwrap_or_else(|| panic!("'{words}' in '{text}'"))];
        head.trim_end()
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number before '{words}' in '{text}'"))
    }

    #[test]
    fn uct_searches_on_from_the_tree_it_kept_even_through_a_web_worker() {
        let spec = ai_engine(EngineAlgorithm::Uct, Difficulty::Easy);
        let mut game = Barca::start();
        let first = MoveJob::new(&game, &Weights::default(), Engine::new(spec), 1).run(&Progress::default());
        assert!(!first.summary.contains("kept"), "a fresh tree: {}", first.summary);
        let tried = number_before(&first.summary, "times");
        assert!(tried > 1, "{}", first.summary);
        // Computer vs computer: the other side's search starts below the move played, with its visits.
        game.make_move(first.mv.unwrap());
        let job = Request::BarcaMove(MoveJob::new(&game, &Weights::default(), first.engine.unwrap(), 2));
        let job = decode::<Request>(&encode(&job).unwrap()).unwrap();
        let Response::BarcaMove(second) = job.run(&Progress::default()) else { panic!("not a move") };
        assert_eq!(number_before(&second.summary, "kept from the last move"), tried, "{}", second.summary);
        assert_eq!(number_before(&second.summary, "playouts"), 300, "{}", second.summary);

        // Against a human: the reply's subtree is kept, whichever reply it was.
        let mut engine = Engine::new(spec);
        let mut rng = StdRng::seed_from_u64(3);
        let game = Barca::start();
        let Choice { mv, search: Some(EngineResult::Uct(first)) } =
            engine.choose(&game, &Weights::default(), &mut rng, &mut NoTrace)
        else {
            panic!("a UCT search")
        };
        let mut game = game.clone();
        game.make_move(mv.unwrap());
        game.make_move(game.parse_move(&first.pv[1]).unwrap());
        let Choice { search: Some(EngineResult::Uct(second)), .. } =
            engine.choose(&game, &Weights::default(), &mut rng, &mut NoTrace)
        else {
            panic!("a UCT search")
        };
        let kept = u64::from(second.stats.root_visits) - second.stats.iterations;
        assert!(kept > 0 && kept < u64::from(tried), "{kept} visits kept of the reply's subtree");
    }

    #[test]
    fn the_player_keeps_its_tree_from_move_to_move_on_a_thread() {
        let mut game = Barca::start();
        let mut player = ComputerPlayer::new(ai_engine(EngineAlgorithm::Uct, Difficulty::Easy));
        let mut tried = None;
        for seed in 0..2 {
            let thinking = Thinking::start(&game, &Weights::default(), player, seed, None);
            let Response::BarcaMove(answer) = within_seconds(30, || thinking.job.poll()?.ok()) else {
                panic!("not a move")
            };
            if let Some(tried) = tried {
                assert_eq!(number_before(&answer.summary, "kept from the last move"), tried, "{}", answer.summary);
            }
            tried = Some(number_before(&answer.summary, "times"));
            game.make_move(answer.mv.unwrap());
            player = thinking.into_player(answer.engine);
        }
    }

    /// One move as a session's Web Worker runs it: the request and the worker's messages as bytes,
    /// on this thread, where the last move left its engine.
    fn in_the_worker(game: &Barca, fresh: bool) -> (AiAnswer, usize) {
        let spec = ai_engine(EngineAlgorithm::Uct, Difficulty::Easy);
        let job = MoveJob {
            position: game.clone(),
            eval: Weights::default(),
            engine: Carried::Kept { spec, fresh },
            seed: 7,
        };
        let request = encode(&Request::BarcaMove(job)).unwrap();
        let posted = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let sink = std::rc::Rc::clone(&posted);
        serve(&request, Place::Worker, move |bytes| sink.borrow_mut().push(bytes));
        let messages = posted.take();
        let largest = messages.iter().map(Vec::len).chain([request.len()]).max().unwrap();
        let Ok(FromWorker::Done(Response::BarcaMove(answer), _)) = decode(messages.last().unwrap()) else {
            panic!("no move came back")
        };
        (answer, largest)
    }

    #[test]
    fn a_kept_engine_stays_in_the_worker_and_only_moves_cross() {
        let mut game = Barca::start();
        let (first, largest) = in_the_worker(&game, true);
        assert!(first.engine.is_none() && !first.summary.contains("kept"), "{}", first.summary);
        // A position and weights out, a move and a line back; an engine is 256 KB even empty.
        assert!(largest < 1024, "a {largest}-byte message");
        game.make_move(first.mv.unwrap());
        let (second, largest) = in_the_worker(&game, false);
        let kept = number_before(&second.summary, "kept from the last move");
        assert_eq!(kept, number_before(&first.summary, "times"), "{}", second.summary);
        assert!(second.engine.is_none() && largest < 1024, "a {largest}-byte message");
        // A player whose worker was lost (Stop ends it) starts afresh, whatever this place kept.
        game.make_move(second.mv.unwrap());
        let (third, _) = in_the_worker(&game, true);
        assert!(!third.summary.contains("kept"), "{}", third.summary);
    }

    /// The summary gives the visits of the move played, not of the most visited one: with X to
    /// win at once, c3 is proven on the first iteration without a visit of its own.
    #[test]
    fn the_uct_summary_is_about_the_move_played() {
        let game = crate::games::tictactoe::TicTacToe::from_position("xx./oo./...").unwrap();
        let config = MctsConfig { iterations: Some(100), ..MctsConfig::plain() };
        let result = crate::adversarial::mcts::uct_search(&game, &crate::games::DefaultEval, &config, &mut NoTrace);
        assert_eq!(result.best_move_text.as_deref(), Some("c3"));
        assert!(
            uct_summary(&result, "X").ends_with("the move played: a proven win, tried 0 times"),
            "{}",
            uct_summary(&result, "X")
        );
        let game = crate::games::tictactoe::TicTacToe::from_position("x../.o./...").unwrap();
        let result = crate::adversarial::mcts::uct_search(&game, &crate::games::DefaultEval, &config, &mut NoTrace);
        let played = result.stats.children.iter().find(|c| Some(&c.mv) == result.best_move_text.as_ref()).unwrap();
        let expected = format!("the move played: tried {} times, mean reward {:.2} for O", played.visits, played.mean);
        assert!(uct_summary(&result, "O").ends_with(&expected), "{}: {expected}", uct_summary(&result, "O"));
    }
}
