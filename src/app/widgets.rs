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
    let space = ui
        .painter()
        .layout_no_wrap(" ".into(), egui::TextStyle::Monospace.resolve(ui.style()), Color32::WHITE)
        .size()
        .x;
    let mut tops = Vec::new();
    let in_code_pane = ui.data(|data| data.get_temp::<Vec<f32>>(code_pane_id()).is_some());
    for (index, text) in lines.into_iter().enumerate() {
        let code = text.trim_start();
        let mut rich = RichText::new(code).monospace();
        if let Some(side) = current.iter().position(|&line| line == Some(index)) {
            rich = rich.background_color(highlights[side.min(1)]).color(Color32::BLACK);
        }
        // The indentation as a margin: a wrapped line goes on at its own depth, not at column 0.
        let indent = (text.len() - code.len()) as f32 * space;
        let line = ui.horizontal_top(|ui| {
            ui.add_space(indent);
            ui.add(egui::Label::new(rich).wrap());
        });
        tops.push(line.response.rect.top());
        if current.first() == Some(&Some(index)) {
            follow(ui, index, &line.response, in_code_pane.then_some(&tops[..]));
        }
    }
    if in_code_pane {
        ui.data_mut(|data| data.insert_temp(code_pane_id(), tops));
    }
}

/// A cell's code pane is at least this many times as tall as a line's letters.
pub const LEAST_CODE: f32 = 4.0;

/// How much of a line's top a pane may cut, as a share of the line's height: the blank above
/// its letters.
const CLIPPED_UNSEEN: f32 = 0.25;

/// While a cell's code pane is drawn: the tops of the pseudocode's lines in it.
fn code_pane_id() -> egui::Id {
    egui::Id::unique("searchlab: code pane lines")
}

/// Room below the code (begun at `top`) so that, scrolled to the end of a pane `height` tall, the
/// pane starts at a line rather than through one: less than a line's height.
fn end_at_a_line(ui: &mut egui::Ui, top: f32, height: f32, tops: &[f32]) {
    let hidden = ui.min_rect().bottom() - top - height;
    let unseen = CLIPPED_UNSEEN * ui.text_style_height(&egui::TextStyle::Monospace);
    if let Some(line) = tops.iter().map(|line| line - top).find(|&line| hidden > 0.0 && line >= hidden - unseen) {
        ui.add_space((line - hidden).max(0.0));
    }
}

/// Scrolls the current line into view when it changes (a step, a slide opening), the view's
/// height does (a cell read, then presented) or the line moves within the column: a long
/// pseudocode in a short column would otherwise hide it. The line moves when the text rewraps or
/// rows above it change (a scroll bar appears the frame after a column first overflows); scrolling
/// does not move it, so between changes the reader may scroll. A pass egui discards (a cell's first
/// layout) does not count: the next one asks again.
/// In a cell's code pane (`pane_tops`: the tops of the lines up to this one) the pane, scrolled down
/// to the line, starts at a line rather than through one.
fn follow(ui: &egui::Ui, index: usize, line: &egui::Response, pane_tops: Option<&[f32]>) {
    let id = ui.scope_id().with("pseudocode-current-line");
    let within = [line.rect.top(), line.rect.bottom()].map(|y| (y - ui.min_rect().top()).round() as i32);
    let followed = (index, ui.clip_rect().height().round() as i32, within);
    if ui.data(|data| data.get_temp::<(usize, i32, [i32; 2])>(id)) == Some(followed) {
        return;
    }
    // Aligned to the edge it is beyond: egui then scrolls to the line's place in the column, where
    // a plain `scroll_to_me` scrolls by the distance seen now, and one asked for in the last frame
    // (not landed yet) would be added on top.
    let clip = ui.clip_rect();
    let beyond = line.rect.top() < clip.top() || line.rect.bottom() > clip.bottom();
    if line.rect.top() < clip.top() {
        line.scroll_to_me(Some(egui::Align::TOP));
    } else if line.rect.bottom() > clip.bottom() {
        match pane_tops {
            Some(tops) => {
                // Where the pane's top lands with the line at its bottom (egui keeps a row's spacing below).
                let pane_top = line.rect.bottom() + ui.spacing().item_spacing.y - clip.height();
                let unseen = CLIPPED_UNSEEN * ui.text_style_height(&egui::TextStyle::Monospace);
                // The first line the pane can start at and still reach down to this one.
                let first = tops.iter().position(|&top| top >= pane_top - unseen).unwrap_or(index);
                if tops[first] < pane_top {
                    line.scroll_to_me(Some(egui::Align::BOTTOM));
                } else {
                    let lines = egui::Rect::from_x_y_ranges(line.rect.x_range(), tops[first]..=line.rect.bottom());
                    ui.scroll_to_rect(lines, Some(egui::Align::TOP));
                }
            }
            None => line.scroll_to_me(Some(egui::Align::BOTTOM)),
        }
    }
    if beyond {
        // The scroll lands in the next frame: ask for it, or the line waits half hidden for the next input.
        ui.ctx().request_repaint();
    }
    if !ui.ctx().will_discard() && !ui.is_sizing_pass() {
        ui.data_mut(|data| data.insert_temp(id, followed));
    }
}

/// A lecture cell's column beside its canvas, `width` by `height`, in the reading view's text
/// sizes with tight rows (a slide's large text would push everything past the cell's edges):
/// the narration sentence on top, then the pseudocode (scrolled to its current line), then the
/// figures, each scrolling on its own so a long table never pushes the code off the slide. Its
/// rows never widen it: a wide row is cut at the column's edge, inside the cell's frame. The code
/// gets at least `least_code` times the height of a line of code's letters.
pub fn cell_column(
    ui: &mut egui::Ui,
    [width, height]: [f32; 2],
    narration: &str,
    least_code: f32,
    code: impl FnOnce(&mut egui::Ui),
    figures: impl FnOnce(&mut egui::Ui),
) {
    let rect = egui::Rect::from_min_size(ui.cursor().min, Vec2::new(width, height));
    let mut column =
        ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(egui::Layout::top_down(egui::Align::Min)));
    column.set_clip_rect(rect.intersect(ui.clip_rect()));
    column.style_mut().text_styles = ui.ctx().global_style().text_styles.clone();
    column.spacing_mut().item_spacing.y = 2.0;
    if !narration.is_empty() {
        Narration::pinned(&mut column, narration);
    }
    // The code takes what it needs up to a little over half of what is left, less where the
    // figures need more (as tall as they were last frame; the code follows its current line),
    // but not under `least_code`; the figures the rest.
    /// A separator's height with the column's spacing after it (egui's is 6 points).
    const SEPARATOR: f32 = 10.0;
    let left = rect.bottom() - column.cursor().top();
    let figures_id = column.scope_id().with("figures-height");
    let figures_need = column.data(|data| data.get_temp::<f32>(figures_id)).unwrap_or(0.0);
    let least_code = least_code * column.text_style_height(&egui::TextStyle::Monospace);
    let share = (left - figures_need - SEPARATOR).clamp(least_code.min(left * 0.55), left * 0.55);
    egui::ScrollArea::vertical().id_salt("code").max_height(share).auto_shrink([false, true]).show(&mut column, |ui| {
        ui.data_mut(|data| data.insert_temp(code_pane_id(), Vec::<f32>::new()));
        let top = ui.min_rect().top();
        code(ui);
        let tops = ui.data_mut(|data| data.remove_temp::<Vec<f32>>(code_pane_id())).unwrap_or_default();
        end_at_a_line(ui, top, share, &tops);
    });
    column.separator();
    let rest = (rect.bottom() - column.cursor().top()).max(0.0);
    let shown = egui::ScrollArea::vertical()
        .id_salt("figures")
        .max_height(rest)
        .auto_shrink([false, true])
        .show(&mut column, figures);
    if (shown.content_size.y - figures_need).abs() > 0.5 {
        column.data_mut(|data| data.insert_temp(figures_id, shown.content_size.y));
        column.ctx().request_repaint();
    }
    ui.allocate_rect(rect, Sense::hover());
}

/// [`cell_column`] with the default least code, in what is left of a column `height` tall begun
/// at `top`, as wide as the rest of the row.
pub fn rest_of_column(
    ui: &mut egui::Ui,
    [top, height]: [f32; 2],
    narration: &str,
    code: impl FnOnce(&mut egui::Ui),
    figures: impl FnOnce(&mut egui::Ui),
) {
    let rest = (height - (ui.cursor().top() - top)).max(0.0);
    cell_column(ui, [ui.available_width(), rest], narration, LEAST_CODE, code, figures);
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

/// Swatches with their names, wrapped on as many lines as needed: a swatch and its name are one
/// unit that wraps whole, so no colour ends a line apart from the words it names.
pub fn legend(ui: &mut egui::Ui, entries: &[(Color32, &str)]) {
    ui.horizontal_wrapped(|ui| {
        for &(colour, name) in entries {
            legend_entry(ui, colour, name);
        }
    });
}

fn legend_entry(ui: &mut egui::Ui, colour: Color32, name: &str) {
    const SWATCH: f32 = 12.0;
    let gap = ui.spacing().item_spacing.x;
    let font = egui::TextStyle::Body.resolve(ui.style());
    let text_colour = ui.visuals().text_color();
    // Only a name longer than a whole line wraps, and then within that line.
    let wrap = (ui.max_rect().width() - SWATCH - gap).max(40.0);
    let galley = ui.painter().layout(name.to_owned(), font, text_colour, wrap);
    let size = Vec2::new(SWATCH + gap + galley.size().x, galley.size().y.max(SWATCH));
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name));
    let square =
        egui::Rect::from_min_size(egui::pos2(rect.left(), rect.center().y - SWATCH / 2.0), Vec2::splat(SWATCH));
    ui.painter().rect_filled(square, 2.0, colour);
    ui.painter().galley(
        egui::pos2(rect.left() + SWATCH + gap, rect.center().y - galley.size().y / 2.0),
        galley,
        text_colour,
    );
}

/// A page's introduction: open where there is height to spare, folded on a short screen (a
/// projector at 1280x720 with large text) so the canvas keeps the room; a click opens it.
pub fn intro(ui: &mut egui::Ui, id: &str, text: &str) {
    // Decided once, on the window's height: the very first pass may not know it yet (a
    // placeholder of thousands of points), so the header waits for the next.
    if ui.ctx().cumulative_pass_nr() == 0 {
        return;
    }
    let roomy = ui.ctx().content_rect().height() > 760.0 && !is_narrow(ui.ctx());
    egui::CollapsingHeader::new("About this page").id_salt(id).default_open(roomy).show(ui, |ui| ui.label(text));
}

/// True on a phone, a portrait tablet or a narrow desktop window: the lesson list goes into a
/// menu and a page's side panel under its canvas.
pub fn is_narrow(ctx: &egui::Context) -> bool {
    let screen = ctx.content_rect();
    screen.width() <= NARROW_WIDTH || (screen.height() > screen.width() && screen.width() <= PORTRAIT_WIDTH)
}

/// Narrower than this (points) is a phone's layout, whatever the orientation.
const NARROW_WIDTH: f32 = 600.0;
/// A portrait screen up to this wide (a tablet held upright) lays out as a phone.
const PORTRAIT_WIDTH: f32 = 900.0;
/// On a narrow screen the side panel takes this share of the page's height, under the canvas.
const NARROW_PANEL_SHARE: f32 = 0.45;

/// A page's side panel on the right, scrolling: `share` of the page's width, never half, so the
/// canvas beside it keeps most of a projector's screen. Its rows never widen it (a wide row is cut
/// at the edge, as a scrolled one would be), so it never runs under the canvas. On a narrow
/// screen it sits under the canvas instead, the whole width, so the canvas comes first.
pub fn side_panel(ui: &mut egui::Ui, id: &str, share: f32, add_contents: impl FnOnce(&mut egui::Ui)) {
    side_panel_pinned(ui, id, share, |_| {}, add_contents);
}

/// [`side_panel`] with `pinned` drawn above the scrolled part, always in view (the narration: the
/// highlighted pseudocode line scrolls the rest).
pub fn side_panel_pinned(
    ui: &mut egui::Ui,
    id: &str,
    share: f32,
    pinned: impl FnOnce(&mut egui::Ui),
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    // Sized every frame (not remembered): the share holds after the window or the text size changes.
    let panel = if is_narrow(ui.ctx()) {
        let height = (ui.available_height() * NARROW_PANEL_SHARE).max(160.0);
        egui::Panel::bottom(format!("{id} (narrow)")).resizable(false).exact_size(height)
    } else {
        let open = (ui.available_width() * share).clamp(260.0, 440.0);
        egui::Panel::right(id.to_owned()).resizable(false).exact_size(open)
    };
    panel.show(ui, |ui| {
        // Short of the right edge by the scroll bar, which is drawn over the content.
        let mut rect = ui.available_rect_before_wrap();
        rect.max.x -= ui.spacing().scroll.allocated_width() + 4.0;
        // A child the panel does not grow with; the panel claims exactly its own rect below.
        let mut inside = ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(*ui.layout()));
        inside.spacing_mut().text_edit_width = (rect.width() - 190.0).max(90.0);
        pinned(&mut inside);
        // Both ways: text wraps to the panel, and a row that cannot (a table) scrolls sideways.
        egui::ScrollArea::both().show(&mut inside, add_contents);
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
            Self::sentence(ui, text);
        });
    }

    /// At the top of the side panel, above its scrolled part.
    pub fn in_side_panel(&self, ui: &mut egui::Ui, text: &str) {
        if !self.roomy {
            Self::pinned(ui, text);
        }
    }

    /// At the top of the side panel whatever the height: for a page whose replay bar is there too.
    pub fn pinned(ui: &mut egui::Ui, text: &str) {
        Self::sentence(ui, text);
        ui.separator();
    }

    /// The sentence, described as "Narration" to assistive technology (and to layout tests).
    fn sentence(ui: &mut egui::Ui, text: &str) {
        let response = ui.add(egui::Label::new(RichText::new(text).strong()).wrap());
        ui.ctx().accesskit_node_builder(response.id, |node| node.set_description("Narration"));
    }
}

/// The width of `text` laid out on one line in `style`: what a row needs to fit it unwrapped.
pub fn text_width(ui: &egui::Ui, text: &str, style: egui::TextStyle) -> f32 {
    egui::WidgetText::from(text).into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, style).size().x
}
