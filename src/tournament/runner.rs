//! The match runner: game pairs with colours swapped on a fixed suite of seeded random openings,
//! played in parallel with rayon. Every game is seeded from the match seed and its own index, and
//! results are gathered in pair order, so a seed gives the same match on any number of threads.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::elo::{EloEstimate, Wdl, elo_estimate};
use super::engine::{Engine, EngineSpec};
use super::scoring::{GameRecord, GameResult, ReportScoring, tally};
use super::sprt::{Decision, Sprt, SprtStatus};
use crate::games::{Evaluator, Game, Outcome, Side, random_playout};
use crate::trace::NoTrace;

/// A player of a match: an engine and the evaluation it searches with.
#[derive(Debug, Clone)]
pub struct Contestant<E> {
    pub engine: EngineSpec,
    pub eval: E,
}

#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Games to play (pairs share an opening; an odd count leaves the last pair with one game).
    pub games: u32,
    pub seed: u64,
    /// Random plies that open each pair.
    pub opening_plies: usize,
    /// Stop as soon as this test decides (checked after every pair).
    pub sprt: Option<Sprt>,
    pub scoring: ReportScoring,
}

/// Hears about games as they finish (from any worker thread) and can cancel the match.
pub trait MatchObserver: Sync {
    fn game_finished(&self, _game: &GameRecord) {}
    fn cancelled(&self) -> bool {
        false
    }
}

/// No progress, never cancelled.
impl MatchObserver for () {}

/// What a match produced: its games in order, from the first contestant's point of view.
#[derive(Debug, Clone)]
pub struct MatchReport {
    pub games: Vec<GameRecord>,
    /// The test's state when the match ended, if one was run.
    pub sprt: Option<SprtStatus>,
    pub cancelled: bool,
}

/// A match's figures from the first contestant's point of view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Plain scoring, 0..1.
    pub score: f64,
    /// The report's scoring, −1..1 (0 is even).
    pub report_score: f64,
    pub elo: EloEstimate,
    pub average_plies: f64,
    pub sprt: Option<SprtStatus>,
}

impl MatchReport {
    pub fn wdl(&self) -> Wdl {
        tally(&self.games)
    }

    pub fn summary(&self, scoring: &ReportScoring) -> MatchSummary {
        let wdl = self.wdl();
        let plies: usize = self.games.iter().map(|g| g.plies).sum();
        MatchSummary {
            games: wdl.games(),
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            score: wdl.score(),
            report_score: scoring.mean(&self.games),
            elo: elo_estimate(&wdl),
            average_plies: plies as f64 / self.games.len().max(1) as f64,
            sprt: self.sprt,
        }
    }
}

/// Pairs played between checks for an SPRT decision or a cancel: enough to keep the cores busy.
const PAIRS_PER_BATCH: u32 = 16;

/// Worker threads worth starting for `requested` on a match of `games`: no more than the pairs
/// played at once (a pair is one task) nor the machine's cores (more only time-slice them).
pub fn useful_threads(requested: usize, games: u32) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let pairs_at_once = games.div_ceil(2).min(PAIRS_PER_BATCH) as usize;
    requested.min(pairs_at_once).min(cores).max(1)
}

/// An independent random stream for each (seed, stream) (SplitMix64's mixing step).
fn stream_rng(seed: u64, stream: u64) -> StdRng {
    let mut z = seed.wrapping_add(stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    StdRng::seed_from_u64(z ^ (z >> 31))
}

/// The opening of pair `pair` in the suite of `seed`: up to `plies` random legal moves from `start`.
pub fn opening<G: Game>(start: &G, seed: u64, pair: u32, plies: usize) -> G {
    let mut game = start.clone();
    random_playout(&mut game, plies, &mut stream_rng(seed, u64::from(pair)));
    game
}

/// A match's games gathered pair by pair in pair order, the SPRT (if any) checked after each pair:
/// the runner and the merge of sharded runs end a match at the same pair.
pub struct PairFold<'a> {
    pub report: MatchReport,
    sprt: Option<&'a Sprt>,
    /// Kept as the pairs come in, so the SPRT check after each pair does not re-count every game.
    running: Wdl,
}

impl<'a> PairFold<'a> {
    pub fn new(sprt: Option<&'a Sprt>) -> Self {
        Self { report: MatchReport { games: Vec::new(), sprt: None, cancelled: false }, sprt, running: Wdl::default() }
    }

    /// Adds the next pair's games; true when the SPRT has decided, which ends the match.
    pub fn add(&mut self, pair_games: Vec<GameRecord>) -> bool {
        self.running.add(&tally(&pair_games));
        self.report.games.extend(pair_games);
        let Some(sprt) = self.sprt else { return false };
        let status = sprt.status(&self.running);
        self.report.sprt = Some(status);
        status.decision != Decision::Continue
    }
}

/// Plays `contestants[0]` against `contestants[1]` from `start`.
pub fn run_match<G: Game + Sync, E: Evaluator<G>>(
    start: &G,
    contestants: &[Contestant<E>; 2],
    config: &MatchConfig,
    observer: &dyn MatchObserver,
) -> Result<MatchReport, String> {
    let pairs: Vec<u32> = (0..config.games.div_ceil(2)).collect();
    run_pairs(start, contestants, config, &pairs, observer)
}

/// Plays the games of `pairs` (increasing pair numbers of the match `config` describes), so that
/// the games of each pair are those [`run_match`] would play.
pub fn run_pairs<G: Game + Sync, E: Evaluator<G>>(
    start: &G,
    contestants: &[Contestant<E>; 2],
    config: &MatchConfig,
    pairs: &[u32],
    observer: &dyn MatchObserver,
) -> Result<MatchReport, String> {
    if config.games == 0 {
        return Err("a match needs at least 1 game".to_string());
    }
    if let Some(sprt) = &config.sprt {
        sprt.validate()?;
    }
    let mut fold = PairFold::new(config.sprt.as_ref());
    for batch in pairs.chunks(PAIRS_PER_BATCH as usize) {
        let batch: Vec<Option<Vec<GameRecord>>> = batch
            .par_iter()
            .map(|&pair| {
                let opening = opening(start, config.seed, pair, config.opening_plies);
                let colours = if 2 * pair + 1 < config.games { 2 } else { 1 };
                (0..colours)
                    .map(|colour| {
                        if observer.cancelled() {
                            return None;
                        }
                        let game = play_game(&opening, contestants, pair, colour == 0, config.seed);
                        observer.game_finished(&game);
                        Some(game)
                    })
                    .collect()
            })
            .collect();
        for pair_games in batch {
            let Some(pair_games) = pair_games else {
                fold.report.cancelled = true;
                return Ok(fold.report);
            };
            if fold.add(pair_games) {
                return Ok(fold.report);
            }
        }
    }
    Ok(fold.report)
}

/// One game from `opening`; the record and the evaluations are from `contestants[0]`'s side.
fn play_game<G: Game, E: Evaluator<G>>(
    opening: &G,
    contestants: &[Contestant<E>; 2],
    pair: u32,
    first_plays_white: bool,
    seed: u64,
) -> GameRecord {
    // Engines' own random choices (levels, UCT) get a stream per game, after the openings' streams.
    let mut rng = stream_rng(seed, (1 << 32) + 2 * u64::from(pair) + u64::from(!first_plays_white));
    let mut engines = contestants.each_ref().map(|c| Engine::<G>::new(c.engine));
    let first_side = if first_plays_white { Side::First } else { Side::Second };
    let mut game = opening.clone();
    let (mut eval_sum, mut positions) = (0.0, 0u32);
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let mover_is_first = game.side_to_move() == first_side;
        let opinions: f64 = contestants.iter().map(|c| f64::from(c.eval.evaluate(&game))).sum();
        let towards_first = if mover_is_first { 1.0 } else { -1.0 };
        eval_sum += towards_first * opinions / 2.0;
        positions += 1;
        let mover = usize::from(!mover_is_first);
        match engines[mover].choose(&game, &contestants[mover].eval, &mut rng, &mut NoTrace).mv {
            Some(mv) => game.make_move(mv),
            None => break Outcome::Draw,
        }
    };
    let result = match outcome {
        Outcome::Win(side) if side == first_side => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
        Outcome::Draw => GameResult::Draw,
    };
    GameRecord {
        pair,
        first_plays_white,
        result,
        plies: game.ply() - opening.ply(),
        mean_eval: if positions == 0 { 0.0 } else { eval_sum / f64::from(positions) },
    }
}
