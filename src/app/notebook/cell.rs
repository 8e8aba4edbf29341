//! One live cell of a lecture: the lab page of its scene, drawn compactly (canvas, replay bar,
//! pseudocode, narration), built the first time the cell scrolls into view so that only cells a
//! reader reaches are recorded (on the lab's worker thread, as on its page).

use std::path::Path;

use egui::{Rect, RichText, Vec2};

use super::NotebookCommand;
use crate::app::{Lesson, widgets};
use crate::lecture::{Cell, Problem, check_cell};
use crate::scene::Scene;

/// A lab page that can be drawn inside a lecture.
pub trait LiveCell: Lesson {
    /// The compact view of what the page shows: a replay bar, the canvas `height` tall, the
    /// statistics, the pseudocode and (where the page has one) the narration line. Returns the
    /// canvas's rect.
    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect;

    /// Presenting: true on a quiz's answer slide (the answer shown), false on its question slide.
    fn present_answer(&mut self, _shown: bool) {}

    /// The error the page shows, for pages that replay a recording: the cell names its line.
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        None
    }
}

/// Gives the page's `error` the lecture's `FILE:LINE`, as `lecture --check` does: a step that is past
/// the end or not in the replay ([`crate::scene::Step::resolve`]) at the `step` line, any other at
/// the cell's fence (`line`).
fn located(error: &mut String, file: &str, line: usize, source: &str) {
    if error.starts_with(&format!("{file}:")) {
        return;
    }
    let step = error.starts_with("step ") || error.starts_with("this replay has no ");
    let line = crate::scene::field_index(source, "step").filter(|_| step).map_or(line, |index| line + 1 + index);
    *error = Problem::new(line, error.clone()).at(file);
}

/// The page that shows `scene`, set to it (its recording started).
fn live_cell(scene: &Scene) -> Result<Box<dyn LiveCell>, String> {
    let page = crate::app::LESSONS.iter().find_map(|entry| entry.cell.filter(|_| entry.labs.contains(&scene.lab)));
    let mut cell = page.ok_or_else(|| format!("no page shows the {} lab", scene.lab))?();
    cell.set_scene(scene)?;
    Ok(cell)
}

pub struct CellView {
    line: usize,
    source: String,
    /// The authored scene, or what is wrong with the cell.
    scene: Result<Scene, Problem>,
    /// The page, once the cell has been in view; why it could not be set to the scene.
    live: Option<Result<Box<dyn LiveCell>, String>>,
    /// The canvas in the last frame drawn.
    rect: Option<Rect>,
    /// The cell's `expect` entries its recording does not show, as `lecture --check` reports them;
    /// checked on a thread of its own once the cell comes alive.
    mismatches: Mismatches,
    /// How much taller the cell's frame was than its canvas in the last frame drawn.
    chrome: Option<f32>,
}

impl CellView {
    /// A cell of a lecture whose relative map paths start at `base`.
    pub fn new(cell: &Cell, base: &Path) -> Self {
        Self {
            line: cell.line,
            source: cell.source.clone(),
            scene: check_cell(cell, base),
            live: None,
            rect: None,
            chrome: None,
            mismatches: Mismatches::Unchecked(base.to_path_buf()),
        }
    }

    /// The same cell, found at `line` after the lecture was edited around it.
    pub fn moved_to(mut self, line: usize) -> Self {
        let offset = line as isize - self.line as isize;
        if let Err(problem) = &mut self.scene {
            problem.line = problem.line.saturating_add_signed(offset);
        }
        if let Mismatches::Done(problems) = &mut self.mismatches {
            problems.iter_mut().for_each(|problem| problem.line = problem.line.saturating_add_signed(offset));
        }
        self.line = line;
        self
    }

    pub fn line(&self) -> usize {
        self.line
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn scene(&self) -> Result<&Scene, &Problem> {
        self.scene.as_ref()
    }

    /// The page behind the cell, once it has been in view.
    pub fn live(&self) -> Option<&dyn LiveCell> {
        match &self.live {
            Some(Ok(live)) => Some(live.as_ref()),
            _ => None,
        }
    }

    pub fn rect(&self) -> Option<Rect> {
        self.rect
    }

    /// The cell's height around a canvas, as last drawn: its rows of buttons, replay bar, margins.
    pub fn chrome(&self) -> Option<f32> {
        self.chrome
    }

    pub fn is_busy(&self) -> bool {
        self.live().is_some_and(|live| live.is_busy())
    }

    /// Back to the authored scene: the page is built again when next drawn.
    pub fn reset(&mut self) {
        self.live = None;
    }

    /// The scene to open in the lab: what the cell shows now, or as authored before it was shown.
    pub fn current_scene(&self) -> Option<Scene> {
        match (self.live(), &self.scene) {
            (Some(live), _) => live.scene(),
            (None, scene) => scene.as_ref().ok().cloned(),
        }
    }

    pub fn logic(&mut self, ctx: &egui::Context) {
        if let Some(Ok(live)) = &mut self.live {
            live.logic(ctx);
        }
    }

    /// Cell number `index` of lecture `file`: its buttons and view, or its error in place.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        index: usize,
        file: &str,
        height: f32,
        answer_slide: bool,
        commands: &mut Vec<NotebookCommand>,
    ) {
        if let Some(Ok(live)) = &mut self.live {
            live.present_answer(answer_slide);
        }
        let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.push_id(("cell", index), |ui| self.contents(ui, index, file, height, commands));
        });
        // A cell showing only an error is shorter than its canvas would be: it has no chrome to learn.
        let chrome = (frame.response.rect.height() - height).max(0.0);
        if self.chrome.is_none_or(|was| (was - chrome).abs() > 0.5) {
            self.chrome = Some(chrome);
            ui.ctx().request_repaint();
        }
    }

    fn contents(
        &mut self,
        ui: &mut egui::Ui,
        index: usize,
        file: &str,
        height: f32,
        commands: &mut Vec<NotebookCommand>,
    ) {
        let scene = match &self.scene {
            Ok(scene) => scene,
            Err(problem) => return widgets::error(ui, &problem.at(file)),
        };
        if let Some(Err(error)) = &self.live {
            return widgets::error(ui, &Problem::new(self.line, error.clone()).at(file));
        }
        for problem in self.mismatches.found(ui.ctx()) {
            widgets::error(ui, &problem.at(file));
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("Cell {} (line {})", index + 1, self.line)).weak());
            let buttons = [
                ("Reset", "Back to the step and settings the lecture sets", NotebookCommand::ResetCell(index)),
                ("Open in the lab", "The full page on what this cell shows", NotebookCommand::OpenInLab(index)),
                ("Save image", "This cell's canvas as PNG, beside the lecture", NotebookCommand::SaveCellImage(index)),
            ];
            for (label, hint, command) in buttons {
                if ui.button(label).on_hover_text(hint).clicked() {
                    commands.push(command);
                }
            }
        });
        match &mut self.live {
            Some(Ok(live)) => {
                if let Some(error) = live.error_mut().and_then(Option::as_mut) {
                    located(error, file, self.line, &self.source);
                }
                self.rect = Some(live.cell_ui(ui, height));
            }
            _ => {
                let (rect, _) = ui.allocate_exact_size(Vec2::new(ui.available_width(), height), egui::Sense::hover());
                ui.painter().rect_filled(rect, 4.0, ui.visuals().faint_bg_color);
                // Built when first in view: cells a reader never reaches are never recorded.
                if ui.is_rect_visible(rect) {
                    self.live = Some(live_cell(scene));
                    self.mismatches.start(&Cell { line: self.line, source: self.source.clone(), unclosed: false });
                    ui.ctx().request_repaint();
                }
            }
        }
    }
}

/// Where checking a cell's `expect` stands.
enum Mismatches {
    /// Not started: the folder its map paths are read from.
    Unchecked(std::path::PathBuf),
    Checking(std::sync::mpsc::Receiver<Vec<Problem>>),
    Done(Vec<Problem>),
}

impl Mismatches {
    /// Records `cell` as `lecture --check` does, on a thread (the browser, which has none, leaves
    /// the check to `--check`), when it has an `expect`.
    fn start(&mut self, cell: &Cell) {
        let Mismatches::Unchecked(base) = self else { return };
        let has_expect = Scene::from_toml(&cell.source).is_ok_and(|scene| !scene.expect.is_empty());
        if !has_expect || cfg!(target_arch = "wasm32") {
            *self = Mismatches::Done(Vec::new());
            return;
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        let (cell, base) = (cell.clone(), base.clone());
        std::thread::spawn(move || {
            let values = crate::lecture::measure_cell(&cell, &base).values;
            let _ = sender.send(crate::lecture::check_expect(&cell, &values));
        });
        *self = Mismatches::Checking(receiver);
    }

    /// The mismatches found so far (none while checking).
    fn found(&mut self, ctx: &egui::Context) -> &[Problem] {
        if let Mismatches::Checking(receiver) = self {
            match receiver.try_recv() {
                Ok(problems) => *self = Mismatches::Done(problems),
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    ctx.request_repaint_after(std::time::Duration::from_millis(200))
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => *self = Mismatches::Done(Vec::new()),
            }
        }
        match self {
            Mismatches::Done(problems) => problems,
            _ => &[],
        }
    }
}
