//! What the game-tree lesson says at each step: one sentence on the event just replayed, with the
//! numbers read from the replayed state. Values are for the first player (X, White, MAX), as on the
//! cards; a value alpha-beta only bounded reads `≥ v` or `≤ v`. UCT's choice shows its UCB sum.

use super::TreeLab;
use super::canvas::{ShownSearch, bound_text, full_width, value_text, window_for_first, window_text};
use super::recording::{GameKind, MctsReplay, Replay, TreeReplay};
use crate::adversarial::INF;
use crate::adversarial::mcts::{Proven, ucb};
use crate::adversarial::mcts_trace::{MctsEvent, MctsView, PlayoutEnd};
use crate::adversarial::tree::{CutoffKind, LeafReason, TreeEvent, TreeView};
use crate::games::{Score, Side};
use crate::trace::NO_NODE;

impl TreeLab {
    /// The sentence under the replay bar.
    pub(super) fn narration(&self) -> String {
        let Some(recording) = &self.recording else {
            return match (&self.error, self.settings.game) {
                (None, _) => "Nothing recorded yet.",
                (Some(_), GameKind::CustomTree) => "Nothing to replay for this tree.",
                (Some(_), _) => "Nothing to replay for this position.",
            }
            .to_string();
        };
        let kind = recording.position.kind();
        if recording.step() == 0 {
            return "Press Step > to begin.".to_string();
        }
        match &recording.replay {
            Replay::Tree(replay) => {
                let full_width = full_width(recording.spec.algorithm);
                replay.player.current_event().map_or_else(String::new, |e| tree_sentence(replay, kind, full_width, e))
            }
            Replay::Mcts(replay) => uct_narration(replay, kind).unwrap_or_default(),
        }
    }
}

/// The moves from the root to `node`, given each node's parent and the move into it.
fn moves_to(node: u32, parent: impl Fn(u32) -> u32, mv: impl Fn(u32) -> String) -> Vec<String> {
    let mut moves = Vec::new();
    let mut at = node;
    while at != NO_NODE && parent(at) != NO_NODE {
        moves.push(mv(at));
        at = parent(at);
    }
    moves.reverse();
    moves
}

/// A line of moves as the narration names a node: "the root", "a1 b3".
fn line_text(moves: Vec<String>) -> String {
    if moves.is_empty() { "the root".to_string() } else { moves.join(" ") }
}

/// A node of a minimax-family tree by the moves that lead to it.
fn line(view: &TreeView, node: u32) -> String {
    line_text(moves_to(node, |n| view.node(n).parent, |n| view.node(n).mv.to_string()))
}

fn full_window(alpha: Score, beta: Score) -> bool {
    alpha <= -INF && beta >= INF
}

/// `full_width`: minimax or negamax, whose values are never bounds.
pub fn tree_sentence(replay: &TreeReplay, kind: GameKind, full_width: bool, event: &TreeEvent) -> String {
    let view = replay.player.view();
    let shown = ShownSearch::new(replay, kind, full_width);
    let value = |node: u32| shown.value(node).unwrap_or_else(|| "none yet".to_string());
    let mover = |node: u32| kind.side_name(view.node(node).side);
    // "X (MAX)"; a typed-in tree's sides are named MAX and MIN already, so just "MAX". Negamax
    // has no MAX and MIN: every node maximises for its side to move.
    let negamax = view.algorithm == Some("negamax");
    let named = |node: u32| {
        let role = if view.node(node).side == Side::First { "MAX" } else { "MIN" };
        let name = mover(node);
        if name == role || negamax { name.to_string() } else { format!("{name} ({role})") }
    };
    let window = |node: u32| {
        let (alpha, beta) = view.window(node);
        let (alpha, beta) = window_for_first(alpha, beta, view.node(node).side, view.perspective);
        window_text(alpha, beta)
    };
    let first = kind.side_name(Side::First);
    match event {
        TreeEvent::Start { algorithm, .. } => {
            format!("{algorithm} begins at the root; every value shown is for {first}.")
        }
        TreeEvent::Iteration { depth } => {
            format!("Iterative deepening: a new iteration to depth {depth}; the table keeps what earlier ones learned.")
        }
        &TreeEvent::Enter { node, depth, alpha, beta, .. } => {
            let at = format!("Enter {} ({} to move; {})", line(view, node), named(node), depth_budget(depth));
            if full_window(alpha, beta) { format!("{at}.") } else { format!("{at} with the window {}.", window(node)) }
        }
        &TreeEvent::Leaf { node, reason, .. } => {
            format!("Leaf {} ({}): its value is {}.", line(view, node), leaf_reason(reason), value(node))
        }
        &TreeEvent::Window { node, best_child, alpha, beta, .. } => {
            let so_far = format!(
                "A move returned: at {} {} now prefers {}, so its value is {}",
                line(view, node),
                named(node),
                view.node(best_child).mv,
                value(node)
            );
            if full_window(alpha, beta) {
                format!("{so_far}.")
            } else {
                format!("{so_far}; the window is now {}.", window(node))
            }
        }
        TreeEvent::Cutoff { node, kind: cut, pruned } => {
            let (alpha, beta) = view.window(*node);
            let (alpha, beta) = window_for_first(alpha, beta, view.node(*node).side, view.perspective);
            let why = match cut {
                CutoffKind::Beta => {
                    format!(
                        "MAX already has {} here, at least β = {}, more than MIN above allows",
                        value(*node),
                        bound_text(beta)
                    )
                }
                CutoffKind::Alpha => {
                    format!(
                        "MIN already holds this to {}, at most α = {}, less than MAX above accepts",
                        value(*node),
                        bound_text(alpha)
                    )
                }
            };
            let skipped = if pruned.is_empty() { String::new() } else { format!(" ({})", pruned.join(", ")) };
            let count = pruned.len();
            format!(
                "{} cut at {}: {why}, so its {count} remaining {}{skipped} {}.",
                if *cut == CutoffKind::Beta { "β" } else { "α" },
                line(view, *node),
                crate::text::plural(count, "move", "moves"),
                crate::text::plural(count, "is skipped", "are skipped")
            )
        }
        &TreeEvent::Exit { node, best_child, .. } => {
            let best =
                if best_child == NO_NODE { String::new() } else { format!(", best move {}", view.node(best_child).mv) };
            format!("{} is done: its value is {}{best}.", line(view, node), value(node))
        }
        TreeEvent::Pv { moves, value } => format!(
            "The search is complete: the root's value is {} for {first}; best line {}.",
            value_text(kind, *value, replay.exhaustive),
            moves.join(" ")
        ),
    }
}

fn leaf_reason(reason: LeafReason) -> &'static str {
    match reason {
        LeafReason::Terminal => "the game is over",
        LeafReason::NoMoves => "no moves: a draw",
        LeafReason::Horizon => "the depth limit: the evaluation scores it",
        LeafReason::Repetition => "a repeated position: a draw",
        LeafReason::Table => "the table already holds its value",
    }
}

/// A UCT node by the moves that lead to it.
fn uct_line(view: &MctsView, node: u32) -> String {
    line_text(moves_to(node, |n| view.node(n).parent, |n| view.node(n).mv.clone()))
}

/// A mean reward of `mover`, from that side only: it is what UCB1 adds to at the choice of `mover`.
fn mean_text(kind: GameKind, mean: f64, mover: Side) -> String {
    format!("{mean:.2} for {}", kind.side_name(mover))
}

/// How deep the search may still go below a node: "depth budget 8", the limit, not the moves left
/// in the game (it may end sooner).
pub fn depth_budget(depth: impl std::fmt::Display) -> String {
    format!("depth budget {depth}")
}

/// How the selection at `parent` chose `child`: its UCB sum with the numbers, from the view as it
/// stood when selecting (the visits before this iteration's backup).
pub fn ucb_choice(view: &MctsView, kind: GameKind, parent: u32, child: u32) -> String {
    let (p, c) = (view.node(parent), view.node(child));
    let config = view.config();
    let mover = kind.side_name(c.mover);
    let Some((mean, score)) =
        c.mean().and_then(|mean| Some((mean, ucb(mean, c.visits, p.visits, f64::from(c.prior), config)?)))
    else {
        return format!("{mover} tries {}: it has no visits yet, and unvisited moves go first", c.mv);
    };
    let bias = if config.prior_weight > 0.0 {
        format!(" + bias {:.2}", config.prior_weight * f64::from(c.prior) / (f64::from(c.visits) + 1.0))
    } else {
        String::new()
    };
    format!(
        "{mover} picks {}, the highest UCB of {} moves: mean {} + {:.2}·√(ln {} / {}){bias} = {score:.2}",
        c.mv,
        p.child_count,
        mean_text(kind, mean, c.mover),
        config.exploration,
        p.visits,
        c.visits
    )
}

pub fn uct_sentence(view: &MctsView, kind: GameKind, event: &MctsEvent) -> String {
    match event {
        MctsEvent::Select { path } => match path.as_slice() {
            [] | [_] => "Select: the root is itself the leaf to grow.".to_string(),
            [root, child, ..] => {
                let leaf = *path.last().expect("two or more");
                let plies = path.len() - 1;
                format!(
                    "Select from the root ({} visits): {}. Down to the leaf {} ({plies} {}).",
                    view.node(*root).visits,
                    ucb_choice(view, kind, *root, *child),
                    uct_line(view, leaf),
                    crate::text::plural(plies, "ply", "plies")
                )
            }
        },
        MctsEvent::Expand { node, children, .. } => {
            let moves: Vec<&str> = children.iter().map(|c| c.mv.as_str()).collect();
            format!(
                "Expand {}: {} {} the tree unvisited ({}).",
                uct_line(view, *node),
                children.len(),
                crate::text::plural(children.len(), "child joins", "children join"),
                moves.join(", ")
            )
        }
        &MctsEvent::Playout { node, plies, reward, end } => {
            let mover = view.node(node).mover;
            let how = match end {
                PlayoutEnd::GameOver => format!("{plies} random moves to the end of the game"),
                PlayoutEnd::CutOff => format!("{plies} random moves, then the evaluation"),
                PlayoutEnd::Proven => "no playout: the node's result is proven".to_string(),
            };
            format!("Playout from {}: {how}; reward {}.", uct_line(view, node), mean_text(kind, reward, mover))
        }
        MctsEvent::Backpropagate { path, .. } => {
            let root = view.node(path[0]);
            let line = match path.get(1) {
                Some(&child) => {
                    let c = view.node(child);
                    let mean = c.mean().map_or("–".to_string(), |mean| mean_text(kind, mean, c.mover));
                    format!("; {} now has {} visits, mean {mean}", c.mv, c.visits)
                }
                None => String::new(),
            };
            let nodes =
                if path.len() == 1 { "the root gains".to_string() } else { format!("{} nodes gain", path.len()) };
            format!("Back up: {nodes} a visit and the reward; the root has {} visits{line}.", root.visits)
        }
        &MctsEvent::Solved { node, proven, plies } => {
            let mover = kind.side_name(view.node(node).mover);
            // A draw is a draw for both sides: it names no one.
            let result = match proven {
                Proven::Win => format!("a win for {mover}"),
                Proven::Draw => "a draw".to_string(),
                Proven::Loss => format!("a loss for {mover}"),
            };
            let plies = crate::text::counted(plies.into(), "ply", "plies");
            format!("Solved: {} is {result} in {plies}, whatever the playouts say.", uct_line(view, node))
        }
    }
}

/// The UCT replay's narration at its current step (for the tests and other pages).
pub fn uct_narration(replay: &MctsReplay, kind: GameKind) -> Option<String> {
    replay.player.current_event().map(|event| uct_sentence(replay.player.view(), kind, event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adversarial::bound::{BoundKind, Bounded};
    use crate::adversarial::tree::Perspective;
    use crate::app::tree_lab::canvas::ShownTree;
    use crate::app::tree_lab::canvas::bounded_text;
    use crate::app::tree_lab::recording::{EngineAlgorithm, Position, SearchSpec, record};
    use crate::trace::Progress;

    fn recorded(algorithm: EngineAlgorithm, position: &str, depth: u32, iterations: u64) -> super::super::Recording {
        let position = Position::parse(GameKind::TicTacToe, position).unwrap();
        record(position, SearchSpec { algorithm, depth, iterations }, &Progress::default()).unwrap()
    }

    /// Replays to just after the `nth` event that `pick` accepts, and returns that event.
    fn seek_after(replay: &mut TreeReplay, nth: usize, pick: impl Fn(&TreeEvent) -> bool) -> TreeEvent {
        let at =
            replay.player.trace().events.iter().enumerate().filter(|(_, e)| pick(e)).map(|(i, _)| i).nth(nth).unwrap();
        replay.player.seek(at + 1);
        replay.player.current_event().unwrap().clone()
    }

    fn tree(recording: &mut super::super::Recording) -> &mut TreeReplay {
        match &mut recording.replay {
            Replay::Tree(replay) => replay,
            Replay::Mcts(_) => panic!("a tree replay"),
        }
    }

    #[test]
    fn an_alpha_beta_cut_names_the_node_its_bound_and_the_window_it_beat() {
        let mut recording = recorded(EngineAlgorithm::AlphaBeta, "x.o/.x./..o", 9, 0);
        let replay = tree(&mut recording);
        let TreeEvent::Cutoff { node, kind, pruned } = seek_after(replay, 0, |e| matches!(e, TreeEvent::Cutoff { .. }))
        else {
            unreachable!()
        };
        let text = tree_sentence(replay, GameKind::TicTacToe, false, replay.player.current_event().unwrap());
        let view = replay.player.view();
        let n = view.node(node);
        // The node's value and window, read from the state and turned to X's view independently.
        let sign = if view.perspective == Some(Perspective::SideToMove) { n.side.sign() } else { 1 };
        let value = sign * n.value().unwrap();
        let (alpha, beta) = view.window(node);
        let (alpha, beta) = if sign < 0 { (-beta, -alpha) } else { (alpha, beta) };
        let (bound, limit) = match kind {
            CutoffKind::Beta => (BoundKind::AtLeast, format!("β = {}", bound_text(beta))),
            CutoffKind::Alpha => (BoundKind::AtMost, format!("α = {}", bound_text(alpha))),
        };
        assert!(text.contains(&line(view, node)), "{text}");
        let shown = bounded_text(GameKind::TicTacToe, Bounded { value, kind: bound }, false);
        assert!(text.contains(&shown), "{shown} missing from {text}");
        assert!(text.contains(&limit), "{limit} missing from {text}");
        assert!(pruned.iter().all(|mv| text.contains(mv.as_str())), "{text}");
    }

    #[test]
    fn a_barca_node_entered_with_a_window_reads_it_for_white() {
        let position = Position::parse(GameKind::Barca, GameKind::Barca.default_position()).unwrap();
        let spec = SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 2, iterations: 0 };
        let mut recording = record(position, spec, &Progress::default()).unwrap();
        let replay = tree(&mut recording);
        // A node where Black moves, entered with a window narrowed by its elder siblings.
        let narrowed = |e: &TreeEvent| matches!(e, TreeEvent::Enter { side: Side::Second, alpha, beta, .. } if !full_window(*alpha, *beta));
        let TreeEvent::Enter { node, alpha, beta, .. } = seek_after(replay, 0, narrowed) else { unreachable!() };
        let text = tree_sentence(replay, GameKind::Barca, false, replay.player.current_event().unwrap());
        // Alpha-beta holds the window for the side to move (Black here): White's is the negated, swapped pair.
        assert_eq!(replay.player.view().perspective, Some(Perspective::SideToMove));
        assert!(text.contains(&window_text(-beta, -alpha)), "{text}");
        assert!(text.contains(&line(replay.player.view(), node)), "{text}");
        assert!(text.contains(&format!("({} (MIN) to move", GameKind::Barca.side_name(Side::Second))), "{text}");
    }

    #[test]
    fn a_typed_in_tree_names_its_sides_once() {
        let position = Position::parse(GameKind::CustomTree, "((3,12,8),(2,4,6))").unwrap();
        let spec = SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 2, iterations: 0 };
        let mut recording = record(position, spec, &Progress::default()).unwrap();
        let replay = tree(&mut recording);
        seek_after(replay, 2, |e| matches!(e, TreeEvent::Enter { .. }));
        let text = tree_sentence(replay, GameKind::CustomTree, false, replay.player.current_event().unwrap());
        assert!(text.starts_with("Enter 1 1 (MAX to move; depth budget 0)"), "{text}");
        seek_after(replay, 0, |e| matches!(e, TreeEvent::Window { .. }));
        let text = tree_sentence(replay, GameKind::CustomTree, false, replay.player.current_event().unwrap());
        assert!(text.contains(" MIN now prefers "), "{text}");
    }

    #[test]
    fn the_current_cards_window_reads_for_x_like_the_narration() {
        let mut recording = recorded(EngineAlgorithm::AlphaBeta, "x.o/.x./..o", 9, 0);
        let replay = tree(&mut recording);
        // A node where O moves, entered with a narrowed window: alpha-beta keeps it for O.
        let narrowed = |e: &TreeEvent| matches!(e, TreeEvent::Enter { side: Side::Second, alpha, beta, .. } if !full_window(*alpha, *beta));
        let TreeEvent::Enter { node, alpha, beta, .. } = seek_after(replay, 0, narrowed) else { unreachable!() };
        let card = ShownSearch::new(replay, GameKind::TicTacToe, false).card(node);
        // X's window is O's negated and swapped.
        let for_x = format!("α {} β {}", bound_text(-beta), bound_text(-alpha));
        assert!(card.text.contains(&for_x), "{for_x} missing from the card {:?}", card.text);
        assert!(card.hover.contains(&window_text(-beta, -alpha)), "{}", card.hover);
    }

    #[test]
    fn a_minimax_exit_tells_the_nodes_exact_value_for_x() {
        let mut recording = recorded(EngineAlgorithm::Minimax, "x.o/.x./..o", 9, 0);
        let replay = tree(&mut recording);
        // The sixth node done: minimax holds its value for X already.
        let TreeEvent::Exit { node, value, best_child } =
            seek_after(replay, 5, |e| matches!(e, TreeEvent::Exit { .. }))
        else {
            unreachable!()
        };
        let text = tree_sentence(replay, GameKind::TicTacToe, true, replay.player.current_event().unwrap());
        let view = replay.player.view();
        assert_eq!(view.perspective, Some(Perspective::First), "minimax holds X's values");
        assert!(text.contains(&line(view, node)) && text.contains(view.node(best_child).mv.as_str()), "{text}");
        assert!(text.contains(&format!("value is {}", value_text(GameKind::TicTacToe, value, true))), "{text}");
        assert!(!text.contains('≥') && !text.contains('≤'), "minimax values are exact: {text}");
    }

    #[test]
    fn a_uct_selection_names_the_child_with_the_highest_ucb_and_its_sum() {
        let mut recording = recorded(EngineAlgorithm::Uct, "x.o/.x./..o", 0, 300);
        let Replay::Mcts(replay) = &mut recording.replay else { panic!("a UCT replay") };
        let selects: Vec<usize> = replay
            .player
            .trace()
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, MctsEvent::Select { .. }))
            .map(|(i, _)| i)
            .collect();
        for &at in selects.iter().skip(40).step_by(50) {
            replay.player.seek(at + 1);
            let text = uct_narration(replay, GameKind::TicTacToe).unwrap();
            let view = replay.player.view();
            let MctsEvent::Select { path } = replay.player.current_event().unwrap() else { unreachable!() };
            let (root, child) = (view.node(path[0]), view.node(path[1]));
            // The library's UCB1 on the replayed visits and means: the child chosen has the highest.
            let config = view.config();
            let score = |c: &crate::adversarial::mcts_trace::ViewNode| {
                c.mean().and_then(|mean| ucb(mean, c.visits, root.visits, f64::from(c.prior), config))
            };
            let best = root
                .children()
                .map(|id| view.node(id))
                .map(|c| score(c).unwrap_or(f64::INFINITY))
                .fold(f64::MIN, f64::max);
            assert_eq!(score(child).unwrap_or(f64::INFINITY), best, "step {at}");
            assert!(text.contains(&format!("picks {}", child.mv)), "{text}");
            let mean = child.mean().expect("a move chosen by its UCB was visited");
            let expected = config.exploration * ((root.visits as f64).ln() / child.visits as f64).sqrt() + mean;
            for number in
                [format!("{mean:.2}"), format!("ln {} / {}", root.visits, child.visits), format!("= {expected:.2}")]
            {
                assert!(text.contains(&number), "{number} missing from {text}");
            }
        }
    }

    /// A solved draw names no side: it is a draw for both (O must block at a3, then X fills c3).
    #[test]
    fn a_solved_draw_is_a_draw_for_no_one_in_particular() {
        let mut recording = recorded(EngineAlgorithm::Uct, "xox/xoo/.x.", 0, 200);
        let Replay::Mcts(replay) = &mut recording.replay else { panic!("a UCT replay") };
        let draws: Vec<usize> = (replay.player.trace().events.iter().enumerate())
            .filter(|(_, e)| matches!(e, MctsEvent::Solved { proven: crate::adversarial::mcts::Proven::Draw, .. }))
            .map(|(i, _)| i)
            .collect();
        assert!(!draws.is_empty(), "the root is proven a draw");
        for at in draws {
            replay.player.seek(at + 1);
            let text = uct_narration(replay, GameKind::TicTacToe).unwrap();
            assert!(text.contains("is a draw in ") && !text.contains("draw for"), "{text}");
        }
    }

    /// The depth is a budget, not the moves left (`xx./o../...` has 6 empty cells, searched to 8 plies);
    /// negamax has no MIN; one pruned move, one visit's backup and one ply read in the singular.
    #[test]
    fn the_narration_says_what_depth_means_whose_move_it_is_and_counts_in_words() {
        let mut recording = recorded(EngineAlgorithm::Negamax, "xx./o../...", 8, 0);
        let replay = tree(&mut recording);
        seek_after(replay, 0, |e| matches!(e, TreeEvent::Enter { side: Side::Second, .. }));
        let text = tree_sentence(replay, GameKind::TicTacToe, true, replay.player.current_event().unwrap());
        assert!(text.contains("(O to move; depth budget 8)"), "{text}");
        assert!(!text.contains("MIN") && !text.contains("plies left"), "{text}");

        let mut recording = recorded(EngineAlgorithm::AlphaBeta, "x.o/.x./..o", 9, 0);
        let replay = tree(&mut recording);
        let TreeEvent::Cutoff { pruned, .. } =
            seek_after(replay, 0, |e| matches!(e, TreeEvent::Cutoff { pruned, .. } if pruned.len() == 1))
        else {
            unreachable!()
        };
        let text = tree_sentence(replay, GameKind::TicTacToe, false, replay.player.current_event().unwrap());
        assert!(text.ends_with(&format!("so its 1 remaining move ({}) is skipped.", pruned[0])), "{text}");

        let mut recording = recorded(EngineAlgorithm::Uct, "xx./oo./...", 0, 10);
        let Replay::Mcts(replay) = &mut recording.replay else { panic!("a UCT replay") };
        replay.player.seek(usize::MAX);
        let sentences: Vec<String> = (0..replay.player.len())
            .filter_map(|step| {
                replay.player.seek(step + 1);
                uct_narration(replay, GameKind::TicTacToe)
            })
            .collect();
        assert!(sentences.iter().any(|t| t.contains("in 1 ply,")), "{sentences:?}");
        assert!(
            sentences.iter().all(|t| !t.contains("1 plies") && !t.contains("1 nodes") && !t.contains("1 children")),
            "{sentences:?}"
        );
    }
}
