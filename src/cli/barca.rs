//! `searchlab barca ...`: the Barca engine from the command line.

use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use super::{CliError, CliResult, emit};
use crate::games::barca::{Barca, START_FEN, perft};

#[derive(Debug, Args)]
pub struct BarcaArgs {
    #[command(subcommand)]
    command: BarcaCommand,
}

#[derive(Debug, Subcommand)]
enum BarcaCommand {
    /// Count the legal move sequences of a given length (the move generator's check).
    Perft(PerftArgs),
}

#[derive(Debug, Args)]
struct PerftArgs {
    /// Length of the move sequences to count.
    #[arg(long)]
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
    }
}

/// Parses `--fen`, naming the option in the error.
pub fn read_fen(text: &str) -> Result<Barca, CliError> {
    Barca::from_fen(text).map_err(|error| CliError(format!("--fen '{text}': {error}")))
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
