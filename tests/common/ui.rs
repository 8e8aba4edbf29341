//! Driving any page of the app through its labelled controls, as a student would.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::Lesson;

/// Clicks the widget labelled `label` and runs frames until the UI is still.
pub fn click<S>(harness: &mut Harness<'_, S>, label: &str) {
    // Scrolled into view first, as a user would: side panels hold more than a short window shows.
    harness.get_by_label(label).scroll_to_me();
    harness.run_ok();
    harness.get_by_label(label).click();
    harness.run_ok();
}

/// Replaces the text of the field labelled `label`.
pub fn type_into<S>(harness: &mut Harness<'_, S>, label: &str, text: &str) {
    harness.get_by_label(label).click();
    // As `click` does: a page that polls (the notebook watches its file) may not settle in the
    // harness's few steps on a loaded machine; the field is focused either way.
    harness.run_ok();
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.get_by_label(label).type_text(text);
    harness.run_ok();
}

/// A harness showing one lesson as the app does every frame: its logic, then its page.
pub fn lesson_harness<L: Lesson + 'static>(size: [f32; 2], lesson: L) -> Harness<'static, L> {
    Harness::builder().with_size(size).build_ui_state(show_lesson, lesson)
}

/// As [`lesson_harness`], in the app's style (its solid scroll bars take room from the text) in a
/// window of `size` pixels with the text at `zoom`.
pub fn styled_lesson_harness<L: Lesson + 'static>(size: [f32; 2], zoom: f32, lesson: L) -> Harness<'static, L> {
    Harness::builder()
        .with_size(size.map(|side| side / zoom))
        .with_context_setup(app_style(zoom))
        .build_ui_state(show_lesson, lesson)
}

fn show_lesson<L: Lesson>(ui: &mut egui::Ui, lesson: &mut L) {
    lesson.logic(ui.ctx());
    lesson.ui(ui);
}

/// What the app sets up before its first frame, with the text at `zoom`.
fn app_style(zoom: f32) -> impl FnOnce(&egui::Context) + 'static {
    move |ctx| {
        searchlab::app::set_style(ctx);
        ctx.set_zoom_factor(zoom);
    }
}

/// `lesson` with its opening work done and taken in before any frame shows it, as when its worker
/// answers before the page's first frame (a loaded machine may run the worker first). Its
/// wake-ups go to a context no harness draws.
pub fn finished_unseen<L: Lesson>(mut lesson: L) -> L {
    let ctx = egui::Context::default();
    let deadline = Instant::now() + Duration::from_secs(120);
    while lesson.is_busy() {
        assert!(Instant::now() < deadline, "the background work did not finish");
        std::thread::sleep(Duration::from_millis(5));
        lesson.logic(&ctx);
    }
    lesson
}

/// Runs frames until `done` holds after one (input given before is handled first, background work
/// ends between frames; at most 120 s).
pub fn wait_until<S>(harness: &mut Harness<'_, S>, done: impl Fn(&S) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    harness.step();
    while !done(harness.state()) {
        assert!(Instant::now() < deadline, "the background work did not finish");
        std::thread::sleep(Duration::from_millis(5));
        harness.step();
    }
}

/// Runs frames until the lesson's background work is in, then until the UI is still.
pub fn settle<L: Lesson>(harness: &mut Harness<'_, L>) {
    wait_until(harness, |lesson| !lesson.is_busy());
    harness.run();
}

/// eframe's storage, in memory.
#[derive(Default)]
pub struct Memory(pub std::collections::HashMap<String, String>);

impl eframe::Storage for Memory {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// The whole app in a window of `size` pixels with the text at `zoom` (its "Text size"), on the
/// page titled `title`, its background work done.
pub fn app_on(title: &str, [width, height]: [f32; 2], zoom: f32) -> Harness<'static, searchlab::app::SearchlabApp> {
    let mut harness =
        Harness::builder().with_size([width / zoom, height / zoom]).with_context_setup(app_style(zoom)).build_ui_state(
            |ui, app: &mut searchlab::app::SearchlabApp| app.show(ui),
            searchlab::app::SearchlabApp::default(),
        );
    harness.get_by_label(title).click();
    wait_until(&mut harness, |app| !app.is_busy());
    harness.run();
    harness
}
