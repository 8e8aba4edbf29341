//! Text forms: squares (`d4`), moves (`e2e5`) and the FEN-like position (`4ee4/.../4EE4 w`).

use std::fmt;
use std::str::FromStr;

use super::board::{Bitboard, SIZE, bit};
use super::{Animal, Barca, BarcaMove, Side, index};

pub const START_FEN: &str = "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 w";

/// `0` → `a1`, `99` → `j10`.
pub fn square_name(square: u8) -> String {
    let (column, row) = (square as usize % SIZE, square as usize / SIZE);
    format!("{}{}", (b'a' + column as u8) as char, row + 1)
}

/// `a1` → 0, `j10` → 99.
pub fn parse_square(text: &str) -> Result<u8, String> {
    let mut chars = text.chars();
    let column = match chars.next() {
        Some(c @ 'a'..='j') => c as u8 - b'a',
        Some(c) => return Err(format!("'{text}' is not a square: column '{c}' is not a-j")),
        None => return Err("empty square".to_string()),
    };
    let row_text = chars.as_str();
    match row_text.parse::<u8>() {
        Ok(row @ 1..=10) if !row_text.starts_with(['0', '+']) => Ok((row - 1) * SIZE as u8 + column),
        _ => Err(format!("'{text}' is not a square: row '{row_text}' is not 1-10")),
    }
}

impl fmt::Display for BarcaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from), square_name(self.to))
    }
}

impl FromStr for BarcaMove {
    type Err = String;

    /// `e2e5`, `d2i7`, `f10f3`: the to-square starts at the second letter.
    fn from_str(text: &str) -> Result<BarcaMove, String> {
        let text = text.trim();
        let split = text
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(at, _)| at)
            .ok_or_else(|| format!("'{text}' is not a move like e2e5"))?;
        let (from, to) = text.split_at(split);
        let (from, to) = (parse_square(from), parse_square(to));
        let describe = |error: String| format!("'{text}' is not a move like e2e5: {error}");
        let mv = BarcaMove { from: from.map_err(describe)?, to: to.map_err(describe)? };
        if mv.from == mv.to {
            return Err(format!("'{text}' moves nowhere"));
        }
        Ok(mv)
    }
}

/// What is wrong with a position text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Not 10 ranks separated by `/`.
    RowCount {
        found: usize,
    },
    /// A rank (numbered 10 down to 1 as on the board) that does not cover 10 squares.
    RowLength {
        row: usize,
        squares: usize,
    },
    BadChar {
        row: usize,
        found: char,
    },
    /// A run of empty squares of 0 or more than 10.
    BadNumber {
        row: usize,
        number: String,
    },
    /// A side without exactly 2 of some animal.
    PieceCount {
        piece: char,
        animal: Animal,
        side: Side,
        count: u32,
    },
    MissingSide,
    BadSide {
        found: String,
    },
    TrailingText {
        found: String,
    },
}

pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "White",
        Side::Second => "Black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::RowCount { found } => write!(f, "position has {found} rows separated by '/', expected 10"),
            FenError::RowLength { row, squares } => write!(f, "row {row} covers {squares} squares, expected 10"),
            FenError::BadChar { row, found } => {
                write!(f, "row {row}: unexpected character '{found}' (expected E L M e l m or a number)")
            }
            FenError::BadNumber { row, number } => write!(f, "row {row}: '{number}' empty squares is not 1-10"),
            FenError::PieceCount { piece, animal, side, count } => {
                let name = animal.name();
                write!(f, "{} has {count} {name} ('{piece}'), expected 2", side_name(*side))
            }
            FenError::MissingSide => write!(f, "missing the side to move ('w' or 'b') after the rows"),
            FenError::BadSide { found } => write!(f, "side to move '{found}' is not 'w' or 'b'"),
            FenError::TrailingText { found } => write!(f, "unexpected text '{found}' after the side to move"),
        }
    }
}

impl std::error::Error for FenError {}

fn letter(side: Side, animal: Animal) -> char {
    let upper = match animal {
        Animal::Elephant => 'E',
        Animal::Lion => 'L',
        Animal::Mouse => 'M',
    };
    if side == Side::First { upper } else { upper.to_ascii_lowercase() }
}

fn piece_of(letter: char) -> Option<(Side, Animal)> {
    let side = if letter.is_ascii_uppercase() { Side::First } else { Side::Second };
    let animal = match letter.to_ascii_uppercase() {
        'E' => Animal::Elephant,
        'L' => Animal::Lion,
        'M' => Animal::Mouse,
        _ => return None,
    };
    Some((side, animal))
}

/// Reads one rank into `pieces`; `row` is the board's row number (10 for the first rank).
fn read_row(text: &str, row: usize, pieces: &mut [[Bitboard; 3]; 2]) -> Result<(), FenError> {
    let mut column = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut number = c.to_string();
            while let Some(&digit) = chars.peek().filter(|d| d.is_ascii_digit()) {
                number.push(digit);
                chars.next();
            }
            match number.parse::<usize>() {
                Ok(run @ 1..=10) if !number.starts_with('0') => column += run,
                _ => return Err(FenError::BadNumber { row, number }),
            }
        } else {
            let (side, animal) = piece_of(c).ok_or(FenError::BadChar { row, found: c })?;
            if column < SIZE {
                pieces[index(side)][animal as usize] |= bit((row - 1) * SIZE + column);
            }
            column += 1;
        }
    }
    if column != SIZE {
        return Err(FenError::RowLength { row, squares: column });
    }
    Ok(())
}

impl Barca {
    /// Reads a position like `4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 w`; the game's history
    /// starts there.
    pub fn from_fen(text: &str) -> Result<Barca, FenError> {
        let mut fields = text.split_whitespace();
        let rows_text = fields.next().unwrap_or("");
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != SIZE {
            return Err(FenError::RowCount { found: rows.len() });
        }
        let mut pieces = [[0; 3]; 2];
        for (rank, row_text) in rows.iter().enumerate() {
            read_row(row_text, SIZE - rank, &mut pieces)?;
        }
        for side in [Side::First, Side::Second] {
            for animal in Animal::ALL {
                let count = pieces[index(side)][animal as usize].count_ones();
                if count != 2 {
                    return Err(FenError::PieceCount { piece: letter(side, animal), animal, side, count });
                }
            }
        }
        let side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("w") => Side::First,
            Some("b") => Side::Second,
            Some(other) => return Err(FenError::BadSide { found: other.to_string() }),
        };
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText { found: extra.to_string() });
        }
        Ok(Barca::from_pieces(pieces, side))
    }

    pub fn to_fen(&self) -> String {
        let mut text = String::new();
        for row in (0..SIZE).rev() {
            let mut empty = 0;
            for column in 0..SIZE {
                match self.piece_at((row * SIZE + column) as u8) {
                    None => empty += 1,
                    Some((side, animal)) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(letter(side, animal));
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            if row > 0 {
                text.push('/');
            }
        }
        text += if self.side == Side::First { " w" } else { " b" };
        text
    }
}
