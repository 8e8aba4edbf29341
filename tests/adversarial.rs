//! Game-tree searches checked against independent facts: the size and value of tic-tac-toe's
//! game tree, the Knuth–Moore minimal tree, and agreement of every algorithm with plain minimax.

mod common;

use rand::SeedableRng;
use rand::rngs::StdRng;
use searchlab::adversarial::choice::root_move_scores;
use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::tree::{LeafReason, NodeState, TreeEvent, TreeView};
use searchlab::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::uniform_tree::{Ordering as TreeOrdering, UniformTree};
use searchlab::games::{DefaultEval, Evaluator, Game, Score, Side, WIN};
use searchlab::trace::{NO_NODE, NoTrace, Player, Progress, Recorder, Watched};

fn id_exact() -> IterativeDeepening<TicTacToe> {
    IterativeDeepening::new(IdOptions { tt_bits: 14, exact_depth: true, ..IdOptions::default() })
}

#[test]
fn tic_tac_toe_full_tree_is_a_draw_of_549946_nodes_and_255168_games() {
    let start = TicTacToe::new();
    let result = minimax::search(&start, &DefaultEval, 9, &mut NoTrace);
    assert_eq!(result.score, 0, "tic-tac-toe is a draw");
    assert_eq!(result.stats.nodes, 549_946);
    assert_eq!(result.stats.leaves, 255_168);
    assert_eq!(result.stats.max_ply, 9);
    assert_eq!(result.pv.len(), 9, "a drawn game lasts nine moves");

    let nega = negamax::search(&start, &DefaultEval, 9, &mut NoTrace);
    assert_eq!((nega.score, nega.stats.nodes, nega.stats.leaves), (0, 549_946, 255_168));

    let ab = alphabeta::search(&start, &DefaultEval, 9, &mut NoTrace);
    assert_eq!(ab.score, 0);
    assert!(ab.stats.nodes * 10 < result.stats.nodes, "alpha-beta visited {} nodes", ab.stats.nodes);

    let id = IterativeDeepening::new(IdOptions::default()).search(
        &start,
        &DefaultEval,
        &SearchLimits::default(),
        &mut NoTrace,
    );
    assert_eq!(id.score, 0);
    assert_eq!(id.stats.depth_reached, 9, "the table resolves the whole game at depth 9 and stops");
    assert!(id.stats.tt_hits > 0);
}

#[test]
fn searches_find_the_immediate_win_and_the_forced_loss() {
    // X (to move) wins at c3; scored as a win one ply away.
    let game = TicTacToe::from_position("xx.oo....").unwrap();
    for result in [
        minimax::search(&game, &DefaultEval, 9, &mut NoTrace),
        negamax::search(&game, &DefaultEval, 9, &mut NoTrace),
        alphabeta::search(&game, &DefaultEval, 9, &mut NoTrace),
        id_exact().search(&game, &DefaultEval, &SearchLimits::default(), &mut NoTrace),
    ] {
        assert_eq!(result.best_move, Some(2));
        assert_eq!(result.score, WIN - 1);
    }
    // O to move cannot block both of X's threats (b3 and c2): X wins on the second ply.
    let game = TicTacToe::from_position("x.x.o.o.x").unwrap();
    assert_eq!(game.side_to_move(), Side::Second);
    assert_eq!(minimax::search(&game, &DefaultEval, 9, &mut NoTrace).score, -(WIN - 2));
    assert_eq!(alphabeta::search(&game, &DefaultEval, 9, &mut NoTrace).score, -(WIN - 2));
}

/// A heuristic for tic-tac-toe so depth-limited values are not all zero: lines still open for
/// the side to move minus those open for the opponent.
struct OpenLines;

impl Evaluator<TicTacToe> for OpenLines {
    fn evaluate(&self, game: &TicTacToe) -> Score {
        const LINES: [[u8; 3]; 8] =
            [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
        let me = game.side_to_move();
        let open = |side: Side| {
            LINES.iter().filter(|line| line.iter().all(|&c| game.owner(c).is_none_or(|o| o == side))).count() as Score
        };
        open(me) - open(me.other())
    }
}

fn random_positions(count: usize, seed: u64) -> Vec<TicTacToe> {
    common::random_positions(&TicTacToe::new(), count, 8, seed)
}

#[test]
fn all_searches_agree_with_minimax_on_random_tic_tac_toe_positions() {
    let mut id = id_exact();
    for (i, game) in random_positions(300, 11).iter().enumerate() {
        let depth = 1 + (i % 4) as u32;
        let reference = minimax::search(game, &OpenLines, depth, &mut NoTrace).score;
        let position = game.position_text();
        assert_eq!(
            negamax::search(game, &OpenLines, depth, &mut NoTrace).score,
            reference,
            "negamax {position} d{depth}"
        );
        let ab = alphabeta::search(game, &OpenLines, depth, &mut NoTrace);
        assert_eq!(ab.score, reference, "alpha-beta {position} d{depth}");
        let limits = SearchLimits::depth(depth);
        assert_eq!(id.search(game, &OpenLines, &limits, &mut NoTrace).score, reference, "id {position} d{depth}");
        // The PV leads to a position minimax values the same.
        let mut line = game.clone();
        for &mv in &ab.pv {
            line.make_move(mv);
        }
        let rest = depth - ab.pv.len() as u32;
        let sign = if line.side_to_move() == game.side_to_move() { 1 } else { -1 };
        let tail = minimax::search(&line, &OpenLines, rest, &mut NoTrace).score;
        let shift = if tail.abs() > WIN - 1000 { tail.signum() * ab.pv.len() as Score } else { 0 };
        assert_eq!(sign * (tail - shift), reference, "pv of {position} d{depth}");
    }
}

#[test]
fn the_default_table_keeps_exact_game_values() {
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 12, ..IdOptions::default() });
    for game in random_positions(100, 5) {
        let exact = minimax::search(&game, &DefaultEval, 9, &mut NoTrace).score;
        assert_eq!(id.search(&game, &DefaultEval, &SearchLimits::default(), &mut NoTrace).score, exact);
    }
}

#[test]
fn alpha_beta_visits_the_knuth_moore_minimal_tree_with_perfect_ordering() {
    for (b, d) in [(2u8, 1u32), (2, 2), (2, 5), (2, 10), (3, 3), (3, 6), (4, 4), (5, 5), (8, 4), (10, 3), (30, 3)] {
        let tree = UniformTree::new(b, d as usize, TreeOrdering::Perfect);
        let result = alphabeta::search(&tree, &DefaultEval, d, &mut NoTrace);
        let minimal = UniformTree::minimal_leaf_count(b as u64, d);
        assert_eq!(result.stats.leaves, minimal, "b={b} d={d}");
        assert_eq!(result.score, 0);
        assert_eq!(result.best_move, Some(0));
        assert_eq!(result.stats.first_move_cutoffs, result.stats.cutoffs);

        let worst = UniformTree::new(b, d as usize, TreeOrdering::Worst);
        let result = alphabeta::search(&worst, &DefaultEval, d, &mut NoTrace);
        assert_eq!(result.stats.leaves, (b as u64).pow(d), "worst ordering b={b} d={d}");
        assert_eq!(result.best_move, Some(b - 1));
    }
}

#[test]
fn iterative_deepening_orders_the_worst_tree_well() {
    let (b, d) = (6u8, 6u32);
    let worst = UniformTree::new(b, d as usize, TreeOrdering::Worst);
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 16, ..IdOptions::default() });
    let result = id.search(&worst, &DefaultEval, &SearchLimits::depth(d), &mut NoTrace);
    assert_eq!(result.score, 0);
    assert_eq!(result.stats.depth_reached, d);
    let last = *result.stats.nodes_per_depth.last().unwrap();
    assert!(last < (b as u64).pow(d) / 10, "the last iteration entered {last} nodes");
}

fn replay_restores_empty_view(trace: searchlab::trace::Trace<TreeEvent>, nodes: u64) -> TreeView {
    assert!(!trace.truncated);
    let mut player = Player::new(trace, TreeView::new());
    player.seek(player.len() / 2);
    let path = player.view().current_path();
    assert_eq!(path.last().copied(), player.view().current);
    assert!(path.first().is_none_or(|&root| player.view().node(root).parent == NO_NODE), "the path starts at a root");
    assert!(path.windows(2).all(|w| player.view().node(w[1]).parent == w[0]));
    player.seek(usize::MAX);
    let end = player.view().clone();
    assert_eq!(end.nodes.len() as u64, nodes, "one view node per node the stats count");
    while player.back() {}
    assert_eq!(player.view(), &TreeView::new());
    player.seek(usize::MAX);
    assert_eq!(player.view(), &end, "forward again rebuilds the same view");
    end
}

#[test]
fn recorded_alpha_beta_replays_forward_and_back() {
    let game = TicTacToe::from_position("x...o....").unwrap();
    let mut recorder = Recorder::default();
    let result = alphabeta::search(&game, &DefaultEval, 9, &mut recorder);
    let untraced = alphabeta::search(&game, &DefaultEval, 9, &mut NoTrace);
    assert_eq!((&result.pv, result.score), (&untraced.pv, untraced.score), "tracing changes nothing");
    assert_eq!(result.stats.nodes, untraced.stats.nodes);
    let view = replay_restores_empty_view(recorder.finish(), result.stats.nodes);
    let pv: Vec<String> = result.pv.iter().map(|&m| TicTacToe::cell_text(m)).collect();
    assert_eq!(view.pv, Some((pv, result.score)));
    let root = view.node(0);
    assert_eq!((root.parent, root.state, root.value()), (NO_NODE, NodeState::Done, Some(result.score)));
    assert_eq!(view.children(0).len(), 7, "every root move is searched");
    let cut = (0..view.nodes.len() as u32).filter(|&id| view.cutoff(id).is_some()).count() as u64;
    assert_eq!(cut, result.stats.cutoffs);
    assert!((0..view.nodes.len() as u32).any(|id| view.cutoff(id).is_some_and(|(_, pruned)| !pruned.is_empty())));
    let leaves = view.nodes.iter().filter(|n| matches!(n.state, NodeState::Leaf(_))).count() as u64;
    assert_eq!(leaves, result.stats.leaves);
    assert!(view.nodes.iter().all(|n| n.state != NodeState::Open), "every node finished");
}

#[test]
fn recorded_iterative_deepening_replays_iterations_and_table_leaves() {
    let game = TicTacToe::new();
    let mut recorder = Recorder::default();
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 14, ..IdOptions::default() });
    let result = id.search(&game, &OpenLines, &SearchLimits::depth(5), &mut recorder);
    let view = replay_restores_empty_view(recorder.finish(), result.stats.nodes);
    assert_eq!(view.iteration, 5);
    let roots = view.nodes.iter().filter(|n| n.parent == NO_NODE).count();
    assert_eq!(roots, 5, "one root per iteration");
    assert!(view.nodes.iter().any(|n| n.state == NodeState::Leaf(LeafReason::Table)));
    assert_eq!(result.stats.nodes_per_depth.iter().sum::<u64>(), result.stats.nodes);
}

#[test]
fn limits_stop_iterative_deepening() {
    let big = UniformTree::new(30, 40, TreeOrdering::Worst);
    let mut id = IterativeDeepening::new(IdOptions { tt_bits: 16, ..IdOptions::default() });

    let result =
        id.search(&big, &DefaultEval, &SearchLimits { nodes: Some(20_000), ..SearchLimits::default() }, &mut NoTrace);
    assert!(result.stats.nodes <= 20_001);
    assert!(result.best_move.is_some());
    assert!(result.stats.depth_reached >= 1);

    let result = id.search(&big, &DefaultEval, &SearchLimits::millis(30), &mut NoTrace);
    assert!(result.best_move.is_some() && result.stats.micros < 5_000_000);

    // On a worker thread, watched and stopped through its tracer.
    let progress = Progress::default();
    let (result, counted) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let mut observer = Watched::new(NoTrace, &progress);
            let result = id.search(&big, &DefaultEval, &SearchLimits::default(), &mut observer);
            observer.into_inner();
            (result, progress.done())
        });
        while progress.best_so_far().is_none_or(|best| best.depth < 2) {
            std::thread::yield_now();
        }
        progress.stop();
        worker.join().unwrap()
    });
    assert!(result.stats.depth_reached >= 2);
    let best = progress.best_so_far().unwrap();
    assert_eq!(best.depth, result.stats.depth_reached, "the last completed iteration was reported");
    assert_eq!(best.score, Some(result.score));
    assert_eq!(best.mv, "29", "the last child is best in the worst-ordered tree");
    assert_eq!(result.best_move, Some(29));
    assert_eq!(counted as u64, result.stats.nodes, "each node entered counts once");
}

#[test]
fn stopped_searches_return_after_a_handful_of_nodes() {
    // A stopped watcher answers Stop within its first 64 units of work; each search then unwinds,
    // scoring the moves left at each ply as leaves. In full these would be ~30^7 and ~40^6 nodes.
    let big = UniformTree::new(30, 7, TreeOrdering::Worst);
    let progress = Progress::default();
    progress.stop();
    for result in [
        minimax::search(&big, &DefaultEval, 7, &mut Watched::new(NoTrace, &progress)),
        negamax::search(&big, &DefaultEval, 7, &mut Watched::new(NoTrace, &progress)),
        alphabeta::search(&big, &DefaultEval, 7, &mut Watched::new(NoTrace, &progress)),
    ] {
        assert!(result.stats.nodes <= 64 + 7 * 30, "{} nodes after the stop", result.stats.nodes);
    }
    let mut id = IterativeDeepening::new(IdOptions::default());
    let result = id.search(&big, &DefaultEval, &SearchLimits::default(), &mut Watched::new(NoTrace, &progress));
    assert!(result.stats.nodes <= 64 + 7 * 30 && result.best_move.is_some(), "{:?}", result.stats);

    // Easy/Medium's search keeps the moves it finished: here only the first.
    let scored = root_move_scores(&big, &DefaultEval, 7, &mut Watched::new(NoTrace, &progress));
    assert_eq!(scored.len(), 1);
}

#[test]
fn no_moves_is_a_draw_and_a_finished_game_has_no_best_move() {
    let flat = UniformTree::new(3, 1, TreeOrdering::Perfect);
    // Searched past the bottom: the bottom nodes have no moves and score as draws.
    let result = minimax::search(&flat, &DefaultEval, 3, &mut NoTrace);
    assert_eq!(result.score, 0);
    let won = TicTacToe::from_position("xxxoo....").unwrap();
    let result = alphabeta::search(&won, &DefaultEval, 3, &mut NoTrace);
    assert_eq!((result.best_move, result.score, result.stats.nodes), (None, -WIN, 1));
}

mod choice {
    use super::*;
    use searchlab::adversarial::choice::{Difficulty, TOP_MOVES, choose_move, root_move_scores, sample_top};

    #[test]
    fn root_move_scores_are_exact_per_move() {
        // Child i of the root is worth -i for the root's side to move.
        let tree = UniformTree::new(8, 3, TreeOrdering::Perfect);
        let scores = root_move_scores(&tree, &DefaultEval, 3, &mut NoTrace);
        let expected: Vec<(u8, Score)> = (0..8).map(|i| (i, -(i as Score) * 64)).collect();
        assert_eq!(scores, expected);
        // Tic-tac-toe: the winning move one ply away scores WIN - 1, the others lose or draw.
        let game = TicTacToe::from_position("xx.oo....").unwrap();
        let scores = root_move_scores(&game, &DefaultEval, 9, &mut NoTrace);
        assert_eq!(scores.iter().find(|&&(mv, _)| mv == 2).map(|&(_, s)| s), Some(WIN - 1));
        assert!(scores.iter().filter(|&&(mv, _)| mv != 2).all(|&(_, s)| s < WIN - 1));
    }

    #[test]
    fn seeded_sampling_is_deterministic_keeps_to_the_top_five_and_favours_the_best() {
        let tree = UniformTree::new(10, 2, TreeOrdering::Perfect);
        let scores = root_move_scores(&tree, &DefaultEval, 2, &mut NoTrace);
        let draw = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            (0..2000).map(|_| sample_top(&scores, TOP_MOVES, &mut rng).unwrap()).collect::<Vec<u8>>()
        };
        let picks = draw(7);
        assert_eq!(picks, draw(7), "the same seed gives the same moves");
        assert_ne!(picks, draw(8));
        let mut counts = [0usize; 10];
        for &mv in &picks {
            counts[mv as usize] += 1;
        }
        assert!(counts[TOP_MOVES..].iter().all(|&c| c == 0), "only the best five: {counts:?}");
        assert!(counts[..TOP_MOVES].windows(2).all(|w| w[0] > w[1]), "better moves more often: {counts:?}");
    }

    #[test]
    fn sampling_never_gives_away_a_proven_result() {
        let game = TicTacToe::from_position("xx.oo....").unwrap();
        let scores = root_move_scores(&game, &DefaultEval, 9, &mut NoTrace);
        let mut rng = StdRng::seed_from_u64(1);
        assert!((0..200).all(|_| sample_top(&scores, TOP_MOVES, &mut rng) == Some(2)), "the win is always taken");
        // O to move must block at c3; every other move loses.
        let game = TicTacToe::from_position("xx..o....").unwrap();
        let scores = root_move_scores(&game, &DefaultEval, 9, &mut NoTrace);
        assert!((0..200).all(|_| sample_top(&scores, TOP_MOVES, &mut rng) == Some(2)), "losing moves are avoided");
        assert_eq!(sample_top::<u8>(&[], TOP_MOVES, &mut rng), None);
    }

    #[test]
    fn every_difficulty_blocks_an_immediate_threat() {
        let game = TicTacToe::from_position("xx..o....").unwrap();
        let mut engine = IterativeDeepening::new(IdOptions { tt_bits: 12, ..IdOptions::default() });
        let mut rng = StdRng::seed_from_u64(3);
        for difficulty in [Difficulty::Medium, Difficulty::Hard] {
            assert_eq!(
                choose_move(&game, &DefaultEval, difficulty, &mut engine, &mut rng, &mut NoTrace).mv,
                Some(2),
                "{difficulty:?}"
            );
        }
        // Easy looks one ply ahead only: it takes an immediate win but cannot see a threat.
        let win = TicTacToe::from_position("xx.oo....").unwrap();
        assert_eq!(choose_move(&win, &DefaultEval, Difficulty::Easy, &mut engine, &mut rng, &mut NoTrace).mv, Some(2));
    }
}

proptest::proptest! {
    #[test]
    fn tic_tac_toe_parsers_never_panic(text in "\\PC{0,20}") {
        common::assert_one_line_error(TicTacToe::from_position(&text));
        common::assert_one_line_error(TicTacToe::new().parse_move(&text));
    }

    /// Every accepted position prints back to itself (separators and case aside) and has legal counts.
    #[test]
    fn accepted_tic_tac_toe_positions_round_trip(text in "[xXoO.\\-_/]{0,14}") {
        if let Ok(game) = TicTacToe::from_position(&text) {
            let canonical: String = text
                .chars()
                .filter(|&c| c != '/')
                .map(|c| match c.to_ascii_lowercase() { '-' | '_' => '.', c => c })
                .collect();
            proptest::prop_assert_eq!(game.position_text(), canonical);
            let again = TicTacToe::from_position(&game.position_text()).unwrap();
            proptest::prop_assert_eq!(again.hash(), game.hash());
        }
    }
}
