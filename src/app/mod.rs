//! The playground app: lessons registered in a list, a navigation panel, one page per lesson.
//! Pages only replay traces recorded by the library's algorithms; nothing here searches itself.

mod agents_lab;
pub mod barca_board;
mod barca_lab;
mod canvas_nav;
mod file_dialog;
pub mod frame_timer;
pub mod grid_lab;
pub mod history;
mod navmesh_lab;
pub mod notebook;
pub mod play_lab;
pub mod quiz;
pub mod replay_bar;
pub mod theme;
pub mod tree_lab;
pub mod tuning_lab;
mod widgets;
pub mod worker;

pub use agents_lab::AgentsLab;
pub use barca_lab::ai::{AiAnswer, ComputerPlayer, MoveJob, Thinking, ai_engine};
pub use barca_lab::{BarcaCommand, BarcaLab, Mode, Notice, Seat};
pub use grid_lab::{FileField, GridCommand, GridLab};
pub use navmesh_lab::{Drawing, MAPS, MeshAlgorithm, MeshCommand, NavmeshLab, ReplayKind};
pub use notebook::{CellView, LiveCell, Notebook, NotebookCommand};
pub use play_lab::PlayLab;
pub use quiz::{Practice, QuizCell};
pub use tree_lab::{TreeCommand, TreeLab};
pub use tuning_lab::TuningLab;

use crate::scene::{Lab, Scene};

/// A lesson page: it owns its state and draws itself into the central panel.
pub trait Lesson {
    fn ui(&mut self, ui: &mut egui::Ui);
    /// Runs every frame for every lesson built so far, shown or not, so background work (a
    /// recording, the computer's move) finishes on hidden pages too.
    fn logic(&mut self, _ctx: &egui::Context) {}
    /// True while work runs in the background (a recording, the computer's move).
    fn is_busy(&self) -> bool {
        false
    }
    /// The settings to keep for the next run, if the page has any.
    fn save(&self) -> Option<String> {
        None
    }
    /// What the page shows as a scene ("Copy this cell"), if it shows one.
    fn scene(&self) -> Option<Scene> {
        None
    }
    /// Why "Copy this cell" copies nothing now, if it does not: the page's scene would not be what
    /// it shows (a field edited since its search). Said in place of "Copied".
    fn copy_refused(&self) -> Option<String> {
        None
    }
    /// True while the page takes the whole window (a presentation): the list of
    /// lessons hides.
    fn full_screen(&self) -> bool {
        false
    }
    /// Shows `scene` ("Open in the lab"); on an error the page is left as it was.
    fn set_scene(&mut self, _scene: &Scene) -> Result<(), String> {
        Err("this page shows no scenes".to_string())
    }
}

/// Why a page recording its search copies no cell: its settings have moved on, its replay not yet.
pub const STILL_RECORDING: &str = "Not copied: the search is still being recorded; copy it once it is shown";

/// A lesson before it is opened: its name, and how to build it from what it saved last time
/// (`None`: never saved, or from an older version), so its opening work runs once, on first show.
/// The app's table of pages: a lab of [`crate::scene::Lab`] is shown by the page that lists it.
pub struct LessonEntry {
    pub title: &'static str,
    /// The kinds of scene the page shows.
    pub labs: &'static [Lab],
    pub build: fn(Option<&str>) -> Box<dyn Lesson>,
    /// The page as a lecture cell shows it (fresh, not from saved settings), for pages with labs.
    pub cell: Option<fn() -> Box<dyn LiveCell>>,
}

/// All lessons, in the order of the course.
pub const LESSONS: [LessonEntry; 9] = [
    LessonEntry {
        title: "Grid search",
        labs: &[Lab::Grid, Lab::Hierarchical],
        build: |saved| Box::new(GridLab::from_saved(saved)),
        cell: Some(|| Box::new(GridLab::from_saved(None))),
    },
    LessonEntry {
        title: "Polygon maps",
        labs: &[Lab::Polygon],
        build: |_| Box::new(NavmeshLab::new()),
        cell: Some(|| Box::new(NavmeshLab::new())),
    },
    LessonEntry {
        title: "Multi-agent paths",
        labs: &[Lab::Agents],
        build: |saved| Box::new(AgentsLab::from_saved(saved)),
        cell: Some(|| Box::new(AgentsLab::from_saved(None))),
    },
    LessonEntry {
        title: "Barca: play",
        labs: &[Lab::Barca],
        build: |saved| Box::new(BarcaLab::from_saved(saved)),
        cell: Some(|| Box::new(BarcaLab::for_cell())),
    },
    LessonEntry { title: play_lab::TITLE, labs: &[], build: |_| Box::new(PlayLab::new()), cell: None },
    LessonEntry {
        title: "Game-tree search",
        labs: &[Lab::GameTree],
        build: |saved| Box::new(TreeLab::from_saved(saved)),
        cell: Some(|| Box::new(TreeLab::from_saved(None))),
    },
    LessonEntry {
        title: "Tuning",
        labs: &[Lab::Tuning],
        build: |_| Box::new(TuningLab::new()),
        cell: Some(|| Box::new(TuningLab::new())),
    },
    LessonEntry {
        title: "Quiz",
        labs: &[Lab::Quiz],
        build: |saved| Box::new(Practice::from_saved(saved)),
        cell: Some(|| Box::new(QuizCell::new(crate::quiz::Kind::NextExpansion, 0, Default::default()))),
    },
    LessonEntry { title: notebook::TITLE, labs: &[], build: |saved| Box::new(Notebook::from_saved(saved)), cell: None },
];

/// Settings read back from `saved`; the defaults when there are none or they no longer parse.
pub fn settings_from<S: serde::de::DeserializeOwned + Default>(saved: Option<&str>) -> S {
    saved.and_then(|saved| serde_json::from_str(saved).ok()).unwrap_or_default()
}

pub struct SearchlabApp {
    /// Each lesson of `LESSONS` once it has been shown.
    lessons: Vec<Option<Box<dyn Lesson>>>,
    /// What each lesson saved in the last run, until it is built (and kept for it if it never is).
    saved: Vec<Option<String>>,
    current: usize,
    /// The text size chosen, kept for the next run.
    zoom: f32,
    /// Dark or light, usual or colour-blind-safe colours; kept for the next run.
    theme: theme::Theme,
    /// What went wrong opening a lecture cell in the lab, or what "Copy this cell" did.
    message: Option<Result<String, String>>,
}

impl Default for SearchlabApp {
    fn default() -> Self {
        Self {
            lessons: LESSONS.iter().map(|_| None).collect(),
            saved: vec![None; LESSONS.len()],
            current: 0,
            zoom: 1.0,
            theme: theme::Theme::default(),
            message: None,
        }
    }
}

/// Where the app keeps which lesson was open.
const CURRENT_LESSON_KEY: &str = "current lesson";
const TEXT_SIZE_KEY: &str = "text size";

/// The lesson saved as open: by its title; an index, as saved before lessons were kept by
/// title, is read in the list of that time (the same lessons in the same order).
fn lesson_index(saved: &str) -> Option<usize> {
    const OLD_ORDER: [&str; 6] =
        ["Grid search", "Polygon maps", "Barca: play", "Game-tree search", "Tuning", notebook::TITLE];
    let title = saved.parse::<usize>().ok().and_then(|index| OLD_ORDER.get(index).copied()).unwrap_or(saved);
    LESSONS.iter().position(|entry| entry.title == title)
}

fn lesson_key(entry: &LessonEntry) -> String {
    format!("lesson: {}", entry.title)
}

impl SearchlabApp {
    /// The app as the window (or web page) opens: the style set, the text size and lessons restored.
    pub fn starting(cc: &eframe::CreationContext) -> Self {
        set_style(&cc.egui_ctx);
        if let Some(zoom) = cc.storage.and_then(|s| s.get_string(TEXT_SIZE_KEY)).and_then(|z| z.parse().ok()) {
            cc.egui_ctx.set_zoom_factor(zoom);
        }
        cc.storage.map_or_else(SearchlabApp::default, SearchlabApp::restored)
    }

    /// The app as it was left: the open lesson and each lesson's settings.
    pub fn restored(storage: &dyn eframe::Storage) -> Self {
        let current = storage.get_string(CURRENT_LESSON_KEY).unwrap_or_default();
        Self {
            saved: LESSONS.iter().map(|entry| storage.get_string(&lesson_key(entry))).collect(),
            current: lesson_index(&current).unwrap_or(0),
            theme: settings_from(storage.get_string(theme::STORAGE_KEY).as_deref()),
            ..Self::default()
        }
    }

    /// The app opened on the notebook showing the lecture at `path`.
    pub fn with_lecture(mut self, path: &std::path::Path) -> Self {
        let index = LESSONS.iter().position(|entry| entry.title == notebook::TITLE).expect("the notebook is a lesson");
        self.lessons[index] = Some(Box::new(Notebook::open(path)));
        self.current = index;
        self
    }

    /// The lesson shown now.
    pub fn current_title(&self) -> &'static str {
        LESSONS[self.current].title
    }

    /// What the lesson shown shows, as a scene (its replay's step among it), if it shows one.
    pub fn current_scene(&self) -> Option<Scene> {
        self.lessons[self.current].as_ref().and_then(|lesson| lesson.scene())
    }

    /// Shows `scene` on the page of its lab ("Open in the lab" in a lecture, a map linked in the
    /// web page's address).
    pub fn open_scene(&mut self, scene: &Scene) {
        let Some(index) = LESSONS.iter().position(|entry| entry.labs.contains(&scene.lab)) else { return };
        let lesson = self.lessons[index].get_or_insert_with(|| (LESSONS[index].build)(self.saved[index].as_deref()));
        self.message = lesson.set_scene(scene).err().map(Err);
        self.current = index;
    }

    /// True while a lesson built so far works in the background.
    pub fn is_busy(&self) -> bool {
        self.lessons.iter().flatten().any(|lesson| lesson.is_busy())
    }

    /// Draws the whole app into `ui` (also what the UI tests drive).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let presenting = self.lessons[self.current].as_ref().is_some_and(|lesson| lesson.full_screen());
        let narrow = widgets::is_narrow(ui.ctx());
        // Presenting full screen hides the bar with the lesson list.
        if !presenting {
            self.top_bar(ui, narrow);
        }
        if theme::Theme::applied(ui.ctx()) != Some(self.theme) {
            self.theme.apply(ui.ctx());
        }
        // On a phone the list is a menu in the top bar, so the page keeps the width.
        let mut listed = !presenting && !narrow;
        egui::Panel::left("lessons")
            .resizable(false)
            .show_collapsible(ui, &mut listed, |ui| self.lesson_list(ui, false));
        let (current, saved) = (self.current, &self.saved);
        self.lessons[current].get_or_insert_with(|| (LESSONS[current].build)(saved[current].as_deref()));
        for lesson in self.lessons.iter_mut().flatten() {
            lesson.logic(ui.ctx());
        }
        let lesson = self.lessons[current].as_mut().expect("built above");
        egui::CentralPanel::default().show(ui, |ui| lesson.ui(ui));
        if let Some(scene) = notebook::take_open_request(ui.ctx()) {
            self.open_scene(&scene);
        }
    }
}

impl SearchlabApp {
    /// The lessons, "Copy this cell" and what it said: the left panel, or a phone's menu.
    fn lesson_list(&mut self, ui: &mut egui::Ui, in_menu: bool) {
        for (index, entry) in LESSONS.iter().enumerate() {
            if ui.selectable_value(&mut self.current, index, entry.title).clicked() {
                self.message = None;
                if in_menu {
                    ui.close();
                }
            }
        }
        ui.separator();
        let lesson = self.lessons[self.current].as_ref();
        let hint = "What this page shows, as a searchlab block to paste into a lecture";
        if let Some(scene) = lesson.and_then(|lesson| lesson.scene())
            && ui.button("Copy this cell").on_hover_text(hint).clicked()
        {
            self.message = Some(match lesson.and_then(|lesson| lesson.copy_refused()) {
                Some(refused) => Err(refused),
                None => {
                    ui.ctx().copy_text(crate::lecture::cell_block(&scene));
                    Ok("Copied: paste it into a lecture file".to_string())
                }
            });
        }
        self.show_message(ui);
    }

    fn show_message(&self, ui: &mut egui::Ui) {
        match &self.message {
            Some(Ok(notice)) => widgets::notice(ui, notice),
            Some(Err(error)) => widgets::error(ui, error),
            None => {}
        }
    }

    /// The app's name, and what suits the room: the theme, the colours, the text size. On a phone:
    /// the lessons and those settings as two menus, and what the list said under them.
    fn top_bar(&mut self, ui: &mut egui::Ui, narrow: bool) {
        egui::Panel::top("top bar").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if narrow {
                    ui.menu_button(format!("Lessons: {}", self.current_title()), |ui| self.lesson_list(ui, true));
                    ui.menu_button("View", |ui| self.view_settings(ui));
                } else {
                    ui.strong("searchlab");
                    ui.separator();
                    self.view_settings(ui);
                }
            });
            if narrow {
                self.show_message(ui);
            }
        });
    }

    fn view_settings(&mut self, ui: &mut egui::Ui) {
        // Applied by `show` from the next frame on.
        let theme = &mut self.theme;
        ui.selectable_value(&mut theme.light, false, "Dark");
        ui.selectable_value(&mut theme.light, true, "Light (projector)")
            .on_hover_text("Dark themes wash out on most projectors");
        ui.checkbox(&mut theme.colour_blind_safe, "Colour-blind safe")
            .on_hover_text("Okabe–Ito colours for open, closed, current and path: no red against green");
        ui.separator();
        // For the back of a lecture hall (also Ctrl + and Ctrl −).
        let zoom = ui.ctx().zoom_factor();
        self.zoom = zoom;
        ui.label(format!("Text size {:.0}%", zoom * 100.0));
        if ui.button("Smaller").on_hover_text("Ctrl −").clicked() {
            ui.ctx().set_zoom_factor((zoom - 0.1).max(0.6));
        }
        if ui.button("Larger").on_hover_text("Ctrl +").clicked() {
            ui.ctx().set_zoom_factor((zoom + 0.1).min(2.5));
        }
        #[cfg(target_arch = "wasm32")]
        browser_limits(ui);
    }

    /// The theme chosen (also what the tests check after a restart).
    pub fn theme(&self) -> theme::Theme {
        self.theme
    }
}

/// What the browser version cannot do as the desktop does, said once in the top bar (hidden with
/// it when a lecture is presented).
#[cfg(target_arch = "wasm32")]
fn browser_limits(ui: &mut egui::Ui) {
    ui.separator();
    ui.weak("In the browser: one core, files stay in this page").on_hover_text(
        "A page gets one processor core: the tuning lab plays its games one at a time, so it takes longer \
         than on the desktop. There is no file system: Open reads a file from your computer (or drop one \
         on the page), bundled maps and lectures are built in, and Save downloads the file.",
    );
}

impl eframe::App for SearchlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        storage.set_string(CURRENT_LESSON_KEY, self.current_title().to_string());
        storage.set_string(TEXT_SIZE_KEY, self.zoom.to_string());
        if let Ok(theme) = serde_json::to_string(&self.theme) {
            storage.set_string(theme::STORAGE_KEY, theme);
        }
        for ((entry, lesson), saved) in LESSONS.iter().zip(&self.lessons).zip(&self.saved) {
            let fresh = lesson.as_ref().and_then(|lesson| lesson.save());
            if let Some(saved) = fresh.as_ref().or(saved.as_ref()) {
                storage.set_string(&lesson_key(entry), saved.clone());
            }
        }
    }
}

/// The look of the playground, set once at start (also by the snapshot tests).
pub fn set_style(ctx: &egui::Context) {
    // Scroll bars always shown: on a projector, hidden ones make cut-off panels look finished.
    ctx.all_styles_mut(|style| style.spacing.scroll = egui::style::ScrollStyle::solid());
    // Notes ("weak" text) readable from the back of the room, not dim grey.
    ctx.style_mut_of(egui::Theme::Dark, |style| style.visuals.weak_text_color = Some(egui::Color32::from_gray(185)));
    ctx.style_mut_of(egui::Theme::Light, |style| style.visuals.weak_text_color = Some(egui::Color32::from_gray(70)));
}

/// Opens the playground window.
#[cfg(not(target_arch = "wasm32"))]
pub fn run() -> eframe::Result {
    run_with(None)
}

/// Opens the playground window on the notebook showing the lecture at `path`.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_lecture(path: &std::path::Path) -> eframe::Result {
    run_with(Some(path))
}

#[cfg(not(target_arch = "wasm32"))]
fn run_with(lecture: Option<&std::path::Path>) -> eframe::Result {
    let lecture = lecture.map(std::path::Path::to_path_buf);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1400.0, 900.0]).with_title("searchlab"),
        ..Default::default()
    };
    eframe::run_native(
        "searchlab",
        options,
        Box::new(|cc| {
            let app = SearchlabApp::starting(cc);
            Ok(Box::new(match &lecture {
                Some(path) => app.with_lecture(path),
                None => app,
            }))
        }),
    )
}
