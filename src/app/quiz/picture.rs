//! A question's instance drawn small enough to answer on: a grid section whose cells take a click,
//! a game tree whose leaves do, or the UCT root's moves as buttons.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2, pos2, vec2};

use crate::app::theme::{Palette, palette};
use crate::app::widgets::HIGHLIGHT;
use crate::games::custom_tree::Node;
use crate::grid::Grid;
use crate::quiz::{Answer, Given, Question};
use crate::scene::{MapSource, Scene};

/// What a question is drawn from.
pub(super) enum Picture {
    Grid {
        grid: Grid,
        start: u32,
        goal: u32,
    },
    Tree(Node),
    /// The UCT root's moves, shown as buttons.
    Moves,
}

/// A click on the picture.
pub(super) enum Clicked {
    Cell([u32; 2]),
    Leaf(usize),
    Move(String),
}

/// Text on a cell or node: the cells are light in both themes.
const ON_CELL: Color32 = Color32::from_gray(20);
/// The largest cell or node the picture draws, in points.
const MOST_CELL: f32 = 40.0;
const LEVEL: f32 = 64.0;

impl Picture {
    /// The picture of `question`'s scene.
    pub(super) fn of(question: &Question) -> Result<Picture, String> {
        if matches!(question.body.given, Given::Uct { .. }) {
            return Ok(Picture::Moves);
        }
        let scene = Scene::from_toml(&question.body.scene)?;
        if let Some(tree) = &scene.tree {
            return Node::parse(tree).map(Picture::Tree);
        }
        let Some(MapSource::Inline(map)) = &scene.map else { return Err("a quiz scene without its map".into()) };
        let grid = crate::grid::movingai::parse_map("the question's map", map).map_err(|e| e.to_string())?;
        let cell = |point: Option<[f64; 2]>| point.map_or(0, |[x, y]| grid.cell(x as u32, y as u32));
        let (start, goal) = (cell(scene.start), cell(scene.goal));
        Ok(Picture::Grid { grid, start, goal })
    }

    /// Draws the picture `height` tall, marking `picked` leaves and, once `shown`, the
    /// accepted cells or moves. Returns its rect and what was clicked.
    pub(super) fn ui(
        &self,
        ui: &mut egui::Ui,
        question: &Question,
        height: f32,
        picked: &[usize],
        shown: Option<&Answer>,
    ) -> (Rect, Option<Clicked>) {
        // Always `height` tall, so that a slide's cell measures its rows around it once.
        let (area, response) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::click());
        let clicked = match self {
            Picture::Grid { grid, start, goal } => grid_ui(ui, &response, question, grid, [*start, *goal], shown),
            Picture::Tree(root) => tree_ui(ui, &response, question, root, picked),
            Picture::Moves => moves_ui(&mut ui.new_child(egui::UiBuilder::new().max_rect(area)), question, shown),
        };
        (area, clicked)
    }
}

fn grid_ui(
    ui: &egui::Ui,
    response: &egui::Response,
    question: &Question,
    grid: &Grid,
    [start, goal]: [u32; 2],
    shown: Option<&Answer>,
) -> Option<Clicked> {
    let (w, h) = (grid.width() as f32, grid.height() as f32);
    let area = response.rect;
    let side = (area.width() / w).min(area.height() / h).min(MOST_CELL).floor().max(4.0);
    let rect = Rect::from_min_size(area.min, vec2(side * w, side * h));
    let colours = palette(ui.ctx());
    let painter = ui.painter_at(rect);
    let font = FontId::proportional(side * 0.5);
    let at = |x: u32, y: u32| Rect::from_min_size(rect.min + vec2(x as f32, y as f32) * side, Vec2::splat(side));
    let expanded: &[[u32; 2]] = match &question.body.given {
        Given::Expanded(cells) => cells,
        _ => &[],
    };
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let cell = grid.cell(x, y);
            let order = expanded.iter().position(|&c| c == [x, y]);
            let fill = match () {
                _ if !grid.is_cell_passable(cell) => colours.wall,
                _ if order.is_some() => colours.closed,
                _ => colours.unseen,
            };
            let square = at(x, y).shrink(0.5);
            painter.rect_filled(square, 1.0, fill);
            let text = match () {
                _ if cell == start => "S".to_string(),
                _ if cell == goal => "G".to_string(),
                _ if grid.is_cell_passable(cell) && grid.weight(cell) > 1 => grid.weight(cell).to_string(),
                _ => String::new(),
            };
            painter.text(square.center(), Align2::CENTER_CENTER, text, font.clone(), ON_CELL);
            if let Some(order) = order {
                let small = FontId::proportional(side * 0.3);
                painter.text(square.left_top() + vec2(2.0, 1.0), Align2::LEFT_TOP, order + 1, small, ON_CELL);
            }
        }
    }
    let ring = |[x, y]: [u32; 2], colour: Color32| {
        painter.rect_stroke(at(x, y).shrink(2.0), 2.0, Stroke::new(3.0, colour), egui::StrokeKind::Inside);
    };
    if let Given::Cell(cell) = question.body.given {
        ring(cell, HIGHLIGHT);
    }
    if let Some(Answer::Cells(cells)) = shown {
        cells.iter().for_each(|&cell| ring(cell, colours.path));
    }
    let pos = response.clicked().then(|| response.interact_pointer_pos()).flatten()?;
    let offset = (pos - rect.min) / side;
    let [x, y] = [offset.x.floor(), offset.y.floor()];
    (rect.contains(pos) && x < w && y < h).then_some(Clicked::Cell([x as u32, y as u32]))
}

/// A node where it is drawn: its path of child numbers, and a leaf's value and number.
struct Placed {
    centre: Pos2,
    path: Vec<u32>,
    leaf: Option<(i32, usize)>,
}

/// Each node's centre, leaves evenly spread along the bottom and each parent over its children;
/// with each leaf's number and the node's path.
struct Layout {
    nodes: Vec<Placed>,
    edges: Vec<(Pos2, Pos2)>,
    /// From one row of nodes to the next.
    level: f32,
}

fn place(
    node: &Node,
    path: &mut Vec<u32>,
    rect: Rect,
    leaf_width: f32,
    layout: &mut Layout,
    leaves: &mut usize,
) -> Pos2 {
    let y = rect.top() + layout.level * (0.4 + path.len() as f32);
    let (centre, leaf) = match node {
        Node::Leaf(value) => {
            *leaves += 1;
            (pos2(rect.left() + (*leaves as f32 - 0.5) * leaf_width, y), Some((*value, *leaves - 1)))
        }
        Node::Inner(children) => {
            let mut xs = Vec::new();
            for (i, child) in children.iter().enumerate() {
                path.push(i as u32 + 1);
                xs.push(place(child, path, rect, leaf_width, layout, leaves));
                path.pop();
            }
            let centre = pos2((xs[0].x + xs[xs.len() - 1].x) / 2.0, y);
            layout.edges.extend(xs.iter().map(|&child| (centre, child)));
            (centre, None)
        }
    };
    layout.nodes.push(Placed { centre, path: path.clone(), leaf });
    centre
}

fn tree_ui(
    ui: &egui::Ui,
    response: &egui::Response,
    question: &Question,
    root: &Node,
    picked: &[usize],
) -> Option<Clicked> {
    let rect = response.rect;
    let level = (rect.height() / (root.height() as f32 + 1.0)).min(LEVEL);
    let leaf_width = rect.width() / root.leaf_count() as f32;
    let radius = (leaf_width * 0.4).min(MOST_CELL / 2.0).min(level * 0.3);
    let mut layout = Layout { nodes: Vec::new(), edges: Vec::new(), level };
    place(root, &mut Vec::new(), rect, leaf_width, &mut layout, &mut 0);
    let colours = palette(ui.ctx());
    let painter = ui.painter_at(rect);
    for &(from, to) in &layout.edges {
        painter.line_segment([from, to], Stroke::new(1.5, colours.ink));
    }
    let asked = match &question.body.given {
        Given::Node(path) => Some(path),
        _ => None,
    };
    for Placed { centre, path, leaf } in &layout.nodes {
        node(&painter, &colours, *centre, radius, path, *leaf, asked == Some(path), picked);
    }
    // The rows' roles, at the left where no node is drawn.
    for level in 0..root.height() {
        let role = if level % 2 == 0 { "MAX" } else { "MIN" };
        let y = rect.top() + layout.level * (0.4 + level as f32);
        painter.text(pos2(rect.left() + 2.0, y), Align2::LEFT_CENTER, role, FontId::proportional(12.0), colours.ink);
    }
    let pos = response.clicked().then(|| response.interact_pointer_pos()).flatten()?;
    let near =
        |placed: &Placed| placed.leaf.filter(|_| placed.centre.distance(pos) <= radius * 1.5).map(|(_, number)| number);
    layout.nodes.iter().find_map(near).map(Clicked::Leaf)
}

/// One node: a leaf as a box with its value and number under it, an inner node as a circle with
/// its path ("2.1"); the node asked about in the highlight colour, picked leaves crossed.
#[allow(clippy::too_many_arguments)]
fn node(
    painter: &egui::Painter,
    colours: &Palette,
    centre: Pos2,
    radius: f32,
    path: &[u32],
    leaf: Option<(i32, usize)>,
    asked: bool,
    picked: &[usize],
) {
    let fill = if asked { HIGHLIGHT } else { colours.unseen };
    let text = ON_CELL;
    let stroke = Stroke::new(1.5, colours.ink);
    let font = FontId::proportional((radius * 0.9).max(10.0));
    match leaf {
        Some((value, number)) => {
            let square = Rect::from_center_size(centre, Vec2::splat(radius * 2.0));
            painter.rect(square, 2.0, fill, stroke, egui::StrokeKind::Inside);
            painter.text(centre, Align2::CENTER_CENTER, value, font, text);
            let below = centre + vec2(0.0, radius + 2.0);
            painter.text(below, Align2::CENTER_TOP, format!("#{number}"), FontId::proportional(11.0), colours.ink);
            if picked.contains(&number) {
                let cross = Stroke::new(3.0, colours.error);
                painter.line_segment([square.left_top(), square.right_bottom()], cross);
                painter.line_segment([square.right_top(), square.left_bottom()], cross);
            }
        }
        None => {
            painter.circle(centre, radius, fill, stroke);
            let name: Vec<String> = path.iter().map(u32::to_string).collect();
            let name = if name.is_empty() { "root".to_string() } else { name.join(".") };
            painter.text(centre, Align2::CENTER_CENTER, name, FontId::proportional(11.0), text);
        }
    }
}

/// The root's moves as buttons with their statistics; the accepted ones marked once shown.
fn moves_ui(ui: &mut egui::Ui, question: &Question, shown: Option<&Answer>) -> Option<Clicked> {
    let Given::Uct { children, .. } = &question.body.given else { unreachable!("a UCT picture") };
    let mut clicked = None;
    ui.horizontal_wrapped(|ui| {
        for child in children.iter().filter(|child| !child.proven_loss) {
            let right = matches!(shown, Some(Answer::Moves(moves)) if moves.contains(&child.mv));
            let text = format!("{}  ({} visits, reward {})", child.mv, child.visits, child.reward);
            let button = egui::Button::new(egui::RichText::new(&child.mv).size(18.0)).selected(right);
            if ui.add(button).on_hover_text(text).clicked() {
                clicked = Some(Clicked::Move(child.mv.clone()));
            }
        }
    });
    clicked
}
