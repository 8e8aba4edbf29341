//! The passability map as bits, row by row and column by column, for searches that test 64
//! cells in one instruction (block-based jump point search).

use std::sync::OnceLock;

/// Blocked bits before position 0 of every line, so a scan reading 64 bits behind a cell never
/// leaves the line.
pub const PAD: usize = 64;

/// Bit `PAD + x` of row line `y + 1` is set when (x, y) is passable; column line `x + 1` holds
/// the same bits along y. Lines -1 and width/height (and every bit beyond the map) are blocked,
/// so a scan stops at the map's edge without a bounds check.
#[derive(Debug, Clone)]
pub struct PassableBits {
    row_words: usize,
    column_words: usize,
    rows: Vec<u64>,
    columns: Vec<u64>,
}

/// Words for a line of `len` cells: the padding, the cells, and a word of blocked bits after
/// them so a 64-bit read starting at the first bit past the map stays inside.
fn words_for(len: u32) -> usize {
    (PAD + len as usize) / 64 + 2
}

impl PassableBits {
    pub fn new(width: u32, height: u32, passable: impl Fn(u32, u32) -> bool) -> Self {
        let (row_words, column_words) = (words_for(width), words_for(height));
        let mut rows = vec![0; row_words * (height as usize + 2)];
        let mut columns = vec![0; column_words * (width as usize + 2)];
        for y in 0..height {
            for x in 0..width {
                if passable(x, y) {
                    let (bit, line) = (PAD + x as usize, y as usize + 1);
                    rows[line * row_words + bit / 64] |= 1 << (bit % 64);
                    let (bit, line) = (PAD + y as usize, x as usize + 1);
                    columns[line * column_words + bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Self { row_words, column_words, rows, columns }
    }

    /// Row `y` (-1..=height) as bits along x.
    pub fn row(&self, y: i64) -> &[u64] {
        let line = (y + 1) as usize;
        &self.rows[line * self.row_words..(line + 1) * self.row_words]
    }

    /// Column `x` (-1..=width) as bits along y.
    pub fn column(&self, x: i64) -> &[u64] {
        let line = (x + 1) as usize;
        &self.columns[line * self.column_words..(line + 1) * self.column_words]
    }

    /// Whether (x, y) is passable, for x in -1..=width and y in -1..=height (false off the map).
    pub fn free(&self, x: i64, y: i64) -> bool {
        let bit = (PAD as i64 + x) as usize;
        self.row(y)[bit / 64] >> (bit % 64) & 1 != 0
    }
}

/// The 64 bits of `line` from bit `start` on (bit `start` lowest).
pub fn window(line: &[u64], start: usize) -> u64 {
    let (word, shift) = (start / 64, start % 64);
    if shift == 0 { line[word] } else { line[word] >> shift | line[word + 1] << (64 - shift) }
}

/// A [`PassableBits`] built when first asked for. Every cache compares equal: it never tells two
/// equal grids apart.
#[derive(Debug, Clone, Default)]
pub struct BitsCache(OnceLock<PassableBits>);

impl BitsCache {
    pub fn get_or_build(&self, build: impl FnOnce() -> PassableBits) -> &PassableBits {
        self.0.get_or_init(build)
    }
}

impl PartialEq for BitsCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for BitsCache {}
