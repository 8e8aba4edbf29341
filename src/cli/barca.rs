//! `searchlab barca ...`: the Barca engine from the command line.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use super::game_search::{self, SearchArgs};
use super::tournament::{MatchArgs, PlotArgs, TuneArgs, load_weights, run_match_command, run_plot, run_tune};
use super::{CliError, CliResult, emit, read_fen};
use crate::games::barca::{START_FEN, perft};
use crate::games::{Game, Outcome, Side};

#[derive(Debug, Args)]
pub struct BarcaArgs {
    #[command(subcommand)]
    command: BarcaCommand,
}

#[derive(Debug, Subcommand)]
// Parsed once per run: boxing the large variants' arguments would buy nothing.
#[allow(clippy::large_enum_variant)]
enum BarcaCommand {
    /// Count the legal move sequences of a given length (the move generator's check).
    Perft(PerftArgs),
    /// Search a position and print the best move, score, principal variation and statistics.
    #[command(after_help = game_search::OUTPUT_HELP)]
    Search(SearchPositionArgs),
    /// Play engines against each other, colours swapped each pair: each game, W/D/L, Elo, SPRT.
    #[command(alias = "play")]
    Match(MatchArgs),
    /// The summary of a match played in shards (`match --shard K/N`), from every shard's output.
    Merge(super::merge::MergeArgs),
    /// Tune the evaluation weights by gradient ascent over self-play matches.
    Tune(TuneArgs),
    /// Draw a tuning log (score and weights per iteration) as an SVG file.
    Plot(PlotArgs),
}

#[derive(Debug, Args)]
struct SearchPositionArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// The position (default: the start).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// The game so far from --fen, e.g. "e2e5 f9f7" (move numbers allowed): the search then sees
    /// repetitions of earlier positions.
    #[arg(long, default_value = "")]
    moves: String,
    /// Evaluation weights (JSON, as written by `barca tune`; default: the hand-picked ones).
    #[arg(long)]
    weights: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct PerftArgs {
    /// Length of the move sequences to count (each ply multiplies the time by about 40).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..=64))]
    depth: usize,
    /// The position, e.g. "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 w" (the start).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: BarcaArgs) -> CliResult {
    match args.command {
        BarcaCommand::Perft(args) => run_perft(args),
        BarcaCommand::Search(args) => {
            let mut game = read_fen(&args.fen)?;
            game.play_moves(&args.moves).map_err(|error| CliError(format!("--moves: {error}")))?;
            let weights = load_weights(args.weights.as_deref(), "--weights")?;
            let mut out = game_search::run(&game, &weights, &args.search, 4, true)?;
            out["fen"] = json!(game.to_fen());
            out["ply"] = json!(game.ply());
            out["outcome"] = json!(game.outcome().map(|outcome| match outcome {
                Outcome::Win(Side::First) => "white wins",
                Outcome::Win(Side::Second) => "black wins",
                Outcome::Draw => "draw",
            }));
            emit(&out);
            Ok(())
        }
        BarcaCommand::Match(args) => run_match_command(args),
        BarcaCommand::Merge(args) => super::merge::run_merge(args),
        BarcaCommand::Tune(args) => run_tune(args),
        BarcaCommand::Plot(args) => run_plot(args),
    }
}

fn run_perft(args: PerftArgs) -> CliResult {
    let mut game = read_fen(&args.fen)?;
    let started = Instant::now();
    let nodes = if args.divide {
        let counts = perft::divide(&mut game, args.depth);
        for (mv, nodes) in &counts {
            emit(&json!({"move": mv.to_string(), "nodes": nodes}));
        }
        if args.depth == 0 { 1 } else { counts.iter().map(|(_, nodes)| nodes).sum() }
    } else {
        perft::perft(&mut game, args.depth)
    };
    emit(&json!({"depth": args.depth, "nodes": nodes, "micros": started.elapsed().as_micros() as u64}));
    Ok(())
}
