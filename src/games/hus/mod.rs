//! Hus, the mancala game of McGill's COMP 424 project, exactly per `../shared/spec/hus-rules.md`
//! (the course framework's `HusBoardState` is the rule): 2 x 32 pits, relay sowing, captures
//! from the second full turn on, the win when the player to move has no pit of 2 or more seeds,
//! the draw after turn 5000, and the 200-round cap on one move.
//!
//! Player 0 is [`Side::First`] and moves first. A move is the number (0..32) of one of the mover's
//! own pits; pits are numbered from the owner's seat, 0..16 the outer row left to right, 16..32
//! the inner row right to left, so sowing always steps from pit `i` to `i + 1 mod 32`.

pub mod eval;
mod notation;
mod sowing;

pub use eval::{DEFAULT_WEIGHTS, Weights, breakdown};
pub use notation::START_TEXT;
pub use sowing::MAX_ROUNDS;
use sowing::{Sown, sow, sow_watched};

use super::{Game, Outcome, Score, Side};

/// Pits per player: an outer and an inner row of 16.
pub const PITS: usize = 32;
/// The first pit of the inner row.
pub const INNER: usize = 16;
/// Seeds on the board, always.
pub const SEEDS: u32 = 96;
/// Once the turn number (moves completed by player 1) exceeds this, the game is drawn.
pub const LAST_TURN: u32 = 5000;

/// One player's pits, in pit order.
pub type Pits = [u8; PITS];

/// What `unmake_move` needs: the whole board is 64 bytes, cheaper to copy than to unsow.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Undo {
    pit: u8,
    pits: [Pits; 2],
    turn: u32,
    hash: u64,
}

/// A Hus game: both players' pits, the side to move, the turn number and the moves so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hus {
    /// `pits[0]` player 0's, `pits[1]` player 1's.
    pits: [Pits; 2],
    side: Side,
    /// Moves completed by player 1: captures are refused while it is 0.
    turn: u32,
    /// The player whose move needed more than [`MAX_ROUNDS`] sowing rounds: the framework
    /// cancels the game there, which this engine scores as that player's loss.
    cancelled_by: Option<Side>,
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

/// splitmix64: spreads every input bit over the whole word.
const fn mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Default for Hus {
    fn default() -> Self {
        Hus::start()
    }
}

impl Hus {
    /// Pits 0..24 of both players hold 2 seeds, the rest none; player 0 to move, turn 0.
    pub fn start() -> Hus {
        let mut pits = [0; PITS];
        pits[..24].fill(2);
        Hus::from_parts([pits, pits], Side::First, 0)
    }

    /// A game whose history begins at this position (the caller checks the seed count).
    fn from_parts(pits: [Pits; 2], side: Side, turn: u32) -> Hus {
        let mut game = Hus { pits, side, turn, cancelled_by: None, hash: 0, history: Vec::new() };
        game.hash = game.hash_from_scratch();
        game
    }

    /// A player's pits, in pit order.
    pub fn pits(&self, side: Side) -> &Pits {
        &self.pits[index(side)]
    }

    /// Moves completed by player 1 so far (the framework's turn number).
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    /// False during each player's first move, when captures are refused.
    pub fn captures_allowed(&self) -> bool {
        self.turn > 0
    }

    /// The player whose last move hit the sowing-round cap, if any.
    pub fn cancelled_by(&self) -> Option<Side> {
        self.cancelled_by
    }

    /// How many of `side`'s pits hold 2 or more seeds (its legal moves, when it is to move).
    pub fn playable_pits(&self, side: Side) -> u32 {
        self.pits(side).iter().filter(|&&seeds| seeds >= 2).count() as u32
    }

    /// The hash computed from the pits, the side to move and the turn number.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = mix(u64::from(self.turn) << 1 | (self.side == Side::Second) as u64);
        for (i, chunk) in self.pits.as_flattened().chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            hash = mix(hash ^ word ^ (i as u64) << 56);
        }
        hash
    }

    /// The pits of both players after each seed dropped and each pick-up of the move from `pit`
    /// (legal here), the position before it first: the move step by step, for an animation.
    pub fn sowing_steps(&self, pit: u8) -> Vec<[Pits; 2]> {
        let mover = index(self.side);
        let mut pair = if mover == 0 { self.pits } else { [self.pits[1], self.pits[0]] };
        let [own, opponent] = &mut pair;
        let mut steps = vec![self.pits];
        sow_watched(own, opponent, pit as usize, self.turn > 0, |own, opponent| {
            steps.push(if mover == 0 { [*own, *opponent] } else { [*opponent, *own] });
        });
        steps
    }

    /// The moves made so far (pit numbers), oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = u8> + '_ {
        self.history.iter().map(|undo| undo.pit)
    }
}

impl Game for Hus {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        let own = self.pits(self.side);
        moves.extend((0..PITS as u8).filter(|&pit| own[pit as usize] >= 2));
    }

    /// Plays the move; one that hits the round cap ends the game, and the turn still passes so that
    /// plies alternate as the searches expect (the framework leaves the mover on turn).
    fn make_move(&mut self, pit: u8) {
        let legal = self.pits(self.side).get(pit as usize).is_some_and(|&seeds| seeds >= 2);
        assert!(legal, "make_move: pit {pit} is illegal");
        self.history.push(Undo { pit, pits: self.pits, turn: self.turn, hash: self.hash });
        let [first, second] = &mut self.pits;
        let (own, opponent) = if self.side == Side::First { (first, second) } else { (second, first) };
        match sow(own, opponent, pit as usize, self.turn > 0) {
            Sown::Ended => {
                if self.side == Side::Second {
                    self.turn += 1;
                }
            }
            Sown::Cancelled => self.cancelled_by = Some(self.side),
        }
        self.side = self.side.other();
        self.hash = self.hash_from_scratch();
    }

    fn unmake_move(&mut self) {
        let Undo { pits, turn, hash, .. } = self.history.pop().expect("unmake_move: no move to take back");
        self.pits = pits;
        self.turn = turn;
        self.hash = hash;
        self.side = self.side.other();
        self.cancelled_by = None;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.cancelled_by {
            return Some(Outcome::Win(side.other()));
        }
        if self.playable_pits(self.side) == 0 {
            return Some(Outcome::Win(self.side.other()));
        }
        (self.turn > LAST_TURN).then_some(Outcome::Draw)
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

    fn move_text(&self, pit: u8) -> String {
        pit.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let quoted = crate::text::quote(text.trim());
        let pit = match text.trim().parse::<u8>() {
            Ok(pit) if (pit as usize) < PITS => pit,
            _ => return Err(format!("'{quoted}' is not a pit: use a pit number 0..31")),
        };
        if let Some(outcome) = self.outcome() {
            return Err(format!("the game is over ({outcome:?}): no move is legal"));
        }
        match self.pits(self.side)[pit as usize] {
            seeds @ 0..=1 => Err(format!("pit {pit} holds {seeds} seed(s); a move needs at least 2")),
            _ => Ok(pit),
        }
    }
}

impl crate::games::RegisteredGame for Hus {
    const ID: &'static str = "hus";
    const NAME: &'static str = "Hus";
    const SIDES: [&'static str; 2] = ["Player 0", "Player 1"];
    const DEFAULT_POSITION: &'static str = START_TEXT;
    const POSITION_HELP: &'static str = "Player 0's 32 pit counts, '/', player 1's, comma-separated in pit \
         order; then the side to move 0 or 1 and the turn. Moves: a pit number 0..31.";
    const DEFAULT_DEPTH: u32 = 3;
    const MAX_DEPTH: u32 = 5;
    const MAX_FULL_WIDTH_DEPTH: u32 = 3;
    // Random Hus games run long: playouts are scored by the evaluation after a few turns.
    const PLAYOUT_CUTOFF: Option<u32> = Some(40);

    fn parse_position(text: &str) -> Result<Self, String> {
        Hus::from_text(text)
    }

    fn position_text(&self) -> String {
        self.to_text()
    }

    /// Pit counts separated by commas.
    fn looks_like(text: &str) -> bool {
        text.contains(',')
    }
}

