//! `searchlab tictactoe`: search tic-tac-toe positions.

use clap::{Args, Subcommand};

use super::game_search::{self, SearchArgs};
use super::{CliError, CliResult, emit};
use crate::games::DefaultEval;
use crate::games::tictactoe::TicTacToe;

#[derive(Debug, Args)]
pub struct TicTacToeArgs {
    #[command(subcommand)]
    command: TicTacToeCommand,
}

#[derive(Debug, Subcommand)]
enum TicTacToeCommand {
    /// Search a position (the whole game tree by default) and print the best move, score, PV and statistics.
    #[command(after_help = game_search::OUTPUT_HELP)]
    Search {
        #[command(flatten)]
        search: SearchArgs,
        /// Nine cells of x, o or . row by row from the top left, e.g. "x.o/.x./..." (default: empty board);
        /// moves are named from the bottom left, a1, as on a chess board.
        #[arg(long)]
        position: Option<String>,
    },
}

pub fn run(args: TicTacToeArgs) -> CliResult {
    match args.command {
        TicTacToeCommand::Search { search, position } => {
            let game = match position {
                Some(text) => TicTacToe::from_position(&text).map_err(CliError)?,
                None => TicTacToe::new(),
            };
            let mut out = game_search::run(&game, &DefaultEval, &search, 9, false)?;
            // Rows split as the lectures and --position write them.
            let cells = game.position_text();
            out["position"] = serde_json::json!([&cells[0..3], &cells[3..6], &cells[6..9]].join("/"));
            emit(&out);
            Ok(())
        }
    }
}
