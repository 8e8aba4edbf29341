//! The game-tree lab's simultaneous-move mode: SM-MCTS on rock-paper-scissors, Goofspiel or
//! RoPaSci 360, replayed event by event. A node shows its joint-action matrix (visits and mean
//! payoff per pair, each player's marginal strategy), the pair selection took highlighted, and on
//! a matrix game the exact Nash equilibrium beside the search's strategy.

use crate::adversarial::matrix_nash::{Equilibrium, solve_zero_sum};
use crate::adversarial::sm_mcts::{SelectionRule, SmMctsConfig, search};
use crate::adversarial::sm_mcts_trace::{PlayoutEnd, SmMctsEvent, SmMctsView};
use crate::app::replay_bar::{ReplayBar, ReplayCommand};
use crate::games::Side;
use crate::games::sim_games::{SimKind, SimPosition, SimVisitor};
use crate::games::simultaneous::SimultaneousGame;
use crate::trace::{Player, Recorder};

/// Most iterations recorded: the recording runs on the UI thread, and RoPaSci's 2,000 take a
/// tenth of a second in a release build.
pub const MAX_ITERATIONS: u64 = 2_000;
/// Actions a side shows in the matrix: RoPaSci offers 15 to over a hundred.
pub const SHOWN_ACTIONS: usize = 8;

/// The games offered, with the position each starts from.
pub const GAMES: [(&str, SimKind, &str); 3] = [
    ("Rock-paper-scissors", SimKind::Matrix, "0 -1 1; 1 0 -1; -1 1 0"),
    ("Goofspiel, 3 cards", SimKind::Goofspiel, "3"),
    ("RoPaSci 360", SimKind::RoPaSci, "- / 0 0 / 0"),
];

pub const PSEUDOCODE: [&str; 10] = [
    "repeat for each iteration:",
    "    node <- root",
    "    while node was visited: each player picks its own action",
    "        (UCB1 on its own means, or regret matching); follow the pair",
    "    expand node: list both players' actions",
    "    play random joint actions to the end (or the cut-off)",
    "    for each node on the path, with its pair (i, j):",
    "        n(i, j) += 1; add the payoffs; update each player's row/column",
    "final strategy: visit shares (regret matching: minus the exploration)",
    "    play the most visited action (UCT) or sample the strategy",
];

/// What the mode asks SM-MCTS to do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmSettings {
    pub game: usize,
    pub regret_matching: bool,
    pub iterations: u64,
}

impl Default for SmSettings {
    fn default() -> Self {
        Self { game: 0, regret_matching: true, iterations: 300 }
    }
}

pub struct SmMode {
    pub settings: SmSettings,
    player: Player<SmMctsView>,
    /// The matrix game's exact equilibrium, for rock-paper-scissors.
    equilibrium: Option<(Vec<Vec<f64>>, Equilibrium)>,
    position: SimPosition,
    bar: ReplayBar,
    /// The node whose matrix is shown: `None` follows the search.
    pinned: Option<u32>,
}

/// Records SM-MCTS on a position of any simultaneous game.
struct Record(SmMctsConfig);

impl SimVisitor for Record {
    type Output = Player<SmMctsView>;

    fn visit<G: SimultaneousGame>(self, game: &G) -> Self::Output {
        let mut recorder = Recorder::default();
        search(game, &self.0, &mut recorder);
        Player::new(recorder.finish(), SmMctsView::new(self.0.rule))
    }
}

impl SmMode {
    pub fn new(settings: SmSettings) -> Self {
        let (_, kind, text) = GAMES[settings.game.min(GAMES.len() - 1)];
        let position = kind.parse(text).expect("the offered positions parse");
        let rule = if settings.regret_matching {
            SelectionRule::RegretMatching { exploration: 0.05 }
        } else {
            SelectionRule::DecoupledUct { exploration: 0.5 }
        };
        let iterations = settings.iterations.clamp(1, MAX_ITERATIONS);
        let config = SmMctsConfig { rule, iterations, playout_cutoff: Some(4), seed: 1 };
        let mut player = position.visit(Record(config));
        player.seek(player.len());
        let equilibrium = match &position {
            SimPosition::Matrix(game) => solve_zero_sum(game.matrix()).ok().map(|eq| (game.matrix().to_vec(), eq)),
            _ => None,
        };
        let settings = SmSettings { iterations, ..settings };
        Self { settings, player, equilibrium, position, bar: ReplayBar::new(20.0), pinned: None }
    }

    pub fn view(&self) -> &SmMctsView {
        self.player.view()
    }

    pub fn replay(&mut self, command: ReplayCommand) {
        if let Some(step) = self.bar.apply(command, self.player.step(), self.player.len()) {
            self.player.seek(step);
        }
    }

    /// The node shown: the pinned one, else the last node where the current selection chose a
    /// pair (its matrix highlights it), else the root.
    pub fn shown_node(&self) -> u32 {
        let view = self.player.view();
        let chooser = view.path.get(view.pairs.len().saturating_sub(1)).copied();
        self.pinned.filter(|&id| (id as usize) < view.nodes().len()).or(chooser).unwrap_or(0)
    }

    /// The narration of the current event.
    pub fn narration(&self) -> String {
        let view = self.player.view();
        let Some(event) = self.player.current_event() else {
            return "Nothing searched yet: press Step > or Play.".to_string();
        };
        match event {
            SmMctsEvent::Select { path, pairs } => {
                let walked: Vec<String> =
                    path.iter().zip(pairs).map(|(&node, &pair)| pair_text(view, node, pair)).collect();
                if walked.is_empty() {
                    "Selection starts at the root, not yet visited.".to_string()
                } else {
                    format!("Each player picked its own action: {}.", walked.join(", then "))
                }
            }
            SmMctsEvent::Expand { node, actions } => format!(
                "Node {node} is visited for the first time: {} actions for {}, {} for {}, so {} joint actions.",
                actions[0].len(),
                self.side_name(Side::First),
                actions[1].len(),
                self.side_name(Side::Second),
                actions[0].len() * actions[1].len()
            ),
            SmMctsEvent::Playout { turns, payoffs, end, .. } => {
                let how = match end {
                    PlayoutEnd::GameOver => "the game's end",
                    PlayoutEnd::CutOff => "the cut-off, scored by the material lead",
                };
                format!(
                    "A playout of {turns} random joint actions reached {how}: payoff {:+.2} for {}.",
                    payoffs[0],
                    self.side_name(Side::First)
                )
            }
            SmMctsEvent::Backpropagate { path, payoffs, .. } => format!(
                "Iteration {} done: {:+.2} for {} added to the pair taken at {} on the path.",
                view.iterations,
                payoffs[0],
                self.side_name(Side::First),
                match path.len().saturating_sub(1) {
                    1 => "the one node".to_string(),
                    n => format!("each of {n} nodes"),
                }
            ),
        }
    }

    /// The pseudocode line of the current event.
    pub fn pseudocode_line(&self) -> Option<usize> {
        let event = self.player.current_event()?;
        Some(match event {
            SmMctsEvent::Select { .. } => 2,
            SmMctsEvent::Expand { .. } => 4,
            SmMctsEvent::Playout { .. } => 5,
            SmMctsEvent::Backpropagate { .. } => 7,
        })
    }

    pub fn advance(&mut self, ui: &egui::Ui) -> Option<usize> {
        self.bar.advance(ui, self.player.step(), self.player.len())
    }

    pub fn bar_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<ReplayCommand>) {
        self.bar.ui(ui, self.player.step(), self.player.len(), "event", commands);
    }

    /// Shows `node`'s matrix whatever the search does (`None`: follow the search).
    pub fn pin(&mut self, node: Option<u32>) {
        self.pinned = node;
    }

    /// The matrix game's payoffs and exact equilibrium.
    pub fn equilibrium(&self) -> Option<(&[Vec<f64>], &Equilibrium)> {
        self.equilibrium.as_ref().map(|(payoff, eq)| (payoff.as_slice(), eq))
    }

    /// The position at `node`, for RoPaSci 360: the start played forward along the pairs into it.
    pub fn position_text(&self, node: u32) -> Option<String> {
        let SimPosition::RoPaSci(start) = &self.position else { return None };
        let view = self.player.view();
        let mut pairs = Vec::new();
        let mut at = node;
        while let Some(pair) = view.node(at).pair_in {
            let parent = view.node(at).parent;
            pairs.push((parent, pair));
            at = parent;
        }
        let mut game = start.clone();
        for &(parent, (i, j)) in pairs.iter().rev() {
            let [rows, columns] = view.node(parent).actions.as_ref()?;
            let first = game.parse_action(Side::First, &rows[usize::from(i)]).ok()?;
            let second = game.parse_action(Side::Second, &columns[usize::from(j)]).ok()?;
            game.apply(first, second);
        }
        Some(game.position_text())
    }

    pub fn side_name(&self, side: Side) -> &'static str {
        GAMES[self.settings.game].1.side_name(side)
    }
}

/// The joint action `(i, j)` at `node`: "rock x paper".
fn pair_text(view: &SmMctsView, node: u32, (i, j): (u16, u16)) -> String {
    match &view.node(node).actions {
        Some([rows, columns]) => format!("{} x {}", rows[usize::from(i)], columns[usize::from(j)]),
        None => format!("pair ({i}, {j})"),
    }
}
