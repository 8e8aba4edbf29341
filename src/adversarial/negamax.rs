//! Negamax: minimax with every value from the side to move's point of view, so one rule
//! (`max` of the negated child values) serves both players. Visits every node down to `depth`.

use crate::time::Instant;

use super::tree::{Perspective, TreeEvent};
use super::{INF, SearchResult, Walk};
use crate::games::{Evaluator, Game, Score};
use crate::trace::{NO_NODE, Tracer};

/// Searches `game` to `depth` plies. The result's score is for the root side to move.
pub fn search<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    game: &G,
    eval: &E,
    depth: u32,
    tracer: &mut T,
) -> SearchResult<G::Move> {
    let started = Instant::now();
    let mut walk = Walk::new(eval, tracer, "negamax", Perspective::SideToMove);
    let mut position = game.clone();
    let value = node(&mut walk, &mut position, depth, 0, NO_NODE, String::new());
    walk.stats.complete_to(depth);
    let pv = walk.root_pv();
    walk.finish(game, pv, value, value, started)
}

fn node<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    walk: &mut Walk<'_, G, E, T>,
    game: &mut G,
    depth: u32,
    ply: usize,
    parent: u32,
    mv: String,
) -> Score {
    let id = walk.enter(game, parent, mv, depth, -INF, INF);
    let moves = match walk.moves_or_leaf(id, game, depth, ply, 1) {
        Ok(moves) => moves,
        Err(value) => return value,
    };
    let mut best = -INF;
    let mut best_child = NO_NODE;
    for &mv in &moves {
        let child = walk.next_node();
        let text = Walk::<G, E, T>::text(game, mv);
        game.make_move(mv);
        let value = -node(walk, game, depth - 1, ply + 1, id, text);
        game.unmake_move();
        if value > best {
            best = value;
            best_child = child;
            walk.update_pv(ply, mv);
            walk.window(id, best, -INF, INF, best_child);
        }
    }
    walk.give_back(ply, moves);
    walk.exit(id, best, best_child)
}
