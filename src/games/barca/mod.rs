//! Barca (Andrew Caldwell's game of elephants, lions and mice) exactly per
//! `../shared/spec/barca-rules.md`: bitboards, fear and the trapped rule, win on 3 of the 4
//! watering holes, threefold repetition from the hash history, an optional ply limit, FEN-like
//! positions, move text, evaluation and perft.

mod board;
pub mod eval;
mod movegen;
mod notation;
pub mod perft;
mod zobrist;

pub use board::{Bitboard, HOLES, Tally, squares_of};
use board::{NEIGHBOURS, count_few};
pub use eval::{FeatureTerm, Weights, breakdown};
pub use movegen::AnimalMoves;
pub use notation::{FenError, START_FEN, game_text, parse_game, parse_square, side_name, square_name};

use super::{Game, Outcome, Score, Side};
use board::{bit, neighbours_of};

/// The three kinds of animal. Each fears one kind of enemy animal: mouse fears lion, lion fears
/// elephant, elephant fears mouse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Animal {
    Elephant = 0,
    Lion = 1,
    Mouse = 2,
}

impl Animal {
    pub const ALL: [Animal; 3] = [Animal::Elephant, Animal::Lion, Animal::Mouse];

    /// The enemy animal this one is afraid of.
    pub const fn feared(self) -> Animal {
        match self {
            Animal::Elephant => Animal::Mouse,
            Animal::Lion => Animal::Elephant,
            Animal::Mouse => Animal::Lion,
        }
    }

    /// Queen, bishop, rook.
    fn directions(self) -> &'static [usize] {
        match self {
            Animal::Elephant => &board::EVERY_DIRECTION,
            Animal::Lion => &board::DIAGONAL,
            Animal::Mouse => &board::ORTHOGONAL,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Animal::Elephant => "elephant",
            Animal::Lion => "lion",
            Animal::Mouse => "mouse",
        }
    }

    /// The name for two or more (or none).
    pub fn plural(self) -> &'static str {
        match self {
            Animal::Elephant => "elephants",
            Animal::Lion => "lions",
            Animal::Mouse => "mice",
        }
    }
}

/// A move from one square to another (square index 0..100: a1 = 0, b1 = 1, ..., j10 = 99).
/// Displays as `e2e5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct BarcaMove {
    pub from: u8,
    pub to: u8,
}

/// What `make_move` needs to take a move back and to detect repetitions.
#[derive(Debug, Clone, Copy)]
struct Undo {
    mv: BarcaMove,
    /// The hash of the position before the move.
    hash: u64,
    /// The mover's tally before the move.
    tally: Tally,
}

/// Buckets of [`Barca::seen`] (a power of two).
const SEEN_BUCKETS: usize = 1024;

/// A square's content in [`Barca::board`]: 0 when empty, else `1 + 3 * side + animal`.
#[inline]
fn piece_code(side: usize, animal: Animal) -> u8 {
    1 + 3 * side as u8 + animal as u8
}

/// A Barca game: the position, the side to move and the moves that led here.
#[derive(Debug, Clone)]
pub struct Barca {
    /// `pieces[side][animal]`: the (two) squares of that side's animals of that kind.
    pieces: [[Bitboard; 3]; 2],
    occupied: Bitboard,
    /// The same pieces square by square ([`piece_code`]), so a move finds its animal at once.
    board: [u8; board::SQUARES],
    /// Per side, sums the evaluation would otherwise recount at every leaf, kept up to date by
    /// every move (see [`Barca::tally_from_scratch`]).
    tally: [Tally; 2],
    side: Side,
    hash: u64,
    history: Vec<Undo>,
    /// How many positions of the game so far (the current one included) fall in each bucket of
    /// the hash's low bits: a position alone in its bucket has not occurred before, so the
    /// repetition checks at every search node skip scanning a long history.
    seen: [u16; SEEN_BUCKETS],
    ply_limit: Option<usize>,
}

/// A game crosses to a Web Worker as its start, its moves and its ply limit: the rest follows.
#[derive(serde::Serialize, serde::Deserialize)]
struct GameRecord {
    start: String,
    moves: Vec<BarcaMove>,
    ply_limit: Option<usize>,
}

impl serde::Serialize for Barca {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut start = self.clone();
        while start.ply() > 0 {
            start.unmake_move();
        }
        let moves = self.moves_played().collect();
        GameRecord { start: start.to_fen(), moves, ply_limit: self.ply_limit }.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Barca {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let GameRecord { start, moves, ply_limit } = GameRecord::deserialize(deserializer)?;
        let mut game = Barca::from_fen(&start).map_err(D::Error::custom)?;
        for mv in moves {
            game.play_moves(&mv.to_string()).map_err(D::Error::custom)?;
        }
        game.set_ply_limit(ply_limit);
        Ok(game)
    }
}

#[inline]
fn index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl Barca {
    pub fn start() -> Barca {
        Barca::from_fen(START_FEN).expect("the start position parses")
    }

    /// A game whose history begins at a position with these pieces. Piece counts are the
    /// caller's responsibility (the FEN reader checks them).
    fn from_pieces(pieces: [[Bitboard; 3]; 2], side: Side) -> Barca {
        let mut game = Barca {
            pieces,
            occupied: 0,
            board: [0; board::SQUARES],
            tally: [Tally::default(); 2],
            side,
            hash: 0,
            history: Vec::new(),
            seen: [0; SEEN_BUCKETS],
            ply_limit: None,
        };
        game.occupied = pieces.iter().flatten().fold(0, |all, &squares| all | squares);
        for (us, kinds) in pieces.iter().enumerate() {
            for animal in Animal::ALL {
                for square in squares_of(kinds[animal as usize]) {
                    game.board[square as usize] = piece_code(us, animal);
                }
            }
        }
        game.tally = [Side::First, Side::Second].map(|side| game.tally_from_scratch(side));
        game.hash = game.hash_from_scratch();
        game.seen[game.bucket()] = 1;
        game
    }

    #[inline]
    fn bucket(&self) -> usize {
        self.hash as usize & (SEEN_BUCKETS - 1)
    }

    /// A side's tally counted from its pieces (the incremental one must always equal it).
    pub fn tally_from_scratch(&self, side: Side) -> Tally {
        let pieces = &self.pieces[index(side)];
        let own = self.side_squares(side);
        let touching: u32 = Animal::ALL
            .iter()
            .flat_map(|&animal| squares_of(pieces[animal as usize]).map(move |square| (animal, square)))
            .map(|(animal, square)| count_few(NEIGHBOURS[square as usize] & own & !pieces[animal as usize]))
            .sum();
        // Each pair was counted from both of its animals.
        Tally::of(own, touching / 2)
    }

    /// The side's running tally (holes held, animals next to a hole, centre proximity, mixed pairs).
    #[inline]
    pub fn tally(&self, side: Side) -> Tally {
        self.tally[index(side)]
    }

    /// The Zobrist hash computed from the pieces (the incremental one must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = if self.side == Side::Second { zobrist::SECOND_TO_MOVE } else { 0 };
        for side in [Side::First, Side::Second] {
            for animal in Animal::ALL {
                for square in squares_of(self.pieces[index(side)][animal as usize]) {
                    hash ^= zobrist::PIECE_KEYS[index(side)][animal as usize][square as usize];
                }
            }
        }
        hash
    }

    /// Draw once this many plies have been played (counted from the position the game started
    /// at); `None` plays on forever.
    pub fn set_ply_limit(&mut self, limit: Option<usize>) {
        self.ply_limit = limit;
    }

    pub fn ply_limit(&self) -> Option<usize> {
        self.ply_limit
    }

    /// The squares of one side's animals of one kind.
    pub fn animals(&self, side: Side, animal: Animal) -> Bitboard {
        self.pieces[index(side)][animal as usize]
    }

    /// All squares of one side's animals.
    pub fn side_squares(&self, side: Side) -> Bitboard {
        let [elephants, lions, mice] = self.pieces[index(side)];
        elephants | lions | mice
    }

    pub fn piece_at(&self, square: u8) -> Option<(Side, Animal)> {
        let code = *self.board.get(square as usize)?;
        (code != 0).then(|| {
            let side = if code <= 3 { Side::First } else { Side::Second };
            (side, Animal::ALL[usize::from(code - 1) % 3])
        })
    }

    /// The squares where an animal of `side` would be scared (next to an enemy animal it fears).
    #[inline]
    pub fn fear_zone(&self, side: Side, animal: Animal) -> Bitboard {
        neighbours_of(self.animals(side.other(), animal.feared()))
    }

    /// The squares of `side`'s scared animals.
    pub fn scared_animals(&self, side: Side) -> Bitboard {
        Animal::ALL
            .iter()
            .fold(0, |scared, &animal| scared | (self.animals(side, animal) & self.fear_zone(side, animal)))
    }

    /// How many watering holes `side`'s animals stand on.
    #[inline]
    pub fn holes_held(&self, side: Side) -> u32 {
        self.tally[index(side)].holes()
    }

    /// The side holding at least 3 of the 4 watering holes, if any: it won with its last move.
    #[inline]
    pub fn winner(&self) -> Option<Side> {
        [self.side.other(), self.side].into_iter().find(|&side| self.holes_held(side) >= 3)
    }

    /// How many times the current position has occurred in this game, counting now.
    pub fn occurrences(&self) -> usize {
        if self.seen[self.bucket()] == 1 {
            return 1;
        }
        // Only every second earlier position has the same side to move.
        1 + self.history.iter().rev().skip(1).step_by(2).filter(|undo| undo.hash == self.hash).count()
    }

    /// Plays moves written as text and separated by whitespace, skipping move numbers (`12.`,
    /// `3...`); the error names the move by its ply in the game, and why it cannot be played.
    pub fn play_moves(&mut self, text: &str) -> Result<(), String> {
        for token in text.split_whitespace().filter(|token| !token.ends_with('.')) {
            let ply = self.ply() + 1;
            if let Some(outcome) = self.outcome() {
                let token = crate::text::quote(token);
                return Err(format!("move {ply} ({token}) comes after the game ended ({outcome:?})"));
            }
            let mv = self.parse_move(token).map_err(|error| format!("move {ply}: {error}"))?;
            self.make_move(mv);
        }
        Ok(())
    }

    /// The moves made so far, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = BarcaMove> + '_ {
        self.history.iter().map(|undo| undo.mv)
    }

    /// Plays a move without checking it: `mv.from` must hold an animal of the side to move and
    /// `mv.to` must be empty.
    #[inline]
    fn play(&mut self, mv: BarcaMove) {
        let us = index(self.side);
        let (from, to) = (bit(mv.from as usize), bit(mv.to as usize));
        let code = self.board[mv.from as usize];
        assert!(
            code != 0 && usize::from(code - 1) / 3 == us,
            "make_move: no animal of the side to move on the from-square"
        );
        let animal = Animal::ALL[usize::from(code - 1) % 3];
        self.history.push(Undo { mv, hash: self.hash, tally: self.tally[us] });
        // Pairs of different kinds: the mover's own kind never counts, and stays where it was.
        let others = self.side_squares(self.side) & !self.pieces[us][animal as usize];
        let left = count_few(NEIGHBOURS[mv.from as usize] & others);
        let joined = count_few(NEIGHBOURS[mv.to as usize] & others);
        self.tally[us] = self.tally[us].moved(mv.from, mv.to, left, joined);
        self.pieces[us][animal as usize] ^= from | to;
        self.occupied ^= from | to;
        self.board[mv.to as usize] = code;
        self.board[mv.from as usize] = 0;
        let keys = &zobrist::PIECE_KEYS[us][animal as usize];
        self.hash ^= keys[mv.from as usize] ^ keys[mv.to as usize] ^ zobrist::SECOND_TO_MOVE;
        self.seen[self.bucket()] += 1;
        self.side = self.side.other();
    }

    #[inline]
    fn take_back(&mut self) {
        let Undo { mv, hash, tally } = self.history.pop().expect("unmake_move: no move to take back");
        self.seen[self.bucket()] -= 1;
        self.side = self.side.other();
        let us = index(self.side);
        let (from, to) = (bit(mv.from as usize), bit(mv.to as usize));
        let code = self.board[mv.to as usize];
        let animal = Animal::ALL[usize::from(code - 1) % 3];
        self.pieces[us][animal as usize] ^= from | to;
        self.occupied ^= from | to;
        self.board[mv.from as usize] = code;
        self.board[mv.to as usize] = 0;
        self.tally[us] = tally;
        self.hash = hash;
    }
}

impl Game for Barca {
    type Move = BarcaMove;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<BarcaMove>) {
        for animal in self.moves_by_animal() {
            moves.extend(squares_of(animal.legal).map(|to| BarcaMove { from: animal.from, to }));
        }
    }

    fn make_move(&mut self, mv: BarcaMove) {
        self.play(mv);
    }

    fn unmake_move(&mut self) {
        self.take_back();
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.winner() {
            return Some(Outcome::Win(side));
        }
        let limit_reached = self.ply_limit.is_some_and(|limit| self.history.len() >= limit);
        (limit_reached || self.occurrences() >= 3).then_some(Outcome::Draw)
    }

    fn repeats_earlier_position(&self) -> bool {
        self.occurrences() > 1
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> Score {
        eval::DEFAULT_WEIGHTS.score(self)
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_text(&self, mv: BarcaMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<BarcaMove, String> {
        let mv: BarcaMove = text.parse()?;
        self.check_legal(mv)?;
        Ok(mv)
    }
}

impl crate::games::RegisteredGame for Barca {
    const ID: &'static str = "barca";
    const NAME: &'static str = "Barca";
    const SIDES: [&'static str; 2] = ["White", "Black"];
    const DEFAULT_POSITION: &'static str = START_FEN;
    const POSITION_HELP: &'static str =
        "FEN-like: ten rows from the top, E L M for White, e l m for Black, then w or b.";
    const DEFAULT_DEPTH: u32 = 3;
    // Deeper searches take minutes.
    const MAX_DEPTH: u32 = 5;
    const MAX_FULL_WIDTH_DEPTH: u32 = 3;
    // Random Barca games rarely end: playouts are scored after a few plies instead.
    const PLAYOUT_CUTOFF: Option<u32> = Some(16);

    fn parse_position(text: &str) -> Result<Self, String> {
        Barca::from_fen(text.trim()).map_err(|e| e.to_string())
    }

    fn position_text(&self) -> String {
        self.to_fen()
    }

    /// Rows split by /, a space, the side to move.
    fn looks_like(text: &str) -> bool {
        matches!(text.split_whitespace().collect::<Vec<_>>()[..], [rows, _] if rows.contains('/') && !rows.contains(','))
    }

    /// The game with its history, which decides repetitions.
    fn record(&self) -> String {
        serde_json::to_string(self).expect("a game is plain data")
    }

    fn from_record(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The spec's perft: repetition ignored, won positions end a sequence.
    fn perft(&mut self, depth: usize) -> u64 {
        perft::perft(self, depth)
    }
}
