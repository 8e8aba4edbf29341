//! The Barca engine against the rule spec: generated moves equal the independent reference's,
//! make/unmake and the incremental hash, rule scenarios, notation errors, and parsers that never
//! panic.

mod barca_reference;
mod common;

use barca_reference::{engine_moves, fear_positions, fen_with, playout_positions, reference_moves};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::barca::{Barca, BarcaMove, FenError, START_FEN, parse_square, square_name, squares_of};
use searchlab::games::{Game, Outcome, Side};

fn play(game: &mut Barca, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_fen()));
        game.make_move(mv);
    }
}

fn moves_from(game: &Barca, from: &str) -> Vec<String> {
    engine_moves(game)
        .into_iter()
        .filter(|mv| mv.starts_with(from) && !mv[from.len()..].starts_with(char::is_numeric))
        .collect()
}

#[test]
fn generated_moves_equal_the_reference_moves_on_thousands_of_positions() {
    let positions = playout_positions(60, 80, 1);
    assert!(positions.len() > 2_000, "only {} positions", positions.len());
    let mut scared_positions = 0;
    for game in &positions {
        let fen = game.to_fen();
        assert_eq!(engine_moves(game), reference_moves(&fen), "{fen}");
        scared_positions += usize::from(game.scared_animals(game.side_to_move()) != 0);
    }
    assert!(scared_positions > 100, "random play should meet fear often, met it {scared_positions} times");
}

#[test]
fn make_unmake_restores_the_position_and_the_hash_stays_incremental() {
    let mut rng = StdRng::seed_from_u64(2);
    let mut moves = Vec::new();
    for _ in 0..1_000 {
        let mut game = Barca::start();
        let mut trail = vec![(game.to_fen(), game.hash())];
        for ply in 0..60 {
            moves.clear();
            game.legal_moves(&mut moves);
            if moves.is_empty() || game.winner().is_some() {
                break;
            }
            // Every move of every eighth position must come back exactly.
            for &mv in moves.iter().filter(|_| ply % 8 == 0) {
                game.make_move(mv);
                assert_eq!(game.hash(), game.hash_from_scratch(), "after {mv}");
                game.unmake_move();
                assert_eq!((game.to_fen(), game.hash()), *trail.last().unwrap(), "{mv} taken back");
            }
            game.make_move(moves[rng.random_range(0..moves.len())]);
            assert_eq!(game.hash(), Barca::from_fen(&game.to_fen()).unwrap().hash());
            trail.push((game.to_fen(), game.hash()));
        }
        while game.ply() > 0 {
            trail.pop();
            game.unmake_move();
            assert_eq!((game.to_fen(), game.hash()), *trail.last().unwrap());
        }
    }
}

#[test]
fn fen_round_trips_on_playout_positions() {
    for game in playout_positions(20, 60, 3) {
        let again = Barca::from_fen(&game.to_fen()).unwrap();
        assert_eq!(again.to_fen(), game.to_fen());
        assert_eq!(again.hash(), game.hash());
    }
    assert_eq!(Barca::start().to_fen(), START_FEN);
}

#[test]
fn start_position_has_the_spec_pieces_and_white_moves() {
    let game = Barca::start();
    assert_eq!(game.side_to_move(), Side::First);
    let white: Vec<String> = squares_of(game.side_squares(Side::First)).map(square_name).collect();
    assert_eq!(white, ["e1", "f1", "d2", "e2", "f2", "g2"]);
    assert_eq!(game.outcome(), None);
    assert!(!game.repeats_earlier_position());
}

#[test]
fn a_scared_animal_must_escape() {
    let [scared_mouse, _, scared_lion_and_trapped_mouse, _] = fear_positions();
    let game = Barca::from_fen(&scared_mouse).unwrap();
    let moves = engine_moves(&game);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|mv| mv.starts_with("e5")), "only the scared mouse moves: {moves:?}");
    // The mouse cannot stop beside the lion on f6: e6, e7 (next to f6) and f5 are out; e8 is fine.
    for scared_square in ["e5e6", "e5e7", "e5f5"] {
        assert!(!moves.contains(&scared_square.to_string()), "{scared_square}");
    }
    assert!(moves.contains(&"e5e8".to_string()));
    let error = game.parse_move("b2b5").unwrap_err();
    assert!(error.contains("scared animal must move"), "{error}");

    // With a trapped mouse beside it, the scared lion that can run is the only one to move.
    let game = Barca::from_fen(&scared_lion_and_trapped_mouse).unwrap();
    let moves = engine_moves(&game);
    assert!(!moves.is_empty() && moves.iter().all(|mv| mv.starts_with("g7")), "{moves:?}");
}

#[test]
fn a_trapped_animal_may_move_into_fear_or_another_animal_moves_safely() {
    let [_, trapped_mouse, _, _] = fear_positions();
    let game = Barca::from_fen(&trapped_mouse).unwrap();
    assert_eq!(squares_of(game.scared_animals(Side::First)).map(square_name).collect::<Vec<_>>(), ["a1"]);
    let moves = engine_moves(&game);
    assert_eq!(moves_from(&game, "a1"), ["a1b1"], "the trapped mouse may step to the scared b1");
    assert!(moves.contains(&"c3d4".to_string()), "or the lion moves safely instead: {moves:?}");
    // The animals that are not scared still keep to safe squares.
    for animal in game.moves_by_animal().iter().filter(|m| !m.scared) {
        assert_eq!(animal.legal, animal.safe, "{}", square_name(animal.from));
    }
    assert_eq!(moves, reference_moves(&trapped_mouse));
    let mouse = game.animal_moves(parse_square("a1").unwrap()).unwrap();
    assert!(mouse.scared && mouse.safe == 0 && mouse.legal == mouse.reachable);
}

#[test]
fn an_animal_cannot_move_into_fear() {
    // The white lion on c5 may not stop on e7, next to the black elephant on f6.
    let fen = fen_with(
        &[
            ("c5", 'L'),
            ("h1", 'L'),
            ("a1", 'E'),
            ("b1", 'E'),
            ("a2", 'M'),
            ("b2", 'M'),
            ("f6", 'e'),
            ("j10", 'e'),
            ("a10", 'l'),
            ("b10", 'l'),
            ("a9", 'm'),
            ("b9", 'm'),
        ],
        'w',
    );
    let game = Barca::from_fen(&fen).unwrap();
    let lion_moves = ["c5a3", "c5a7", "c5b4", "c5b6", "c5d4", "c5d6", "c5e3", "c5f2", "c5f8", "c5g1", "c5g9", "c5h10"];
    assert_eq!(moves_from(&game, "c5"), lion_moves);
    let lion = game.animal_moves(parse_square("c5").unwrap()).unwrap();
    let red: Vec<String> = squares_of(lion.scared_destinations()).map(square_name).collect();
    assert_eq!(red, ["e7"], "the one reachable square next to the elephant");
    let error = game.parse_move("c5e7").unwrap_err();
    assert!(error.contains("would be scared on e7"), "{error}");
    assert_eq!(engine_moves(&game), reference_moves(&fen));
}

#[test]
fn taking_a_third_watering_hole_wins_at_once() {
    let [.., lion_can_win] = fear_positions();
    let mut game = Barca::from_fen(&lion_can_win).unwrap();
    play(&mut game, "a10a9");
    assert_eq!(game.outcome(), None);
    play(&mut game, "a4d7");
    assert_eq!(game.holes_held(Side::First), 3);
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
    game.unmake_move();
    assert_eq!(game.outcome(), None);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let mut game = Barca::start();
    play(&mut game, "d2c3 d9c8 c3d2 c8d9");
    assert!(game.repeats_earlier_position());
    assert_eq!(game.outcome(), None, "second occurrence");
    play(&mut game, "d2c3");
    assert!(game.repeats_earlier_position());
    play(&mut game, "d9c8 c3d2 c8d9");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw), "third occurrence");
    game.unmake_move();
    assert_eq!(game.outcome(), None);
    // The same squares with the other side to move is another position.
    let mut game = Barca::start();
    play(&mut game, "d2c3 d9c8 c3b4 c8d9 b4d2");
    assert_eq!(game.to_fen(), START_FEN.replace(" w", " b"));
    assert!(!game.repeats_earlier_position());
}

#[test]
fn reaching_the_ply_limit_is_a_draw() {
    let mut game = Barca::start();
    game.set_ply_limit(Some(2));
    play(&mut game, "d2c3");
    assert_eq!(game.outcome(), None);
    play(&mut game, "d9c8");
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    game.unmake_move();
    assert_eq!(game.outcome(), None);
    game.set_ply_limit(None);
    play(&mut game, "d9c8");
    assert_eq!(game.outcome(), None);
}

#[test]
fn malformed_positions_name_the_problem() {
    let cases: [(&str, FenError, &str); 7] = [
        ("4ee4/3lmml3/10/10/10/10/10/3LMML3/4EE4 w", FenError::RowCount { found: 9 }, "9 rows"),
        ("4ee4/3lmml3/10/10/9/10/10/10/3LMML3/4EE4 w", FenError::RowLength { row: 6, squares: 9 }, "row 6"),
        ("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE5 w", FenError::RowLength { row: 1, squares: 11 }, "row 1"),
        ("4ee4/3lmxl3/10/10/10/10/10/10/3LMML3/4EE4 w", FenError::BadChar { row: 9, found: 'x' }, "'x'"),
        ("4ee4/3lmml3/10/10/10/10/010/10/3LMML3/4EE4 w", FenError::BadNumber { row: 4, number: "010".into() }, "row 4"),
        ("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4", FenError::MissingSide, "side to move"),
        ("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 x", FenError::BadSide { found: "x".into() }, "'x'"),
    ];
    for (fen, expected, words) in cases {
        let error = Barca::from_fen(fen).unwrap_err();
        assert_eq!(error, expected, "{fen}");
        assert!(error.to_string().contains(words), "{error}");
    }
    let error = Barca::from_fen("4ee4/3lmml3/10/10/10/10/10/10/3LMMM3/4EE4 w").unwrap_err();
    assert!(matches!(error, FenError::PieceCount { piece: 'L', count: 1, .. }), "{error:?}");
    assert_eq!(error.to_string(), "White has 1 lion ('L'), expected 2");
    let none = Barca::from_fen("4ee4/3lmml3/10/10/10/10/10/10/3L2L3/4EE4 w").unwrap_err();
    assert_eq!(none.to_string(), "White has 0 mice ('M'), expected 2");
    let error = Barca::from_fen("4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 w 12").unwrap_err();
    assert_eq!(error, FenError::TrailingText { found: "12".into() });
    assert_eq!(Barca::from_fen("").unwrap_err(), FenError::RowCount { found: 1 });
}

#[test]
fn malformed_and_illegal_moves_name_the_problem() {
    let game = Barca::start();
    for (text, words) in [
        ("", "not a move"),
        ("e2", "not a move"),
        ("k2e5", "column 'k'"),
        ("e0e5", "row '0'"),
        ("e2e11", "row '11'"),
        ("e2e5x", "row '5x'"),
        ("e2e2", "moves nowhere"),
        ("e3e4", "no animal"),
        ("e9e8", "opponent's animal"),
        ("e1e3", "cannot reach e3"),
    ] {
        let error = game.parse_move(text).unwrap_err();
        assert!(error.contains(words), "{text}: {error}");
    }
    let mv = game.parse_move("e2e5").unwrap();
    assert_eq!(mv, BarcaMove { from: 14, to: 44 });
    assert_eq!(mv.to_string(), "e2e5");
    assert_eq!("f10f3".parse::<BarcaMove>().unwrap(), BarcaMove { from: 95, to: 25 });
    assert_eq!(parse_square("j10"), Ok(99));
    assert_eq!(square_name(0), "a1");
}

#[test]
fn move_text_round_trips_for_every_legal_move() {
    for game in playout_positions(5, 40, 4) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            assert_eq!(game.parse_move(&game.move_text(mv)), Ok(mv));
        }
    }
}

proptest! {
    #[test]
    fn position_and_move_parsers_never_panic(chars in proptest::collection::vec(any::<char>(), 0..80)) {
        let text: String = chars.into_iter().collect();
        common::assert_one_line_error(Barca::from_fen(&text));
        common::assert_one_line_error(Barca::start().parse_move(&text));
        common::assert_one_line_error(parse_square(&text));
    }

    #[test]
    fn near_miss_positions_never_panic(text in "[elmELM0-9/]{0,60}( [wb ]{0,3})?") {
        if let Ok(game) = Barca::from_fen(&text) {
            prop_assert_eq!(Barca::from_fen(&game.to_fen()).unwrap().to_fen(), game.to_fen());
        }
    }

    #[test]
    fn near_miss_moves_never_panic(text in "[a-k]{0,2}[0-9]{0,3}[a-k]{0,2}[0-9]{0,3}") {
        if let Ok(mv) = text.parse::<BarcaMove>() {
            prop_assert!(mv.from < 100 && mv.to < 100);
        }
    }
}
