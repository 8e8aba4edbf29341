//! Bitboard operations: bit `row * 8 + column` is a square, column a..h = 0..7, row 1..8 = 0..7
//! (row 1 at the top, as in the rules booklet).

/// A set of squares.
pub type Bitboard = u64;

const NOT_COLUMN_A: Bitboard = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_COLUMN_H: Bitboard = 0x7F7F_7F7F_7F7F_7F7F;
pub const CORNERS: Bitboard = 1 | 1 << 7 | 1 << 56 | 1 << 63;

/// Every square one step in `direction` (0..8) from a square of `squares`, dropping those that
/// would leave the board (a shift across the a/h edge would wrap into the next row). Directions
/// `2k` and `2k + 1` are opposite, one axis each: east/west, south/north, south-east/north-west,
/// south-west/north-east.
#[inline]
pub fn shift(squares: Bitboard, direction: usize) -> Bitboard {
    match direction {
        0 => (squares << 1) & NOT_COLUMN_A,
        1 => (squares >> 1) & NOT_COLUMN_H,
        2 => squares << 8,
        3 => squares >> 8,
        4 => (squares << 9) & NOT_COLUMN_A,
        5 => (squares >> 9) & NOT_COLUMN_H,
        6 => (squares << 7) & NOT_COLUMN_H,
        _ => (squares >> 7) & NOT_COLUMN_A,
    }
}

/// The direction pointing the other way.
#[inline]
pub fn opposite(direction: usize) -> usize {
    direction ^ 1
}

/// The squares where `own` may put a disc: an empty square from which, in some direction, one
/// or more `opponent` discs are followed by an `own` disc.
pub fn legal_squares(own: Bitboard, opponent: Bitboard) -> Bitboard {
    let empty = !(own | opponent);
    let mut legal = 0;
    for direction in 0..8 {
        // Opponent runs of up to 6 discs touching an own disc, grown one step at a time.
        let mut run = shift(own, direction) & opponent;
        for _ in 0..5 {
            run |= shift(run, direction) & opponent;
        }
        legal |= shift(run, direction) & empty;
    }
    legal
}

/// The opponent discs that a disc of `own` put on `square` turns over.
pub fn flips(square: u8, own: Bitboard, opponent: Bitboard) -> Bitboard {
    let mut flipped = 0;
    for direction in 0..8 {
        let mut line = 0;
        let mut next = shift(1 << square, direction);
        while next & opponent != 0 {
            line |= next;
            next = shift(next, direction);
        }
        if next & own != 0 {
            flipped |= line;
        }
    }
    flipped
}

/// The squares of `occupied` from which every square in `direction` up to the edge is occupied.
fn filled_to_edge(occupied: Bitboard, direction: usize) -> Bitboard {
    let at_edge = !shift(!0, opposite(direction));
    let mut filled = occupied & at_edge;
    for _ in 0..7 {
        filled |= occupied & shift(filled, opposite(direction));
    }
    filled
}

/// The discs of `own` that can never be turned over, found the usual conservative way: along
/// each of the four axes a disc must sit on a full line, or next to the edge or a stable own disc
/// (then no run through it can be closed on that side). Grown from the corners to a fixpoint.
pub fn stable_discs(own: Bitboard, opponent: Bitboard) -> Bitboard {
    let occupied = own | opponent;
    let safe_by_axis: [Bitboard; 4] = std::array::from_fn(|axis| {
        let (forward, backward) = (2 * axis, 2 * axis + 1);
        let full = filled_to_edge(occupied, forward) & filled_to_edge(occupied, backward);
        full | !shift(!0, backward) | !shift(!0, forward)
    });
    let mut stable = 0;
    loop {
        let grown = (0..4).fold(own, |discs, axis| {
            let (forward, backward) = (2 * axis, 2 * axis + 1);
            discs & (safe_by_axis[axis] | shift(stable, forward) | shift(stable, backward))
        });
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The squares of a bitboard, lowest first.
pub fn squares_of(mut squares: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (squares != 0).then(|| {
            let square = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            square
        })
    })
}
