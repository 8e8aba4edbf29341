//! Game-tree questions: a small random tree typed in as nested leaves (MAX at the root), searched
//! by minimax or alpha-beta (left to right, fail-soft) as the game-tree lab records it; the
//! answer is read from that trace.

use rand::Rng;
use rand::rngs::StdRng;

use super::{Answer, Given, Kind, Made, Options, Relation, refuse_algorithm};
use crate::adversarial::INF;
use crate::adversarial::recording::{EngineAlgorithm, Replay, SearchSpec, record};
use crate::adversarial::tree::TreeEvent;
use crate::games::custom_tree::Node;
use crate::games::{GameKind, Position, Score, Side};
use crate::scene::{Lab, Scene, Step};
use crate::trace::{NO_NODE, Progress};

/// Default depths (drawn) and the allowed ones.
const DEPTHS: std::ops::RangeInclusive<u32> = 2..=4;
/// Leaf values, small enough to add up on paper.
const LEAF_VALUES: std::ops::RangeInclusive<i32> = 0..=20;
const TRIES: usize = 20;

/// A tree search as recorded: its events, and each entered node's path, side and window.
struct Searched {
    events: Vec<TreeEvent>,
    /// Child numbers from 1 down from the root, by node id.
    paths: Vec<Vec<u32>>,
    sides: Vec<Side>,
    /// The window each node was entered with, for the side to move there.
    windows: Vec<(Score, Score)>,
    parents: Vec<u32>,
}

impl Searched {
    fn new(tree: &Node, algorithm: EngineAlgorithm) -> Searched {
        let position = Position::parse(GameKind::CustomTree, &tree.to_string()).expect("a generated tree");
        let spec = SearchSpec { algorithm, depth: tree.height() as u32, iterations: 0 };
        let recording = record(position, spec, &Progress::default()).expect("nothing cancels it");
        let Replay::Tree(replay) = recording.replay else { unreachable!("a tree search records a tree replay") };
        let events = replay.player.trace().events.clone();
        let mut searched =
            Searched { events, paths: Vec::new(), sides: Vec::new(), windows: Vec::new(), parents: Vec::new() };
        for event in &searched.events {
            if let TreeEvent::Enter { node, parent, mv, side, alpha, beta, .. } = event {
                debug_assert_eq!(*node as usize, searched.paths.len(), "nodes are numbered as entered");
                let mut path = if *parent == NO_NODE { Vec::new() } else { searched.paths[*parent as usize].clone() };
                if *parent != NO_NODE {
                    path.push(mv.parse().expect("a child number"));
                }
                searched.paths.push(path);
                searched.sides.push(*side);
                searched.windows.push((*alpha, *beta));
                searched.parents.push(*parent);
            }
        }
        searched
    }

    fn id_of(&self, path: &[u32]) -> Option<u32> {
        self.paths.iter().position(|p| p == path).map(|id| id as u32)
    }

    /// The node's returned value for the side to move there, and the index of its event.
    fn exit(&self, id: u32) -> (Score, usize) {
        self.events
            .iter()
            .enumerate()
            .find_map(|(i, e)| match e {
                TreeEvent::Exit { node, value, .. } if *node == id => Some((*value, i)),
                TreeEvent::Leaf { node, value, .. } if *node == id => Some((*value, i)),
                _ => None,
            })
            .expect("every entered node returns")
    }

    fn children(&self, id: u32) -> Vec<u32> {
        (0..self.parents.len() as u32).filter(|&c| self.parents[c as usize] == id).collect()
    }
}

pub(crate) fn generate(kind: Kind, rng: &mut StdRng, options: &Options) -> Result<Made, String> {
    let algorithm = match kind {
        Kind::NodeValue => "minimax",
        _ => "alphabeta",
    };
    refuse_algorithm(options, &[algorithm], kind.id())?;
    if let Some(depth) = options.size.filter(|depth| !DEPTHS.contains(depth)) {
        return Err(format!(
            "tree questions take a size (depth) from {} to {}, not {depth}",
            DEPTHS.start(),
            DEPTHS.end()
        ));
    }
    let depth = options.size.unwrap_or_else(|| rng.random_range(2..=3));
    Ok(match kind {
        Kind::NodeValue => node_value(random_tree(rng, depth, widest(depth)), rng),
        Kind::PrunedLeaves => {
            // A tree where alpha-beta prunes something makes the better question.
            let mut tree = random_tree(rng, depth, widest(depth));
            for _ in 0..TRIES {
                if !pruned(&tree, &Searched::new(&tree, EngineAlgorithm::AlphaBeta)).is_empty() {
                    break;
                }
                tree = random_tree(rng, depth, widest(depth));
            }
            pruned_leaves(tree)
        }
        _ => node_bound(random_tree(rng, depth, widest(depth)), rng),
    })
}

/// Children per node at most: 3, or 2 in a tree of depth 4, to stay on one page.
fn widest(depth: u32) -> u32 {
    if depth >= 4 { 2 } else { 3 }
}

/// A uniform-depth tree, 2 to `most` children a node.
fn random_tree(rng: &mut StdRng, depth: u32, most: u32) -> Node {
    if depth == 0 {
        return Node::Leaf(rng.random_range(LEAF_VALUES));
    }
    let count = rng.random_range(2..=most);
    Node::Inner((0..count).map(|_| random_tree(rng, depth - 1, most)).collect())
}

/// The node's name as a class reads it.
fn label(path: &[u32]) -> String {
    match path {
        [] => "the root".to_string(),
        _ => {
            let numbers: Vec<String> = path.iter().map(u32::to_string).collect();
            format!("node {}", numbers.join("."))
        }
    }
}

fn role(path: &[u32]) -> &'static str {
    if path.len().is_multiple_of(2) { "MAX" } else { "MIN" }
}

/// The game-tree lab's scene of `tree` searched by `spec`.
fn scene(tree: &Node, spec: &str) -> String {
    let mut scene = Scene::new(Lab::GameTree);
    scene.tree = Some(tree.to_string());
    scene.spec = Some(Lab::GameTree.parse_spec(&format!("{spec}:{}", tree.height())).expect("a tree search spec"));
    scene.step = Step::Index(0);
    scene.to_toml()
}

fn setting(tree: &Node, search: &str) -> String {
    format!(
        "{search} searches the tree {tree}: MAX moves at the root, MIN below it, alternating; the numbers are \
         the leaves' values for MAX. Node 2.1 is the first child of the root's second child."
    )
}

fn bound_text(value: Score) -> String {
    match value {
        v if v >= INF => "+inf".to_string(),
        v if v <= -INF => "-inf".to_string(),
        v => v.to_string(),
    }
}

/// The minimax value of the root or of an inner node.
fn node_value(tree: Node, rng: &mut StdRng) -> Made {
    let searched = Searched::new(&tree, EngineAlgorithm::Minimax);
    let inner: Vec<u32> = (0..searched.paths.len() as u32).filter(|&id| !searched.children(id).is_empty()).collect();
    // The root a third of the time: the classic question.
    let id = if rng.random_bool(1.0 / 3.0) { 0 } else { inner[rng.random_range(0..inner.len() as u32) as usize] };
    let path = &searched.paths[id as usize];
    // Minimax's values are MAX's already.
    let (value, event) = searched.exit(id);
    let children: Vec<String> = searched.children(id).iter().map(|&c| searched.exit(c).0.to_string()).collect();
    let (pick, word) = if role(path) == "MAX" { ("max", "largest") } else { ("min", "smallest") };
    let text = format!("{} What is the minimax value of {}?", setting(&tree, "Minimax"), label(path));
    let explanation = format!(
        "{} is a {} node: it takes the {word} of its children's values, {pick}({}) = {value}.",
        label(path),
        role(path),
        children.join(", ")
    );
    Made {
        text,
        scene: scene(&tree, "minimax"),
        answer: Answer::Number(value as f64),
        explanation,
        show_step: event + 1,
        given: Given::Node(path.clone()),
    }
}

/// Leaves left to right: each one's path of child numbers.
fn leaf_paths(node: &Node, path: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
    match node {
        Node::Leaf(_) => out.push(path.clone()),
        Node::Inner(children) => {
            for (i, child) in children.iter().enumerate() {
                path.push(i as u32 + 1);
                leaf_paths(child, path, out);
                path.pop();
            }
        }
    }
}

/// The positions of the leaves alpha-beta never evaluated.
fn pruned(tree: &Node, searched: &Searched) -> Vec<usize> {
    let mut leaves = Vec::new();
    leaf_paths(tree, &mut Vec::new(), &mut leaves);
    let evaluated: Vec<&Vec<u32>> = searched
        .events
        .iter()
        .filter_map(|e| match e {
            TreeEvent::Leaf { node, .. } => Some(&searched.paths[*node as usize]),
            _ => None,
        })
        .collect();
    (0..leaves.len()).filter(|&i| !evaluated.contains(&&leaves[i])).collect()
}

fn pruned_leaves(tree: Node) -> Made {
    let searched = Searched::new(&tree, EngineAlgorithm::AlphaBeta);
    let answer = pruned(&tree, &searched);
    let mut leaves = Vec::new();
    leaf_paths(&tree, &mut Vec::new(), &mut leaves);
    let mut reasons = Vec::new();
    let mut first_cutoff = None;
    for (i, event) in searched.events.iter().enumerate() {
        let TreeEvent::Cutoff { node, pruned: moves, .. } = event else { continue };
        first_cutoff.get_or_insert(i);
        let id = *node as usize;
        let path = &searched.paths[id];
        let side = searched.sides[id];
        let value = searched.events[..i]
            .iter()
            .rev()
            .find_map(|e| match e {
                TreeEvent::Window { node, value, .. } if *node as usize == id => Some(*value),
                _ => None,
            })
            .expect("a node cuts off after a child improved it");
        let beta = searched.windows[id].1;
        let test = match side {
            Side::First => format!("{value} >= beta = {}", bound_text(beta)),
            Side::Second => format!("{} <= alpha = {}", -value, bound_text(-beta)),
        };
        let skipped: Vec<String> = (0..leaves.len())
            .filter(|&l| {
                let leaf = &leaves[l];
                leaf.len() > path.len()
                    && leaf[..path.len()] == path[..]
                    && moves.iter().any(|mv| mv.parse() == Ok(leaf[path.len()]))
            })
            .map(|l| l.to_string())
            .collect();
        let leaves = match skipped.len() {
            1 => format!("leaf {} is", skipped[0]),
            _ => format!("leaves {} are", skipped.join(", ")),
        };
        reasons.push(format!("{} ({}) stops at {test}, so {leaves} never evaluated", label(path), role(path)));
    }
    let text = format!(
        "{} Which leaves does alpha-beta never evaluate? Count leaves from 0, left to right.",
        setting(&tree, "Alpha-beta (children left to right)")
    );
    let explanation = match reasons.is_empty() {
        true => "No node's value ever leaves its window, so alpha-beta evaluates every leaf.".to_string(),
        false => format!("{}.", reasons.join("; ")),
    };
    Made {
        text,
        scene: scene(&tree, "alphabeta"),
        answer: Answer::Leaves(answer),
        explanation,
        show_step: first_cutoff.map_or(searched.events.len(), |i| i + 1),
        given: Given::Nothing,
    }
}

/// Whether an inner node's alpha-beta value is exact or bounds its true value.
fn node_bound(tree: Node, rng: &mut StdRng) -> Made {
    let searched = Searched::new(&tree, EngineAlgorithm::AlphaBeta);
    let inner: Vec<u32> = (1..searched.paths.len() as u32).filter(|&id| !searched.children(id).is_empty()).collect();
    let id = inner[rng.random_range(0..inner.len() as u32) as usize];
    let path = searched.paths[id as usize].clone();
    let side = searched.sides[id as usize];
    let (returned, event) = searched.exit(id);
    let (alpha, beta) = searched.windows[id as usize];
    // In MAX's terms the window flips at MIN nodes.
    let (value, alpha, beta) = match side {
        Side::First => (returned, alpha, beta),
        Side::Second => (-returned, -beta, -alpha),
    };
    let relation = if value <= alpha {
        Relation::AtMost
    } else if value >= beta {
        Relation::AtLeast
    } else {
        Relation::Exact
    };
    let minimax = Searched::new(&tree, EngineAlgorithm::Minimax);
    let true_id = minimax.id_of(&path).expect("minimax enters every node");
    let truth = minimax.exit(true_id).0;
    let why = match relation {
        Relation::Exact => "inside the window, so it is exact".to_string(),
        Relation::AtMost => {
            format!("<= alpha = {}: it failed low, so the true value is at most {value}", bound_text(alpha))
        }
        Relation::AtLeast => {
            format!(">= beta = {}: it failed high, so the true value is at least {value}", bound_text(beta))
        }
    };
    let text = format!(
        "{} {} ({}) returns a value. Is it exact, an upper bound (true value <= x) or a lower bound (true \
         value >= x)? Give the relation and x.",
        setting(&tree, "Alpha-beta (children left to right, fail-soft)"),
        label(&path),
        role(&path)
    );
    let explanation = format!(
        "{} was searched with the window (alpha, beta) = ({}, {}) and returned {value}, {why}. Its minimax value \
         is {truth}.",
        label(&path),
        bound_text(alpha),
        bound_text(beta)
    );
    Made {
        text,
        scene: scene(&tree, "alphabeta"),
        answer: Answer::Bound { relation, value },
        explanation,
        show_step: event + 1,
        given: Given::Node(path),
    }
}
