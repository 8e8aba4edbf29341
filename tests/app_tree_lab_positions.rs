//! Positions typed into the game-tree lab: changes made back to back record the last one, and
//! positions with nothing to search get a one-line error shown alone, without the last search.

mod common;

use common::tree_lab::{LabHarness, lab_harness, settle};
use common::ui::click;

use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::tree_lab::EngineAlgorithm;
use searchlab::app::tree_lab::Replay;
use searchlab::app::{Lesson, TreeCommand};

fn position_shown(harness: &LabHarness) -> String {
    harness.state().recording().expect("a recording is installed").position.text()
}

#[test]
fn iterations_then_a_position_back_to_back_record_that_position() {
    let mut harness = lab_harness();
    click(&mut harness, "UCT");
    harness.state_mut().apply(TreeCommand::SetIterations(300));
    harness.state_mut().apply(TreeCommand::SetPosition("xx./o../...".into()));
    settle(&mut harness);
    assert_eq!(position_shown(&harness), "xx.o.....");
    assert!(matches!(harness.state().recording().unwrap().replay, Replay::Mcts(_)));
    assert_eq!(harness.state().error(), None);

    click(&mut harness, "Alpha-beta");
    harness.state_mut().apply(TreeCommand::SetIterations(50));
    harness.state_mut().apply(TreeCommand::SetPosition("x.o/.x./..o".into()));
    harness.state_mut().apply(TreeCommand::SetPosition("xx./o../...".into()));
    settle(&mut harness);
    click(&mut harness, "End >|");
    assert_eq!(position_shown(&harness), "xx.o.....");
    // O must block at c3, or X wins.
    harness.get_by_label_contains("Principal variation: c3");
}

#[test]
fn positions_with_nothing_to_search_get_a_one_line_error() {
    let mut harness = lab_harness();
    let refused = [
        ("xx./.../...", "2 x and 0 o"),
        ("ooo/xx./...", "2 x and 3 o"),
        ("xxx/ooo/...", "cannot arise"),
        ("xxx/oo./...", "X has won"),
        ("xox/xoo/oxx", "a draw"),
        ("oox/.x./x..", "X has won"),
    ];
    for (position, reason) in refused {
        harness.state_mut().apply(TreeCommand::SetPosition(position.into()));
        harness.run_ok();
        let error = harness.state().error().unwrap_or_else(|| panic!("{position} is refused")).to_string();
        assert!(error.starts_with("Position: ") && error.contains(reason), "{position}: {error}");
        assert!(!error.contains('\n'), "one line: {error}");
        harness.get_by_label(&error);
        assert!(!harness.state().is_busy(), "{position}: nothing is recorded");
        assert!(harness.state().recording().is_none(), "{position}: the last search is not shown as this one's");
    }
}

#[test]
fn a_refused_position_shows_its_error_without_the_last_search() {
    let mut harness = lab_harness();
    click(&mut harness, "End >|");
    harness.get_by_label("Root value: draw");
    harness.state_mut().apply(TreeCommand::SetPosition("xxx/oo./...".into()));
    harness.run_ok();
    harness.get_by_label("Position: the game is over (X has won): nothing to search");
    for stale in
        ["Root value", "Nodes: ", "Principal variation", "Whole search", "Step ", "Game tree canvas", "Expand all"]
    {
        assert!(harness.query_by_label_contains(stale).is_none(), "'{stale}' of the last search is still shown");
    }
    // The next good position is searched and shown as usual.
    harness.state_mut().apply(TreeCommand::SetPosition("xx./o../...".into()));
    settle(&mut harness);
    assert_eq!(position_shown(&harness), "xx.o.....");
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("Game tree canvas");
}

/// Steps into the search (the root's first child is current) and returns what the statistics say.
fn window_line_after_a_few_steps(harness: &mut LabHarness, algorithm: EngineAlgorithm) -> Option<String> {
    harness.state_mut().apply(TreeCommand::SetAlgorithm(algorithm));
    settle(harness);
    for _ in 0..3 {
        click(harness, "Step >");
    }
    harness.query_by_label_contains("Current node window").map(|node| node.accesskit_node().value().unwrap_or_default())
}

#[test]
fn only_searches_with_a_window_show_one() {
    let mut harness = lab_harness();
    for algorithm in [EngineAlgorithm::Minimax, EngineAlgorithm::Negamax] {
        assert_eq!(window_line_after_a_few_steps(&mut harness, algorithm), None, "{algorithm:?} has no window");
    }
    for algorithm in [EngineAlgorithm::AlphaBeta, EngineAlgorithm::Id] {
        let line = window_line_after_a_few_steps(&mut harness, algorithm);
        assert!(line.as_deref().is_some_and(|l| l.contains('α')), "{algorithm:?}: {line:?}");
    }
}
