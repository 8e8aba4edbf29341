//! perft: the number of legal move sequences of a given length. Per the spec a finished game has
//! no moves, and a move that hits the round cap ends a sequence of its own length.

use super::{Game, Hus};

/// The number of legal move sequences of length `depth` from `game`'s position. The last ply is
/// counted without playing it.
pub fn perft(game: &mut Hus, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(32);
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut sequences = 0;
    for pit in moves {
        game.make_move(pit);
        sequences += perft(game, depth - 1);
        game.unmake_move();
    }
    sequences
}
