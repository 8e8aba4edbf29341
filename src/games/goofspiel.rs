//! Goofspiel with N cards: each player holds the cards 1..=N, and N prize cards 1..=N are
//! contested one per round. Both bid a card from their hand at once; the higher bid wins the prize's
//! points (equal bids: nobody scores), and both bids are discarded. After N rounds the player with
//! more points wins.
//!
//! The prizes come in a fixed, known order, N down to 1 (the deterministic variant; the card game
//! shuffles them, which would add chance). Payoffs: win 1, draw 0, loss -1.

use super::Side;
use super::simultaneous::{SimultaneousGame, side_index};
use crate::text::quote;

/// Most cards a hand holds (bit masks of `u16`).
pub const MAX_CARDS: u8 = 15;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goofspiel {
    cards: u8,
    /// Bit `c - 1` set: the player still holds card `c`.
    hands: [u16; 2],
    points: [u32; 2],
    rounds_played: u8,
}

impl Goofspiel {
    pub fn new(cards: u8) -> Result<Self, String> {
        if !(1..=MAX_CARDS).contains(&cards) {
            return Err(format!("Goofspiel needs 1 to {MAX_CARDS} cards, not {cards}"));
        }
        let full = (1u16 << cards) - 1;
        Ok(Self { cards, hands: [full; 2], points: [0; 2], rounds_played: 0 })
    }

    /// The prize contested this round.
    pub fn prize(&self) -> u8 {
        self.cards - self.rounds_played
    }

    pub fn points(&self) -> [u32; 2] {
        self.points
    }
}

impl SimultaneousGame for Goofspiel {
    /// The card bid, 1..=N.
    type Action = u8;

    fn legal_actions(&self, side: Side, actions: &mut Vec<u8>) {
        let hand = self.hands[side_index(side)];
        actions.extend((1..=self.cards).filter(|&c| hand & (1 << (c - 1)) != 0));
    }

    fn apply(&mut self, first: u8, second: u8) {
        let prize = u32::from(self.prize());
        self.hands[0] &= !(1 << (first - 1));
        self.hands[1] &= !(1 << (second - 1));
        if first > second {
            self.points[0] += prize;
        } else if second > first {
            self.points[1] += prize;
        }
        self.rounds_played += 1;
    }

    fn is_terminal(&self) -> bool {
        self.rounds_played == self.cards
    }

    fn payoffs(&self) -> [f64; 2] {
        let first = match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.0,
            std::cmp::Ordering::Less => -1.0,
        };
        [first, -first]
    }

    /// The share of the points still to win that the leader is ahead by, scaled below a sure win.
    fn estimate(&self) -> [f64; 2] {
        let total = u32::from(self.cards) * (u32::from(self.cards) + 1) / 2;
        let lead = f64::from(self.points[0]) - f64::from(self.points[1]);
        let first = 0.9 * lead / f64::from(total);
        [first, -first]
    }

    fn action_text(&self, _side: Side, action: u8) -> String {
        action.to_string()
    }

    fn parse_action(&self, side: Side, text: &str) -> Result<u8, String> {
        let card: u8 = text.trim().parse().map_err(|_| format!("'{}' is not a card number", quote(text)))?;
        let mut held = Vec::new();
        self.legal_actions(side, &mut held);
        if held.contains(&card) { Ok(card) } else { Err(format!("card {card} is not in the hand")) }
    }
}
