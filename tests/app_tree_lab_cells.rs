//! The game-tree cells of the lectures as a class first sees them: framed on the root and the
//! moves under it, on the projector and in the reading view, at 100% and 130% text.

mod common;

use std::path::Path;

use common::tree_lab::{LabHarness, settle};
use egui_kittest::kittest::Queryable;
use searchlab::app::tree_lab::Replay;
use searchlab::app::{Lesson, LiveCell, TreeLab};
use searchlab::lecture::{Block, Lecture, check_cell};
use searchlab::scene::Lab;

/// The cell at `size` (logical points, the canvas `height` tall) with text at `zoom`.
fn cell_harness(lab: TreeLab, size: [f32; 2], zoom: f32, height: f32) -> LabHarness {
    let mut harness = egui_kittest::Harness::builder().with_size(size).with_pixels_per_point(zoom).build_ui_state(
        move |ui, lab: &mut TreeLab| {
            lab.logic(ui.ctx());
            lab.cell_ui(ui, height);
        },
        lab,
    );
    settle(&mut harness);
    harness
}

/// Where the canvas draws a card: its widget lies in the tree's plane, of which the canvas shows
/// the lab's scene rect fitted and centred.
fn on_canvas(harness: &LabHarness, card: egui::Rect) -> egui::Rect {
    let canvas = harness.get_by_label("Game tree canvas").rect();
    let scene = harness.state().scene_rect();
    let scale = (canvas.size() / scene.size()).min_elem().clamp(0.01, 1.5);
    egui::Rect::from_center_size(canvas.center() + (card.center() - scene.center()) * scale, card.size() * scale)
}

/// Node `id`'s card on the canvas.
fn card_on_canvas(harness: &LabHarness, id: u32) -> Option<egui::Rect> {
    let name = format!("node {id}: ");
    Some(on_canvas(harness, harness.query_by_label_contains(&name)?.rect()))
}

/// Every card on the canvas, nodes, "others" and pruned moves alike.
fn cards_on_canvas(harness: &LabHarness) -> Vec<egui::Rect> {
    let is_card =
        |label: &str| label.starts_with("node ") || label.starts_with("others (") || label.contains(" pruned ");
    harness
        .query_all_by(|node| node.label().is_some_and(|label| is_card(&label)))
        .map(|node| on_canvas(harness, node.rect()))
        .collect()
}

/// Every game-tree cell of lectures 4 to 6, at its step, opens with the root and every move laid
/// out under it on the canvas (a wide UCT tree once opened on its root in a corner, most of its
/// moves off the canvas; a deep best line pulled the view off to one side).
#[test]
fn game_tree_cells_open_on_the_root_and_its_moves() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    // (window in points, canvas height, text zoom): the projector presenting, the reading view at
    // 100% and at 130% (there a canvas of 515 points holds six readable cards side by side, so
    // the root's moves fill its width instead).
    let views = [
        ([1280.0 / 1.3 - 16.0, 720.0 / 1.3], 290.0, 1.3),
        ([1000.0, 600.0], 420.0, 1.0),
        ([1000.0 / 1.3, 600.0], 420.0, 1.3),
    ];
    let mut checked = 0;
    for name in ["4-game-trees.md", "5-monte-carlo-tree-search.md", "6-barca-ai.md"] {
        let lecture = Lecture::parse(&std::fs::read_to_string(project.join("lectures").join(name)).unwrap()).unwrap();
        for cell in lecture
            .sections
            .iter()
            .flat_map(|s| &s.blocks)
            .filter_map(|b| if let Block::Cell(cell) = b { Some(cell) } else { None })
        {
            let scene = check_cell(cell, project).unwrap();
            if scene.lab != Lab::GameTree {
                continue;
            }
            for (size, height, zoom) in views {
                let mut lab = TreeLab::from_saved(None);
                lab.set_scene(&scene).unwrap();
                let harness = cell_harness(lab, size, zoom, height);
                let recording = harness.state().recording().unwrap();
                let moves: Vec<u32> = match &recording.replay {
                    Replay::Tree(replay) => replay.player.view().children(0),
                    Replay::Mcts(replay) => replay.player.view().node(0).children().collect(),
                };
                let at = format!("{name} line {} at {size:?}, text {zoom}", cell.line);
                let canvas = harness.get_by_label("Game tree canvas").rect().expand(1.0);
                // A minimax-family cell opened on its start has no tree yet.
                let Some(root) = card_on_canvas(&harness, 0) else { continue };
                assert!(canvas.contains_rect(root), "{at}: the root {root:?} is off the canvas {canvas:?}");
                // The row under the root: its moves, with any "others" and pruned cards beside them.
                let Some(first) = moves.first().and_then(|&id| card_on_canvas(&harness, id)) else { continue };
                let row = cards_on_canvas(&harness)
                    .into_iter()
                    .filter(|card| (card.center().y - first.center().y).abs() < 1.0)
                    .fold(egui::Rect::NOTHING, |row, card| row.union(card));
                if row.width() <= canvas.width() {
                    assert!(
                        canvas.contains_rect(row),
                        "{at}: the root's moves {row:?} are not all on the canvas {canvas:?}"
                    );
                } else {
                    assert!(
                        row.left() <= canvas.left() + 2.0 && row.right() >= canvas.right() - 2.0,
                        "{at}: the root's moves {row:?} leave the canvas {canvas:?} empty at a side"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "{checked} cells checked");
}

/// In a lecture the wheel over a cell scrolls the page: it once panned the tree under the pointer
/// too, so a class scrolling down found the cards gone ("2 of 40 cards in view").
#[test]
fn the_wheel_over_a_cell_leaves_its_tree_where_it_is() {
    let mut lab = TreeLab::from_saved(None);
    let scene = searchlab::scene::Scene::from_toml(
        "version = 1\nlab = \"game-tree\"\nspec = \"uct:200,plain\"\nposition = \"x../.o./...\"\nstep = \"end\"\n",
    )
    .unwrap();
    lab.set_scene(&scene).unwrap();
    let mut harness = cell_harness(lab, [1000.0, 600.0], 1.0, 420.0);
    let before = harness.state().scene_rect();
    harness.hover_at(harness.get_by_label("Game tree canvas").rect().center());
    harness.step();
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -120.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
    });
    harness.run_ok();
    assert_eq!(harness.state().scene_rect(), before);
}

/// A tree of one card says so in the singular ("All 1 cards in view" before).
#[test]
fn a_tree_of_one_card_says_so() {
    let mut lab = TreeLab::from_saved(None);
    let scene = searchlab::scene::Scene::from_toml(
        "version = 1\nlab = \"game-tree\"\nspec = \"uct:200,plain\"\nposition = \"x../.o./...\"\nstep = \"start\"\n",
    )
    .unwrap();
    lab.set_scene(&scene).unwrap();
    let harness = cell_harness(lab, [1000.0, 600.0], 1.0, 420.0);
    harness.get_by_label("The one card is in view");
}
