//! The game-tree lesson driven through its labelled controls. Searches are recorded on a worker
//! thread, so tests poll the harness (a bounded number of frames) until the result is in.

mod common;

use common::tree_lab::{LabHarness, lab_harness, settle};
use common::ui::click;

use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use searchlab::app::tree_lab::{EngineAlgorithm, Recording, Replay, TIC_TAC_TOE_TREE};
use searchlab::app::{SearchlabApp, TreeCommand};

fn recording(harness: &LabHarness) -> &Recording {
    harness.state().recording().expect("a recording is installed")
}

fn tree_nodes(harness: &LabHarness) -> usize {
    match &recording(harness).replay {
        Replay::Tree(replay) => replay.player.view().nodes.len(),
        Replay::Mcts(_) => panic!("a minimax-family replay"),
    }
}

/// Clicks the card of the root's first child (always shown) and returns its move.
fn click_first_root_move(harness: &mut LabHarness) -> String {
    let Replay::Tree(replay) = &recording(harness).replay else { panic!("a tree replay") };
    let view = replay.player.view();
    let child = view.children(0)[0];
    let mv = view.node(child).mv.to_string();
    // The cards live in a zoomable scene: click through accessibility, as a screen reader would.
    harness.get_by_label_contains(&format!("node {child}: {mv} ")).click_accesskit();
    harness.run_ok();
    mv
}

#[test]
fn stepping_an_alpha_beta_tree_grows_and_shrinks_the_node_count() {
    let mut harness = lab_harness();
    assert_eq!(recording(&harness).spec.algorithm, EngineAlgorithm::AlphaBeta);
    harness.get_by_label("Nodes: 0");
    for _ in 0..3 {
        click(&mut harness, "Step >");
    }
    // Start, the root, its first child.
    assert_eq!(recording(&harness).step(), 3);
    assert_eq!(tree_nodes(&harness), 2);
    harness.get_by_label("Nodes: 2");
    click(&mut harness, "< Step back");
    harness.get_by_label("Nodes: 1");
    assert_eq!(recording(&harness).step(), 2);

    click(&mut harness, "End >|");
    let Replay::Tree(replay) = &recording(&harness).replay else { unreachable!() };
    let view = replay.player.view();
    assert_eq!(view.nodes.len() as u64, replay.stats.nodes, "the end shows every node searched");
    assert!(replay.stats.cutoffs > 0, "alpha-beta prunes this position");
    let (cutoffs, nodes) = (view.cutoff_count, view.nodes.len());
    harness.get_by_label(&format!("Cutoffs: {cutoffs}"));
    harness.get_by_label(&format!("Nodes: {nodes}"));
    // x.o/.x./..o: X must block O's c column, O then blocks X's diagonal: a draw.
    harness.get_by_label("Root value: draw");

    click(&mut harness, "|< Start");
    harness.get_by_label("Nodes: 0");
}

#[test]
fn the_timeline_and_keys_seek_the_replay() {
    let mut harness = lab_harness();
    let len = recording(&harness).step_count();
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit((len / 2) as f64);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len / 2);
    harness.key_press(egui::Key::ArrowRight);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len / 2 + 1);
    harness.key_press(egui::Key::End);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len);
}

#[test]
fn the_full_tic_tac_toe_tree_steps_to_a_draw() {
    let mut harness = lab_harness();
    click(&mut harness, "Full tic-tac-toe tree");
    settle(&mut harness);
    click(&mut harness, "End >|");
    assert_eq!(tree_nodes(&harness) as u64, TIC_TAC_TOE_TREE);
    harness.get_by_label(&format!("Nodes: {TIC_TAC_TOE_TREE}"));
    harness.get_by_label("Root value: draw");
    // The replay goes back as far as it went forward.
    click(&mut harness, "< Step back");
    click(&mut harness, "|< Start");
    harness.get_by_label("Nodes: 0");
}

#[test]
fn a_uct_run_shows_visit_counts() {
    let mut harness = lab_harness();
    harness.state_mut().apply(TreeCommand::SetIterations(300));
    click(&mut harness, "UCT");
    settle(&mut harness);
    click(&mut harness, "End >|");
    let Replay::Mcts(replay) = &recording(&harness).replay else { panic!("a UCT replay") };
    let view = replay.player.view();
    let root_visits = view.node(0).visits;
    assert_eq!(view.iterations, replay.stats.iterations);
    assert!(root_visits > 0 && u64::from(root_visits) <= 300);
    let mut children = view.child_stats(0);
    assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), root_visits, "every iteration goes through a root move");
    children.sort_by_key(|c| std::cmp::Reverse(c.visits));
    let best = &children[0];
    harness.get_by_label(&format!("Root visits: {root_visits}"));
    harness.get_by_label_contains(&format!("{}: {} visits", best.mv, best.visits));
    click(&mut harness, "|< Start");
    harness.get_by_label("Root visits: 0");
}

#[test]
fn clicking_a_node_shows_its_position_and_a_bad_position_is_refused() {
    let mut harness = lab_harness();
    click(&mut harness, "End >|");
    let first = click_first_root_move(&mut harness);
    harness.get_by_label(&format!("After: {first}"));
    harness.get_by_label("O to move");

    harness.state_mut().apply(TreeCommand::SetPosition("xxx/ooo/...".into()));
    harness.run_ok();
    let error = harness.state().error().expect("the position is refused").to_string();
    assert!(error.starts_with("Position: "), "{error}");
    harness.get_by_label(&error);
    assert!(matches!(recording(&harness).replay, Replay::Tree(_)), "the last recording stays");
}

#[test]
fn iterative_deepening_solves_the_position_with_the_table() {
    let mut harness = lab_harness();
    click(&mut harness, "ID + TT");
    settle(&mut harness);
    click(&mut harness, "End >|");
    let Replay::Tree(replay) = &recording(&harness).replay else { panic!("a tree replay") };
    assert!(replay.roots.len() > 1, "one root per iteration");
    assert!(replay.stats.tt_hits > 0);
    assert_eq!(replay.root(), replay.roots.last().copied(), "the end shows the last iteration");
    harness.get_by_label_contains("TT hits: ");
    harness.get_by_label("Root value: draw");
}

#[test]
fn a_barca_node_shows_its_board_and_evaluation() {
    let mut harness = lab_harness();
    click(&mut harness, "Barca");
    settle(&mut harness);
    assert_eq!(recording(&harness).spec.depth, 3);
    click(&mut harness, "End >|");
    let mv = click_first_root_move(&mut harness);
    harness.get_by_label(&format!("After: {mv}"));
    harness.get_by_label("Black to move");
    harness.get_by_label("watering holes held");
}

#[test]
fn the_app_lists_the_lesson() {
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run_ok();
    harness.get_by_label("Game-tree search").click();
    harness.run_ok();
    harness.get_by_label("Game-tree search: minimax, alpha-beta and UCT");
}
