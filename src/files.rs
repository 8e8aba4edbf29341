//! Reading and writing the user's files. On the desktop this is the file system; in the browser
//! (wasm32) there is none, so files live in memory for the page's lifetime: the bundled maps and
//! lectures are built in, a file opened through the browser's picker or a `?map=URL` link is added
//! under its name, so are the files the cells of a `?lecture=URL` link name (fetched from beside
//! it), and a saved file is kept there and also offered as a download.

use std::io;
use std::path::{Component, Path, PathBuf};

/// The files shipped with the app, under the paths a checkout has them at. The browser reads them
/// from here; the desktop reads its working directory first (a lecturer editing a checkout's maps
/// sees the edit) and falls back to these, so bundled maps and lectures work from any directory.
const BUILT_IN: [(&str, &[u8]); 21] = [
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
    ("lectures/writing-lectures.md", include_bytes!("../lectures/writing-lectures.md")),
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

/// Whether `path` ends in `.extension`, in any case: tools that write upper-case names
/// (`ARENA.MAP`, `U.MESH`) name their files so, and what reads a file by its kind goes by this.
pub fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|found| found.eq_ignore_ascii_case(extension))
}

/// Largest lecture, weights, game, tuning log, query list or polygon map read (these are a few
/// KB in practice), so a wrongly picked file cannot hang the reader or exhaust memory.
pub const MAX_TEXT: u64 = 16 << 20;

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// Larger than `max` bytes; `size` is unknown for a stream such as /dev/zero.
    TooBig {
        size: Option<u64>,
        max: u64,
    },
    /// A byte no text file has, on the 1-based `line`; `what` says which.
    NotText {
        line: usize,
        what: &'static str,
    },
    /// A header line longer than [`MAX_HEADER_LINE`] bytes: no header of a format read has one.
    LongHeaderLine {
        line: usize,
    },
    /// Longer than its header says it can be ([`Longest`]); reading stopped on `line`.
    Longer {
        line: usize,
        why: String,
    },
}

impl ReadError {
    /// The 1-based line the problem is on, if it is on one.
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadError::NotText { line, .. } | ReadError::LongHeaderLine { line } | ReadError::Longer { line, .. } => {
                Some(*line)
            }
            _ => None,
        }
    }

    /// One line naming the file (and line): `FILE: too big (…)`, `FILE:LINE: not a text file (…)`.
    pub fn at(&self, file: &str) -> String {
        match self.line() {
            Some(line) => format!("{file}:{line}: {self}"),
            None => format!("{file}: {self}"),
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(error) => write!(f, "cannot read: {error}"),
            ReadError::TooBig { size: Some(size), max } => {
                write!(f, "too big ({}, max {})", size_text(*size), size_text(*max))
            }
            ReadError::TooBig { size: None, max } => write!(f, "too big (more than {})", size_text(*max)),
            ReadError::NotText { what, .. } => f.write_str(what),
            ReadError::LongHeaderLine { .. } => {
                write!(f, "header line longer than {}", size_text(MAX_HEADER_LINE as u64))
            }
            ReadError::Longer { why, .. } => f.write_str(why),
        }
    }
}

/// A file size as a person reads it: "2.5 GB", "16 MB", "700 bytes" (units of 1024).
fn size_text(bytes: u64) -> String {
    let units = [("GB", 1u64 << 30), ("MB", 1 << 20), ("KB", 1 << 10)];
    let Some(&(unit, scale)) = units.iter().find(|&&(_, scale)| bytes >= scale) else {
        return format!("{bytes} bytes");
    };
    let amount = format!("{:.1}", bytes as f64 / scale as f64);
    format!("{} {unit}", amount.strip_suffix(".0").unwrap_or(&amount))
}

impl std::error::Error for ReadError {}

/// The text file at `path`, refused when it is larger than `max` bytes or holds a NUL or other
/// control byte (tab, line feed, carriage return and form feed aside) or invalid UTF-8. Reading
/// stops at the first such byte or at `max`, so an endless or binary file costs little.
pub fn read_text(path: &Path, max: u64) -> Result<String, ReadError> {
    let Ok(text) = read_text_checked(path, max, 0, |_| Ok::<_, std::convert::Infallible>(None))?;
    Ok(text)
}

/// Longest header line read: a header is a few short lines, so a longer one (an endless line
/// from a pipe, say) is no header and is refused when this much of it is read.
pub const MAX_HEADER_LINE: usize = 4 << 10;

/// How long a file can be, as its header says: at most `bytes` in all (header included), and
/// `why` a longer one is wrong, in the words of its format.
pub struct Longest {
    pub bytes: u64,
    pub why: String,
}

/// A header check's answer: how long the file can be (if its header says), or why it is refused.
pub type HeadCheck<E> = Result<Option<Longest>, E>;

/// [`read_text`] that hands the file's first `lines` lines to `check` as soon as they are read, so
/// a file whose header is wrong is refused (with `check`'s error) before the rest is: a pipe may
/// never end. `check` may also say how long the file can be ([`Longest`]): reading stops once it
/// is longer. Each of those lines is at most [`MAX_HEADER_LINE`] bytes. A file of fewer lines is
/// not checked here, only read.
pub fn read_text_checked<E>(
    path: &Path,
    max: u64,
    lines: usize,
    check: impl FnOnce(&str) -> HeadCheck<E>,
) -> Result<Result<String, E>, ReadError> {
    imp::read_text(path, max, lines, check)
}

/// [`read_text_checked`] on an open stream whose size, if known, is `size`.
fn text_from<E>(
    mut reader: impl io::Read,
    size: Option<u64>,
    max: u64,
    head_lines: usize,
    check: impl FnOnce(&str) -> HeadCheck<E>,
) -> Result<Result<String, E>, ReadError> {
    if let Some(size) = size.filter(|&size| size > max) {
        return Err(ReadError::TooBig { size: Some(size), max });
    }
    let mut bytes = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    let mut lines_before = 0;
    let mut check = Some(check);
    let mut longest = None;
    loop {
        let read = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(ReadError::Io(error)),
        };
        let chunk = &chunk[..read];
        if let Some(at) = chunk.iter().position(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) {
            let line = lines_before + 1 + chunk[..at].iter().filter(|&&b| b == b'\n').count();
            let what = if chunk[at] == 0 { "not a text file (NUL byte)" } else { "not a text file (control byte)" };
            return Err(ReadError::NotText { line, what });
        }
        if (bytes.len() + read) as u64 > max {
            return Err(ReadError::TooBig { size, max });
        }
        lines_before += chunk.iter().filter(|&&b| b == b'\n').count();
        bytes.extend_from_slice(chunk);
        if check.is_some()
            && let Some(long) =
                bytes.split(|&b| b == b'\n').take(head_lines).position(|line| line.len() > MAX_HEADER_LINE)
        {
            return Err(ReadError::LongHeaderLine { line: long + 1 });
        }
        if lines_before >= head_lines
            && let Some(check) = check.take()
        {
            let newlines = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n').map(|(at, _)| at + 1);
            let head_end = head_lines.checked_sub(1).and_then(|last| newlines.clone().nth(last)).unwrap_or(0);
            let head = std::str::from_utf8(&bytes[..head_end]).map_err(|e| not_utf8(&bytes, e))?;
            match check(head) {
                Ok(found) => longest = found,
                Err(refused) => return Ok(Err(refused)),
            }
        }
        if let Some(Longest { bytes: most, why }) = &longest
            && bytes.len() as u64 > *most
        {
            // The line holding the first byte too many.
            let line = 1 + bytes[..*most as usize].iter().filter(|&&b| b == b'\n').count();
            return Err(ReadError::Longer { line, why: why.clone() });
        }
    }
    String::from_utf8(bytes).map(Ok).map_err(|e| not_utf8(e.as_bytes(), e.utf8_error()))
}

/// Invalid UTF-8 in `bytes`, at the line of `error`.
fn not_utf8(bytes: &[u8], error: std::str::Utf8Error) -> ReadError {
    let line = 1 + bytes[..error.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
    ReadError::NotText { line, what: "not UTF-8 text" }
}

pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    imp::write(path, contents.as_ref())
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::io;
    use std::path::Path;

    use super::{HeadCheck, ReadError};

    pub fn read_text<E>(
        path: &Path,
        max: u64,
        lines: usize,
        check: impl FnOnce(&str) -> HeadCheck<E>,
    ) -> Result<Result<String, E>, ReadError> {
        match std::fs::File::open(path) {
            Ok(file) => {
                let size = file.metadata().ok().filter(|meta| meta.is_file()).map(|meta| meta.len());
                super::text_from(file, size, max, lines, check)
            }
            Err(error) => match super::built_in(path) {
                Some(bytes) if error.kind() == io::ErrorKind::NotFound => {
                    super::text_from(bytes, Some(bytes.len() as u64), max, lines, check)
                }
                _ => Err(ReadError::Io(error)),
            },
        }
    }

    pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
        std::fs::write(path, contents)
    }
}

#[cfg(target_arch = "wasm32")]
pub use imp::{add, add_failed, add_unread, on_save};

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::io;
    use std::path::{Path, PathBuf};

    use super::{HeadCheck, ReadError, key};

    type SaveHook = Box<dyn Fn(&Path, &[u8])>;

    /// A file the page was given: its bytes, or, when it was picked larger than the `max` its
    /// reader takes, only its `size` (never read, so a huge pick costs nothing), or why it could
    /// not be fetched.
    enum Added {
        Bytes(Vec<u8>),
        Unread { size: u64, max: u64 },
        Failed(String),
    }

    thread_local! {
        static ADDED: RefCell<HashMap<PathBuf, Added>> = RefCell::default();
        static ON_SAVE: RefCell<Option<SaveHook>> = RefCell::default();
    }

    pub fn read_text<E>(
        path: &Path,
        max: u64,
        lines: usize,
        check: impl FnOnce(&str) -> HeadCheck<E>,
    ) -> Result<Result<String, E>, ReadError> {
        let key = key(path);
        ADDED.with_borrow(|added| {
            let bytes = match added.get(&key) {
                Some(Added::Bytes(bytes)) => bytes.as_slice(),
                Some(&Added::Unread { size, max }) => return Err(ReadError::TooBig { size: Some(size), max }),
                Some(Added::Failed(why)) => return Err(ReadError::Io(io::Error::other(why.clone()))),
                None => super::built_in(&key).ok_or_else(|| {
                    ReadError::Io(io::Error::new(io::ErrorKind::NotFound, "no such file in the page (open it first)"))
                })?,
            };
            super::text_from(bytes, Some(bytes.len() as u64), max, lines, check)
        })
    }

    pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
        add(path, contents.to_vec());
        ON_SAVE.with_borrow(|hook| hook.as_ref().map(|hook| hook(path, contents)));
        Ok(())
    }

    /// Makes `contents` readable as `path` (a file the user opened, or one fetched from a link).
    pub fn add(path: &Path, contents: Vec<u8>) {
        ADDED.with_borrow_mut(|added| added.insert(key(path), Added::Bytes(contents)));
    }

    /// Makes `path` read as "too big" (`size` bytes, over `max`), as the desktop says of a file that
    /// size, without its bytes.
    pub fn add_unread(path: &Path, size: u64, max: u64) {
        ADDED.with_borrow_mut(|added| added.insert(key(path), Added::Unread { size, max }));
    }

    /// Makes `path` read as "cannot read: `why`" (a file a lecture names that could not be fetched),
    /// unless the page has it built in: that is read instead, as the desktop falls back to it.
    pub fn add_failed(path: &Path, why: String) {
        if super::built_in(path).is_none() {
            ADDED.with_borrow_mut(|added| added.insert(key(path), Added::Failed(why)));
        }
    }

    /// What to do with every saved file besides keeping it (the page offers it as a download).
    pub fn on_save(hook: impl Fn(&Path, &[u8]) + 'static) {
        ON_SAVE.set(Some(Box::new(hook)));
    }
}

/// A file named for one unit test in the system's temp directory, removed when dropped, also when
/// the test fails.
#[cfg(test)]
pub(crate) struct TempFile(pub PathBuf);

#[cfg(test)]
impl TempFile {
    pub(crate) fn new(name: &str) -> Self {
        Self(std::env::temp_dir().join(format!("searchlab-{}-{name}", std::process::id())))
    }
}

#[cfg(test)]
impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`text_from`] with no header check.
    fn text(reader: impl io::Read, max: u64) -> Result<String, ReadError> {
        let Ok(text) = text_from(reader, None, max, 0, |_| Ok::<_, std::convert::Infallible>(None))?;
        Ok(text)
    }

    /// A reader that counts the bytes read from it.
    struct Counted<R> {
        reader: R,
        count: u64,
    }

    impl<R: io::Read> io::Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let read = self.reader.read(buf)?;
            self.count += read as u64;
            Ok(read)
        }
    }

    #[test]
    fn a_wrong_header_is_refused_before_the_rest_of_an_endless_stream_is_read() {
        let mut endless = Counted { reader: io::Read::chain(&b"version 7\nmore\n"[..], io::repeat(b'a')), count: 0 };
        let check = |head: &str| if head == "version 7\n" { Err("unsupported version") } else { Ok(None) };
        assert_eq!(text_from(&mut endless, None, MAX_TEXT, 1, check).unwrap(), Err("unsupported version"));
        assert!(endless.count <= 64 << 10, "read {} bytes", endless.count);
    }

    #[test]
    fn the_header_check_sees_whole_lines_and_a_short_file_is_only_read() {
        let mut heads = Vec::new();
        let whole = text_from(&b"a\r\nb\nc"[..], None, MAX_TEXT, 2, |head: &str| {
            heads.push(head.to_string());
            Ok::<_, ()>(None)
        });
        assert_eq!((whole.unwrap(), heads), (Ok("a\r\nb\nc".to_string()), vec!["a\r\nb\n".to_string()]));
        let short = text_from(&b"a\nb"[..], None, MAX_TEXT, 2, |_| Err("checked"));
        assert_eq!(short.unwrap(), Ok("a\nb".to_string()));
        let error = text_from(&b"a\n\xff\n"[..], None, MAX_TEXT, 2, |_| Err("checked")).unwrap_err();
        assert_eq!(error.at("h"), "h:2: not UTF-8 text", "the header is text before it is checked");
    }

    #[test]
    fn a_file_longer_than_its_header_allows_is_refused_on_the_line_past_the_bound() {
        let longest =
            |head: &str| Ok::<_, ()>(Some(Longest { bytes: head.len() as u64 + 5, why: "more rows".to_string() }));
        assert_eq!(text_from(&b"h\nab\ncd"[..], None, MAX_TEXT, 1, longest).unwrap(), Ok("h\nab\ncd".to_string()));
        let error = text_from(&b"h\nab\ncd\n"[..], None, MAX_TEXT, 1, longest).unwrap_err();
        assert_eq!(error.at("f"), "f:3: more rows");
    }

    #[test]
    fn an_endless_header_line_is_refused_at_its_length_cap() {
        let mut endless = Counted { reader: io::Read::chain(&b"type octile\n"[..], io::repeat(b' ')), count: 0 };
        let error = text_from(&mut endless, None, MAX_TEXT, 4, |_| Ok::<_, ()>(None)).unwrap_err();
        assert_eq!(error.at("f"), "f:2: header line longer than 4 KB");
        // The first line's read, then one chunk.
        assert!(endless.count <= 12 + (64 << 10), "read {} bytes", endless.count);
        let long_last = format!("a\n{}\nrest", "b".repeat(MAX_HEADER_LINE + 1));
        let error = text_from(long_last.as_bytes(), None, MAX_TEXT, 2, |_| Ok::<_, ()>(None)).unwrap_err();
        assert_eq!(error.at("f"), "f:2: header line longer than 4 KB", "a whole line is measured as a partial one");
    }

    #[test]
    fn sizes_read_as_a_person_says_them() {
        let shown: Vec<String> = [700, 1536, 16 << 20, 402_657_280, 5 << 29].into_iter().map(size_text).collect();
        assert_eq!(shown, ["700 bytes", "1.5 KB", "16 MB", "384 MB", "2.5 GB"]);
    }

    #[test]
    fn an_endless_stream_of_nul_bytes_is_refused_at_the_first() {
        let error = text(io::repeat(0), MAX_TEXT).unwrap_err();
        assert_eq!(error.at("zero"), "zero:1: not a text file (NUL byte)");
    }

    #[test]
    fn an_endless_text_stream_is_refused_at_the_cap() {
        let error = text(io::repeat(b'a'), 1 << 20).unwrap_err();
        assert_eq!(error.at("yes"), "yes: too big (more than 1 MB)");
    }

    #[test]
    fn control_bytes_and_bad_utf8_are_refused_at_their_line() {
        let error = text(&b"# Talk\r\n\tfine\x0c\nhello \x01 world\n"[..], MAX_TEXT).unwrap_err();
        assert_eq!(error.at("t.md"), "t.md:3: not a text file (control byte)");
        let error = text(&b"a\nb\n\xff\n"[..], MAX_TEXT).unwrap_err();
        assert_eq!(error.at("t.md"), "t.md:3: not UTF-8 text");
        assert_eq!(text(&b"a\tb\r\n"[..], 5).unwrap(), "a\tb\r\n", "exactly max bytes are read");
    }

    #[test]
    fn a_file_larger_than_the_cap_is_refused_without_reading_it() {
        let sparse = TempFile::new("files-sparse");
        std::fs::File::create(&sparse.0).unwrap().set_len(1 << 30).unwrap();
        let error = read_text(&sparse.0, MAX_TEXT).unwrap_err();
        assert_eq!(error.to_string(), "too big (1 GB, max 16 MB)");
    }
}
