//! The narration under the replay bar and the open list beside the grid canvas, on the pages as a
//! student sees them: the sentence names what the replayed state holds at that step.

use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::adversarial::tree::TreeEvent;
use searchlab::app::tree_lab::Replay;
use searchlab::pathfinding::search_trace::{NodeStatus, SearchEvent};

mod common;

#[test]
fn the_grid_page_narrates_an_expansion_and_lists_the_open_nodes() {
    let mut harness = common::grid_lab::lab_harness();
    // Step to the third expansion.
    let mut expansions = 0;
    while expansions < 3 {
        common::ui::click(&mut harness, "Step >");
        expansions += matches!(harness.state().player().current_event(), Some(SearchEvent::Expand { .. })) as usize;
    }
    let lab = harness.state();
    let view = lab.player().view();
    let node = view.current.expect("a node being expanded");
    let (x, y) = lab.grid().coords(node);
    let record = view.node(node);
    let sentence = format!(
        "Expand ({x},{y}): the lowest f on the open list, f = {:.3} = g {:.3} + h {:.3}.",
        record.f(),
        record.g,
        record.h
    );
    harness.get_by_label(&sentence);
    // The open list's count and its rows: cells that are open in the replayed state, with their g.
    let open = view.nodes().iter().filter(|n| n.status == NodeStatus::Open).count();
    harness.get_by_label(&format!("{open} entries, lowest f first"));
    harness.get_by_label("next");
    let open_cells: Vec<String> = (0..lab.grid().cell_count() as u32)
        .filter(|&cell| view.node(cell).status == NodeStatus::Open)
        .map(|cell| {
            let (x, y) = lab.grid().coords(cell);
            format!("({x},{y})")
        })
        .collect();
    // Labels keep their text in AccessKit's value.
    let is_cell = |text: &str| text.starts_with('(') && text.ends_with(')') && !text.contains(' ');
    let shown = harness.query_all(By::new().predicate(|n| n.value().is_some_and(|text| is_cell(&text))));
    let mut shown: Vec<String> = shown.map(|n| n.accesskit_node().value().unwrap_or_default()).collect();
    // A label and its text run both carry the text.
    shown.dedup();
    assert_eq!(shown.len(), open.min(8), "{shown:?}");
    assert!(shown.iter().all(|cell| open_cells.contains(cell)), "{shown:?} are not all open: {open_cells:?}");
}

#[test]
fn the_game_tree_page_narrates_alpha_betas_first_cut() {
    let mut harness = common::tree_lab::lab_harness();
    let Some(Replay::Tree(replay)) = harness.state().recording().map(|r| &r.replay) else {
        panic!("an alpha-beta replay")
    };
    let cut =
        replay.player.trace().events.iter().position(|e| matches!(e, TreeEvent::Cutoff { .. })).expect("a cutoff");
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit((cut + 1) as f64);
    harness.run_ok();
    let Some(Replay::Tree(replay)) = harness.state().recording().map(|r| &r.replay) else { unreachable!() };
    let Some(TreeEvent::Cutoff { node, pruned, .. }) = replay.player.current_event() else { panic!("at the cut") };
    // The node by the moves from the root, read from the replayed tree.
    let view = replay.player.view();
    let mut moves = Vec::new();
    let mut at = *node;
    while view.node(at).parent != searchlab::trace::NO_NODE {
        moves.push(view.node(at).mv.to_string());
        at = view.node(at).parent;
    }
    moves.reverse();
    let narrated = harness.get(By::new().label_contains(" cut at ")).accesskit_node().value().unwrap_or_default();
    assert!(narrated.contains(&format!("cut at {}:", moves.join(" "))), "{narrated}");
    let count = if pruned.len() == 1 {
        "its 1 remaining move".to_string()
    } else {
        format!("its {} remaining moves", pruned.len())
    };
    assert!(narrated.contains(&count), "{narrated}");
}
