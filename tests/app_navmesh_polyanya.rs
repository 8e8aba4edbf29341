//! Polyanya in the polygon lesson, driven through its labelled controls: the same lengths as TA*,
//! its polygons counted, its replay of intervals narrated with numbers a student can check, and
//! every colour it draws in the legend.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::replay_bar::ReplayCommand;
use searchlab::app::theme::Theme;
use searchlab::app::{MeshAlgorithm, MeshCommand, NavmeshLab};
use searchlab::navmesh::distance;
use searchlab::navmesh::polyanya_search::{PolyanyaEvent, Turn};
use searchlab::navmesh::search::PolygonKind;

use common::navmesh_lab::canvas_colours;
use common::ui::{click, settle};

fn lab_harness() -> Harness<'static, NavmeshLab> {
    common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new())
}

fn apply(harness: &mut Harness<'static, NavmeshLab>, command: MeshCommand) {
    harness.state_mut().apply(command);
    settle(harness);
}

fn length(lab: &NavmeshLab) -> f64 {
    lab.result().and_then(|r| r.path.as_ref()).expect("a path").length
}

#[test]
fn polyanya_finds_ta_stars_length_on_merged_polygons_and_on_triangles() {
    let mut harness = lab_harness();
    settle(&mut harness);
    apply(&mut harness, MeshCommand::SetGoal([39.0, 29.0]));
    apply(&mut harness, MeshCommand::SetStart([1.0, 1.0]));
    let ta = length(harness.state());
    click(&mut harness, "Polyanya");
    settle(&mut harness);
    assert!((length(harness.state()) - ta).abs() < 1e-9 * ta);
    let walkable = harness.state().mesh().walkable_count();
    let merged = harness.state().polygons().len();
    assert!(merged < walkable, "merging joins triangles: {merged} of {walkable}");
    harness.get_by_label(&format!(
        "Polygons searched: {merged} merged convex polygons (from {walkable} walkable triangles)"
    ));
    let found = harness.state().intervals().view().found.clone().expect("found at the end");
    assert!((found.0 - ta).abs() < 1e-9 * ta);
    harness.get_by_label_contains(&format!("Path found: length {ta:.3}"));
    click(&mut harness, "the triangles");
    settle(&mut harness);
    assert!((length(harness.state()) - ta).abs() < 1e-9 * ta);
    assert_eq!(harness.state().polygons().len(), walkable);
    apply(&mut harness, MeshCommand::SetPolygons(PolygonKind::Merged));
    // A round agent is refused, in one line that says why.
    apply(&mut harness, MeshCommand::SetRadius(0.5));
    let error = harness.state().error().expect("refused").to_string();
    assert!(error.contains("Polyanya plans for a point agent"), "{error}");
    harness.get_by_label(&error);
}

/// At every step the narration gives the event's numbers, and they hold: an observable successor
/// keeps its parent's root and g, one round a corner has g = parent's g + the leg to the corner,
/// and f is at least g + the straight line from the root to the goal.
#[test]
fn the_replay_narrates_each_node_with_numbers_that_hold() {
    let mut harness = lab_harness();
    settle(&mut harness);
    apply(&mut harness, MeshCommand::SetAlgorithm(MeshAlgorithm::Polyanya));
    let goal = [39.0, 29.0];
    apply(&mut harness, MeshCommand::SetGoal(goal));
    apply(&mut harness, MeshCommand::Replay(ReplayCommand::ToStart));
    harness.get_by_label("Press Step > to begin.");
    let (mut observable, mut turned) = (0, 0);
    while !harness.state().intervals().at_end() {
        apply(&mut harness, MeshCommand::Replay(ReplayCommand::StepForward));
        let lab = harness.state();
        let event = lab.intervals().current_event().cloned().unwrap();
        let nodes = &lab.intervals().view().nodes;
        if let PolyanyaEvent::Push { parent, root, turn, g, f, .. } = event {
            harness.get_by_label_contains(&format!("so f = {f:.2}"));
            assert!(f + 1e-9 >= g + distance(root, goal), "f = {f}");
            match turn {
                Turn::Start => assert_eq!(g, 0.0),
                Turn::Observable => {
                    observable += 1;
                    assert_eq!((root, g), (nodes[parent as usize].root, nodes[parent as usize].g));
                }
                Turn::Left | Turn::Right => {
                    turned += 1;
                    let from = &nodes[parent as usize];
                    assert!((g - from.g - distance(from.root, root)).abs() < 1e-9);
                }
            }
        }
        if let PolyanyaEvent::Expand { node } = event {
            harness.get_by_label_contains(&format!("Node {node}"));
            // The polygon it looks into is numbered on the map.
            let polygon = nodes[node as usize].polygon;
            let texts = painted_texts(&harness);
            assert!(texts.contains(&format!("polygon {polygon}")), "{texts:?}");
        }
    }
    assert!(observable > 0 && turned > 0, "both kinds of successor: {observable}, {turned}");
    let view = harness.state().intervals().view();
    harness.get_by_label_contains(&format!("the path of length {:.3} is the shortest", length(harness.state())));
    harness.get_by_label_contains(&format!("after {} expansions", view.expanded));
}

fn painted_texts(harness: &Harness<'_, NavmeshLab>) -> Vec<String> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text) => Some(text.galley.text().to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_colour_polyanya_draws_is_in_the_legend() {
    for theme in [Theme { light: false, colour_blind_safe: false }, Theme { light: true, colour_blind_safe: true }] {
        let mut harness = lab_harness();
        theme.apply(&harness.ctx);
        let palette = theme.palette();
        settle(&mut harness);
        apply(&mut harness, MeshCommand::SetAlgorithm(MeshAlgorithm::Polyanya));
        let mut legend: Vec<egui::Color32> =
            harness.state().legend_entries(&palette).iter().map(|(colour, _)| *colour).collect();
        // Drawn by every replay: the mesh's own lines.
        legend.extend([palette.triangle_edge, palette.obstacle_edge]);
        for command in [ReplayCommand::ToStart, ReplayCommand::StepForward, ReplayCommand::StepForward] {
            apply(&mut harness, MeshCommand::Replay(command));
        }
        for _ in 0..6 {
            apply(&mut harness, MeshCommand::Replay(ReplayCommand::StepForward));
            for colour in canvas_colours(&harness, true) {
                assert!(legend.contains(&colour), "{theme:?}: {colour:?} is drawn but not in the legend");
            }
        }
    }
}
