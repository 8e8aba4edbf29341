//! `searchlab barca match` and `barca tune`: self-play matches and weight tuning, with a progress
//! bar on stderr and JSON on stdout.

use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use super::{CliError, CliResult, emit, read_fen};
use crate::adversarial::engine::EngineAlgorithm;
use crate::games::barca::START_FEN;
use crate::games::barca::eval::Weights;
use crate::tournament::plot::tuning_svg;
use crate::tournament::shard::{Shard, game_index};
use crate::tournament::{
    Contestant, EngineSpec, GameRecord, GameResult, MatchConfig, MatchObserver, MatchReport, Objective, ReportScoring,
    Sprt, TuneConfig, TuneLog, run_pairs, tune, useful_threads,
};

/// The two engines of a match (`barca match`, `game match`).
#[derive(Debug, Args)]
pub(super) struct Engines {
    /// The first engine (moving first in odd games): minimax:D, negamax:D, alphabeta:D, id:D,
    /// id:<T>ms, uct:N, uct:<T>ms (with options, e.g. uct:100ms,plain,rave=1000), random, easy,
    /// medium, hard (default id:<depth>).
    #[arg(long)]
    white: Option<EngineSpec>,
    /// The second engine (default id:<depth>).
    #[arg(long)]
    black: Option<EngineSpec>,
    /// Depth of the default engines, and of an `id` given no limit.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub(super) depth: u32,
}

impl Engines {
    /// Both engines, a missing one `id:<depth>`; a bare `id` would deepen until the game's end,
    /// so it searches `--depth` plies like the default.
    pub(super) fn specs(&self) -> [EngineSpec; 2] {
        let limited = |engine: EngineSpec| match engine {
            EngineSpec {
                algorithm: EngineAlgorithm::Id, level: None, depth: None, millis: None, nodes: None, ..
            } => EngineSpec { depth: Some(self.depth), ..engine },
            engine => engine,
        };
        [self.white, self.black]
            .map(|engine| engine.map_or(EngineSpec::depth(EngineAlgorithm::Id, self.depth), limited))
    }
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    engines: Engines,
    /// Evaluation weights (JSON) of the first engine (default: the hand-picked ones).
    #[arg(long)]
    white_weights: Option<PathBuf>,
    /// Evaluation weights (JSON) of the second engine.
    #[arg(long)]
    black_weights: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Seeds the opening suite and the engines' randomized choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    ply_limit: usize,
    /// Random moves that open each pair of games (both colours play the same opening).
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Stop early once the SPRT of "elo0,elo1" (Elo of the first engine) decides.
    #[arg(long, value_parser = parse_elo_pair)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Worker threads (default: one per core; never more than the cores, nor than the pairs played at once).
    #[arg(long)]
    threads: Option<usize>,
    /// Print only the summary, not a line per game.
    #[arg(long)]
    summary_only: bool,
    /// Play only shard K of N (`K/N`): every N-th opening pair from the K-th, every game a JSON
    /// line, then the match's description; `barca merge` sums the shards' files.
    #[arg(long, conflicts_with = "summary_only")]
    shard: Option<Shard>,
    /// The position to start from (default: the start).
    #[arg(long, default_value = START_FEN)]
    fen: String,
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Gradient steps after judging the start.
    #[arg(long, default_value_t = 10)]
    iterations: u32,
    /// Games in each match (every derivative, every comparison with the reference).
    #[arg(long, default_value_t = 40)]
    games_per_eval: u32,
    /// Search depth of the tuning engines (iterative deepening).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Where to write the best weights (JSON).
    #[arg(long)]
    out: PathBuf,
    /// Where to write the per-iteration log: CSV if the name ends in .csv, else JSON.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Where to draw the score and weights per iteration (SVG).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Weights to start from (default: the hand-picked ones).
    #[arg(long)]
    start: Option<PathBuf>,
    /// The fixed weights every iteration is measured against (default: the hand-picked ones).
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Seeds the opening suite every match of the run plays.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The perturbation for the derivatives, as a fraction of each weight.
    #[arg(long, default_value_t = 0.25)]
    delta: f64,
    /// Step length per unit of derivative, in fractions of each weight.
    #[arg(long, default_value_t = 0.5)]
    learning_rate: f64,
    /// Iterations without a new best before restarting from the best with a smaller delta or step.
    #[arg(long, default_value_t = 2)]
    patience: u32,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 200)]
    ply_limit: usize,
    /// Random moves that open each pair of games.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// What to maximise: the report's score (quick wins, draws judged by evaluation) or plain W/D/L.
    #[arg(long, default_value = "report")]
    objective: Objective,
    /// Worker threads (default: one per core; never more than the cores, nor than the pairs played at once).
    #[arg(long)]
    threads: Option<usize>,
}

/// Parses `elo0,elo1`.
fn parse_elo_pair(text: &str) -> Result<(f64, f64), String> {
    let parse = |s: &str| s.trim().parse::<f64>().map_err(|_| format!("'{s}' in '{text}' is not a number"));
    let (elo0, elo1) = text.split_once(',').ok_or_else(|| format!("'{text}' is not elo0,elo1"))?;
    Ok((parse(elo0)?, parse(elo1)?))
}

/// Refuses games that end before they start: an opening as long as the ply limit leaves no ply to
/// play, and every game would be a 0-ply draw.
pub(super) fn check_game_length(ply_limit: usize, opening_plies: usize) -> CliResult {
    if ply_limit == 0 {
        return Err(CliError("--ply-limit must be at least 1".to_string()));
    }
    if opening_plies >= ply_limit {
        return Err(CliError(format!("--opening-plies {opening_plies} must be below --ply-limit {ply_limit}")));
    }
    Ok(())
}

/// Counts finished games on a progress bar (hidden when stderr is not a terminal).
pub(super) struct BarObserver(pub(super) ProgressBar);

impl BarObserver {
    pub(super) fn new(games: u64, what: &str) -> Self {
        let style =
            ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} [{{elapsed}}, ETA {{eta}}]"))
                .expect("valid template");
        Self(ProgressBar::new(games).with_style(style))
    }
}

impl MatchObserver for BarObserver {
    fn game_finished(&self, _game: &GameRecord) {
        self.0.inc(1);
    }
}

pub(super) fn load_weights(path: Option<&Path>, option: &str) -> Result<Weights, CliError> {
    path.map_or(Ok(Weights::default()), |path| Weights::load(path).map_err(|e| CliError(format!("{option}: {e}"))))
}

/// Runs `work`, matches of `games` each, on `threads` workers capped by [`useful_threads`], or on
/// rayon's global pool.
pub(super) fn with_threads<T: Send>(
    threads: Option<usize>,
    games: u32,
    work: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    match threads {
        Some(0) => Err(CliError("--threads must be at least 1".to_string())),
        Some(threads) => {
            let workers = useful_threads(threads, games);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .build()
                .map_err(|e| CliError(format!("--threads {threads}: cannot start {workers} worker threads: {e}")))?;
            Ok(pool.install(work))
        }
        None => Ok(work()),
    }
}

fn result_text(record: &GameRecord) -> &'static str {
    match record.result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

pub fn run_match_command(args: MatchArgs) -> CliResult {
    let mut start = read_fen(&args.fen)?;
    // Games from a finished position would end before a move: no match to report.
    crate::scene::GameKind::Barca
        .searchable(crate::games::Game::outcome(&start))
        .map_err(|e| CliError(format!("--fen: {e}")))?;
    check_game_length(args.ply_limit, args.opening_plies)?;
    if args.games == 0 {
        return Err(CliError("--games must be at least 1".to_string()));
    }
    start.set_ply_limit(Some(args.ply_limit));
    let engines = args.engines.specs();
    let weights = [
        load_weights(args.white_weights.as_deref(), "--white-weights")?,
        load_weights(args.black_weights.as_deref(), "--black-weights")?,
    ];
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1, alpha: args.alpha, beta: args.beta });
    if let Some(sprt) = &sprt {
        sprt.validate().map_err(|e| CliError(format!("--sprt: {e}")))?;
    }
    let scoring = ReportScoring::default();
    // A shard cannot stop for the SPRT: the other shards' games count too. The merge runs it.
    let runner_sprt = if args.shard.is_some() { None } else { sprt };
    let config = MatchConfig {
        games: args.games,
        seed: args.seed,
        opening_plies: args.opening_plies,
        sprt: runner_sprt,
        scoring,
    };
    let contestants = [0, 1].map(|i| Contestant { engine: engines[i], eval: weights[i].clone() });
    let pairs = args.shard.map_or_else(|| (0..args.games.div_ceil(2)).collect(), |shard| shard.pairs(args.games));
    let bar = BarObserver::new(u64::from(args.games), "games");
    let report = with_threads(args.threads, args.games, || run_pairs(&start, &contestants, &config, &pairs, &bar))?
        .map_err(CliError)?;
    bar.0.finish_and_clear();
    if !args.summary_only {
        for record in &report.games {
            emit(&game_line(record, &scoring));
        }
    }
    let names = |path: &Option<PathBuf>| json!(path.as_ref().map(|p| p.display().to_string()));
    let described = MatchDescription {
        white: engines[0].to_string(),
        black: engines[1].to_string(),
        white_weights: names(&args.white_weights),
        black_weights: names(&args.black_weights),
        seed: args.seed,
        games: args.games,
        opening_plies: args.opening_plies,
        ply_limit: args.ply_limit,
        fen: args.fen.clone(),
        sprt,
    };
    match args.shard {
        Some(shard) => emit(&json!({ "shard": shard.to_string(), "pairs": pairs.len(), "match": described })),
        None => emit(&described.summary(&report, &scoring)?),
    }
    Ok(())
}

/// One game as a JSON line: what `barca merge` reads back.
fn game_line(record: &GameRecord, scoring: &ReportScoring) -> serde_json::Value {
    let winner = match (record.result, record.first_plays_white) {
        (GameResult::Draw, _) => "draw",
        (GameResult::Win, true) | (GameResult::Loss, false) => "white",
        _ => "black",
    };
    json!({"game": game_index(record) + 1, "opening": record.pair + 1,
        "first_engine_plays": if record.first_plays_white { "white" } else { "black" },
        "winner": winner, "first_engine_result": result_text(record), "plies": record.plies,
        "mean_eval": record.mean_eval, "report_score": scoring.score(record)})
}

/// What a match played: the summary names it, and each shard's last line carries it for the merge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct MatchDescription {
    white: String,
    black: String,
    white_weights: serde_json::Value,
    black_weights: serde_json::Value,
    seed: u64,
    pub(super) games: u32,
    opening_plies: usize,
    ply_limit: usize,
    fen: String,
    pub(super) sprt: Option<Sprt>,
}

impl MatchDescription {
    /// The summary line of `report`, naming the engines, their weights and the seed.
    pub(super) fn summary(&self, report: &MatchReport, scoring: &ReportScoring) -> Result<serde_json::Value, CliError> {
        let mut summary = serde_json::to_value(report.summary(scoring))?;
        summary["white"] = json!(self.white);
        summary["black"] = json!(self.black);
        summary["white_weights"] = self.white_weights.clone();
        summary["black_weights"] = self.black_weights.clone();
        summary["seed"] = json!(self.seed);
        Ok(summary)
    }
}

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A JSON tuning log (`barca tune --log FILE.json`).
    #[arg(long)]
    log: PathBuf,
    /// Where to write the SVG.
    #[arg(long)]
    out: PathBuf,
}

/// Draws a tuning log's score and weights per iteration as SVG.
pub fn run_plot(args: PlotArgs) -> CliResult {
    if is_csv(&args.log) {
        return Err(CliError(format!(
            "{}: plots read the JSON log (write it with barca tune --log FILE.json), not the CSV one",
            args.log.display()
        )));
    }
    let text = crate::files::read_text(&args.log, crate::files::MAX_TEXT)
        .map_err(|e| CliError(e.at(&args.log.display().to_string())))?;
    let log = TuneLog::from_json(&text).map_err(|e| CliError(format!("{}: {e}", args.log.display())))?;
    std::fs::write(&args.out, tuning_svg(&log)).map_err(|e| CliError(format!("{}: {e}", args.out.display())))?;
    emit(&json!({ "plot": args.out.display().to_string(), "iterations": log.iterations.len() }));
    Ok(())
}

/// Fails now, not after a long run, if `path` cannot be written (leaves an existing file as it is).
fn check_writable(path: &Path) -> CliResult {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
    if !existed {
        std::fs::remove_file(path).ok();
    }
    Ok(())
}

pub fn run_tune(args: TuneArgs) -> CliResult {
    for path in std::iter::once(&args.out).chain(&args.log).chain(&args.plot) {
        check_writable(path)?;
    }
    if args.games_per_eval < 2 {
        return Err(CliError("--games-per-eval must be at least 2 (one pair)".to_string()));
    }
    if !(args.delta > 0.0 && args.learning_rate > 0.0) {
        return Err(CliError("--delta and --learning-rate must be positive".to_string()));
    }
    if args.patience == 0 {
        return Err(CliError("--patience must be at least 1".to_string()));
    }
    check_game_length(args.ply_limit, args.opening_plies)?;
    let mut config = TuneConfig::new(args.iterations, args.games_per_eval, args.depth);
    config.start = load_weights(args.start.as_deref(), "--start")?;
    config.reference = load_weights(args.reference.as_deref(), "--reference")?;
    config.seed = args.seed;
    config.delta = args.delta;
    config.learning_rate = args.learning_rate;
    config.patience = args.patience;
    config.ply_limit = args.ply_limit;
    config.opening_plies = args.opening_plies;
    config.objective = args.objective;
    let bar = BarObserver::new(config.total_games(), "tuning games");
    let log = with_threads(args.threads, args.games_per_eval, || tune(&config, &bar))?.map_err(CliError)?;
    bar.0.finish_and_clear();
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| CliError(format!("{}: {e}", path.display())))
    };
    write(&args.out, log.best.to_json())?;
    if let Some(path) = &args.log {
        write(path, if is_csv(path) { log.to_csv() } else { log.to_json() })?;
    }
    if let Some(path) = &args.plot {
        write(path, tuning_svg(&log))?;
    }
    let last = log.iterations.last().expect("the start is always judged");
    emit(&json!({
        "iterations": log.iterations.len() - 1, "games_per_eval": args.games_per_eval, "engine": log.engine, "objective": log.objective,
        "start_report_score": log.iterations[0].report_score,
        "best_iteration": log.best_iteration,
        "best_report_score": log.iterations[log.best_iteration as usize].report_score,
        "best_plain_score": log.iterations[log.best_iteration as usize].plain_score,
        "last_report_score": last.report_score,
        "restarts": log.iterations.iter().filter(|row| row.restarted).count(),
        "best": log.best, "out": args.out.display().to_string(),
        "log": args.log.as_ref().map(|p| p.display().to_string()),
    }));
    Ok(())
}

/// A tuning log named `*.csv` is written as CSV, any other as JSON.
fn is_csv(path: &Path) -> bool {
    crate::files::has_extension(path, "csv")
}
