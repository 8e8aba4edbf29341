//! The app on a phone (412x915 points, portrait) and a portrait tablet: the lesson list is a menu in
//! the top bar, a page's side panel sits under its canvas, and a lab is used by taps alone.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::SearchlabApp;

mod common;
use common::ui::{click, wait_until};

const PHONE: [f32; 2] = [412.0, 915.0];

fn app_harness(size: [f32; 2]) -> Harness<'static, SearchlabApp> {
    let mut harness = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    wait_until(&mut harness, |app| !app.is_busy());
    harness
}

/// The step the replay bar reads ("Step 3 / 120"): its step.
fn step_shown(harness: &Harness<'_, SearchlabApp>) -> usize {
    let steps = harness.query_all_by_label_contains("Step ").filter_map(|node| {
        let node = node.accesskit_node();
        let text = node.label().or_else(|| node.value())?;
        text.strip_prefix("Step ")?.split(" / ").next()?.parse().ok()
    });
    steps.into_iter().next().expect("the replay bar shows its step")
}

#[test]
fn on_a_phone_the_lessons_are_a_menu_that_switches_pages() {
    let mut harness = app_harness(PHONE);
    assert!(harness.query_by_label("Polygon maps").is_none(), "no lesson list beside the page");
    click(&mut harness, "Lessons: Grid search");
    click(&mut harness, "Polygon maps");
    assert_eq!(harness.state().current_title(), "Polygon maps");
    assert!(harness.query_by_label("Grid search").is_none(), "the menu closes once a lesson is picked");
    click(&mut harness, "Lessons: Polygon maps");
    click(&mut harness, "Grid search");
    assert_eq!(harness.state().current_title(), "Grid search");
}

#[test]
fn on_a_phone_the_grid_lab_shows_its_map_first_and_its_panel_under_it() {
    for size in [PHONE, [800.0, 1280.0]] {
        let harness = app_harness(size);
        let canvas = harness.get_by_label("Map canvas").rect();
        let figures = harness.get_by_label_contains("Expanded: ").rect();
        assert!(canvas.width() > 0.8 * size[0], "at {size:?} the map is {canvas:?} wide");
        assert!(canvas.height() > 150.0, "at {size:?} the map is {canvas:?} high");
        assert!(
            figures.top() >= canvas.bottom(),
            "at {size:?} the figures {figures:?} are not under the map {canvas:?}"
        );
        assert!(figures.right() <= size[0], "at {size:?} the figures {figures:?} run off the screen");
    }
    // A landscape desktop keeps the panel beside the map.
    let harness = app_harness([1280.0, 720.0]);
    let canvas = harness.get_by_label("Map canvas").rect();
    assert!(harness.get_by_label_contains("Expanded: ").rect().left() >= canvas.right());
}

#[test]
fn on_a_phone_a_search_is_run_and_stepped_by_taps() {
    let mut harness = app_harness(PHONE);
    click(&mut harness, "Dijkstra");
    wait_until(&mut harness, |app| !app.is_busy());
    let start = step_shown(&harness);
    click(&mut harness, "Step >");
    click(&mut harness, "Step >");
    assert_eq!(step_shown(&harness), start + 2);
    click(&mut harness, "< Step back");
    assert_eq!(step_shown(&harness), start + 1);
}
