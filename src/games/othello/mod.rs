//! Othello exactly per `../shared/spec/othello-rules.md`: 8x8 bitboards, the standard start,
//! forced passes as moves, the end when neither side can move, the 64-character position text,
//! evaluation with named features and perft.
//!
//! Black (`X`) is [`Side::First`] and moves first; White (`O`) is [`Side::Second`].

mod board;
pub mod eval;
pub mod perft;

pub use board::{Bitboard, stable_discs};
pub use eval::{DEFAULT_WEIGHTS, Weights, breakdown};
pub use perft::perft;

use std::fmt;

use super::{Game, Outcome, Score, Side};
use crate::text::quote;
use board::{flips, legal_squares, squares_of};

/// The start position's text: White on d4 and e5, Black on e4 and d5, Black to move.
pub const START_TEXT: &str = "---------------------------OX------XO--------------------------- X";

/// Putting a disc on a square (0..64, a1 = 0, h1 = 7, h8 = 63), or passing (forced when the side
/// to move has no square but the opponent has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OthelloMove {
    Place(u8),
    Pass,
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OthelloMove::Place(square) => f.write_str(&square_name(square)),
            OthelloMove::Pass => f.write_str("pass"),
        }
    }
}

/// `0` → `a1`, `63` → `h8`.
pub fn square_name(square: u8) -> String {
    format!("{}{}", (b'a' + square % 8) as char, square / 8 + 1)
}

/// `d3` (column a-h, row 1-8 from the top) or `pass`, in either case.
pub fn parse_move_text(text: &str) -> Result<OthelloMove, String> {
    let lower = text.trim().to_ascii_lowercase();
    match lower.as_bytes() {
        b"pass" => Ok(OthelloMove::Pass),
        &[column @ b'a'..=b'h', row @ b'1'..=b'8'] => Ok(OthelloMove::Place((row - b'1') * 8 + column - b'a')),
        _ => Err(format!("'{}' is not a move: use a square a1..h8 or 'pass'", quote(text))),
    }
}

/// What `unmake_move` needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Undo {
    mv: OthelloMove,
    flipped: Bitboard,
    hash: u64,
}

/// An Othello game: the discs, the side to move and the moves that led here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Othello {
    /// `discs[0]` Black's, `discs[1]` White's.
    discs: [Bitboard; 2],
    side: Side,
    hash: u64,
    history: Vec<Undo>,
}

#[inline]
fn index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// splitmix64's finaliser: spreads every input bit over the whole word.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

impl Othello {
    pub fn start() -> Othello {
        Othello::from_text(START_TEXT).expect("the start position parses")
    }

    /// A game whose history begins at this position.
    pub fn from_discs(black: Bitboard, white: Bitboard, side: Side) -> Result<Othello, String> {
        if black & white != 0 {
            return Err(format!("square {} holds both colours", square_name((black & white).trailing_zeros() as u8)));
        }
        let mut game = Othello { discs: [black, white], side, hash: 0, history: Vec::new() };
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    /// Parses the position text: the 64 squares a1 b1 .. h8 as `X` (Black), `O` (White) or `-`,
    /// a space, and the side to move `X` or `O` (either case).
    pub fn from_text(text: &str) -> Result<Othello, String> {
        let quoted = quote(text.trim());
        let words: Vec<&str> = text.split_whitespace().collect();
        let [squares, side] = words[..] else {
            return Err(format!("'{quoted}' is not an Othello position: expected 64 squares, a space, X or O"));
        };
        let (mut black, mut white, mut count) = (0u64, 0u64, 0usize);
        for ch in squares.chars() {
            if count == 64 {
                return Err(format!("'{quoted}' has more than 64 squares"));
            }
            match ch {
                'X' | 'x' => black |= 1 << count,
                'O' | 'o' => white |= 1 << count,
                '-' | '.' => {}
                other => {
                    let square = square_name(count as u8);
                    return Err(format!("'{}' at {square} is not X, O or -", quote(&other.to_string())));
                }
            }
            count += 1;
        }
        if count != 64 {
            return Err(format!("'{quoted}' has {count} squares, expected 64"));
        }
        let side = match side {
            "X" | "x" => Side::First,
            "O" | "o" => Side::Second,
            other => return Err(format!("side to move '{}' is not X or O", quote(other))),
        };
        Othello::from_discs(black, white, side)
    }

    /// The position in [`Othello::from_text`] form.
    pub fn to_text(&self) -> String {
        let mut text: String = (0..64)
            .map(|square| match self.disc_at(square) {
                Some(Side::First) => 'X',
                Some(Side::Second) => 'O',
                None => '-',
            })
            .collect();
        text.push_str(if self.side == Side::First { " X" } else { " O" });
        text
    }

    pub fn discs(&self, side: Side) -> Bitboard {
        self.discs[index(side)]
    }

    pub fn disc_at(&self, square: u8) -> Option<Side> {
        let bit = 1u64.checked_shl(u32::from(square))?;
        [Side::First, Side::Second].into_iter().find(|&side| self.discs(side) & bit != 0)
    }

    /// The squares where `side` could put a disc now (whoever is to move).
    pub fn legal_squares(&self, side: Side) -> Bitboard {
        legal_squares(self.discs(side), self.discs(side.other()))
    }

    /// True when neither side can put a disc: the game is over.
    pub fn is_finished(&self) -> bool {
        self.legal_squares(self.side) == 0 && self.legal_squares(self.side.other()) == 0
    }

    /// The hash computed from the discs and the side to move.
    pub fn hash_from_scratch(&self) -> u64 {
        let side = if self.side == Side::Second { 0x5EC0_4D00_0000_0001 } else { 0 };
        mix(self.discs[0] ^ 0x9E37_79B9_7F4A_7C15) ^ mix(self.discs[1].rotate_left(32) ^ 0xD1B5_4A32_D192_ED03) ^ side
    }

    /// The moves made so far, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = OthelloMove> + '_ {
        self.history.iter().map(|undo| undo.mv)
    }
}

impl Game for Othello {
    type Move = OthelloMove;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<OthelloMove>) {
        let squares = self.legal_squares(self.side);
        if squares != 0 {
            moves.extend(squares_of(squares).map(OthelloMove::Place));
        } else if self.legal_squares(self.side.other()) != 0 {
            moves.push(OthelloMove::Pass);
        }
    }

    fn make_move(&mut self, mv: OthelloMove) {
        let (us, them) = (index(self.side), index(self.side.other()));
        let flipped = match mv {
            OthelloMove::Place(square) => {
                let flipped = flips(square, self.discs[us], self.discs[them]);
                assert!(
                    flipped != 0 && (self.discs[0] | self.discs[1]) & (1 << square) == 0,
                    "make_move: {mv} is illegal"
                );
                self.discs[us] |= flipped | 1 << square;
                self.discs[them] ^= flipped;
                flipped
            }
            OthelloMove::Pass => 0,
        };
        self.history.push(Undo { mv, flipped, hash: self.hash });
        self.side = self.side.other();
        self.hash = self.hash_from_scratch();
    }

    fn unmake_move(&mut self) {
        let Undo { mv, flipped, hash } = self.history.pop().expect("unmake_move: no move to take back");
        self.side = self.side.other();
        if let OthelloMove::Place(square) = mv {
            let (us, them) = (index(self.side), index(self.side.other()));
            self.discs[us] &= !(flipped | 1 << square);
            self.discs[them] |= flipped;
        }
        self.hash = hash;
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_finished() {
            return None;
        }
        let (black, white) = (self.discs[0].count_ones(), self.discs[1].count_ones());
        Some(match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> Score {
        DEFAULT_WEIGHTS.score(self)
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_text(&self, mv: OthelloMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<OthelloMove, String> {
        let mv = parse_move_text(text)?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        let side = if self.side == Side::First { "Black" } else { "White" };
        Err(match mv {
            _ if legal.is_empty() => "the game is over: no move is legal".to_string(),
            OthelloMove::Pass => format!("{side} has a move, so may not pass"),
            OthelloMove::Place(_) if legal == [OthelloMove::Pass] => format!("{side} has no move and must pass"),
            OthelloMove::Place(square) if self.disc_at(square).is_some() => format!("{mv} is not empty"),
            OthelloMove::Place(_) => format!("{mv} turns over no disc of the opponent"),
        })
    }
}

impl crate::games::RegisteredGame for Othello {
    const ID: &'static str = "othello";
    const NAME: &'static str = "Othello";
    const SIDES: [&'static str; 2] = ["Black", "White"];
    const DEFAULT_POSITION: &'static str = START_TEXT;
    const POSITION_HELP: &'static str =
        "64 squares a1, b1 .. h8: X Black, O White, - empty; a space, then X or O to move. Moves: d3, pass.";
    const DEFAULT_DEPTH: u32 = 4;
    const MAX_DEPTH: u32 = 6;
    const MAX_FULL_WIDTH_DEPTH: u32 = 4;

    fn parse_position(text: &str) -> Result<Self, String> {
        Othello::from_text(text)
    }

    fn position_text(&self) -> String {
        self.to_text()
    }

    /// 64 squares, a space, the side to move.
    fn looks_like(text: &str) -> bool {
        matches!(text.split_whitespace().collect::<Vec<_>>()[..], [squares, _] if squares.chars().count() == 64)
    }

    /// The published counts: a pass is a move, a finished game a leaf.
    fn perft(&mut self, depth: usize) -> u64 {
        perft(self, depth)
    }
}

