//! Text forms of RoPaSci 360: hexes `r,q`, actions (`THROW r 4,-2`, `SLIDE 4,-2 3,-2`,
//! `SWING 4,-2 2,-1`, as the course's action tuples) and positions
//! `<tokens> / <throws by Upper> <throws by Lower> / <turns>`, tokens `X@r,q` (`RPS` Upper's,
//! `rps` Lower's) sorted by row from the top, then q, Upper first; `-` for an empty board.

use std::fmt;
use std::str::FromStr;

use super::board::{Coord, HEXES, Hex, coord, hex_at};
use super::{Action, MAX_THROWS, MAX_TURNS, RoPaSci, Symbol};
use crate::games::Side;
use crate::text::quote;

pub const START_POSITION: &str = "- / 0 0 / 0";

pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Upper",
        Side::Second => "Lower",
    }
}

pub fn hex_name(hex: Hex) -> String {
    let c = coord(hex);
    format!("{},{}", c.r, c.q)
}

/// `4,-2` → the hex's number.
pub fn parse_hex(text: &str) -> Result<Hex, String> {
    let quoted = quote(text);
    let (r, q) = text.split_once(',').ok_or_else(|| format!("'{quoted}' is not a hex like 4,-2"))?;
    let number = |part: &str| part.trim().parse::<i8>().ok();
    let (Some(r), Some(q)) = (number(r), number(q)) else {
        return Err(format!("'{quoted}' is not a hex like 4,-2"));
    };
    hex_at(Coord { r, q }).ok_or_else(|| format!("hex {r},{q} is off the board (|r|, |q|, |r+q| <= 4)"))
}

fn symbol_letter(symbol: Symbol) -> char {
    match symbol {
        Symbol::Rock => 'r',
        Symbol::Paper => 'p',
        Symbol::Scissors => 's',
    }
}

fn parse_symbol(letter: char) -> Option<Symbol> {
    Symbol::ALL.into_iter().find(|&s| symbol_letter(s) == letter)
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Throw { symbol, to } => write!(f, "THROW {} {}", symbol_letter(symbol), hex_name(to)),
            Action::Slide { from, to } => write!(f, "SLIDE {} {}", hex_name(from), hex_name(to)),
            Action::Swing { from, to } => write!(f, "SWING {} {}", hex_name(from), hex_name(to)),
        }
    }
}

impl FromStr for Action {
    type Err = String;

    /// The kind in any case; the throw's symbol `r`, `p` or `s`. Only the form is checked here:
    /// whether the move is legal is the position's question.
    fn from_str(text: &str) -> Result<Action, String> {
        let quoted = quote(text);
        let words: Vec<&str> = text.split_whitespace().collect();
        let [kind, first, second] = words[..] else {
            return Err(format!("'{quoted}' is not an action like THROW r 4,-2, SLIDE 4,-2 3,-2 or SWING 4,-2 2,-1"));
        };
        let describe = |error: String| format!("'{quoted}': {error}");
        let to = parse_hex(second).map_err(describe)?;
        match kind.to_ascii_uppercase().as_str() {
            "THROW" => {
                let symbol = match first.chars().collect::<Vec<_>>()[..] {
                    [letter] => parse_symbol(letter.to_ascii_lowercase()),
                    _ => None,
                };
                let symbol = symbol.ok_or_else(|| describe(format!("'{}' is not a symbol r, p or s", quote(first))))?;
                Ok(Action::Throw { symbol, to })
            }
            "SLIDE" => Ok(Action::Slide { from: parse_hex(first).map_err(describe)?, to }),
            "SWING" => Ok(Action::Swing { from: parse_hex(first).map_err(describe)?, to }),
            _ => Err(describe(format!("'{}' is not THROW, SLIDE or SWING", quote(kind)))),
        }
    }
}

impl RoPaSci {
    /// The position in the notation of the module notes (without the repetition history).
    pub fn position_text(&self) -> String {
        let mut items = Vec::new();
        for hex in 0..HEXES as Hex {
            for side in [Side::First, Side::Second] {
                for symbol in Symbol::ALL {
                    let lower = symbol_letter(symbol);
                    let letter = if side == Side::First { lower.to_ascii_uppercase() } else { lower };
                    for _ in 0..self.count(hex, side, symbol) {
                        items.push(format!("{letter}@{}", hex_name(hex)));
                    }
                }
            }
        }
        let tokens = if items.is_empty() { "-".to_string() } else { items.join(" ") };
        format!("{tokens} / {} {} / {}", self.throws(Side::First), self.throws(Side::Second), self.turns())
    }

    /// Parses a position; it starts a history of its own (its first occurrence), and the game is
    /// over at once when an end condition other than repetition holds.
    pub fn from_position(text: &str) -> Result<Self, String> {
        let quoted = quote(text);
        let parts: Vec<&str> = text.split('/').map(str::trim).collect();
        let [tokens_text, throws_text, turns_text] = parts[..] else {
            return Err(format!("'{quoted}' is not a position like 'R@4,-2 s@-4,2 / 1 1 / 1'"));
        };
        let throws: Vec<u8> = throws_text.split_whitespace().filter_map(|t| t.parse().ok()).collect();
        let throws = match throws[..] {
            [upper, lower] if upper <= MAX_THROWS && lower <= MAX_THROWS => [upper, lower],
            _ => return Err(format!("'{}' is not two throw counts 0-{MAX_THROWS}", quote(throws_text))),
        };
        let turns = turns_text
            .parse::<u16>()
            .ok()
            .filter(|&t| t <= MAX_TURNS && t >= u16::from(throws[0].max(throws[1])))
            .ok_or_else(|| {
                format!("'{}' is not a turn count from the throws made to {MAX_TURNS}", quote(turns_text))
            })?;
        let mut tokens = [[[0u8; 3]; 2]; HEXES];
        if tokens_text != "-" {
            for item in tokens_text.split_whitespace() {
                let (letter, hex) = parse_token(item)?;
                let player = usize::from(letter.is_ascii_lowercase());
                let symbol = parse_symbol(letter.to_ascii_lowercase()).expect("parse_token checked the letter");
                tokens[hex as usize][player][symbol as usize] += 1;
            }
        }
        for (hex, cell) in tokens.iter().enumerate() {
            let symbols = Symbol::ALL.iter().filter(|&&s| cell[0][s as usize] + cell[1][s as usize] > 0).count();
            if symbols > 1 {
                return Err(format!(
                    "hex {} holds tokens of {symbols} symbols; a battle leaves one",
                    hex_name(hex as Hex)
                ));
            }
        }
        for (player, side) in [Side::First, Side::Second].into_iter().enumerate() {
            let on_board: u32 = tokens.iter().map(|cell| cell[player].iter().map(|&c| u32::from(c)).sum::<u32>()).sum();
            if on_board > u32::from(throws[player]) {
                return Err(format!("{} has {on_board} tokens but made {} throws", side_name(side), throws[player]));
            }
        }
        Ok(Self::from_parts(tokens, throws, turns))
    }
}

/// `R@4,-2` → the letter and the hex.
fn parse_token(item: &str) -> Result<(char, Hex), String> {
    let quoted = quote(item);
    let (letter, hex) = item.split_once('@').ok_or_else(|| format!("'{quoted}' is not a token like R@4,-2"))?;
    match letter.chars().collect::<Vec<_>>()[..] {
        [c] if "RPSrps".contains(c) => Ok((c, parse_hex(hex).map_err(|e| format!("'{quoted}': {e}"))?)),
        _ => Err(format!("'{quoted}': '{}' is not one of R P S r p s", quote(letter))),
    }
}
