//! Playouts: random moves, or MAST's best average, to the end of the game or the evaluation cut-off.

use rand::Rng;

use crate::games::{Evaluator, Game, MAX_PLY};

use super::super::iterative::move_slot;
use super::super::mcts_trace::PlayoutEnd;
use super::{MAST_SLOTS, Mcts, Proven, squash};

impl<G: Game> Mcts<G> {
    /// Random moves from the current position until the game ends or the cut-off; returns the
    /// reward of the player who moved into the starting node, the plies played and why it stopped.
    pub(super) fn playout<E: Evaluator<G>>(&mut self, evaluator: &E) -> (f64, u32, PlayoutEnd) {
        let mover = self.game.side_to_move().other();
        let cutoff = self.config.playout_cutoff.unwrap_or(MAX_PLY as u32);
        let mut moves = std::mem::take(&mut self.moves);
        let mut plies = 0;
        let (reward, end) = loop {
            if let Some(outcome) = self.game.outcome() {
                break (Proven::of_outcome(outcome, mover).reward(), PlayoutEnd::GameOver);
            }
            if plies >= cutoff {
                let to_move = squash(evaluator.evaluate(&self.game), self.config.eval_scale);
                break (if self.game.side_to_move() == mover { to_move } else { 1.0 - to_move }, PlayoutEnd::CutOff);
            }
            moves.clear();
            self.game.legal_moves(&mut moves);
            if moves.is_empty() {
                break (Proven::Draw.reward(), PlayoutEnd::GameOver);
            }
            let mv = self.playout_move(&moves);
            if self.config.mast.is_some() || self.config.rave.is_some() {
                self.playout_moves.push((self.game.side_to_move(), mv));
            }
            self.game.make_move(mv);
            plies += 1;
        };
        for _ in 0..plies {
            self.game.unmake_move();
        }
        self.moves = moves;
        (reward, plies, end)
    }

    /// A random move, or with MAST usually the move with the best average reward so far.
    fn playout_move(&mut self, moves: &[G::Move]) -> G::Move {
        let greedy = self.config.mast.is_some_and(|epsilon| !self.rng.random_bool(epsilon.clamp(0.0, 1.0)));
        if !greedy {
            return moves[self.rng.random_range(0..moves.len())];
        }
        let side = self.game.side_to_move();
        let average = |&mv: &G::Move| {
            let (sum, count) = self.mast[move_slot(side, mv, MAST_SLOTS)];
            // Moves never played yet count as even.
            if count == 0 { 0.5 } else { sum / count as f32 }
        };
        *moves.iter().max_by(|a, b| average(a).total_cmp(&average(b))).expect("playouts only pick among legal moves")
    }
}
