//! The Barca engine's speed: perft leaves per second from the start (the last ply counted without
//! playing it), make/unmake against copy-make (clone, then make), move generation, evaluation,
//! and iterative deepening from the start (target: depth 7 within one second), also with the
//! app's watching observer (a stop flag read every 64 nodes, the best move so far). Times are wall
//! clock and, where Linux reports it, this thread's CPU time: on a busy machine the second shows
//! what the search itself costs.
//!
//! cargo run --release --example bench_barca [-- DEPTH]   (deepest perft, default 5)

use std::hint::black_box;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::adversarial::SearchLimits;
use searchlab::adversarial::iterative::{IdOptions, IterativeDeepening};
use searchlab::games::barca::perft::perft;
use searchlab::games::barca::{Barca, BarcaMove};
use searchlab::games::{DefaultEval, Game, random_playout};
use searchlab::trace::{NoTrace, Progress, Watched};

/// Positions along random games, each with the history that led to it.
fn sample_games(count: usize) -> Vec<Barca> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Barca::start();
        let plies = rng.random_range(0..60);
        random_playout(&mut game, plies, &mut rng);
        games.push(game);
    }
    games
}

/// Nanoseconds per call of `work` over `rounds` passes (`work` returns how many calls it made).
fn nanos_per(rounds: usize, mut work: impl FnMut() -> usize) -> f64 {
    let clock = Instant::now();
    let calls: usize = (0..rounds).map(|_| work()).sum();
    clock.elapsed().as_secs_f64() * 1e9 / calls as f64
}

/// Nanoseconds this thread has spent on a CPU (Linux's schedstat); `None` elsewhere.
fn cpu_nanos() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// Runs `work`: its result, wall-clock seconds and CPU time as text ("?" where unknown).
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let (clock, cpu) = (Instant::now(), cpu_nanos());
    let result = work();
    let cpu = cpu.zip(cpu_nanos()).map(|(before, after)| (after - before) as f64 / 1e9);
    (result, clock.elapsed().as_secs_f64(), cpu)
}

fn seconds(time: Option<f64>) -> String {
    time.map_or("?".to_string(), |time| format!("{time:.3} s"))
}

/// Iterative deepening from the start: the time to complete depth 7, then the depth one second reaches.
fn iterative_deepening() {
    let start = Barca::start();
    let search = |limits: SearchLimits| {
        IterativeDeepening::new(IdOptions::default()).search(&start, &DefaultEval, &limits, &mut NoTrace)
    };
    let (result, wall, cpu) = timed(|| search(SearchLimits::depth(7)));
    let s = &result.stats;
    println!(
        "id to depth 7: {wall:.3} s wall, {} CPU; {} nodes, {:.2} M nodes per CPU second; nodes per depth {:?}",
        seconds(cpu),
        s.nodes,
        s.nodes as f64 / cpu.unwrap_or(wall) / 1e6,
        s.nodes_per_depth,
    );
    let progress = Progress::default();
    let (result, wall, cpu) = timed(|| {
        IterativeDeepening::new(IdOptions::default()).search(
            &start,
            &DefaultEval,
            &SearchLimits::depth(7),
            &mut Watched::new(NoTrace, &progress),
        )
    });
    println!(
        "id to depth 7, watched: {wall:.3} s wall, {} CPU; {:.2} M nodes per CPU second; best so far {:?}",
        seconds(cpu),
        result.stats.nodes as f64 / cpu.unwrap_or(wall) / 1e6,
        progress.best_so_far().map(|best| best.mv),
    );
    let (result, wall, cpu) = timed(|| search(SearchLimits::millis(1000)));
    println!("id for 1 s: depth {} ({wall:.3} s wall, {} CPU)", result.stats.depth_reached, seconds(cpu));
}

fn main() {
    let deepest: usize = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    for depth in 1..=deepest {
        let mut game = Barca::start();
        let clock = Instant::now();
        let leaves = perft(&mut game, depth);
        let seconds = clock.elapsed().as_secs_f64();
        println!("perft({depth}) = {leaves:>12}  {seconds:>8.3} s  {:>7.1} M leaves/s", leaves as f64 / seconds / 1e6);
    }

    let games = sample_games(2_000);
    let positions: Vec<(Barca, Vec<BarcaMove>)> = games
        .into_iter()
        .map(|game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            (game, moves)
        })
        .collect();
    let mean_history = positions.iter().map(|(game, _)| game.ply()).sum::<usize>() as f64 / positions.len() as f64;
    println!("{} random positions, mean history {mean_history:.0} plies", positions.len());

    let mut working: Vec<Barca> = positions.iter().map(|(game, _)| game.clone()).collect();
    let make_unmake = nanos_per(50, || {
        let mut calls = 0;
        for (game, (_, moves)) in working.iter_mut().zip(&positions) {
            for &mv in moves {
                game.make_move(mv);
                black_box(game.hash());
                game.unmake_move();
                calls += 1;
            }
        }
        calls
    });
    let copy_make = nanos_per(50, || {
        let mut calls = 0;
        for (game, moves) in &positions {
            for &mv in moves {
                let mut child = game.clone();
                child.make_move(mv);
                black_box(child.hash());
                calls += 1;
            }
        }
        calls
    });
    println!("make+unmake   {make_unmake:>7.1} ns/move");
    println!("clone+make    {copy_make:>7.1} ns/move (copy-make; the clone copies the move history)");

    let mut buffer = Vec::with_capacity(128);
    let generate = nanos_per(200, || {
        for (game, _) in &positions {
            buffer.clear();
            game.legal_moves(&mut buffer);
            black_box(&buffer);
        }
        positions.len()
    });
    let count = nanos_per(200, || {
        for (game, _) in &positions {
            black_box(game.count_legal_moves());
        }
        positions.len()
    });
    let evaluate = nanos_per(200, || {
        for (game, _) in &positions {
            black_box(game.evaluate());
        }
        positions.len()
    });
    let outcome = nanos_per(200, || {
        for (game, _) in &positions {
            black_box(game.outcome());
        }
        positions.len()
    });
    println!("legal_moves   {generate:>7.1} ns/position");
    println!("count moves   {count:>7.1} ns/position");
    println!("evaluate      {evaluate:>7.1} ns/position");
    println!("outcome       {outcome:>7.1} ns/position (win, repetition scan, ply limit)");
    iterative_deepening();
}
