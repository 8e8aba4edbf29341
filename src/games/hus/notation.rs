//! The position text: `<32 counts of player 0>/<32 counts of player 1> <side to move> <turn>`,
//! counts comma-separated in pit order, the side `0` or `1`.

use super::{Hus, PITS, Pits, SEEDS, Side};
use crate::text::quote;

pub const START_TEXT: &str = "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0/\
                              2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0 0 0";

/// One player's 32 comma-separated counts.
fn parse_pits(text: &str, player: usize) -> Result<Pits, String> {
    let counts: Vec<&str> = text.split(',').collect();
    if counts.len() != PITS {
        return Err(format!("player {player} has {} pits, expected {PITS}", counts.len()));
    }
    let mut pits = [0; PITS];
    for (pit, count) in counts.iter().enumerate() {
        pits[pit] = match count.parse::<u32>() {
            Ok(seeds) if seeds <= SEEDS => seeds as u8,
            _ => return Err(format!("player {player} pit {pit}: '{}' is not a seed count 0..96", quote(count))),
        };
    }
    Ok(pits)
}

impl Hus {
    /// Parses the position text (see the module notes). The pits must hold 96 seeds in all.
    pub fn from_text(text: &str) -> Result<Hus, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [board, side, turn] = words[..] else {
            return Err(format!(
                "'{}' is not a Hus position: expected <32 counts>/<32 counts> <side 0 or 1> <turn number>",
                quote(text.trim())
            ));
        };
        let Some((first, second)) = board.split_once('/') else {
            return Err(format!("'{}' does not separate the players' pits with '/'", quote(board)));
        };
        let pits = [parse_pits(first, 0)?, parse_pits(second, 1)?];
        let total: u32 = pits.as_flattened().iter().map(|&seeds| u32::from(seeds)).sum();
        if total != SEEDS {
            return Err(format!("the pits hold {total} seeds; a Hus board always holds {SEEDS}"));
        }
        let side = match side {
            "0" => Side::First,
            "1" => Side::Second,
            other => return Err(format!("side to move '{}' is not 0 or 1", quote(other))),
        };
        let turn = turn.parse::<u32>().map_err(|_| format!("turn number '{}' is not a count", quote(turn)))?;
        Ok(Hus::from_parts(pits, side, turn))
    }

    /// The position in [`Hus::from_text`] form (a cancellation is part of the history, not the text).
    pub fn to_text(&self) -> String {
        let counts = |pits: &Pits| pits.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let side = if self.side == Side::First { 0 } else { 1 };
        format!("{}/{} {side} {}", counts(&self.pits[0]), counts(&self.pits[1]), self.turn)
    }
}
