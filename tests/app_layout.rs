//! Nothing hidden: on every page, on a projector (1280x720, text at 130 %) and at 1920x1080, every
//! labelled widget can be brought wholly into view (by the scroll areas it sits in), and the
//! narration sentence is in view without scrolling, at the start and at the end of the replay.

mod common;

use std::collections::HashMap;

use egui::accesskit::NodeId;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::{LESSONS, SearchlabApp};

/// Each widget's whole rect and the part of it inside its clip rect, by accessibility id.
fn widget_rects(harness: &Harness<'_, SearchlabApp>) -> HashMap<NodeId, (egui::Rect, egui::Rect)> {
    harness.ctx.viewport(|viewport| {
        viewport
            .this_pass
            .widgets
            .layers()
            .flat_map(|(_, widgets)| widgets.iter())
            .map(|widget| (widget.id.accesskit_id(), (widget.rect, widget.interact_rect)))
            .collect()
    })
}

/// Whether `visible` (the clipped rect) shows all of `rect`, give or take rounding.
fn wholly_shown((rect, visible): (egui::Rect, egui::Rect)) -> bool {
    visible.is_positive() && visible.expand(1.0).contains_rect(rect)
}

/// The labels of the widgets with a label that are cut by their clip rect. The game tree's cards
/// are not counted: they sit on a canvas one pans and zooms (and "Fit" frames), not in a panel.
fn cut_widgets(harness: &Harness<'_, SearchlabApp>) -> Vec<(NodeId, String)> {
    let rects = widget_rects(harness);
    harness
        .query_all_by(|node| {
            node.label().is_some_and(|label| !label.trim().is_empty())
                && node.description().as_deref() != Some("Tree card")
        })
        .filter(|node| rects.get(&node.accesskit_node().locate().0).is_some_and(|&rects| !wholly_shown(rects)))
        .map(|node| (node.accesskit_node().locate().0, node.accesskit_node().label().unwrap_or_default()))
        .collect()
}

/// Fails, naming the page, if a cut widget stays cut after it asked to be scrolled into view,
/// or if the narration is not wholly in view.
fn assert_nothing_hidden(harness: &mut Harness<'_, SearchlabApp>, page: &str) {
    assert_narration_shown(harness, page);
    let mut hidden = Vec::new();
    for (id, label) in cut_widgets(harness) {
        // Asked up to three times: a scroll area that scrolled both ways may need a second go.
        let mut shown = false;
        for _ in 0..3 {
            let Some(node) = harness.query_all_by(|node| node.locate().0 == id).next() else { break };
            node.scroll_to_me();
            harness.run_steps(2);
            shown = widget_rects(harness).get(&id).is_some_and(|&rects| wholly_shown(rects));
            if shown {
                break;
            }
        }
        // A widget taller or wider than every view it sits in cannot be shown whole: not counted.
        let larger_than_window = widget_rects(harness)
            .get(&id)
            .is_some_and(|(rect, _)| rect.width() > harness.ctx.content_rect().width() * 0.9);
        if !shown && !larger_than_window {
            hidden.push(format!("{} {:?}", label.chars().take(60).collect::<String>(), widget_rects(harness).get(&id)));
        }
        assert_narration_shown(harness, page);
    }
    assert!(hidden.is_empty(), "{page}: widgets that cannot be brought into view: {hidden:?}");
}

/// The narration sentence, if the page has one, wholly in view.
fn assert_narration_shown(harness: &Harness<'_, SearchlabApp>, page: &str) {
    let rects = widget_rects(harness);
    for node in harness.query_all_by(|node| node.description().as_deref() == Some("Narration")) {
        let text = node.accesskit_node().value().unwrap_or_default();
        let rects = rects.get(&node.accesskit_node().locate().0);
        assert!(
            rects.is_some_and(|&rects| wholly_shown(rects)),
            "{page}: the narration is cut or scrolled away: {rects:?} {text:?}"
        );
    }
}

/// Every lab page, opened and then at the end of its replay (End), at `size` and `zoom`.
fn check_every_page(size: [f32; 2], zoom: f32) {
    for lesson in LESSONS.iter().filter(|lesson| !lesson.labs.is_empty()) {
        let mut harness = common::ui::app_on(lesson.title, size, zoom);
        assert_nothing_hidden(&mut harness, &format!("{} at {size:?}, opened", lesson.title));
        harness.key_press(egui::Key::End);
        common::ui::wait_until(&mut harness, |app| !app.is_busy());
        harness.run_steps(4);
        assert_nothing_hidden(&mut harness, &format!("{} at {size:?}, at the end", lesson.title));
    }
}

#[test]
fn on_a_projector_at_720p_with_large_text_nothing_is_hidden() {
    check_every_page([1280.0, 720.0], 1.3);
}

#[test]
fn at_1080p_nothing_is_hidden() {
    check_every_page([1920.0, 1080.0], 1.0);
}

/// "Slide i / n" while presenting.
fn slide_label(harness: &Harness<'_, SearchlabApp>) -> String {
    let node = harness.get_by_label_contains("Slide ");
    node.accesskit_node().label().or_else(|| node.accesskit_node().value()).unwrap_or_default()
}

/// Every slide of every bundled lecture, presented at `size` and `zoom`, its cells recorded.
fn check_every_slide(size: [f32; 2], zoom: f32) {
    let lectures = searchlab::app::notebook::COURSE_LECTURES.map(|(file, _)| format!("lectures/{file}"));
    for lecture in lectures.iter().chain(&["lectures/welcome.md".to_string()]) {
        let app = SearchlabApp::default().with_lecture(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(lecture));
        let mut harness = Harness::builder()
            .with_size([size[0] / zoom, size[1] / zoom])
            .with_context_setup(move |ctx| {
                searchlab::app::set_style(ctx);
                ctx.set_zoom_factor(zoom);
            })
            .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), app);
        harness.run_steps(2);
        harness.get_by_label("Present").click();
        let mut slide = String::new();
        loop {
            harness.run_steps(2);
            common::ui::wait_until(&mut harness, |app| !app.is_busy());
            harness.run_steps(4);
            if slide_label(&harness) == slide {
                break;
            }
            slide = slide_label(&harness);
            assert_nothing_hidden(&mut harness, &format!("{lecture} at {size:?}, {slide}"));
            harness.key_press(egui::Key::PageDown);
        }
    }
}

#[test]
fn presenting_on_a_projector_at_720p_with_large_text_nothing_is_hidden() {
    check_every_slide([1280.0, 720.0], 1.3);
}

#[test]
fn presenting_at_1080p_nothing_is_hidden() {
    check_every_slide([1920.0, 1080.0], 1.0);
}
