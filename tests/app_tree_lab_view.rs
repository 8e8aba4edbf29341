//! The game tree on a projector (1280x720): the note on what part of the tree is in view never
//! covers a card, and the cards' text grows with the app's text size.

mod common;

use std::path::Path;

use common::ui::{click, settle};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::{Lesson, Notebook, NotebookCommand, SearchlabApp};

/// Pixels of the projector's screen.
const SCREEN: [f32; 2] = [1280.0, 720.0];

/// The smallest text on a UCT card (its visits line, "n 2 μ 1.00"), in screen pixels.
fn smallest_uct_card_text(ctx: &egui::Context, output: &egui::FullOutput) -> f32 {
    let sizes = output.shapes.iter().filter_map(|clipped| match &clipped.shape {
        egui::Shape::Text(text) if text.galley.job.text.contains(" μ ") => {
            // Drawn in the zoomable scene: its layer scaled the galley, so its size on screen is
            // its height against the same text laid out unscaled.
            let unscaled = ctx.fonts_mut(|fonts| fonts.layout_job(text.galley.job.as_ref().clone()));
            let font = text.galley.job.sections[0].format.font_id.size;
            Some(font * text.galley.rect.height() / unscaled.rect.height() * ctx.pixels_per_point())
        }
        _ => None,
    });
    sizes.fold(f32::INFINITY, f32::min)
}

/// Lecture 5 presented on the projector with the text at `zoom`, on slide 3 ("UCT: the selection rule").
fn uct_slide(zoom: f32) -> Harness<'static, Notebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lectures/5-monte-carlo-tree-search.md");
    let mut harness = Harness::builder()
        .with_size([SCREEN[0] / zoom, SCREEN[1] / zoom])
        .with_context_setup(move |ctx| {
            searchlab::app::set_style(ctx);
            ctx.set_zoom_factor(zoom);
        })
        .build_ui_state(
            |ui, notebook: &mut Notebook| {
                notebook.logic(ui.ctx());
                notebook.ui(ui);
            },
            Notebook::open(&path),
        );
    harness.state_mut().apply(NotebookCommand::Present(true));
    harness.state_mut().apply(NotebookCommand::GoToSlide(2));
    settle(&mut harness);
    harness.get_by_label("UCT: the selection rule");
    harness
}

/// "Larger" makes the cards' text larger on screen, and at 130% even the least visited card's
/// statistics are at least 12 pixels tall (review 2, #6: they stayed near 9 pixels).
#[test]
fn card_text_grows_with_the_text_size() {
    let text = |zoom: f32| {
        let harness = uct_slide(zoom);
        smallest_uct_card_text(&harness.ctx, harness.output())
    };
    let (normal, larger) = (text(1.0), text(1.3));
    assert!(normal.is_finite() && larger.is_finite(), "UCT cards drawn: {normal} and {larger} pixels");
    assert!(larger >= 1.25 * normal, "at 130% the card text is {larger:.1} pixels, at 100% {normal:.1}");
    assert!(larger >= 12.0, "at 130% the smallest card text is {larger:.1} pixels");
}

/// The screen rectangles of the cards the canvas shows: each card's widget lies in the tree's
/// plane (the one transformed layer on the page), clipped by the canvas.
fn cards_on_screen<S>(harness: &Harness<'_, S>) -> Vec<(String, egui::Rect)> {
    let canvas = harness.get_by_label("Game tree canvas").rect();
    let layers: Vec<egui::LayerId> = harness.ctx.memory(|memory| memory.layer_ids().collect());
    let plane = layers
        .into_iter()
        .find_map(|layer| harness.ctx.layer_transform_to_global(layer))
        .expect("the tree is a zoomable scene");
    harness
        .query_all_by(|node| {
            node.label().is_some_and(|label| label.starts_with("node ") || label.starts_with("others ("))
        })
        .map(|node| (node.accesskit_node().label().unwrap_or_default(), (plane * node.rect()).intersect(canvas)))
        .filter(|(_, rect)| rect.is_positive())
        .collect()
}

/// On the lab's page at 130%, the note under the canvas ("… cards in view, more …" and its button,
/// or "Readable size" after it) covers no card, as the search is followed and after "Fit".
#[test]
fn on_a_projector_the_lab_page_note_covers_no_card() {
    let mut app = common::ui::app_on("Game-tree search", SCREEN, 1.3);
    let idle = |app: &mut Harness<'_, SearchlabApp>| {
        common::ui::wait_until(app, |app| !app.is_busy());
        app.run_ok();
    };
    let mut notes = 0;
    for (game, algorithm) in [("Full tic-tac-toe tree", "Minimax"), ("Tic-tac-toe", "UCT")] {
        click(&mut app, game);
        idle(&mut app);
        click(&mut app, algorithm);
        idle(&mut app);
        click(&mut app, "End >|");
        for (when, button) in [("following", "Show the whole tree"), ("after Fit", "Readable size")] {
            let at = format!("{game}, {algorithm}, {when}");
            let cards = cards_on_screen(&app);
            assert!(!cards.is_empty(), "{at}: cards on the canvas");
            let Some(note) = app.query_by_label(button).map(|button| button.rect()) else { continue };
            let text = app
                .query_by_label_contains(" cards in view, more ")
                .or_else(|| app.query_by_label_contains("in small cards"));
            let text = text.unwrap_or_else(|| panic!("{at}: the button {button} without its note")).rect();
            for (what, rect) in [("note", text), (button, note)] {
                for (card, on_screen) in &cards {
                    assert!(!on_screen.intersects(rect), "{at}: the {what} {rect:?} covers '{card}' {on_screen:?}");
                }
            }
            notes += 1;
            click(&mut app, button);
        }
    }
    assert!(notes >= 2, "the big trees said what is cut {notes} times");
}
