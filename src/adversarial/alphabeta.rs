//! Alpha-beta in negamax form, fail-soft: a node's value may fall outside its window `(alpha,
//! beta)`, which then only bounds the true value. Moves are searched in generation order, so the
//! pruning shows what the game's own ordering is worth.

use crate::time::Instant;

use super::tree::{Perspective, TreeEvent};
use super::{INF, SearchResult, Walk};
use crate::games::{Evaluator, Game, Score};
use crate::trace::{NO_NODE, Tracer};

/// Searches `game` to `depth` plies with the full window. The score is for the root side to move.
pub fn search<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    game: &G,
    eval: &E,
    depth: u32,
    tracer: &mut T,
) -> SearchResult<G::Move> {
    search_window(game, eval, depth, -INF, INF, tracer)
}

/// Searches with the window `(alpha, beta)`: the score is exact inside it, a bound outside.
pub fn search_window<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    game: &G,
    eval: &E,
    depth: u32,
    alpha: Score,
    beta: Score,
    tracer: &mut T,
) -> SearchResult<G::Move> {
    let started = Instant::now();
    let mut walk = Walk::new(eval, tracer, "alpha-beta", Perspective::SideToMove);
    let mut position = game.clone();
    let value = node(&mut walk, &mut position, depth, 0, alpha, beta, NO_NODE, String::new());
    walk.stats.complete_to(depth);
    let pv = walk.root_pv();
    walk.finish(game, pv, value, value, started)
}

#[allow(clippy::too_many_arguments)]
fn node<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    walk: &mut Walk<'_, G, E, T>,
    game: &mut G,
    depth: u32,
    ply: usize,
    mut alpha: Score,
    beta: Score,
    parent: u32,
    mv: String,
) -> Score {
    let id = walk.enter(game, parent, mv, depth, alpha, beta);
    let moves = match walk.moves_or_leaf(id, game, depth, ply, 1) {
        Ok(moves) => moves,
        Err(value) => return value,
    };
    let mut best = -INF;
    let mut best_child = NO_NODE;
    for (i, &mv) in moves.iter().enumerate() {
        let child = walk.next_node();
        let text = Walk::<G, E, T>::text(game, mv);
        game.make_move(mv);
        let value = -node(walk, game, depth - 1, ply + 1, -beta, -alpha, id, text);
        game.unmake_move();
        if value > best {
            best = value;
            best_child = child;
            if value > alpha {
                alpha = value;
                walk.update_pv(ply, mv);
            }
            walk.window(id, best, alpha, beta, best_child);
            if value >= beta {
                walk.cutoff(game, id, i + 1, &moves[i + 1..]);
                break;
            }
        }
    }
    walk.give_back(ply, moves);
    walk.exit(id, best, best_child)
}
