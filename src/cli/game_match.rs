//! `searchlab game match --game NAME --white SPEC --black SPEC`: two engines play any registered
//! game, colours swapped each pair, as `barca match` does (the same runner, openings and figures).

use clap::Args;
use serde_json::{Value, json};

use super::game_simultaneous::{self as simultaneous, GameChoice, SimMatch};
use super::tournament::{BarObserver, Engines, check_game_length, with_threads};
use super::{CliError, CliResult, emit};
use crate::games::{DefaultEval, GameKind, GameVisitor, Position, RegisteredGame, Side};
use crate::tournament::{Contestant, GameRecord, GameResult, MatchConfig, ReportScoring, run_match};

#[derive(Debug, Args)]
pub struct GameMatchArgs {
    /// The game, by its id (on a simultaneous-move game both engines choose, then both act).
    #[arg(long, value_parser = simultaneous::parse_game_choice)]
    game: GameChoice,
    #[command(flatten)]
    engines: Engines,
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Seeds the opening suite and the engines' randomized choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves that open each pair of games (both colours play the same opening).
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Barca only (the other games end by their own rules): a game still running after this many
    /// plies is a draw.
    #[arg(long, default_value_t = 300)]
    ply_limit: usize,
    /// The position to start from, in the game's text (default: the game's start).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print only the summary, not a line per game.
    #[arg(long)]
    summary_only: bool,
}

pub fn run(args: GameMatchArgs) -> CliResult {
    check_game_length(args.ply_limit, args.opening_plies)?;
    if args.games == 0 {
        return Err(CliError("--games must be at least 1".to_string()));
    }
    let kind = match args.game {
        GameChoice::TurnBased(kind) => kind,
        GameChoice::Simultaneous(kind) => {
            let (position, engines) = (args.position.as_deref(), args.engines.specs());
            let (games, seed, opening_plies) = (args.games, args.seed, args.opening_plies);
            let lines = simultaneous::run_match(&SimMatch { kind, position, engines, games, seed, opening_plies })?;
            let skip = if args.summary_only { lines.len() - 1 } else { 0 };
            lines[skip..].iter().for_each(emit);
            return Ok(());
        }
    };
    let text = args.position.as_deref().unwrap_or(kind.start_position());
    let start = kind.parse(text).and_then(Position::searchable).map_err(|e| CliError(format!("--position: {e}")))?;
    let out = match start {
        Position::Barca(mut barca) => {
            barca.set_ply_limit(Some(args.ply_limit));
            Match(&args, kind).visit(&barca)
        }
        start => start.visit(Match(&args, kind)),
    }?;
    emit(&out);
    Ok(())
}

/// Plays the match on the game's own type; returns the summary line.
struct Match<'a>(&'a GameMatchArgs, GameKind);

impl GameVisitor for Match<'_> {
    type Output = Result<Value, CliError>;

    fn visit<G: RegisteredGame>(self, start: &G) -> Self::Output {
        let args = self.0;
        let engines = args.engines.specs();
        let scoring = ReportScoring::default();
        let config =
            MatchConfig { games: args.games, seed: args.seed, opening_plies: args.opening_plies, sprt: None, scoring };
        let contestants = engines.map(|engine| Contestant { engine, eval: DefaultEval });
        let bar = BarObserver::new(u64::from(args.games), "games");
        let report = with_threads(args.threads, args.games, || run_match(start, &contestants, &config, &bar))?
            .map_err(CliError)?;
        bar.0.finish_and_clear();
        if !args.summary_only {
            for record in &report.games {
                emit(&game_line(self.1, record));
            }
        }
        let mut summary = serde_json::to_value(report.summary(&scoring))?;
        let (low, high) = report.wdl().score_interval();
        summary["score_interval"] = json!([low, high]);
        summary["game"] = json!(self.1.id());
        summary["white"] = json!(engines[0].to_string());
        summary["black"] = json!(engines[1].to_string());
        summary["seed"] = json!(args.seed);
        Ok(summary)
    }
}

/// One game as a JSON line, the sides by the game's names for them.
fn game_line(kind: GameKind, record: &GameRecord) -> Value {
    let first_side = if record.first_plays_white { Side::First } else { Side::Second };
    let winner = match record.result {
        GameResult::Draw => "draw",
        GameResult::Win => kind.side_name(first_side),
        GameResult::Loss => kind.side_name(first_side.other()),
    };
    let result = match record.result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    };
    json!({"game": record.pair * 2 + u32::from(!record.first_plays_white) + 1, "opening": record.pair + 1,
        "first_engine_plays": kind.side_name(first_side), "winner": winner,
        "first_engine_result": result, "plies": record.plies})
}
