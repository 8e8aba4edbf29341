//! The theme and colour set chosen on the top bar: applied to egui and to the canvases, and
//! remembered between runs.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::SearchlabApp;
use searchlab::app::theme::Theme;

mod common;
use common::ui::Memory;

fn app_harness(app: SearchlabApp) -> Harness<'static, SearchlabApp> {
    let mut harness =
        Harness::builder().with_size([1500.0, 950.0]).build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), app);
    common::ui::wait_until(&mut harness, |app| !app.is_busy());
    harness
}

#[test]
fn the_light_theme_and_the_colour_blind_safe_colours_are_kept_across_a_restart() {
    let mut harness = app_harness(SearchlabApp::default());
    assert_eq!(harness.ctx.theme(), egui::Theme::Dark);
    harness.get_by_label("Light (projector)").click();
    harness.get_by_label("Colour-blind safe").click();
    harness.run();
    let chosen = Theme { light: true, colour_blind_safe: true };
    assert_eq!(harness.state().theme(), chosen);
    assert_eq!(harness.ctx.theme(), egui::Theme::Light, "egui's widgets follow");
    assert_eq!(Theme::of(&harness.ctx), chosen, "so do the canvases");
    let mut storage = Memory::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    drop(harness);

    // The next run, in a fresh context.
    let harness = app_harness(SearchlabApp::restored(&storage));
    assert_eq!(harness.state().theme(), chosen);
    assert_eq!(harness.ctx.theme(), egui::Theme::Light);
    assert_eq!(Theme::of(&harness.ctx).palette(), chosen.palette());
}

/// Fill colours of the rectangles painted in the last frame (the legend's swatches among them).
fn rect_fills(harness: &Harness<'_, SearchlabApp>) -> Vec<egui::Color32> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| if let egui::Shape::Rect(rect) = &clipped.shape { Some(rect.fill) } else { None })
        .collect()
}

#[test]
fn switching_the_colours_repaints_the_legend_in_the_new_palette() {
    let mut harness = app_harness(SearchlabApp::default());
    let usual = Theme::default().palette();
    assert!(rect_fills(&harness).contains(&usual.open));
    harness.get_by_label("Colour-blind safe").click();
    harness.run();
    let safe = Theme { light: false, colour_blind_safe: true }.palette();
    let fills = rect_fills(&harness);
    // Open is no longer green: the map and its legend take the Okabe–Ito colours.
    assert!(fills.contains(&safe.open) && fills.contains(&safe.closed), "{fills:?}");
    assert!(!fills.contains(&usual.open), "{fills:?}");
}
