//! The "Browse…" dialogs (rfd): the desktop's own, or the browser's file picker. The page keeps
//! drawing while one is open and polls for the chosen path. Where the desktop offers no dialog service
//! (neither the XDG portal nor zenity) rfd returns nothing, and the path fields and drag-and-drop
//! still work.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// What the user is choosing a file for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRequest {
    pub title: &'static str,
    pub filter_name: &'static str,
    pub extensions: &'static [&'static str],
    /// A save dialog (may name a new file) rather than an open dialog.
    pub save: bool,
    /// The largest file its reader takes ([`crate::files::read_text`]'s cap for the format). The
    /// browser refuses a larger pick before reading it.
    pub max_bytes: u64,
}

/// At most one open dialog per page; `P` says which field the answer is for.
pub struct NativeDialog<P> {
    waiting: Option<(P, mpsc::Receiver<Option<PathBuf>>)>,
}

/// Asks on a thread of its own, so the page keeps drawing while the dialog is open.
#[cfg(not(target_arch = "wasm32"))]
fn ask(request: FileRequest, start: &Path, answer: impl FnOnce(Option<PathBuf>) + Send + 'static) {
    // Linux portals match `*.map` case-sensitively, and the readers take `X.MAP` too.
    let extensions: Vec<String> = request.extensions.iter().flat_map(|e| [e.to_string(), e.to_uppercase()]).collect();
    let mut dialog = rfd::FileDialog::new()
        .set_title(request.title)
        .add_filter(request.filter_name, &extensions)
        .add_filter("All files", &["*"]);
    if let Some(dir) = start.parent().filter(|dir| dir.is_dir()) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(name) = start.file_name() {
        dialog = dialog.set_file_name(name.to_string_lossy());
    }
    std::thread::spawn(move || answer(if request.save { dialog.save_file() } else { dialog.pick_file() }));
}

/// The browser has no paths: an opened file is copied into the page's files under its name (see
/// [`crate::files`]), and a file saved under a name is downloaded, so "saving" needs no dialog.
#[cfg(target_arch = "wasm32")]
fn ask(request: FileRequest, start: &Path, answer: impl FnOnce(Option<PathBuf>) + 'static) {
    if request.save {
        let fallback = format!("searchlab.{}", request.extensions.first().unwrap_or(&"txt"));
        let name = start.file_name().map_or(fallback, |name| name.to_string_lossy().into_owned());
        return answer(Some(PathBuf::from(name)));
    }
    let dialog =
        rfd::AsyncFileDialog::new().set_title(request.title).add_filter(request.filter_name, request.extensions);
    wasm_bindgen_futures::spawn_local(async move {
        let Some(file) = dialog.pick_file().await else { return answer(None) };
        let path = PathBuf::from(file.file_name());
        // A File's size is known without reading it: reading a 2 GB pick whole would freeze the
        // tab. One over the cap is kept unread, and its reader says "too big" as the desktop's does.
        let size = file.inner().size() as u64;
        if size > request.max_bytes {
            crate::files::add_unread(&path, size, request.max_bytes);
        } else {
            crate::files::add(&path, file.read().await);
        }
        answer(Some(path));
    });
}

impl<P> Default for NativeDialog<P> {
    fn default() -> Self {
        Self { waiting: None }
    }
}

impl<P: Copy> NativeDialog<P> {
    /// Opens the dialog next to `current` (the path in the field, if any). `ctx` is woken on the answer.
    pub fn open(&mut self, purpose: P, request: FileRequest, current: &str, ctx: Option<egui::Context>) {
        let (sender, receiver) = mpsc::channel();
        let answer = move |chosen: Option<PathBuf>| {
            sender.send(chosen).ok();
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        };
        ask(request, Path::new(current), answer);
        self.waiting = Some((purpose, receiver));
    }

    pub fn is_open(&self) -> bool {
        self.waiting.is_some()
    }

    /// The chosen file, once the dialog has closed with one.
    pub fn poll(&mut self) -> Option<(P, PathBuf)> {
        let (purpose, receiver) = self.waiting.as_ref()?;
        let purpose = *purpose;
        match receiver.try_recv() {
            Ok(chosen) => {
                self.waiting = None;
                chosen.map(|path| (purpose, path))
            }
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                self.waiting = None;
                None
            }
        }
    }
}
