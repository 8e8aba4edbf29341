//! Zobrist keys: one random 64-bit key per (side, animal, square) and one for Black to move;
//! a position's hash is the XOR of the keys that apply, so a move updates it with three XORs.

use super::board::SQUARES;

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_piece_keys() -> [[[u64; SQUARES]; 3]; 2] {
    let mut keys = [[[0; SQUARES]; 3]; 2];
    let mut n = 0;
    while n < 2 * 3 * SQUARES {
        keys[n / (3 * SQUARES)][n / SQUARES % 3][n % SQUARES] =
            splitmix64((n as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        n += 1;
    }
    keys
}

/// `PIECE_KEYS[side][animal][square]`.
pub static PIECE_KEYS: [[[u64; SQUARES]; 3]; 2] = build_piece_keys();
/// XORed in when the second player (Black) is to move.
pub const SECOND_TO_MOVE: u64 = splitmix64(0x5EC0_4D00);
