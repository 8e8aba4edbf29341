//! How long the tree lab takes with the whole tic-tac-toe tree: recording minimax from the empty
//! board, replaying it to the end, and back to the start.
//! Run: cargo run --release --example bench_tree_lab

use std::time::Instant;

use searchlab::app::tree_lab::recording::{self, EngineAlgorithm, GameKind, Position, Replay, SearchSpec};
use searchlab::trace::Progress;

fn main() {
    let position = Position::parse(GameKind::TicTacToe, ".........").expect("the empty board");
    let spec = SearchSpec { algorithm: EngineAlgorithm::Minimax, depth: 9, iterations: 0 };
    let started = Instant::now();
    let mut recording = recording::record(position, spec, &Progress::default()).expect("not cancelled");
    let recorded = started.elapsed();
    let events = recording.step_count();
    let started = Instant::now();
    recording.seek(usize::MAX);
    let forward = started.elapsed();
    let Replay::Tree(replay) = &recording.replay else { unreachable!("minimax records a tree") };
    let nodes = replay.player.view().nodes.len();
    let started = Instant::now();
    recording.seek(0);
    let back = started.elapsed();
    println!(
        "{nodes} nodes, {events} events: recorded in {:.0} ms, replayed to the end in {:.0} ms, back to the start in {:.0} ms",
        recorded.as_secs_f64() * 1e3,
        forward.as_secs_f64() * 1e3,
        back.as_secs_f64() * 1e3
    );
}
