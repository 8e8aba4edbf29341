//! The UCT question: a random tic-tac-toe position searched by plain UCT as the game-tree lab
//! records it (`uct:N,plain`); after some iterations, which root move the next selection picks.

use rand::Rng;
use rand::rngs::StdRng;

use super::{Answer, ChildShown, Given, Made, Options, refuse_algorithm};
use crate::adversarial::mcts::{ChildStats, Proven};
use crate::adversarial::mcts_trace::{MctsEvent, MctsView};
use crate::adversarial::recording::{EngineAlgorithm, Replay, SearchSpec, record};
use crate::games::tictactoe::TicTacToe;
use crate::games::{Game, Position, Side};
use crate::scene::{Lab, Scene, Step};
use crate::trace::{Player, Progress};

/// Iterations recorded; the question stops somewhere among them.
const ITERATIONS: u64 = 60;
/// Random plies before the search, so positions differ.
const PLIES: std::ops::RangeInclusive<u32> = 2..=4;
const TRIES: usize = 50;
/// Selection scores closer than this tie.
const TIE: f64 = 1e-9;

pub(crate) fn generate(rng: &mut StdRng, options: &Options) -> Result<Made, String> {
    refuse_algorithm(options, &["uct"], "uct-next")?;
    if options.size.is_some() {
        return Err("uct-next questions take no size".to_string());
    }
    for _ in 0..TRIES {
        let game = random_position(rng);
        if let Some(made) = question(&game, rng) {
            return Ok(made);
        }
    }
    Err("no UCT question found: try another seed".to_string())
}

fn random_position(rng: &mut StdRng) -> TicTacToe {
    loop {
        let mut game = TicTacToe::new();
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(PLIES) {
            moves.clear();
            game.legal_moves(&mut moves);
            game.make_move(moves[rng.random_range(0..moves.len() as u32) as usize]);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// The question at an iteration where every move the root may select has been tried (so UCB1
/// decides, not the order of untried moves), if the search has one.
fn question(game: &TicTacToe, rng: &mut StdRng) -> Option<Made> {
    let spec = SearchSpec { algorithm: EngineAlgorithm::Uct, depth: 0, iterations: ITERATIONS };
    let mut recording = record(Position::TicTacToe(game.clone()), spec, &Progress::default())?;
    let Replay::Mcts(replay) = &mut recording.replay else { unreachable!("UCT records an MCTS replay") };
    let selects: Vec<(usize, u32)> = replay
        .player
        .trace()
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            MctsEvent::Select { path } if path.len() > 1 => Some((i, path[1])),
            _ => None,
        })
        .collect();
    let mut candidates = Vec::new();
    for &(event, chosen) in &selects {
        replay.player.seek(event);
        let view = replay.player.view();
        let stats = view.child_stats(0);
        let open: Vec<usize> = (0..stats.len()).filter(|&i| stats[i].proven != Some(Proven::Loss)).collect();
        if open.iter().any(|&i| stats[i].ucb.is_none()) {
            continue;
        }
        let best = open.iter().filter_map(|&i| stats[i].ucb).fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = open.iter().copied().filter(|&i| stats[i].ucb.expect("tried") >= best - TIE).collect();
        let chosen = (chosen - view.node(0).first_child) as usize;
        if tied.contains(&chosen) {
            candidates.push(Selection { event, chosen, tied, stats, root_visits: view.node(0).visits });
        }
    }
    if candidates.is_empty() {
        return None;
    }
    let selection = candidates.swap_remove(rng.random_range(0..candidates.len() as u32) as usize);
    replay.player.seek(selection.event);
    Some(ask(game, &replay.player, selection))
}

/// A selection at the root where UCB1 decides: its event, the move taken, the moves tied for the
/// highest score and every move's statistics then.
struct Selection {
    event: usize,
    chosen: usize,
    tied: Vec<usize>,
    stats: Vec<ChildStats>,
    root_visits: u32,
}

/// The question about `selection`, with `player` at its event.
fn ask(game: &TicTacToe, player: &Player<MctsView>, selection: Selection) -> Made {
    let Selection { event, chosen, tied, stats, root_visits } = selection;
    let iterations_done =
        player.trace().events[..event].iter().filter(|e| matches!(e, MctsEvent::Backpropagate { .. })).count();
    let exploration = player.view().config().exploration;
    let children: Vec<ChildShown> = player
        .view()
        .node(0)
        .children()
        .map(|c| {
            let node = player.view().node(c);
            ChildShown {
                mv: node.mv.clone(),
                visits: node.visits,
                reward: node.value_sum,
                proven_loss: node.proven == Some(Proven::Loss),
            }
        })
        .collect();
    let position = game.position_text();
    let rows: Vec<&str> = vec![&position[0..3], &position[3..6], &position[6..9]];
    let mover = if game.side_to_move() == Side::First { "X" } else { "O" };
    let shown: Vec<String> = children
        .iter()
        .map(|c| match c.proven_loss {
            true => format!("{}: proven lost for {mover}, never selected", c.mv),
            false => format!("{}: {} visits, total reward {}", c.mv, c.visits, c.reward),
        })
        .collect();
    let text = format!(
        "Plain UCT (UCB1 = mean + C * sqrt(ln N / n), C = {exploration:.3}; rewards 1 win, 0.5 draw, 0 loss) \
         searches tic-tac-toe {} with {mover} to move (rows top to bottom, columns a to c). After \
         {iterations_done} iterations the root has N = {root_visits} visits and its moves stand at: {}. Which \
         move does the next selection pick at the root?",
        rows.join("/"),
        shown.join("; ")
    );
    let scores: Vec<String> = stats
        .iter()
        .filter_map(|s| {
            s.ucb.map(|ucb| {
                format!("{} {:.3} + {exploration:.3} * sqrt(ln {root_visits} / {}) = {ucb:.3}", s.mv, s.mean, s.visits)
            })
        })
        .collect();
    let names: Vec<String> = tied.iter().map(|&i| stats[i].mv.clone()).collect();
    let verdict = match names.len() {
        1 => format!("The highest is {}'s.", names[0]),
        _ => format!(
            "{} tie for the highest, so any of them is right; searchlab picked {}.",
            names.join(", "),
            stats[chosen].mv
        ),
    };
    let scene = {
        let mut scene = Scene::new(Lab::GameTree);
        scene.position = Some(rows.join("/"));
        scene.spec = Some(Lab::GameTree.parse_spec(&format!("uct:{ITERATIONS},plain")).expect("a UCT spec"));
        scene.step = Step::Index(event);
        scene.to_toml()
    };
    Made {
        text,
        scene,
        answer: Answer::Moves(names),
        explanation: format!("UCB1 of each move: {}. {verdict}", scores.join("; ")),
        show_step: event + 1,
        given: Given::Uct { root_visits, exploration, children },
    }
}
