//! `searchlab game ...`: any registered game (`--game tictactoe|barca|tree|...`) from the command
//! line: perft, search and engine matches.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::game_search::{self, SearchArgs};
use super::game_simultaneous::{self as simultaneous, GameChoice};
use super::{CliError, CliResult, emit};
use crate::games::{DefaultEval, GameKind, GameVisitor, RegisteredGame};
use std::time::Instant;

#[derive(Debug, Args)]
pub struct GameArgs {
    #[command(subcommand)]
    command: GameCommand,
}

#[derive(Debug, Subcommand)]
// Parsed once per run: boxing the large variants' arguments would buy nothing.
#[allow(clippy::large_enum_variant)]
enum GameCommand {
    /// The number of legal move sequences of a length from a position: the standard check of a
    /// move generator. Prints {"game", "depth", "nodes", "micros"}.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=12))]
        depth: u32,
    },
    /// Search a position and print the best move, score, principal variation and statistics.
    #[command(after_help = game_search::OUTPUT_HELP)]
    Search {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Play engines against each other, colours swapped each pair: each game, W/D/L, score with
    /// its 95% interval, Elo.
    Match(super::game_match::GameMatchArgs),
}

#[derive(Debug, Args)]
struct PositionArgs {
    /// The game, by its id (ropasci, goofspiel and matrix are simultaneous-move games).
    #[arg(long, value_parser = simultaneous::parse_game_choice)]
    game: GameChoice,
    /// A position in the game's own text (default: the game's start, or the lab's example).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
}

impl PositionArgs {
    /// Runs `visitor` on the position asked for, of the turn-based game `game`.
    fn visit<V: GameVisitor>(&self, game: GameKind, visitor: V) -> Result<V::Output, CliError> {
        let text = self.position.as_deref().unwrap_or(game.default_position());
        let position = game.parse(text).map_err(|e| CliError(format!("--position: {e}")))?;
        Ok(position.visit(visitor))
    }
}

pub fn run(args: GameArgs) -> CliResult {
    let out = match args.command {
        GameCommand::Match(args) => return super::game_match::run(args),
        GameCommand::Perft { position: PositionArgs { game: GameChoice::Simultaneous(kind), position }, depth } => {
            simultaneous::run_perft(kind, position.as_deref(), depth)?
        }
        GameCommand::Search { position: PositionArgs { game: GameChoice::Simultaneous(kind), position }, search } => {
            simultaneous::run_search(kind, position.as_deref(), &search)?
        }
        GameCommand::Perft { position: position @ PositionArgs { game: GameChoice::TurnBased(game), .. }, depth } => {
            struct Perft(usize);
            impl GameVisitor for Perft {
                type Output = (u64, f64);
                fn visit<G: RegisteredGame>(self, game: &G) -> (u64, f64) {
                    let clock = Instant::now();
                    let nodes = game.clone().perft(self.0);
                    (nodes, super::path::micros_since(clock))
                }
            }
            let (nodes, micros) = position.visit(game, Perft(depth as usize))?;
            json!({ "game": game.id(), "depth": depth, "nodes": nodes, "micros": micros })
        }
        GameCommand::Search { position: position @ PositionArgs { game: GameChoice::TurnBased(game), .. }, search } => {
            struct Search<'a>(&'a SearchArgs);
            impl GameVisitor for Search<'_> {
                type Output = Result<Value, CliError>;
                fn visit<G: RegisteredGame>(self, game: &G) -> Self::Output {
                    game_search::run(game, &DefaultEval, self.0, G::DEFAULT_DEPTH, false)
                }
            }
            let mut out = position.visit(game, Search(&search))??;
            out["game"] = json!(game.id());
            out
        }
    };
    emit(&out);
    Ok(())
}
