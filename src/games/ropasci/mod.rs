//! RoPaSci 360 (COMP30024, University of Melbourne, 2021): a simultaneous-move game on 61 hexes.
//! Upper (`First`) and Lower (`Second`) each throw up to 9 rock, paper or scissors tokens onto the
//! board, slide and swing them, and battle by landing on the same hex. Rules, sources and their
//! differences: `spec/ropasci360-rules.md` (the course referee is the authority).
//!
//! Text forms are in [`notation`]: actions `THROW r 4,-2`, `SLIDE 4,-2 3,-2`, `SWING 4,-2 2,-1`;
//! positions `R@4,-2 s@-3,1 / 1 1 / 1` (tokens / throws made by Upper and Lower / turns played).

pub mod board;
pub mod notation;

use board::{HEXES, Hex, NEIGHBOURS, hexes_of, throw_zone};

use super::simultaneous::{SimultaneousGame, side_index};
use super::{Outcome, Side};

/// Tokens each player may throw in a game.
pub const MAX_THROWS: u8 = 9;
/// The game is drawn after this many turns.
pub const MAX_TURNS: u16 = 360;

/// A token's symbol. Rock defeats scissors, scissors paper, paper rock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    Rock,
    Paper,
    Scissors,
}

impl Symbol {
    pub const ALL: [Symbol; 3] = [Symbol::Rock, Symbol::Paper, Symbol::Scissors];

    /// The symbol this one defeats.
    pub fn defeats(self) -> Symbol {
        Self::ALL[(self as usize + 2) % 3]
    }

    /// The symbol that defeats this one.
    pub fn defeated_by(self) -> Symbol {
        Self::ALL[(self as usize + 1) % 3]
    }
}

/// One player's action; a slide or swing moves one of the player's tokens on `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Throw { symbol: Symbol, to: Hex },
    Slide { from: Hex, to: Hex },
    Swing { from: Hex, to: Hex },
}

impl Action {
    fn destination(self) -> Hex {
        match self {
            Action::Throw { to, .. } | Action::Slide { to, .. } | Action::Swing { to, .. } => to,
        }
    }
}

/// Why a game ended, in the order the rules check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A player has no throws left and no tokens.
    Elimination,
    BothInvincible,
    /// An invincible token against a lone token with no throws behind it.
    InvincibleAgainstLone,
    /// The position occurred for the third time.
    Repetition,
    TurnLimit,
}

/// A position with its repetition history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoPaSci {
    /// `tokens[hex][player][symbol]`: how many tokens of the player with the symbol stand on the hex.
    tokens: [[[u8; 3]; 2]; HEXES],
    throws: [u8; 2],
    turns: u16,
    /// Keys of the positions reached, this one last.
    seen: Vec<u64>,
    end: Option<(Outcome, Ending)>,
}

impl Default for RoPaSci {
    fn default() -> Self {
        Self::new()
    }
}

/// splitmix64: the repetition key's mixing of one hex's tokens.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RoPaSci {
    /// The empty board before the first turn.
    pub fn new() -> Self {
        Self::from_parts([[[0; 3]; 2]; HEXES], [0; 2], 0)
    }

    /// A position with no history behind it; it counts as its own first occurrence.
    fn from_parts(tokens: [[[u8; 3]; 2]; HEXES], throws: [u8; 2], turns: u16) -> Self {
        let mut game = Self { tokens, throws, turns, seen: Vec::new(), end: None };
        game.seen.push(game.key());
        game.end = game.ending();
        game
    }

    /// How many of `side`'s tokens with `symbol` stand on `hex`.
    pub fn count(&self, hex: Hex, side: Side, symbol: Symbol) -> u8 {
        self.tokens[hex as usize][side_index(side)][symbol as usize]
    }

    /// Throws `side` has made.
    pub fn throws(&self, side: Side) -> u8 {
        self.throws[side_index(side)]
    }

    pub fn turns(&self) -> u16 {
        self.turns
    }

    /// The result and its reason once the game is over.
    pub fn end(&self) -> Option<(Outcome, Ending)> {
        self.end
    }

    /// The symbol of `player`'s tokens on `hex`, if it has any there (after battles a hex holds one symbol).
    fn symbol_on(&self, hex: Hex, player: usize) -> Option<Symbol> {
        let counts = self.tokens[hex as usize][player];
        Symbol::ALL.into_iter().find(|&s| counts[s as usize] > 0)
    }

    fn occupied(&self, player: usize) -> u64 {
        (0..HEXES).filter(|&h| self.tokens[h][player].iter().any(|&c| c > 0)).fold(0, |mask, h| mask | 1 << h)
    }

    /// A key of the tokens on every hex and the throws made: what repetition compares.
    fn key(&self) -> u64 {
        let mut key = mix(u64::from(self.throws[0]) << 8 | u64::from(self.throws[1]));
        for (hex, players) in self.tokens.iter().enumerate() {
            for (player, counts) in players.iter().enumerate() {
                for (symbol, &count) in counts.iter().enumerate() {
                    if count > 0 {
                        let slot = (hex * 6 + player * 3 + symbol) as u64;
                        key ^= mix(slot << 8 | u64::from(count));
                    }
                }
            }
        }
        key
    }

    /// Resolves a battle on `hex`: two symbols lose the defeated one's tokens, three lose all.
    fn battle(&mut self, hex: Hex) {
        let cell = &mut self.tokens[hex as usize];
        let present = Symbol::ALL
            .into_iter()
            .filter(|&s| cell[0][s as usize] + cell[1][s as usize] > 0)
            .fold(0u8, |mask, s| mask | 1 << s as u8);
        let beaten = match present.count_ones() {
            3 => present,
            2 => {
                Symbol::ALL
                    .into_iter()
                    .filter(|&s| present & 1 << s as u8 != 0)
                    .fold(0, |m, s| m | 1 << s.defeats() as u8)
                    & present
            }
            _ => 0,
        };
        for symbol in Symbol::ALL.into_iter().filter(|&s| beaten & 1 << s as u8 != 0) {
            cell[0][symbol as usize] = 0;
            cell[1][symbol as usize] = 0;
        }
    }

    /// The end condition that applies now, checked in the rules' order.
    fn ending(&self) -> Option<(Outcome, Ending)> {
        let mut by_symbol = [[0u32; 3]; 2];
        for players in &self.tokens {
            for (player, counts) in players.iter().enumerate() {
                for (symbol, &count) in counts.iter().enumerate() {
                    by_symbol[player][symbol] += u32::from(count);
                }
            }
        }
        let total = by_symbol.map(|counts| counts.iter().sum::<u32>());
        let no_throws = self.throws.map(|t| t == MAX_THROWS);
        let winner = |player: usize| Outcome::Win(if player == 0 { Side::First } else { Side::Second });
        match [0, 1].map(|p| no_throws[p] && total[p] == 0) {
            [true, true] => return Some((Outcome::Draw, Ending::Elimination)),
            [true, false] => return Some((winner(1), Ending::Elimination)),
            [false, true] => return Some((winner(0), Ending::Elimination)),
            [false, false] => {}
        }
        let invincible = [0, 1].map(|p| {
            let other = 1 - p;
            no_throws[other]
                && Symbol::ALL
                    .iter()
                    .any(|&s| by_symbol[p][s as usize] > 0 && by_symbol[other][s.defeated_by() as usize] == 0)
        });
        if invincible[0] && invincible[1] {
            return Some((Outcome::Draw, Ending::BothInvincible));
        }
        if let Some(p) = (0..2).find(|&p| invincible[p] && no_throws[1 - p] && total[1 - p] == 1) {
            return Some((winner(p), Ending::InvincibleAgainstLone));
        }
        let now = self.seen.last().copied();
        if self.seen.iter().filter(|&&key| Some(key) == now).count() >= 3 {
            return Some((Outcome::Draw, Ending::Repetition));
        }
        (self.turns >= MAX_TURNS).then_some((Outcome::Draw, Ending::TurnLimit))
    }

    /// Tokens on the board plus throws left, for `player`.
    fn material(&self, player: usize) -> u32 {
        let on_board: u32 =
            self.tokens.iter().map(|cell| cell[player].iter().map(|&c| u32::from(c)).sum::<u32>()).sum();
        on_board + u32::from(MAX_THROWS - self.throws[player])
    }
}

impl SimultaneousGame for RoPaSci {
    type Action = Action;

    /// Throws (symbols rock, paper, scissors, hexes in number order), then each occupied hex's slides
    /// and swings; a swing reachable around two pivots is listed once.
    fn legal_actions(&self, side: Side, actions: &mut Vec<Action>) {
        if self.end.is_some() {
            return;
        }
        let player = side_index(side);
        if self.throws[player] < MAX_THROWS {
            let zone = throw_zone(player == 0, self.throws[player] + 1);
            for symbol in Symbol::ALL {
                actions.extend(hexes_of(zone).map(|to| Action::Throw { symbol, to }));
            }
        }
        let own = self.occupied(player);
        for from in hexes_of(own) {
            let near = NEIGHBOURS[from as usize];
            actions.extend(hexes_of(near).map(|to| Action::Slide { from, to }));
            let around_pivots = hexes_of(near & own).fold(0, |mask, pivot| mask | NEIGHBOURS[pivot as usize]);
            let swings = around_pivots & !near & !(1 << from);
            actions.extend(hexes_of(swings).map(|to| Action::Swing { from, to }));
        }
    }

    fn apply(&mut self, first: Action, second: Action) {
        // Both actions are read against the position before either is applied.
        let symbols = [(0, first), (1, second)].map(|(player, action)| match action {
            Action::Throw { symbol, .. } => symbol,
            Action::Slide { from, .. } | Action::Swing { from, .. } => {
                self.symbol_on(from, player).expect("a slide or swing starts on an own token")
            }
        });
        for (player, action) in [first, second].into_iter().enumerate() {
            let symbol = symbols[player] as usize;
            match action {
                Action::Throw { .. } => self.throws[player] += 1,
                Action::Slide { from, .. } | Action::Swing { from, .. } => {
                    self.tokens[from as usize][player][symbol] -= 1
                }
            }
            self.tokens[action.destination() as usize][player][symbol] += 1;
        }
        self.battle(first.destination());
        if second.destination() != first.destination() {
            self.battle(second.destination());
        }
        self.turns += 1;
        let key = self.key();
        self.seen.push(key);
        self.end = self.ending();
    }

    fn is_terminal(&self) -> bool {
        self.end.is_some()
    }

    fn payoffs(&self) -> [f64; 2] {
        match self.end {
            Some((Outcome::Win(Side::First), _)) => [1.0, -1.0],
            Some((Outcome::Win(Side::Second), _)) => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }

    /// The material lead (tokens plus throws left), a tenth per token: at most 0.9, below a win.
    fn estimate(&self) -> [f64; 2] {
        let lead = (f64::from(self.material(0)) - f64::from(self.material(1))) / 10.0;
        [lead, -lead]
    }

    fn action_text(&self, _side: Side, action: Action) -> String {
        action.to_string()
    }

    fn parse_action(&self, side: Side, text: &str) -> Result<Action, String> {
        let action: Action = text.parse()?;
        let mut legal = Vec::new();
        self.legal_actions(side, &mut legal);
        if legal.contains(&action) {
            Ok(action)
        } else {
            Err(format!("{action} is not legal for {} here", notation::side_name(side)))
        }
    }
}
