//! The existing searches on Othello and Hus, unchanged: alpha-beta, negamax and iterative
//! deepening agree with plain minimax on random positions, and a shallow alpha-beta beats a
//! random player (a draw counts half).

mod common;

use rand::SeedableRng;
use rand::rngs::StdRng;
use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::mcts::{MctsConfig, uct_search};
use searchlab::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use searchlab::games::hus::Hus;
use searchlab::games::othello::Othello;
use searchlab::games::{DefaultEval, Game, Outcome, random_move};
use searchlab::trace::NoTrace;

fn assert_searches_agree<G: Game>(start: &G, plies: usize, depth: u32, text: impl Fn(&G) -> String) {
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 16, exact_depth: true, ..IdOptions::default() });
    for game in common::random_positions(start, 60, plies, 5) {
        let reference = minimax::search(&game, &DefaultEval, depth, &mut NoTrace);
        let position = text(&game);
        assert_eq!(negamax::search(&game, &DefaultEval, depth, &mut NoTrace).score, reference.score, "{position}");
        let ab = alphabeta::search(&game, &DefaultEval, depth, &mut NoTrace);
        assert_eq!(ab.score, reference.score, "alpha-beta {position}");
        assert!(ab.stats.nodes <= reference.stats.nodes);
        let best = id.search(&game, &DefaultEval, &SearchLimits::depth(depth), &mut NoTrace);
        assert_eq!(best.score, reference.score, "iterative deepening {position}");
    }
}

#[test]
fn alpha_beta_negamax_and_id_agree_with_minimax_on_othello() {
    assert_searches_agree(&Othello::start(), 58, 3, Othello::to_text);
}

#[test]
fn alpha_beta_negamax_and_id_agree_with_minimax_on_hus() {
    assert_searches_agree(&Hus::start(), 120, 3, Hus::to_text);
}

fn assert_uct_plays_legal_moves<G: Game>(start: &G, plies: usize) {
    let config = MctsConfig { iterations: Some(300), ..MctsConfig::plain() };
    for game in common::random_positions(start, 10, plies, 9) {
        let result = uct_search(&game, &DefaultEval, &config, &mut NoTrace);
        let text = result.best_move_text.expect("a move");
        assert_eq!(game.parse_move(&text), Ok(result.best_move.unwrap()));
    }
}

#[test]
fn uct_plays_legal_moves_in_both_games_and_proves_a_one_move_win() {
    assert_uct_plays_legal_moves(&Othello::start(), 58);
    assert_uct_plays_legal_moves(&Hus::start(), 120);
    // Black's only move c1 takes White's last disc.
    let game = Othello::from_text(&format!("XO{} X", "-".repeat(62))).unwrap();
    let result = uct_search(&game, &DefaultEval, &MctsConfig::default(), &mut NoTrace);
    assert_eq!(result.best_move_text.as_deref(), Some("c1"));
    assert!(searchlab::games::is_proven(result.score) && result.score > 0, "score {}", result.score);
}

/// Points (win 2, draw 1, per game) of alpha-beta at `depth` against uniformly random moves over
/// `games` games, alternating who starts; games still running after `max_plies` count as draws.
fn points_against_random<G: Game>(start: &G, depth: u32, games: usize, max_plies: usize) -> usize {
    let mut rng = StdRng::seed_from_u64(2016);
    let mut points = 0;
    for round in 0..games {
        let engine_side = if round % 2 == 0 { start.side_to_move() } else { start.side_to_move().other() };
        let mut game = start.clone();
        while game.outcome().is_none() && game.ply() < max_plies {
            let mv = if game.side_to_move() == engine_side {
                alphabeta::search(&game, &DefaultEval, depth, &mut NoTrace).best_move
            } else {
                random_move(&game, &mut rng)
            };
            match mv {
                Some(mv) => game.make_move(mv),
                None => break,
            }
        }
        points += match game.outcome() {
            Some(Outcome::Win(side)) if side == engine_side => 2,
            Some(Outcome::Win(_)) => 0,
            _ => 1,
        };
    }
    points
}

#[test]
fn alpha_beta_at_depth_2_scores_95_percent_against_random_play_at_othello() {
    let points = points_against_random(&Othello::start(), 2, 100, 200);
    eprintln!("othello: alpha-beta depth 2 scored {} of 100 against random", points as f64 / 2.0);
    assert!(points >= 190, "{points} half-points of 200");
}

#[test]
fn alpha_beta_at_depth_2_scores_95_percent_against_random_play_at_hus() {
    let points = points_against_random(&Hus::start(), 2, 100, 1_000);
    eprintln!("hus: alpha-beta depth 2 scored {} of 100 against random", points as f64 / 2.0);
    assert!(points >= 190, "{points} half-points of 200");
}
