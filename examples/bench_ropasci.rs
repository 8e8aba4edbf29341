//! RoPaSci 360 speed: perft from the start (joint actions applied per second) and SM-MCTS
//! iterations per second from the start and from a middle game, with both selection rules.
//!
//! cargo run --release --example bench_ropasci [-- PERFT_DEPTH]

use std::time::Instant;

use searchlab::adversarial::sm_mcts::{SelectionRule, SmMctsConfig, search};
use searchlab::games::ropasci::RoPaSci;
use searchlab::games::simultaneous::perft;
use searchlab::trace::NoTrace;

/// A middle game: six tokens a side on the board, three throws left each.
const MIDDLE: &str = "R@4,-2 P@3,0 S@2,-1 r@2,1 R@1,0 p@0,2 S@0,-3 P@-1,-1 s@-2,1 r@-2,3 p@-3,0 s@-4,2 / 6 6 / 20";

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(3);
    let start = RoPaSci::new();
    for d in 1..=depth {
        let clock = Instant::now();
        let leaves = perft(&start, d);
        let seconds = clock.elapsed().as_secs_f64();
        println!("perft {d}: {leaves:>15}  {seconds:>8.3} s  {:>8.2} M leaves/s", leaves as f64 / seconds / 1e6);
    }
    let middle = RoPaSci::from_position(MIDDLE).expect("the bench position parses");
    let rules = [
        ("decoupled UCT", SelectionRule::DecoupledUct { exploration: 0.5 }),
        ("regret matching", SelectionRule::RegretMatching { exploration: 0.05 }),
    ];
    for (label, position) in [("start", &start), ("middle game", &middle)] {
        for (rule_name, rule) in rules {
            let config = SmMctsConfig { rule, iterations: 20_000, playout_cutoff: Some(4), seed: 1 };
            let clock = Instant::now();
            let result = search(position, &config, &mut NoTrace);
            let rate = result.iterations as f64 / clock.elapsed().as_secs_f64();
            println!("SM-MCTS {rule_name:<16} {label:<12} {:>8.0} it/s  nodes {:>6}", rate, result.nodes);
        }
    }
}
