//! What a value a search holds at a node says about the node's true (minimax) value, from MAX's
//! (`First`'s) point of view: exact, or only a bound. Fail-soft alpha-beta returns a bound when the
//! value falls outside the window the node was searched with, and a node still searching its moves
//! only knows "at least the best move so far" for its side to move.

use super::tree::{NodeState, Perspective, TreeView};
use crate::games::{Score, Side};
use crate::trace::NO_NODE;

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

    /// The value `view` holds at `id`, which was entered with the window `entered(id)`, with what it
    /// says about the true value. The rule: a node that searched every move (done, no cutoff) holds
    /// its best child's value, and is exact or a bound just as that child is, whatever the window:
    /// its other children are exact and no better, or failed high for the opponent, whose bound
    /// then lies no better either, so none can move the best. Otherwise the window decides.
    pub fn of_node(view: &TreeView, id: u32, entered: &impl Fn(u32) -> (Score, Score)) -> Option<Bounded> {
        let node = view.node(id);
        let perspective = view.perspective.unwrap_or(Perspective::First);
        let shown = Self::classify(node.value()?, node.side, perspective, entered(id), node.state);
        if node.state == NodeState::Done && node.best_child != NO_NODE && view.cutoff(id).is_none() {
            let child = Self::of_node(view, node.best_child, entered)?;
            if child.value == shown.value {
                return Some(child);
            }
        }
        Some(shown)
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
    use crate::adversarial::tree::TreeEvent;
    use crate::adversarial::{INF, alphabeta, minimax};
    use crate::games::custom_tree::{CustomTree, Node};
    use crate::games::tictactoe::TicTacToe;
    use crate::games::{DefaultEval, Game, is_proven};
    use crate::trace::{NoTrace, Player, Recorder};
    use proptest::prelude::*;

    /// The window each node of a recorded search was entered with, by id.
    fn entry_windows(events: &[TreeEvent]) -> Vec<(Score, Score)> {
        events
            .iter()
            .filter_map(|e| match e {
                TreeEvent::Enter { alpha, beta, .. } => Some((*alpha, *beta)),
                _ => None,
            })
            .collect()
    }

    /// The position at `id` of `view`, replayed from `root`.
    fn position_at<G: Game>(root: &G, view: &TreeView, id: u32) -> G {
        let mut moves = Vec::new();
        let mut at = id;
        while view.node(at).parent != NO_NODE {
            moves.push(view.node(at).mv.to_string());
            at = view.node(at).parent;
        }
        let mut game = root.clone();
        for text in moves.iter().rev() {
            let mv = game.parse_move(text).unwrap();
            game.make_move(mv);
        }
        game
    }

    fn random_tree(depth: u32) -> BoxedStrategy<Node> {
        let leaf = (-3..=3 as Score).prop_map(Node::Leaf);
        if depth == 0 {
            return leaf.boxed();
        }
        prop_oneof![1 => leaf, 4 => proptest::collection::vec(random_tree(depth - 1), 1..=3).prop_map(Node::Inner)]
            .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// At every step of alpha-beta on a random tree (small leaf values, so ties and
        /// fail-low nodes abound), each value shown on a node that is done or a leaf admits the
        /// value minimax gives that node's subtree: exact ones equal it, bounds hold.
        #[test]
        fn values_shown_on_random_trees_agree_with_minimax(tree in random_tree(4)) {
            let root = CustomTree::new(tree);
            let mut recorder = Recorder::default();
            let result = alphabeta::search(&root, &DefaultEval, 8, &mut recorder);
            prop_assert_eq!(result.score, minimax::search(&root, &DefaultEval, 8, &mut NoTrace).score);
            let trace = recorder.finish();
            let windows = entry_windows(&trace.events);
            let steps = trace.events.len();
            let mut player = Player::new(trace, TreeView::new());
            for step in 1..=steps {
                player.seek(step);
                let view = player.view();
                for (id, node) in view.nodes.iter().enumerate() {
                    if node.state == NodeState::Open {
                        continue;
                    }
                    let game = position_at(&root, view, id as u32);
                    let truth = game.side_to_move().sign() * minimax::search(&game, &DefaultEval, 8, &mut NoTrace).score;
                    let shown = Bounded::of_node(view, id as u32, &|n| windows[n as usize]).unwrap();
                    prop_assert!(shown.admits(truth), "step {}, node {}: shows {:?}, minimax {}", step, id, shown, truth);
                }
            }
        }
    }

    /// The textbook tree's third MIN node reads all three leaves (14, 5, 2): its 2 is exact, though
    /// it lies below the α = 3 it was searched with; and the one cutoff is the second MIN node's.
    #[test]
    fn a_node_that_read_every_leaf_is_exact_below_its_window() {
        let root = CustomTree::parse("((3,12,8),(2,4,6),(14,5,2))").unwrap();
        let mut recorder = Recorder::default();
        let result = alphabeta::search(&root, &DefaultEval, 2, &mut recorder);
        assert_eq!(
            (result.stats.cutoffs, result.stats.first_move_cutoffs),
            (1, 1),
            "by hand: one cut, pruning 4 and 6"
        );
        let trace = recorder.finish();
        let windows = entry_windows(&trace.events);
        let mut player = Player::new(trace, TreeView::new());
        player.seek(usize::MAX);
        let view = player.view();
        let third = *view.children(0).last().unwrap();
        assert_eq!(view.cutoff(third), None);
        assert_eq!(
            Bounded::of_node(view, third, &|n| windows[n as usize]),
            Some(Bounded { value: 2, kind: BoundKind::Exact })
        );
        let second = view.children(0)[1];
        assert_eq!(view.cutoff(second).map(|(_, pruned)| pruned.clone()), Some(vec!["2".to_string(), "3".to_string()]));
        assert_eq!(Bounded::of_node(view, second, &|n| windows[n as usize]).map(|b| b.kind), Some(BoundKind::AtMost));
    }

    /// Every value alpha-beta shows at the end of a full tic-tac-toe search, against minimax run
    /// afresh on the node's position: a bound admits the true value, an exact value is it.
    #[test]
    fn alpha_beta_values_bound_the_minimax_value() {
        let root = TicTacToe::from_position("x.o/.x./..o").unwrap();
        let mut recorder = Recorder::default();
        alphabeta::search(&root, &DefaultEval, 9, &mut recorder);
        let trace = recorder.finish();
        let windows = entry_windows(&trace.events);
        let mut player = Player::new(trace, TreeView::new());
        player.seek(usize::MAX);
        let view = player.view();
        let (mut exact, mut bounds) = (0, 0);
        for id in 0..view.nodes.len() {
            let game = position_at(&root, view, id as u32);
            let truth = game.side_to_move().sign() * minimax::search(&game, &DefaultEval, 9, &mut NoTrace).score;
            // Wins are scored by plies from the search's root: count the node's plies too.
            let truth =
                if is_proven(truth) { truth - truth.signum() * Score::from(view.ply(id as u32)) } else { truth };
            let shown = Bounded::of_node(view, id as u32, &|n| windows[n as usize]).unwrap();
            assert!(shown.admits(truth), "node {id}: shows {shown:?}, minimax {truth}");
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
