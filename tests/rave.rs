//! RAVE (`uct:…,rave=K`): legal moves on every game, selection by exactly
//! `(1 - β)·mean + β·amaf_mean + C·sqrt(ln N / n)` with `β = sqrt(K / (3n + K))` (computed here by
//! hand from the replayed tree before every selection), and a trace that replays both ways.

use searchlab::adversarial::engine::EngineSpec;
use searchlab::adversarial::mcts::{Mcts, MctsConfig, Proven, uct_search};
use searchlab::adversarial::mcts_trace::{MctsEvent, MctsView};
use searchlab::games::barca::Barca;
use searchlab::games::hus::Hus;
use searchlab::games::othello::Othello;
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{DefaultEval, Game, random_playout};
use searchlab::trace::{NoTrace, Player, Recorder};

use rand::SeedableRng;
use rand::rngs::StdRng;

const K: f64 = 300.0;

fn rave(iterations: u64, seed: u64) -> MctsConfig {
    MctsConfig { iterations: Some(iterations), rave: Some(K), seed, ..MctsConfig::plain() }
}

fn assert_legal_choices<G: Game>(start: &G, name: &str) {
    let mut rng = StdRng::seed_from_u64(5);
    for game_number in 0..4 {
        let mut game = start.clone();
        random_playout(&mut game, 3 * game_number, &mut rng);
        if game.outcome().is_some() {
            continue;
        }
        let result = uct_search(&game, &DefaultEval, &rave(300, game_number as u64), &mut NoTrace);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best = result.best_move.unwrap_or_else(|| panic!("{name}: RAVE found no move"));
        assert!(moves.contains(&best), "{name}: {best:?} is not legal");
        assert!(result.stats.children.iter().all(|c| c.amaf.is_some()), "{name}: the stats show AMAF");
    }
}

#[test]
fn rave_plays_legal_moves_on_othello_hus_barca_and_tictactoe() {
    assert_legal_choices(&Othello::start(), "othello");
    assert_legal_choices(&Hus::start(), "hus");
    assert_legal_choices(&Barca::start(), "barca");
    assert_legal_choices(&TicTacToe::new(), "tictactoe");
}

/// The child of `parent` that RAVE should select in `view`, by the formula written out here:
/// untried children first (the best AMAF mean, 0.5 without samples), else the best blended UCB;
/// children proven lost never; the first of equals.
fn hand_selection(view: &MctsView, parent: u32) -> u32 {
    let c = view.config().exploration;
    let big_n = f64::from(view.node(parent).visits);
    let mut best: Option<(u32, bool, f64)> = None;
    for id in view.node(parent).children() {
        let child = view.node(id);
        if child.proven == Some(Proven::Loss) {
            continue;
        }
        let amaf_mean = if child.amaf.visits == 0 { 0.5 } else { child.amaf.sum / f64::from(child.amaf.visits) };
        let (fresh, key) = if child.visits == 0 {
            (true, amaf_mean)
        } else {
            let n = f64::from(child.visits);
            let beta = (K / (3.0 * n + K)).sqrt();
            let mean = child.value_sum / n;
            (false, (1.0 - beta) * mean + beta * amaf_mean + c * (big_n.ln() / n).sqrt())
        };
        if best.is_none_or(|(_, f, k)| (fresh, key) > (f, k)) {
            best = Some((id, fresh, key));
        }
    }
    best.expect("a child to select").0
}

fn assert_selections_follow_the_formula<G: Game>(start: &G, name: &str) {
    let mut mcts = Mcts::new(start.clone(), rave(600, 11));
    let initial = mcts.view();
    let mut recorder = Recorder::default();
    mcts.search(&DefaultEval, &mut recorder);
    let trace = recorder.finish();
    assert!(!trace.truncated);
    let mut player = Player::new(trace, initial.clone());
    let (mut checked, mut blended) = (0, 0);
    for step in 0..player.len() {
        if let MctsEvent::Select { path } = &player.trace().events[step] {
            for pair in path.windows(2) {
                assert_eq!(pair[1], hand_selection(player.view(), pair[0]), "{name}: selection at event {step}");
                checked += 1;
                blended += usize::from(player.view().node(pair[1]).visits > 0);
            }
        }
        player.forward();
    }
    assert!(checked > 1_000 && blended > 500, "{name}: {checked} selections checked, {blended} by the blend");

    // The replayed tree is the engine's, AMAF statistics included, and steps back to the start.
    assert_eq!(player.view().nodes(), mcts.view().nodes(), "{name}: the replay rebuilds the tree");
    assert_eq!(player.view().child_stats(0), mcts.root_stats(), "{name}: the view's UCB is the search's");
    for id in 1..player.view().nodes().len() as u32 {
        let node = player.view().node(id);
        // Every simulation through a node played its move: AMAF counts it at least as often.
        assert!(node.amaf.visits >= node.visits, "{name}: node {id} has fewer AMAF samples than visits");
    }
    while player.back() {}
    assert_eq!(player.view(), &initial, "{name}: the replay steps back to the start");
}

#[test]
fn rave_selects_by_the_stated_formula_and_replays_on_othello() {
    assert_selections_follow_the_formula(&Othello::start(), "othello");
}

#[test]
fn rave_selects_by_the_stated_formula_and_replays_on_hus() {
    assert_selections_follow_the_formula(&Hus::start(), "hus");
}

#[test]
fn rave_is_a_uct_spec_option() {
    let spec: EngineSpec = "uct:100ms,plain,rave=1000".parse().unwrap();
    assert_eq!(spec.uct.rave, Some(1000.0));
    assert_eq!(spec.to_string().parse::<EngineSpec>().unwrap(), spec, "{spec} round-trips");
    assert!(spec.to_string().contains("rave=1000"), "{spec}");
    let off: EngineSpec = "uct:100,rave=off".parse().unwrap();
    assert_eq!(off.uct.rave, None);
    let error = "uct:100,rave=0".parse::<EngineSpec>().unwrap_err();
    assert!(error.contains("rave=0"), "{error}");
    // The bound reads as a reader writes it, not as the smallest float's 300 digits.
    assert!(error.contains("rave=0: not a number > 0") && error.len() < 120, "{error}");
}
