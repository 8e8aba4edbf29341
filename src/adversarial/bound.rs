//! What a value a search holds at a node says about the node's true (minimax) value, from MAX's
//! (`First`'s) point of view: exact, or only a bound. Fail-soft alpha-beta returns a bound when the
//! value falls outside the window the node was searched with, and a node still searching its moves
//! only knows "at least the best move so far" for its side to move.

use super::tree::{NodeState, Perspective};
use crate::games::{Score, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    /// The true value is this value.
    Exact,
    /// The true value is at least this value.
    AtLeast,
    /// The true value is at most this value.
    AtMost,
}

/// A node's value for `First` with what it says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounded {
    pub value: Score,
    pub kind: BoundKind,
}

impl Bounded {
    /// `value` as the search holds it at a node where `side` moves (in `perspective`), entered with
    /// the window `(alpha, beta)` in that same perspective, in `state`. A leaf's static score is exact
    /// whatever the window, except a transposition-table value, which the window bounds like a search.
    pub fn classify(
        value: Score,
        side: Side,
        perspective: Perspective,
        (alpha, beta): (Score, Score),
        state: NodeState,
    ) -> Bounded {
        // Work from the side to move's view, where a fail-soft value outside the window is a bound.
        let (own, own_alpha, own_beta) = match (perspective, side) {
            (Perspective::First, Side::Second) => (-value, -beta, -alpha),
            _ => (value, alpha, beta),
        };
        let kind = match state {
            NodeState::Open => BoundKind::AtLeast,
            NodeState::Leaf(reason) if reason != super::tree::LeafReason::Table => BoundKind::Exact,
            _ if own <= own_alpha => BoundKind::AtMost,
            _ if own >= own_beta => BoundKind::AtLeast,
            _ => BoundKind::Exact,
        };
        // Back to First's view: for Second a bound turns over.
        let (value, kind) = match side {
            Side::First => (own, kind),
            Side::Second => (
                -own,
                match kind {
                    BoundKind::AtLeast => BoundKind::AtMost,
                    BoundKind::AtMost => BoundKind::AtLeast,
                    BoundKind::Exact => BoundKind::Exact,
                },
            ),
        };
        Bounded { value, kind }
    }

    /// Whether `truth` (for `First`) is consistent with this value.
    pub fn admits(&self, truth: Score) -> bool {
        match self.kind {
            BoundKind::Exact => truth == self.value,
            BoundKind::AtLeast => truth >= self.value,
            BoundKind::AtMost => truth <= self.value,
        }
    }

    /// The sign put before the value: "" for an exact value, "≥ " or "≤ " for a bound.
    pub fn prefix(&self) -> &'static str {
        match self.kind {
            BoundKind::Exact => "",
            BoundKind::AtLeast => "≥ ",
            BoundKind::AtMost => "≤ ",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adversarial::tree::{TreeEvent, TreeView};
    use crate::adversarial::{INF, alphabeta, minimax};
    use crate::games::tictactoe::TicTacToe;
    use crate::games::{DefaultEval, Game, is_proven};
    use crate::trace::{NO_NODE, NoTrace, Player, Recorder};

    /// Every value alpha-beta shows at the end of a full tic-tac-toe search, against minimax run
    /// afresh on the node's position: a bound admits the true value, an exact value is it.
    #[test]
    fn alpha_beta_values_bound_the_minimax_value() {
        let root = TicTacToe::from_position("x.o/.x./..o").unwrap();
        let mut recorder = Recorder::default();
        alphabeta::search(&root, &DefaultEval, 9, &mut recorder);
        let trace = recorder.finish();
        let windows: Vec<(Score, Score)> = trace
            .events
            .iter()
            .filter_map(|e| match e {
                TreeEvent::Enter { alpha, beta, .. } => Some((*alpha, *beta)),
                _ => None,
            })
            .collect();
        let mut player = Player::new(trace, TreeView::new());
        player.seek(usize::MAX);
        let view = player.view();
        let (mut exact, mut bounds) = (0, 0);
        for (id, node) in view.nodes.iter().enumerate() {
            let mut moves = Vec::new();
            let mut at = id as u32;
            while view.node(at).parent != NO_NODE {
                moves.push(view.node(at).mv.to_string());
                at = view.node(at).parent;
            }
            let mut game = root.clone();
            for text in moves.iter().rev() {
                let mv = game.parse_move(text).unwrap();
                game.make_move(mv);
            }
            let truth = game.side_to_move().sign() * minimax::search(&game, &DefaultEval, 9, &mut NoTrace).score;
            // Wins are scored by plies from the search's root: count the node's plies too.
            let truth = if is_proven(truth) { truth - truth.signum() * Score::from(view.ply(id as u32)) } else { truth };
            let shown = Bounded::classify(
                node.value().unwrap(),
                node.side,
                Perspective::SideToMove,
                windows[id],
                node.state,
            );
            assert!(shown.admits(truth), "node {id} ({}): shows {shown:?}, minimax {truth}", moves.join(" "));
            if shown.kind == BoundKind::Exact { exact += 1 } else { bounds += 1 }
        }
        assert!(exact > 0 && bounds > 0, "the position has both: {exact} exact, {bounds} bounds");
    }

    #[test]
    fn a_bound_turns_over_for_the_second_player() {
        use crate::adversarial::tree::NodeState::Done;
        // O to move failed high for itself (≥ 5 for O): at most −5 for X.
        let shown = Bounded::classify(5, Side::Second, Perspective::SideToMove, (-INF, 3), Done);
        assert_eq!(shown, Bounded { value: -5, kind: BoundKind::AtMost });
        // Minimax form: a MIN node's value 2 below its window (4, 9) is at most 2 for X.
        let shown = Bounded::classify(2, Side::Second, Perspective::First, (4, 9), Done);
        assert_eq!(shown, Bounded { value: 2, kind: BoundKind::AtMost });
        let full = Bounded::classify(2, Side::First, Perspective::First, (-INF, INF), Done);
        assert_eq!(full.kind, BoundKind::Exact);
    }
}
