//! The Barca evaluation: weights load from JSON, the breakdown adds up, and the features count
//! what the technical report describes.

mod barca_reference;
mod common;

use barca_reference::{fen_with, playout_positions};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::barca::{Barca, BarcaMove, Weights, breakdown};
use searchlab::games::{Evaluator, Game, Side};

#[test]
fn weights_round_trip_through_json() {
    let weights = Weights { scared: -7, holes_next_turn: [1, 2, 3], ..Weights::default() };
    assert_eq!(Weights::from_json(&weights.to_json()).unwrap(), weights);
}

#[test]
fn bad_weights_json_is_an_error_naming_the_problem() {
    let error = Weights::from_json("{\"scared\": -7}").unwrap_err();
    assert!(error.contains("missing field"), "{error}");
    let mut json: serde_json::Value = serde_json::from_str(&Weights::default().to_json()).unwrap();
    json["scarred"] = 3.into();
    let error = Weights::from_json(&json.to_string()).unwrap_err();
    assert!(error.contains("unknown field `scarred`"), "{error}");
    let error = Weights::from_json("{\"holes_held\": [1, 2]").unwrap_err();
    assert!(error.contains("line 1"), "{error}");
    // A file that is not JSON at all (a map, say) is called that, not a list of serde's tokens.
    let error = Weights::from_json("type octile\nheight 2\n").unwrap_err();
    assert!(error.starts_with("not a JSON weights file: ") && error.contains("line 1 column 2"), "{error}");
    let error = Weights::load(std::path::Path::new("no/such/weights.json")).unwrap_err();
    assert!(error.contains("no/such/weights.json"), "{error}");
}

#[test]
fn weights_that_could_rival_a_proven_win_are_refused() {
    let mut weights = Weights { centre: 20_000, ..Weights::default() };
    let error = Weights::from_json(&weights.to_json()).unwrap_err();
    assert!(error.contains("must stay below 500000"), "{error}");
    assert!(weights.largest_evaluation() >= 500_000);
    weights.centre = 2;
    assert!(Weights::from_json(&weights.to_json()).is_ok());
    // Near i32::MAX: no overflow, just the same refusal.
    let json = weights.to_json().replace("\"scared\": -30", "\"scared\": -2147483648");
    assert!(Weights::from_json(&json).unwrap_err().contains("scale the weights down"));
}

/// Weights with each hole-table entry below `held` and `next_turn` in size, the rest below `linear`.
fn weights_up_to(held: i32, next_turn: i32, linear: i32) -> impl Strategy<Value = Weights> {
    (
        prop::collection::vec(-held..held, 4),
        prop::collection::vec(-next_turn..next_turn, 3),
        prop::collection::vec(-linear..linear, 4),
    )
        .prop_map(|(held, next_turn, linear)| Weights {
            holes_held: [held[0], held[1], held[2], held[3]],
            holes_next_turn: [next_turn[0], next_turn[1], next_turn[2]],
            next_to_hole: linear[0],
            scared: linear[1],
            centre: linear[2],
            teammates: linear[3],
        })
}

proptest! {
    #[test]
    fn weight_parsing_never_panics(text in "\\PC{0,120}") {
        common::assert_one_line_error(Weights::from_json(&text));
    }

    #[test]
    fn any_accepted_weights_evaluate_without_overflow(weights in weights_up_to(100_000, 5_000, 2_000)) {
        if let Ok(weights) = Weights::from_json(&weights.to_json()) {
            for game in playout_positions(2, 40, 7) {
                let score = weights.score(&game);
                prop_assert!(i64::from(score).abs() <= weights.largest_evaluation());
            }
        }
    }
}

#[test]
fn the_breakdown_sums_to_the_evaluation() {
    let weights = Weights { centre: 3, teammates: -4, ..Weights::default() };
    for game in playout_positions(10, 60, 5).iter().step_by(7) {
        let terms = breakdown(game, &weights);
        assert_eq!(terms.len(), 6);
        assert_eq!(terms.iter().map(|t| t.contribution).sum::<i32>(), weights.evaluate(game), "{}", game.to_fen());
        let default_terms = breakdown(game, &Weights::default());
        assert_eq!(default_terms.iter().map(|t| t.contribution).sum::<i32>(), game.evaluate());
    }
}

#[test]
fn the_start_is_balanced_and_the_view_follows_the_side_to_move() {
    assert_eq!(Barca::start().evaluate(), 0);
    for game in playout_positions(5, 30, 6) {
        let flipped =
            Barca::from_fen(&game.to_fen().replace(" w", " x").replace(" b", " w").replace(" x", " b")).unwrap();
        assert_eq!(flipped.evaluate(), -game.evaluate(), "{}", game.to_fen());
    }
}

fn term(game: &Barca, name: &str) -> (u32, u32) {
    let terms = breakdown(game, &Weights::default());
    let term = terms.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no feature {name}"));
    (term.own, term.opponent)
}

#[test]
fn the_features_count_what_the_report_describes() {
    let white = [("d4", 'E'), ("j7", 'E'), ("a4", 'L'), ("h6", 'L'), ("d1", 'M'), ("g1", 'M')];
    let black = [("a10", 'e'), ("b10", 'e'), ("a9", 'l'), ("c9", 'l'), ("b9", 'm'), ("j10", 'm')];
    let position = |changes: &[(&str, (&str, char))]| {
        let mut pieces: Vec<(&str, char)> = white.iter().chain(black.iter()).copied().collect();
        for (from, to) in changes {
            *pieces.iter_mut().find(|(square, _)| square == from).unwrap() = *to;
        }
        Barca::from_fen(&fen_with(&pieces, 'w')).unwrap()
    };
    let game = position(&[]);
    assert_eq!(term(&game, "watering holes held"), (1, 0));
    // The nearest animal on a line through an empty hole that moves along that line, is not on a
    // hole already and would not be scared there: g4 ← mouse g1, elephant j7 (diagonal);
    // d7 ← elephant j7 (row 7), lion a4; g7 ← mouse g1, elephant j7, lion h6. The elephant on d4
    // sees d7 and g7 but already holds a hole; Black's mice b9/j10 sit on diagonals only.
    assert_eq!(term(&game, "ways onto a hole next move"), (7, 0));
    assert_eq!(term(&game, "animals next to a hole"), (1, 0), "h6 beside g7");
    // Black's adjacent pairs of different kinds: a10-a9, a10-b9, b10-a9, b10-c9, b10-b9, a9-b9, c9-b9.
    assert_eq!(term(&game, "complementary teammates adjacent"), (0, 7));
    assert_eq!(term(&game, "scared animals"), (0, 0));
    let proximity = |squares: &[&str]| -> u32 {
        squares
            .iter()
            .map(|s| {
                let (column, row) = ((s.as_bytes()[0] - b'a') as i32, s[1..].parse::<i32>().unwrap() - 1);
                (9 - ((2 * column - 9).abs() + (2 * row - 9).abs()) / 2) as u32
            })
            .sum()
    };
    let (white_squares, black_squares) = (white.map(|(s, _)| s), black.map(|(s, _)| s));
    assert_eq!(term(&game, "centre proximity"), (proximity(&white_squares), proximity(&black_squares)));

    // A black elephant on f8 frightens a white lion off g7 and itself can step onto g7.
    let game = position(&[("b10", ("f8", 'e'))]);
    assert_eq!(term(&game, "ways onto a hole next move"), (6, 1));
    assert_eq!(term(&game, "animals next to a hole"), (1, 1));
    // A black lion on h2 scares the white mouse on g1 (which still counts its ways out).
    let game = position(&[("c9", ("h2", 'l'))]);
    assert_eq!(term(&game, "scared animals"), (1, 0));
    assert_eq!(term(&game, "complementary teammates adjacent"), (0, 5));
    assert_eq!(term(&game, "ways onto a hole next move"), (7, 0));
}

/// The fast evaluation (running tallies, animal-by-animal counts) against the hole-by-hole count
/// from the bitboards, and each tally against its recount.
fn assert_matches_from_scratch(game: &Barca, weights: &Weights) -> Result<(), TestCaseError> {
    for side in [Side::First, Side::Second] {
        prop_assert_eq!(game.tally(side), game.tally_from_scratch(side), "{}", game.to_fen());
    }
    prop_assert_eq!(weights.score(game), weights.score_from_scratch(game), "{}", game.to_fen());
    prop_assert_eq!(game.evaluate(), Weights::default().score_from_scratch(game));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_incremental_evaluation_equals_the_one_from_scratch_after_every_make_and_unmake(
        seed in any::<u64>(),
        weights in weights_up_to(500, 100, 100),
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Barca::start();
        // The positions so far, to check the repetition filter against (a FEN includes the side to move).
        let mut line = vec![game.to_fen()];
        let mut moves = Vec::new();
        for _ in 0..80 {
            assert_matches_from_scratch(&game, &weights)?;
            if game.outcome().is_some() {
                break;
            }
            moves.clear();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                game.make_move(mv);
                assert_matches_from_scratch(&game, &weights)?;
                let occurrences = 1 + line.iter().filter(|&fen| *fen == game.to_fen()).count();
                prop_assert_eq!(game.occurrences(), occurrences);
                game.unmake_move();
            }
            assert_matches_from_scratch(&game, &weights)?;
            // Half the time the mover steps back where it came from two plies ago: positions recur.
            let played: Vec<BarcaMove> = game.moves_played().collect();
            let back = played.len().checked_sub(2).map(|i| BarcaMove { from: played[i].to, to: played[i].from });
            let mv = match back.filter(|back| moves.contains(back) && rng.random_bool(0.5)) {
                Some(back) => back,
                None => moves[rng.random_range(0..moves.len())],
            };
            game.make_move(mv);
            line.push(game.to_fen());
        }
        // Taking every move back restores the start exactly.
        while game.ply() > 0 {
            game.unmake_move();
            assert_matches_from_scratch(&game, &weights)?;
        }
        prop_assert_eq!(game.to_fen(), Barca::start().to_fen());
    }
}
