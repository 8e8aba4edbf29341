//! UCT with RAVE against plain UCT at equal time a move, on Othello and Hus: the match score of
//! RAVE with its 95% interval, and the playouts a move each side ran (RAVE's bookkeeping costs
//! playouts). Both play `MctsConfig::plain()` (UCB1, C = √2, random playouts scored after 20 plies);
//! RAVE adds `rave=K` (β = sqrt(K / (3n + K))). Colours swap each pair of a seeded opening suite.
//!
//! cargo run --release --example bench_rave [-- GAMES MILLIS K]   (default 40 games, 50 ms, K = 1000)

use searchlab::adversarial::engine::EngineSpec;
use searchlab::adversarial::mcts::uct_search;
use searchlab::games::hus::Hus;
use searchlab::games::othello::Othello;
use searchlab::games::{DefaultEval, Game, random_playout};
use searchlab::tournament::{Contestant, MatchConfig, ReportScoring, run_match};
use searchlab::trace::NoTrace;

use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() {
    let arg = |i: usize, default: u64| std::env::args().nth(i).map_or(default, |a| a.parse().expect("a number"));
    let (games, millis, k) = (arg(1, 40) as u32, arg(2, 50), arg(3, 1000));
    let rave: EngineSpec = format!("uct:{millis}ms,plain,rave={k}").parse().expect("a spec");
    let plain: EngineSpec = format!("uct:{millis}ms,plain").parse().expect("a spec");
    println!("{rave} against {plain}, {games} games a game");
    compare("othello", &Othello::start(), [rave, plain], games);
    compare("hus", &Hus::start(), [rave, plain], games);
}

fn compare<G: Game + Sync>(name: &str, start: &G, engines: [EngineSpec; 2], games: u32) {
    let config = MatchConfig { games, seed: 7, opening_plies: 4, sprt: None, scoring: ReportScoring::default() };
    let contestants = engines.map(|engine| Contestant { engine, eval: DefaultEval });
    let report = run_match(start, &contestants, &config, &()).expect("a match");
    let wdl = report.wdl();
    let (low, high) = wdl.score_interval();
    let [rave_playouts, plain_playouts] = engines.map(|engine| playouts_a_move(start, &engine));
    println!(
        "{name}: RAVE +{} ={} -{}, score {:.3} [{low:.3}, {high:.3}]; playouts a move: RAVE {rave_playouts:.0}, plain {plain_playouts:.0}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score()
    );
}

/// Mean playouts one search ran, over positions along random games.
fn playouts_a_move<G: Game>(start: &G, engine: &EngineSpec) -> f64 {
    let mut rng = StdRng::seed_from_u64(3);
    let positions = 6;
    let total: u64 = (0..positions)
        .map(|i| {
            let mut game = start.clone();
            random_playout(&mut game, 4 + 6 * i, &mut rng);
            uct_search(&game, &DefaultEval, &engine.mcts_config(), &mut NoTrace).stats.iterations
        })
        .sum();
    total as f64 / positions as f64
}
