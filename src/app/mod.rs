//! The playground app: lessons registered in a list, a navigation panel, one page per lesson.
//! Pages only replay traces recorded by the library's algorithms; nothing here searches itself.

mod grid_lab;
mod navmesh_lab;

pub use grid_lab::{Command, GridLab};
pub use navmesh_lab::{MAPS, MeshAlgorithm, MeshCommand, NavmeshLab};

/// A lesson page: it owns its state and draws itself into the central panel.
pub trait Lesson {
    fn title(&self) -> &'static str;
    fn ui(&mut self, ui: &mut egui::Ui);
}

/// All lessons, in the order of the course.
fn lessons() -> Vec<Box<dyn Lesson>> {
    vec![Box::new(GridLab::new()), Box::new(NavmeshLab::new())]
}

pub struct SearchlabApp {
    lessons: Vec<Box<dyn Lesson>>,
    current: usize,
}

impl Default for SearchlabApp {
    fn default() -> Self {
        Self { lessons: lessons(), current: 0 }
    }
}

impl SearchlabApp {
    /// Draws the whole app into `ui` (also what the UI tests drive).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        egui::Panel::left("lessons").resizable(false).show(ui, |ui| {
            ui.heading("searchlab");
            ui.separator();
            for (index, lesson) in self.lessons.iter().enumerate() {
                ui.selectable_value(&mut self.current, index, lesson.title());
            }
        });
        egui::CentralPanel::default().show(ui, |ui| self.lessons[self.current].ui(ui));
    }
}

impl eframe::App for SearchlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Opens the playground window.
pub fn run() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1400.0, 900.0]).with_title("searchlab"),
        ..Default::default()
    };
    eframe::run_native("searchlab", options, Box::new(|_| Ok(Box::<SearchlabApp>::default())))
}
