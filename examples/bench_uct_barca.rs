//! The playing UCT on Barca: iterations a second, tree size and depth at a time budget, against
//! the depth iterative deepening reaches in the same time, over positions along random games.
//!
//! cargo run --release --example bench_uct_barca [-- MILLIS [ENGINE_SPEC]]   (default 100, uct:<MILLIS>ms)

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::adversarial::SearchLimits;
use searchlab::adversarial::engine::EngineSpec;
use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::mcts::uct_search;
use searchlab::games::barca::Barca;
use searchlab::games::{DefaultEval, random_playout};
use searchlab::trace::NoTrace;

fn main() {
    let millis: u64 = std::env::args().nth(1).map_or(100, |a| a.parse().expect("MILLIS is a number"));
    let spec: EngineSpec =
        std::env::args().nth(2).unwrap_or(format!("uct:{millis}ms")).parse().expect("an engine spec");
    let mut rng = StdRng::seed_from_u64(5);
    let (mut iterations, mut nodes, mut depth, mut elapsed, mut id_depth) = (0u64, 0usize, 0usize, 0u64, 0u32);
    let positions = 12;
    println!("{spec}, {positions} positions along random games");
    for _ in 0..positions {
        let mut game = Barca::start();
        random_playout(&mut game, rng.random_range(4..40), &mut rng);
        let clock = Instant::now();
        let result = uct_search(&game, &DefaultEval, &spec.mcts_config(), &mut NoTrace);
        elapsed += clock.elapsed().as_millis() as u64;
        iterations += result.stats.iterations;
        nodes += result.stats.nodes;
        depth += result.stats.max_depth;
        let mut id: IterativeDeepening<Barca> =
            IterativeDeepening::new(IdOptions { tt_bits: 18, ..IdOptions::default() });
        let limits = SearchLimits { millis: Some(millis), ..SearchLimits::default() };
        id_depth += id.search(&game, &DefaultEval, &limits, &mut NoTrace).stats.depth_reached;
    }
    let n = positions as f64;
    println!(
        "UCT: {:.0} iterations/s, {:.0} iterations, {:.0} nodes, max depth {:.1} a search; ID reaches depth {:.1}",
        iterations as f64 * 1000.0 / elapsed as f64,
        iterations as f64 / n,
        nodes as f64 / n,
        depth as f64 / n,
        id_depth as f64 / n,
    );
}
