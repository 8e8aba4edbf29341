//! Bitboards over the 10×10 board: one `u128` bit per square (a1 = bit 0, b1 = bit 1, ..., j10 =
//! bit 99), with ray and neighbour tables built at compile time.

/// A set of squares.
pub type Bitboard = u128;

pub const SIZE: usize = 10;
pub const SQUARES: usize = SIZE * SIZE;

/// d4, g4, d7, g7.
pub const HOLES: Bitboard = bit(33) | bit(36) | bit(63) | bit(66);

#[inline]
pub const fn bit(square: usize) -> Bitboard {
    1 << square
}

/// The eight compass directions as (column step, row step). The first four increase the square
/// index, the last four decrease it: that decides which end of a ray meets the nearest blocker.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
pub const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
pub const DIAGONAL: [usize; 4] = [2, 3, 6, 7];
pub const EVERY_DIRECTION: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

const fn on_board(column: i32, row: i32) -> bool {
    column >= 0 && column < SIZE as i32 && row >= 0 && row < SIZE as i32
}

const fn build_rays() -> [[Bitboard; SQUARES]; 8] {
    let mut rays = [[0; SQUARES]; 8];
    let mut direction = 0;
    while direction < 8 {
        let (dc, dr) = DIRECTIONS[direction];
        let mut square = 0;
        while square < SQUARES {
            let (mut column, mut row) = ((square % SIZE) as i32 + dc, (square / SIZE) as i32 + dr);
            while on_board(column, row) {
                rays[direction][square] |= bit((row * SIZE as i32 + column) as usize);
                column += dc;
                row += dr;
            }
            square += 1;
        }
        direction += 1;
    }
    rays
}

const fn build_neighbours() -> [Bitboard; SQUARES] {
    let mut neighbours = [0; SQUARES];
    let mut square = 0;
    while square < SQUARES {
        let mut direction = 0;
        while direction < 8 {
            let (dc, dr) = DIRECTIONS[direction];
            let (column, row) = ((square % SIZE) as i32 + dc, (square / SIZE) as i32 + dr);
            if on_board(column, row) {
                neighbours[square] |= bit((row * SIZE as i32 + column) as usize);
            }
            direction += 1;
        }
        square += 1;
    }
    neighbours
}

/// `RAYS[d][s]`: the squares from `s` (exclusive) to the edge in direction `d`.
static RAYS: [[Bitboard; SQUARES]; 8] = build_rays();
/// `NEIGHBOURS[s]`: the up to 8 squares around `s`.
pub static NEIGHBOURS: [Bitboard; SQUARES] = build_neighbours();

/// The squares around any square of `squares`.
#[inline]
pub fn neighbours_of(squares: Bitboard) -> Bitboard {
    squares_of(squares).fold(0, |around, square| around | NEIGHBOURS[square as usize])
}

/// The squares a slider on `from` reaches along `directions`, up to and including the first
/// occupied square of each line (callers mask it out for moves, keep it to find blockers).
#[inline]
pub fn slide(from: usize, directions: &[usize], occupied: Bitboard) -> Bitboard {
    let mut reached = 0;
    for &direction in directions {
        let ray = RAYS[direction][from];
        let blockers = ray & occupied;
        reached |= if blockers == 0 {
            ray
        } else {
            let nearest = if direction < 4 { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
            ray ^ RAYS[direction][nearest as usize]
        };
    }
    reached
}

/// The squares next to a watering hole (the four neighbourhoods do not overlap).
pub const NEXT_TO_HOLES: Bitboard = {
    let around = build_neighbours();
    around[33] | around[36] | around[63] | around[66]
};

/// The size of a set of a few squares (a side's animals and subsets of them). The default x86-64
/// target has no POPCNT instruction; for a handful of bits clearing them one by one is ~3x faster
/// than the portable `count_ones`.
#[inline]
pub fn count_few(mut squares: Bitboard) -> u32 {
    let mut count = 0;
    while squares != 0 {
        squares &= squares - 1;
        count += 1;
    }
    count
}

/// The squares of a set, lowest first.
#[inline]
pub fn squares_of(mut squares: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (squares != 0).then(|| {
            let square = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            square
        })
    })
}

/// How close each square is to the centre: 8 on the four centre squares, 0 in the corners
/// (8 minus the Manhattan distance in half-steps from the board's midpoint, halved).
pub const fn centre_proximity(square: usize) -> u32 {
    let column = (2 * (square % SIZE) as i32 - 9).abs();
    let row = (2 * (square / SIZE) as i32 - 9).abs();
    (9 - (column + row) / 2) as u32
}

const fn build_proximity_planes() -> [Bitboard; 4] {
    let mut planes = [0; 4];
    let mut square = 0;
    while square < SQUARES {
        let proximity = centre_proximity(square);
        let mut plane = 0;
        while plane < 4 {
            if proximity & (1 << plane) != 0 {
                planes[plane] |= bit(square);
            }
            plane += 1;
        }
        square += 1;
    }
    planes
}

/// Bit `p` of every square's centre proximity: summing proximities is four popcounts.
static PROXIMITY_PLANES: [Bitboard; 4] = build_proximity_planes();

/// The sum of [`centre_proximity`] over `squares`.
#[inline]
pub fn total_centre_proximity(squares: Bitboard) -> u32 {
    PROXIMITY_PLANES.iter().enumerate().map(|(plane, &mask)| count_few(squares & mask) << plane).sum()
}

/// The watering holes' squares, in the bit order of the small hole sets below.
pub const HOLE_SQUARES: [usize; 4] = [33, 36, 63, 66];

/// Whether `direction` is one of `directions`.
const fn uses(directions: &[usize], direction: usize) -> bool {
    let mut i = 0;
    while i < directions.len() {
        if directions[i] == direction {
            return true;
        }
        i += 1;
    }
    false
}

/// `LINES_TO_HOLES[a][s]`: the holes (bit `i` for `HOLE_SQUARES[i]`) an animal of kind `a`
/// (elephant, lion, mouse) on `s` could slide onto on an empty board.
pub static LINES_TO_HOLES: [[u8; SQUARES]; 3] = {
    let kinds = [&EVERY_DIRECTION as &[usize], &DIAGONAL, &ORTHOGONAL];
    let rays = build_rays();
    let mut lines = [[0; SQUARES]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut hole = 0;
        while hole < 4 {
            let mut direction = 0;
            while direction < 8 {
                // Lines are symmetric: the squares seen from the hole along a direction reach it back.
                if uses(kinds[kind], direction) {
                    let mut square = 0;
                    while square < SQUARES {
                        if rays[direction][HOLE_SQUARES[hole]] & bit(square) != 0 {
                            lines[kind][square] |= 1 << hole;
                        }
                        square += 1;
                    }
                }
                direction += 1;
            }
            hole += 1;
        }
        kind += 1;
    }
    lines
};

/// `BETWEEN_HOLE[s][i]`: the squares strictly between `s` and hole `i` when they share a line
/// (empty when they do not).
pub static BETWEEN_HOLE: [[Bitboard; 4]; SQUARES] = {
    let rays = build_rays();
    let mut between = [[0; 4]; SQUARES];
    let mut hole = 0;
    while hole < 4 {
        let mut direction = 0;
        while direction < 8 {
            let ray = rays[direction][HOLE_SQUARES[hole]];
            let mut square = 0;
            while square < SQUARES {
                if ray & bit(square) != 0 {
                    between[square][hole] = ray ^ rays[direction][square] ^ bit(square);
                }
                square += 1;
            }
            direction += 1;
        }
        hole += 1;
    }
    between
};

/// `HOLES_AROUND[s]`: the holes next to `s` (bit `i` for `HOLE_SQUARES[i]`).
pub static HOLES_AROUND: [u8; SQUARES] = {
    let around = build_neighbours();
    let mut holes = [0; SQUARES];
    let mut square = 0;
    while square < SQUARES {
        let mut hole = 0;
        while hole < 4 {
            if around[HOLE_SQUARES[hole]] & bit(square) != 0 {
                holes[square] |= 1 << hole;
            }
            hole += 1;
        }
        square += 1;
    }
    holes
};

/// A side's running sums of per-square features, packed in one word so that a move updates them
/// with one subtraction and one addition: centre proximity (bits 0-7), animals next to a hole
/// (bits 8-15), holes held (bits 16-23) and adjacent pairs of own animals of different kinds
/// (bits 24-31). No field can go below zero or above 255 (six animals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally(u32);

const PAIR: u32 = 1 << 24;

/// What one animal on each square adds to its side's tally (its pairs are counted separately).
static SQUARE_TALLY: [u32; SQUARES] = {
    let mut tally = [0; SQUARES];
    let mut square = 0;
    while square < SQUARES {
        tally[square] = centre_proximity(square)
            | (((NEXT_TO_HOLES >> square) & 1) as u32) << 8
            | (((HOLES >> square) & 1) as u32) << 16;
        square += 1;
    }
    tally
};

impl Tally {
    /// The tally of a side's animals on `squares`, `pairs` of them adjacent and of different kinds.
    pub fn of(squares: Bitboard, pairs: u32) -> Tally {
        Tally(squares_of(squares).map(|square| SQUARE_TALLY[square as usize]).sum::<u32>() + pairs * PAIR)
    }

    /// The tally after an animal moved from `from` to `to`, leaving `pairs_left` adjacent pairs and
    /// joining `pairs_joined`.
    #[inline]
    pub fn moved(self, from: u8, to: u8, pairs_left: u32, pairs_joined: u32) -> Tally {
        Tally(
            self.0 - SQUARE_TALLY[from as usize] - pairs_left * PAIR + SQUARE_TALLY[to as usize] + pairs_joined * PAIR,
        )
    }

    pub fn centre(self) -> u32 {
        self.0 & 0xff
    }

    pub fn next_to_hole(self) -> u32 {
        (self.0 >> 8) & 0xff
    }

    pub fn holes(self) -> u32 {
        (self.0 >> 16) & 0xff
    }

    pub fn pairs(self) -> u32 {
        self.0 >> 24
    }
}
