//! Files reached through the page's address (`?map=URL`, `?lecture=URL`), and saving as a download.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;
use std::rc::Rc;

use searchlab::app::SearchlabApp;
use searchlab::files;
use searchlab::grid::movingai;
use searchlab::lecture::{Lecture, check_cell};
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
    Map {
        url: String,
        bytes: Vec<u8>,
    },
    /// `cell_files`: the files its cells name, fetched from beside it.
    Lecture {
        url: String,
        bytes: Vec<u8>,
        cell_files: Vec<(String, Vec<u8>)>,
    },
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

/// Starts fetching the files the address links to; each arrives in `arrivals`. A lecture arrives
/// once the files its cells name have arrived too, so its cells open as on the desktop.
pub fn fetch_linked(query: &Query, arrivals: &Arrivals) {
    if let Some(url) = query.map.clone() {
        let arrivals = arrivals.clone();
        wasm_bindgen_futures::spawn_local(async move {
            arrivals.push(match fetch(&url, cap(&url)).await {
                Ok(bytes) => Arrival::Map { url, bytes },
                Err(refused) => Arrival::Failed(refused.at(&url)),
            });
        });
    }
    if let Some(url) = query.lecture.clone() {
        let arrivals = arrivals.clone();
        wasm_bindgen_futures::spawn_local(async move {
            arrivals.push(match fetch(&url, files::MAX_TEXT).await {
                Ok(bytes) => {
                    let cell_files = fetch_cell_files(&url, &bytes).await;
                    Arrival::Lecture { url, bytes, cell_files }
                }
                Err(refused) => Arrival::Failed(refused.at(&url)),
            });
        });
    }
}

/// Fetches every file the cells of the lecture at `lecture_url` name by path, from where the
/// lecture's folder is on the web, into the page's files under the name the cell uses: the
/// desktop reads them from the lecture's folder. One that cannot be fetched reads as why not.
/// Returns those fetched, by name.
async fn fetch_cell_files(lecture_url: &str, lecture: &[u8]) -> Vec<(String, Vec<u8>)> {
    let Some(lecture) = std::str::from_utf8(lecture).ok().and_then(|text| Lecture::parse(text).ok()) else {
        return Vec::new(); // opening the lecture says what is wrong with it
    };
    let paths: BTreeSet<String> = lecture
        .cells()
        .filter_map(|cell| match Scene::from_toml(&cell.source).ok()?.map? {
            MapSource::Path(path) => Some(path),
            _ => None,
        })
        .collect();
    let Ok(base) = page_url().and_then(|page| web_sys::Url::new_with_base(lecture_url, &page)) else {
        return Vec::new();
    };
    // All requests go out before the first answer is awaited.
    let requests: Vec<_> = paths
        .into_iter()
        .map(|path| {
            let url = web_sys::Url::new_with_base(&path, &base.href()).map_or_else(|_| path.clone(), |url| url.href());
            let reply = fetch(&url, cap(&path));
            (path, url, reply)
        })
        .collect();
    let mut fetched = Vec::new();
    for (path, url, reply) in requests {
        match reply.await {
            Ok(bytes) => {
                files::add(Path::new(&path), bytes.clone());
                fetched.push((path, bytes));
            }
            Err(refused) => refused.keep_as(Path::new(&path), &url),
        }
    }
    fetched
}

/// The page's own address, which relative links start from.
fn page_url() -> Result<String, JsValue> {
    web_sys::window().ok_or("no window")?.location().href()
}

/// The largest file the reader of `path`'s format takes: a grid map's, or other text's.
fn cap(path: &str) -> u64 {
    if movingai::is_map_file(Path::new(file_name(path))) { movingai::MAX_MAP_TEXT } else { files::MAX_TEXT }
}

impl Arrival {
    /// Shows the file: a map on its lab's page, a lecture in the notebook. The files it brought
    /// are `kept` for later visits.
    pub fn open(self, app: &mut SearchlabApp, kept: &mut Kept) -> Result<(), String> {
        match self {
            Arrival::Failed(error) => Err(error),
            Arrival::Map { url, bytes } => {
                let name = file_name(&url);
                kept.add(vec![(name.to_string(), bytes.clone())]);
                files::add(Path::new(name), bytes);
                let polygon = files::has_extension(Path::new(name), "json");
                let mut scene = Scene::new(if polygon { Lab::Polygon } else { Lab::Grid });
                scene.map = Some(MapSource::Path(name.to_string()));
                let size = if polygon {
                    scene.load_polygon_map()?;
                    String::new()
                } else {
                    let grid = scene.load_grid()?.expect("the scene names a map");
                    format!(r#","width":{},"height":{}"#, grid.width(), grid.height())
                };
                app.open_scene(&scene);
                log(&format!(r#"{{"event":"map","name":{}{size}}}"#, serde_json::Value::from(name)));
                Ok(())
            }
            Arrival::Lecture { url, bytes, mut cell_files } => {
                let name = file_name(&url);
                let text = String::from_utf8(bytes).map_err(|_| format!("{url}: not UTF-8 text"))?;
                // Checked here too so a broken link says why in the page, not only in the notebook.
                let lecture = Lecture::parse(&text).map_err(|problem| problem.at(name))?;
                cell_files.push((name.to_string(), text.clone().into_bytes()));
                kept.add(cell_files);
                files::add(Path::new(name), text.into_bytes());
                *app = std::mem::take(app).with_lecture(Path::new(name));
                let cells = lecture.cells().count();
                // What each cell shows in place of its view, as the notebook checks it on opening
                // (the lecture is kept under its bare name, so its folder is the page's files' root).
                let problems: Vec<String> = lecture
                    .cells()
                    .filter_map(|cell| check_cell(cell, Path::new("")).err())
                    .map(|problem| problem.at(name))
                    .collect();
                log(&format!(
                    r#"{{"event":"lecture","name":{},"cells":{cells},"problems":{}}}"#,
                    serde_json::Value::from(name),
                    serde_json::Value::from(problems)
                ));
                Ok(())
            }
        }
    }
}

/// The files links brought, kept in the saved state: the labs and the notebook save the names of
/// the map and the lecture they show, and a later visit without the link reads them again.
#[derive(Default)]
pub struct Kept {
    /// By name, oldest first.
    files: Vec<(String, String)>,
    changed: bool,
}

/// Where [`Kept`] is saved.
const KEPT_KEY: &str = "web: linked files";
/// The most text kept, oldest files dropped first: a site's local storage holds ~5 MB.
const KEPT_MAX: usize = 2_000_000;

impl Kept {
    /// The files an earlier visit kept, added to the page's files again.
    pub fn restore(storage: Option<&dyn eframe::Storage>) -> Kept {
        let saved = storage.and_then(|storage| storage.get_string(KEPT_KEY));
        let files: Vec<(String, String)> = saved.and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default();
        for (name, text) in &files {
            files::add(Path::new(name), text.clone().into_bytes());
        }
        Kept { files, changed: false }
    }

    /// Keeps these files (text only: maps and lectures are), in place of any of the same name.
    fn add(&mut self, arrived: Vec<(String, Vec<u8>)>) {
        for (name, bytes) in arrived {
            let Ok(text) = String::from_utf8(bytes) else { continue };
            self.files.retain(|(kept, _)| *kept != name);
            self.files.push((name, text));
        }
        while self.files.iter().map(|(_, text)| text.len()).sum::<usize>() > KEPT_MAX {
            self.files.remove(0);
        }
        self.changed = true;
    }

    pub fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if std::mem::take(&mut self.changed) {
            storage.set_string(KEPT_KEY, serde_json::to_string(&self.files).unwrap_or_default());
        }
    }
}

/// Why a linked file was not fetched.
enum Refused {
    /// Larger than its reader takes: `size` bytes, over `max`.
    TooBig { size: u64, max: u64 },
    /// The request failed, or the server answered with an error status.
    Failed(String),
}

impl Refused {
    /// One line naming the file.
    fn at(&self, url: &str) -> String {
        match *self {
            Refused::TooBig { size, max } => files::ReadError::TooBig { size: Some(size), max }.at(url),
            Refused::Failed(ref why) => format!("{url}: cannot fetch: {why}"),
        }
    }

    /// Makes `path`, fetched from `url`, read as refused for this reason.
    fn keep_as(self, path: &Path, url: &str) {
        match self {
            Refused::TooBig { size, max } => files::add_unread(path, size, max),
            Refused::Failed(why) => files::add_failed(path, format!("{why} (fetching {url})")),
        }
    }
}

/// The bytes at `url` (relative to the page), refused when over `max`. The request goes out at
/// once, not when the future is first polled.
fn fetch(url: &str, max: u64) -> impl Future<Output = Result<Vec<u8>, Refused>> + use<> {
    let describe = |error: JsValue| {
        let error = error.dyn_into::<js_sys::Error>().map(|error| String::from(error.message()));
        Refused::Failed(error.unwrap_or_else(|error| error.as_string().unwrap_or_else(|| format!("{error:?}"))))
    };
    let request =
        web_sys::window().ok_or_else(|| Refused::Failed("no window".into())).map(|window| window.fetch_with_str(url));
    async move {
        let response: web_sys::Response =
            JsFuture::from(request?).await.map_err(describe)?.dyn_into().map_err(describe)?;
        if !response.ok() {
            // HTTP/2 has no status text: the status alone is named then.
            let status = format!("HTTP {} {}", response.status(), response.status_text());
            return Err(Refused::Failed(status.trim_end().to_string()));
        }
        // A size the server gives is checked before the body is read.
        let told = response.headers().get("content-length").ok().flatten().and_then(|size| size.parse().ok());
        if let Some(size) = told.filter(|&size| size > max) {
            return Err(Refused::TooBig { size, max });
        }
        let buffer = JsFuture::from(response.array_buffer().map_err(describe)?).await.map_err(describe)?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        match bytes.len() as u64 {
            size if size > max => Err(Refused::TooBig { size, max }),
            _ => Ok(bytes),
        }
    }
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
