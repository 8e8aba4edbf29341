//! Reading and writing the user's files. On the desktop this is the file system; in the browser
//! (wasm32) there is none, so files live in memory for the page's lifetime: the bundled maps and
//! lectures are built in, a file opened through the browser's picker or a `?map=URL` link is added
//! under its name, and a saved file is kept there and also offered as a download.

use std::io;
use std::path::{Component, Path, PathBuf};

/// The files shipped with the app, under the paths a checkout has them at. The browser reads them
/// from here; the desktop reads its working directory first (a lecturer editing a checkout's maps
/// sees the edit) and falls back to these, so bundled maps and lectures work from any directory.
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

/// Where bundled maps are, among the built-in files.
const MAPS_DIR: &str = "maps/";

/// "./maps/x" and "maps/x" name the same file.
fn key(path: &Path) -> PathBuf {
    path.components().filter(|part| !matches!(part, Component::CurDir)).collect()
}

/// The built-in file at `path`, if there is one.
fn built_in(path: &Path) -> Option<&'static [u8]> {
    let key = key(path);
    BUILT_IN.iter().find(|(name, _)| Path::new(name) == key).map(|&(_, bytes)| bytes)
}

/// The file names of the bundled maps (their scenario files aside).
pub fn bundled_maps() -> impl Iterator<Item = &'static str> {
    BUILT_IN.iter().filter_map(|(name, _)| name.strip_prefix(MAPS_DIR)).filter(|name| !name.ends_with(".scen"))
}

/// The path of the bundled map `name`, or an error listing the bundled maps.
pub fn bundled_file(name: &str) -> Result<String, String> {
    if bundled_maps().any(|map| map == name) {
        return Ok(format!("{MAPS_DIR}{name}"));
    }
    Err(format!("no bundled map '{name}' (bundled: {})", bundled_maps().collect::<Vec<_>>().join(", ")))
}

/// The bundled map's name when `path` is one.
pub fn bundled_name(path: &str) -> Option<&str> {
    let key = key(Path::new(path));
    let name = key.to_str()?.strip_prefix(MAPS_DIR)?;
    bundled_maps().find(|&map| map == name)
}

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
        std::fs::read(path).or_else(|error| match super::built_in(path) {
            Some(bytes) if error.kind() == io::ErrorKind::NotFound => Ok(bytes.to_vec()),
            _ => Err(error),
        })
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

    use super::key;

    type SaveHook = Box<dyn Fn(&Path, &[u8])>;

    thread_local! {
        static ADDED: RefCell<HashMap<PathBuf, Vec<u8>>> = RefCell::default();
        static ON_SAVE: RefCell<Option<SaveHook>> = RefCell::default();
    }

    pub fn read(path: &Path) -> io::Result<Vec<u8>> {
        let key = key(path);
        if let Some(bytes) = ADDED.with_borrow(|added| added.get(&key).cloned()) {
            return Ok(bytes);
        }
        super::built_in(&key)
            .map(<[u8]>::to_vec)
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
