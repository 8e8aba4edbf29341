//! Reading and writing the user's files. On the desktop this is the file system; in the browser
//! (wasm32) there is none, so files live in memory for the page's lifetime: the bundled maps and
//! lectures are built in, a file opened through the browser's picker or a `?map=URL` link is added
//! under its name, and a saved file is kept there and also offered as a download.

use std::io;
use std::path::Path;

pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    imp::read(path)
}

pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    imp::write(path, contents.as_ref())
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::io;
    use std::path::Path;

    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
        std::fs::write(path, contents)
    }
}

#[cfg(target_arch = "wasm32")]
pub use imp::{add, on_save};

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::io;
    use std::path::{Path, PathBuf};

    /// The files shipped with the app, as the desktop finds them beside the working directory.
    const BUILT_IN: [(&str, &[u8]); 20] = [
        ("maps/lecture-u.map", include_bytes!("../maps/lecture-u.map")),
        ("maps/lecture-u.map.scen", include_bytes!("../maps/lecture-u.map.scen")),
        ("maps/maze64.map", include_bytes!("../maps/maze64.map")),
        ("maps/maze64.map.scen", include_bytes!("../maps/maze64.map.scen")),
        ("maps/narrow_corridor.json", include_bytes!("../maps/narrow_corridor.json")),
        ("maps/pillars.json", include_bytes!("../maps/pillars.json")),
        ("maps/random512.map", include_bytes!("../maps/random512.map")),
        ("maps/random512.map.scen", include_bytes!("../maps/random512.map.scen")),
        ("maps/rooms128.map", include_bytes!("../maps/rooms128.map")),
        ("maps/rooms128.map.scen", include_bytes!("../maps/rooms128.map.scen")),
        ("maps/rooms512.map", include_bytes!("../maps/rooms512.map")),
        ("maps/rooms512.map.scen", include_bytes!("../maps/rooms512.map.scen")),
        ("maps/u_hall.json", include_bytes!("../maps/u_hall.json")),
        ("lectures/welcome.md", include_bytes!("../lectures/welcome.md")),
        ("lectures/1-grid-search.md", include_bytes!("../lectures/1-grid-search.md")),
        ("lectures/2-hierarchical-search.md", include_bytes!("../lectures/2-hierarchical-search.md")),
        ("lectures/3-triangulations.md", include_bytes!("../lectures/3-triangulations.md")),
        ("lectures/4-game-trees.md", include_bytes!("../lectures/4-game-trees.md")),
        ("lectures/5-monte-carlo-tree-search.md", include_bytes!("../lectures/5-monte-carlo-tree-search.md")),
        ("lectures/6-barca-ai.md", include_bytes!("../lectures/6-barca-ai.md")),
    ];

    type SaveHook = Box<dyn Fn(&Path, &[u8])>;

    thread_local! {
        static ADDED: RefCell<HashMap<PathBuf, Vec<u8>>> = RefCell::default();
        static ON_SAVE: RefCell<Option<SaveHook>> = RefCell::default();
    }

    /// "./maps/x" and "maps/x" name the same file.
    fn key(path: &Path) -> PathBuf {
        path.components().filter(|part| !matches!(part, std::path::Component::CurDir)).collect()
    }

    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        let key = key(path);
        if let Some(bytes) = ADDED.with_borrow(|added| added.get(&key).cloned()) {
            return Ok(bytes);
        }
        BUILT_IN
            .iter()
            .find(|(name, _)| Path::new(name) == key)
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file in the page (open it first)"))
    }

    pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
        add(path, contents.to_vec());
        ON_SAVE.with_borrow(|hook| hook.as_ref().map(|hook| hook(path, contents)));
        Ok(())
    }

    /// Makes `contents` readable as `path` (a file the user opened, or one fetched from a link).
    pub fn add(path: &Path, contents: Vec<u8>) {
        ADDED.with_borrow_mut(|added| added.insert(key(path), contents));
    }

    /// What to do with every saved file besides keeping it (the page offers it as a download).
    pub fn on_save(hook: impl Fn(&Path, &[u8]) + 'static) {
        ON_SAVE.set(Some(Box::new(hook)));
    }
}
