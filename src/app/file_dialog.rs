//! The native "Browse…" dialogs (rfd). A dialog runs on its own thread so the page keeps drawing
//! while it is open; the page polls for the chosen path. Where the desktop offers no dialog service
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
}

/// At most one open dialog per page; `P` says which field the answer is for.
pub struct NativeDialog<P> {
    waiting: Option<(P, mpsc::Receiver<Option<PathBuf>>)>,
}

impl<P> Default for NativeDialog<P> {
    fn default() -> Self {
        Self { waiting: None }
    }
}

impl<P: Copy> NativeDialog<P> {
    /// Opens the dialog next to `current` (the path in the field, if any). `ctx` is woken on the answer.
    pub fn open(&mut self, purpose: P, request: FileRequest, current: &str, ctx: Option<egui::Context>) {
        let start = Path::new(current);
        let mut dialog = rfd::FileDialog::new()
            .set_title(request.title)
            .add_filter(request.filter_name, request.extensions)
            .add_filter("All files", &["*"]);
        if let Some(dir) = start.parent().filter(|dir| dir.is_dir()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = start.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let chosen = if request.save { dialog.save_file() } else { dialog.pick_file() };
            sender.send(chosen).ok();
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
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
