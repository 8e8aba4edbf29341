//! What a recorded trace costs and how fast it steers: peak memory (VmHWM) of a full Dijkstra on
//! maps/random512.map and of the full tic-tac-toe tree replayed to their ends, the time to seek
//! anywhere in the Dijkstra replay (target <= 16 ms), and how long a stopped search runs on
//! (target <= 50 ms). Each memory case runs in a child process, so every peak is its own.
//!
//! cargo run --release --example bench_trace

use std::process::Command;
use std::time::{Duration, Instant};

use searchlab::adversarial::choice::root_move_scores;
use searchlab::adversarial::minimax;
use searchlab::adversarial::tree::{TreeEvent, TreeNode, TreeView};
use searchlab::games::DefaultEval;
use searchlab::games::barca::Barca;
use searchlab::games::tictactoe::TicTacToe;
use searchlab::grid::movingai::load_map;
use searchlab::pathfinding::search_trace::{SearchEvent, SearchSnapshot};
use searchlab::pathfinding::{Algorithm, GridSearch, SearchSpace};
use searchlab::trace::{NoTrace, Player, Progress, Recorder, Watched};

/// A field of /proc/self/status in bytes ("VmHWM", "VmRSS").
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    let line = status.lines().find(|l| l.starts_with(field)).expect("the field is there");
    let kb: usize = line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number of kB");
    kb * 1024
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A full Dijkstra (towards a blocked cell, so every reachable cell is expanded), recorded and
/// replayed to its end; then seeks to spread-out steps, each timed.
fn grid_case() {
    let grid = load_map(std::path::Path::new("maps/random512.map")).expect("maps/random512.map");
    let start = grid.passable_cells()[0];
    let goal = (0..grid.cell_count() as u32).find(|&cell| !grid.is_cell_passable(cell)).expect("a blocked cell");
    let search = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
    let base = status_bytes("VmRSS");
    let mut recorder = Recorder::default();
    search.run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    let mut player = Player::new(recorder.finish(), SearchSnapshot::new(grid.cell_count()));
    player.seek(usize::MAX);
    let events = player.len();
    // Spread-out targets, visited in a scrambled order (backward and forward jumps).
    let mut times = Vec::new();
    for i in 0..64usize {
        let target = (i * 40_503) % 64 * events / 64 + i;
        let began = Instant::now();
        player.seek(target);
        times.push(began.elapsed());
    }
    player.seek(events);
    let began = Instant::now();
    for _ in 0..100 {
        player.back();
    }
    let back = began.elapsed() / 100;
    times.sort();
    let peak = status_bytes("VmHWM") - base;
    println!(
        "grid  Dijkstra random512: {events} events of {} B, peak {:.1} MB above the map ({:.1} B/event), held {:.1} MB; \
         seek median {:.2} ms, max {:.2} ms; one step back from the end {:.3} ms",
        std::mem::size_of::<SearchEvent>(),
        mb(peak),
        peak as f64 / events as f64,
        mb(status_bytes("VmRSS") - base),
        ms(times[times.len() / 2]),
        ms(*times.last().expect("timed")),
        ms(back),
    );
}

/// Minimax over the whole tic-tac-toe tree (the game-tree page's preset), replayed to its end.
fn tree_case() {
    let base = status_bytes("VmRSS");
    let mut recorder = Recorder::default();
    minimax::search(&TicTacToe::new(), &DefaultEval, 9, &mut recorder);
    let mut player = Player::new(recorder.finish(), TreeView::new());
    player.seek(usize::MAX);
    let began = Instant::now();
    player.seek(player.len() / 2);
    let seek = began.elapsed();
    let peak = status_bytes("VmHWM") - base;
    println!(
        "tree  full tic-tac-toe: {} events of {} B, {} nodes of {} B, peak {:.1} MB ({:.1} B/event), held {:.1} MB; seek to the middle {:.1} ms",
        player.len(),
        std::mem::size_of::<TreeEvent>(),
        player.view().nodes.len(),
        std::mem::size_of::<TreeNode>(),
        mb(peak),
        peak as f64 / player.len() as f64,
        mb(status_bytes("VmRSS") - base),
        ms(seek),
    );
}

/// Starts `work` with a watching tracer, stops it after `after` and reports how long it ran on.
fn cancel_latency(name: &str, after: Duration, work: impl FnOnce(&mut Watched<NoTrace>) + Send) {
    let progress = Progress::default();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            work(&mut Watched::new(NoTrace, &progress));
            Instant::now()
        });
        std::thread::sleep(after);
        let stopped = Instant::now();
        progress.stop();
        let returned = worker.join().expect("the search does not panic");
        let late = returned.saturating_duration_since(stopped);
        println!(
            "stop  {name}: returned {:.2} ms after the stop ({} units of work counted)",
            ms(late),
            progress.done()
        );
    });
}

fn cancel_cases() {
    let barca = Barca::start();
    cancel_latency("minimax depth 6 on Barca", Duration::from_millis(200), |observer| {
        minimax::search(&barca, &DefaultEval, 6, observer);
    });
    cancel_latency(
        "root move scores depth 5 on Barca (Easy/Medium's search, deeper)",
        Duration::from_millis(200),
        |observer| {
            root_move_scores(&barca, &DefaultEval, 5, observer);
        },
    );
    let medium = Instant::now();
    root_move_scores(&barca, &DefaultEval, 3, &mut NoTrace);
    println!("      (Medium's whole search, depth 3 from the start: {:.1} ms)", ms(medium.elapsed()));
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("grid") => grid_case(),
        Some("tree") => tree_case(),
        Some("stop") => cancel_cases(),
        _ => {
            let me = std::env::current_exe().expect("the example's path");
            for case in ["grid", "tree", "stop"] {
                let status = Command::new(&me).arg(case).status().expect("run a case");
                assert!(status.success(), "case {case} failed");
            }
        }
    }
}
