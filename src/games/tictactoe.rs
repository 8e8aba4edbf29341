//! Tic-tac-toe: the small game whose whole tree (549,946 nodes) fits in a lesson.
//!
//! Cells are numbered 0..9 row by row from the top left. Move text is a column letter and a row
//! number counted from the bottom, as on the Barca and chess boards of the same course: `a3` (top
//! left) to `c1` (bottom right); a bare cell index `0`..`8` is accepted too.
//! A position is written as nine characters `x`, `o` or `.` in cell order (`/` separators allowed),
//! e.g. `x.o/.x./...`; the side to move follows from the counts (X moves first).

use super::{Game, Outcome, Score, Side, WIN};
use crate::text::quote;

/// A cell index 0..9.
pub type Cell = u8;

const FULL: u16 = 0b1_1111_1111;
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// splitmix64, evaluated at compile time for the Zobrist keys.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys for X on cells 0..9, O on cells 9..18, and the second player to move at 18.
const ZOBRIST: [u64; 19] = {
    let mut keys = [0u64; 19];
    let mut i = 0;
    while i < 19 {
        keys[i] = splitmix(0x7469_6374_6163_746f ^ (i as u64).wrapping_mul(0x1000_0000_01b3));
        i += 1;
    }
    keys
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicTacToe {
    /// Bit `c` set: X (`First`) owns cell `c`.
    x: u16,
    /// Bit `c` set: O (`Second`) owns cell `c`.
    o: u16,
    hash: u64,
    /// Moves made on this state, for `unmake_move`.
    history: Vec<Cell>,
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self { x: 0, o: 0, hash: 0, history: Vec::new() }
    }

    /// Parses a position such as `x.o......` or `x.o/.x./...` (see the module notes).
    pub fn from_position(text: &str) -> Result<Self, String> {
        let quoted = quote(text);
        let (mut x, mut o, mut cell) = (0u16, 0u16, 0usize);
        for ch in text.trim().chars() {
            if ch == '/' {
                continue;
            }
            if cell == 9 {
                return Err(format!("position '{quoted}' has more than 9 cells"));
            }
            match ch.to_ascii_lowercase() {
                'x' => x |= 1 << cell,
                'o' => o |= 1 << cell,
                '.' | '-' | '_' => {}
                other => {
                    return Err(format!(
                        "position '{quoted}': '{}' is not x, o or . (cell {cell})",
                        quote(&other.to_string())
                    ));
                }
            }
            cell += 1;
        }
        if cell != 9 {
            return Err(format!("position '{quoted}' has {cell} cells, expected 9"));
        }
        let (xs, os) = (x.count_ones(), o.count_ones());
        if xs != os && xs != os + 1 {
            return Err(format!("position '{quoted}' has {xs} x and {os} o: X moves first, so x = o or o + 1"));
        }
        let game = Self { x, o, hash: 0, history: Vec::new() };
        let (x_won, o_won) = (game.has_line(x), game.has_line(o));
        if (x_won && (o_won || xs == os)) || (o_won && xs > os) {
            return Err(format!("position '{quoted}' cannot arise: play continued after a win"));
        }
        Ok(Self { hash: game.compute_hash(), ..game })
    }

    /// The position in `from_position` notation, without separators.
    pub fn position_text(&self) -> String {
        (0..9)
            .map(|c| match self.owner(c) {
                Some(Side::First) => 'x',
                Some(Side::Second) => 'o',
                None => '.',
            })
            .collect()
    }

    pub fn owner(&self, cell: Cell) -> Option<Side> {
        let bit = 1u16 << cell;
        if self.x & bit != 0 {
            Some(Side::First)
        } else if self.o & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The hash recomputed from the board (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for cell in 0..9 {
            if self.x & (1 << cell) != 0 {
                hash ^= ZOBRIST[cell];
            }
            if self.o & (1 << cell) != 0 {
                hash ^= ZOBRIST[9 + cell];
            }
        }
        if self.side_to_move() == Side::Second {
            hash ^= ZOBRIST[18];
        }
        hash
    }

    fn has_line(&self, bits: u16) -> bool {
        LINES.iter().any(|&line| (bits & line) ^ line == 0)
    }

    /// Parses `b2` or `4` into a cell, without checking that it is empty.
    pub fn parse_cell(text: &str) -> Result<Cell, String> {
        let t = text.trim().to_ascii_lowercase();
        let bytes = t.as_bytes();
        match bytes {
            [d @ b'0'..=b'8'] => Ok(d - b'0'),
            [col @ b'a'..=b'c', row @ b'1'..=b'3'] => Ok((b'3' - row) * 3 + (col - b'a')),
            _ => Err(format!("'{}' is not a cell: use a1..c3 (column, then row from the bottom) or 0..8", quote(text))),
        }
    }

    pub fn cell_text(cell: Cell) -> String {
        format!("{}{}", (b'a' + cell % 3) as char, 3 - cell / 3)
    }
}

impl Game for TicTacToe {
    type Move = Cell;

    fn side_to_move(&self) -> Side {
        if self.x.count_ones() > self.o.count_ones() { Side::Second } else { Side::First }
    }

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        if self.outcome().is_some() {
            return;
        }
        let mut empty = !(self.x | self.o) & FULL;
        while empty != 0 {
            moves.push(empty.trailing_zeros() as Cell);
            empty &= empty - 1;
        }
    }

    fn make_move(&mut self, cell: Cell) {
        debug_assert!(cell < 9 && (self.x | self.o) & (1 << cell) == 0, "cell {cell} is not empty");
        match self.side_to_move() {
            Side::First => {
                self.x |= 1 << cell;
                self.hash ^= ZOBRIST[cell as usize];
            }
            Side::Second => {
                self.o |= 1 << cell;
                self.hash ^= ZOBRIST[9 + cell as usize];
            }
        }
        self.hash ^= ZOBRIST[18];
        self.history.push(cell);
    }

    fn unmake_move(&mut self) {
        let cell = self.history.pop().expect("unmake_move without a move to take back");
        self.hash ^= ZOBRIST[18];
        // The mover is the side to move before the cell is cleared, flipped.
        match self.side_to_move().other() {
            Side::First => {
                self.x &= !(1 << cell);
                self.hash ^= ZOBRIST[cell as usize];
            }
            Side::Second => {
                self.o &= !(1 << cell);
                self.hash ^= ZOBRIST[9 + cell as usize];
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(self.x) {
            Some(Outcome::Win(Side::First))
        } else if self.has_line(self.o) {
            Some(Outcome::Win(Side::Second))
        } else if self.x | self.o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// 0 while the game runs (the searches see the whole tree); `-WIN` once the side to move has lost.
    fn evaluate(&self) -> Score {
        match self.outcome() {
            Some(Outcome::Win(side)) if side != self.side_to_move() => -WIN,
            Some(Outcome::Win(_)) => WIN,
            _ => 0,
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_text(&self, cell: Cell) -> String {
        Self::cell_text(cell)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, String> {
        let cell = Self::parse_cell(text)?;
        if let Some(outcome) = self.outcome() {
            return Err(format!("the game is over ({outcome:?}): no move is legal"));
        }
        if self.owner(cell).is_some() {
            return Err(format!("cell {} is already taken", Self::cell_text(cell)));
        }
        Ok(cell)
    }
}

impl crate::games::RegisteredGame for TicTacToe {
    const ID: &'static str = "tictactoe";
    const NAME: &'static str = "Tic-tac-toe";
    const SIDES: [&'static str; 2] = ["X", "O"];
    const DEFAULT_POSITION: &'static str = "x.o/.x./..o";
    const START_POSITION: &'static str = ".../.../...";
    const POSITION_HELP: &'static str =
        "Nine cells x, o or . row by row from the top left (x.o/.o./x..); X moves first.";
    const DEFAULT_DEPTH: u32 = 9;
    const MAX_DEPTH: u32 = 9;

    fn parse_position(text: &str) -> Result<Self, String> {
        TicTacToe::from_position(text)
    }

    fn position_text(&self) -> String {
        TicTacToe::position_text(self)
    }

    /// Cells written x, o, . (or - _), rows split by /.
    fn looks_like(text: &str) -> bool {
        text.trim().chars().all(|c| "xXoO.-_/".contains(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_both_ways() {
        assert_eq!(TicTacToe::parse_cell("a3"), Ok(0));
        assert_eq!(TicTacToe::parse_cell("B2"), Ok(4));
        assert_eq!(TicTacToe::parse_cell("c1"), Ok(8));
        assert_eq!(TicTacToe::parse_cell("7"), Ok(7));
        for bad in ["", "d1", "a4", "9", "a", "a11"] {
            assert!(TicTacToe::parse_cell(bad).is_err(), "{bad}");
        }
        for cell in 0..9 {
            assert_eq!(TicTacToe::parse_cell(&TicTacToe::cell_text(cell)), Ok(cell));
        }
    }

    #[test]
    fn positions_round_trip_and_bad_ones_are_refused() {
        let game = TicTacToe::from_position("x.o/.x./...").unwrap();
        assert_eq!(game.position_text(), "x.o.x....");
        assert_eq!(game.side_to_move(), Side::Second);
        assert_eq!(game.hash(), game.compute_hash());
        for bad in ["xx.......", "x.o", "x.o.......", "x.q......", "xxxoo.o..", "ooo.xxxx.", "xxxooo..."] {
            assert!(TicTacToe::from_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn wins_draws_and_taken_cells() {
        let mut game = TicTacToe::new();
        for cell in [0, 3, 1, 4] {
            game.make_move(cell);
        }
        assert_eq!(game.outcome(), None);
        assert!(game.parse_move("a2").is_err(), "cell 3 is taken");
        game.make_move(2);
        assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
        assert_eq!(game.evaluate(), -WIN);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert!(moves.is_empty());
        let draw = TicTacToe::from_position("xoxxoooxx").unwrap();
        assert_eq!(draw.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn make_unmake_restores_board_and_hash() {
        let mut game = TicTacToe::new();
        let start = game.clone();
        for cell in [4, 0, 8, 2, 1] {
            game.make_move(cell);
            assert_eq!(game.hash(), game.compute_hash());
        }
        while game.ply() > 0 {
            game.unmake_move();
            assert_eq!(game.hash(), game.compute_hash());
        }
        assert_eq!(game, start);
    }
}
