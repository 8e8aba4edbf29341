//! Each page set from a `Scene` shows what the scene says, and says it shows that scene.

mod common;

use common::grid_lab::{LabHarness, lab_harness, settle};
use common::tree_lab;
use common::ui::click;
use egui::accesskit::Toggled;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::app::grid_lab::GridCommand;
use searchlab::app::replay_bar::ReplayCommand;
use searchlab::app::{BarcaLab, Lesson, NavmeshLab, TuningLab};
use searchlab::grid::MoveRules;
use searchlab::pathfinding::SearchSpace;
use searchlab::pathfinding::plan_trace::PlanEvent;
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
use searchlab::pathfinding::search_trace::SearchEvent;
use searchlab::scene::{Replayed, Scene, Step};
use searchlab::trace::NoTrace;

/// Whether the radio button or check box `label` is on.
fn is_on<S>(harness: &Harness<'_, S>, label: &str) -> bool {
    harness.get_by_label(label).accesskit_node().toggled() == Some(Toggled::True)
}

#[test]
fn grid_lab_shows_a_scene_and_reads_it_back() {
    let scene = Scene::from_toml(
        r#"
version = 1
lab = "grid"
map = { bundled = "maze64.map" }
spec = "dijkstra"
compare = "astar:octile,weight=1.5"
start = [1, 1]
goal = [62, 62]
step = "first-expansion"
layers = ["values"]
"#,
    )
    .unwrap();
    let mut harness = lab_harness();
    harness.state_mut().set_scene(&scene).unwrap();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    let (start, goal) = lab.endpoints();
    assert_eq!((lab.grid().coords(start), lab.grid().coords(goal)), ((1, 1), (62, 62)));
    // The first expansion: the replay stands just after the trace's first Expand event.
    let events = &lab.player().trace().events;
    let first = events.iter().position(|e| matches!(e, SearchEvent::Expand { .. })).unwrap();
    assert_eq!(lab.player().step(), first + 1);
    let shown = lab.scene();
    assert_eq!(shown.step, Step::Index(first + 1));
    assert_eq!(Scene { step: scene.step, ..shown.clone() }, scene, "the same scene, the moment resolved");
    harness.get_by_label("Left: Dijkstra");
    harness.get_by_label("Right: A* (octile, w = 1.5)");
    assert!(is_on(&harness, "Show g/h/f in cells"));
    // Read back, the resolved scene shows the same again.
    harness.state_mut().set_scene(&shown).unwrap();
    settle(&mut harness);
    assert_eq!(harness.state().scene(), shown);
}

/// "Copy this cell" with JPS picked writes a cell that reads back and shows JPS again.
#[test]
fn grid_lab_copies_a_jps_cell_that_reads_back() {
    let mut harness = lab_harness();
    harness.get_by_label("JPS").click();
    settle(&mut harness);
    let copied = harness.state().scene().to_toml();
    assert!(copied.contains("spec = \"jps\""), "{copied}");
    let scene = Scene::from_toml(&copied).unwrap_or_else(|error| panic!("{error}: {copied}"));
    let mut other = lab_harness();
    other.state_mut().set_scene(&scene).unwrap();
    settle(&mut other);
    assert_eq!(other.state().scene(), scene);
}

#[test]
fn grid_lab_refuses_a_scene_it_cannot_show_and_keeps_its_own() {
    let mut harness = lab_harness();
    let before = harness.state().scene();
    let mut scene = Scene::from_toml(
        "version = 1\nlab = \"grid\"\nmap = { bundled = \"maze64.map\" }\nstart = [0, 0]\ngoal = [1, 1]",
    )
    .unwrap();
    assert_eq!(harness.state_mut().set_scene(&scene), Err("the start 0,0 is a blocked cell".to_string()));
    scene.lab = searchlab::scene::Lab::Polygon;
    assert!(harness.state_mut().set_scene(&scene).unwrap_err().contains("cannot show"));
    assert_eq!(harness.state().scene(), before);
}

/// The grid lab showing a hierarchical scene with `spec` on rooms128, corner to corner; the
/// scene reads back unchanged.
fn hierarchical_scene(spec: &str, layers: &str) -> LabHarness {
    let text = format!(
        "version = 1\nlab = \"hierarchical\"\nmap = {{ bundled = \"rooms128.map\" }}\nspec = \"{spec}\"\n\
         compare = \"astar:octile\"\nstart = [1, 1]\ngoal = [120, 120]\nlayers = [{layers}]"
    );
    let scene = Scene::from_toml(&text).unwrap();
    let mut harness = lab_harness();
    harness.state_mut().set_scene(&scene).unwrap();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().scene(), scene, "{spec}: read back unchanged");
    harness
}

#[test]
fn hierarchical_scene_turns_the_planner_on() {
    let harness = hierarchical_scene("hpa:cluster=16,levels=2,no-smooth", r#""clusters", "abstract-path""#);
    assert!(is_on(&harness, "HPA*") && is_on(&harness, "2 levels"));
    assert!(is_on(&harness, "Cluster borders") && is_on(&harness, "Abstract path"));
    assert!(!is_on(&harness, "Abstract graph") && !is_on(&harness, "Smooth the refined path"));
    assert_eq!(harness.state().hierarchy().unwrap().expanded_per_level.len(), 3, "grid, level 1 and level 2");
}

#[test]
fn pra_scene_keeps_its_corridor_width() {
    let harness = hierarchical_scene("pra:width=3", r#""regions", "corridor""#);
    assert_eq!(harness.state().settings().hierarchy.pra_width, 3);
    let slider = harness.get(By::new().role(egui::Role::Slider).label("Corridor width W"));
    assert_eq!(slider.accesskit_node().numeric_value(), Some(3.0));
    // The lab's plan is the library's with three rings, which differs from the default here.
    let grid = harness.state().grid().clone();
    let (start, goal) = harness.state().endpoints();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let expanded = |width| {
        let options = PraOptions { width, ..PraOptions::default() };
        pyramid.query(&grid, start, goal, options, &mut SearchSpace::new(), &mut NoTrace).expanded_per_level
    };
    assert_ne!(expanded(3), expanded(PraOptions::DEFAULT_WIDTH), "the query tells the widths apart");
    assert_eq!(harness.state().hierarchy().unwrap().expanded_per_level, expanded(3));
}

#[test]
fn pra_scene_keeps_a_k_beyond_the_slider() {
    // The k slider ends at 16; "Open in the lab" once clamped k = 17 to 16 and showed its plan.
    let harness = hierarchical_scene("pra:k=17", r#""smoothed", "regions""#);
    assert_eq!(harness.state().settings().hierarchy.pra_k, Some(17));
    let slider = harness.get(By::new().role(egui::Role::Slider).label("k"));
    assert_eq!(slider.accesskit_node().numeric_value(), Some(17.0));
    let grid = harness.state().grid().clone();
    let (start, goal) = harness.state().endpoints();
    let options = PraOptions { k: Some(17), ..PraOptions::default() };
    let expected = Pyramid::build(&grid, MoveRules::MOVINGAI).query(
        &grid,
        start,
        goal,
        options,
        &mut SearchSpace::new(),
        &mut NoTrace,
    );
    assert_eq!(harness.state().hierarchy().unwrap().cost, expected.path.map(|p| p.0));
    assert_eq!(harness.state().scene().spec.unwrap().to_string(), "pra:k=17");
}

/// `replay = "planner"`: the cell steps through PRA*'s stages, opened on the planner's first path
/// found (its abstract path), with "the planner" chosen; the scene reads back with that step.
#[test]
fn hierarchical_scene_can_replay_the_planner() {
    let text = "version = 1\nlab = \"hierarchical\"\nmap = { bundled = \"rooms128.map\" }\nspec = \"pra:level=3\"\n\
                compare = \"astar:octile\"\nstart = [1, 1]\ngoal = [120, 120]\nreplay = \"planner\"\nstep = \"path-found\"";
    let scene = Scene::from_toml(text).unwrap();
    let mut harness = lab_harness();
    harness.state_mut().set_scene(&scene).unwrap();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert!(is_on(&harness, "the planner"));
    let player = harness.state().plan_player().expect("stepping through the planner");
    let first_found =
        player.trace().events.iter().position(|e| matches!(e, PlanEvent::Search(SearchEvent::Found { .. }))).unwrap();
    assert_eq!(player.step(), first_found + 1);
    assert_eq!(player.view().level, 3, "the first path is the one planned on level 3");
    assert_eq!(harness.state().player().step(), 0, "the flat search waits at its start");
    let shown = harness.state().scene();
    assert_eq!((shown.replay, shown.step), (Some(Replayed::Planner), Step::Index(first_found + 1)));
    let mut other = lab_harness();
    other.state_mut().set_scene(&shown).unwrap();
    settle(&mut other);
    assert_eq!(other.state().scene(), shown);
    // Back to the flat search: the scene no longer names a replay.
    click(&mut harness, "the search");
    assert_eq!(harness.state().scene().replay, None);
}

/// Replayed to its end, a PRA*(k) plan says it returns only the first cells of the way, as many
/// and as costly as the library's PRA*(2) returns them, not that the plan is complete.
#[test]
fn a_replayed_pra_k_plan_ends_on_its_first_steps() {
    let text = "version = 1\nlab = \"hierarchical\"\nmap = { bundled = \"rooms128.map\" }\nspec = \"pra:k=2\"\n\
                compare = \"astar:octile\"\nstart = [1, 1]\ngoal = [120, 120]\nreplay = \"planner\"";
    let mut harness = lab_harness();
    harness.state_mut().set_scene(&Scene::from_toml(text).unwrap()).unwrap();
    settle(&mut harness);
    let grid = harness.state().grid().clone();
    let (start, goal) = harness.state().endpoints();
    let options = PraOptions { k: Some(2), ..PraOptions::default() };
    let result = Pyramid::build(&grid, MoveRules::MOVINGAI).query(
        &grid,
        start,
        goal,
        options,
        &mut SearchSpace::new(),
        &mut NoTrace,
    );
    assert!(!result.complete);
    let (cost, cells) = result.path.unwrap();
    harness
        .get_by_label_contains(&format!("PRA*(k) returns the first {} cells of the way (cost {cost:.3})", cells.len()));
    assert!(harness.query_by_label_contains("The plan is complete").is_none());
    // Every step is narrated (the virtual node PRA*(k) aims at below its plan level once crashed
    // the page), and a search reaching the kept region says so rather than naming a cell.
    let len = harness.state().plan_player().unwrap().len();
    let mut reached = 0;
    for step in 0..len {
        harness.state_mut().apply(GridCommand::Replay(ReplayCommand::Seek(step)));
        harness.step();
        reached +=
            usize::from(harness.query_by_label_contains("the search reaches the region kept one level up").is_some());
    }
    assert!(reached > 0, "a search below the plan level reaches the kept region");
}

/// Start = goal: both planners' paths and A*'s cost nothing, so nothing is over the optimum and
/// no cost reads "-0.000" (an empty sum of floats is -0.0).
#[test]
fn a_query_from_a_cell_to_itself_costs_nothing_and_is_not_below_the_optimum() {
    for spec in ["hpa:cluster=10", "pra"] {
        let text = format!(
            "version = 1\nlab = \"hierarchical\"\nmap = {{ bundled = \"rooms128.map\" }}\nspec = \"{spec}\"\n\
             compare = \"astar:octile\"\nstart = [1, 1]\ngoal = [1, 1]\nreplay = \"planner\""
        );
        let mut harness = lab_harness();
        harness.state_mut().set_scene(&Scene::from_toml(&text).unwrap()).unwrap();
        settle(&mut harness);
        let summary = harness.state().hierarchy().unwrap();
        assert_eq!((summary.cost, summary.suboptimality()), (Some(0.0), Some(0.0)), "{spec}");
        assert!(summary.cost.unwrap().is_sign_positive(), "{spec}: +0.0");
        assert!(
            harness.query_by_label_contains("-0.000").is_none() && harness.query_by_label_contains("-100").is_none(),
            "{spec}"
        );
        harness.get_by_label_contains("a path of cost 0.000 through 1 cell is returned");
    }
}

#[test]
fn polygon_lab_shows_a_scene_and_reads_it_back() {
    let scene = Scene::from_toml(
        r#"
version = 1
lab = "polygon"
map = { bundled = "narrow_corridor.json" }
spec = "tra:radius=0.5"
start = [2, 10]
goal = [28, 10]
step = "path-found"
"#,
    )
    .unwrap();
    let mut harness = common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new());
    common::ui::settle(&mut harness);
    harness.state_mut().set_scene(&scene).unwrap();
    common::ui::settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    let events = &lab.player().trace().events;
    let found = events.iter().position(|e| matches!(e, SearchEvent::Found { .. })).expect("a path");
    assert_eq!(lab.player().step(), found + 1);
    assert_eq!(Scene { step: scene.step, ..lab.scene() }, scene);
    assert!(is_on(&harness, "TRA*"));
    assert!(!is_on(&harness, "TA*"));
}

#[test]
fn game_tree_lab_shows_a_scene_and_reads_it_back() {
    let scene = Scene::from_toml(
        "version = 1\nlab = \"game-tree\"\nspec = \"negamax:3\"\nposition = \"x.o/.x./..o\"\nstep = \"cutoff\"",
    )
    .unwrap();
    let mut harness = tree_lab::lab_harness();
    harness.state_mut().set_scene(&scene).unwrap();
    tree_lab::settle(&mut harness);
    // Negamax prunes nothing: the page says the scene's moment is not in this replay.
    assert_eq!(harness.state().error(), Some("this replay has no 'cutoff' moment"));
    let alphabeta = Scene::from_toml(
        "version = 1\nlab = \"game-tree\"\nspec = \"alphabeta:4\"\nposition = \"x.o/.x./..o\"\nstep = 7",
    )
    .unwrap();
    harness.state_mut().set_scene(&alphabeta).unwrap();
    tree_lab::settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().scene(), alphabeta);
    assert!(is_on(&harness, "Alpha-beta"));
    assert!(harness.state_mut().set_scene(&Scene { tree: Some("(1 (2 3))".to_string()), ..alphabeta }).is_err());
}

#[test]
fn barca_page_takes_the_position_and_the_computer_player() {
    let fen = "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 b";
    let scene =
        Scene::from_toml(&format!("version = 1\nlab = \"barca\"\nspec = \"uct:easy\"\nposition = \"{fen}\"")).unwrap();
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, lab: &mut BarcaLab| lab.ui(ui), BarcaLab::new());
    harness.run();
    harness.state_mut().set_scene(&scene).unwrap();
    harness.run();
    assert_eq!(harness.state().scene(), scene);
    harness.get_by_label("Black to move");
    assert!(is_on(&harness, "UCT (Monte Carlo tree search)"));
    // The page's rule is the scene's: such a scene is refused as it is read, at its spec line.
    let error = Scene::from_toml("version = 1\nlab = \"barca\"\nspec = \"alphabeta:3\"").unwrap_err();
    assert_eq!(error, "scene line 3: the computer plays easy, medium, hard or uct:LEVEL, not 'alphabeta:3'");
}

#[test]
fn tuning_page_reads_its_log_from_a_scene() {
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, lab: &mut TuningLab| lab.ui(ui), TuningLab::new());
    harness.run();
    let bundled = harness.state().scene();
    let log = harness.state().log().unwrap().clone();
    let inline = Scene { map: Some(searchlab::scene::MapSource::Inline(log.to_json())), ..bundled.clone() };
    harness.state_mut().set_scene(&inline).unwrap();
    harness.run();
    assert_eq!(harness.state().log(), Some(&log));
    harness.state_mut().set_scene(&bundled).unwrap();
    assert_eq!(harness.state().scene(), bundled);
    let missing = Scene { map: Some(searchlab::scene::MapSource::Path("no/such/log.json".to_string())), ..bundled };
    assert!(harness.state_mut().set_scene(&missing).unwrap_err().contains("no/such/log.json"));
}

#[test]
fn a_scene_from_another_map_file_names_that_file_and_its_scenarios_in_the_lab() {
    let scene = Scene::from_toml("version = 1\nlab = \"grid\"\nmap = { bundled = \"rooms128.map\" }\nspec = \"astar\"\nstart = [1, 1]\ngoal = [120, 120]\n").unwrap();
    let mut harness = lab_harness();
    assert!(harness.state().settings().map_path.ends_with("maze64.map"), "the lab opens on maze64");
    harness.state_mut().set_scene(&scene).unwrap();
    settle(&mut harness);
    assert_eq!(harness.state().grid().width(), 128);
    let settings = harness.state().settings();
    assert!(settings.map_path.ends_with("rooms128.map"), "{}", settings.map_path);
    assert!(settings.scen_path.ends_with("rooms128.map.scen"), "{}", settings.scen_path);
    common::ui::click(&mut harness, "Load scenarios");
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().scenarios().len(), 100, "rooms128's own queries load onto it");
}
