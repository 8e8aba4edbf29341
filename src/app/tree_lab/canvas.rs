//! The search tree on screen: only the nodes the student opened are laid out (a tidy top-down
//! tree), so a tree of half a million nodes costs no more per frame than the few hundred shown.

use std::collections::HashSet;

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use super::recording::{EngineAlgorithm, GameKind, MctsReplay, TreeReplay};
use crate::adversarial::INF;
use crate::adversarial::bound::{BoundKind, Bounded};
use crate::adversarial::mcts::{self, Proven};
use crate::adversarial::mcts_trace::MctsView;
use crate::adversarial::tree::{CutoffKind, LeafReason, NodeState, Perspective};
use crate::app::theme::{self, Palette};
use crate::games::{Score, Side, WIN, is_proven};
use crate::trace::NO_NODE;

/// A card holds three lines of [`CARD_TEXT`] ("a1 / X wins in ≤ 5 / from the table").
const CARD: Vec2 = Vec2::new(104.0, 56.0);
/// Card text, in points at zoom 1: read from the back of a room at 130% on 1280x720 down to zoom 0.7.
pub(super) const CARD_TEXT: f32 = 14.0;
/// Space between neighbouring cards.
const GAP: f32 = 8.0;
/// From one row of cards to the next: room for the edges to fan out.
const ROW: f32 = 78.0;

/// Whose card it is: its fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardFill {
    /// MAX (X, White) to move.
    Max,
    /// MIN (O, Black) to move.
    Min,
    /// Not a node: children left out, or moves pruned.
    Other,
}

/// What the card's outline says about the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outline {
    /// The node the search is working on.
    Current,
    /// On the path from the root down to it.
    Path,
    /// On the best line found so far.
    BestLine,
    Plain,
    Pruned,
}

impl Outline {
    fn stroke(self, palette: &Palette) -> Stroke {
        match self {
            Outline::Current => Stroke::new(3.0, palette.tree_current),
            Outline::Path => Stroke::new(2.0, palette.tree_path),
            Outline::BestLine => Stroke::new(2.5, palette.best_line),
            Outline::Plain => Stroke::new(1.0, palette.tree_edge),
            Outline::Pruned => Stroke::new(1.0, palette.pruned),
        }
    }

    /// On one of the lines that matter: the current node, the path to it, the best line.
    pub fn is_thick(self) -> bool {
        matches!(self, Outline::Current | Outline::Path | Outline::BestLine)
    }

    /// The edge up to the parent is drawn as the outline is, thick, for the lines that matter.
    fn edge(self, palette: &Palette) -> Stroke {
        if self.is_thick() { Stroke::new(2.5, self.stroke(palette).color) } else { Stroke::new(1.0, palette.tree_edge) }
    }
}

/// How one node (or bucket) looks.
pub struct Card {
    pub text: String,
    pub hover: String,
    pub fill: CardFill,
    pub outline: Outline,
    /// Size relative to a normal card (UCT: by visits).
    pub scale: f32,
}

/// A tree the canvas can show: the replay views of both search families.
pub trait ShownTree {
    fn root(&self) -> Option<u32>;
    /// Children in display order, most important first.
    fn children(&self, id: u32) -> Vec<u32>;
    fn card(&self, id: u32) -> Card;
    /// The moves a cutoff left unsearched, as a card.
    fn pruned(&self, _id: u32) -> Option<Card> {
        None
    }
    /// On the path the search is working on now (kept open while following it).
    fn on_current_path(&self, id: u32) -> bool;
    /// On the best line found so far (kept open too).
    fn on_best_line(&self, id: u32) -> bool;
}

/// Which nodes are open on screen.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Expansion {
    /// Open every node (for small trees); `toggled` then lists the closed ones.
    pub expand_all: bool,
    /// Nodes opened (or, with `expand_all`, closed) by a click.
    pub toggled: HashSet<u32>,
    /// Nodes whose "others" bucket was opened: all their children are shown.
    pub show_all: HashSet<u32>,
    /// Keep the nodes on the current search path and the best line open.
    pub follow: bool,
    /// Children shown before the rest go into an "others (n)" bucket.
    pub top_k: usize,
}

impl Expansion {
    fn is_open(&self, tree: &dyn ShownTree, id: u32) -> bool {
        if Some(id) == tree.root() || (self.follow && (tree.on_current_path(id) || tree.on_best_line(id))) {
            return true;
        }
        self.expand_all != self.toggled.contains(&id)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Node(u32),
    Others { parent: u32, count: usize },
    Pruned { parent: u32 },
}

pub struct Placed {
    pub item: Item,
    pub center: Pos2,
    /// Index of the parent in the placed list.
    pub parent: Option<usize>,
    pub card: Card,
}

/// Lays out the open part of the tree, tidily: each subtree is packed against its left neighbour
/// as close as their cards allow row by row (a short subtree may sit over a deeper neighbour's
/// lower rows), a parent over the middle of its children. So a long line with few siblings per
/// ply, the usual shown tree, is as wide as its widest rows, not as all its leaves side by side.
pub fn layout(tree: &dyn ShownTree, expansion: &Expansion, selected: Option<u32>) -> Vec<Placed> {
    let mut placed = Vec::new();
    let mut offsets = Vec::new();
    if let Some(root) = tree.root() {
        place(tree, expansion, selected, Item::Node(root), 0, None, &mut placed, &mut offsets);
    }
    // Offsets are from the parent: parents come before their children.
    for index in 0..placed.len() {
        placed[index].center.x = placed[index].parent.map_or(0.0, |parent| placed[parent].center.x) + offsets[index];
    }
    placed
}

/// A subtree's left and right card edges on each row, from its own row down, relative to its root.
type Contour = Vec<(f32, f32)>;

/// Places `item` and its shown subtree (each item's x offset from its parent into `offsets`);
/// returns the subtree's contour.
#[allow(clippy::too_many_arguments)]
fn place(
    tree: &dyn ShownTree,
    expansion: &Expansion,
    selected: Option<u32>,
    item: Item,
    row: usize,
    parent: Option<usize>,
    placed: &mut Vec<Placed>,
    offsets: &mut Vec<f32>,
) -> Contour {
    let card = match item {
        Item::Node(id) => tree.card(id),
        Item::Pruned { parent } => tree.pruned(parent).expect("placed only when there is a cutoff"),
        Item::Others { count, .. } => Card {
            text: format!("others ({count})"),
            hover: format!("{count} more children; click to show them all"),
            fill: CardFill::Other,
            outline: Outline::Plain,
            scale: 1.0,
        },
    };
    let half = CARD.x * card.scale / 2.0;
    let index = placed.len();
    placed.push(Placed { item, center: Pos2::new(0.0, row as f32 * ROW), parent, card });
    offsets.push(0.0);
    let mut children = Vec::new();
    if let Item::Node(id) = item
        && expansion.is_open(tree, id)
    {
        let all = tree.children(id);
        let shown: Vec<u32> = if expansion.show_all.contains(&id) || all.len() <= expansion.top_k + 1 {
            all.clone()
        } else {
            // The first k, any child the student or the search is looking at, and the best line.
            let keep = |i: usize, c: u32| {
                i < expansion.top_k || tree.on_current_path(c) || tree.on_best_line(c) || Some(c) == selected
            };
            all.iter().enumerate().filter(|&(i, &c)| keep(i, c)).map(|(_, &c)| c).collect()
        };
        children.extend(shown.iter().map(|&child| Item::Node(child)));
        if shown.len() < all.len() {
            children.push(Item::Others { parent: id, count: all.len() - shown.len() });
        }
        if tree.pruned(id).is_some() {
            children.push(Item::Pruned { parent: id });
        }
    }
    // Each child as close to the ones before as every row they share allows.
    let mut below: Contour = Vec::new();
    let mut child_offsets = Vec::new();
    for child in children {
        let first = placed.len();
        let contour = place(tree, expansion, selected, child, row + 1, Some(index), placed, offsets);
        let offset =
            below.iter().zip(&contour).map(|(&(_, right), &(left, _))| right - left + GAP).fold(f32::MIN, f32::max);
        let offset = if below.is_empty() { 0.0 } else { offset };
        child_offsets.push((first, offset));
        for (depth, &(left, right)) in contour.iter().enumerate() {
            match below.get_mut(depth) {
                Some(edges) => *edges = (edges.0.min(left + offset), edges.1.max(right + offset)),
                None => below.push((left + offset, right + offset)),
            }
        }
    }
    // The parent over the middle of its children.
    let middle = match (child_offsets.first(), child_offsets.last()) {
        (Some(&(_, first)), Some(&(_, last))) => (first + last) / 2.0,
        _ => 0.0,
    };
    for (child, offset) in child_offsets {
        offsets[child] = offset - middle;
    }
    std::iter::once((-half, half))
        .chain(below.into_iter().map(|(left, right)| (left - middle, right - middle)))
        .collect()
}

/// The rectangle a placed card covers.
pub fn card_rect(placed: &Placed) -> Rect {
    Rect::from_center_size(placed.center, CARD * placed.card.scale)
}

/// The rectangle the laid-out tree covers.
pub fn bounds(placed: &[Placed]) -> Rect {
    placed.iter().fold(Rect::NOTHING, |bounds, p| bounds.union(card_rect(p)))
}

/// Draws the laid-out tree into a scene `ui`, ringing the `selected` node; returns the item clicked.
pub fn paint(ui: &mut egui::Ui, placed: &[Placed], selected: Option<u32>) -> Option<Item> {
    let painter = ui.painter().clone();
    let palette = theme::palette(ui.ctx());
    for p in placed {
        if let Some(parent) = p.parent.map(|i| placed[i].center) {
            painter.line_segment(
                [parent + Vec2::new(0.0, CARD.y / 2.0), p.center - Vec2::new(0.0, CARD.y / 2.0 * p.card.scale)],
                p.card.outline.edge(&palette),
            );
        }
    }
    let mut clicked = None;
    for (index, p) in placed.iter().enumerate() {
        let rect = card_rect(p);
        let response = ui.interact(rect, ui.scope_id().with(("tree card", index)), Sense::click());
        let name = match p.item {
            Item::Node(id) if p.card.outline == Outline::Current => {
                format!("node {id}: {}, current", p.card.text.replace('\n', " "))
            }
            Item::Node(id) => format!("node {id}: {}", p.card.text.replace('\n', " ")),
            _ => p.card.text.replace('\n', " "),
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        // On a canvas one pans, not in a panel one scrolls: layout tests tell them apart by this.
        ui.ctx().accesskit_node_builder(response.id, |node| node.set_description("Tree card"));
        let fill = match p.card.fill {
            CardFill::Max => palette.max_fill,
            CardFill::Min => palette.min_fill,
            CardFill::Other => palette.other_fill,
        };
        painter.rect(rect, 5.0, fill, p.card.outline.stroke(&palette), egui::StrokeKind::Inside);
        if selected.is_some_and(|id| p.item == Item::Node(id)) {
            painter.rect_stroke(rect.expand(4.0), 7.0, Stroke::new(2.0, palette.selected), egui::StrokeKind::Outside);
        }
        // Never smaller than a normal card's: a small card's text is still read from the back.
        let font = egui::FontId::proportional(CARD_TEXT * p.card.scale.clamp(1.0, 1.3));
        painter.text(rect.center(), egui::Align2::CENTER_CENTER, &p.card.text, font, palette.card_text);
        if response.clicked() {
            clicked = Some(p.item);
        }
        response.on_hover_text(&p.card.hover);
    }
    clicked
}

/// What a tree's canvas shows, for its legend: the same palette, the same roles.
pub fn legend_entries(palette: &Palette) -> [(Color32, &'static str); 8] {
    [
        (palette.max_fill, "MAX to move"),
        (palette.min_fill, "MIN to move"),
        (palette.other_fill, "others, left unsearched"),
        (palette.tree_current, "current"),
        (palette.tree_path, "path to it"),
        (palette.best_line, "best line"),
        (palette.selected, "selected"),
        (palette.tree_edge, "edge"),
    ]
}

/// A card's outline: the node being worked on, the path down to it, the best line, or none of these.
fn outline(current: bool, path: bool, best_line: bool) -> Outline {
    if current {
        Outline::Current
    } else if path {
        Outline::Path
    } else if best_line {
        Outline::BestLine
    } else {
        Outline::Plain
    }
}

fn side_fill(side: Side) -> CardFill {
    match side {
        Side::First => CardFill::Max,
        Side::Second => CardFill::Min,
    }
}

/// A value for `First` (the MAX player), whatever the algorithm's own point of view.
/// A window (α, β) held in `perspective` at a node where `side` moves, as the first player's.
pub fn window_for_first(alpha: Score, beta: Score, side: Side, perspective: Option<Perspective>) -> (Score, Score) {
    match (perspective, side) {
        (Some(Perspective::SideToMove), Side::Second) => (-beta, -alpha),
        _ => (alpha, beta),
    }
}

pub use crate::adversarial::tree::value_for_first;

/// A value for `First` as text: game results by name, evaluations as numbers. `exact` says the
/// value is a game result (no horizon below, no bound), so 0 is a draw.
pub fn value_text(kind: GameKind, value: Score, exact: bool) -> String {
    if is_proven(value) {
        let winner = kind.side_name(if value > 0 { Side::First } else { Side::Second });
        format!("{winner} wins in {}", WIN - value.abs())
    } else if value == 0 {
        // A typed-in tree's 0 is a leaf value, not a game result.
        if exact && kind != GameKind::CustomTree { "draw" } else { "0" }.to_string()
    } else {
        format!("{value:+}")
    }
}

/// A value for `First` that may be a bound: "≥ +3", "≤ draw", or "X wins in ≤ 5" when a bound
/// already proves the win.
pub fn bounded_text(kind: GameKind, bounded: Bounded, exact: bool) -> String {
    let Bounded { value, kind: bound } = bounded;
    let proves_win = is_proven(value)
        && match bound {
            BoundKind::AtLeast => value > 0,
            BoundKind::AtMost => value < 0,
            BoundKind::Exact => false,
        };
    if proves_win {
        let winner = kind.side_name(if value > 0 { Side::First } else { Side::Second });
        format!("{winner} wins in ≤ {}", WIN - value.abs())
    } else {
        format!("{}{}", bounded.prefix(), value_text(kind, value, exact))
    }
}

pub fn bound_text(bound: Score) -> String {
    match bound {
        b if b >= INF => "+∞".to_string(),
        b if b <= -INF => "−∞".to_string(),
        b if is_proven(b) => format!("{}win", if b > 0 { "+" } else { "−" }),
        b => b.to_string(),
    }
}

/// An α-β window, already turned to the first player's point of view.
pub fn window_text(alpha: Score, beta: Score) -> String {
    format!("α = {}, β = {}", bound_text(alpha), bound_text(beta))
}

pub fn cutoff_name(kind: CutoffKind) -> &'static str {
    match kind {
        CutoffKind::Alpha => "α cut",
        CutoffKind::Beta => "β cut",
    }
}

fn leaf_name(reason: LeafReason) -> &'static str {
    match reason {
        LeafReason::Terminal => "game over",
        LeafReason::NoMoves => "no moves",
        LeafReason::Horizon => "horizon",
        LeafReason::Repetition => "repetition",
        LeafReason::Table => "from the table",
    }
}

/// Minimax and negamax search every move with no window (α, β): their values are never bounds
/// and a window line would only say α = −∞, β = +∞.
pub fn full_width(algorithm: EngineAlgorithm) -> bool {
    matches!(algorithm, EngineAlgorithm::Minimax | EngineAlgorithm::Negamax)
}

/// A minimax-family replay as the canvas shows it, at its current step.
pub struct ShownSearch<'a> {
    pub replay: &'a TreeReplay,
    pub kind: GameKind,
    path: HashSet<u32>,
    pv: HashSet<u32>,
    /// Values are game results: show 0 as a draw where the value is exact.
    exact_values: bool,
    /// See [`full_width`]: no window is shown.
    full_width: bool,
}

impl<'a> ShownSearch<'a> {
    pub fn new(replay: &'a TreeReplay, kind: GameKind, full_width: bool) -> Self {
        let view = replay.player.view();
        let path = view.current_path().into_iter().collect();
        let mut pv = HashSet::new();
        let mut at = replay.root().unwrap_or(NO_NODE);
        while at != NO_NODE {
            pv.insert(at);
            at = view.node(at).best_child;
        }
        Self { replay, kind, path, pv, exact_values: replay.exhaustive && full_width, full_width }
    }

    /// The node's value for `First`, with whether it is exact or only bounds the true value.
    pub fn bounded(&self, id: u32) -> Option<Bounded> {
        let windows = &self.replay.windows;
        Bounded::of_node(self.replay.player.view(), id, &|n| windows.get(n as usize).copied().unwrap_or((-INF, INF)))
    }

    /// The node's value for `First` as text ("≤ 0" for a bound), if it has one yet.
    pub fn value(&self, id: u32) -> Option<String> {
        let exact = self.exact_values || Some(id) == self.replay.root() && self.replay.exhaustive;
        self.bounded(id).map(|b| bounded_text(self.kind, b, exact))
    }
}

impl ShownTree for ShownSearch<'_> {
    fn root(&self) -> Option<u32> {
        self.replay.root()
    }

    fn children(&self, id: u32) -> Vec<u32> {
        self.replay.player.view().children(id)
    }

    fn card(&self, id: u32) -> Card {
        let view = self.replay.player.view();
        let node = view.node(id);
        let mv = if node.parent == NO_NODE { "root".to_string() } else { node.mv.to_string() };
        let value = self.value(id).unwrap_or_else(|| "?".to_string());
        let note = match node.state {
            // A typed-in tree's leaves end nothing but the tree.
            NodeState::Leaf(LeafReason::Terminal) if self.kind == GameKind::CustomTree => "leaf",
            NodeState::Leaf(reason) => leaf_name(reason),
            NodeState::Open => "searching",
            NodeState::Done => "",
        };
        let (alpha, beta) = view.window(id);
        let has_window = alpha > -INF || beta < INF;
        // Like the values, the window reads for the first player whatever form the search keeps it in.
        let (alpha, beta) = window_for_first(alpha, beta, node.side, view.perspective);
        // The current node shows its window: that is where alpha-beta decides what to skip.
        let note = if view.current == Some(id) && has_window {
            format!("α {} β {}", bound_text(alpha), bound_text(beta))
        } else {
            note.to_string()
        };
        let text = if note.is_empty() { format!("{mv}\n{value}") } else { format!("{mv}\n{value}\n{note}") };
        // Negamax has no MAX and MIN: every node maximises for its side to move.
        let role = match (view.algorithm, node.side) {
            (Some("negamax"), _) => String::new(),
            (_, Side::First) => " (MAX)".to_string(),
            (_, Side::Second) => " (MIN)".to_string(),
        };
        let first = self.kind.side_name(Side::First);
        let mut hover = format!(
            "{mv}: {} to move{role}, {}\nvalue for {first}: {value}",
            self.kind.side_name(node.side),
            super::narration::depth_budget(node.depth),
        );
        if !self.full_width {
            hover += &format!("\nwindow for {first}: {}", window_text(alpha, beta));
        }
        hover += match self.bounded(id).map(|b| b.kind) {
            Some(BoundKind::AtLeast) => "\n≥: a bound, the true value is at least this",
            Some(BoundKind::AtMost) => "\n≤: a bound, the true value is at most this",
            _ => "",
        };
        if let Some((kind, pruned)) = view.cutoff(id) {
            let moves = crate::text::plural(pruned.len(), "move", "moves");
            hover += &format!("\n{}: {} {moves} pruned ({})", cutoff_name(*kind), pruned.len(), pruned.join(" "));
        }
        let outline = outline(view.current == Some(id), self.path.contains(&id), self.pv.contains(&id));
        Card { text, hover, fill: side_fill(node.side), outline, scale: 1.0 }
    }

    fn pruned(&self, id: u32) -> Option<Card> {
        // A cutoff at a node's last move prunes nothing: no card.
        let (kind, moves) = self.replay.player.view().cutoff(id).filter(|(_, moves)| !moves.is_empty())?;
        let reason = match kind {
            CutoffKind::Beta => "MAX already has a move at least β: MIN above will never allow this node",
            CutoffKind::Alpha => "MIN already has a reply at most α: MAX above will never choose this node",
        };
        Some(Card {
            text: format!("{} pruned\n{}", moves.len(), cutoff_name(*kind)),
            hover: format!("Never searched: {}\n{reason}", moves.join(" ")),
            fill: CardFill::Other,
            outline: Outline::Pruned,
            scale: 0.9,
        })
    }

    fn on_current_path(&self, id: u32) -> bool {
        self.path.contains(&id)
    }

    fn on_best_line(&self, id: u32) -> bool {
        self.pv.contains(&id)
    }
}

/// A UCT node's numbers from one point of view: the player who chose the move into it (at the
/// root, the player choosing there), whose mean UCB1 maximises.
pub struct UctNumbers {
    pub chooser: Side,
    pub visits: u32,
    /// `None` before the first visit.
    pub mean: Option<f64>,
    /// UCB1 now, for a move not yet proven (`None` at the root and while unvisited).
    pub ucb: Option<f64>,
    pub proven: Option<Proven>,
}

impl UctNumbers {
    pub fn of(view: &MctsView, id: u32) -> Self {
        let node = view.node(id);
        // The root's statistics are for the player who moved into it, the one not choosing there.
        let (chooser, mean, proven) = if id == 0 {
            (node.mover.other(), node.mean().map(|m| 1.0 - m), node.proven.map(Proven::flipped))
        } else {
            (node.mover, node.mean(), node.proven)
        };
        let ucb = (id != 0 && proven.is_none())
            .then(|| {
                let mean = mcts::rave_mean(mean?, node.visits, &node.amaf, view.config());
                mcts::ucb(mean, node.visits, view.node(node.parent).visits, f64::from(node.prior), view.config())
            })
            .flatten();
        Self { chooser, visits: node.visits, mean, ucb, proven }
    }

    /// "0.45", or "–" while unvisited.
    pub fn mean_text(&self, decimals: usize) -> String {
        self.mean.map_or("–".to_string(), |m| format!("{m:.decimals$}"))
    }

    /// "ucb 0.94" (the word as `ucb` gives it: a card's "ucb", a list's "UCB"), "proven loss", or
    /// "ucb –" while unvisited (it is tried first).
    pub fn selection_text(&self, ucb: &str, decimals: usize) -> String {
        match self.proven {
            Some(Proven::Win) => "proven win".to_string(),
            Some(Proven::Loss) => "proven loss".to_string(),
            Some(Proven::Draw) => "proven draw".to_string(),
            None => self.ucb.map_or(format!("{ucb} –"), |u| format!("{ucb} {u:.decimals$}")),
        }
    }
}

/// A UCT replay as the canvas shows it: children in the order the engine would play them, the
/// best line its line, card size by visits.
pub struct ShownUct<'a> {
    pub replay: &'a MctsReplay,
    pub kind: GameKind,
    path: HashSet<u32>,
    pv: HashSet<u32>,
}

impl<'a> ShownUct<'a> {
    pub fn new(replay: &'a MctsReplay, kind: GameKind) -> Self {
        let view = replay.player.view();
        let path = view.path.iter().copied().collect();
        let mut pv = HashSet::from([0]);
        let mut at = 0;
        while let Some(best) = view.best_child(at).filter(|&c| view.node(c).visits > 0) {
            pv.insert(best);
            at = best;
        }
        Self { replay, kind, path, pv }
    }
}

impl ShownTree for ShownUct<'_> {
    fn root(&self) -> Option<u32> {
        Some(0)
    }

    fn children(&self, id: u32) -> Vec<u32> {
        self.replay.player.view().children_to_play(id)
    }

    fn card(&self, id: u32) -> Card {
        let view = self.replay.player.view();
        let node = view.node(id);
        let numbers = UctNumbers::of(view, id);
        let mv = if id == 0 { "root".to_string() } else { node.mv.clone() };
        let side = self.kind.side_name(numbers.chooser);
        let mut text = format!("{mv} n {}\n{side} μ {}", node.visits, numbers.mean_text(2));
        let rave = view.config().rave.filter(|_| id != 0);
        if rave.is_some() {
            text += &format!("\namaf {:.2} n {}", node.amaf.mean(), node.amaf.visits);
        }
        if id != 0 || numbers.proven.is_some() {
            text += &format!("\n{}", numbers.selection_text("ucb", 2));
        }
        let chose = if id == 0 { "choosing here" } else { "who chose this move" };
        let mut hover = format!(
            "{mv}: {} {}; for {side}, {chose}:",
            node.visits,
            crate::text::plural(node.visits as usize, "visit", "visits")
        );
        hover += &match numbers.mean {
            Some(mean) => format!("\nmean reward {mean:.3}"),
            None => "\nno mean yet (not visited)".to_string(),
        };
        if let Some(k) = rave {
            hover += &format!(
                "\nAMAF mean {:.3} over {} playouts that made this move later;\nβ = √(K / (3n + K)) = {:.3} (K = {k})",
                node.amaf.mean(),
                node.amaf.visits,
                mcts::rave_beta(k, node.visits)
            );
        }
        let mean_used = if rave.is_some() { "(1 - β)·mean + β·AMAF mean" } else { "its mean" };
        hover += &match (numbers.proven, numbers.ucb) {
            (Some(_), _) => format!("\n{}: no more playouts from it", numbers.selection_text("ucb", 3)),
            (None, Some(ucb)) => format!("\nUCB {ucb:.3} = {mean_used} + C·√(ln N / n)"),
            (None, None) if id != 0 => "\nUCB –: an untried move is tried before any other".to_string(),
            (None, None) => String::new(),
        };
        // The selection path is what UCT is working on now.
        let outline = outline(self.path.contains(&id), false, self.pv.contains(&id));
        // Coloured like the other trees, by the side to move there (blue: MAX/X/White).
        let fill = side_fill(node.mover.other());
        // From a normal card up, never down: the least visited card's text is as readable as any.
        let root_visits = view.node(0).visits.max(1) as f32;
        let scale = 1.0 + 0.35 * (node.visits as f32 / root_visits).sqrt();
        Card { text, hover, fill, outline, scale }
    }

    fn on_current_path(&self, id: u32) -> bool {
        self.path.contains(&id)
    }

    fn on_best_line(&self, id: u32) -> bool {
        self.pv.contains(&id)
    }
}
