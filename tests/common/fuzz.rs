//! Hostile inputs: valid files broken the way files get broken (cut short, bytes changed, lines
//! repeated, numbers swapped for extreme ones, CRLF line ends, a byte-order mark, unicode and
//! control characters), or plain random bytes; and what every error must look like.
//!
//! `FUZZ_CASES` sets the cases per target (default 1,000; the full run is 100,000:
//! `FUZZ_CASES=100000 cargo test --release --test fuzz_inputs`).

use std::time::{Duration, Instant};

use proptest::prelude::*;

/// Tokens spliced into files: extreme and awkward numbers, separators, invisible characters.
const TOKENS: &[&str] = &[
    "1e308",
    "-1e308",
    "1.7976931348623157e308",
    "5e-324",
    "-5e-324",
    "2.2250738585072014e-308",
    "-0",
    "-0.0",
    "0",
    "-1",
    "1e400",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "9223372036854775807",
    "99999999999999999999999",
    "10000000",
    "10000001",
    "1e7",
    "5e307",
    "0.000001",
    "3.5",
    "x",
    "\u{feff}",
    "\r\n",
    "\r",
    "\n",
    "\t",
    "\0",
    "\u{1b}[2J",
    "\u{202e}",
    "\u{2028}",
    "é",
    "🦁",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "/",
    " ",
    "null",
    "true",
    "#",
];

#[derive(Debug, Clone)]
enum Mutation {
    /// Cut the file at this fraction of its length (per mille).
    Truncate(u16),
    Insert(u16, &'static str),
    /// Replace the word (run of non-space characters) at this point.
    ReplaceWord(u16, &'static str),
    SetByte(u16, u8),
    /// Repeat the line at this point this many times.
    RepeatLine(u16, u16),
    Crlf,
    Bom,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0u16..1000;
    let token = prop::sample::select(TOKENS);
    prop_oneof![
        1 => at.clone().prop_map(Mutation::Truncate),
        3 => (at.clone(), token.clone()).prop_map(|(a, t)| Mutation::Insert(a, t)),
        4 => (at.clone(), token).prop_map(|(a, t)| Mutation::ReplaceWord(a, t)),
        2 => (at.clone(), any::<u8>()).prop_map(|(a, b)| Mutation::SetByte(a, b)),
        1 => (at, prop_oneof![1u16..4, 1000u16..3000]).prop_map(|(a, n)| Mutation::RepeatLine(a, n)),
        1 => Just(Mutation::Crlf),
        1 => Just(Mutation::Bom),
    ]
}

/// The byte at `per_mille` of the way through `bytes`.
fn point(bytes: &[u8], per_mille: u16) -> usize {
    bytes.len() * usize::from(per_mille) / 1000
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    match *mutation {
        Mutation::Truncate(at) => bytes.truncate(point(bytes, at)),
        Mutation::Insert(at, token) => {
            let at = point(bytes, at);
            bytes.splice(at..at, token.bytes());
        }
        Mutation::ReplaceWord(at, token) => {
            let at = point(bytes, at);
            let space = |b: &u8| b.is_ascii_whitespace() || b"[],:{}\"/".contains(b);
            let start = bytes[..at].iter().rposition(space).map_or(0, |i| i + 1);
            let end = bytes[at..].iter().position(space).map_or(bytes.len(), |i| at + i);
            bytes.splice(start..end.max(start), token.bytes());
        }
        Mutation::SetByte(at, byte) => {
            let at = point(bytes, at);
            if let Some(b) = bytes.get_mut(at) {
                *b = byte;
            }
        }
        Mutation::RepeatLine(at, times) => {
            let at = point(bytes, at);
            let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i + 1);
            // Files stay under a few megabytes however the repeats compound.
            let times = usize::from(times).min(2_000_000 / (end - start).max(1)).max(1);
            let copies = bytes[start..end].repeat(times - 1);
            bytes.splice(end..end, copies);
        }
        Mutation::Crlf => {
            *bytes = String::from_utf8_lossy(bytes).replace('\n', "\r\n").into_bytes();
        }
        Mutation::Bom => bytes.splice(0..0, "\u{feff}".bytes()).for_each(drop),
    }
}

/// One of `seeds` with a few mutations, or (one time in ten) random bytes.
pub fn hostile(seeds: Vec<String>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        9 => (prop::sample::select(seeds), prop::collection::vec(mutation(), 1..5)).prop_map(|(seed, mutations)| {
            let mut bytes = seed.into_bytes();
            mutations.iter().for_each(|m| apply(&mut bytes, m));
            bytes
        }),
        1 => prop::collection::vec(any::<u8>(), 0..300),
    ]
}

/// Cases per target: `FUZZ_CASES`, or `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Longest error accepted: a file name, a line number, a short quote and the explanation.
const LONGEST_ERROR: usize = 400;

/// An error a user can read: one line, no control characters, not a page of echoed input.
pub fn assert_one_line(error: &str) {
    // The failure shows the error's start only: a runaway error can be megabytes long.
    let start: String = error.chars().take(2 * LONGEST_ERROR).collect();
    assert!(!error.chars().any(char::is_control), "control characters in the error: {start:?}");
    assert!(!error.contains(['\u{2028}', '\u{2029}', '\u{202e}']), "line or direction breaks in the error: {start:?}");
    assert!(error.chars().count() <= LONGEST_ERROR, "an error of {} characters: {start:?}", error.chars().count());
    assert!(!error.is_empty(), "an empty error");
}

/// Runs `work` and fails if it takes longer than a hang would (a generous bound, not a speed test).
pub fn within_bounded_time<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = work();
    assert!(started.elapsed() < Duration::from_secs(10), "{what} took {:?}", started.elapsed());
    out
}
