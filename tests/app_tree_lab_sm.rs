//! The game-tree lab's simultaneous-move mode: SM-MCTS on rock-paper-scissors replayed, its root's
//! joint-action matrix read back from the page and checked against the game's payoffs, the exact
//! equilibrium (a third each) beside the search's strategy, and stepping back.

mod common;

use common::tree_lab::lab_harness;
use common::ui::click;
use egui_kittest::kittest::{By, NodeT, Queryable};

/// The matrix cells on the page: (visits, mean payoff) from "n 33, +1.00".
fn cells(harness: &common::tree_lab::LabHarness) -> Vec<(u32, f64)> {
    harness
        .query_all(By::new())
        .filter_map(|node| {
            // A label's text also sits in a text run of its own: read the labels only.
            let ak = node.accesskit_node();
            let text = ak.label().or_else(|| ak.value()).filter(|_| ak.role() == egui::accesskit::Role::Label)?;
            let (visits, mean) = text.strip_prefix("n ")?.split_once(", ")?;
            Some((visits.parse().ok()?, mean.parse().ok()?))
        })
        .collect()
}

#[test]
fn rock_paper_scissors_shows_its_joint_action_matrix_and_the_equilibrium() {
    let mut harness = lab_harness();
    click(&mut harness, "Simultaneous moves (SM-MCTS)");
    harness.get_by_label_contains("Iteration 300 done");
    let shown = cells(&harness);
    // Nine pairs; the first iteration only expands the root, the other 299 each take one pair.
    assert_eq!(shown.len(), 9, "{shown:?}");
    assert_eq!(shown.iter().map(|(n, _)| n).sum::<u32>(), 299);
    // A pair's mean is its payoff: rock-paper-scissors holds only -1, 0 and 1.
    let mut means: Vec<f64> = shown.iter().map(|&(_, m)| m).collect();
    means.sort_by(f64::total_cmp);
    assert_eq!(means, [-1.0, -1.0, -1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    harness.get_by_label("Exact Nash equilibrium (linear program) beside SM-MCTS's strategy");
    assert!(harness.query_all_by_label("0.333").count() >= 6, "both players' exact strategy");
    harness.get_by_label_contains("Exploitability of SM-MCTS's strategies");
    click(&mut harness, "|< Start");
    harness.get_by_label("Nothing searched yet: press Step > or Play.");
    harness.get_by_label("Not visited yet: its actions are listed at its first visit.");
    click(&mut harness, "Step >");
    click(&mut harness, "Step >");
    harness.get_by_label_contains("Node 0 is visited for the first time: 3 actions for Row, 3 for Column");
}

#[test]
fn ropasci_shows_the_position_and_the_likeliest_actions() {
    let mut harness = lab_harness();
    click(&mut harness, "Simultaneous moves (SM-MCTS)");
    click(&mut harness, "RoPaSci 360");
    click(&mut harness, "Root");
    harness.get_by_label("- / 0 0 / 0");
    harness.get_by_label("The 8 and 8 likeliest of 15 x 15 actions shown.");
    harness.get_by_label_contains("Iteration 300 done");
    click(&mut harness, "Turn-based games");
    harness.get_by_label("Game-tree search: minimax, alpha-beta and UCT");
}
