//! perft: the number of leaves of the game tree `depth` plies deep, the standard check of a move
//! generator. Per the spec a forced pass is a ply and a finished game is one leaf.

use super::{Game, Othello};

/// The number of leaves `depth` plies below `game`'s position (a game that ends sooner is one
/// leaf). The last ply is counted without playing it.
pub fn perft(game: &mut Othello, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(32);
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut leaves = 0;
    for mv in moves {
        game.make_move(mv);
        leaves += perft(game, depth - 1);
        game.unmake_move();
    }
    leaves
}
