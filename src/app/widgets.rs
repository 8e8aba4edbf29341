//! Widgets every lesson draws the same way: pseudocode with its current line, a running job's
//! progress, error and notice lines, legend swatches.

use std::time::Duration;

use egui::{Color32, RichText, Sense, Vec2};

use super::theme::palette;

/// The current pseudocode line (of the left replay when two are compared).
pub const HIGHLIGHT: Color32 = Color32::from_rgb(250, 220, 90);
/// The right replay's current line, where it differs from the left one's.
pub const SECOND_HIGHLIGHT: Color32 = Color32::from_rgb(120, 220, 240);

/// Pseudocode in monospace, line `index` on the background of the first replay whose current line
/// it is (`current[side]`, highlighted in `HIGHLIGHT`, then `SECOND_HIGHLIGHT`).
pub fn pseudocode<'a>(ui: &mut egui::Ui, lines: impl IntoIterator<Item = &'a str>, current: &[Option<usize>]) {
    let highlights = [HIGHLIGHT, SECOND_HIGHLIGHT];
    let space = ui.painter().layout_no_wrap(" ".into(), egui::TextStyle::Monospace.resolve(ui.style()), Color32::WHITE).size().x;
    for (index, text) in lines.into_iter().enumerate() {
        let code = text.trim_start();
        let mut rich = RichText::new(code).monospace();
        if let Some(side) = current.iter().position(|&line| line == Some(index)) {
            rich = rich.background_color(highlights[side.min(1)]).color(Color32::BLACK);
        }
        // The indentation as a margin: a wrapped line goes on at its own depth, not at column 0.
        let indent = (text.len() - code.len()) as f32 * space;
        ui.horizontal_top(|ui| {
            ui.add_space(indent);
            ui.add(egui::Label::new(rich).wrap());
        });
    }
}

/// A cell's column beside its canvas, at most `height` tall (scrolling beyond), in the reading
/// view's text sizes with tight rows: a slide's large text would push the statistics and
/// pseudocode past the cell's edges.
pub fn compact(ui: &mut egui::Ui, height: f32, add_contents: impl FnOnce(&mut egui::Ui)) {
    ui.scope(|ui| {
        ui.style_mut().text_styles = ui.ctx().global_style().text_styles.clone();
        ui.spacing_mut().item_spacing.y = 2.0;
        egui::ScrollArea::vertical().id_salt("compact").max_height(height).auto_shrink([false, true]).show(ui, add_contents);
    });
}

/// A running job's line: spinner, bar (when the total is known), `text` with the time so far, and
/// Cancel. True when Cancel was clicked. Keeps repainting while shown, so the line moves on.
pub fn progress(ui: &mut egui::Ui, text: &str, fraction: Option<f32>, elapsed: Duration) -> bool {
    let cancel = ui
        .horizontal(|ui| {
            ui.spinner();
            if let Some(fraction) = fraction {
                ui.add(egui::ProgressBar::new(fraction).desired_width(200.0).show_percentage());
            }
            ui.label(format!("{text}, {:.1} s", elapsed.as_secs_f32()));
            ui.button("Cancel").clicked()
        })
        .inner;
    ui.ctx().request_repaint_after(Duration::from_millis(50));
    cancel
}

/// What went wrong (a file that did not load, a refused edit).
pub fn error(ui: &mut egui::Ui, text: &str) {
    ui.colored_label(palette(ui.ctx()).error, text);
}

/// Something the user should know but that is not an error (a capped trace).
pub fn warning(ui: &mut egui::Ui, text: &str) {
    ui.colored_label(palette(ui.ctx()).warning, text);
}

/// What just happened, when it went well.
pub fn notice(ui: &mut egui::Ui, text: &str) {
    ui.colored_label(palette(ui.ctx()).notice, text);
}

/// A colour square: the legend of what is drawn in `colour`.
pub fn swatch(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
    ui.painter().rect_filled(rect, 2.0, colour);
}

/// Swatches with their names, wrapped on as many lines as needed.
pub fn legend(ui: &mut egui::Ui, entries: &[(Color32, &str)]) {
    ui.horizontal_wrapped(|ui| {
        for &(colour, name) in entries {
            swatch(ui, colour);
            ui.label(name);
        }
    });
}

/// A page's introduction: open where there is height to spare, folded on a short screen (a
/// projector at 1280x720 with large text) so the canvas keeps the room; a click opens it.
pub fn intro(ui: &mut egui::Ui, id: &str, text: &str) {
    // Decided once, on the window's height: the very first pass may not know it yet (a
    // placeholder of thousands of points), so the header waits for the next.
    if ui.ctx().cumulative_pass_nr() == 0 {
        return;
    }
    let roomy = ui.ctx().content_rect().height() > 760.0;
    egui::CollapsingHeader::new("About this page").id_salt(id).default_open(roomy).show(ui, |ui| ui.label(text));
}

/// A page's side panel on the right, scrolling: `share` of the page's width, never half, so the
/// canvas beside it keeps most of a projector's screen. Its rows never widen it (a wide row is cut
/// at the edge, as a scrolled one would be), so it never runs under the canvas.
pub fn side_panel(ui: &mut egui::Ui, id: &str, share: f32, add_contents: impl FnOnce(&mut egui::Ui)) {
    let width = ui.available_width();
    let open = (width * share).clamp(260.0, 440.0);
    // Sized every frame (not remembered): the share holds after the window or the text size changes.
    let panel = egui::Panel::right(id.to_owned()).resizable(false).exact_size(open);
    panel.show(ui, |ui| {
        // Short of the right edge by the scroll bar, which is drawn over the content.
        let mut rect = ui.available_rect_before_wrap();
        rect.max.x -= ui.spacing().scroll.allocated_width() + 4.0;
        // A child the panel does not grow with; the panel claims exactly its own rect below.
        let mut inside = ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(*ui.layout()));
        inside.spacing_mut().text_edit_width = (rect.width() - 190.0).max(90.0);
        egui::ScrollArea::vertical().show(&mut inside, add_contents);
        ui.allocate_rect(rect, Sense::hover());
    });
}

/// What the event just replayed does, in one sentence with its numbers. Under a page's replay bar
/// where there is height to spare (`lines` rows high, so the canvas below does not jump as the
/// sentence grows or shrinks); on a short screen (a projector at 130%) at the top of the side
/// panel instead, so the canvas keeps its room.
pub struct Narration {
    roomy: bool,
}

impl Narration {
    /// Decided at the top of the page, with the page's whole height available (as [`intro`] is).
    pub fn new(ui: &egui::Ui) -> Self {
        Self { roomy: ui.available_height() > 620.0 }
    }

    /// In the central panel, under the replay bar.
    pub fn under_bar(&self, ui: &mut egui::Ui, text: &str, lines: usize) {
        if !self.roomy {
            return;
        }
        let height = ui.text_style_height(&egui::TextStyle::Body) * lines as f32 + ui.spacing().item_spacing.y;
        let width = ui.available_width();
        ui.allocate_ui_with_layout(Vec2::new(width, height), egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.set_min_size(Vec2::new(width, height));
            ui.add(egui::Label::new(RichText::new(text).strong()).wrap());
        });
    }

    /// At the top of the side panel.
    pub fn in_side_panel(&self, ui: &mut egui::Ui, text: &str) {
        if !self.roomy {
            ui.add(egui::Label::new(RichText::new(text).strong()).wrap());
            ui.separator();
        }
    }
}
