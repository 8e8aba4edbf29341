//! perft: the number of legal move sequences of a given length, the standard check of a move
//! generator. Per the spec it ignores repetition and stops at won positions.

use super::{Barca, BarcaMove, Game};

/// The number of legal move sequences of length `depth` from `game`'s position; a sequence ends
/// early (and is not counted) at a won position. The last ply is counted without playing it.
pub fn perft(game: &mut Barca, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.winner().is_some() {
        return 0;
    }
    if depth == 1 {
        return game.count_legal_moves();
    }
    let mut moves = Vec::with_capacity(64);
    game.legal_moves(&mut moves);
    let mut nodes = 0;
    for mv in moves {
        game.play(mv);
        nodes += perft(game, depth - 1);
        game.take_back();
    }
    nodes
}

/// perft split by first move, in move-generation order (`depth` ≥ 1).
pub fn divide(game: &mut Barca, depth: usize) -> Vec<(BarcaMove, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || game.winner().is_some() {
        return Vec::new();
    }
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            game.play(mv);
            let nodes = perft(game, depth - 1);
            game.take_back();
            (mv, nodes)
        })
        .collect()
}
