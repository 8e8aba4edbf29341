//! The playground app: lessons registered in a list, a navigation panel, one page per lesson.
//! Pages only replay traces recorded by the library's algorithms; nothing here searches itself.

pub mod barca_board;
mod barca_lab;
mod file_dialog;
pub mod grid_lab;
mod navmesh_lab;
pub mod replay_bar;
pub mod tree_lab;
pub mod tuning_lab;
pub mod worker;

pub use barca_lab::{BarcaCommand, BarcaLab, Mode, Notice, Player};
pub use grid_lab::{Command, FileField, GridLab};
pub use navmesh_lab::{Drawing, MAPS, MeshAlgorithm, MeshCommand, NavmeshLab, ReplayKind};
pub use tree_lab::{TreeCommand, TreeLab};
pub use tuning_lab::TuningLab;

/// A lesson page: it owns its state and draws itself into the central panel.
pub trait Lesson {
    fn title(&self) -> &'static str;
    fn ui(&mut self, ui: &mut egui::Ui);
    /// The settings to keep for the next run, if the page has any.
    fn save(&self) -> Option<String> {
        None
    }
    /// Takes back what `save` returned in an earlier run.
    fn restore(&mut self, _saved: &str) {}
}

/// All lessons, in the order of the course.
fn lessons() -> Vec<Box<dyn Lesson>> {
    vec![
        Box::new(GridLab::new()),
        Box::new(NavmeshLab::new()),
        Box::new(BarcaLab::new()),
        Box::new(TreeLab::new()),
        Box::new(TuningLab::new()),
    ]
}

pub struct SearchlabApp {
    lessons: Vec<Box<dyn Lesson>>,
    current: usize,
    /// The text size chosen, kept for the next run.
    zoom: f32,
}

impl Default for SearchlabApp {
    fn default() -> Self {
        Self { lessons: lessons(), current: 0, zoom: 1.0 }
    }
}

/// Where the app keeps which lesson was open.
const CURRENT_LESSON_KEY: &str = "current lesson";
const TEXT_SIZE_KEY: &str = "text size";

fn lesson_key(lesson: &dyn Lesson) -> String {
    format!("lesson: {}", lesson.title())
}

impl SearchlabApp {
    /// The app as it was left: the open lesson and each lesson's settings.
    pub fn restored(storage: &dyn eframe::Storage) -> Self {
        let mut app = Self::default();
        for lesson in &mut app.lessons {
            if let Some(saved) = storage.get_string(&lesson_key(lesson.as_ref())) {
                lesson.restore(&saved);
            }
        }
        let current = storage.get_string(CURRENT_LESSON_KEY).and_then(|s| s.parse().ok()).unwrap_or(0);
        app.current = current.min(app.lessons.len() - 1);
        app
    }

    /// Draws the whole app into `ui` (also what the UI tests drive).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        egui::Panel::left("lessons").resizable(false).show(ui, |ui| {
            ui.heading("searchlab");
            ui.separator();
            for (index, lesson) in self.lessons.iter().enumerate() {
                ui.selectable_value(&mut self.current, index, lesson.title());
            }
            ui.separator();
            // For the back of a lecture hall (also Ctrl + and Ctrl −).
            let zoom = ui.ctx().zoom_factor();
            self.zoom = zoom;
            ui.label(format!("Text size {:.0}%", zoom * 100.0));
            ui.horizontal(|ui| {
                if ui.button("Smaller").on_hover_text("Ctrl −").clicked() {
                    ui.ctx().set_zoom_factor((zoom - 0.1).max(0.6));
                }
                if ui.button("Larger").on_hover_text("Ctrl +").clicked() {
                    ui.ctx().set_zoom_factor((zoom + 0.1).min(2.5));
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| self.lessons[self.current].ui(ui));
    }
}

impl eframe::App for SearchlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        storage.set_string(CURRENT_LESSON_KEY, self.current.to_string());
        storage.set_string(TEXT_SIZE_KEY, self.zoom.to_string());
        for lesson in &self.lessons {
            if let Some(saved) = lesson.save() {
                storage.set_string(&lesson_key(lesson.as_ref()), saved);
            }
        }
    }
}

/// Opens the playground window.
pub fn run() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1400.0, 900.0]).with_title("searchlab"),
        ..Default::default()
    };
    eframe::run_native("searchlab", options, Box::new(|cc| {
            // Scroll bars always shown: on a projector, hidden ones make cut-off panels look finished.
            cc.egui_ctx.all_styles_mut(|style| style.spacing.scroll = egui::style::ScrollStyle::solid());
            if let Some(zoom) = cc.storage.and_then(|s| s.get_string(TEXT_SIZE_KEY)).and_then(|z| z.parse().ok()) {
                cc.egui_ctx.set_zoom_factor(zoom);
            }
            let app = cc.storage.map_or_else(SearchlabApp::default, SearchlabApp::restored);
            Ok(Box::new(app))
        }))
}
