//! Typed-in game trees searched by the library's minimax, negamax and alpha-beta, checked against
//! values and prunings worked out by hand (in the comments), and alpha-beta against minimax.

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;
use searchlab::adversarial::tree::TreeEvent;
use searchlab::adversarial::{alphabeta, minimax, negamax};
use searchlab::games::DefaultEval;
use searchlab::games::custom_tree::{CustomTree, Node};
use searchlab::trace::{NO_NODE, NoTrace, Recorder};

/// The root value for MAX and the leaves the search reached, each by its path of child numbers
/// ("2.1" is the first child of the root's second child).
fn leaves_reached(text: &str, search: &str) -> (i32, BTreeSet<String>) {
    let game = CustomTree::parse(text).unwrap();
    let depth = game.root().height() as u32;
    let mut recorder = Recorder::default();
    let result = match search {
        "minimax" => minimax::search(&game, &DefaultEval, depth, &mut recorder),
        "negamax" => negamax::search(&game, &DefaultEval, depth, &mut recorder),
        _ => alphabeta::search(&game, &DefaultEval, depth, &mut recorder),
    };
    let mut paths: HashMap<u32, String> = HashMap::new();
    let mut leaves = BTreeSet::new();
    for event in &recorder.finish().events {
        match event {
            TreeEvent::Enter { node, parent, mv, .. } => {
                let path = match paths.get(parent) {
                    Some(above) if !above.is_empty() => format!("{above}.{mv}"),
                    _ if *parent == NO_NODE => String::new(),
                    _ => mv.to_string(),
                };
                paths.insert(*node, path);
            }
            TreeEvent::Leaf { node, .. } => {
                leaves.insert(paths[node].clone());
            }
            _ => {}
        }
    }
    (result.score, leaves)
}

fn set(paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|p| p.to_string()).collect()
}

const TEXTBOOK: &str = "((3,12,8),(2,4,6),(14,5,2))";

#[test]
fn the_textbook_tree_prunes_the_leaves_a_hand_trace_prunes() {
    // MIN 1 sees 3, 12, 8: worth 3, so MAX's α = 3. MIN 2's first leaf 2 ≤ α: 4 and 6 are cut.
    // MIN 3 sees 14, 5, 2: worth 2. Root: max(3, ≤2, 2) = 3.
    let all = set(&["1.1", "1.2", "1.3", "2.1", "2.2", "2.3", "3.1", "3.2", "3.3"]);
    let (value, reached) = leaves_reached(TEXTBOOK, "alphabeta");
    assert_eq!(value, 3);
    assert_eq!(all.difference(&reached).cloned().collect::<BTreeSet<_>>(), set(&["2.2", "2.3"]), "the leaves 4 and 6");
    for search in ["minimax", "negamax"] {
        assert_eq!(leaves_reached(TEXTBOOK, search), (3, all.clone()), "{search} visits all 9 leaves");
    }
}

#[test]
fn a_three_ply_tree_cuts_at_both_kinds_of_node() {
    // MAX over MIN over MAX. Minimax: left MIN = min(max(3,5), max(6,9)) = 5,
    // right MIN = min(max(1,2), max(0,-1)) = 0, root = 5.
    // Alpha-beta: 1.1 is worth 5, so MIN 1's β = 5; in 1.2 the leaf 6 ≥ β cuts 9 (β cut at a MAX node).
    // α = 5 at the root; 2.1 is worth 2 ≤ α, so MIN 2 cuts its second child (0 and -1).
    let text = "(((3,5),(6,9)),((1,2),(0,-1)))";
    let (value, reached) = leaves_reached(text, "alphabeta");
    assert_eq!(value, 5);
    assert_eq!(reached, set(&["1.1.1", "1.1.2", "1.2.1", "2.1.1", "2.1.2"]));
    assert_eq!(leaves_reached(text, "minimax").1.len(), 8);
    assert_eq!(leaves_reached(text, "negamax").0, 5);
}

#[test]
fn leaves_at_different_depths_keep_their_values() {
    // Root MAX: leaf 5; MIN (3, MAX(8,-4) = 8) = 3; MIN (-2, 7) = -2. Root = 5.
    // Alpha-beta: α = 5 after the first leaf; MIN 2's leaf 3 ≤ α cuts the subtree (8,-4);
    // MIN 3's leaf -2 ≤ α cuts 7.
    let text = "(5, (3, (8, -4)), (-2, 7))";
    assert_eq!(leaves_reached(text, "alphabeta"), (5, set(&["1", "2.1", "3.1"])));
    assert_eq!(leaves_reached(text, "minimax"), (5, set(&["1", "2.1", "2.2.1", "2.2.2", "3.1", "3.2"])));
    // A MIN choice at the root's only child: -7 is worse for MAX than 0.
    assert_eq!(leaves_reached("((0,-7))", "negamax").0, -7);
}

fn tree() -> impl Strategy<Value = Node> {
    let leaf = (-50..=50).prop_map(Node::Leaf);
    leaf.prop_recursive(5, 80, 4, |inner| prop::collection::vec(inner, 1..4).prop_map(Node::Inner))
}

proptest! {
    #[test]
    fn alpha_beta_and_negamax_agree_with_minimax(tree in tree()) {
        let game = CustomTree::new(tree.clone());
        let depth = tree.height() as u32;
        let plain = minimax::search(&game, &DefaultEval, depth, &mut NoTrace);
        prop_assert_eq!(plain.stats.leaves as usize, tree.leaf_count());
        prop_assert_eq!(negamax::search(&game, &DefaultEval, depth, &mut NoTrace).score, plain.score);
        let pruned = alphabeta::search(&game, &DefaultEval, depth, &mut NoTrace);
        prop_assert_eq!(pruned.score, plain.score);
        prop_assert!(pruned.stats.leaves <= plain.stats.leaves);
    }
}
