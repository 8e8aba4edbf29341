//! The 61-hex board: hexes `(r, q)` with |r|, |q|, |r + q| <= 4, numbered 0..61 from the top row
//! (r = 4) down, q ascending within a row (the order positions are written in).

/// A hex's number, 0..61.
pub type Hex = u8;

pub const HEXES: usize = 61;
/// Hexes from the centre to an edge.
pub const RADIUS: i8 = 4;

/// A hex's axial coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coord {
    pub r: i8,
    pub q: i8,
}

impl Coord {
    pub const fn on_board(self) -> bool {
        self.r.abs() <= RADIUS && self.q.abs() <= RADIUS && (self.r + self.q).abs() <= RADIUS
    }
}

/// The six steps to a neighbour, in the order of the rules' list.
const STEPS: [(i8, i8); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

const fn row_start(r: i8) -> i8 {
    if -RADIUS > -RADIUS - r { -RADIUS } else { -RADIUS - r }
}

/// The coordinates of every hex, by number.
pub const COORDS: [Coord; HEXES] = {
    let mut coords = [Coord { r: 0, q: 0 }; HEXES];
    let (mut i, mut r) = (0, RADIUS);
    while r >= -RADIUS {
        let mut q = row_start(r);
        while (Coord { r, q }).on_board() {
            coords[i] = Coord { r, q };
            i += 1;
            q += 1;
        }
        r -= 1;
    }
    coords
};

/// The number of the hex at `coord`, if it is on the board.
pub const fn hex_at(coord: Coord) -> Option<Hex> {
    if !coord.on_board() {
        return None;
    }
    // Rows above r hold 9 - |row| hexes each.
    let (mut index, mut r) = (0i32, RADIUS);
    while r > coord.r {
        index += 9 - r.abs() as i32;
        r -= 1;
    }
    Some((index + (coord.q - row_start(coord.r)) as i32) as Hex)
}

/// Bit `h` set for every neighbour `h` of each hex.
pub const NEIGHBOURS: [u64; HEXES] = {
    let mut masks = [0u64; HEXES];
    let mut i = 0;
    while i < HEXES {
        let mut s = 0;
        while s < STEPS.len() {
            let c = Coord { r: COORDS[i].r + STEPS[s].0, q: COORDS[i].q + STEPS[s].1 };
            if let Some(h) = hex_at(c) {
                masks[i] |= 1 << h;
            }
            s += 1;
        }
        i += 1;
    }
    masks
};

/// The hexes a player's `n`-th throw may reach (its first `n` rows from its own edge), n = 1..=9.
/// `upper` counts rows down from the top, else up from the bottom.
pub fn throw_zone(upper: bool, n: u8) -> u64 {
    let reach = i8::try_from(n).unwrap_or(i8::MAX);
    (0..HEXES)
        .filter(|&h| if upper { COORDS[h].r > RADIUS - reach } else { COORDS[h].r < reach - RADIUS })
        .fold(0, |mask, h| mask | 1 << h)
}

/// The hexes of a bit mask, in number order.
pub fn hexes_of(mut mask: u64) -> impl Iterator<Item = Hex> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let h = mask.trailing_zeros() as Hex;
            mask &= mask - 1;
            h
        })
    })
}

pub fn coord(hex: Hex) -> Coord {
    COORDS[hex as usize]
}
