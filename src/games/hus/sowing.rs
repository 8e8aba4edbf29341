//! One Hus move: sowing rounds, relays and captures (spec "Playing a move").

use super::{INNER, PITS, Pits};

/// A move may use at most this many sowing rounds (the framework's `MAX_TURN_LENGTH`).
pub const MAX_ROUNDS: u32 = 200;

/// How a move ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sown {
    /// The last seed of a round fell into an empty pit.
    Ended,
    /// The 200th round ended in an occupied pit: the framework stops the move (and cancels the game).
    Cancelled,
}

/// Plays a move from `start` (a pit of `own` with 2 or more seeds) on the mover's pits `own`,
/// capturing from `opponent` when `captures` is true.
#[inline]
pub fn sow(own: &mut Pits, opponent: &mut Pits, start: usize, captures: bool) -> Sown {
    sow_watched(own, opponent, start, captures, |_, _| {})
}

/// [`sow`], calling `step` with both players' pits after each seed dropped and each pick-up (the
/// play page animates a move with it; the engine's no-op compiles away).
pub fn sow_watched(
    own: &mut Pits,
    opponent: &mut Pits,
    start: usize,
    captures: bool,
    mut step: impl FnMut(&Pits, &Pits),
) -> Sown {
    let mut hand = std::mem::take(&mut own[start]);
    let mut pit = start;
    for _ in 0..MAX_ROUNDS {
        for _ in 0..hand {
            pit = (pit + 1) % PITS;
            own[pit] += 1;
            step(own, opponent);
        }
        if own[pit] == 1 {
            return Sown::Ended;
        }
        // The opponent's inner pit facing `pit`, and their outer pit behind it.
        let (facing, behind) = (3 * INNER - 1 - pit, pit.wrapping_sub(INNER));
        hand = if captures && pit >= INNER && opponent[facing] > 0 {
            std::mem::take(&mut opponent[facing]) + std::mem::take(&mut opponent[behind])
        } else {
            std::mem::take(&mut own[pit])
        };
        step(own, opponent);
    }
    Sown::Cancelled
}
