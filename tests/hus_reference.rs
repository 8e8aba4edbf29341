//! Hus against a second, plain implementation of `../shared/spec/hus-rules.md` written here in the
//! shape of the course framework's `HusBoardState` (seed-by-seed sowing, `canCapture`, `capture`,
//! `updateWinner`), sharing no code with the engine: legal moves, resulting positions and results
//! over more than 10,000 positions of random games, and perft to depth 4; and hand-counted
//! positions for the text form, the draw and the evaluation.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::RegisteredGame;
use searchlab::games::hus::{Hus, START_TEXT};
use searchlab::games::{Game, Outcome, Side};

const WIDTH: usize = 16;
const MAX_TURN: i32 = 5000;
const MAX_TURN_LENGTH: i32 = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Winner {
    Nobody,
    Player(usize),
    Draw,
    Cancelled(usize),
}

#[derive(Debug, Clone)]
struct Reference {
    board: [[i32; 2 * WIDTH]; 2],
    turn_player: usize,
    turn_number: i32,
    winner: Winner,
    /// Captures made so far, to show that the random games exercise them.
    captures: u32,
}

impl Reference {
    fn new() -> Reference {
        // placeInitialSeeds: 2 seeds in each of the first 1.5 * WIDTH pits of both players.
        let mut board = [[0; 2 * WIDTH]; 2];
        for row in &mut board {
            row[..3 * WIDTH / 2].fill(2);
        }
        Reference { board, turn_player: 0, turn_number: 0, winner: Winner::Nobody, captures: 0 }
    }

    fn legal_moves(&self) -> Vec<usize> {
        if self.winner != Winner::Nobody {
            return Vec::new();
        }
        (0..2 * WIDTH).filter(|&pit| self.board[self.turn_player][pit] > 1).collect()
    }

    fn play(&mut self, start: usize) {
        assert!(self.legal_moves().contains(&start));
        let me = self.turn_player;
        let mut hand = self.board[me][start];
        self.board[me][start] = 0;
        let mut pit = start;
        let mut iterations = 0;
        loop {
            if iterations >= MAX_TURN_LENGTH {
                self.winner = Winner::Cancelled(me);
                return;
            }
            while hand > 0 {
                pit = (pit + 1) % (2 * WIDTH);
                self.board[me][pit] += 1;
                hand -= 1;
            }
            iterations += 1;
            if self.board[me][pit] <= 1 {
                break;
            }
            if self.can_capture(pit) {
                let (outer, inner) = (pit - WIDTH, 2 * WIDTH - 1 - (pit - WIDTH));
                hand = self.board[1 - me][outer] + self.board[1 - me][inner];
                self.board[1 - me][outer] = 0;
                self.board[1 - me][inner] = 0;
                self.captures += 1;
            } else {
                hand = self.board[me][pit];
                self.board[me][pit] = 0;
            }
        }
        if me == 1 {
            self.turn_number += 1;
        }
        self.turn_player = 1 - me;
        if !self.board[self.turn_player].iter().any(|&seeds| seeds > 1) {
            self.winner = Winner::Player(me);
        } else if self.turn_number > MAX_TURN {
            self.winner = Winner::Draw;
        }
    }

    fn can_capture(&self, pit: usize) -> bool {
        self.turn_number > 0
            && (WIDTH..2 * WIDTH).contains(&pit)
            && self.board[1 - self.turn_player][2 * WIDTH - 1 - (pit - WIDTH)] > 0
    }

    /// The spec's position text.
    fn text(&self) -> String {
        let row = |player: usize| self.board[player].iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
        format!("{}/{} {} {}", row(0), row(1), self.turn_player, self.turn_number)
    }

    fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .into_iter()
            .map(|pit| {
                let mut child = self.clone();
                child.play(pit);
                child.perft(depth - 1)
            })
            .sum()
    }
}

fn player(side: Side) -> usize {
    if side == Side::First { 0 } else { 1 }
}

/// The engine's result in the reference's terms (the engine scores a cancelled game as the
/// canceller's loss, and passes the turn so that plies alternate).
fn engine_winner(game: &Hus) -> Winner {
    match (game.cancelled_by(), game.outcome()) {
        (Some(side), Some(Outcome::Win(winner))) if winner == side.other() => Winner::Cancelled(player(side)),
        (Some(side), outcome) => panic!("cancelled by {side:?} but the outcome is {outcome:?}"),
        (None, None) => Winner::Nobody,
        (None, Some(Outcome::Win(side))) => Winner::Player(player(side)),
        (None, Some(Outcome::Draw)) => Winner::Draw,
    }
}

/// The engine's position after a move equals the reference's.
fn assert_same(engine: &Hus, reference: &Reference, context: &str) {
    let winner = engine_winner(engine);
    assert_eq!(winner, reference.winner, "{context}");
    if let Winner::Cancelled(canceller) = winner {
        // The reference, like the framework, leaves the canceller on turn.
        assert_eq!(player(engine.side_to_move()), 1 - canceller, "{context}");
        let text = engine.to_text();
        let board = text.split(' ').next().unwrap();
        assert_eq!(board, reference.text().split(' ').next().unwrap(), "{context}");
    } else {
        assert_eq!(engine.to_text(), reference.text(), "{context}");
    }
}

#[test]
fn the_engine_plays_as_the_reference_on_over_10_000_random_positions() {
    let mut rng = StdRng::seed_from_u64(424);
    let (mut positions, mut moves_checked, mut games) = (0, 0, 0);
    let (mut wins, mut cancelled, mut captures) = (0, 0, 0);
    while positions < 12_000 {
        games += 1;
        let mut engine = Hus::start();
        let mut reference = Reference::new();
        // Long games are mostly shuffling; capping them spreads the positions over more games.
        for _ in 0..rng.random_range(20..400) {
            let context = format!("game {games} ply {}: {}", engine.ply(), engine.to_text());
            let mut legal = Vec::new();
            engine.legal_moves(&mut legal);
            let expected: Vec<u8> = reference.legal_moves().into_iter().map(|pit| pit as u8).collect();
            assert_eq!(legal, expected, "{context}");
            if legal.is_empty() {
                break;
            }
            positions += 1;
            for &pit in &legal {
                let mut next = reference.clone();
                next.play(pit as usize);
                engine.make_move(pit);
                assert_same(&engine, &next, &format!("{context}, pit {pit}"));
                engine.unmake_move();
                moves_checked += 1;
            }
            assert_eq!(engine.to_text(), reference.text(), "{context}: unmake_move");
            assert_eq!(engine.hash(), engine.hash_from_scratch());
            let pit = legal[rng.random_range(0..legal.len())];
            engine.make_move(pit);
            reference.play(pit as usize);
        }
        match reference.winner {
            Winner::Player(_) => wins += 1,
            Winner::Cancelled(_) => cancelled += 1,
            _ => {}
        }
        captures += reference.captures;
    }
    eprintln!(
        "{positions} positions, {moves_checked} moves in {games} games: {wins} won, {cancelled} cancelled, \
         {captures} captures"
    );
    assert!(wins >= 10 && captures >= 1_000, "the games must reach wins and captures");
}

#[test]
fn perft_to_depth_4_agrees_with_the_reference_and_the_spec() {
    // Spec table (an independent Python implementation), and this file's reference.
    let spec = [24, 576, 11_040, 207_443];
    for depth in 1..=4 {
        let engine = Hus::start().perft(depth);
        let reference = Reference::new().perft(depth);
        eprintln!("perft {depth}: engine {engine}, reference {reference}");
        assert_eq!(engine, reference, "depth {depth}");
        assert_eq!(engine, spec[depth - 1], "depth {depth}");
    }
    assert_eq!(Hus::start().perft(5), 3_439_088, "the spec's depth 5");
}

#[test]
fn position_text_round_trips_and_bad_text_gets_one_line() {
    assert_eq!(Hus::start().to_text(), START_TEXT);
    assert_eq!(Reference::new().text(), START_TEXT);
    let mut game = Hus::start();
    for _ in 0..3 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.make_move(moves[moves.len() / 2]);
    }
    let text = game.to_text();
    assert_eq!(Hus::from_text(&text).unwrap().to_text(), text);
    let (board, rest) = START_TEXT.split_once(' ').unwrap();
    let bad = [
        String::new(),
        board.to_string(),
        format!("{board} 2 0"),
        format!("{board} 0 -1"),
        START_TEXT.replacen("2,", "3,", 1),
        START_TEXT.replacen("2,", "x,", 1),
        START_TEXT.replacen("2,", "", 1),
        START_TEXT.replacen('/', ",", 1),
        format!("{board} {rest} 9"),
    ];
    for text in &bad {
        let error = Hus::from_text(text).unwrap_err();
        assert!(!error.is_empty() && !error.contains('\n'), "{text:?}: {error}");
    }
    let start = Hus::start();
    for (mv, why) in [("24", "holds 0"), ("32", "not a pit"), ("-1", "not a pit"), ("x", "not a pit")] {
        assert!(start.parse_move(mv).unwrap_err().contains(why), "{mv}");
    }
}

#[test]
fn the_draw_comes_after_turn_5000() {
    let (board, _) = START_TEXT.split_once(' ').unwrap();
    assert_eq!(Hus::from_text(&format!("{board} 0 5000")).unwrap().outcome(), None);
    let mut game = Hus::from_text(&format!("{board} 1 5000")).unwrap();
    game.play_moves("0").unwrap();
    assert_eq!(game.turn_number(), 5001);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(game.parse_move("0").unwrap_err().contains("over"));
}

/// Player 0's pits `p0` and player 1's `p1` as (pit, seeds) lists, the rest empty.
fn position(p0: &[(usize, u8)], p1: &[(usize, u8)], side: u8, turn: u32) -> Hus {
    let row = |pits: &[(usize, u8)]| {
        let mut counts = [0u8; 32];
        pits.iter().for_each(|&(pit, seeds)| counts[pit] = seeds);
        counts.map(|seeds| seeds.to_string()).join(",")
    };
    Hus::from_text(&format!("{}/{} {side} {turn}", row(p0), row(p1))).unwrap()
}

#[test]
fn the_evaluation_counts_hand_checked_features() {
    use searchlab::games::hus::{DEFAULT_WEIGHTS, breakdown};
    let raw =
        |game: &Hus| breakdown(game, &DEFAULT_WEIGHTS).iter().map(|t| (t.name, t.own, t.opponent)).collect::<Vec<_>>();
    // The start: 48 seeds, 8 inner pits and 24 moves each; every inner pit facing a sown one is empty.
    let start: [(&str, u32, u32); 4] =
        [("seed difference", 48, 48), ("exposed inner pits", 8, 8), ("capture threats", 0, 0), ("mobility", 24, 24)];
    assert_eq!(raw(&Hus::start()), start);
    assert_eq!(Hus::start().evaluate(), 0);
    // Player 0's pit 14 (2 seeds) ends on inner pit 16 (1 seed), facing player 1's pit 31 (3 seeds):
    // a threat. Pit 0 (45 seeds) laps once and ends on outer pit 13. Player 1's pit 5 laps onto
    // its inner pit 18, which faces player 0's empty pit 29.
    let game = position(&[(0, 45), (14, 2), (16, 1)], &[(5, 45), (31, 3)], 0, 1);
    let expected: [(&str, u32, u32); 3] = [("exposed inner pits", 1, 1), ("capture threats", 1, 0), ("mobility", 2, 2)];
    assert_eq!(raw(&game)[1..], expected);
    let sum: i32 = breakdown(&game, &DEFAULT_WEIGHTS).iter().map(|t| t.contribution).sum();
    assert_eq!(sum, game.evaluate());
    // And the threat is real: the 3 captured seeds are sown into pits 17, 18 and 19.
    let mut after = game.clone();
    after.play_moves("14").unwrap();
    assert_eq!(after.pits(Side::First).iter().map(|&s| u32::from(s)).sum::<u32>(), 51);
    assert_eq!(after.pits(Side::First)[16..20], [2, 1, 1, 1]);
    // In the first turn the same landing relays instead: pit 16's 2 seeds go on to 17 and 18.
    let mut first_turn = position(&[(0, 45), (14, 2), (16, 1)], &[(5, 45), (31, 3)], 0, 0);
    first_turn.play_moves("14").unwrap();
    assert_eq!(first_turn.pits(Side::First)[14..20], [0, 1, 0, 1, 1, 0]);
}

#[test]
fn a_move_needing_more_than_200_rounds_cancels_the_game_as_in_the_reference() {
    // Found by a search over random boards: player 0's pit 2 relays and captures past the cap.
    let p0 = "0,4,3,3,0,3,2,1,2,1,0,2,4,1,1,0,2,3,0,1,1,1,2,1,2,1,0,1,4,1,0,1";
    let p1 = "1,5,5,2,2,0,1,1,0,3,1,0,2,2,1,2,2,1,1,2,2,2,3,3,2,0,0,0,1,0,1,0";
    let text = format!("{p0}/{p1} 0 1");
    let mut reference = Reference::new();
    let counts = |row: &str| row.split(',').map(|n| n.parse().unwrap()).collect::<Vec<i32>>();
    reference.board = [counts(p0).try_into().unwrap(), counts(p1).try_into().unwrap()];
    reference.turn_number = 1;
    assert_eq!(reference.text(), text);
    reference.play(2);
    assert_eq!(reference.winner, Winner::Cancelled(0));
    let mut game = Hus::from_text(&text).unwrap();
    game.play_moves("2").unwrap();
    assert_same(&game, &reference, "pit 2");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::Second)), "the engine scores it as the canceller's loss");
    assert_eq!(game.perft(1), 0, "a cancelled game has no moves");
    game.unmake_move();
    assert_eq!((game.to_text(), game.cancelled_by()), (text, None));
}

/// The play page's animation: its first step drops one seed of the hand picked up, there is a step
/// per seed at least, and the last step is the reference's position after the move.
#[test]
fn sowing_steps_end_where_the_reference_does() {
    let mut rng = StdRng::seed_from_u64(47);
    let mut engine = Hus::start();
    let mut reference = Reference::new();
    for _ in 0..300 {
        let legal = reference.legal_moves();
        if legal.is_empty() {
            break;
        }
        let pit = legal[rng.random_range(0..legal.len())];
        let steps = engine.sowing_steps(pit as u8);
        let hand = u32::from(engine.pits(engine.side_to_move())[pit]);
        // The first drop: the hand picked up, one seed of it in the next pit.
        let after_first: u32 = steps[1].as_flattened().iter().map(|&s| u32::from(s)).sum();
        assert_eq!(after_first, searchlab::games::hus::SEEDS - hand + 1, "pit {pit}");
        assert!(steps.len() as u32 > hand, "one step per seed dropped at least");
        reference.play(pit);
        engine.make_move(pit as u8);
        if !matches!(reference.winner, Winner::Cancelled(_)) {
            let last = steps.last().unwrap();
            assert_eq!(last, &[*engine.pits(Side::First), *engine.pits(Side::Second)]);
            for (row, side) in reference.board.iter().zip([Side::First, Side::Second]) {
                let expected: Vec<u8> = row.iter().map(|&s| s as u8).collect();
                assert_eq!(last[player(side)].to_vec(), expected, "pit {pit}");
            }
        }
    }
}
