//! A game tree typed into the game-tree page: the textbook exercise, searched with minimax and
//! alpha-beta, its values, bounds and pruned leaves on the cards (worked out by hand below).

mod common;

use common::tree_lab::{LabHarness, lab_harness, settle};
use common::ui::{click, type_into};

use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::app::tree_lab::{GameKind, Replay};
use searchlab::scene::Scene;

/// The page showing the tree `text`, searched with `algorithm`, replayed to the end.
fn custom_tree(text: &str, algorithm: &str) -> LabHarness {
    let mut harness = lab_harness();
    click(&mut harness, "Custom tree");
    settle(&mut harness);
    type_into(&mut harness, "Tree:", text);
    click(&mut harness, "Search this tree");
    settle(&mut harness);
    click(&mut harness, algorithm);
    settle(&mut harness);
    click(&mut harness, "End >|");
    click(&mut harness, "Expand all");
    harness
}

/// The node reached from the root by child numbers `path`.
fn node_at(harness: &LabHarness, path: &[&str]) -> u32 {
    let Replay::Tree(replay) = &harness.state().recording().unwrap().replay else { panic!("a tree replay") };
    let view = replay.player.view();
    path.iter().fold(0, |node, mv| {
        view.children(node).into_iter().find(|&c| view.node(c).mv.as_str() == *mv).expect("a searched child")
    })
}

const TEXTBOOK: &str = "((3,12,8),(2,4,6),(14,5,2))";

#[test]
fn alpha_beta_on_the_textbook_tree_shows_values_bounds_and_the_pruned_leaves() {
    let harness = custom_tree(TEXTBOOK, "Alpha-beta");
    assert_eq!(harness.state().settings().game, GameKind::CustomTree);
    // Hand trace: MIN 1 = min(3,12,8) = 3 exactly; MIN 2's first leaf 2 ≤ α = 3 cuts 4 and 6, so
    // MIN 2 is only known to be ≤ 2; MIN 3 reads all of 14, 5, 2: exactly 2, though below α.
    // Root = 3. One cutoff, on MIN 2's first move.
    harness.get_by_label("Root value: +3");
    harness.get_by_label("Leaves: 7");
    harness.get_by_label("Cutoffs: 1");
    harness.get_by_label("First-move cutoffs: 100.0%");
    harness.get_by_label(&format!("node {}: 1 +3", node_at(&harness, &["1"])));
    harness.get_by_label(&format!("node {}: 2 ≤ +2", node_at(&harness, &["2"])));
    harness.get_by_label(&format!("node {}: 3 +2", node_at(&harness, &["3"])));
    harness.get_by_label(&format!("node {}: 1 +2 leaf", node_at(&harness, &["2", "1"])));
    // The two leaves after the cut are drawn as one pruned card, marked as an α cut (a MIN node).
    // MIN 3 reaches α only at its last leaf: nothing is left to prune, so no card says so.
    let pruned: Vec<String> = harness
        .query_all_by_label_contains("pruned")
        .map(|node| node.accesskit_node().label().unwrap_or_default())
        .collect();
    assert_eq!(pruned, ["2 pruned α cut"]);
}

#[test]
fn minimax_visits_every_leaf_of_the_textbook_tree() {
    let harness = custom_tree(TEXTBOOK, "Minimax");
    harness.get_by_label("Root value: +3");
    harness.get_by_label("Leaves: 9");
    // Minimax knows every value exactly: MIN 2 = min(2,4,6) = 2.
    harness.get_by_label(&format!("node {}: 2 +2", node_at(&harness, &["2"])));
    assert!(harness.query_by_label_contains("pruned").is_none());
}

#[test]
fn negamax_shows_values_for_max_on_a_deeper_uneven_tree() {
    // Root MAX: leaf 5; MIN(3, MAX(8,-4) = 8) = 3; MIN(-2, 7) = -2. Root = 5.
    let harness = custom_tree("(5, (3, (8, -4)), (-2, 7))", "Negamax");
    harness.get_by_label("Root value: +5");
    harness.get_by_label(&format!("node {}: 2 +3", node_at(&harness, &["2"])));
    harness.get_by_label(&format!("node {}: 2 +8", node_at(&harness, &["2", "2"])));
    harness.get_by_label(&format!("node {}: 3 -2", node_at(&harness, &["3"])));
}

/// A tree that does not read, or a lone leaf (no move to search, refused as a lecture's scene
/// is), is named with its reason alone.
#[test]
fn a_bad_tree_is_refused_with_its_reason_alone() {
    let mut harness = custom_tree(TEXTBOOK, "Alpha-beta");
    for (tree, reason) in [
        ("((3,12,8),(2,4 6))", "Tree: column 16: expected ',' or ')', found '6'"),
        ("7", "Tree: a tree needs at least one move"),
    ] {
        type_into(&mut harness, "Tree:", tree);
        click(&mut harness, "Search this tree");
        harness.get_by_label_contains(reason);
        assert!(
            harness.query_by_label_contains("Root value").is_none(),
            "{tree}: the last tree's value is not this tree's"
        );
    }
    let scene = harness.state().scene();
    assert_eq!(scene.tree.as_deref(), Some("7"), "the field's text is kept");
    assert_eq!(scene.validate().unwrap_err().to_string(), "tree: a tree needs at least one move");
}

#[test]
fn uct_and_iterative_deepening_are_not_offered_on_a_typed_in_tree() {
    let harness = custom_tree(TEXTBOOK, "Alpha-beta");
    assert!(harness.query_by_label("UCT").is_none());
    assert!(harness.query_by_label("ID + TT").is_none());
    harness.get_by_label("Depth: the whole tree (2 plies)");
}

#[test]
fn the_page_copies_the_typed_tree_as_a_scene_and_shows_one() {
    let harness = custom_tree("((1,-5),(7))", "Minimax");
    let scene = harness.state().scene();
    assert_eq!((scene.tree.as_deref(), scene.position.as_deref()), (Some("((1,-5),(7))"), None));
    assert_eq!(scene.spec.map(|spec| spec.to_string()).as_deref(), Some("minimax:2"));
    assert_eq!(Scene::from_toml(&scene.to_toml()), Ok(scene.clone()));

    let mut other = lab_harness();
    other.state_mut().set_scene(&scene).unwrap();
    settle(&mut other);
    click(&mut other, "End >|");
    // MAX chooses between MIN(1, -5) = -5 and MIN(7) = 7.
    other.get_by_label("Root value: +7");
    assert_eq!(other.state().scene(), scene);
    let both = Scene { position: Some("x.o/.x./..o".to_string()), ..scene.clone() };
    assert!(other.state_mut().set_scene(&both).unwrap_err().contains("not both"));
    // A scene's position that is neither game's gets the parser's reason, as the lecture check gives it.
    let position = |text: &str| Scene { tree: None, spec: None, position: Some(text.to_string()), ..scene.clone() };
    let error = other.state_mut().set_scene(&position("xxx/ooo/...")).unwrap_err();
    assert!(error.contains("cannot arise: play continued after a win"), "{error}");
    let error = other.state_mut().set_scene(&position("4ee4/10 b")).unwrap_err();
    assert!(error.contains("position has 2 rows separated by '/', expected 10"), "{error}");
}

#[test]
fn a_typed_in_tree_has_no_x_or_white_to_name() {
    let harness = custom_tree(TEXTBOOK, "Minimax");
    harness.get_by_label_contains("Values on the cards are for MAX;");
    assert!(harness.query_by_label_contains("X (White, MAX)").is_none());
}

#[test]
fn settings_saved_before_the_custom_tree_keep_their_positions() {
    let saved = r#"{"game":"TicTacToe","positions":["xo./.../...","4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 b"]}"#;
    let lab = searchlab::app::TreeLab::from_saved(Some(saved));
    let positions = &lab.settings().positions;
    assert_eq!(
        (positions["tictactoe"].as_str(), positions["barca"].as_str()),
        ("xo./.../...", "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 b")
    );
    assert_eq!(lab.settings().game, GameKind::TicTacToe);
    assert!(!positions.contains_key("tree"), "a game never typed in opens on its default position");
}

/// Settings saved since keep each game's position under the game's id, so adding a game moves none.
#[test]
fn positions_are_saved_by_game_id() {
    let saved = r#"{"game":"barca","positions":{"tree":"((1,2),(3,4))","tictactoe":"x........"}}"#;
    let lab = searchlab::app::TreeLab::from_saved(Some(saved));
    assert_eq!(lab.settings().game, GameKind::Barca);
    assert_eq!(lab.settings().positions["tree"], "((1,2),(3,4))");
}

/// Step 18 of alpha-beta on the textbook tree: MIN 2 has read its leaf 2 under α = 3. The
/// statistics give its window for MAX, as its card does.
#[test]
fn the_statistics_window_reads_for_max_like_the_card() {
    let mut harness = custom_tree(TEXTBOOK, "Alpha-beta");
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit(18.0);
    settle(&mut harness);
    let node = node_at(&harness, &["2"]);
    let card = harness.get_by_label_contains(&format!("node {node}: ")).accesskit_node().label().unwrap_or_default();
    assert!(card.contains("α 3 β 2"), "{card}");
    harness.get_by_label("Current node window: α = 3, β = 2 (for MAX)");
}
