//! Text forms: squares (`d4`), moves (`e2e5`) and the FEN-like position (`4ee4/.../4EE4 w`).

use std::fmt;
use std::str::FromStr;

use super::board::{Bitboard, SIZE, bit};
use super::{Animal, Barca, BarcaMove, Side, index};
use crate::text::{plural, quote, without_bom};

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
        Some(c @ ('a'..='j' | 'A'..='J')) => c.to_ascii_lowercase() as u8 - b'a',
        Some(c) => {
            return Err(format!("'{}' is not a square: column '{}' is not a-j", quote(text), quote(&c.to_string())));
        }
        None => return Err("empty square".to_string()),
    };
    let row_text = chars.as_str();
    match row_text.parse::<u8>() {
        Ok(row @ 1..=10) if !row_text.starts_with(['0', '+']) => Ok((row - 1) * SIZE as u8 + column),
        _ => Err(format!("'{}' is not a square: row '{}' is not 1-10", quote(text), quote(row_text))),
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
        let quoted = quote(text);
        let split = text
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(at, _)| at)
            .ok_or_else(|| format!("'{quoted}' is not a move like e2e5"))?;
        let (from, to) = text.split_at(split);
        let (from, to) = (parse_square(from), parse_square(to));
        let describe = |error: String| format!("'{quoted}' is not a move like e2e5: {error}");
        let mv = BarcaMove { from: from.map_err(describe)?, to: to.map_err(describe)? };
        if mv.from == mv.to {
            return Err(format!("'{quoted}' moves nowhere"));
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
            FenError::RowCount { found } => {
                write!(f, "position has {found} {} separated by '/', expected 10", plural(*found, "row", "rows"))
            }
            FenError::RowLength { row, squares } => write!(f, "row {row} covers {squares} squares, expected 10"),
            FenError::BadChar { row, found } => {
                write!(
                    f,
                    "row {row}: unexpected character '{}' (expected E L M e l m or a number)",
                    quote(&found.to_string())
                )
            }
            FenError::BadNumber { row, number } => {
                write!(f, "row {row}: '{}' empty squares is not 1-10", quote(number))
            }
            FenError::PieceCount { piece, animal, side, count } => {
                let name = plural(*count as usize, animal.name(), animal.plural());
                write!(f, "{} has {count} {name} ('{piece}'), expected 2", side_name(*side))
            }
            FenError::MissingSide => write!(f, "missing the side to move ('w' or 'b') after the rows"),
            FenError::BadSide { found } => write!(f, "side to move '{}' is not 'w' or 'b'", quote(found)),
            FenError::TrailingText { found } => write!(f, "unexpected text '{}' after the side to move", quote(found)),
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

/// One game as text: a `FEN:` line when it did not start from the start position, then the moves
/// numbered in pairs.
pub fn game_text(start_fen: &str, moves: &[BarcaMove]) -> String {
    let mut text = String::new();
    if start_fen != START_FEN {
        text += &format!("FEN: {start_fen}\n");
    }
    let black_first = start_fen.ends_with(" b");
    for (i, mv) in moves.iter().enumerate() {
        let white_move = (i % 2 == 0) != black_first;
        let number = (i + usize::from(black_first)) / 2 + 1;
        if white_move {
            text += &format!("{number}. {mv}");
        } else if i == 0 {
            text += &format!("{number}... {mv}");
        } else {
            text += &mv.to_string();
        }
        text.push(if white_move { ' ' } else { '\n' });
    }
    text.trim_end().to_string()
}

/// Reads [`game_text`]'s format (move numbers optional); the error names the move and why.
pub fn parse_game(text: &str) -> Result<Barca, String> {
    // Numbered from 1, blank lines before the first line of content skipped.
    let mut lines = without_bom(text)
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .skip_while(|(_, l)| l.trim().is_empty())
        .peekable();
    let mut game = match lines.peek().and_then(|&(number, line)| Some((number, line.trim().strip_prefix("FEN:")?))) {
        Some((number, fen)) => {
            let game = Barca::from_fen(fen.trim()).map_err(|e| format!("line {number}: bad position: {e}"))?;
            lines.next();
            game
        }
        None => Barca::start(),
    };
    for (line_number, line) in lines {
        game.play_moves(line).map_err(|e| format!("line {line_number}: {e}"))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn game_text_round_trips_from_the_start_and_from_a_black_to_move_position() {
        let mut game = Barca::start();
        for text in ["e2e5", "e9e6", "d2b4"] {
            game.make_move(game.parse_move(text).unwrap());
        }
        let moves: Vec<BarcaMove> = game.moves_played().collect();
        let text = game_text(START_FEN, &moves);
        assert_eq!(text, "1. e2e5 e9e6\n2. d2b4");
        assert_eq!(parse_game(&text).unwrap().to_fen(), game.to_fen());

        let black_fen = "4ee4/3lmml3/10/10/10/4M5/10/10/3L1ML3/4EE4 b";
        let mut from_black = Barca::from_fen(black_fen).unwrap();
        from_black.make_move(from_black.parse_move("e9e7").unwrap());
        let moves: Vec<BarcaMove> = from_black.moves_played().collect();
        let text = game_text(black_fen, &moves);
        assert_eq!(text, format!("FEN: {black_fen}\n1... e9e7"));
        assert_eq!(parse_game(&text).unwrap().to_fen(), from_black.to_fen());
        // Pasted with blank lines in front: the FEN line still sets the position, lines keep their numbers.
        let pasted = format!("\n  \n{text}");
        assert_eq!(parse_game(&pasted).unwrap().to_fen(), from_black.to_fen());
        let error = parse_game(&format!("{pasted} e2e9")).unwrap_err();
        assert!(error.starts_with("line 4: move 2:"), "{error}");
    }

    #[test]
    fn a_bad_move_in_a_game_text_is_named() {
        let error = parse_game("1. e2e5 e9e6\n2. e5e9").unwrap_err();
        assert!(error.starts_with("line 2: move 3:"), "{error}");
    }
}
