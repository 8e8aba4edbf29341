//! The game-tree lesson driven through its labelled controls. Searches are recorded on a worker
//! thread, so tests poll the harness (a bounded number of frames) until the result is in.

mod common;

use common::tree_lab::{LabHarness, lab_harness, settle};
use common::ui::click;

use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::adversarial::mcts::Proven;
use searchlab::app::tree_lab::{EngineAlgorithm, Recording, Replay, TIC_TAC_TOE_TREE};
use searchlab::app::{SearchlabApp, TreeCommand, TreeLab};
use searchlab::games::Side;

fn recording(harness: &LabHarness) -> &Recording {
    harness.state().recording().expect("a recording is installed")
}

fn tree_nodes(harness: &LabHarness) -> usize {
    match &recording(harness).replay {
        Replay::Tree(replay) => replay.player.view().nodes.len(),
        Replay::Mcts(_) => panic!("a minimax-family replay"),
    }
}

/// Clicks the card of the root's first child (always shown) and returns its move.
fn click_first_root_move(harness: &mut LabHarness) -> String {
    let Replay::Tree(replay) = &recording(harness).replay else { panic!("a tree replay") };
    let view = replay.player.view();
    let child = view.children(0)[0];
    let mv = view.node(child).mv.to_string();
    // The cards live in a zoomable scene: click through accessibility, as a screen reader would.
    harness.get_by_label_contains(&format!("node {child}: {mv} ")).click_accesskit();
    harness.run_ok();
    mv
}

#[test]
fn stepping_an_alpha_beta_tree_grows_and_shrinks_the_node_count() {
    let mut harness = lab_harness();
    assert_eq!(recording(&harness).spec.algorithm, EngineAlgorithm::AlphaBeta);
    harness.get_by_label("Nodes: 0");
    for _ in 0..3 {
        click(&mut harness, "Step >");
    }
    // Start, the root, its first child.
    assert_eq!(recording(&harness).step(), 3);
    assert_eq!(tree_nodes(&harness), 2);
    harness.get_by_label("Nodes: 2");
    click(&mut harness, "< Step back");
    harness.get_by_label("Nodes: 1");
    assert_eq!(recording(&harness).step(), 2);

    click(&mut harness, "End >|");
    let Replay::Tree(replay) = &recording(&harness).replay else { unreachable!() };
    let view = replay.player.view();
    assert_eq!(view.nodes.len() as u64, replay.stats.nodes, "the end shows every node searched");
    assert!(replay.stats.cutoffs > 0, "alpha-beta prunes this position");
    let (cutoffs, nodes) = (view.cutoff_count, view.nodes.len());
    harness.get_by_label(&format!("Cutoffs: {cutoffs}"));
    harness.get_by_label(&format!("Nodes: {nodes}"));
    // x.o/.x./..o: X must block O's c column, O then blocks X's diagonal: a draw.
    harness.get_by_label("Root value: draw");

    click(&mut harness, "|< Start");
    harness.get_by_label("Nodes: 0");
}

#[test]
fn the_timeline_and_keys_seek_the_replay() {
    let mut harness = lab_harness();
    let len = recording(&harness).step_count();
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit((len / 2) as f64);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len / 2);
    harness.key_press(egui::Key::ArrowRight);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len / 2 + 1);
    harness.key_press(egui::Key::End);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), len);
}

#[test]
fn the_full_tic_tac_toe_tree_steps_to_a_draw() {
    let mut harness = lab_harness();
    click(&mut harness, "Full tic-tac-toe tree");
    settle(&mut harness);
    click(&mut harness, "End >|");
    assert_eq!(tree_nodes(&harness) as u64, TIC_TAC_TOE_TREE);
    harness.get_by_label(&format!("Nodes: {TIC_TAC_TOE_TREE}"));
    harness.get_by_label("Root value: draw");
    // The replay goes back as far as it went forward.
    click(&mut harness, "< Step back");
    click(&mut harness, "|< Start");
    harness.get_by_label("Nodes: 0");
}

/// The lab with a 300-playout UCT search recorded.
fn uct_harness() -> LabHarness {
    let mut harness = lab_harness();
    harness.state_mut().apply(TreeCommand::SetIterations(300));
    click(&mut harness, "UCT");
    settle(&mut harness);
    harness
}

#[test]
fn a_uct_run_shows_visit_counts() {
    let mut harness = uct_harness();
    click(&mut harness, "End >|");
    let Replay::Mcts(replay) = &recording(&harness).replay else { panic!("a UCT replay") };
    let view = replay.player.view();
    let root_visits = view.node(0).visits;
    assert_eq!(view.iterations, replay.stats.iterations);
    assert!(root_visits > 0 && u64::from(root_visits) <= 300);
    let mut children = view.child_stats(0);
    assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), root_visits, "every iteration goes through a root move");
    children.sort_by_key(|c| std::cmp::Reverse(c.visits));
    let best = &children[0];
    harness.get_by_label(&format!("Root visits: {root_visits}"));
    harness.get_by_label_contains(&format!("{}: {} visits", best.mv, best.visits));
    click(&mut harness, "|< Start");
    harness.get_by_label("Root visits: 0");
}

#[test]
fn clicking_a_node_shows_its_position_and_a_bad_position_is_refused() {
    let mut harness = lab_harness();
    click(&mut harness, "End >|");
    let first = click_first_root_move(&mut harness);
    harness.get_by_label(&format!("After: {first}"));
    harness.get_by_label("O to move");

    harness.state_mut().apply(TreeCommand::SetPosition("xxx/ooo/...".into()));
    harness.run_ok();
    let error = harness.state().error().expect("the position is refused").to_string();
    assert!(error.starts_with("Position: "), "{error}");
    harness.get_by_label(&error);
    assert!(harness.state().recording().is_none(), "the last search is not shown under the refused position");
}

#[test]
fn iterative_deepening_solves_the_position_with_the_table() {
    let mut harness = lab_harness();
    click(&mut harness, "ID + TT");
    settle(&mut harness);
    click(&mut harness, "End >|");
    let Replay::Tree(replay) = &recording(&harness).replay else { panic!("a tree replay") };
    assert!(replay.roots.len() > 1, "one root per iteration");
    assert!(replay.stats.tt_hits > 0);
    assert_eq!(replay.root(), replay.roots.last().copied(), "the end shows the last iteration");
    harness.get_by_label_contains("TT hits: ");
    harness.get_by_label("Root value: draw");
}

#[test]
fn a_barca_node_shows_its_board_and_evaluation() {
    let mut harness = lab_harness();
    click(&mut harness, "Barca");
    settle(&mut harness);
    assert_eq!(recording(&harness).spec.depth, 3);
    click(&mut harness, "End >|");
    let mv = click_first_root_move(&mut harness);
    harness.get_by_label(&format!("After: {mv}"));
    harness.get_by_label("Black to move");
    harness.get_by_label("watering holes held");
}

#[test]
fn the_app_lists_the_lesson() {
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run_ok();
    harness.get_by_label("Game-tree search").click();
    harness.run_ok();
    harness.get_by_label("Game-tree search: minimax, alpha-beta and UCT");
}

/// The root's child reached by `mv`.
fn root_child(harness: &LabHarness, mv: &str) -> u32 {
    let Replay::Tree(replay) = &recording(harness).replay else { panic!("a tree replay") };
    let view = replay.player.view();
    view.children(0).into_iter().find(|&c| view.node(c).mv.as_str() == mv).expect("a root move")
}

#[test]
fn alpha_beta_shows_a_bound_where_it_only_bounded_the_value() {
    // x.o/.x./..o: after X a1, O's c2 wins, but alpha-beta cut c2 once a draw made a1 no better
    // than the first move: a1 is at most a draw for X, not a draw.
    let mut harness = lab_harness();
    click(&mut harness, "End >|");
    let a1 = root_child(&harness, "a1");
    harness.get_by_label(&format!("node {a1}: a1 ≤ 0"));
    harness.get_by_label_contains(&format!("node {a1}: a1 ≤ 0")).click_accesskit();
    harness.run_ok();
    harness.get_by_label_contains("Value for X: ≤ 0");
}

/// UCB1 as the textbook gives it, C = √2: the numbers a card and the list must add up to.
fn textbook_ucb(mean: f64, visits: u32, parent_visits: u32) -> f64 {
    mean + std::f64::consts::SQRT_2 * (f64::from(parent_visits).ln() / f64::from(visits)).sqrt()
}

/// Each UCT card reads from one side: the player who chose its move (at the root, the player
/// choosing there), its mean with the UCB that mean adds up to, no mean before a visit, and a
/// proven move's result instead of a UCB.
#[test]
fn uct_cards_read_for_the_player_choosing() {
    let mut harness = uct_harness();
    harness.state_mut().apply(TreeCommand::SetPosition("xx./o../...".into()));
    settle(&mut harness);
    click(&mut harness, "End >|");
    click(&mut harness, "Expand all");
    let Replay::Mcts(replay) = &recording(&harness).replay else { panic!("a UCT replay") };
    let view = replay.player.view();
    let (mut checked, mut proven, mut o_moves) = (0, 0, 0);
    for id in 0..view.nodes().len() as u32 {
        let name = format!("node {id}: ");
        let Some(card) = harness.query_by_label_contains(&name) else { continue };
        let label = card.accesskit_node().label().unwrap_or_default();
        let node = view.node(id);
        // The engine keeps a node's sums for the player who moved into it.
        let (chooser, mean, result) = if id == 0 {
            (
                node.mover.other(),
                (node.visits > 0).then(|| 1.0 - node.value_sum / f64::from(node.visits)),
                node.proven.map(Proven::flipped),
            )
        } else {
            (node.mover, (node.visits > 0).then(|| node.value_sum / f64::from(node.visits)), node.proven)
        };
        let side = if chooser == Side::First { "X" } else { "O" };
        o_moves += usize::from(id != 0 && chooser == Side::Second);
        match mean {
            Some(mean) => {
                assert!(label.contains(&format!("{side} μ {mean:.2}")), "{label}: {side}'s mean is {mean:.2}")
            }
            None => assert!(label.contains(&format!("{side} μ –")), "{label}: no mean before a visit"),
        }
        match result {
            Some(result) => {
                proven += 1;
                let word = match result {
                    Proven::Win => "proven win",
                    Proven::Loss => "proven loss",
                    Proven::Draw => "proven draw",
                };
                assert!(label.contains(word) && !label.contains("ucb"), "{label}: {word}, no UCB");
            }
            None if id != 0 => {
                let parent = view.node(node.parent).visits;
                let ucb = mean.map_or("ucb –".to_string(), |mean| {
                    format!("ucb {:.2}", textbook_ucb(mean, node.visits, parent))
                });
                assert!(label.contains(&ucb), "{label}: {ucb}");
            }
            None => {}
        }
        checked += 1;
    }
    assert!(checked > 10 && proven > 0 && o_moves > 0, "{checked} cards, {proven} proven, {o_moves} of O's moves");
}

/// The screen rectangle of the tree canvas.
fn canvas_rect(harness: &LabHarness) -> egui::Rect {
    harness.get_by_label("Game tree canvas").rect()
}

/// The screen rectangle of node `id`'s card, if it is laid out. Cards report their rectangle in
/// the tree's plane; the canvas shows the lab's scene rect fitted and centred (as `egui::Scene` does).
fn card_rect(harness: &LabHarness, id: u32) -> Option<egui::Rect> {
    let name = format!("node {id}: ");
    let card = harness.query_by_label_contains(&name)?.rect();
    let (canvas, scene) = (canvas_rect(harness), harness.state().scene_rect());
    let scale = (canvas.size() / scene.size()).min_elem().clamp(0.01, 1.5);
    let to_screen = |p: egui::Pos2| canvas.center() + (p - scene.center()) * scale;
    Some(egui::Rect::from_min_max(to_screen(card.min), to_screen(card.max)))
}

/// The current node is inside the canvas (its path up to the root too, when readable cards allow).
fn assert_current_in_view(harness: &LabHarness, when: &str) {
    let Replay::Tree(replay) = &recording(harness).replay else { panic!("a tree replay") };
    let canvas = canvas_rect(harness);
    let id = replay.player.view().current.unwrap_or_else(|| panic!("{when}: a current node"));
    let card = card_rect(harness, id).unwrap_or_else(|| panic!("{when}: node {id} is laid out"));
    assert!(canvas.contains_rect(card), "{when}: node {id} at {card:?} is outside the canvas {canvas:?}");
}

#[test]
fn following_keeps_the_current_node_in_view_and_fit_shows_the_whole_tree() {
    let mut harness = lab_harness();
    click(&mut harness, "Barca");
    settle(&mut harness);
    assert_eq!(recording(&harness).spec.algorithm, EngineAlgorithm::AlphaBeta);
    let len = recording(&harness).step_count();
    let target = 15_600.min(len * 3 / 4);
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit(target as f64);
    harness.run_ok();
    assert_eq!(recording(&harness).step(), target);
    assert_current_in_view(&harness, "after dragging the timeline");
    click(&mut harness, "Step >");
    assert_current_in_view(&harness, "after a step");

    click(&mut harness, "Fit");
    let canvas = canvas_rect(&harness);
    let Replay::Tree(replay) = &recording(&harness).replay else { unreachable!() };
    let mut shown = 0;
    for id in 0..replay.player.view().nodes.len() as u32 {
        if let Some(card) = card_rect(&harness, id) {
            shown += 1;
            assert!(canvas.expand(1.0).contains_rect(card), "Fit: node {id} at {card:?} is outside {canvas:?}");
        }
    }
    assert!(shown > 1, "Fit shows the tree");
    click(&mut harness, "Step >");
    assert_current_in_view(&harness, "a step after Fit");
}

/// The root's children (the moves shown under it) are inside the canvas.
fn assert_root_children_in_view(harness: &LabHarness, when: &str) {
    let Replay::Tree(replay) = &recording(harness).replay else { panic!("a tree replay") };
    let canvas = canvas_rect(harness);
    let children: Vec<(u32, egui::Rect)> = replay
        .player
        .view()
        .children(0)
        .into_iter()
        .filter_map(|id| card_rect(harness, id).map(|card| (id, card)))
        .collect();
    assert!(!children.is_empty(), "{when}: the root's moves are laid out");
    for (id, card) in children {
        assert!(
            canvas.expand(1.0).contains_rect(card),
            "{when}: the root's child {id} at {card:?} is outside the canvas {canvas:?}"
        );
    }
}

#[test]
fn the_end_of_the_full_tree_shows_the_root_and_fit_shows_its_moves() {
    for (size, zoom) in [([1500.0, 950.0], 1.0), ([1280.0 / 1.3, 720.0 / 1.3], 1.3)] {
        let mut harness = common::ui::lesson_harness(size, TreeLab::new());
        harness.ctx.set_zoom_factor(zoom);
        settle(&mut harness);
        click(&mut harness, "Full tic-tac-toe tree");
        settle(&mut harness);
        click(&mut harness, "End >|");
        // Following, the root's moves are shown as far as readable cards allow; Fit shows them all.
        assert_current_in_view(&harness, "at the end");
        click(&mut harness, "Fit");
        assert_root_children_in_view(&harness, "at the end, after Fit");
    }
}

#[test]
fn uct_cards_never_overlap() {
    let mut harness = uct_harness();
    let len = recording(&harness).step_count();
    for step in [8, len / 3, len] {
        harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit(step as f64);
        harness.run_ok();
        click(&mut harness, "Expand all");
        let cards: Vec<(String, egui::Rect)> = harness
            .query_all(By::new().role(egui::Role::Button).label_contains("node "))
            .map(|card| (card.accesskit_node().label().unwrap_or_default(), card.rect()))
            .collect();
        assert!(cards.len() > 3, "step {step}: cards shown");
        for (i, (a, ra)) in cards.iter().enumerate() {
            for (b, rb) in &cards[i + 1..] {
                assert!(!ra.intersects(*rb), "step {step}: '{a}' {ra:?} overlaps '{b}' {rb:?}");
            }
        }
    }
}

#[test]
fn on_a_projector_the_side_panel_covers_neither_the_controls_nor_the_tree() {
    // 1280x720 with the text at 130%.
    let zoom = 1.3;
    let mut harness = Harness::builder()
        .with_size([1280.0 / zoom, 720.0 / zoom])
        .with_context_setup(move |ctx| {
            searchlab::app::set_style(ctx);
            ctx.set_zoom_factor(zoom);
        })
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run_ok();
    harness.get_by_label("Game-tree search").click();
    common::ui::wait_until(&mut harness, |app| !app.is_busy());
    harness.run_ok();
    let rect = |label: &str| harness.get_by_label(label).rect();
    let central = ["Game tree canvas", "|< Start", "Step >", "End >|", "Fit", "Expand all"].map(|l| (l, rect(l)));
    let side = ["Search", "Game:", "Statistics", "Record again"].map(|l| (l, rect(l)));
    let canvas = central[0].1;
    assert!(canvas.width() > 400.0 && canvas.height() > 200.0, "the tree gets the room: {canvas:?}");
    for (a, ra) in central {
        for (b, rb) in side {
            assert!(!ra.intersects(rb), "'{a}' {ra:?} is under the side panel's '{b}' {rb:?}");
        }
    }
}

/// The "Root moves" list reads from the side choosing there, each UCB the sum of the mean shown
/// and the exploration term, a proven move with its result instead; its first move is the one
/// UCT plays, also on a tie (`x../.o./...`: c3 and a1 171 visits each after 1,000 iterations).
#[test]
fn the_root_moves_list_reads_for_the_player_choosing_and_starts_with_the_move_played() {
    let mut harness = lab_harness();
    click(&mut harness, "UCT");
    settle(&mut harness);
    harness.state_mut().apply(TreeCommand::SetIterations(1000));
    for (position, chooser) in [("xx./o../...", "O"), ("x../.o./...", "X")] {
        harness.state_mut().apply(TreeCommand::SetPosition(position.into()));
        settle(&mut harness);
        click(&mut harness, "End >|");
        harness.get_by_label(&format!("Root moves, {chooser} to choose"));
        harness.get_by_label(&format!("Means and UCB for {chooser}, in the order UCT would play them"));
        let Replay::Mcts(replay) = &recording(&harness).replay else { panic!("a UCT replay") };
        let view = replay.player.view();
        let root_visits = view.node(0).visits;
        for id in view.node(0).children() {
            let node = view.node(id);
            let mean = node.value_sum / f64::from(node.visits);
            let last = match node.proven {
                Some(Proven::Loss) => "proven loss".to_string(),
                Some(Proven::Win) => "proven win".to_string(),
                Some(Proven::Draw) => "proven draw".to_string(),
                None => format!("UCB {:.3}", textbook_ucb(mean, node.visits, root_visits)),
            };
            let visits = if node.visits == 1 { "visit" } else { "visits" };
            harness.get_by_label(&format!("{}: {} {visits}, mean {mean:.3}, {last}", node.mv, node.visits));
        }
        let list: Vec<String> = harness
            .query_all_by_label_contains(", mean ")
            .map(|n| n.accesskit_node().value().unwrap_or_default())
            .filter(|line| line.split_once(": ").is_some_and(|(mv, rest)| !mv.contains(' ') && rest.contains(" visit")))
            .collect();
        let first_move = replay.pv.first().expect("a most visited line");
        assert!(list[0].starts_with(&format!("{first_move}: ")), "{position}: list {list:?}, line {:?}", replay.pv);
        harness.get_by_label(&format!("Most visited line: {}", replay.pv.join(" ")));
    }
}

/// X to move wins at once: the first iteration proves c3, and so the root, without a playout. The
/// unvisited move has no mean, and the last iteration's reward is X's, as the root's card.
#[test]
fn an_unvisited_proven_move_shows_no_mean_and_the_reward_names_its_side() {
    let mut harness = lab_harness();
    click(&mut harness, "UCT");
    settle(&mut harness);
    harness.state_mut().apply(TreeCommand::SetPosition("xx./oo./...".into()));
    settle(&mut harness);
    click(&mut harness, "End >|");
    harness.get_by_label_contains("c3 n 0 X μ – proven win");
    harness.get_by_label("c3: 0 visits, mean –, proven win");
    harness.get_by_label_contains("Last iteration: the root is proven, no playout; reward 1.00 for X");
}

/// On the projector (1280x720, text at 130%) the tree lab in the app follows the search with
/// readable cards: text of at least 12 points, the current node on the canvas. Only "Fit" may
/// make them smaller.
#[test]
fn on_a_projector_following_keeps_the_cards_readable_and_the_current_node_in_view() {
    let mut app = Harness::builder()
        .with_size([1280.0 / 1.3, 720.0 / 1.3])
        .with_pixels_per_point(1.3)
        .with_context_setup(searchlab::app::set_style)
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    app.run_ok();
    app.get_by_label("Game-tree search").click();
    let settle = |app: &mut Harness<'_, SearchlabApp>| {
        common::ui::wait_until(app, |app| !app.is_busy());
        app.run_ok();
    };
    settle(&mut app);
    // The tree's plane on screen: the one transformed layer on the page.
    let plane = |app: &Harness<'_, SearchlabApp>| {
        let layers: Vec<egui::LayerId> = app.ctx.memory(|memory| memory.layer_ids().collect());
        let mut transforms = layers.into_iter().filter_map(|layer| app.ctx.layer_transform_to_global(layer));
        transforms.next().expect("the tree canvas is a zoomable scene")
    };
    for (game, algorithm) in
        [("Tic-tac-toe", "Alpha-beta"), ("Barca", "Alpha-beta"), ("Full tic-tac-toe tree", "Minimax"), ("Barca", "UCT")]
    {
        click(&mut app, game);
        settle(&mut app);
        click(&mut app, algorithm);
        settle(&mut app);
        let timeline = By::new().role(egui::Role::Slider).label("Timeline");
        let len = app.get(timeline.clone()).accesskit_node().max_numeric_value().expect("the timeline's end") as usize;
        for step in [len / 5, len / 2, len * 4 / 5, len] {
            let at = format!("{game}, {algorithm}, step {step} of {len}");
            app.get(timeline.clone()).set_value_accesskit(step as f64);
            app.run_ok();
            let plane = plane(&app);
            let text = 14.0 * plane.scaling;
            assert!(text >= 11.9, "{at}: card text {text:.1} points");
            // The deepest card marked current (UCT marks its whole selection path), or at the end the root.
            let card = |when: &dyn Fn(&str) -> bool| {
                let cards = app.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("node ") && when(&l)));
                cards.map(|n| n.rect()).max_by(|a, b| a.bottom().total_cmp(&b.bottom()))
            };
            let current = card(&|l| l.ends_with(", current"))
                .or_else(|| card(&|l| l.starts_with("node 0: ")))
                .expect("a current node");
            let card = plane * current;
            let canvas = app.get_by_label("Game tree canvas").rect();
            assert!(
                canvas.expand(1.0).contains_rect(card),
                "{at}: the current node at {card:?} is off the canvas {canvas:?}"
            );
        }
    }
}

/// "About this page" and the line over the tree name the players of the game shown: X and O,
/// White and Black, or MAX and MIN on a typed-in tree (which offers no UCT to explain).
#[test]
fn the_page_names_the_players_of_each_game() {
    let mut harness = lab_harness();
    for (game, max, min, other) in [
        ("Tic-tac-toe", "X (MAX)", "O (MIN)", "White"),
        ("Barca", "White (MAX)", "Black (MIN)", "X ("),
        ("Custom tree", "MAX", "MIN", "White"),
    ] {
        click(&mut harness, game);
        settle(&mut harness);
        let about = harness.get_by_label_contains("A game tree has a node for every position");
        let about = about.accesskit_node().value().unwrap_or_default();
        assert!(about.contains(&format!("{max} takes the largest child value, {min} the smallest")), "{game}: {about}");
        assert!(about.contains(&format!("Values on the cards are for {max}, whatever")), "{game}: {about}");
        assert!(!about.contains(other) && !about.contains(" or "), "{game}: {about}");
        assert_eq!(about.contains("UCT"), game != "Custom tree", "{game}: {about}");
        harness.get_by_label_contains(&format!("Values on the cards are for {max}; "));
    }
}

/// On the projector (1280x720, text at 130%) the side panel's depth slider keeps its whole label
/// inside the panel, and each legend entry keeps its swatch and words on one line.
#[test]
fn on_a_projector_the_depth_label_and_each_legend_entry_stay_whole() {
    let harness = common::ui::app_on("Game-tree search", [1280.0, 720.0], 1.3);
    // The panel's rows end short of the screen's edge by its scroll bar.
    let panel_right = 1280.0 / 1.3 - harness.ctx.global_style().spacing.scroll.allocated_width() - 4.0;
    // The label has no node of its own: it follows the slider's value box.
    let value = harness.query_all_by_label("Depth (plies)").map(|node| node.rect().right()).fold(0.0, f32::max);
    let style = harness.ctx.global_style();
    let font = egui::TextStyle::Body.resolve(&style);
    let text = harness
        .ctx
        .fonts_mut(|fonts| fonts.layout_no_wrap("Depth (plies)".into(), font, egui::Color32::WHITE).size().x);
    let depth = value + style.spacing.item_spacing.x + text;
    assert!(depth <= panel_right, "'Depth (plies)' reaches {depth:.0} of the panel's {panel_right:.0} points");
    let row = harness.get_by_label("MAX to move").rect().height();
    for name in ["MIN to move", "others, left unsearched", "path to it", "best line"] {
        let rect = harness.get_by_label(name).rect();
        assert!(rect.height() < row * 1.5, "the legend entry '{name}' wraps: {rect:?}, a row is {row:.0} points");
    }
}
