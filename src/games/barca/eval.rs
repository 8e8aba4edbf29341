//! The static evaluation: the Barca technical report's "board evaluation vector", a weighted sum
//! of board features, own features minus the opponent's, from the side to move's point of view.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::board::{
    BETWEEN_HOLE, DIAGONAL, HOLE_SQUARES, HOLES, HOLES_AROUND, LINES_TO_HOLES, NEIGHBOURS, NEXT_TO_HOLES, ORTHOGONAL,
    bit, count_few, neighbours_of, slide, squares_of, total_centre_proximity,
};
use super::{Animal, Barca, index};
use crate::games::{Evaluator, Game, Score, Side, WIN};
use crate::text::{one_line, without_bom};

/// The weights of the evaluation features. Every field is required in JSON so a typo cannot
/// silently fall back to a default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Score for holding 0, 1, 2 and 3 (or 4) watering holes.
    pub holes_held: [Score; 4],
    /// Score per way of stepping safely onto an empty hole next move, by how many holes the side
    /// would then hold (1, 2, 3): the report's "holes reachable next turn times the number of ways".
    pub holes_next_turn: [Score; 3],
    /// Per animal next to a watering hole (it keeps enemy animals away from it).
    pub next_to_hole: Score,
    /// Per scared animal (a scared animal must run, so the side loses the initiative).
    pub scared: Score,
    /// Per step of centre proximity (0 in a corner to 8 on a centre square), summed over animals.
    pub centre: Score,
    /// Per pair of adjacent own animals of different kinds: each keeps away what frightens the other.
    pub teammates: Score,
}

/// Hand-picked: holes dominate, an imminent third hole almost wins, fear costs tempo.
pub const DEFAULT_WEIGHTS: Weights = Weights {
    holes_held: [-40, -10, 60, 2_000],
    holes_next_turn: [8, 30, 300],
    next_to_hole: 10,
    scared: -30,
    centre: 2,
    teammates: 6,
};

impl Default for Weights {
    fn default() -> Weights {
        DEFAULT_WEIGHTS
    }
}

/// One side's raw feature values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Features {
    holes: u32,
    ways_to_hole: u32,
    next_to_hole: u32,
    scared: u32,
    centre: u32,
    teammates: u32,
}

/// Both sides' raw feature values, indexed by side: the sums kept by every move (holes, next to
/// a hole, centre, pairs) read from the game's tallies, the rest counted animal by animal.
#[inline]
fn features(game: &Barca) -> [Features; 2] {
    let empty_holes = HOLE_SQUARES
        .iter()
        .enumerate()
        .fold(0u8, |empty, (i, &hole)| if game.board[hole] == 0 { empty | 1 << i } else { empty });
    [Side::First, Side::Second].map(|side| {
        let pieces = &game.pieces[index(side)];
        let enemy = &game.pieces[index(side.other())];
        let (mut scared, mut ways_to_hole) = (0, 0);
        for animal in Animal::ALL {
            let feared = enemy[animal.feared() as usize];
            scared += count_few(pieces[animal as usize] & neighbours_of(feared));
            let unsafe_holes = squares_of(feared).fold(0, |holes, square| holes | HOLES_AROUND[square as usize]);
            // An animal already on a hole would only swap one hole for another.
            for square in squares_of(pieces[animal as usize] & !HOLES) {
                let mut holes = LINES_TO_HOLES[animal as usize][square as usize] & empty_holes & !unsafe_holes;
                while holes != 0 {
                    let hole = holes.trailing_zeros() as usize;
                    holes &= holes - 1;
                    ways_to_hole += u32::from(BETWEEN_HOLE[square as usize][hole] & game.occupied == 0);
                }
            }
        }
        let tally = game.tally(side);
        Features {
            holes: tally.holes(),
            ways_to_hole,
            next_to_hole: tally.next_to_hole(),
            scared,
            centre: tally.centre(),
            teammates: tally.pairs(),
        }
    })
}

/// [`features`] counted from the bitboards alone, hole by hole: the reference the running
/// tallies and the animal-by-animal counts must agree with.
fn features_from_scratch(game: &Barca) -> [Features; 2] {
    let sides = [Side::First, Side::Second];
    // zones[side][animal]: where that side's animal of that kind would be scared.
    let zones = sides.map(|side| Animal::ALL.map(|animal| game.fear_zone(side, animal)));
    // The nearest animal on each line through an empty hole is the only one that can slide onto it.
    let mut lines = [(0, 0, 0); 4];
    let mut empty_holes = 0;
    for hole in squares_of(HOLES & !game.occupied) {
        let hole = hole as usize;
        let diagonal_first = slide(hole, &DIAGONAL, game.occupied) & game.occupied;
        let orthogonal_first = slide(hole, &ORTHOGONAL, game.occupied) & game.occupied;
        lines[empty_holes] = (hole, diagonal_first, orthogonal_first);
        empty_holes += 1;
    }

    sides.map(|side| {
        let (pieces, zones) = (&game.pieces[index(side)], &zones[index(side)]);
        let own = game.side_squares(side);
        let mut ways_to_hole = 0;
        for &(hole, diagonal_first, orthogonal_first) in &lines[..empty_holes] {
            // An animal already on a hole would only swap one hole for another.
            let [elephants, lions, mice] = Animal::ALL.map(|animal| {
                if zones[animal as usize] & bit(hole) == 0 { pieces[animal as usize] & !HOLES } else { 0 }
            });
            ways_to_hole +=
                count_few(diagonal_first & (elephants | lions)) + count_few(orthogonal_first & (elephants | mice));
        }
        let mut adjacent_pairs = 0;
        for animal in Animal::ALL {
            let others = own & !pieces[animal as usize];
            for square in squares_of(pieces[animal as usize]) {
                adjacent_pairs += count_few(NEIGHBOURS[square as usize] & others);
            }
        }
        Features {
            holes: count_few(own & HOLES),
            ways_to_hole,
            next_to_hole: count_few(own & NEXT_TO_HOLES),
            scared: Animal::ALL.iter().map(|&animal| count_few(pieces[animal as usize] & zones[animal as usize])).sum(),
            centre: total_centre_proximity(own),
            teammates: adjacent_pairs / 2,
        }
    })
}

/// [side to move's features, opponent's features].
#[inline]
fn mover_first(game: &Barca, [first, second]: [Features; 2]) -> [Features; 2] {
    if game.side_to_move() == Side::First { [first, second] } else { [second, first] }
}

/// One row of [`breakdown`]: a feature's raw values for both sides and what it adds to the score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeatureTerm {
    pub name: &'static str,
    /// The raw value for the side to move (a count, or a proximity sum).
    pub own: u32,
    pub opponent: u32,
    /// The weight per unit; `None` for table features, whose score comes from a table entry.
    pub weight: Option<Score>,
    pub own_score: Score,
    pub opponent_score: Score,
    /// `own_score - opponent_score`.
    pub contribution: Score,
}

impl Weights {
    /// Reads weights from JSON text; the error names the line and column, or the weights' problem.
    pub fn from_json(text: &str) -> Result<Weights, String> {
        let weights: Weights = serde_json::from_str(without_bom(text)).map_err(|error| {
            let what = if error.is_data() { "weights" } else { "not a JSON weights file" };
            one_line(&format!("{what}: {error}"))
        })?;
        weights.check()?;
        Ok(weights)
    }

    /// The largest evaluation these weights can give, from bounds on each raw feature of a side
    /// (6 animals: ways to a hole ≤ 24, animals ≤ 6, centre proximity ≤ 48, mixed pairs ≤ 15).
    pub fn largest_evaluation(&self) -> i64 {
        let most = |weights: &[Score]| weights.iter().map(|w| i64::from(*w).abs()).max().unwrap_or(0);
        let one_side = most(&self.holes_held)
            + most(&self.holes_next_turn) * 24
            + (most(&[self.next_to_hole]) + most(&[self.scared])) * 6
            + most(&[self.centre]) * 48
            + most(&[self.teammates]) * 15;
        2 * one_side
    }

    /// Weights must keep every evaluation well below a proven win, or the search would take a
    /// good position for a won one (and the sums could overflow).
    pub fn check(&self) -> Result<(), String> {
        let largest = self.largest_evaluation();
        let limit = i64::from(WIN / 2);
        if largest >= limit {
            return Err(format!(
                "weights: an evaluation could reach {largest}, but must stay below {limit} (a proven win \
                 scores {WIN}); scale the weights down"
            ));
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Weights, String> {
        let text = crate::files::read_text(path, crate::files::MAX_TEXT)
            .map_err(|error| error.at(&path.display().to_string()))?;
        Weights::from_json(&text).map_err(|error| format!("{}: {error}", path.display()))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialize")
    }

    /// Each feature's (own score, opponent score), in [`breakdown`] order.
    fn scores(&self, own: &Features, opponent: &Features) -> [(Score, Score); 6] {
        let held = |f: &Features| self.holes_held[f.holes.min(3) as usize];
        let next = |f: &Features| self.holes_next_turn[f.holes.min(2) as usize] * f.ways_to_hole as Score;
        let linear = |weight: Score, value: fn(&Features) -> u32| {
            (weight * value(own) as Score, weight * value(opponent) as Score)
        };
        [
            (held(own), held(opponent)),
            (next(own), next(opponent)),
            linear(self.next_to_hole, |f| f.next_to_hole),
            linear(self.scared, |f| f.scared),
            linear(self.centre, |f| f.centre),
            linear(self.teammates, |f| f.teammates),
        ]
    }

    /// The evaluation from the side to move's point of view.
    #[inline]
    pub fn score(&self, game: &Barca) -> Score {
        self.total(mover_first(game, features(game)))
    }

    /// [`Weights::score`] with every feature counted from the bitboards: the reference the fast
    /// evaluation is tested against.
    pub fn score_from_scratch(&self, game: &Barca) -> Score {
        self.total(mover_first(game, features_from_scratch(game)))
    }

    #[inline]
    fn total(&self, [own, opponent]: [Features; 2]) -> Score {
        self.scores(&own, &opponent).iter().map(|(own, opponent)| own - opponent).sum()
    }
}

impl Evaluator<Barca> for Weights {
    #[inline]
    fn evaluate(&self, game: &Barca) -> Score {
        self.score(game)
    }
}

/// The evaluation feature by feature, side to move first; the contributions sum to the score.
pub fn breakdown(game: &Barca, weights: &Weights) -> Vec<FeatureTerm> {
    let [own, opponent] = mover_first(game, features(game));
    let raw = |f: &Features| [f.holes, f.ways_to_hole, f.next_to_hole, f.scared, f.centre, f.teammates];
    let names = [
        "watering holes held",
        "ways onto a hole next move",
        "animals next to a hole",
        "scared animals",
        "centre proximity",
        "complementary teammates adjacent",
    ];
    let unit_weights =
        [None, None, Some(weights.next_to_hole), Some(weights.scared), Some(weights.centre), Some(weights.teammates)];
    let scores = weights.scores(&own, &opponent);
    (0..names.len())
        .map(|i| FeatureTerm {
            name: names[i],
            own: raw(&own)[i],
            opponent: raw(&opponent)[i],
            weight: unit_weights[i],
            own_score: scores[i].0,
            opponent_score: scores[i].1,
            contribution: scores[i].0 - scores[i].1,
        })
        .collect()
}
