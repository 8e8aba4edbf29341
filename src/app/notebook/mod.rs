//! The lecture notebook: a Markdown lecture (format in [`crate::lecture`]) shown as one page of prose
//! and live cells, or presented one section per screen. It reloads when the file changes on disk,
//! remembers the last lecture and slide, and saves a cell or a slide as PNG.

mod cell;
mod export;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::time::{Duration, Instant};

use egui::{Key, ViewportCommand};
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};
use serde::{Deserialize, Serialize};

pub use self::cell::{CellView, LiveCell};
use self::export::PendingImage;
use super::Lesson;
use super::file_dialog::{FileRequest, NativeDialog};
use super::widgets;
use crate::lecture::{Block, Lecture};
use crate::scene::Scene;

/// The page's name in the list of lessons.
pub const TITLE: &str = "Lecture notebook";

/// The lecture shown on a first run: a short one that shows what a lecture file looks like.
pub const WELCOME: &str = include_str!("../../../lectures/welcome.md");
const WELCOME_NAME: &str = "welcome.md";

/// The course's lectures, one per chapter: file name in `lectures/` and the name the menu shows.
/// They are read from the working directory, as the bundled maps are.
pub const COURSE_LECTURES: [(&str, &str); 6] = [
    ("1-grid-search.md", "1. Grid search: BFS, Dijkstra, A*"),
    ("2-hierarchical-search.md", "2. Hierarchical search: HPA*, PRA*"),
    ("3-triangulations.md", "3. Triangulations: CDT, funnel, TA*, TRA*"),
    ("4-game-trees.md", "4. Game trees: minimax, alpha-beta, ID"),
    ("5-monte-carlo-tree-search.md", "5. Monte Carlo tree search: UCT"),
    ("6-barca-ai.md", "6. The Barca AI: evaluation and tuning"),
];
const COURSE_DIR: &str = "lectures";
/// The authoring guide, itself a lecture, listed after the chapters.
const GUIDE: (&str, &str) = ("writing-lectures.md", "Writing your own lectures");

/// How often the lecture file is looked at for changes.
const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// Text size while presenting, against the reading view's: readable from the back of a room at 1280x720.
const PRESENT_SCALE: f32 = 1.45;
/// A cell's canvas height in the reading view.
const CELL_HEIGHT: f32 = 420.0;
/// The least a presented cell's canvas gets: a quiz's answer slide needs room under its picture.
const MIN_SLIDE_CANVAS: f32 = 160.0;

/// The height of one of a cell's rows of buttons above its canvas (the cell's own, a replay bar's).
pub fn cell_row(ui: &egui::Ui) -> f32 {
    ui.text_style_height(&egui::TextStyle::Button) + 2.0 * ui.spacing().item_spacing.y + 4.0
}

/// Room kept between the page's contents and its scroll bar, so a cell's frame reads as whole
/// beside the bar on a projector (egui's own 4-point gap blurs into it).
const BESIDE_SCROLL_BAR: f32 = 12.0;

/// Shows the page's contents, at most `max_width` wide, clear of the scroll bar.
fn page_contents(ui: &mut egui::Ui, max_width: f32, add_contents: impl FnOnce(&mut egui::Ui)) {
    let width = (ui.available_width() - BESIDE_SCROLL_BAR).min(max_width);
    ui.set_max_width(width);
    add_contents(ui);
}

const OPEN_REQUEST: FileRequest = FileRequest {
    title: "Open a lecture",
    filter_name: "Lectures (Markdown)",
    extensions: &["md", "markdown"],
    save: false,
    max_bytes: crate::files::MAX_TEXT,
};

/// Where the lecture comes from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    Welcome,
    File(PathBuf),
}

impl Source {
    /// The name problems are reported under.
    fn name(&self) -> String {
        match self {
            Source::Welcome => WELCOME_NAME.to_string(),
            Source::File(path) => path.display().to_string(),
        }
    }

    /// Where a cell's relative map paths start from.
    fn base_dir(&self) -> PathBuf {
        match self {
            Source::Welcome => PathBuf::from("."),
            Source::File(path) => path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        }
    }

    /// The file's modification time and length, to notice edits.
    fn stamp(&self) -> Option<(SystemTime, u64)> {
        let Source::File(path) = self else { return None };
        let metadata = std::fs::metadata(path).ok()?;
        Some((metadata.modified().ok()?, metadata.len()))
    }
}

/// What the page keeps between runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Saved {
    /// The lecture file; none for the welcome lecture.
    lecture: Option<String>,
    slide: usize,
    presenting: bool,
}

/// Every action of the page; buttons, keys and tests all go through [`Notebook::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum NotebookCommand {
    Open(String),
    /// Files dropped on the window together: the lecture among them opens; maps and the like
    /// dropped without one are files its cells name (in the browser, the only way to add them).
    Dropped(Vec<String>),
    OpenWelcome,
    /// The native file dialog.
    Browse,
    /// Read the file again (also done on its own when the file changes).
    Reload,
    Present(bool),
    NextSlide,
    PreviousSlide,
    GoToSlide(usize),
    FullScreen(bool),
    /// Back to the cell's authored state.
    ResetCell(usize),
    /// Open the cell's scene on its lab page.
    OpenInLab(usize),
    SaveCellImage(usize),
    SaveSlideImage,
}

/// A lecture as loaded: its sections and one view per cell, in file order.
struct Loaded {
    lecture: Lecture,
    cells: Vec<CellView>,
}

pub struct Notebook {
    source: Source,
    /// The text in the path field.
    path_field: String,
    loaded: Option<Loaded>,
    /// Why the lecture (or its last reload) could not be read, as `FILE:LINE: problem`.
    error: Option<String>,
    notice: Option<String>,
    presenting: bool,
    slide: usize,
    full_screen: bool,
    stamp: Option<(SystemTime, u64)>,
    last_poll: Instant,
    markdown: CommonMarkCache,
    dialog: NativeDialog<()>,
    pending_image: Option<PendingImage>,
    /// The slide's area in the last frame, for "Save image".
    slide_rect: Option<egui::Rect>,
    /// A scene to open on its lab page, handed to the app at the end of the frame.
    open_request: Option<Scene>,
}

fn open_request_id() -> egui::Id {
    egui::Id::unique("searchlab: open in the lab")
}

/// Asks the app to show `scene` on its lab's page at the end of this frame.
pub fn request_open(ctx: &egui::Context, scene: Scene) {
    ctx.data_mut(|data| data.insert_temp(open_request_id(), Some(scene)));
}

/// The scene a lecture cell asked to open in the lab this frame, if any (taken).
pub fn take_open_request(ctx: &egui::Context) -> Option<Scene> {
    ctx.data_mut(|data| data.remove_temp::<Option<Scene>>(open_request_id())).flatten()
}

impl Default for Notebook {
    fn default() -> Self {
        Self::from_saved(None)
    }
}

impl Notebook {
    /// The lecture and slide saved last time, or the welcome lecture on a first run.
    pub fn from_saved(saved: Option<&str>) -> Self {
        let saved: Saved = saved.and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        let mut notebook = Self {
            source: Source::Welcome,
            path_field: String::new(),
            loaded: None,
            error: None,
            notice: None,
            presenting: saved.presenting,
            slide: 0,
            full_screen: false,
            stamp: None,
            last_poll: Instant::now(),
            markdown: CommonMarkCache::default(),
            dialog: NativeDialog::default(),
            pending_image: None,
            slide_rect: None,
            open_request: None,
        };
        match saved.lecture {
            Some(path) => notebook.apply(NotebookCommand::Open(path)),
            None => notebook.apply(NotebookCommand::OpenWelcome),
        }
        if notebook.loaded.is_none() {
            // The saved lecture is gone: say so over the welcome lecture.
            let error = notebook.error.take();
            notebook.apply(NotebookCommand::OpenWelcome);
            notebook.error = error;
        }
        notebook.slide = saved.slide.min(notebook.slide_count() - 1);
        notebook
    }

    /// The notebook opened on the lecture at `path`.
    pub fn open(path: &Path) -> Self {
        let mut notebook = Self::from_saved(None);
        notebook.apply(NotebookCommand::Open(path.display().to_string()));
        notebook
    }

    pub fn lecture(&self) -> Option<&Lecture> {
        self.loaded.as_ref().map(|loaded| &loaded.lecture)
    }

    pub fn cells(&self) -> &[CellView] {
        self.loaded.as_ref().map_or(&[], |loaded| &loaded.cells)
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    pub fn slide(&self) -> usize {
        self.slide
    }

    pub fn is_presenting(&self) -> bool {
        self.presenting
    }

    pub fn slide_count(&self) -> usize {
        self.slides().len()
    }

    /// Each slide's section, and whether it is a quiz's answer slide: a section with a quiz cell
    /// shows the question on one slide and its answer on the next.
    pub fn slides(&self) -> Vec<(usize, bool)> {
        let Some(loaded) = &self.loaded else { return vec![(0, false)] };
        let mut cells = loaded.cells.iter();
        let mut slides = Vec::new();
        for (section, blocks) in loaded.lecture.sections.iter().map(|s| &s.blocks).enumerate() {
            slides.push((section, false));
            let quiz = |cell: &CellView| cell.scene().is_ok_and(|scene| scene.lab == crate::scene::Lab::Quiz);
            let count = blocks.iter().filter(|b| matches!(b, Block::Cell(_))).count();
            if cells.by_ref().take(count).any(quiz) {
                slides.push((section, true));
            }
        }
        slides
    }

    /// Reads the lecture from `source`. On failure the lecture on screen stays and the error says why.
    fn load(&mut self, source: Source) {
        let name = source.name();
        let text = match &source {
            Source::Welcome => Ok(WELCOME.to_string()),
            Source::File(path) => crate::files::read_text(path, crate::files::MAX_TEXT).map_err(|e| e.at(&name)),
        };
        let parsed = text.and_then(|text| Lecture::parse(&text).map_err(|problem| problem.at(&name)));
        let lecture = match parsed {
            Ok(lecture) => lecture,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let same_file = source == self.source && self.loaded.is_some();
        // A reload stays on the section (and quiz slide) shown, wherever edits moved it.
        let (section, answer) = self.slides().get(self.slide).copied().unwrap_or_default();
        let title = self.lecture().and_then(|old| old.sections.get(section)?.title.clone());
        let section = if same_file { lecture.same_section(title.as_deref(), section) } else { 0 };
        // On a reload, live cells whose text did not change keep their state (and recording); the
        // others try again, as a map they name may be there now.
        let mut kept: Vec<CellView> = match self.loaded.take().filter(|_| same_file) {
            Some(loaded) => loaded.cells.into_iter().filter(|view| view.live().is_some()).collect(),
            None => Vec::new(),
        };
        let base = source.base_dir();
        let cells = lecture
            .cells()
            .map(|cell| match kept.iter().position(|view| view.source() == cell.source) {
                Some(index) => kept.remove(index).moved_to(cell.line),
                None => CellView::new(cell, &base),
            })
            .collect();
        self.stamp = source.stamp();
        self.path_field = match &source {
            Source::Welcome => String::new(),
            Source::File(path) => path.display().to_string(),
        };
        self.loaded = Some(Loaded { lecture, cells });
        let slides = self.slides();
        let at = |answer| slides.iter().position(|&slide| slide == (section, answer));
        self.slide = at(answer).or_else(|| at(false)).unwrap_or(0);
        self.source = source;
        self.error = None;
    }

    pub fn apply(&mut self, command: NotebookCommand) {
        match command {
            NotebookCommand::Open(path) => {
                self.notice = None;
                self.load(Source::File(PathBuf::from(path.trim())));
            }
            NotebookCommand::Dropped(paths) => {
                let is_lecture = |path: &String| {
                    OPEN_REQUEST.extensions.iter().any(|ext| crate::files::has_extension(Path::new(path), ext))
                };
                match paths.iter().rev().find(|path| is_lecture(path)) {
                    Some(lecture) => self.apply(NotebookCommand::Open(lecture.clone())),
                    None if !paths.is_empty() => {
                        // Opened as a lecture, a map would have replaced the one on screen with its rows as text.
                        let source = self.source.clone();
                        self.load(source);
                        let name = |path: &String| {
                            Path::new(path).file_name().map_or(path.clone(), |name| name.to_string_lossy().into_owned())
                        };
                        let names: Vec<String> = paths.iter().map(name).collect();
                        let verb = crate::text::plural(names.len(), "is", "are");
                        self.notice = Some(format!(
                            "{} {verb} not a lecture (.md): the lecture was read again for cells that name it",
                            names.join(", ")
                        ));
                    }
                    None => {}
                }
            }
            NotebookCommand::OpenWelcome => {
                self.notice = None;
                self.load(Source::Welcome);
            }
            NotebookCommand::Browse => self.dialog.open((), OPEN_REQUEST, &self.path_field, None),
            NotebookCommand::Reload => {
                let source = self.source.clone();
                self.load(source);
            }
            NotebookCommand::Present(presenting) => self.presenting = presenting,
            NotebookCommand::NextSlide => self.slide = (self.slide + 1).min(self.slide_count() - 1),
            NotebookCommand::PreviousSlide => self.slide = self.slide.saturating_sub(1),
            NotebookCommand::GoToSlide(slide) => self.slide = slide.min(self.slide_count() - 1),
            NotebookCommand::FullScreen(full) => self.full_screen = full,
            NotebookCommand::ResetCell(index) => {
                if let Some(cell) = self.cell_mut(index) {
                    cell.reset();
                }
            }
            NotebookCommand::OpenInLab(index) => {
                self.open_request = self.cells().get(index).and_then(CellView::current_scene);
            }
            NotebookCommand::SaveCellImage(index) => {
                let rect = self.cells().get(index).and_then(CellView::rect);
                let line = self.cells().get(index).map_or(0, |cell| cell.line());
                self.request_image(rect, &format!("line-{line}"));
            }
            NotebookCommand::SaveSlideImage => {
                self.request_image(self.slide_rect, &format!("slide-{}", self.slide + 1))
            }
        }
    }

    fn cell_mut(&mut self, index: usize) -> Option<&mut CellView> {
        self.loaded.as_mut()?.cells.get_mut(index)
    }

    /// Asks for a screenshot of the next frame, to crop to `rect` and write beside the lecture.
    fn request_image(&mut self, rect: Option<egui::Rect>, what: &str) {
        let Some(rect) = rect else {
            self.notice = Some("Nothing to save yet: the view has not been drawn.".into());
            return;
        };
        let stem = match &self.source {
            Source::Welcome => "welcome".to_string(),
            Source::File(path) => path.file_stem().map_or("lecture".into(), |s| s.to_string_lossy().into_owned()),
        };
        let path = self.source.base_dir().join(format!("{stem}-{what}.png"));
        self.pending_image = Some(PendingImage::new(rect, path));
    }

    /// Reloads the lecture when its file changed on disk (looked at about once a second).
    fn poll_file(&mut self) {
        if self.last_poll.elapsed() < POLL_INTERVAL {
            return;
        }
        self.last_poll = Instant::now();
        let stamp = self.source.stamp();
        if stamp.is_some() && stamp != self.stamp {
            self.apply(NotebookCommand::Reload);
            if self.error.is_none() {
                self.notice = Some(format!("Reloaded {} (changed on disk)", self.source.name()));
            }
            // A failed reload keeps the lecture on screen and does not retry until the next change.
            self.stamp = stamp;
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<NotebookCommand>) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Lecture file:");
            let field = egui::TextEdit::singleline(&mut self.path_field).desired_width(320.0).hint_text("talk.md");
            let response = ui.add(field).labelled_by(label.id);
            let entered = response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Open lecture").clicked() || entered {
                commands.push(NotebookCommand::Open(self.path_field.clone()));
            }
            let hint = "The system's file dialog. If none appears, type the path or drop the file onto the window.";
            if ui.add_enabled(!self.dialog.is_open(), egui::Button::new("Open lecture…")).on_hover_text(hint).clicked()
            {
                commands.push(NotebookCommand::Browse);
            }
            if ui.button("Welcome lecture").clicked() {
                commands.push(NotebookCommand::OpenWelcome);
            }
            ui.menu_button("Course lectures", |ui| {
                for (file, title) in COURSE_LECTURES.into_iter().chain([GUIDE]) {
                    if ui.button(title).clicked() {
                        commands.push(NotebookCommand::Open(Path::new(COURSE_DIR).join(file).display().to_string()));
                    }
                }
            });
            ui.separator();
            if ui
                .button("Present")
                .on_hover_text("One section per screen: Page Down / Page Up or the arrow keys")
                .clicked()
            {
                commands.push(NotebookCommand::Present(true));
            }
        });
        ui.weak("…or drop a .md lecture (and the maps its cells name) onto the window. Edits to the file show up here as you save them.");
    }

    fn messages(&self, ui: &mut egui::Ui) {
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        } else if let Some(notice) = &self.notice {
            widgets::notice(ui, notice);
        }
    }

    /// The blocks of `sections` (prose and cells). A cell's canvas is `CELL_HEIGHT` tall, or while
    /// presenting reaches down to `fill_to`, so that a slide is one screen.
    fn blocks(
        &mut self,
        ui: &mut egui::Ui,
        sections: std::ops::Range<usize>,
        fill_to: Option<f32>,
        answer_slide: bool,
        commands: &mut Vec<NotebookCommand>,
    ) {
        let Some(loaded) = &mut self.loaded else { return };
        let name = self.source.name();
        let mut cell_index = loaded.lecture.sections[..sections.start]
            .iter()
            .flat_map(|s| &s.blocks)
            .filter(|b| matches!(b, Block::Cell(_)))
            .count();
        for section in sections {
            if section > 0 && !self.presenting {
                ui.separator();
            }
            for block in &loaded.lecture.sections[section].blocks {
                match block {
                    Block::Prose { line, text } => {
                        CommonMarkViewer::new().show_with_id(
                            ui.scope_id().with(("prose", line)),
                            ui,
                            &mut self.markdown,
                            text,
                        );
                    }
                    Block::Code { text, .. } => {
                        egui::Frame::group(ui.style()).fill(ui.visuals().extreme_bg_color).show(ui, |ui| {
                            ui.set_min_width(ui.available_width());
                            ui.label(egui::RichText::new(text.trim_end()).monospace());
                        });
                    }
                    Block::Cell(_) => {
                        // The cell's own rows around its canvas (buttons, replay bar, margins), as
                        // measured when it was last drawn: a slide's cell ends at the slide's bottom.
                        let cell = &mut loaded.cells[cell_index];
                        let rows = cell.chrome().unwrap_or(3.0 * cell_row(ui));
                        // Whole pixels: the rows are measured a frame late, and a fraction of a
                        // pixel more or less shifted every wall of a map by one pixel column.
                        let height = fill_to.map_or(CELL_HEIGHT, |bottom| {
                            (bottom - ui.cursor().top() - rows).max(MIN_SLIDE_CANVAS).floor()
                        });
                        cell.ui(ui, cell_index, &name, height, answer_slide, commands);
                        cell_index += 1;
                    }
                }
            }
        }
    }

    fn reading_view(&mut self, ui: &mut egui::Ui, commands: &mut Vec<NotebookCommand>) {
        self.toolbar(ui, commands);
        self.messages(ui);
        ui.separator();
        let count = self.lecture().map_or(0, |lecture| lecture.sections.len());
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            page_contents(ui, 1100.0, |ui| self.blocks(ui, 0..count, None, false, commands));
        });
    }

    fn presenting_view(&mut self, ui: &mut egui::Ui, commands: &mut Vec<NotebookCommand>) {
        let count = self.slide_count();
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!("Slide {} / {count}", self.slide + 1));
            if ui.add_enabled(self.slide > 0, egui::Button::new("< Previous")).clicked() {
                commands.push(NotebookCommand::PreviousSlide);
            }
            if ui.add_enabled(self.slide + 1 < count, egui::Button::new("Next >")).clicked() {
                commands.push(NotebookCommand::NextSlide);
            }
            let mut full = self.full_screen;
            if ui.checkbox(&mut full, "Full screen").changed() {
                commands.push(NotebookCommand::FullScreen(full));
            }
            if ui.button("Save image").on_hover_text("This slide as PNG, beside the lecture").clicked() {
                commands.push(NotebookCommand::SaveSlideImage);
            }
            if ui.button("Stop presenting").on_hover_text("Esc").clicked() {
                commands.push(NotebookCommand::Present(false));
            }
        });
        self.messages(ui);
        ui.separator();
        let slide = self.slide;
        let (section, answer) = self.slides()[slide];
        let rect = ui.available_rect_before_wrap();
        self.slide_rect = Some(rect);
        egui::ScrollArea::vertical().id_salt(("slide", slide)).auto_shrink(false).show(ui, |ui| {
            ui.style_mut().text_styles.values_mut().for_each(|font| font.size *= PRESENT_SCALE);
            // The cell takes what the slide's prose leaves, so a slide is one screen.
            let bottom = rect.bottom() - ui.spacing().item_spacing.y;
            let sections = section..section + 1;
            page_contents(ui, f32::INFINITY, |ui| self.blocks(ui, sections, Some(bottom), answer, commands));
        });
    }

    fn keys(&self, ui: &egui::Ui, commands: &mut Vec<NotebookCommand>) {
        if !self.presenting || ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let keys = [
            (Key::PageDown, NotebookCommand::NextSlide),
            (Key::ArrowRight, NotebookCommand::NextSlide),
            (Key::ArrowDown, NotebookCommand::NextSlide),
            (Key::PageUp, NotebookCommand::PreviousSlide),
            (Key::ArrowLeft, NotebookCommand::PreviousSlide),
            (Key::ArrowUp, NotebookCommand::PreviousSlide),
            (Key::Home, NotebookCommand::GoToSlide(0)),
            (Key::End, NotebookCommand::GoToSlide(usize::MAX)),
            (Key::Escape, NotebookCommand::Present(false)),
        ];
        for (key, command) in keys {
            if ui.input(|i| i.key_pressed(key)) {
                commands.push(command);
            }
        }
    }

    fn dropped_files(ui: &egui::Ui, commands: &mut Vec<NotebookCommand>) {
        let paths: Vec<String> = ui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .filter(|file| !file.path().as_os_str().is_empty())
                .map(|file| file.path().display().to_string())
                .collect()
        });
        if !paths.is_empty() {
            commands.push(NotebookCommand::Dropped(paths));
        }
    }

    /// Leaves full screen with the presentation, and tells the window when it changes.
    fn sync_full_screen(&mut self, ctx: &egui::Context, was: bool) {
        self.full_screen &= self.presenting;
        if self.full_screen != was {
            ctx.send_viewport_cmd(ViewportCommand::Fullscreen(self.full_screen));
        }
    }
}

impl Lesson for Notebook {
    fn save(&self) -> Option<String> {
        let lecture = match &self.source {
            Source::Welcome => None,
            Source::File(path) => Some(path.display().to_string()),
        };
        serde_json::to_string(&Saved { lecture, slide: self.slide, presenting: self.presenting }).ok()
    }

    fn is_busy(&self) -> bool {
        self.cells().iter().any(CellView::is_busy)
    }

    /// A slide takes the whole window: the lesson list and the top bar would cost it ~200 points.
    // The page takes the whole window while presenting; the field `full_screen` is the OS window's.
    #[allow(clippy::misnamed_getters)]
    fn full_screen(&self) -> bool {
        self.presenting
    }

    fn logic(&mut self, ctx: &egui::Context) {
        self.poll_file();
        if let Some(loaded) = &mut self.loaded {
            loaded.cells.iter_mut().for_each(|cell| cell.logic(ctx));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        if let Some((_, path)) = self.dialog.poll() {
            self.apply(NotebookCommand::Open(path.display().to_string()));
        }
        if let Some(pending) = &mut self.pending_image
            && let Some(result) = pending.poll()
        {
            self.pending_image = None;
            match result {
                Ok(message) => self.notice = Some(message),
                Err(error) => self.error = Some(error),
            }
        }
        ui.ctx().request_repaint_after(POLL_INTERVAL);
        let was_full_screen = self.full_screen;
        let mut commands = Vec::new();
        self.keys(ui, &mut commands);
        Self::dropped_files(ui, &mut commands);
        if self.presenting {
            self.presenting_view(ui, &mut commands);
        } else {
            self.reading_view(ui, &mut commands);
        }
        for command in commands {
            self.apply(command);
        }
        self.sync_full_screen(ui.ctx(), was_full_screen);
        if let Some(scene) = self.open_request.take() {
            request_open(ui.ctx(), scene);
        }
        if let Some(pending) = &mut self.pending_image {
            pending.request(ui.ctx());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lecture::Lecture;

    #[test]
    fn the_welcome_lecture_parses_and_every_cell_checks() {
        let lecture = Lecture::parse(WELCOME).unwrap();
        assert!(lecture.sections.len() >= 3, "a welcome worth presenting");
        assert!(lecture.cells().count() >= 2);
        let problems = crate::lecture::check(&lecture, Path::new("."));
        assert!(problems.is_empty(), "{problems:?}");
    }
}
