//! UCT / MCTS-Solver checked against an exact negamax written here, plus tree reuse, limits and
//! the replay view.

mod barca_reference;

use std::collections::HashMap;

use searchlab::adversarial::mcts::{Mcts, MctsConfig, Proven, uct_search};
use searchlab::adversarial::mcts_trace::{MctsEvent, MctsView, PlayoutEnd};
use searchlab::games::barca::Barca;
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{DefaultEval, Evaluator, Game, Outcome, Score, Side, WIN};
use searchlab::trace::{NoTrace, Player, Progress, Recorder, Watched};

/// Exact game value for the side to move: 1 win, 0 draw, -1 loss (memoised on the position).
fn negamax(game: &mut TicTacToe, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(side) if side == game.side_to_move() => 1,
            Outcome::Win(_) => -1,
        };
    }
    if let Some(&value) = memo.get(&game.hash()) {
        return value;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let value = moves
        .iter()
        .map(|&mv| {
            game.make_move(mv);
            let value = -negamax(game, memo);
            game.unmake_move();
            value
        })
        .max()
        .expect("a running game has moves");
    memo.insert(game.hash(), value);
    value
}

/// The exact value of `mv` for the player making it.
fn move_value(game: &TicTacToe, mv: u8, memo: &mut HashMap<u64, i32>) -> i32 {
    let mut after = game.clone();
    after.make_move(mv);
    -negamax(&mut after, memo)
}

fn config(iterations: u64, seed: u64) -> MctsConfig {
    MctsConfig { iterations: Some(iterations), seed, ..MctsConfig::default() }
}

fn position(text: &str) -> TicTacToe {
    TicTacToe::from_position(text).unwrap()
}

/// Every position within two plies of the start where some move loses and some does not.
fn positions_with_a_trap() -> Vec<TicTacToe> {
    let mut memo = HashMap::new();
    let mut found: Vec<TicTacToe> = Vec::new();
    let mut frontier = vec![TicTacToe::new()];
    for _ in 0..=2 {
        let mut next = Vec::new();
        for game in frontier {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let values: Vec<i32> = moves.iter().map(|&mv| move_value(&game, mv, &mut memo)).collect();
            let best = *values.iter().max().unwrap();
            if best >= 0 && values.iter().any(|&v| v < best) && !found.iter().any(|f| f.hash() == game.hash()) {
                found.push(game.clone());
            }
            for mv in moves {
                let mut child = game.clone();
                child.make_move(mv);
                next.push(child);
            }
        }
        frontier = next;
    }
    found
}

#[test]
fn from_the_start_and_near_it_uct_picks_only_non_losing_moves() {
    let mut memo = HashMap::new();
    let result = uct_search(&TicTacToe::new(), &DefaultEval, &config(20_000, 1), &mut NoTrace);
    let best = result.best_move.unwrap();
    assert_eq!(move_value(&TicTacToe::new(), best, &mut memo), 0, "every opening move draws; {best} must too");

    let traps = positions_with_a_trap();
    assert!(traps.len() > 20, "corner, edge and centre openings all leave losing replies: {}", traps.len());
    for (i, game) in traps.iter().enumerate() {
        let result = uct_search(game, &DefaultEval, &config(20_000, i as u64), &mut NoTrace);
        let best = result.best_move.unwrap();
        let exact = negamax(&mut game.clone(), &mut memo);
        assert_eq!(
            move_value(game, best, &mut memo),
            exact,
            "{}: UCT chose {} worth less than the position's {exact}; stats {:?}",
            game.position_text(),
            game.move_text(best),
            result.stats.children
        );
    }
}

#[test]
fn takes_an_immediate_win() {
    // X to move: c3 completes the top row; c2/c1 do not.
    let game = position("xx./oo./...");
    let result = uct_search(&game, &DefaultEval, &config(1_000, 3), &mut NoTrace);
    assert_eq!(result.best_move_text.as_deref(), Some("c3"));
    assert_eq!(result.proven, Some(Proven::Win));
    assert_eq!(result.score, WIN - 1, "a win one ply away");
    assert!(result.stats.iterations < 1_000, "a proven root ends the search early");
}

#[test]
fn blocks_an_immediate_loss() {
    // O to move; X threatens c3 and O holds the draw only by blocking there.
    let game = position("xx./.o./...");
    assert_eq!(game.side_to_move(), Side::Second);
    let mut memo = HashMap::new();
    assert_eq!(negamax(&mut game.clone(), &mut memo), 0);
    let result = uct_search(&game, &DefaultEval, &config(5_000, 4), &mut NoTrace);
    assert_eq!(result.best_move_text.as_deref(), Some("c3"), "{:?}", result.stats.children);
    // Every other reply is proven lost once X's win is found.
    let lost: Vec<_> = result.stats.children.iter().filter(|c| c.proven == Some(Proven::Loss)).collect();
    assert!(!lost.is_empty());
}

#[test]
fn the_solver_proves_wins_and_agrees_with_negamax() {
    // X a3, O b3 (an edge next to the corner): X forces a win, though not at once.
    let game = position("xo./.../...");
    let mut memo = HashMap::new();
    assert_eq!(negamax(&mut game.clone(), &mut memo), 1);
    let result = uct_search(&game, &DefaultEval, &config(200_000, 5), &mut NoTrace);
    assert_eq!(result.proven, Some(Proven::Win), "{:?}", result.stats.children);
    assert_eq!(move_value(&game, result.best_move.unwrap(), &mut memo), 1);
    assert!(result.score > WIN - 10 && result.score < WIN - 1, "a forced win a few plies away: {}", result.score);
    assert!(result.stats.iterations < 200_000, "the search stops once the root is proven");

    // Whatever the solver proves about a root move is the exact value.
    let mut checked = 0;
    for game in positions_with_a_trap() {
        let result = uct_search(&game, &DefaultEval, &config(3_000, 6), &mut NoTrace);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for (child, &mv) in result.stats.children.iter().zip(&moves) {
            assert_eq!(child.mv, game.move_text(mv), "children keep move generation order");
            if let Some(proven) = child.proven {
                let exact = match proven {
                    Proven::Win => 1,
                    Proven::Draw => 0,
                    Proven::Loss => -1,
                };
                assert_eq!(exact, move_value(&game, mv, &mut memo), "{} {}", game.position_text(), child.mv);
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "the solver proved only {checked} moves");
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let run = |seed| uct_search(&TicTacToe::new(), &DefaultEval, &config(3_000, seed), &mut NoTrace);
    let (a, b) = (run(9), run(9));
    assert_eq!(a.stats.children, b.stats.children);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.stats.nodes, b.stats.nodes);
    assert_ne!(run(10).stats.children, a.stats.children, "another seed plays other playouts");
}

#[test]
fn advancing_keeps_the_subtree_of_the_move_played() {
    let mut mcts = Mcts::new(TicTacToe::new(), config(5_000, 11));
    let result = mcts.search(&DefaultEval, &mut NoTrace);
    let best = result.best_move.unwrap();
    let kept_visits = result.stats.children.iter().find(|c| c.mv == mcts.game().move_text(best)).unwrap().visits;
    mcts.advance(best);
    assert_eq!(mcts.root_visits(), kept_visits);
    assert!(mcts.node_count() > 100, "the subtree came along");
    assert_eq!(mcts.game().ply(), 1);

    // The opponent's reply is looked up in the kept tree too.
    let reply_stats = mcts.root_stats();
    let reply = reply_stats.iter().max_by_key(|c| c.visits).unwrap();
    let reply_move = mcts.game().parse_move(&reply.mv).unwrap();
    mcts.advance(reply_move);
    assert_eq!(mcts.root_visits(), reply.visits);

    // Searching on adds to the kept visits.
    let before = mcts.root_visits();
    let result = mcts.search(&DefaultEval, &mut NoTrace);
    assert_eq!(mcts.root_visits() as u64, before as u64 + result.stats.iterations);

    // A move the tree never expanded starts a fresh tree.
    let mut fresh = Mcts::new(TicTacToe::new(), config(1, 0));
    fresh.advance(4);
    assert_eq!((fresh.root_visits(), fresh.node_count()), (0, 1));
}

#[test]
fn limits_cancel_and_progress() {
    let progress = Progress::default();
    let mut mcts = Mcts::new(TicTacToe::new(), config(2_000, 12));
    let mut observer = Watched::new(NoTrace, &progress);
    let result = mcts.search(&DefaultEval, &mut observer);
    observer.into_inner();
    assert_eq!(result.stats.iterations, 2_000);
    assert_eq!(progress.done(), 2_000, "each playout counts once");
    assert_eq!(progress.best_so_far().map(|best| best.mv), result.best_move_text, "the final best move was reported");

    progress.stop();
    let result = mcts.search(&DefaultEval, &mut Watched::new(NoTrace, &progress));
    assert_eq!(result.stats.iterations, 0, "a stopped search ends at once");

    let timed = MctsConfig { iterations: None, millis: Some(30), ..MctsConfig::default() };
    let result = uct_search(&TicTacToe::new(), &DefaultEval, &timed, &mut NoTrace);
    assert!(result.stats.iterations > 0 && result.best_move.is_some());
}

#[test]
fn finished_games_have_no_move_and_cut_off_playouts_still_play() {
    let won = position("xxx/oo./...");
    let result = uct_search(&won, &DefaultEval, &config(100, 0), &mut NoTrace);
    assert_eq!((result.best_move, result.proven, result.stats.iterations), (None, Some(Proven::Loss), 0));

    // Tic-tac-toe evaluates running games as 0: cut-off playouts score them 0.5, the solver does the rest.
    let cut = MctsConfig { playout_cutoff: Some(0), prior_weight: 1.0, ..config(3_000, 13) };
    let game = position("xx./.o./...");
    let mut recorder = Recorder::default();
    let result = uct_search(&game, &DefaultEval, &cut, &mut recorder);
    assert_eq!(result.best_move_text.as_deref(), Some("c3"));
    let events = recorder.finish().events;
    assert!(
        events.iter().any(
            |e| matches!(e, MctsEvent::Playout { end: PlayoutEnd::CutOff, plies: 0, reward, .. } if *reward == 0.5)
        )
    );
    assert!(!events.iter().any(|e| matches!(e, MctsEvent::Playout { plies, .. } if *plies > 0)));
}

/// A token on a tiny graph: from `START` the first player can walk to `TURN` or step into a losing
/// `TRAP` or a dead end; from `TURN` the second player can walk back (repeating the start) or lose.
#[derive(Clone, Debug)]
struct Shuttle {
    /// Nodes visited, the start first.
    history: Vec<u8>,
}

const START: u8 = 0;
const TURN: u8 = 1;
const TRAP: u8 = 2;
const DEAD_END: u8 = 3;

impl Shuttle {
    fn at(&self) -> u8 {
        *self.history.last().unwrap()
    }
}

impl Game for Shuttle {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        if self.history.len() % 2 == 1 { Side::First } else { Side::Second }
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        match self.at() {
            START => moves.extend([TURN, TRAP, DEAD_END]),
            TURN => moves.extend([START, TRAP]),
            _ => {}
        }
    }

    fn make_move(&mut self, mv: u8) {
        self.history.push(mv);
    }

    fn unmake_move(&mut self) {
        self.history.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        // Whoever steps into the trap loses.
        (self.at() == TRAP).then(|| Outcome::Win(self.side_to_move()))
    }

    fn repeats_earlier_position(&self) -> bool {
        // The same node with the same side to move: an even number of plies ago.
        let last = self.history.len() - 1;
        (0..last).any(|i| self.history[i] == self.at() && (last - i).is_multiple_of(2))
    }

    fn hash(&self) -> u64 {
        self.at() as u64 * 2 + self.history.len() as u64 % 2
    }

    fn evaluate(&self) -> Score {
        0
    }

    fn ply(&self) -> usize {
        self.history.len() - 1
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        text.parse().map_err(|e| format!("{e}"))
    }
}

#[test]
fn repetition_and_dead_ends_are_draws_inside_the_tree() {
    let game = Shuttle { history: vec![START] };
    let result = uct_search(&game, &DefaultEval, &config(10_000, 14), &mut NoTrace);
    assert_eq!(result.proven, Some(Proven::Draw), "{:?}", result.stats.children);
    assert_ne!(result.best_move, Some(TRAP));
    let proven: Vec<_> = result.stats.children.iter().map(|c| (c.mv.as_str(), c.proven)).collect();
    assert_eq!(proven, [("1", Some(Proven::Draw)), ("2", Some(Proven::Loss)), ("3", Some(Proven::Draw))]);
    assert!(result.stats.iterations < 100, "a tiny proven tree stops the search");
}

#[test]
fn replay_rebuilds_the_tree_and_steps_back_to_the_start() {
    let mut mcts = Mcts::new(TicTacToe::new(), config(1_500, 15));
    mcts.search(&DefaultEval, &mut NoTrace);
    mcts.advance(4);
    // The view of a reused tree is the state the recording starts from.
    let initial = mcts.view();
    let mut recorder = Recorder::default();
    let result = mcts.search(&DefaultEval, &mut recorder);
    let trace = recorder.finish();
    assert!(!trace.truncated);
    let backprops = trace.events.iter().filter(|e| matches!(e, MctsEvent::Backpropagate { .. })).count();
    assert_eq!(backprops as u64, result.stats.iterations);

    let mut player = Player::new(trace, initial.clone());
    player.seek(usize::MAX);
    let end = mcts.view();
    assert_eq!(player.view().nodes(), end.nodes(), "visits, values and proofs match the real tree");
    assert_eq!(player.view().iterations, result.stats.iterations);
    assert_eq!(player.view().child_stats(0), mcts.root_stats(), "the view's UCB scores are the search's");

    // Half way back and forth, then all the way back, one step at a time.
    let half = player.len() / 2;
    player.seek(half);
    let middle = player.view().clone();
    player.seek(player.len());
    player.seek(half);
    assert_eq!(player.view(), &middle);
    while player.back() {}
    assert_eq!(player.view(), &initial);
}

#[test]
fn a_fresh_view_matches_a_fresh_tree() {
    let cfg = config(10, 16);
    let mcts = Mcts::new(TicTacToe::new(), cfg);
    assert_eq!(MctsView::new(Side::First, &cfg), mcts.view());
}

/// The settings the match engines can switch: the tuned player, pure implicit minimax, MAST
/// playouts, and everything at once with short playouts.
fn feature_settings() -> [MctsConfig; 4] {
    [
        MctsConfig::tuned(),
        MctsConfig { implicit_minimax: 1.0, exploration: 0.2, ..MctsConfig::tuned() },
        MctsConfig { mast: Some(0.2), playout_cutoff: None, ..MctsConfig::default() },
        MctsConfig {
            implicit_minimax: 0.5,
            playout_cutoff: Some(2),
            prior_weight: 1.0,
            mast: Some(0.1),
            ..MctsConfig::default()
        },
    ]
}

#[test]
fn implicit_minimax_mast_and_the_tuned_settings_keep_to_non_losing_moves() {
    let mut memo = HashMap::new();
    let traps = positions_with_a_trap();
    for (k, settings) in feature_settings().iter().enumerate() {
        for (i, game) in traps.iter().enumerate() {
            let config = MctsConfig { iterations: Some(4_000), seed: i as u64, ..*settings };
            let result = uct_search(game, &DefaultEval, &config, &mut NoTrace);
            let best = result.best_move.unwrap();
            let exact = negamax(&mut game.clone(), &mut memo);
            assert_eq!(
                move_value(game, best, &mut memo),
                exact,
                "settings {k}, {}: {:?}",
                game.position_text(),
                result.stats.children
            );
        }
    }
}

/// White: elephants on two holes (d4, g4), a mouse on a7 that slides onto d7 or g7 for the third.
fn barca_hole_threat(side: char) -> Barca {
    let white = [("d4", 'E'), ("g4", 'E'), ("a1", 'L'), ("j1", 'L'), ("a7", 'M'), ("j3", 'M')];
    let black = [("a10", 'e'), ("b10", 'e'), ("e10", 'l'), ("f10", 'l'), ("i10", 'm'), ("j10", 'm')];
    let pieces: Vec<(&str, char)> = white.iter().chain(black.iter()).copied().collect();
    Barca::from_fen(&barca_reference::fen_with(&pieces, side)).unwrap()
}

/// Does the side to move have a move that wins at once?
fn wins_at_once(game: &Barca) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let mut after = game.clone();
        after.make_move(mv);
        after.outcome() == Some(Outcome::Win(game.side_to_move()))
    })
}

#[test]
fn on_barca_every_setting_takes_the_third_hole_and_blocks_the_opponents() {
    let threat = barca_hole_threat('w');
    assert!(wins_at_once(&threat));
    let defend = barca_hole_threat('b');
    let mut moves = Vec::new();
    defend.legal_moves(&mut moves);
    let losing = moves.iter().filter(|&&mv| {
        let mut after = defend.clone();
        after.make_move(mv);
        wins_at_once(&after)
    });
    assert!(losing.count() > moves.len() / 2, "most Black moves let White win");
    for (k, settings) in feature_settings().iter().enumerate() {
        let config = MctsConfig { iterations: Some(2_000), seed: k as u64, ..*settings };
        let result = uct_search(&threat, &DefaultEval, &config, &mut NoTrace);
        let mut after = threat.clone();
        after.make_move(result.best_move.unwrap());
        assert_eq!(after.outcome(), Some(Outcome::Win(Side::First)), "settings {k}");
        assert_eq!(result.proven, Some(Proven::Win));

        let result = uct_search(&defend, &DefaultEval, &config, &mut NoTrace);
        let mut after = defend.clone();
        after.make_move(result.best_move.unwrap());
        assert!(!wins_at_once(&after), "settings {k}: {} lets White win", result.best_move_text.unwrap());
    }
}

#[test]
fn a_kept_tree_follows_the_opponents_reply_and_refuses_other_positions() {
    let mut mcts = Mcts::new(TicTacToe::new(), config(5_000, 14));
    let best = mcts.search(&DefaultEval, &mut NoTrace).best_move.unwrap();
    mcts.advance(best);
    let reply_stats = mcts.root_stats().into_iter().max_by_key(|c| c.visits).unwrap();
    let mut game = TicTacToe::new();
    game.make_move(best);
    assert!(mcts.follow(&game), "the position it stands at");
    let reply = game.parse_move(&reply_stats.mv).unwrap();
    game.make_move(reply);
    assert!(mcts.follow(&game));
    assert!(mcts.follow(&game), "again: it stands there now");
    assert_eq!((mcts.root_visits(), mcts.game().ply()), (reply_stats.visits, 2), "the reply's subtree kept");

    let mut elsewhere = TicTacToe::new();
    for mv in [0, 1, 2, 4] {
        elsewhere.make_move(mv);
    }
    assert!(!mcts.follow(&elsewhere), "two plies on");
    // One ply on, but from another first move.
    let mut other = TicTacToe::new();
    for mv in (0..9).filter(|&mv| mv != best && mv != reply).take(3) {
        other.make_move(mv);
    }
    assert!(!mcts.follow(&other), "another game");
}

#[test]
fn evaluated_leaves_are_expanded_at_once_and_rewarded_by_their_evaluation() {
    let start = Barca::start();
    let config = |iterations| MctsConfig { iterations: Some(iterations), ..MctsConfig::tuned() };
    let one = uct_search(&start, &DefaultEval, &config(1), &mut NoTrace);
    let visited = one.stats.children.iter().find(|c| c.visits == 1).unwrap();
    let mut after = start.clone();
    after.make_move(start.parse_move(&visited.mv).unwrap());
    // The mover's reward: the logistic of the opponent's evaluation, negated.
    let expected = 1.0 / (1.0 + (DefaultEval.evaluate(&after) as f64 / MctsConfig::tuned().eval_scale).exp());
    assert!((visited.mean - expected).abs() < 1e-6, "{} against {expected}", visited.mean);

    // The second iteration expands the child it reaches, though that was visited once at most.
    let move_count = |game: &Barca| {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.len()
    };
    let two = uct_search(&start, &DefaultEval, &config(2), &mut NoTrace);
    let expanded = two.stats.nodes - 1 - move_count(&start);
    let visited_children = two.stats.children.iter().filter(|c| c.visits > 0).map(|c| {
        let mut child = start.clone();
        child.make_move(start.parse_move(&c.mv).unwrap());
        move_count(&child)
    });
    assert!(visited_children.into_iter().any(|count| count == expanded), "{expanded} new nodes");
}

/// The engine's move heads the view's list of moves, by one rule, ties included: on
/// `x../.o./...` after 1,000 plain iterations (seed 0) c3 and a1 tie on visits and means, and
/// the move played (a1, the first in move order) must be the list's first, not the last tied.
#[test]
fn the_move_played_heads_the_list_of_moves_even_on_a_tie() {
    let mut ties = 0;
    for (text, seed) in
        [("x../.o./...", 0), ("x../.o./...", 1), (".../.../...", 2), ("xo./.x./...", 3), ("x.o/.x./..o", 4)]
    {
        let game = position(text);
        let cfg = MctsConfig { iterations: Some(1_000), seed, ..MctsConfig::plain() };
        let mut recorder = Recorder::default();
        let result = uct_search(&game, &DefaultEval, &cfg, &mut recorder);
        let mut player = Player::new(recorder.finish(), MctsView::new(game.side_to_move(), &cfg));
        player.seek(usize::MAX);
        let view = player.view();
        let list = view.children_to_play(0);
        let played = result.best_move_text.as_deref().expect("a move");
        assert_eq!(view.node(list[0]).mv, played, "{text}, seed {seed}");
        assert_eq!(view.best_child(0), Some(list[0]));
        let top = view.node(list[0]);
        ties += list[1..]
            .iter()
            .filter(|&&c| view.node(c).visits == top.visits && view.node(c).value_sum == top.value_sum)
            .count();
    }
    assert!(ties > 0, "a tie was checked");
}

/// `value` is the best move's mean playout reward, as `search --help` says, also when the move is
/// proven (a proven draw's playouts may average 0.7); only a proven move never played out gives its result.
#[test]
fn the_value_is_the_best_moves_mean_reward() {
    let mut proven_played = 0;
    for text in ["x../.o./...", "xx./o../...", "xx./oo./...", "xo./.x./..o", "x.o/.x./..o", "........."] {
        let game = position(text);
        let result = uct_search(
            &game,
            &DefaultEval,
            &MctsConfig { iterations: Some(2_000), seed: 5, ..MctsConfig::plain() },
            &mut NoTrace,
        );
        let best = result
            .stats
            .children
            .iter()
            .find(|c| Some(&c.mv) == result.best_move_text.as_ref())
            .expect("the best move's stats");
        if best.visits == 0 {
            assert_eq!(result.value, best.proven.expect("an unvisited best move is proven").reward(), "{text}");
        } else {
            assert_eq!(result.value, best.mean, "{text}");
            proven_played += usize::from(best.proven.is_some());
        }
    }
    assert!(proven_played > 0, "a proven move that was played out was checked");
}
