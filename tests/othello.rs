//! Othello against published facts: perft from the start (Aart Bik's counts, which also fix how
//! passes and finished games count), the rules booklet's start and first moves, and hand-counted
//! positions for passing, the end of the game and the evaluation's features.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::othello::{
    DEFAULT_WEIGHTS, Othello, OthelloMove, START_TEXT, breakdown, perft, square_name, stable_discs,
};
use searchlab::games::{Game, Outcome, Side};

/// Aart Bik, "Perft for Reversi" (2009), depths 1..10 (spec table O2).
const START_PERFT: [u64; 10] = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284];

#[test]
fn perft_from_the_start_matches_the_published_counts_to_depth_10() {
    // Depth 9 is the first with passes, which count as plies; depth 10 the first with finished
    // games, which count as leaves.
    for depth in 1..=10 {
        assert_eq!(perft(&mut Othello::start(), depth), START_PERFT[depth - 1], "depth {depth}");
    }
}

fn move_texts(game: &Othello) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&mv| game.move_text(mv)).collect()
}

#[test]
fn the_start_and_black_s_first_moves_are_the_booklet_s() {
    let start = Othello::start();
    assert_eq!(start.to_text(), "---------------------------OX------XO--------------------------- X");
    assert_eq!(START_TEXT, start.to_text());
    assert_eq!(start.side_to_move(), Side::First);
    assert_eq!(start.disc_at(27), Some(Side::Second), "d4 is White");
    assert_eq!(square_name(27), "d4");
    let mut first = move_texts(&start);
    first.sort();
    assert_eq!(first, ["c4", "d3", "e6", "f5"]);
    let mut game = start.clone();
    game.play_moves("d3").unwrap();
    // d3 turns d4 over: Black now has d3, d4, e4, d5; White only e5.
    assert_eq!(game.to_text(), "-------------------X-------XX------XO--------------------------- O");
}

#[test]
fn a_player_without_a_move_must_pass_and_the_game_ends_when_neither_can_move() {
    // Black (b1) has nothing to flip; White (a1) can take b1 from c1.
    let text = format!("OX{} X", "-".repeat(62));
    let mut game = Othello::from_text(&text).unwrap();
    assert_eq!(move_texts(&game), ["pass"]);
    assert!(game.parse_move("c1").unwrap_err().contains("must pass"));
    game.play_moves("pass c1").unwrap();
    assert!(game.parse_move("pass").is_err(), "nobody can move now");
    assert_eq!(move_texts(&game), Vec::<String>::new());
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::Second)));
    // pass, c1, then the finished game is one leaf however deep perft looks.
    let mut again = Othello::from_text(&text).unwrap();
    assert_eq!((1..=4).map(|depth| perft(&mut again, depth)).collect::<Vec<_>>(), [1, 1, 1, 1]);
    assert_eq!(again.to_text(), text, "perft leaves the position as it found it");
    // One disc each, far apart: nobody can move, and 1-1 is a draw.
    let draw = Othello::from_text(&format!("X{}O O", "-".repeat(62))).unwrap();
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
}

#[test]
fn bad_text_is_refused_with_one_line() {
    let start = Othello::start();
    let bad =
        [String::new(), "X".into(), START_TEXT.replace(" X", " Z"), START_TEXT[1..].into(), format!("-{START_TEXT}")];
    for bad in &bad {
        let error = Othello::from_text(bad).unwrap_err();
        assert!(!error.is_empty() && !error.contains('\n'), "{bad:?}: {error}");
    }
    assert!(Othello::from_text(&START_TEXT.replace('O', "Q")).unwrap_err().contains("d4"));
    for bad in ["i1", "a9", "a0", "d", "passs", "d3\nd4"] {
        let error = start.parse_move(bad).unwrap_err();
        assert!(!error.contains('\n'), "{error}");
    }
    assert!(start.parse_move("d4").unwrap_err().contains("not empty"));
    assert!(start.parse_move("a1").unwrap_err().contains("turns over no disc"));
    assert!(start.parse_move("pass").unwrap_err().contains("may not pass"));
    assert_eq!(start.parse_move(" D3 "), Ok(OthelloMove::Place(19)));
}

#[test]
fn random_games_keep_text_hash_and_disc_count_and_take_moves_back() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut finished = 0;
    for _ in 0..200 {
        let mut game = Othello::start();
        let mut texts = vec![game.to_text()];
        while game.outcome().is_none() {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            let placed = matches!(mv, OthelloMove::Place(_)) as u32;
            let discs = |g: &Othello| (g.discs(Side::First) | g.discs(Side::Second)).count_ones();
            let before = discs(&game);
            game.make_move(mv);
            assert_eq!(discs(&game), before + placed, "each move adds exactly one disc");
            assert_eq!(game.hash(), game.hash_from_scratch());
            let text = game.to_text();
            assert_eq!(Othello::from_text(&text).unwrap().to_text(), text);
            texts.push(text);
        }
        finished += 1;
        while game.ply() > 0 {
            game.unmake_move();
            texts.pop();
            assert_eq!(&game.to_text(), texts.last().unwrap());
            assert_eq!(game.hash(), game.hash_from_scratch());
        }
    }
    assert_eq!(finished, 200);
}

/// Squares by name, e.g. `squares("a1 b1")`.
fn squares(names: &str) -> u64 {
    names.split_whitespace().fold(0, |bits, name| match searchlab::games::othello::parse_move_text(name) {
        Ok(OthelloMove::Place(square)) => bits | 1 << square,
        _ => panic!("{name}"),
    })
}

#[test]
fn stable_discs_are_those_no_move_can_turn_over() {
    // Nothing is stable at the start; everything on a full board.
    assert_eq!(stable_discs(squares("e4 d5"), squares("d4 e5")), 0);
    assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
    // A corner and the disc next to it along the edge; b1 alone could be flanked from a1 and c1.
    assert_eq!(stable_discs(squares("a1 b1"), squares("c1")), squares("a1 b1"));
    assert_eq!(stable_discs(squares("b1"), squares("c1")), 0);
    // A full edge row is stable, corner to corner, whoever owns its discs.
    let row = squares("a1 b1 c1 d1 e1 f1 g1 h1");
    assert_eq!(stable_discs(squares("a1 c1 e1 g1"), row & !squares("a1 c1 e1 g1")), squares("a1 c1 e1 g1"));
    // b2 behind a corner triangle: its four axes all end on stable own discs or the edge.
    let triangle = squares("a1 b1 c1 a2 b2 a3");
    assert_eq!(stable_discs(triangle, squares("d4")), triangle);
}

#[test]
fn the_evaluation_counts_its_features_and_sums_its_breakdown() {
    let start = Othello::start();
    let terms = breakdown(&start, &DEFAULT_WEIGHTS);
    let names: Vec<_> = terms.iter().map(|term| term.name).collect();
    assert_eq!(names, ["mobility", "corners", "stability", "disc difference"]);
    // Symmetric start: four moves and two discs each, no corner, nothing stable.
    let raw: Vec<_> = terms.iter().map(|term| (term.own, term.opponent)).collect();
    assert_eq!(raw, [(4, 4), (0, 0), (0, 0), (2, 2)]);
    assert_eq!(start.evaluate(), 0);
    // White to move, holding a1 and h8 (both stable) against Black's 3 discs on the diagonal.
    let game = Othello::from_discs(squares("b2 c3 d4"), squares("a1 h8"), Side::Second).unwrap();
    let raw: Vec<_> = breakdown(&game, &DEFAULT_WEIGHTS).iter().map(|term| (term.own, term.opponent)).collect();
    // White: a1-h8 diagonal run b2..d4 flanked from a1 gives e5; nothing else. Black: no move.
    assert_eq!(raw, [(1, 0), (2, 0), (2, 0), (2, 3)]);
    let sum: i32 = breakdown(&game, &DEFAULT_WEIGHTS).iter().map(|term| term.contribution).sum();
    assert_eq!(sum, game.evaluate());
}
