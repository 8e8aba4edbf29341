//! What block-based jump point search reads of a map, as bits: passability row by row and column
//! by column, and for each scan direction the cells where a straight scan must stop, so one
//! 64-bit word answers for 64 cells (Harabor & Grastien 2014).

use std::sync::OnceLock;

use crate::grid::Grid;

/// Blocked bits before position 0 of every line, so a scan reading 64 bits behind a cell never
/// leaves the line.
pub const PAD: usize = 64;

/// The straight scan directions, as indexes of [`JumpBits::stops`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanDirection {
    East,
    West,
    South,
    North,
}

/// Bit `PAD + x` of row line `y + 1` is set when (x, y) is passable; column line `x + 1` holds
/// the same bits along y. Lines -1 and width/height (and every bit beyond the map) are blocked,
/// so a scan stops at the map's edge without a bounds check.
#[derive(Debug, Clone)]
pub struct JumpBits {
    row_words: usize,
    column_words: usize,
    rows: Vec<u64>,
    columns: Vec<u64>,
    /// Per [`ScanDirection`] direction, laid out as `rows` (east, west) or `columns` (south, north): the
    /// blocked cells and the cells with a forced neighbour, one free beside the line while the
    /// cell behind that one (against the scan) is blocked.
    stops: [Vec<u64>; 4],
}

/// Words for a line of `len` cells: the padding, the cells, and a word of blocked bits after
/// them so a 64-bit read starting at the first bit past the map stays inside.
fn words_for(len: u32) -> usize {
    (PAD + len as usize) / 64 + 2
}

/// For every line of `lines` (`words` each): its blocked bits, and the forced neighbours of a
/// scan that goes up the bits (`ahead` true) or down.
fn stops(lines: &[u64], words: usize, ahead: bool) -> Vec<u64> {
    let mut stops: Vec<u64> = lines.iter().map(|word| !word).collect();
    let line_count = lines.len() / words;
    for line in 1..line_count - 1 {
        // The first and last words hold only padding, blocked anyway.
        for word in 1..words - 1 {
            let bit = word * 64;
            let forced = |side: &[u64]| {
                let behind = if ahead { window(side, bit - 1) } else { window(side, bit + 1) };
                side[word] & !behind
            };
            stops[line * words + word] |= forced(&lines[(line - 1) * words..line * words])
                | forced(&lines[(line + 1) * words..(line + 2) * words]);
        }
    }
    stops
}

impl JumpBits {
    pub fn new(grid: &Grid) -> Self {
        let (width, height) = (grid.width(), grid.height());
        let (row_words, column_words) = (words_for(width), words_for(height));
        let mut rows = vec![0; row_words * (height as usize + 2)];
        let mut columns = vec![0; column_words * (width as usize + 2)];
        for y in 0..height {
            for x in 0..width {
                if grid.is_cell_passable(grid.cell(x, y)) {
                    let (bit, line) = (PAD + x as usize, y as usize + 1);
                    rows[line * row_words + bit / 64] |= 1 << (bit % 64);
                    let (bit, line) = (PAD + y as usize, x as usize + 1);
                    columns[line * column_words + bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        let stops = [
            stops(&rows, row_words, true),
            stops(&rows, row_words, false),
            stops(&columns, column_words, true),
            stops(&columns, column_words, false),
        ];
        Self { row_words, column_words, rows, columns, stops }
    }

    /// The line a scan in direction `scan` from (x, y) runs along: its passability bits and its
    /// stops, and the position of (x, y) on it.
    pub fn line(&self, scan: ScanDirection, x: i64, y: i64) -> (&[u64], &[u64], i64) {
        let (lines, words, line, position) = match scan {
            ScanDirection::East | ScanDirection::West => (&self.rows, self.row_words, y, x),
            ScanDirection::South | ScanDirection::North => (&self.columns, self.column_words, x, y),
        };
        let range = (line + 1) as usize * words..(line + 2) as usize * words;
        (&lines[range.clone()], &self.stops[scan as usize][range], position)
    }

    /// Whether (x, y) is passable, for x in -1..=width and y in -1..=height (false off the map).
    pub fn free(&self, x: i64, y: i64) -> bool {
        let bit = (PAD as i64 + x) as usize;
        self.rows[(y + 1) as usize * self.row_words + bit / 64] >> (bit % 64) & 1 != 0
    }
}

/// The 64 bits of `line` from bit `start` on (bit `start` lowest).
pub fn window(line: &[u64], start: usize) -> u64 {
    let (word, shift) = (start / 64, start % 64);
    if shift == 0 { line[word] } else { line[word] >> shift | line[word + 1] << (64 - shift) }
}

/// A [`JumpBits`] built when first asked for, kept by the grid. Every cache compares equal: it
/// never tells two equal grids apart.
#[derive(Debug, Clone, Default)]
pub struct Cache(OnceLock<JumpBits>);

impl Cache {
    pub fn get_or_build(&self, build: impl FnOnce() -> JumpBits) -> &JumpBits {
        self.0.get_or_init(build)
    }
}

impl PartialEq for Cache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Cache {}
