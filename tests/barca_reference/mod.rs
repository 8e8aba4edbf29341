//! An independent, deliberately naive Barca rule checker for the tests, written from the text of
//! `../shared/spec/barca-rules.md` alone: a mailbox of 100 squares, pieces walked one step at a
//! time, every rule spelled out. It is slow and shares no code with the engine.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::Game;
use searchlab::games::barca::{Barca, BarcaMove};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Elephant,
    Lion,
    Mouse,
}

/// (is White, kind)
pub type Piece = (bool, Kind);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// `board[column][row]`, column a = 0, row 1 = 0.
    pub board: [[Option<Piece>; 10]; 10],
    pub white_to_move: bool,
}

const WATERING_HOLES: [(usize, usize); 4] = [(3, 3), (6, 3), (3, 6), (6, 6)];

/// Reads a well-formed position (the tests only feed it the engine's own FEN output or literals).
pub fn parse(fen: &str) -> Position {
    let (rows, side) = fen.split_once(' ').expect("rows and side");
    let mut board = [[None; 10]; 10];
    for (i, rank) in rows.split('/').enumerate() {
        let row = 9 - i;
        let mut column = 0;
        let mut digits = String::new();
        for c in rank.chars().chain(std::iter::once('.')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                column += digits.parse::<usize>().unwrap();
                digits.clear();
            }
            let kind = match c.to_ascii_lowercase() {
                'e' => Kind::Elephant,
                'l' => Kind::Lion,
                'm' => Kind::Mouse,
                _ => continue,
            };
            board[column][row] = Some((c.is_ascii_uppercase(), kind));
            column += 1;
        }
    }
    Position { board, white_to_move: side == "w" }
}

fn name(column: usize, row: usize) -> String {
    format!("{}{}", (b'a' + column as u8) as char, row + 1)
}

/// The mouse fears the lion, the lion the elephant, the elephant the mouse.
fn fears(animal: Kind, other: Kind) -> bool {
    matches!((animal, other), (Kind::Mouse, Kind::Lion) | (Kind::Lion, Kind::Elephant) | (Kind::Elephant, Kind::Mouse))
}

impl Position {
    /// Would `piece` be scared standing on (column, row)? An enemy animal it fears on one of the 8
    /// squares around it.
    fn scared_on(&self, piece: Piece, column: usize, row: usize) -> bool {
        for dc in -1i32..=1 {
            for dr in -1i32..=1 {
                if (dc, dr) == (0, 0) {
                    continue;
                }
                let (c, r) = (column as i32 + dc, row as i32 + dr);
                if !(0..10).contains(&c) || !(0..10).contains(&r) {
                    continue;
                }
                if let Some((white, kind)) = self.board[c as usize][r as usize]
                    && white != piece.0
                    && fears(piece.1, kind)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Every empty square the animal on (column, row) can slide to.
    fn reachable(&self, column: usize, row: usize) -> Vec<(usize, usize)> {
        let (_, kind) = self.board[column][row].unwrap();
        let orthogonal = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let directions: Vec<(i32, i32)> = match kind {
            Kind::Mouse => orthogonal.to_vec(),
            Kind::Lion => diagonal.to_vec(),
            Kind::Elephant => orthogonal.iter().chain(diagonal.iter()).copied().collect(),
        };
        let mut squares = Vec::new();
        for (dc, dr) in directions {
            let (mut c, mut r) = (column as i32 + dc, row as i32 + dr);
            while (0..10).contains(&c) && (0..10).contains(&r) && self.board[c as usize][r as usize].is_none() {
                squares.push((c as usize, r as usize));
                c += dc;
                r += dr;
            }
        }
        squares
    }

    /// The legal moves as text (`e2e5`), straight from the spec's cases 1-3.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut scared = Vec::new();
        let mut calm = Vec::new();
        for column in 0..10 {
            for row in 0..10 {
                if let Some(piece) = self.board[column][row]
                    && piece.0 == self.white_to_move
                {
                    if self.scared_on(piece, column, row) {
                        scared.push((column, row))
                    } else {
                        calm.push((column, row))
                    }
                }
            }
        }
        let moves_of = |squares: &[(usize, usize)], only_safe: bool| -> Vec<String> {
            let mut moves = Vec::new();
            for &(column, row) in squares {
                let piece = self.board[column][row].unwrap();
                for (c, r) in self.reachable(column, row) {
                    if !only_safe || !self.scared_on(piece, c, r) {
                        moves.push(format!("{}{}", name(column, row), name(c, r)));
                    }
                }
            }
            moves
        };
        if scared.is_empty() {
            return moves_of(&calm, true);
        }
        let escapes = moves_of(&scared, true);
        if !escapes.is_empty() {
            return escapes;
        }
        let mut moves = moves_of(&scared, false);
        moves.extend(moves_of(&calm, true));
        moves
    }

    /// White or Black (true/false) when its animals stand on 3 or more watering holes.
    pub fn winner(&self) -> Option<bool> {
        [true, false].into_iter().find(|&white| {
            WATERING_HOLES.iter().filter(|&&(c, r)| self.board[c][r].is_some_and(|p| p.0 == white)).count() >= 3
        })
    }

    pub fn play(&self, mv: &str) -> Position {
        let square = |text: &str| {
            let column = (text.as_bytes()[0] - b'a') as usize;
            (column, text[1..].parse::<usize>().unwrap() - 1)
        };
        let split = if mv[2..].starts_with(|c: char| c.is_ascii_digit()) { 3 } else { 2 };
        let ((fc, fr), (tc, tr)) = (square(&mv[..split]), square(&mv[split..]));
        let mut next = self.clone();
        next.board[tc][tr] = next.board[fc][fr].take();
        next.white_to_move = !self.white_to_move;
        next
    }

    pub fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.winner().is_some() {
            return 0;
        }
        self.legal_moves().iter().map(|mv| self.play(mv).perft(depth - 1)).sum()
    }
}

/// The engine's legal moves as sorted text.
pub fn engine_moves(game: &Barca) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut text: Vec<String> = moves.iter().map(BarcaMove::to_string).collect();
    text.sort();
    text
}

/// The reference's legal moves, sorted.
pub fn reference_moves(fen: &str) -> Vec<String> {
    let mut moves = parse(fen).legal_moves();
    moves.sort();
    moves
}

/// Positions met along random games from the start (each game stops at a win, at no legal
/// move, or after `plies`), every position of every game.
pub fn playout_positions(games: usize, plies: usize, seed: u64) -> Vec<Barca> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = Barca::start();
        for _ in 0..plies {
            moves.clear();
            game.legal_moves(&mut moves);
            if game.winner().is_some() || moves.is_empty() {
                break;
            }
            game.make_move(moves[rng.random_range(0..moves.len())]);
            positions.push(Barca::from_fen(&game.to_fen()).unwrap());
        }
    }
    positions
}

/// A FEN with the given pieces (`("e5", 'M')`, ...) on an otherwise empty board.
pub fn fen_with(pieces: &[(&str, char)], side: char) -> String {
    let mut board = [['.'; 10]; 10];
    for (square, piece) in pieces {
        let column = (square.as_bytes()[0] - b'a') as usize;
        let row = square[1..].parse::<usize>().unwrap() - 1;
        assert_eq!(board[row][column], '.', "two pieces on {square}");
        board[row][column] = *piece;
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in &board[row] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text += &empty.to_string();
                    }
                    empty = 0;
                    text.push(c);
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

/// Positions where fear decides the moves: [a scared mouse that can run (case 2), a trapped mouse
/// (case 3), a scared lion that can run beside the trapped mouse (case 2), a lion one move from a
/// third watering hole].
pub fn fear_positions() -> [String; 4] {
    let mut positions = Vec::new();
    // The white mouse on e5 is scared by the lion on f6 and can run.
    let mut pieces = vec![("e10", 'e'), ("f10", 'e'), ("a10", 'm'), ("j10", 'm'), ("a1", 'E'), ("j1", 'E')];
    pieces.extend([("e5", 'M'), ("b2", 'M'), ("f6", 'l'), ("h8", 'l'), ("c3", 'L'), ("h3", 'L')]);
    positions.push(fen_with(&pieces, 'w'));
    // The white mouse on a1 is boxed in by its own elephants next to a black lion: trapped.
    let trapped_mouse = [("a1", 'M'), ("h2", 'M'), ("a2", 'E'), ("c1", 'E'), ("b2", 'l'), ("a10", 'm'), ("j10", 'm')];
    let mut pieces = trapped_mouse.to_vec();
    pieces.extend([("e10", 'e'), ("f10", 'e'), ("h8", 'l'), ("c3", 'L'), ("h3", 'L')]);
    positions.push(fen_with(&pieces, 'w'));
    // Two scared white animals: the lion on g7 (elephant f8), which can run, and the trapped mouse.
    let mut pieces = trapped_mouse.to_vec();
    pieces.extend([("f8", 'e'), ("f10", 'e'), ("h9", 'l'), ("g7", 'L'), ("h3", 'L')]);
    positions.push(fen_with(&pieces, 'w'));
    // White holds d4 and g4 and its lion on a4 can take d7; Black to move first.
    let mut pieces = vec![("e10", 'e'), ("f10", 'e'), ("a10", 'm'), ("j10", 'm'), ("d4", 'E'), ("g4", 'E')];
    pieces.extend([("e2", 'M'), ("f2", 'M'), ("c9", 'l'), ("h9", 'l'), ("a4", 'L'), ("j5", 'L')]);
    positions.push(fen_with(&pieces, 'b'));
    positions.try_into().unwrap()
}
