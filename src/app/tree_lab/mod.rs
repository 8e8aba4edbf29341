//! The game-tree lesson: minimax, negamax, alpha-beta, iterative deepening with a table, and UCT
//! on tic-tac-toe or Barca, recorded on a worker thread and replayed node by node.

mod board;
mod canvas;
mod cell;
mod narration;
mod panels;
mod pseudocode;
pub use crate::adversarial::recording;
mod scene;
mod simultaneous;
mod sm_matrix;

use egui_plot::{Corner, Legend, Line, Plot, PlotPoints};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use self::canvas::{
    Expansion, Item, ShownSearch, ShownUct, UctNumbers, value_for_first, value_text, window_for_first, window_text,
};
pub use self::recording::{EngineAlgorithm, Recording, Replay, SearchSpec};
use super::Lesson;
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::widgets;
use super::worker::{Job, Request, Response};
use crate::adversarial::mcts_trace::{MctsView, PlayoutEnd, PlayoutShown};
use crate::adversarial::tree::NodeState;
use crate::games::Side;
pub use crate::games::{GameKind, Position};
use crate::scene::Scene;
use crate::text::plural;
use crate::trace::NO_NODE;

/// The player values are for: "X (MAX)", "White (MAX)", or "MAX" on a typed-in tree.
fn max_player(game: GameKind) -> String {
    match game {
        GameKind::CustomTree => "MAX".to_string(),
        _ => format!("{} (MAX)", game.side_name(Side::First)),
    }
}

/// "About this page" for `game`: its players by name, and only the searches it offers.
fn about(game: GameKind) -> String {
    let (max, min) = match game {
        GameKind::CustomTree => ("MAX".to_string(), "MIN".to_string()),
        _ => (max_player(game), format!("{} (MIN)", game.side_name(Side::Second))),
    };
    let uct = if game.algorithms().contains(&EngineAlgorithm::Uct) {
        " UCT does not search to a depth: it grows the tree where random playouts look promising; \
         its cards give instead each move's visits, then its mean reward and UCB for the player making it."
    } else {
        ""
    };
    format!(
        "A game tree has a node for every position and an edge for every move. Minimax gives each \
         node the value of its best move for the player to move there: {max} takes the largest child \
         value, {min} the smallest. Negamax is the same search with every value for the side to move. \
         Alpha-beta keeps a window (α, β) of values that can still matter and skips the rest of a \
         node's moves once one move proves the opponent will never let the game get there: that is a \
         cutoff. Values on the cards are for {max}, whatever the algorithm holds internally.{uct}"
    )
}

/// A line of a UCT node's list of moves, for the player choosing there (the list's heading names
/// them): "c3: 171 visits, mean 0.547, UCB 0.934".
fn move_line(view: &MctsView, child: u32) -> String {
    let numbers = UctNumbers::of(view, child);
    format!(
        "{}: {} {}, mean {}, {}",
        view.node(child).mv,
        numbers.visits,
        plural(numbers.visits as usize, "visit", "visits"),
        numbers.mean_text(3),
        numbers.selection_text("UCB", 3)
    )
}

/// The last playout, its reward from the side whose numbers the node's card shows.
fn playout_text(kind: GameKind, view: &MctsView, playout: PlayoutShown) -> String {
    let node = view.node(playout.node);
    let from = if playout.node == 0 { "the root".to_string() } else { node.mv.clone() };
    let chooser = UctNumbers::of(view, playout.node).chooser;
    // The engine's reward is for the player who moved into the node.
    let reward = if chooser == node.mover { playout.reward } else { 1.0 - playout.reward };
    let reward = format!("reward {reward:.2} for {}", kind.side_name(chooser));
    match playout.end {
        PlayoutEnd::Proven => format!("Last iteration: {from} is proven, no playout; {reward}"),
        _ => format!(
            "Last playout: {} {} from {from}, {reward}",
            playout.plies,
            plural(playout.plies as usize, "ply", "plies")
        ),
    }
}

/// Nodes in the whole tic-tac-toe game tree, the empty board included.
pub const TIC_TAC_TOE_TREE: u64 = 549_946;

/// Following the search, the page zooms out no further than 12-point card text, readable from the
/// back of a room on a 1280x720 projector at 130%: it pans instead ("Fit" shows everything).
const PAGE_MIN_ZOOM: f32 = 12.0 / canvas::CARD_TEXT;
/// A lecture cell's cards may be a little smaller: its canvas is a fraction of the screen.
const CELL_MIN_ZOOM: f32 = 0.7;

/// How far the canvas zooms out and in.
const ZOOM_RANGE: std::ops::RangeInclusive<f32> = 0.01..=1.5;

/// What part of the tree a canvas at `outer` showing `scene_rect` has in view, when it is not all
/// of it at a readable size (`min_zoom`): the words and the button that shows the rest.
fn view_note(
    outer: egui::Rect,
    scene_rect: egui::Rect,
    placed: &[canvas::Placed],
    min_zoom: f32,
) -> Option<(String, &'static str, TreeCommand)> {
    // The scene is fitted inside the canvas, centred: what shows is the canvas's shape around it.
    let zoom = (outer.size() / scene_rect.size()).min_elem().clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
    let visible = egui::Rect::from_center_size(scene_rect.center(), outer.size() / zoom);
    // A first frame may lay out in a placeholder of unbounded size: nothing to say yet.
    if !outer.is_finite() || !visible.is_finite() {
        return None;
    }
    let cards: Vec<egui::Rect> = placed.iter().map(canvas::card_rect).collect();
    let in_view = cards.iter().filter(|card| visible.contains_rect(**card)).count();
    if in_view < cards.len() {
        let sides: Vec<&str> = [
            ("left", cards.iter().any(|card| card.left() < visible.left())),
            ("right", cards.iter().any(|card| card.right() > visible.right())),
            ("above", cards.iter().any(|card| card.top() < visible.top())),
            ("below", cards.iter().any(|card| card.bottom() > visible.bottom())),
        ]
        .into_iter()
        .filter_map(|(side, hidden)| hidden.then_some(side))
        .collect();
        let text = format!("{in_view} of {} cards in view, more {}", cards.len(), sides.join(", "));
        Some((text, "Show the whole tree", TreeCommand::Fit))
    } else if zoom < min_zoom - 0.001 {
        Some(("The whole tree, in small cards".to_string(), "Readable size", TreeCommand::ReadableView))
    } else {
        None
    }
}

/// The height of the row under the canvas that says what part of the tree is in view: a button's.
fn note_row(ui: &egui::Ui) -> f32 {
    let button = ui.text_style_height(&egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.y;
    button.max(ui.spacing().interact_size.y) + ui.spacing().item_spacing.y
}

/// Everything the page remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TreeSettings {
    pub game: GameKind,
    /// The position text typed for each game, by the game's id (a game never typed in is at its
    /// default position).
    #[serde(deserialize_with = "positions_by_game")]
    pub positions: BTreeMap<String, String>,
    pub spec: SearchSpec,
    pub top_k: usize,
    pub follow: bool,
    pub speed: f32,
}

impl Default for TreeSettings {
    fn default() -> Self {
        Self {
            game: GameKind::TicTacToe,
            positions: BTreeMap::new(),
            spec: SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 9, iterations: 1000 },
            top_k: 6,
            follow: true,
            speed: 20.0,
        }
    }
}

/// Saved positions by game id; settings saved before games had ids list them in the order of
/// their games then: tic-tac-toe, Barca, a typed-in tree.
fn positions_by_game<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<BTreeMap<String, String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Saved {
        ById(BTreeMap<String, String>),
        InOldOrder(Vec<String>),
    }
    Ok(match Saved::deserialize(deserializer)? {
        Saved::ById(positions) => positions,
        Saved::InOldOrder(texts) => [GameKind::TicTacToe, GameKind::Barca, GameKind::CustomTree]
            .into_iter()
            .zip(texts)
            .map(|(kind, text)| (kind.id().to_string(), text))
            .collect(),
    })
}

impl TreeSettings {
    fn position_text(&self) -> &str {
        self.positions.get(self.game.id()).map_or(self.game.default_position(), String::as_str)
    }

    /// The text typed for the game shown, to edit.
    fn position_text_mut(&mut self) -> &mut String {
        let game = self.game;
        self.positions.entry(game.id().to_string()).or_insert_with(|| game.default_position().to_string())
    }

    /// What the page calls the typed text: "Tree" for a typed-in tree, else "Position".
    fn position_name(&self) -> &'static str {
        if self.game == GameKind::CustomTree { "Tree" } else { "Position" }
    }

    /// The typed position or tree, or why it cannot be searched ("Tree: ...").
    fn typed_position(&self) -> Result<Position, String> {
        let position = Position::parse(self.game, self.position_text()).and_then(Position::searchable);
        position.map_err(|e| format!("{}: {e}", self.position_name()))
    }
}

/// Every action of the page; buttons, keys, the tree and tests all go through [`TreeLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum TreeCommand {
    /// Record the search of the position typed, on the worker.
    Run,
    Cancel,
    Replay(ReplayCommand),
    SetGame(GameKind),
    SetPosition(String),
    SetAlgorithm(EngineAlgorithm),
    SetDepth(u32),
    SetIterations(u64),
    /// Minimax over the whole tic-tac-toe tree from the empty board.
    FullTicTacToeTree,
    /// Show a node's position and details.
    Select(u32),
    /// Open or close a node.
    Toggle(u32),
    /// Open a node's "others" bucket.
    ShowAll(u32),
    ExpandAll(bool),
    SetFollow(bool),
    SetTopK(usize),
    /// Fit the shown tree into the canvas.
    Fit,
    /// Back from "Fit" to the followed view, its cards readable.
    ReadableView,
}

pub struct TreeLab {
    settings: TreeSettings,
    recording: Option<Recording>,
    job: Option<Job>,
    bar: ReplayBar,
    expansion: Expansion,
    selected: Option<u32>,
    scene_rect: egui::Rect,
    /// The student panned or zoomed: stop moving the view every frame (until a step while following).
    view_moved: bool,
    /// "Fit" was pressed: show the whole tree (until a step while following).
    fit_all: bool,
    error: Option<String>,
    repaint: Option<egui::Context>,
    /// A scene's step, taken by the next recording.
    scene_step: Option<crate::scene::Step>,
    /// Drawn in a lecture cell: a small canvas, where the view never zooms out below readable.
    in_cell: bool,
    /// No step since the recording came in: a cell shows the top of the tree, root first.
    just_opened: bool,
    /// SM-MCTS on a simultaneous-move game instead of the turn-based searches.
    sm: Option<simultaneous::SmMode>,
}

impl Default for TreeLab {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeLab {
    /// Opens on the default position and starts recording its search.
    pub fn new() -> Self {
        Self::with_settings(TreeSettings::default())
    }

    /// The lab as it was left: `saved` is what `Lesson::save` returned in an earlier run.
    pub fn from_saved(saved: Option<&str>) -> Self {
        Self::with_settings(crate::app::settings_from(saved))
    }

    pub fn with_settings(settings: TreeSettings) -> Self {
        let mut lab = Self {
            bar: ReplayBar::new(settings.speed),
            expansion: Expansion { follow: settings.follow, top_k: settings.top_k, ..Expansion::default() },
            settings,
            recording: None,
            job: None,
            selected: None,
            scene_rect: egui::Rect::ZERO,
            view_moved: false,
            fit_all: false,
            error: None,
            repaint: None,
            scene_step: None,
            in_cell: false,
            just_opened: false,
            sm: None,
        };
        lab.apply(TreeCommand::Run);
        lab
    }

    pub fn settings(&self) -> &TreeSettings {
        &self.settings
    }

    pub fn recording(&self) -> Option<&Recording> {
        self.recording.as_ref()
    }

    /// The part of the tree's plane the canvas shows (the canvas may letterbox more around it).
    pub fn scene_rect(&self) -> egui::Rect {
        self.scene_rect
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn selected(&self) -> Option<u32> {
        self.selected
    }

    /// The game on screen: the recording's, else (before the first one is in) the one chosen.
    fn shown_game(&self) -> GameKind {
        self.recording.as_ref().map_or(self.settings.game, |recording| recording.position.kind())
    }

    pub fn apply(&mut self, command: TreeCommand) {
        match command {
            TreeCommand::Run => self.spawn(),
            TreeCommand::Cancel => self.job = None,
            TreeCommand::Replay(command) => {
                let Some(recording) = &mut self.recording else { return };
                self.just_opened = false;
                if let Some(step) = self.bar.apply(command, recording.step(), recording.step_count()) {
                    recording.seek(step);
                    // Following: every step brings the current node back into view.
                    if self.expansion.follow {
                        (self.view_moved, self.fit_all) = (false, false);
                    }
                }
                self.settings.speed = self.bar.speed;
            }
            TreeCommand::SetGame(game) => {
                self.settings.game = game;
                self.settings.spec.depth = game.default_depth();
                if !game.algorithms().contains(&self.settings.spec.algorithm) {
                    self.settings.spec.algorithm = EngineAlgorithm::AlphaBeta;
                }
                self.spawn();
            }
            TreeCommand::SetPosition(text) => {
                *self.settings.position_text_mut() = text;
                self.spawn();
            }
            TreeCommand::SetAlgorithm(algorithm) => {
                if !self.settings.game.algorithms().contains(&algorithm) {
                    self.error = Some(format!("{} is not offered on {}", algorithm.label(), self.settings.game.name()));
                    return;
                }
                self.settings.spec.algorithm = algorithm;
                self.settings.spec.depth = self.settings.spec.depth.min(self.settings.game.max_depth(algorithm));
                self.spawn();
            }
            TreeCommand::SetDepth(depth) => {
                self.settings.spec.depth = depth.clamp(1, self.settings.game.max_depth(self.settings.spec.algorithm));
                self.spawn();
            }
            TreeCommand::SetIterations(iterations) => {
                self.settings.spec.iterations = iterations.clamp(1, 100_000);
                self.spawn();
            }
            TreeCommand::FullTicTacToeTree => {
                self.settings.game = GameKind::TicTacToe;
                *self.settings.position_text_mut() = ".........".to_string();
                self.settings.spec.algorithm = EngineAlgorithm::Minimax;
                self.settings.spec.depth = 9;
                self.spawn();
            }
            TreeCommand::Select(id) => self.selected = Some(id),
            TreeCommand::Toggle(id) => {
                if !self.expansion.toggled.remove(&id) {
                    self.expansion.toggled.insert(id);
                }
            }
            TreeCommand::ShowAll(id) => {
                self.expansion.show_all.insert(id);
            }
            TreeCommand::ExpandAll(all) => {
                self.expansion.expand_all = all;
                self.expansion.toggled.clear();
                self.expansion.show_all.clear();
            }
            TreeCommand::SetFollow(follow) => {
                self.expansion.follow = follow;
                self.settings.follow = follow;
                (self.view_moved, self.fit_all) = (false, false);
            }
            TreeCommand::SetTopK(k) => {
                self.expansion.top_k = k.clamp(1, 50);
                self.settings.top_k = self.expansion.top_k;
            }
            TreeCommand::Fit => (self.view_moved, self.fit_all) = (false, true),
            TreeCommand::ReadableView => (self.view_moved, self.fit_all) = (false, false),
        }
    }

    /// Starts recording the search of the typed position; any job still running is dropped.
    fn spawn(&mut self) {
        let position = match self.settings.typed_position() {
            Ok(position) => position,
            Err(e) => {
                self.refuse(e);
                return;
            }
        };
        self.error = None;
        self.settings.spec = crate::scene::recorded_spec(&position, self.settings.spec);
        let spec = self.settings.spec;
        let limit = if spec.algorithm == EngineAlgorithm::Uct {
            format!("{} iterations", spec.iterations)
        } else {
            format!("depth {}", spec.depth)
        };
        let label = format!("Recording {} ({limit}) on {}", spec.algorithm.label(), position.kind().name());
        self.job = Some(Job::start(label, self.repaint.clone(), Request::Tree(position, spec)));
    }

    /// Shows `message` alone: the tree and numbers of the previous search would read as the answer
    /// for the position refused. The typed text stays in its field.
    fn refuse(&mut self, message: String) {
        self.error = Some(message);
        self.recording = None;
        self.job = None;
        self.selected = None;
        self.bar.playing = false;
    }

    /// Installs the worker's result once it is in.
    fn poll_job(&mut self) {
        let running = self.job.is_some();
        let answer = Job::finish(&mut self.job, &mut self.error);
        if running && self.job.is_none() && answer.is_none() {
            // The worker failed on the new search: its error alone.
            self.recording = None;
            return;
        }
        let Some(Response::Tree(Some(recording))) = answer else { return };
        let (top_k, follow) = (self.expansion.top_k, self.expansion.follow);
        self.expansion = Expansion { top_k, follow, ..Expansion::default() };
        self.selected = None;
        self.bar.playing = false;
        self.view_moved = false;
        self.just_opened = true;
        self.recording = Some(recording);
        if let Some(step) = self.scene_step.take() {
            self.open_scene_step(step);
        }
    }

    fn tree_toolbar(&self, ui: &mut egui::Ui, commands: &mut Vec<TreeCommand>) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Expand all").clicked() {
                commands.push(TreeCommand::ExpandAll(true));
            }
            if ui.button("Collapse all").clicked() {
                commands.push(TreeCommand::ExpandAll(false));
            }
            let mut follow = self.expansion.follow;
            if ui.checkbox(&mut follow, "Follow the search").changed() {
                commands.push(TreeCommand::SetFollow(follow));
            }
            let mut k = self.expansion.top_k;
            let slider = egui::Slider::new(&mut k, 1..=50).text("children shown");
            if crate::app::replay_bar::slider_in_row(ui, slider, "children shown").changed() {
                commands.push(TreeCommand::SetTopK(k));
            }
            if ui.button("Fit").clicked() {
                commands.push(TreeCommand::Fit);
            }
        });
        widgets::legend(ui, &canvas::legend_entries(&crate::app::theme::palette(ui.ctx())));
        let uct = self.recording.as_ref().is_some_and(|recording| matches!(recording.replay, Replay::Mcts(_)));
        ui.weak(if uct {
            "Cards: the move and its visits n, then its mean μ and UCB for the player making it.".to_string()
        } else {
            format!(
                "Values on the cards are for {}; ≤ and ≥ mark values alpha-beta only bounded.",
                max_player(self.shown_game())
            )
        });
    }

    /// The part of the tree to show in a canvas of `size`: all of it while its cards stay readable,
    /// otherwise a window that holds the `focus` node, as much of its path up to the root as fits,
    /// and as many of the moves that matter as readable cards allow: on the page the focus's
    /// children (at the end that is the root's moves, the answer a class waits for), in a lecture
    /// cell (`in_cell`) the root's moves, the path centred. "Fit" shows everything, however small.
    fn followed_view(placed: &[canvas::Placed], focus: Option<u32>, size: egui::Vec2, in_cell: bool) -> egui::Rect {
        const MARGIN: f32 = 24.0;
        let min_zoom = if in_cell { CELL_MIN_ZOOM } else { PAGE_MIN_ZOOM };
        let fit = |rect: egui::Rect| (size / rect.size()).min_elem();
        let bounds = canvas::bounds(placed).expand(MARGIN);
        if fit(bounds) >= min_zoom {
            return bounds;
        }
        let focus_index = placed.iter().position(|p| focus.is_some_and(|id| p.item == Item::Node(id))).unwrap_or(0);
        let focus_card = canvas::card_rect(&placed[focus_index]).expand(MARGIN);
        let mut path = egui::Rect::NOTHING;
        let mut at = Some(focus_index);
        while let Some(index) = at {
            path = path.union(canvas::card_rect(&placed[index]));
            at = placed[index].parent;
        }
        let path = path.expand(MARGIN);
        let around = if in_cell { 0 } else { focus_index };
        let wanted = placed
            .iter()
            .filter(|p| p.parent == Some(around))
            .fold(path, |rect, p| rect.union(canvas::card_rect(p).expand(MARGIN)));
        // A cell shows as much of the tree as readable cards allow; the page zooms to what it wants.
        let zoom = if in_cell { min_zoom } else { fit(wanted).clamp(min_zoom, 1.0) };
        let window = size / zoom;
        // What does not fit gives way to the path: the window from the top of the tree when the
        // path fits under it, else ending at the focus.
        let vertical = if wanted.height() <= window.y { wanted } else { path };
        let horizontal = if wanted.width() <= window.x { wanted } else { path };
        let top = bounds.top().max(vertical.bottom() - window.y);
        // Centred on what is wanted and kept over the tree (no empty margin beside it while there
        // is tree to show), the root in view when the path runs far to one side of it. On the
        // page the focus wins over the root.
        let root = canvas::card_rect(&placed[0]).expand(MARGIN);
        let left = (horizontal.center().x - window.x / 2.0)
            .min(bounds.right() - window.x)
            .max(bounds.left())
            .max(root.right() - window.x)
            .min(root.left());
        let left = if in_cell { left } else { left.min(focus_card.left()).max(focus_card.right() - window.x) };
        egui::Rect::from_min_size(egui::pos2(left, top), window)
    }

    fn tree(&mut self, ui: &mut egui::Ui, commands: &mut Vec<TreeCommand>) {
        let Some(recording) = &self.recording else { return };
        let kind = recording.position.kind();
        let full_width = canvas::full_width(recording.spec.algorithm);
        let (placed, focus) = match &recording.replay {
            Replay::Tree(replay) => {
                let shown = ShownSearch::new(replay, kind, full_width);
                (canvas::layout(&shown, &self.expansion, self.selected), replay.player.view().current)
            }
            Replay::Mcts(replay) => {
                let shown = ShownUct::new(replay, kind);
                (canvas::layout(&shown, &self.expansion, self.selected), replay.player.view().path.last().copied())
            }
        };
        if placed.is_empty() {
            ui.weak("The tree is empty at this step: press Step > or Play.");
        }
        if !self.view_moved && !placed.is_empty() {
            self.scene_rect = if self.fit_all {
                canvas::bounds(&placed).expand(24.0)
            } else {
                // A cell opens on the root and its moves: the answer the slide asks for.
                let focus = focus.filter(|_| self.expansion.follow && !(self.in_cell && self.just_opened));
                // The scene is fitted inside the canvas's frame, above the row of its note.
                let size = ui.available_size()
                    - egui::vec2(0.0, note_row(ui))
                    - egui::Frame::canvas(ui.style()).total_margin().sum();
                Self::followed_view(&placed, focus, size, self.in_cell)
            };
        }
        // The canvas leaves a row below it for the note on what is in view: over the tree, the note
        // would hide the very cards a slide talks about.
        let frame = egui::Frame::canvas(ui.style());
        let row = note_row(ui);
        let canvas_size = egui::vec2(ui.available_width(), (ui.available_height() - row).max(0.0));
        let mut scene_area = egui::Rect::NOTHING;
        let canvas = ui
            .allocate_ui(canvas_size, |ui| {
                frame.show(ui, |ui| {
                    let scene = egui::Scene::new().zoom_range(ZOOM_RANGE);
                    // In a lecture the wheel scrolls the page, not the tree under the pointer (the
                    // scene would pan it too): drag pans, ctrl+wheel zooms.
                    let page_scroll =
                        self.in_cell.then(|| ui.ctx().input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta)));
                    let response = scene.show(ui, &mut self.scene_rect, |ui| canvas::paint(ui, &placed, self.selected));
                    if let Some(delta) = page_scroll {
                        ui.ctx().input_mut(|i| i.smooth_scroll_delta = delta);
                    }
                    if response.response.changed() {
                        self.view_moved = true;
                    }
                    match response.inner {
                        Some(Item::Node(id)) => commands.extend([TreeCommand::Select(id), TreeCommand::Toggle(id)]),
                        Some(Item::Others { parent, .. }) => commands.push(TreeCommand::ShowAll(parent)),
                        Some(Item::Pruned { .. }) | None => {}
                    }
                    // The scene took the whole frame (its response's rect is the tree's, in the scene).
                    scene_area = ui.min_rect();
                })
            })
            .inner;
        let min_zoom = if self.in_cell { CELL_MIN_ZOOM } else { PAGE_MIN_ZOOM };
        ui.horizontal(|ui| match view_note(scene_area, self.scene_rect, &placed, min_zoom) {
            Some((text, button, command)) => {
                if ui.button(button).on_hover_text("Drag to pan, ctrl+wheel to zoom").clicked() {
                    commands.push(command);
                }
                ui.add(egui::Label::new(text).truncate());
            }
            None if !placed.is_empty() => {
                let all = if placed.len() == 1 {
                    "The one card is in view".to_string()
                } else {
                    format!("All {} cards in view", placed.len())
                };
                ui.add(egui::Label::new(egui::RichText::new(all).weak()).truncate());
            }
            None => {}
        });
        canvas.response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Game tree canvas"));
        canvas.response.on_hover_text(
            "Click a node to open or close it and show its position. Drag to pan, ctrl+wheel to zoom. \
             The path being searched and the best line stay open while following the search.",
        );
    }
}

/// The button that searches the typed text the page calls `name`: "Search this tree".
fn search_button(name: &str) -> String {
    format!("Search this {}", name.to_lowercase())
}

impl Lesson for TreeLab {
    fn scene(&self) -> Option<Scene> {
        Some(TreeLab::scene(self))
    }

    fn copy_refused(&self) -> Option<String> {
        TreeLab::copy_refused(self)
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        TreeLab::set_scene(self, scene)
    }

    fn save(&self) -> Option<String> {
        serde_json::to_string(&self.settings).ok()
    }

    fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    fn logic(&mut self, ctx: &egui::Context) {
        self.repaint.get_or_insert_with(|| ctx.clone());
        self.poll_job();
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        if let Some(recording) = &self.recording
            && let Some(step) = self.bar.advance(ui, recording.step(), recording.step_count())
        {
            commands.push(TreeCommand::Replay(ReplayCommand::Seek(step)));
            ui.ctx().request_repaint();
        }
        if sm_matrix::mode_switch(ui, &mut self.sm, "Game-tree search: minimax, alpha-beta and UCT") {
            return;
        }
        // Folded on a short screen (a projector at 130%): the tree needs the height.
        widgets::intro(ui, "tree-lab-intro", &about(self.shown_game()));
        let narration = widgets::Narration::new(ui);
        let sentence = self.narration();
        let pinned = |ui: &mut egui::Ui| narration.in_side_panel(ui, &sentence);
        widgets::side_panel_pinned(ui, "tree-lab-side", 0.34, pinned, |ui| {
            egui::CollapsingHeader::new("Search")
                .default_open(true)
                .show(ui, |ui| self.search_controls(ui, &mut commands));
            if self.recording.is_none() {
                return;
            }
            ui.separator();
            ui.strong("Statistics");
            self.stats(ui);
            ui.separator();
            egui::CollapsingHeader::new("Selected node").default_open(true).show(ui, |ui| self.selected_node(ui));
            ui.separator();
            ui.strong("Pseudocode (the line of the current event is highlighted)");
            self.pseudocode(ui);
            self.plot(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            // Measured first: a row too wide for large text widens the panel's ui, not the tree.
            let width = ui.available_width();
            if let Some(recording) = &self.recording {
                self.bar.ui(ui, recording.step(), recording.step_count(), "event", &mut replay);
                narration.under_bar(ui, &sentence, 2);
            }
            self.progress(ui, &mut commands);
            if let Some(error) = &self.error {
                widgets::error(ui, error);
            }
            if self.recording.is_some() {
                self.tree_toolbar(ui, &mut commands);
            }
            let room = egui::Rect::from_min_size(ui.cursor().min, egui::vec2(width, ui.available_height()));
            ui.scope_builder(egui::UiBuilder::new().max_rect(room), |ui| self.tree(ui, &mut commands));
        });
        commands.extend(replay.into_iter().map(TreeCommand::Replay));
        for command in commands {
            self.apply(command);
        }
    }
}
