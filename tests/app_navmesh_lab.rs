//! The polygon-map lesson driven through its labelled controls, as a student would.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::{Lesson, MeshAlgorithm, MeshCommand, NavmeshLab, SearchlabApp};
use searchlab::trace::SearchOutcome;

fn lab_harness() -> Harness<'static, NavmeshLab> {
    Harness::builder().with_size([1400.0, 900.0]).build_ui_state(|ui, lab: &mut NavmeshLab| lab.ui(ui), NavmeshLab::new())
}

fn step_label(harness: &Harness<'_, NavmeshLab>) -> String {
    let lab = harness.state();
    format!("Step {} / {}", lab.player().step(), lab.player().len())
}

#[test]
fn opens_on_a_bundled_map_with_a_recorded_search_and_funnel() {
    let mut harness = lab_harness();
    harness.run();
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    assert!(lab.mesh().walkable_count() > 10);
    assert!(lab.player().len() > 3, "the search is recorded");
    assert!(!lab.funnel().is_empty(), "the funnel over the channel is recorded");
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label("Searching...");
}

#[test]
fn stepping_replays_the_search_to_the_shortest_path() {
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label("Step >").click();
    harness.run();
    harness.get_by_label("Step >").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 2);
    harness.get_by_label("Expanded: 1");
    harness.get_by_label("< Step back").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 1);
    harness.get_by_label("End >|").click();
    harness.run();
    let lab = harness.state();
    let best = lab.result().and_then(|r| r.path.as_ref()).expect("a path").length;
    assert!(matches!(&lab.player().view().outcome, Some(SearchOutcome::Found { cost, .. }) if (cost - best).abs() < 1e-12));
    harness.get_by_label_contains("Shortest path:");
    harness.get_by_label("|< Start").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 0);
}

#[test]
fn the_radius_closes_the_narrow_corridor_and_tra_agrees() {
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label("narrow_corridor.json").click();
    harness.run();
    let length = |lab: &NavmeshLab| lab.result().and_then(|r| r.path.as_ref()).map(|p| p.length);
    harness.state_mut().apply(MeshCommand::SetStart([2.0, 10.0]));
    harness.state_mut().apply(MeshCommand::SetGoal([28.0, 10.0]));
    assert_eq!(length(harness.state()), Some(26.0));
    harness.state_mut().apply(MeshCommand::SetRadius(0.9));
    let detour = length(harness.state()).expect("the detour is wide enough");
    assert!(detour > 30.0, "{detour}");
    harness.get_by_label("TRA*").click();
    harness.run();
    assert!((length(harness.state()).unwrap() - detour).abs() < 1e-9);
    harness.state_mut().apply(MeshCommand::SetAlgorithm(MeshAlgorithm::Ta));
    harness.state_mut().apply(MeshCommand::SetRadius(1.2));
    assert_eq!(length(harness.state()), None);
    harness.get_by_label("End >|").click();
    harness.run();
    harness.get_by_label("No path: every channel is closed");
}

#[test]
fn refining_adds_triangles_and_a_bad_file_keeps_the_map() {
    let mut harness = lab_harness();
    harness.run();
    let before = harness.state().mesh().walkable_count();
    harness.get_by_label("Refine (no angle under 25 degrees)").click();
    harness.run();
    assert!(harness.state().mesh().walkable_count() > before);
    let refined = harness.state().mesh().walkable_count();
    harness.state_mut().apply(MeshCommand::LoadMap("maps/missing.json".to_string()));
    harness.run();
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("maps/missing.json: cannot read"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().mesh().walkable_count(), refined, "the map on screen is kept");
}

#[test]
fn a_grid_map_compares_grid_astar_with_the_any_angle_path() {
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label("rooms128.map").click();
    harness.run();
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    let octile = lab.grid_length().expect("grid A* runs between the cells of start and goal");
    let any_angle = lab.result().and_then(|r| r.path.as_ref()).expect("TA* finds a path").length;
    // Both join the same cell centres; the any-angle path is never longer, here strictly shorter.
    assert!(any_angle < octile - 1e-9, "{any_angle} vs {octile}");
    harness.get_by_label_contains("Grid A* (octile, cell to cell):");
}

#[test]
fn the_app_lists_the_polygon_lesson() {
    let mut harness = Harness::builder().with_size([1400.0, 900.0]).build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run();
    harness.get_all_by_label("Polygon maps").next().expect("the lesson is listed");
}
