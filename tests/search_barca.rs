//! The searches on Barca: every algorithm agrees with plain minimax at fixed depth on random
//! positions, and iterative deepening plays sensibly under its limits.

mod common;

use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use searchlab::games::barca::Barca;
use searchlab::games::{DefaultEval, Game, WIN};
use searchlab::trace::NoTrace;

/// Positions reached by random play from the start, history included (repetition counts).
fn random_positions(count: usize, seed: u64) -> Vec<Barca> {
    common::random_positions(&Barca::start(), count, 60, seed)
}

#[test]
fn all_searches_agree_with_minimax_at_depth_2_and_3() {
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 16, exact_depth: true, ..IdOptions::default() });
    for (i, game) in random_positions(200, 3).iter().enumerate() {
        let depth = if i % 20 == 0 { 3 } else { 2 };
        let reference = minimax::search(game, &DefaultEval, depth, &mut NoTrace);
        let fen = game.to_fen();
        let nega = negamax::search(game, &DefaultEval, depth, &mut NoTrace);
        assert_eq!(nega.score, reference.score, "negamax {fen} d{depth}");
        assert_eq!(nega.stats.nodes, reference.stats.nodes);
        let ab = alphabeta::search(game, &DefaultEval, depth, &mut NoTrace);
        assert_eq!(ab.score, reference.score, "alpha-beta {fen} d{depth}");
        assert!(ab.stats.nodes <= reference.stats.nodes);
        let best = id.search(game, &DefaultEval, &SearchLimits::depth(depth), &mut NoTrace);
        assert_eq!(best.score, reference.score, "id {fen} d{depth}");
        // The move each one plays is worth the root value.
        for mv in [ab.best_move, best.best_move].into_iter().filter(|_| depth == 2) {
            let mut child = game.clone();
            child.make_move(mv.expect("a move"));
            let value = -minimax::search(&child, &DefaultEval, depth - 1, &mut NoTrace).score;
            let value = if value.abs() > WIN - 1000 { value - value.signum() } else { value };
            if !child.repeats_earlier_position() {
                assert_eq!(value, reference.score, "{fen} d{depth}: {mv:?}");
            }
        }
    }
}

#[test]
fn iterative_deepening_respects_node_limits_and_prunes_well_from_the_start() {
    let start = Barca::start();
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 18, ..IdOptions::default() });
    let result = id.search(&start, &DefaultEval, &SearchLimits { nodes: Some(200_000), ..SearchLimits::default() }, &mut NoTrace);
    assert!(result.stats.nodes <= 200_001);
    assert!(result.stats.depth_reached >= 3, "depth {}", result.stats.depth_reached);
    assert!(start.parse_move(&start.move_text(result.best_move.unwrap())).is_ok());
    let rate = result.stats.first_move_cutoff_rate().expect("alpha-beta cuts");
    assert!(rate > 0.8, "rate {rate}");
    let plain = alphabeta::search(&start, &DefaultEval, 3, &mut NoTrace);
    // A fresh table: the one above holds deeper results, which would (rightly) change the value.
    let mut fresh = IterativeDeepening::new(IdOptions { tt_bits: 16, ..IdOptions::default() });
    let ordered = fresh.search(&start, &DefaultEval, &SearchLimits::depth(3), &mut NoTrace);
    assert_eq!(ordered.score, plain.score);
}
