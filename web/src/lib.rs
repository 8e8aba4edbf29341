//! searchlab's playground in the browser: the same `SearchlabApp` as the desktop, started on the
//! page's canvas by `index.html`. What the browser lacks is filled in here: files linked in the
//! address (`?map=URL`, `?lecture=URL`), dropped files (the page has their bytes, not a path),
//! saving as a download, and test hooks (`?test=grid-astar`, `?test=replay-random512`) for
//! `web/test.py`.
#![cfg(target_arch = "wasm32")]

mod fonts;
mod frame_time;
mod full_screen;
mod links;
mod test_hook;
mod workers;

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use egui::DroppedFileHandle;

use searchlab::app::SearchlabApp;
use wasm_bindgen::prelude::*;

use frame_time::FrameTimeHook;
use links::{Arrivals, Kept};
use test_hook::TestHook;

/// One line on the browser's console, for people and for `web/test.py`.
fn log(line: &str) {
    web_sys::console::log_1(&JsValue::from_str(line));
}

/// Starts the app on the canvas with id `canvas_id`.
#[wasm_bindgen]
pub async fn start(canvas_id: String) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let canvas = window
        .document()
        .and_then(|document| document.get_element_by_id(&canvas_id))
        .ok_or_else(|| format!("the page has no element with id '{canvas_id}'"))?
        .dyn_into::<web_sys::HtmlCanvasElement>()?;
    let query = links::Query::of(&window)?;
    searchlab::files::on_save(|path, contents| {
        if let Err(error) = links::download(path, contents) {
            web_sys::console::error_1(&error);
        }
    });
    workers::install();
    let arrivals = Arrivals::default();
    links::fetch_linked(&query, &arrivals);
    // Timing frames shows the grid lab alone, not the app.
    let frame_timer = (query.test.as_deref() == Some(frame_time::NAME)).then(FrameTimeHook::default);
    let test = query.test.as_deref().filter(|_| frame_timer.is_none()).map(TestHook::new).transpose()?;
    eframe::WebRunner::new()
        .start(
            canvas,
            eframe::WebOptions::default(),
            Box::new(move |cc| {
                // Before the app: its saved state may name a map or lecture a link brought.
                let kept = Kept::restore(cc.storage);
                fonts::install(&cc.egui_ctx);
                let app = SearchlabApp::starting(cc);
                Ok(Box::new(WebApp {
                    app,
                    arrivals,
                    kept,
                    test,
                    frame_timer,
                    link_error: None,
                    drops: Drops::default(),
                    lesson: None,
                    drawn: false,
                }))
            }),
        )
        .await
}

struct WebApp {
    app: SearchlabApp,
    arrivals: Arrivals,
    kept: Kept,
    test: Option<TestHook>,
    /// `?test=replay-random512`: the page times the grid lab's replay instead of showing the app.
    frame_timer: Option<FrameTimeHook>,
    /// Why a linked file could not be opened.
    link_error: Option<String>,
    drops: Drops,
    /// The lesson shown, logged when it changes.
    lesson: Option<&'static str>,
    /// Whether a frame has been drawn (the first is timed).
    drawn: bool,
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if let Some(timer) = &mut self.frame_timer {
            return timer.ui(ui);
        }
        self.drops.update(ui.ctx());
        for arrival in self.arrivals.take(ui.ctx()) {
            if let Err(error) = arrival.open(&mut self.app, &mut self.kept) {
                web_sys::console::error_1(&JsValue::from_str(&error));
                self.link_error = Some(error);
            }
        }
        if let Some(test) = &mut self.test {
            test.update(&mut self.app, ui.ctx());
        }
        if let Some(error) = &self.link_error {
            let mut open = true;
            egui::Window::new("Could not open the link").open(&mut open).show(ui.ctx(), |ui| ui.label(error));
            if !open {
                self.link_error = None;
            }
        }
        self.app.ui(ui, frame);
        full_screen::follow(ui.ctx());
        let title = self.app.current_title();
        if self.lesson != Some(title) {
            self.lesson = Some(title);
            log(&format!(r#"{{"event":"lesson","title":{}}}"#, serde_json::Value::from(title)));
        }
        if !self.drawn {
            self.drawn = true;
            let since_navigation = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
            log(&format!(r#"{{"event":"first-frame","ms":{since_navigation:.0}}}"#));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save(storage);
        self.kept.save(storage);
    }

    /// eframe saves on this interval and when the page loses focus; its save on closing the page
    /// does not run (0.37 listens for "onbeforeunload", not "beforeunload"), so it saves often.
    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(5)
    }
}

/// Files dropped on the page: the browser gives their names and reads their bytes
/// asynchronously, so each is held back until its bytes are added to the page's files, then
/// handed to the pages as dropped, to open by name as on the desktop.
#[derive(Default)]
struct Drops(Rc<RefCell<Vec<DroppedFileHandle>>>);

impl Drops {
    fn update(&self, ctx: &egui::Context) {
        let dropped = ctx.input_mut(|input| std::mem::take(&mut input.raw.dropped_files));
        for file in dropped {
            let (read, ctx) = (Rc::clone(&self.0), ctx.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match file.bytes_async().await {
                    Ok(bytes) => {
                        searchlab::files::add(file.path(), bytes);
                        read.borrow_mut().push(file);
                        ctx.request_repaint();
                    }
                    Err(error) => web_sys::console::error_1(&format!("{}: {error}", file.path().display()).into()),
                }
            });
        }
        let read = std::mem::take(&mut *self.0.borrow_mut());
        ctx.input_mut(|input| input.raw.dropped_files.extend(read));
    }
}

/// The last part of a URL's path: the name a linked file is kept under.
fn file_name(url: &str) -> &str {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    Path::new(path).file_name().and_then(|name| name.to_str()).unwrap_or(path)
}
