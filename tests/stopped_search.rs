//! A search told to stop part-way (the game-tree lab drops a recording when a newer one starts)
//! must unwind cleanly: no panic, and the line it reports is a legal sequence of moves.

use searchlab::adversarial::tree::TreeEvent;
use searchlab::adversarial::{SearchResult, alphabeta, minimax, negamax};
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{DefaultEval, Game};
use searchlab::trace::{Control, Tracer};

/// Keeps events (so the search names its principal variation) and says stop at the `stop_at`-th unit of work.
struct StopAfter {
    units: usize,
    stop_at: usize,
}

impl Tracer<TreeEvent> for StopAfter {
    const ENABLED: bool = true;
    fn record(&mut self, make: impl FnOnce() -> TreeEvent) {
        make();
    }
    fn control(&mut self) -> Control {
        self.units += 1;
        if self.units >= self.stop_at { Control::Stop } else { Control::Continue }
    }
}

type Search = fn(&TicTacToe, &DefaultEval, u32, &mut StopAfter) -> SearchResult<u8>;

fn assert_line_is_legal(start: &TicTacToe, pv: &[u8], what: &str) {
    let mut game = start.clone();
    for &cell in pv {
        let text = TicTacToe::cell_text(cell);
        game.parse_move(&text).unwrap_or_else(|e| panic!("{what}: the line {pv:?} is not legal at {text}: {e}"));
        game.make_move(cell);
    }
}

#[test]
fn searches_stopped_at_any_node_report_a_legal_line() {
    let searches: [(&str, Search); 3] =
        [("minimax", minimax::search), ("negamax", negamax::search), ("alpha-beta", alphabeta::search)];
    for position in ["xx./o../...", "x.o/.x./..o", "........."] {
        let start = TicTacToe::from_position(position).unwrap();
        for (name, search) in searches {
            let full = search(&start, &DefaultEval, 9, &mut StopAfter { units: 0, stop_at: usize::MAX });
            // Every stop point on the small trees; 40 spread over the empty board's.
            let nodes = full.stats.nodes as usize;
            let step = if nodes > 5000 { nodes / 40 } else { 1 };
            for stop_at in (1..=nodes).step_by(step) {
                let what = format!("{name} on {position} stopped at unit {stop_at}");
                let result = search(&start, &DefaultEval, 9, &mut StopAfter { units: 0, stop_at });
                assert_line_is_legal(&start, &result.pv, &what);
            }
        }
    }
}
