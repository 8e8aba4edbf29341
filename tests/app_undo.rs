//! Undo and redo of map edits: the grid lab's painting, endpoints and replaced maps, and the
//! polygon lesson's drawing. Each round trip must give back exactly the map the user had.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::history::Step;
use searchlab::app::{Drawing, GridCommand, MeshCommand, NavmeshLab};
use searchlab::grid::generate;

mod common;
use common::grid_lab::{LabHarness, drag_cells, lab_harness, settle};

fn grid_command(harness: &mut LabHarness, command: GridCommand) {
    harness.state_mut().apply(command);
    settle(harness);
}

/// The map, start and goal on screen.
fn map_of(harness: &LabHarness) -> (searchlab::grid::Grid, (u32, u32)) {
    (harness.state().grid().clone(), harness.state().endpoints())
}

#[test]
fn painting_moving_the_goal_and_generating_a_map_are_undone_and_redone_exactly() {
    let mut harness = lab_harness();
    let original = map_of(&harness);
    let grid = &original.0;
    // A stroke of walls over open cells (one undo for the whole stroke).
    let open: Vec<u32> = (0..grid.width()).map(|x| grid.cell(x, 3)).filter(|&c| grid.is_cell_passable(c)).collect();
    harness.get_by_label("Wall").click();
    settle(&mut harness);
    drag_cells(&mut harness, open[1], open[open.len() - 2]);
    settle(&mut harness);
    let painted = map_of(&harness);
    assert!(painted.0 != original.0, "the stroke painted walls");
    let goal = (0..grid.cell_count() as u32)
        .rev()
        .find(|&c| painted.0.is_cell_passable(c) && c != painted.1.1 && c != painted.1.0)
        .unwrap();
    grid_command(&mut harness, GridCommand::SetGoal(goal));
    let moved = map_of(&harness);
    assert_eq!(moved.1.1, goal);
    let spec = generate::Spec { width: 40, height: 30, seed: 7, ..Default::default() };
    grid_command(&mut harness, GridCommand::Generate(spec));
    let generated = map_of(&harness);
    assert_eq!((generated.0.width(), generated.0.height()), (40, 30));

    // Back through every edit: the button, then Ctrl+Z.
    harness.get_by_label("Undo").click();
    settle(&mut harness);
    assert_eq!(map_of(&harness), moved, "the map the user had before generating is back");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut harness);
    assert_eq!(map_of(&harness), painted);
    grid_command(&mut harness, GridCommand::History(Step::Undo));
    assert_eq!(map_of(&harness), original, "the stroke is undone as one edit");
    assert!(harness.get_by_label("Undo").accesskit_node().is_disabled(), "nothing older to undo");
    // The search ran again on the restored map.
    assert_eq!(harness.state().player().view().nodes().len(), original.0.cell_count());

    // And forward again: Ctrl+Shift+Z, the button, a command.
    harness.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    settle(&mut harness);
    assert_eq!(map_of(&harness), painted);
    harness.get_by_label("Redo").click();
    settle(&mut harness);
    assert_eq!(map_of(&harness), moved);
    grid_command(&mut harness, GridCommand::History(Step::Redo));
    assert_eq!(map_of(&harness), generated);
    assert!(harness.get_by_label("Redo").accesskit_node().is_disabled());
}

/// Undoing back to a map of another size swaps the map at once and records its search in the
/// background: until that arrives, no replay may belong to the other map (a frame drawn in between
/// read the old search's cells through the new map's indices and panicked, now and then).
#[test]
fn an_undo_to_a_map_of_another_size_never_shows_the_other_maps_search() {
    let mut harness = lab_harness();
    let spec = generate::Spec { width: 40, height: 30, seed: 7, ..Default::default() };
    grid_command(&mut harness, GridCommand::Generate(spec));
    assert_eq!(harness.state().player().view().nodes().len(), 40 * 30);
    for step in [Step::Undo, Step::Redo] {
        harness.state_mut().apply(GridCommand::History(step));
        let cells = harness.state().grid().cell_count();
        assert!(harness.state().replays().iter().all(|replay| replay.player.view().nodes().len() == cells), "{step:?}");
        // Frames drawn while the search is recorded again, then once it is in.
        harness.step();
        settle(&mut harness);
        assert_eq!(harness.state().player().view().nodes().len(), harness.state().grid().cell_count());
    }
}

#[test]
fn a_new_edit_after_an_undo_drops_what_was_undone() {
    let mut harness = lab_harness();
    let original = map_of(&harness);
    let free: Vec<u32> = (0..original.0.cell_count() as u32)
        .filter(|&c| original.0.is_cell_passable(c) && c != original.1.0 && c != original.1.1)
        .collect();
    grid_command(&mut harness, GridCommand::SetGoal(free[0]));
    grid_command(&mut harness, GridCommand::History(Step::Undo));
    grid_command(&mut harness, GridCommand::SetGoal(free[1]));
    grid_command(&mut harness, GridCommand::History(Step::Redo));
    assert_eq!(harness.state().endpoints(), (original.1.0, free[1]), "redo has nothing to bring back");
    grid_command(&mut harness, GridCommand::History(Step::Undo));
    assert_eq!(map_of(&harness), original);
}

fn mesh_command(harness: &mut Harness<'static, NavmeshLab>, command: MeshCommand) {
    harness.state_mut().apply(command);
    common::ui::settle(harness);
}

#[test]
fn drawn_points_closed_rings_and_a_cleared_drawing_are_undone_and_redone() {
    let mut harness = common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new());
    common::ui::settle(&mut harness);
    mesh_command(&mut harness, MeshCommand::SetDrawing(true));
    let boundary = [[2.0, 2.0], [38.0, 2.0], [38.0, 28.0], [2.0, 28.0]];
    let mut states = vec![harness.state().drawing().unwrap().clone()];
    for p in boundary {
        mesh_command(&mut harness, MeshCommand::AddVertex(p));
        states.push(harness.state().drawing().unwrap().clone());
    }
    mesh_command(&mut harness, MeshCommand::CloseRing);
    states.push(harness.state().drawing().unwrap().clone());
    assert_eq!(states.last().unwrap(), &Drawing { rings: vec![boundary.to_vec()], current: vec![] });
    mesh_command(&mut harness, MeshCommand::AddVertex([15.0, 10.0]));
    states.push(harness.state().drawing().unwrap().clone());
    harness.get_by_label("Clear drawing").click();
    common::ui::settle(&mut harness);
    assert_eq!(harness.state().drawing(), Some(&Drawing::default()));

    // Every state back, newest first: the clearing, the hole's point, the closing, each corner.
    harness.get_by_label("Undo").click();
    common::ui::settle(&mut harness);
    assert_eq!(harness.state().drawing(), states.last(), "clearing is undone");
    for expected in states.iter().rev().skip(1) {
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        common::ui::settle(&mut harness);
        assert_eq!(harness.state().drawing(), Some(expected));
    }
    assert!(harness.get_by_label("Undo").accesskit_node().is_disabled());
    for expected in &states[1..] {
        mesh_command(&mut harness, MeshCommand::History(Step::Redo));
        assert_eq!(harness.state().drawing(), Some(expected));
    }
    harness.get_by_label("Redo").click();
    common::ui::settle(&mut harness);
    assert_eq!(harness.state().drawing(), Some(&Drawing::default()), "redone up to the clearing");
}
