//! The searches on Barca: every algorithm agrees with plain minimax at fixed depth on random
//! positions, and iterative deepening plays sensibly under its limits.

mod common;

use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use searchlab::games::barca::{Barca, Weights};
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
fn iterative_deepening_keeps_plain_alpha_beta_values_at_depth_4() {
    // Table, killers, history, principal variation search: none may change the value.
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 16, exact_depth: true, ..IdOptions::default() });
    let (mut plain_nodes, mut id_nodes) = (0, 0);
    for game in random_positions(30, 17) {
        let plain = alphabeta::search(&game, &DefaultEval, 4, &mut NoTrace);
        let ordered = id.search(&game, &DefaultEval, &SearchLimits::depth(4), &mut NoTrace);
        assert_eq!(ordered.score, plain.score, "{}", game.to_fen());
        plain_nodes += plain.stats.nodes;
        id_nodes += ordered.stats.nodes;
    }
    assert!(id_nodes * 3 < plain_nodes, "all iterations {id_nodes} nodes, plain alpha-beta {plain_nodes}");
}

#[test]
fn iterative_deepening_respects_node_limits_and_prunes_well_from_the_start() {
    let start = Barca::start();
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 18, ..IdOptions::default() });
    let result = id.search(
        &start,
        &DefaultEval,
        &SearchLimits { nodes: Some(200_000), ..SearchLimits::default() },
        &mut NoTrace,
    );
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

/// Two lions stepping out and back twice: the start position occurs for the third time.
const SHUFFLE_TWICE: &str = "d2c3 d9c8 c3d2 c8d9 1. d2c3 d9c8 c3d2 c8d9";

#[test]
fn barca_search_plays_the_game_so_far_and_sees_its_repetitions() {
    let fresh = common::cli::json_lines(&common::cli::searchlab(&["barca", "search", "--algo", "id", "--depth", "2"]));
    assert!(fresh[0]["best_move"].is_string());
    assert_eq!((fresh[0]["ply"].as_u64(), &fresh[0]["outcome"]), (Some(0), &serde_json::Value::Null));

    let args = ["barca", "search", "--algo", "id", "--depth", "2", "--moves", SHUFFLE_TWICE];
    let repeated = common::cli::json_lines(&common::cli::searchlab(&args));
    let line = &repeated[0];
    assert_eq!(line["fen"], fresh[0]["fen"], "the same position as the start");
    assert_eq!(line["ply"], 8);
    assert_eq!(line["outcome"], "draw", "its third occurrence ends the game");
    assert!(line["best_move"].is_null());
    assert_eq!(line["score"], 0);
}

#[test]
fn barca_search_moves_that_cannot_be_played_are_named() {
    common::cli::assert_fails(
        &["barca", "search", "--algo", "id", "--depth", "1", "--moves", "d2c3 e2e9"],
        "--moves: move 2",
    );
    common::cli::assert_fails(
        &["barca", "search", "--algo", "id", "--depth", "1", "--moves", &format!("{SHUFFLE_TWICE} e2e5")],
        "--moves: move 9 (e2e5) comes after the game ended",
    );
    common::cli::assert_fails(&["barca", "search", "--algo", "id", "--moves", "d2"], "--moves: move 1");
}

/// A zero limit names the flag the user typed, not the engine-spec syntax (`uct:5000`).
#[test]
fn barca_search_zero_limits_name_their_flag() {
    for flag in ["--iterations", "--millis"] {
        common::cli::assert_fails(&["barca", "search", "--algo", "uct", flag, "0"], &format!("'{flag} <"));
    }
    common::cli::assert_fails(
        &["barca", "search", "--algo", "id", "--nodes", "0"],
        "'0' is not a whole number of 1 or more",
    );
}

#[test]
fn barca_search_evaluates_with_the_weights_file() {
    let file = "examples/data/tuned-weights.json";
    let tuned = Weights::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    assert_ne!(tuned, Weights::default());
    let game = random_positions(1, 21).remove(0);
    let fen = game.to_fen();
    let search = |weights: &[&str]| {
        let mut args = vec!["barca", "search", "--algo", "alphabeta", "--depth", "2", "--fen", &fen];
        args.extend_from_slice(weights);
        common::cli::json_lines(&common::cli::searchlab(&args))[0]["score"].as_i64().unwrap()
    };
    let with_tuned = alphabeta::search(&Barca::from_fen(&fen).unwrap(), &tuned, 2, &mut NoTrace).score;
    assert_eq!(search(&["--weights", file]), i64::from(with_tuned));
    let with_default = alphabeta::search(&Barca::from_fen(&fen).unwrap(), &DefaultEval, 2, &mut NoTrace).score;
    assert_eq!(search(&[]), i64::from(with_default));
    assert_ne!(with_tuned, with_default, "a position where the weights matter");
    common::cli::assert_fails(
        &["barca", "search", "--algo", "id", "--weights", "no/such.json"],
        "--weights: no/such.json",
    );
}
