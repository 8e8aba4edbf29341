//! Deterministic map generators: same seed, same map.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{Grid, MoveRules};
use crate::text::quote;

/// Each cell blocked independently with probability `density`.
pub fn random(width: u32, height: u32, density: f64, seed: u64) -> Grid {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut grid = Grid::new(width, height);
    for y in 0..height {
        for x in 0..width {
            if rng.random_bool(density.clamp(0.0, 1.0)) {
                grid.set_passable(x, y, false);
            }
        }
    }
    grid
}

/// A perfect maze by the recursive backtracker (iterative, with an explicit stack): corridors
/// `corridor` cells wide separated by walls one cell thick.
pub fn maze(width: u32, height: u32, corridor: u32, seed: u64) -> Grid {
    let corridor = corridor.max(1);
    let pitch = corridor + 1;
    let mut grid = Grid::new(width, height);
    for y in 0..height {
        for x in 0..width {
            grid.set_passable(x, y, false);
        }
    }
    // Maze rooms sit at (1 + i * pitch, 1 + j * pitch); they need a wall after them too.
    let columns = width.saturating_sub(1) / pitch;
    let rows = height.saturating_sub(1) / pitch;
    if columns == 0 || rows == 0 {
        return grid;
    }
    let carve = |grid: &mut Grid, x0: u32, y0: u32, w: u32, h: u32| {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                grid.set_passable(x, y, true);
            }
        }
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut visited = vec![false; (columns * rows) as usize];
    let mut stack = vec![(0u32, 0u32)];
    visited[0] = true;
    carve(&mut grid, 1, 1, corridor, corridor);
    while let Some(&(i, j)) = stack.last() {
        let mut options: Vec<(u32, u32)> = [(0i64, -1i64), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .map(|&(di, dj)| (i as i64 + di, j as i64 + dj))
            .filter(|&(ni, nj)| ni >= 0 && nj >= 0 && ni < columns as i64 && nj < rows as i64)
            .map(|(ni, nj)| (ni as u32, nj as u32))
            .filter(|&(ni, nj)| !visited[(nj * columns + ni) as usize])
            .collect();
        if options.is_empty() {
            stack.pop();
            continue;
        }
        options.shuffle(&mut rng);
        let (ni, nj) = options[0];
        visited[(nj * columns + ni) as usize] = true;
        // Carve the new room and the wall cell between the two rooms.
        let (x0, y0) = (1 + i.min(ni) * pitch, 1 + j.min(nj) * pitch);
        if ni != i {
            carve(&mut grid, x0, y0, corridor * 2 + 1, corridor);
        } else {
            carve(&mut grid, x0, y0, corridor, corridor * 2 + 1);
        }
        stack.push((ni, nj));
    }
    grid
}

/// Square rooms of side `room` with one-cell walls. Doors follow a random spanning tree of the rooms
/// (so everything is connected) plus extra doors with probability `extra_doors`, making loops.
pub fn rooms(width: u32, height: u32, room: u32, extra_doors: f64, seed: u64) -> Grid {
    let room = room.max(2);
    let pitch = room + 1;
    let mut grid = Grid::new(width, height);
    for y in 0..height {
        for x in 0..width {
            if x % pitch == 0 || y % pitch == 0 || x == width - 1 || y == height - 1 {
                grid.set_passable(x, y, false);
            }
        }
    }
    let columns = width.saturating_sub(1).div_ceil(pitch);
    let rows = height.saturating_sub(1).div_ceil(pitch);
    let mut rng = StdRng::seed_from_u64(seed);
    // Every wall between two neighbouring rooms, shuffled, then Kruskal with union-find.
    let mut walls = Vec::new();
    for j in 0..rows {
        for i in 0..columns {
            if i + 1 < columns {
                walls.push((i, j, true));
            }
            if j + 1 < rows {
                walls.push((i, j, false));
            }
        }
    }
    walls.shuffle(&mut rng);
    let mut root: Vec<u32> = (0..columns * rows).collect();
    fn find(root: &mut [u32], mut a: u32) -> u32 {
        while root[a as usize] != a {
            root[a as usize] = root[root[a as usize] as usize];
            a = root[a as usize];
        }
        a
    }
    let door = (room / 3).max(1);
    for (i, j, vertical) in walls {
        let (a, b) = (j * columns + i, if vertical { j * columns + i + 1 } else { (j + 1) * columns + i });
        let (ra, rb) = (find(&mut root, a), find(&mut root, b));
        let joins = ra != rb;
        if joins {
            root[ra as usize] = rb;
        }
        if !joins && !rng.random_bool(extra_doors.clamp(0.0, 1.0)) {
            continue;
        }
        let offset = rng.random_range(0..=room - door);
        for k in 0..door {
            let (x, y) = if vertical {
                ((i + 1) * pitch, j * pitch + 1 + offset + k)
            } else {
                (i * pitch + 1 + offset + k, (j + 1) * pitch)
            };
            if x < width - 1 && y < height - 1 {
                grid.set_passable(x, y, true);
            }
        }
    }
    grid
}

/// Smoothing rounds of [`cave`]: four turn noise into rounded caves; more change little.
const CAVE_ROUNDS: u32 = 4;

/// A cave by cellular automaton, the irregular open ground of game maps: each cell starts as rock
/// with probability `fill`, then each round makes a cell rock when at least 5 of the 9 cells
/// around it (itself included, outside the map counting as rock) are. Only the largest region
/// reachable under the MovingAI rules stays open, so any two open cells are joined.
pub fn cave(width: u32, height: u32, fill: f64, seed: u64) -> Grid {
    let mut rng = StdRng::seed_from_u64(seed);
    let (w, h) = (width as usize, height as usize);
    let mut rock: Vec<bool> = (0..w * h).map(|_| rng.random_bool(fill.clamp(0.0, 1.0))).collect();
    let mut next = rock.clone();
    for _ in 0..CAVE_ROUNDS {
        for y in 0..h {
            for x in 0..w {
                let mut around = 0;
                for ny in y as i64 - 1..=y as i64 + 1 {
                    for nx in x as i64 - 1..=x as i64 + 1 {
                        let outside = nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64;
                        around += (outside || rock[ny as usize * w + nx as usize]) as u32;
                    }
                }
                next[y * w + x] = around >= 5;
            }
        }
        std::mem::swap(&mut rock, &mut next);
    }
    let mut grid = Grid::new(width, height);
    for (cell, &is_rock) in rock.iter().enumerate() {
        let (x, y) = grid.coords(cell as u32);
        grid.set_passable(x, y, !is_rock);
    }
    let mut kept = vec![false; grid.cell_count()];
    for cell in grid.largest_component(MoveRules::MOVINGAI) {
        kept[cell as usize] = true;
    }
    for (cell, _) in kept.iter().enumerate().filter(|&(_, &kept)| !kept) {
        let (x, y) = grid.coords(cell as u32);
        grid.set_passable(x, y, false);
    }
    grid
}

/// Which generator a [`Spec`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Maze,
    Rooms,
    Random,
    Cave,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Maze, Kind::Rooms, Kind::Random, Kind::Cave];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Maze => "maze",
            Kind::Rooms => "rooms",
            Kind::Random => "random",
            Kind::Cave => "cave",
        }
    }
}

/// A generated map, reproducible from these numbers; the one set of defaults and limits of the
/// CLI's `gen` and the grid lab.
///
/// Text form: `KIND[:WxH,ITEM,...]` with KIND `maze`, `rooms`, `random` or `cave`, the size (default
/// 64x64; each side at least 3, at most [`super::movingai::MAX_CELLS`] cells) and items
/// `seed=S` (default 1) and the kind's own: `corridor=C` (maze corridor width, 1..64, default 1),
/// `room=R` (room side, 2..1024, default 8) and `doors=P` (probability of a door beyond those
/// that connect the rooms, 0..1, default 0.3), `density=P` (probability that a cell is blocked,
/// 0..1, default 0.25), `fill=P` (probability that a cave cell starts as rock, 0..1, default 0.45).
/// Examples: `maze:64x64,corridor=2`, `rooms:128x128,room=15,seed=2`,
/// `random:512x512,density=0.25,seed=3`, `cave:256x256,fill=0.42`. Items of other kinds are refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    pub kind: Kind,
    pub width: u32,
    pub height: u32,
    pub seed: u64,
    pub corridor: u32,
    pub room: u32,
    pub doors: f64,
    pub density: f64,
    pub fill: f64,
}

impl Default for Spec {
    fn default() -> Self {
        Self {
            kind: Kind::Maze,
            width: 64,
            height: 64,
            seed: 1,
            corridor: 1,
            room: 8,
            doors: 0.3,
            density: 0.25,
            fill: 0.45,
        }
    }
}

impl Spec {
    /// Checks the values; the message starts with the option's name (also the CLI flag's).
    pub fn validate(&self) -> Result<(), String> {
        let max = super::movingai::MAX_CELLS;
        if self.width < 3 || self.height < 3 || self.width as usize * self.height as usize > max {
            return Err(format!("map size {}x{} is out of range (3x3 up to {max} cells)", self.width, self.height));
        }
        if !(1..=64).contains(&self.corridor) {
            return Err(format!("corridor must be 1..64 cells, got {}", self.corridor));
        }
        if !(2..=1024).contains(&self.room) {
            return Err(format!("room must be 2..1024 cells, got {}", self.room));
        }
        for (name, p) in [("doors", self.doors), ("density", self.density), ("fill", self.fill)] {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("{name} must be a probability in 0..1, got {p}"));
            }
        }
        Ok(())
    }

    pub fn generate(&self) -> Result<Grid, String> {
        self.validate()?;
        Ok(match self.kind {
            Kind::Maze => maze(self.width, self.height, self.corridor, self.seed),
            Kind::Rooms => rooms(self.width, self.height, self.room, self.doors, self.seed),
            Kind::Random => random(self.width, self.height, self.density, self.seed),
            Kind::Cave => cave(self.width, self.height, self.fill, self.seed),
        })
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}x{}", self.kind.name(), self.width, self.height)?;
        match self.kind {
            Kind::Maze => write!(f, ",corridor={}", self.corridor)?,
            Kind::Rooms => write!(f, ",room={},doors={}", self.room, self.doors)?,
            Kind::Random => write!(f, ",density={}", self.density)?,
            Kind::Cave => write!(f, ",fill={}", self.fill)?,
        }
        write!(f, ",seed={}", self.seed)
    }
}

impl std::str::FromStr for Spec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut items = crate::spec_text::SpecText::parse(text)?;
        let kind = Kind::ALL
            .into_iter()
            .find(|kind| kind.name() == items.name)
            .ok_or_else(|| format!("unknown generator '{}': use maze, rooms, random or cave", items.name))?;
        let mut spec = Spec { kind, ..Spec::default() };
        if let Some(size) = items.bare() {
            let parsed = size.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
            (spec.width, spec.height) =
                parsed.ok_or_else(|| format!("'{}' in '{}' is not a size WxH", quote(size), quote(text)))?;
        }
        spec.seed = items.value("seed")?.unwrap_or(spec.seed);
        match kind {
            Kind::Maze => spec.corridor = items.value("corridor")?.unwrap_or(spec.corridor),
            Kind::Rooms => {
                spec.room = items.value("room")?.unwrap_or(spec.room);
                spec.doors = items.value("doors")?.unwrap_or(spec.doors);
            }
            Kind::Random => spec.density = items.value("density")?.unwrap_or(spec.density),
            Kind::Cave => spec.fill = items.value("fill")?.unwrap_or(spec.fill),
        }
        items.done(spec, Spec::validate)
    }
}

crate::serde_as_text!(Spec);

#[cfg(test)]
mod tests {
    #[test]
    fn spec_text_round_trips_with_one_set_of_defaults() {
        let spec: super::Spec = "rooms:128x96,room=15".parse().unwrap();
        assert_eq!((spec.width, spec.height, spec.room, spec.doors, spec.seed), (128, 96, 15, 0.3, 1));
        assert_eq!(spec.to_string(), "rooms:128x96,room=15,doors=0.3,seed=1");
        for text in ["maze:64x64,corridor=2,seed=1", "random:512x512,density=0.25,seed=3", "cave:96x80,fill=0.4,seed=2"]
        {
            assert_eq!(text.parse::<super::Spec>().unwrap().to_string(), text);
        }
        for (bad, message) in [
            ("maze:2x64", "out of range"),
            ("random:8x8,density=2", "density must be a probability"),
            ("maze:8x8,room=3", "unknown option 'room=3'"),
            ("maze:8by8", "is not a size"),
            ("island", "unknown generator 'island'"),
            ("cave:64x64,fill=-0.1", "fill must be a probability"),
        ] {
            let error = bad.parse::<super::Spec>().unwrap_err();
            assert!(error.contains(message), "{bad}: {error}");
        }
    }

    use super::*;

    #[test]
    fn generators_are_deterministic() {
        assert_eq!(maze(31, 31, 2, 7), maze(31, 31, 2, 7));
        assert_ne!(maze(31, 31, 2, 7), maze(31, 31, 2, 8));
        assert_eq!(rooms(40, 40, 8, 0.2, 3), rooms(40, 40, 8, 0.2, 3));
        assert_eq!(random(20, 20, 0.3, 1), random(20, 20, 0.3, 1));
    }

    #[test]
    fn perfect_maze_and_rooms_are_connected() {
        for grid in [maze(41, 33, 3, 5), rooms(50, 37, 6, 0.1, 9)] {
            let labels = grid.components(MoveRules::MOVINGAI);
            let distinct: std::collections::HashSet<u32> = labels.into_iter().filter(|&l| l != u32::MAX).collect();
            assert_eq!(distinct.len(), 1);
        }
    }
}
