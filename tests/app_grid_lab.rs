//! The grid lab driven through its labelled controls, as a student would.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::{GridLab, Lesson, SearchlabApp};
use searchlab::trace::SearchEvent;

fn lab_harness() -> Harness<'static, GridLab> {
    Harness::builder().with_size([1400.0, 900.0]).build_ui_state(|ui, lab: &mut GridLab| lab.ui(ui), GridLab::new())
}

fn step_label(harness: &Harness<'_, GridLab>) -> String {
    let lab = harness.state();
    format!("Step {} / {}", lab.player().step(), lab.player().len())
}

#[test]
fn opens_on_the_bundled_map_with_a_recorded_search() {
    let mut harness = lab_harness();
    harness.run();
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().grid().width(), 64);
    assert!(harness.state().player().len() > 100);
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label("Searching...");
}

#[test]
fn step_forward_back_and_scrub_change_the_stats() {
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label("Step >").click();
    harness.run();
    harness.get_by_label("Step >").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 2);
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label("Expanded: 1");
    harness.get_by_label("< Step back").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 1);
    harness.get_by_label("End >|").click();
    harness.run();
    assert!(harness.state().player().at_end());
    harness.get_by_label_contains("Path found: cost");
    harness.get_by_label("|< Start").click();
    harness.run();
    assert_eq!(harness.state().player().step(), 0);
    harness.get_by_label("Searching...");
}

#[test]
fn choosing_dijkstra_records_a_search_without_estimates() {
    let has_estimates = |lab: &GridLab| {
        lab.player().trace().events.iter().any(|e| matches!(e, SearchEvent::Open { h, .. } if *h > 0.0))
    };
    let mut harness = lab_harness();
    harness.run();
    assert!(has_estimates(harness.state()), "A* records h for the cells it opens");
    harness.get_by_label("Dijkstra").click();
    harness.run();
    assert!(!has_estimates(harness.state()), "Dijkstra's recording has h = 0 everywhere");
    assert!(harness.state().player().len() > 100);
}

#[test]
fn a_malformed_map_shows_an_error_and_keeps_the_current_map() {
    let dir = std::env::temp_dir().join(format!("searchlab-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.map");
    std::fs::write(&bad, "type octile\nheight 2\nwidth 2\nmap\n..\n.x\n").unwrap();
    let mut harness = lab_harness();
    harness.run();
    let before = harness.state().grid().clone();
    // Select the path in its field, type the bad file's path over it, load.
    harness.get_all_by_label("Map file:").last().expect("the map path field").click();
    harness.run();
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.get_all_by_label("Map file:").last().unwrap().type_text(&bad.display().to_string());
    harness.run();
    harness.get_by_label("Load map").click();
    harness.run();
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("bad.map:6: unknown terrain 'x' in column 2"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().grid(), &before, "the map on screen is kept");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_app_lists_the_lessons() {
    let mut harness = Harness::builder().with_size([1400.0, 900.0]).build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run();
    harness.get_all_by_label("Grid search").next().expect("the lesson is listed");
}
