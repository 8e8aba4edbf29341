//! A temp folder per test, so tests leave nothing behind in the system's temp directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the system's temp directory, removed with all it holds when dropped, also
/// when the test fails. Hold it for as long as the test (or the binary it runs) uses the files.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `searchlab-{label}-{pid}-{n}`: unique within and across test processes.
    pub fn new(label: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("searchlab-{label}-{}-{n}", std::process::id()));
        // A folder left by an earlier process with the same id must not leak its files into this test.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        Self(dir)
    }

    /// The folder itself, e.g. to start a program in it.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// Where a file called `name` goes in this folder (nothing is created).
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `contents` to the file `name` in this folder and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }

    /// Writes like [`Self::write`]; the path as a command-line argument.
    pub fn write_arg(&self, name: &str, contents: impl AsRef<[u8]>) -> String {
        self.write(name, contents).display().to_string()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0) {
            eprintln!("could not remove {}: {e}", self.0.display());
        }
    }
}
