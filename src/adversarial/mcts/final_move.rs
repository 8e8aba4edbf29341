//! The final-move rule: which move the engine plays and reports, and the result it gives.

use crate::games::{Game, Score, WIN};
use crate::trace::BestSoFar;

use super::value::mean;
use super::{Mcts, MctsResult, MctsStats, Proven};

/// What decides which of a node's moves is played: its proof, visits and mean, for its mover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayRank {
    pub visits: u32,
    pub value_sum: f64,
    pub proven: Option<Proven>,
    pub proof_plies: u16,
}

/// The one order of moves to play, best first, for the engine's move and every list of moves: a
/// proven win (the quickest first), then moves not proven lost by visits (ties to the better
/// mean), then proven losses (the slowest first). Equal moves keep their order: take the first
/// of the best ([`Iterator::min_by`], a stable sort).
pub fn play_order(a: &PlayRank, b: &PlayRank) -> std::cmp::Ordering {
    let class = |r: &PlayRank| match r.proven {
        Some(Proven::Win) => 0,
        Some(Proven::Loss) => 2,
        _ => 1,
    };
    class(a).cmp(&class(b)).then_with(|| match a.proven {
        Some(Proven::Win) => a.proof_plies.cmp(&b.proof_plies),
        Some(Proven::Loss) => b.proof_plies.cmp(&a.proof_plies),
        _ => (b.visits, mean(b.value_sum, b.visits))
            .partial_cmp(&(a.visits, mean(a.value_sum, a.visits)))
            .unwrap_or(std::cmp::Ordering::Equal),
    })
}

impl<G: Game> Mcts<G> {
    /// The root's most visited move (see [`Self::best_child`]), once the root has children.
    pub(super) fn best_so_far(&self) -> Option<BestSoFar> {
        let mv = self.nodes[self.best_child(0)? as usize].mv.expect("children have moves");
        Some(BestSoFar { mv: self.game.move_text(mv), depth: 0, score: None })
    }

    pub(super) fn result(&self, stats: MctsStats) -> MctsResult<G::Move> {
        let best = self.best_child(0).map(|c| &self.nodes[c as usize]);
        let best_move = best.and_then(|n| n.mv);
        // For the side to move; with no move at all, the game is over at the root.
        let root = self.nodes[0].proven.map(Proven::flipped);
        let proven = match best {
            Some(n) => n.proven.map(|p| (p, n.proof_plies as Score + 1)),
            None => root.map(|p| (p, 0)),
        };
        // The mean playout reward, even of a proven move; a move never played out has none: its proof stands in.
        let value = match best {
            Some(n) if n.visits > 0 => mean(n.value_sum, n.visits),
            Some(n) => n.proven.map_or(0.5, Proven::reward),
            None => root.map_or(0.5, Proven::reward),
        };
        let score = match proven {
            Some((Proven::Win, plies)) => WIN - plies,
            Some((Proven::Loss, plies)) => -(WIN - plies),
            Some((Proven::Draw, _)) => 0,
            // The inverse of the squash, clamped short of ±infinity.
            None => {
                let p = value.clamp(1e-3, 1.0 - 1e-3);
                (self.config.eval_scale * (p / (1.0 - p)).ln()).round() as Score
            }
        };
        MctsResult {
            best_move,
            best_move_text: best_move.map(|mv| self.game.move_text(mv)),
            score,
            value,
            proven: root,
            pv: self.principal_variation(),
            stats,
        }
    }

    fn principal_variation(&self) -> Vec<String> {
        let mut game = self.game.clone();
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(child) = self.best_child(node) {
            let mv = self.nodes[child as usize].mv.expect("children have moves");
            pv.push(game.move_text(mv));
            game.make_move(mv);
            node = child;
        }
        pv
    }

    /// The move to play at `node`, by [`play_order`].
    pub(super) fn best_child(&self, node: u32) -> Option<u32> {
        let rank = |c: &u32| self.nodes[*c as usize].rank();
        self.nodes[node as usize].children().min_by(|a, b| play_order(&rank(a), &rank(b)))
    }
}
