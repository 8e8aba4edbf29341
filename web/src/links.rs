//! Files reached through the page's address (`?map=URL`, `?lecture=URL`), and saving as a download.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use searchlab::app::SearchlabApp;
use searchlab::lecture::Lecture;
use searchlab::scene::{Lab, MapSource, Scene};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::{file_name, log};

/// What the page's address asks for.
pub struct Query {
    pub map: Option<String>,
    pub lecture: Option<String>,
    pub test: Option<String>,
}

impl Query {
    pub fn of(window: &web_sys::Window) -> Result<Query, JsValue> {
        let params = web_sys::UrlSearchParams::new_with_str(&window.location().search()?)?;
        Ok(Query { map: params.get("map"), lecture: params.get("lecture"), test: params.get("test") })
    }
}

/// A linked file, fetched.
pub enum Arrival {
    Map { url: String, bytes: Vec<u8> },
    Lecture { url: String, bytes: Vec<u8> },
    Failed(String),
}

/// Files fetched in the background, waiting for the next frame to open them.
#[derive(Clone, Default)]
pub struct Arrivals(Rc<RefCell<Inbox>>);

#[derive(Default)]
struct Inbox {
    arrived: Vec<Arrival>,
    /// The app, to wake when a file arrives: a fetch ending is no input, so egui would not repaint.
    wake: Option<egui::Context>,
}

impl Arrivals {
    /// The files that arrived since the last call; `ctx` is woken when the next one does.
    pub fn take(&self, ctx: &egui::Context) -> Vec<Arrival> {
        let mut inbox = self.0.borrow_mut();
        inbox.wake = Some(ctx.clone());
        std::mem::take(&mut inbox.arrived)
    }

    fn push(&self, arrival: Arrival) {
        let mut inbox = self.0.borrow_mut();
        inbox.arrived.push(arrival);
        if let Some(ctx) = &inbox.wake {
            ctx.request_repaint();
        }
    }
}

/// Starts fetching the files the address links to; each arrives in `arrivals`.
pub fn fetch_linked(query: &Query, arrivals: &Arrivals) {
    let wanted = [(query.map.clone(), true), (query.lecture.clone(), false)];
    for (url, is_map) in wanted.into_iter().filter_map(|(url, is_map)| Some((url?, is_map))) {
        let arrivals = arrivals.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let arrival = match fetch(&url).await {
                Ok(bytes) if is_map => Arrival::Map { url, bytes },
                Ok(bytes) => Arrival::Lecture { url, bytes },
                Err(error) => Arrival::Failed(format!("{url}: cannot fetch: {error}")),
            };
            arrivals.push(arrival);
        });
    }
}

impl Arrival {
    /// Shows the file: a map on its lab's page, a lecture in the notebook.
    pub fn open(self, app: &mut SearchlabApp) -> Result<(), String> {
        match self {
            Arrival::Failed(error) => Err(error),
            Arrival::Map { url, bytes } => {
                let name = file_name(&url);
                searchlab::files::add(Path::new(name), bytes);
                let polygon = name.to_ascii_lowercase().ends_with(".json");
                let mut scene = Scene::new(if polygon { Lab::Polygon } else { Lab::Grid });
                scene.map = Some(MapSource::Path(name.to_string()));
                let size = if polygon {
                    scene.load_outline()?;
                    String::new()
                } else {
                    let grid = scene.load_grid()?.expect("the scene names a map");
                    format!(r#","width":{},"height":{}"#, grid.width(), grid.height())
                };
                app.open_scene(&scene);
                log(&format!(r#"{{"event":"map","name":{}{size}}}"#, serde_json::Value::from(name)));
                Ok(())
            }
            Arrival::Lecture { url, bytes } => {
                let name = file_name(&url);
                let text = String::from_utf8(bytes).map_err(|_| format!("{url}: not UTF-8 text"))?;
                // Checked here too so a broken link says why in the page, not only in the notebook.
                let lecture = Lecture::parse(&text).map_err(|problem| problem.at(name))?;
                searchlab::files::add(Path::new(name), text.into_bytes());
                *app = std::mem::take(app).with_lecture(Path::new(name));
                let cells = lecture.cells().count();
                log(&format!(r#"{{"event":"lecture","name":{},"cells":{cells}}}"#, serde_json::Value::from(name)));
                Ok(())
            }
        }
    }
}

/// The bytes at `url` (relative to the page).
async fn fetch(url: &str) -> Result<Vec<u8>, String> {
    let describe = |error: JsValue| error.as_string().unwrap_or_else(|| format!("{error:?}"));
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(url)).await.map_err(describe)?.dyn_into().map_err(describe)?;
    if !response.ok() {
        return Err(format!("HTTP {} {}", response.status(), response.status_text()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(describe)?).await.map_err(describe)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Offers `contents` as a download named like `path`.
pub fn download(path: &Path, contents: &[u8]) -> Result<(), JsValue> {
    let document = web_sys::window().and_then(|window| window.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(contents));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    link.set_href(&url);
    link.set_download(&path.file_name().map_or("searchlab.txt".into(), |name| name.to_string_lossy()));
    link.click();
    web_sys::Url::revoke_object_url(&url)
}
