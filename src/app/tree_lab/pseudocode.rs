//! Each algorithm's pseudocode, and the line each event of its trace belongs to.

use super::recording::EngineAlgorithm;
use crate::adversarial::mcts_trace::MctsEvent;
use crate::adversarial::tree::{LeafReason, TreeEvent};
use crate::trace::NO_NODE;

pub fn lines(algorithm: EngineAlgorithm) -> &'static [&'static str] {
    match algorithm {
        EngineAlgorithm::Minimax => &[
            "function minimax(node, depth):",
            "    if terminal or depth = 0: return value(node) for MAX",
            "    best := −∞ if MAX is to move, else +∞",
            "    for each child of node:",
            "        v := minimax(child, depth − 1)",
            "        best := max(best, v) if MAX, else min(best, v)",
            "    return best",
        ],
        EngineAlgorithm::Negamax => &[
            "function negamax(node, depth):",
            "    if terminal or depth = 0: return value(node)",
            "    best := −∞",
            "    for each child of node:",
            "        v := −negamax(child, depth − 1)",
            "        if v > best: best := v",
            "    return best",
        ],
        EngineAlgorithm::AlphaBeta => &[
            "function alphabeta(node, depth, α, β):",
            "    if terminal or depth = 0: return value(node)",
            "    best := −∞",
            "    for each child of node:",
            "        v := −alphabeta(child, depth − 1, −β, −α)",
            "        if v > best: best := v; if v > α: α := v",
            "        if α ≥ β: break   (cutoff: prune the rest)",
            "    return best",
        ],
        EngineAlgorithm::Id => &[
            "for depth := 1, 2, 3, ...: alphabeta(root, depth, −∞, +∞)",
            "function alphabeta(node, depth, α, β):",
            "    if terminal or depth = 0: return value(node)",
            "    if the table has a deep enough value: return it",
            "    order moves: table move, killer moves, history",
            "    for each child: v := −alphabeta(child, depth − 1, −β, −α)",
            "        if v > best: best := v; if v > α: α := v",
            "        if α ≥ β: remember the move as a killer; break",
            "    store best in the table; return best",
        ],
        EngineAlgorithm::Uct => &[
            "repeat N times:",
            "    select: from the root, follow the highest UCB1 to a leaf",
            "    expand: a leaf visited before gets its children",
            "    simulate: random moves to the end (or a cut-off)",
            "    backpropagate: add a visit and the reward up the path",
            "    solver: decided children decide their parent",
            "play the most visited move",
        ],
        // Not a search: the lab never records it.
        EngineAlgorithm::Random => &[],
    }
}

/// The pseudocode line of a minimax-family event.
pub fn tree_line(algorithm: EngineAlgorithm, event: &TreeEvent) -> usize {
    // Iterative deepening has its driver loop as line 0 and a table probe before the loop.
    let (entry, horizon, call, improve, cut) =
        if algorithm == EngineAlgorithm::Id { (1, 2, 5, 6, 7) } else { (0, 1, 4, 5, 6) };
    match event {
        TreeEvent::Start { .. } | TreeEvent::Iteration { .. } => 0,
        TreeEvent::Enter { parent, .. } if *parent == NO_NODE => entry,
        // Entering a child is the recursive call in the loop.
        TreeEvent::Enter { .. } => call,
        TreeEvent::Leaf { reason: LeafReason::Table, .. } => 3,
        TreeEvent::Leaf { .. } => horizon,
        TreeEvent::Window { .. } => improve,
        TreeEvent::Cutoff { .. } => cut,
        TreeEvent::Exit { .. } | TreeEvent::Pv { .. } => lines(algorithm).len() - 1,
    }
}

pub fn uct_line(event: &MctsEvent) -> usize {
    match event {
        MctsEvent::Select { .. } => 1,
        MctsEvent::Expand { .. } => 2,
        MctsEvent::Playout { .. } => 3,
        MctsEvent::Backpropagate { .. } => 4,
        MctsEvent::Solved { .. } => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adversarial::alphabeta;
    use crate::games::DefaultEval;
    use crate::games::tictactoe::TicTacToe;
    use crate::trace::Recorder;

    #[test]
    fn every_event_points_at_a_line_that_says_what_it_does() {
        let mut recorder = Recorder::default();
        alphabeta::search(&TicTacToe::from_position("x.o/.o./x..").unwrap(), &DefaultEval, 9, &mut recorder);
        let text = lines(EngineAlgorithm::AlphaBeta);
        for event in recorder.finish().events {
            let line = text[tree_line(EngineAlgorithm::AlphaBeta, &event)];
            match event {
                TreeEvent::Cutoff { .. } => assert!(line.contains("break")),
                TreeEvent::Window { .. } => assert!(line.contains("best := v")),
                TreeEvent::Leaf { .. } => assert!(line.contains("terminal")),
                TreeEvent::Exit { .. } => assert!(line.contains("return best")),
                _ => {}
            }
        }
    }
}
