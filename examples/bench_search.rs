//! Game-tree search speed and pruning: alpha-beta nodes per second, the depth iterative deepening
//! reaches in one second, its first-move-cutoff rate, and alpha-beta's tree against the
//! Knuth–Moore minimal tree — on Barca from the start position (targets: depth >= 7 in 1 s,
//! first-move cutoffs >= 95%) and on the synthetic uniform tree (worst move order, so the
//! ordering heuristics have to earn their keep).
//!
//! cargo run --release --example bench_search [-- MILLIS]   (the ID time budget, default 1000)

use std::time::Instant;

use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::adversarial::{SearchLimits, alphabeta, minimax};
use searchlab::games::barca::Barca;
use searchlab::games::barca::perft::perft;
use searchlab::games::uniform_tree::{Ordering, UniformTree};
use searchlab::games::{DefaultEval, Evaluator, Game};
use searchlab::trace::NoTrace;

/// Alpha-beta in generation order to `depth`: nodes per second and leaves.
fn alpha_beta_speed<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> (f64, u64) {
    let clock = Instant::now();
    let result = alphabeta::search(game, eval, depth, &mut NoTrace);
    (result.stats.nodes as f64 / clock.elapsed().as_secs_f64(), result.stats.leaves)
}

/// Iterative deepening for `millis`: depth reached, nodes/s, first-move-cutoff rate, table hit rate,
/// and the last completed iteration's nodes.
fn id_run<G: Game, E: Evaluator<G>>(game: &G, eval: &E, millis: u64) {
    let mut engine = IterativeDeepening::new(IdOptions::default());
    let result = engine.search(game, eval, &SearchLimits::millis(millis), &mut NoTrace);
    let s = &result.stats;
    println!(
        "  id {millis} ms: depth {} ({} nodes, {:.2} M nodes/s), first-move cutoffs {:.1}% of {}, tt hits {:.1}%, nodes per depth {:?}",
        s.depth_reached,
        s.nodes,
        s.nodes as f64 / s.micros as f64,
        100.0 * s.first_move_cutoff_rate().unwrap_or(0.0),
        s.cutoffs,
        100.0 * s.tt_hits as f64 / s.tt_probes.max(1) as f64,
        s.nodes_per_depth,
    );
}

fn uniform(b: u8, d: u32) {
    let minimal = UniformTree::minimal_leaf_count(b as u64, d);
    let full = (b as u64).pow(d);
    println!("uniform tree b={b} d={d}: minimal tree {minimal} leaves, full tree {full}");
    for ordering in [Ordering::Perfect, Ordering::Worst] {
        let tree = UniformTree::new(b, d as usize, ordering);
        let (rate, leaves) = alpha_beta_speed(&tree, &DefaultEval, d);
        println!(
            "  alpha-beta, {ordering:?} order: {leaves} leaves = {:.2}x minimal, {:.2} M nodes/s",
            leaves as f64 / minimal as f64,
            rate / 1e6
        );
    }
    let clock = Instant::now();
    let plain = minimax::search(&UniformTree::new(b, d as usize, Ordering::Worst), &DefaultEval, d, &mut NoTrace);
    println!(
        "  minimax: {} nodes, {:.2} M nodes/s",
        plain.stats.nodes,
        plain.stats.nodes as f64 / clock.elapsed().as_secs_f64() / 1e6
    );
    let worst = UniformTree::new(b, d as usize, Ordering::Worst);
    let mut engine = IterativeDeepening::new(IdOptions::default());
    let result = engine.search(&worst, &DefaultEval, &SearchLimits::depth(d), &mut NoTrace);
    let last = result.stats.nodes_per_depth.last().copied().unwrap_or(0);
    println!(
        "  id to depth {d} on the worst order: {} nodes in all, last iteration {last}, first-move cutoffs {:.1}%",
        result.stats.nodes,
        100.0 * result.stats.first_move_cutoff_rate().unwrap_or(0.0)
    );
}

/// Barca from the start: the Knuth–Moore minimal tree for the effective branching factor
/// (perft(d)^(1/d)) against plain alpha-beta (generation order) and iterative deepening.
fn barca(millis: u64) {
    let start = Barca::start();
    println!("barca, start position:");
    for depth in [4u32, 5] {
        let full = perft(&mut start.clone(), depth as usize);
        let b = (full as f64).powf(1.0 / f64::from(depth));
        let minimal = b.powi(depth.div_ceil(2) as i32) + b.powi((depth / 2) as i32) - 1.0;
        let (rate, leaves) = alpha_beta_speed(&start, &DefaultEval, depth);
        let mut engine = IterativeDeepening::new(IdOptions::default());
        let id = engine.search(&start, &DefaultEval, &SearchLimits::depth(depth), &mut NoTrace);
        println!(
            "  depth {depth}: {full} leaves in the full tree, effective b {b:.1}, minimal tree ~{minimal:.0} leaves; \
             alpha-beta {leaves} leaves = {:.1}x minimal ({:.2} M nodes/s); id (all iterations) {} leaves = {:.2}x minimal, \
             first-move cutoffs {:.1}%",
            leaves as f64 / minimal,
            rate / 1e6,
            id.stats.leaves,
            id.stats.leaves as f64 / minimal,
            100.0 * id.stats.first_move_cutoff_rate().unwrap_or(0.0),
        );
    }
    id_run(&start, &DefaultEval, millis);
}

fn main() {
    let millis = std::env::args().nth(1).map_or(1000, |a| a.parse().expect("MILLIS is a whole number"));
    barca(millis);
    uniform(8, 6);
    uniform(30, 4);
    println!("uniform tree b=30, worst order, unbounded depth:");
    id_run(&UniformTree::new(30, 64, Ordering::Worst), &DefaultEval, millis);
}
