//! HPA* and PRA* in the grid lab: chosen, drawn and tabulated against A* through the labelled
//! controls, on the bundled 64x64 maze.

mod common;

use std::collections::HashSet;

use common::grid_lab::{LabHarness, drag_cells, lab_harness, settle};
use common::reference::{movingai_cost, same_cost};
use common::ui::click;
use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::app::grid_lab::GridCommand;
use searchlab::app::grid_lab::{PlannerChoice, millis, recomputed_text};
use searchlab::app::replay_bar::ReplayCommand;
use searchlab::grid::{GridGraph, MoveRules};
use searchlab::pathfinding::SearchSpace;
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::plan_trace::PlanEvent;
use searchlab::pathfinding::plan_trace::PlanStage;
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
use searchlab::pathfinding::search_trace::SearchEvent;
use searchlab::trace::{NO_NODE, NoTrace};

/// The A* replay's path cost (the left search is A* by default).
fn astar_cost(harness: &LabHarness) -> f64 {
    let events = &harness.state().player().trace().events;
    events.iter().find_map(|e| if let SearchEvent::Found { cost, .. } = e { Some(*cost) } else { None }).unwrap()
}

/// The optimal cost of the lab's query on the map shown, by the independent solver.
fn reference_cost(harness: &LabHarness) -> f64 {
    let (grid, (start, goal)) = (harness.state().grid(), harness.state().endpoints());
    movingai_cost(grid, grid.coords(start), grid.coords(goal)).expect("the query has a path")
}

/// Vertices of every mesh drawn in the last frame (HPA*'s borders, entrances and graph are meshes).
fn mesh_vertices(harness: &LabHarness) -> usize {
    harness
        .output()
        .shapes
        .iter()
        .map(|clipped| if let egui::Shape::Mesh(mesh) = &clipped.shape { mesh.vertices.len() } else { 0 })
        .sum()
}

fn select(harness: &mut LabHarness, label: &str) {
    click(harness, label);
    settle(harness);
}

#[test]
fn hpa_beside_astar_tabulates_expansions_per_level_and_suboptimality() {
    let mut harness = lab_harness();
    assert_eq!(harness.state().hierarchy(), None, "no planner until one is picked");
    select(&mut harness, "HPA*");
    let summary = harness.state().hierarchy().expect("planned with the A* search");
    assert_eq!(summary.planner, PlannerChoice::Hpa);
    assert_eq!(summary.astar_cost, Some(astar_cost(&harness)), "the A* column is the replayed query");
    let (cost, optimal) = (summary.cost.unwrap(), summary.astar_cost.unwrap());
    assert!(same_cost(optimal, reference_cost(&harness)), "the A* column is optimal");
    assert!(cost >= optimal - 1e-9 && cost <= optimal * 1.1, "{cost} vs {optimal}");
    // Level 1 (the abstract search) did the work; the grid none, as start and goal lie in
    // different clusters: linking looks up cached distances and refinement walks them.
    assert_eq!(summary.expanded_per_level.len(), 2);
    assert!(
        summary.expanded_per_level[1] > 0 && summary.expanded_per_level[0] == 0,
        "{:?}",
        summary.expanded_per_level
    );
    for label in [
        "HPA* (hierarchical)",
        "A* (flat)",
        "Pre-processing",
        "Query time",
        "Expanded on the grid",
        "Expanded on level 1",
        "Path cost",
        "Suboptimality",
    ] {
        harness.get_by_label(label);
    }
    harness.get_by_label(&format!("{:.2} %", summary.suboptimality().unwrap()));
    harness.get(By::new().label_contains("(built)"));
    assert!(harness.query_by_label("Expanded on level 2").is_none());

    select(&mut harness, "2 levels");
    let two = harness.state().hierarchy().unwrap();
    assert_eq!(two.expanded_per_level.len(), 3);
    harness.get_by_label("Expanded on level 2");
    assert!(two.expanded_per_level[2] > 0, "the top search runs on level 2");
}

/// The number in a time as the page shows it ("4.14 ms").
fn shown_millis(text: &str) -> f64 {
    text.trim_end_matches(" ms").parse().unwrap()
}

#[test]
fn the_a_star_query_time_is_the_statistics_lines_and_the_speed_up_their_ratio() {
    let mut harness = lab_harness();
    for planner in ["HPA*", "PRA*"] {
        select(&mut harness, planner);
        let summary = harness.state().hierarchy().unwrap();
        let replay = &harness.state().replays()[0];
        // The page's search is A* on the same query: one measurement, shown twice.
        assert_eq!(summary.astar_time, replay.time, "{planner}");
        let (ours, astar) = (millis(summary.query_time), millis(summary.astar_time));
        harness.get_by_label(&ours);
        harness.get_all_by_label(&astar).next().expect("the A* column");
        harness.get_by_label_contains(&format!("{} pushed, {astar} without recording", replay.result.pushed));
        let speedup = summary.speedup_text();
        harness.get_by_label(&speedup);
        let ratio = shown_millis(&astar) / shown_millis(&ours);
        if speedup == "as fast" {
            // Within 5% either way of the times as measured; the shown ones are rounded.
            assert!((0.94..1.06).contains(&ratio), "{speedup} vs {astar} / {ours}");
            continue;
        }
        let (shown, slower) = match speedup.split_once("× ") {
            Some((number, "faster")) => (number.parse::<f64>().unwrap(), false),
            Some((number, "slower")) => (number.parse::<f64>().unwrap(), true),
            _ => panic!("{speedup}"),
        };
        let expected = if slower { 1.0 / ratio } else { ratio };
        // Three significant digits a time, one decimal the speed-up.
        assert!((shown - expected).abs() <= 0.05 + 0.002 * expected, "{speedup} vs {astar} / {ours}");
    }
}

#[test]
fn layer_checkboxes_switch_what_is_drawn() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    let grid = harness.state().grid().clone();
    // Each drawn segment or entrance square is one quad of 4 vertices; the whole map is in view.
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
    let undirected_edges = hpa.abstract_edges(1).filter(|e| e.0 < e.1).count();
    let before = mesh_vertices(&harness);
    assert!(!harness.state().settings().hierarchy.layers.graph, "the graph starts hidden");
    click(&mut harness, "Abstract graph");
    assert!(harness.state().settings().hierarchy.layers.graph);
    assert_eq!(mesh_vertices(&harness) - before, 4 * undirected_edges);
    // Six inner borders each way on a 64-cell map in clusters of 10.
    let before = mesh_vertices(&harness);
    click(&mut harness, "Cluster borders");
    assert_eq!(before - mesh_vertices(&harness), 4 * 12);
    let before = mesh_vertices(&harness);
    click(&mut harness, "Entrances (transitions)");
    assert_eq!(before - mesh_vertices(&harness), 4 * 2 * hpa.transitions(1).count());
}

#[test]
fn a_wall_edit_recomputes_the_clusters_around_it() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    let before = harness.state().grid().clone();
    let (_, path) = harness
        .state()
        .player()
        .trace()
        .events
        .iter()
        .find_map(|e| match e {
            SearchEvent::Found { cost, path } => Some((*cost, path.clone())),
            _ => None,
        })
        .unwrap();
    click(&mut harness, "Wall");
    let (a, b) = (path[path.len() / 2], path[path.len() / 2 + 1]);
    drag_cells(&mut harness, a, b);
    settle(&mut harness);
    let lab = harness.state();
    let walled: Vec<u32> = (0..before.cell_count() as u32)
        .filter(|&c| before.is_cell_passable(c) && !lab.grid().is_cell_passable(c))
        .collect();
    assert!(!walled.is_empty() && walled.len() <= 2, "{walled:?}");
    // Each edited cell's 10x10 cluster and its four neighbours on the 7x7 cluster grid.
    let mut expected = HashSet::new();
    for &cell in &walled {
        let (x, y) = before.coords(cell);
        let (cx, cy) = ((x / 10) as i32, (y / 10) as i32);
        for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            if (0..7).contains(&(cx + dx)) && (0..7).contains(&(cy + dy)) {
                expected.insert((cx + dx, cy + dy));
            }
        }
    }
    let summary = lab.hierarchy().unwrap();
    assert_eq!(summary.recomputed, Some(vec![expected.len()]));
    harness.get_by_label(&recomputed_text(&[expected.len()]));
    harness.get(By::new().label_contains("(updated)"));
    assert_eq!(summary.astar_cost, Some(astar_cost(&harness)), "both re-planned around the wall");
    assert!(same_cost(summary.astar_cost.unwrap(), reference_cost(&harness)), "optimal around the wall");
    assert!(summary.cost.unwrap() >= summary.astar_cost.unwrap() - 1e-9);
}

/// Whether the last frame drew the PRA* region texture over the map.
fn regions_drawn(harness: &LabHarness) -> bool {
    texture_draws(harness, "pra-regions") > 0
}

#[test]
fn pra_level_slider_recolours_the_regions() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    assert_eq!(harness.state().hierarchy().unwrap().planner, PlannerChoice::Pra);
    let grid = harness.state().grid().clone();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let regions =
        |level| pyramid.region_map(&grid, level).into_iter().filter(|&r| r != NO_NODE).collect::<HashSet<u32>>().len();
    assert!(regions_drawn(&harness));
    assert_eq!(harness.state().region_count(), regions(1));
    harness.get(By::new().role(egui::Role::Slider).label("Level shown")).set_value_accesskit(4.0);
    harness.run();
    assert_eq!(harness.state().settings().hierarchy.shown_level, 4);
    assert!(regions_drawn(&harness));
    assert_eq!(harness.state().region_count(), regions(4));
    assert!(regions(4) * 8 < regions(1), "each level groups up to 4 nodes");
    click(&mut harness, "Abstract regions");
    assert!(!regions_drawn(&harness), "the checkbox hides the layer");
    harness.get(By::new().label_contains("PRA* planned on level 1: level 4 shows regions only"));
}

/// How many times the last frame drew the texture `name` over a map.
fn texture_draws(harness: &LabHarness, name: &str) -> usize {
    let textures = harness.ctx.tex_manager();
    let textures = textures.read();
    harness
        .output()
        .shapes
        .iter()
        .filter(|clipped| match &clipped.shape {
            egui::Shape::Mesh(mesh) => textures.meta(mesh.texture_id).is_some_and(|meta| meta.name == name),
            _ => false,
        })
        .count()
}

/// The planner's (level, corridor level, step) at the current step.
fn plan_state(harness: &LabHarness) -> (usize, Option<usize>, usize) {
    let player = harness.state().plan_player().expect("stepping through the planner");
    (player.view().level, player.view().corridor.as_ref().map(|(level, _)| *level), player.step())
}

#[test]
fn stepping_through_pra_walks_down_the_levels_and_back() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    click(&mut harness, "End >|");
    let search_end = harness.state().player().len();
    assert_eq!(harness.state().player().step(), search_end);
    // Below the open list's rows at the end of the search: scrolled to, as a user would.
    harness.get_by_label("the planner").scroll_to_me();
    harness.run();
    click(&mut harness, "the planner");
    assert_eq!(harness.state().player().step(), 0, "the flat search waits at its start");
    assert_eq!(plan_state(&harness), (0, None, 0));
    harness.get(By::new().label_contains("Stepping through PRA*: step 0 /"));
    let grid = harness.state().grid().clone();
    let (start, goal) = harness.state().endpoints();
    let top = Pyramid::build(&grid, MoveRules::MOVINGAI).default_level(&grid, start, goal, None);

    // The straight line first, on the grid, and where it stopped.
    click(&mut harness, "Step >");
    assert_eq!(plan_state(&harness), (0, None, 1));
    harness.get(By::new().label_contains("level 0: try the straight line"));
    click(&mut harness, "Step >");
    harness.get(By::new().label_contains("The straight line is blocked by"));
    click(&mut harness, "Step >");
    assert_eq!(plan_state(&harness), (top, None, 3), "the abstract search starts on the planning level");
    harness.get(By::new().label_contains(&format!("level {top}: abstract search")));
    // Through the abstract search until the corridor of the level below appears.
    let mut steps = 3;
    while plan_state(&harness).1.is_none() {
        click(&mut harness, "Step >");
        steps += 1;
        assert!(steps < 2000, "no corridor after {steps} steps");
    }
    // The refinement's stage comes first, so the corridor is drawn on its level as it is told.
    assert_eq!(plan_state(&harness), (top - 1, Some(top - 1), steps), "the corridor under the abstract path");
    assert_eq!(texture_draws(&harness, "pra-corridor"), 1);
    harness.get(By::new().label_contains(&format!("level {}: refine", top - 1)));

    click(&mut harness, "< Step back");
    assert_eq!(plan_state(&harness), (top - 1, None, steps - 1), "refining one level down, no corridor yet");
    click(&mut harness, "< Step back");
    assert_eq!(plan_state(&harness), (top, None, steps - 2), "back in the abstract search");
    click(&mut harness, "End >|");
    let player = harness.state().plan_player().unwrap();
    assert_eq!(player.view().level, 0, "the last stage refines on the grid");
    let summary = harness.state().hierarchy().unwrap();
    let last = player.view().found.last().unwrap();
    let cost: f64 =
        searchlab::graph::path_cost(&searchlab::grid::GridGraph::new(&grid, MoveRules::MOVINGAI), &last.1).unwrap();
    assert!((cost - summary.cost.unwrap()).abs() < 1e-9, "the replay ends on the planned path");

    click(&mut harness, "the search");
    assert!(harness.state().plan_player().is_none());
    assert_eq!(harness.state().player().step(), search_end, "the search is back where it was");
}

#[test]
fn stepping_through_hpa_goes_from_linking_to_the_refined_path() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    click(&mut harness, "the planner");
    // The straight line first, blocked on the lab's maze; then linking.
    click(&mut harness, "Step >");
    let view = harness.state().plan_player().unwrap().view();
    assert_eq!((view.level, view.stage), (0, Some(PlanStage::StraightLine)));
    click(&mut harness, "Step >");
    assert!(harness.state().plan_player().unwrap().view().line_stop.is_some());
    click(&mut harness, "Step >");
    let view = harness.state().plan_player().unwrap().view();
    assert_eq!((view.level, view.stage), (0, Some(PlanStage::LinkStart)));
    click(&mut harness, "End >|");
    let view = harness.state().plan_player().unwrap().view();
    let summary = harness.state().hierarchy().unwrap();
    // The abstract path (level 1), each refined segment, and the final path, in that order.
    assert_eq!(view.found.first().unwrap().0, 1);
    assert!(view.found.iter().filter(|(level, _)| *level == 0).count() >= 2, "segments and the final path");
    let grid = harness.state().grid().clone();
    let graph = searchlab::grid::GridGraph::new(&grid, MoveRules::MOVINGAI);
    let cost = searchlab::graph::path_cost(&graph, &view.found.last().unwrap().1).unwrap();
    assert!((cost - summary.cost.unwrap()).abs() < 1e-9);
    harness.get_by_label("return the path");
}

/// HPA*'s refinement finds no goal: each path found then is an abstract step's piece of the grid
/// path, said as such; the last step gives the smoothed path's cost and the refined one's before
/// it, as the library's HPA* returns them.
#[test]
fn stepping_through_hpa_narrates_refined_pieces_and_the_smoothed_path() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    click(&mut harness, "the planner");
    let events = harness.state().plan_player().unwrap().trace().events.clone();
    let grid = harness.state().grid().clone();
    let cell = |c: u32| format!("({},{})", grid.coords(c).0, grid.coords(c).1);
    // After the straight line (its stage and where it stopped), linking on level 1 reads the
    // cached distances: no open list, no parent.
    let PlanEvent::Search(SearchEvent::Open { node, g, .. }) = &events[3] else {
        panic!("the start's first link: {:?}", events[3])
    };
    harness.state_mut().apply(GridCommand::Replay(ReplayCommand::Seek(4)));
    harness.run();
    harness.get_by_label_contains(&format!(
        "Level 1: the start reaches entrance {} at cost {g:.3}, a distance cached inside its cluster.",
        cell(*node)
    ));
    assert!(harness.query(By::new().label_contains("goes on the open list")).is_none());
    let refine =
        events.iter().position(|e| matches!(e, PlanEvent::Stage { stage: PlanStage::RefineEdges, .. })).unwrap();
    let piece = refine
        + events[refine..].iter().position(|e| matches!(e, PlanEvent::Search(SearchEvent::Found { .. }))).unwrap();
    let PlanEvent::Search(SearchEvent::Found { cost, path }) = &events[piece] else { unreachable!() };
    harness.state_mut().apply(GridCommand::Replay(ReplayCommand::Seek(piece + 1)));
    harness.run();
    let piece_text = format!(
        "abstract step from {} to {} becomes its grid path inside the cluster: {} cells, cost {cost:.3}",
        cell(path[0]),
        cell(*path.last().unwrap()),
        path.len()
    );
    harness.get(By::new().label_contains(&piece_text));
    assert!(harness.query(By::new().label_contains("is reached")).is_none(), "no goal is reached by a piece");

    let (start, goal) = harness.state().endpoints();
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, harness.state().settings().hierarchy.cluster);
    let result = hpa.query(&grid, start, goal, HpaQuery { smooth: true }, &mut SearchSpace::new(), &mut NoTrace);
    let (smoothed, cells) = result.path.unwrap();
    click(&mut harness, "End >|");
    let end_text = format!(
        "The plan is complete: a path of cost {smoothed:.3} through {} cells (the refined path cost {:.3} before smoothing) is returned.",
        cells.len(),
        result.unsmoothed_cost.unwrap()
    );
    harness.get(By::new().label_contains(&end_text));
}

/// Polylines drawn in `colour` in the last frame, as their points.
fn lines_in(harness: &LabHarness, colour: egui::Color32) -> Vec<Vec<egui::Pos2>> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Path(path) if path.stroke.color == egui::epaint::ColorMode::Solid(colour) => {
                Some(path.points.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn stepping_through_hpa_shows_the_planners_figures_and_ends_on_the_returned_path() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    click(&mut harness, "the planner");
    let len = harness.state().plan_player().unwrap().len();
    for _ in 0..40 {
        harness.get_by_label("Step >").click();
        harness.run();
    }
    let player = harness.state().plan_player().unwrap();
    assert_eq!(player.step(), 40);
    // Statistics follow the planner on the timeline, not the flat search waiting at its start.
    harness.get_by_label(&format!("Planner step 40 / {len}"));
    harness.get_by_label(&format!("Expanded in this stage: {}", player.view().search.expanded));
    assert!(harness.query_by_label(&format!("Step 0 / {}", harness.state().player().len())).is_none());

    click(&mut harness, "End >|");
    // The label names what the highlighted line does, and the returned path is drawn as the final path.
    harness.get(By::new().label_contains(&format!("step {len} / {len}, level 0: return the path")));
    harness.get_by_label("Level 0: the path is returned");
    let path = harness.state().plan_player().unwrap().view().found.last().unwrap().1.clone();
    let drawn = lines_in(&harness, searchlab::app::theme::Theme::default().palette().smoothed);
    let centres: Vec<egui::Pos2> = path.iter().map(|&c| harness.state().cell_on_screen(c).unwrap()).collect();
    assert!(drawn.contains(&centres), "the returned path is drawn in the final path's colour");
    click(&mut harness, "< Step back");
    assert!(
        lines_in(&harness, searchlab::app::theme::Theme::default().palette().smoothed).is_empty(),
        "only once it is returned"
    );
}

#[test]
fn pra_plan_level_and_k_reach_the_planner() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    harness.get(By::new().role(egui::Role::Slider).label("Plan level L")).set_value_accesskit(2.0);
    settle(&mut harness);
    assert_eq!(harness.state().settings().hierarchy.pra_level, Some(2));
    let summary = harness.state().hierarchy().unwrap();
    assert_eq!(summary.expanded_per_level.len(), 3, "planned on level 2, refined on 1 and 0");
    assert!(summary.complete);

    click(&mut harness, "PRA*(k): refine only the first k steps");
    settle(&mut harness);
    harness.get(By::new().role(egui::Role::Slider).label("k")).set_value_accesskit(2.0);
    settle(&mut harness);
    assert_eq!(harness.state().settings().hierarchy.pra_k, Some(2));
    let grid = harness.state().grid().clone();
    let (start, goal) = harness.state().endpoints();
    let expected = Pyramid::build(&grid, MoveRules::MOVINGAI).query(
        &grid,
        start,
        goal,
        PraOptions { level: Some(2), k: Some(2), ..PraOptions::default() },
        &mut SearchSpace::new(),
        &mut NoTrace,
    );
    assert!(!expected.complete, "two steps per level do not reach the far goal");
    let summary = harness.state().hierarchy().unwrap();
    assert!(!summary.complete);
    assert_eq!(summary.cost, expected.path.map(|p| p.0));
    assert_eq!(summary.suboptimality(), None, "a partial path has no suboptimality");
    harness.get_by_label("no: first steps");
    // The first steps are no path A* also found: no "faster", only how much sooner they came.
    harness.get_by_label("Time to the first steps");
    assert!(harness.query_by_label("Speed-up").is_none());
    let shown = summary.speedup_text();
    assert!(shown.ends_with(" sooner") || shown.ends_with(" later") || shown == "as soon", "{shown}");
    assert!(!shown.contains("faster"), "{shown}");
    harness.get_by_label("First steps vs A*'s path");
    harness.get_by_label(&shown);

    click(&mut harness, "Default level");
    settle(&mut harness);
    assert_eq!(harness.state().settings().hierarchy.pra_level, None);

    // PRA*(k) takes no rings: the width waits, disabled, until whole paths are planned again.
    let width = || By::new().role(egui::Role::Slider).label("Corridor width W");
    assert!(harness.get(width()).accesskit_node().is_disabled());
    click(&mut harness, "PRA*(k): refine only the first k steps");
    settle(&mut harness);
    harness.get(width()).set_value_accesskit(2.0);
    settle(&mut harness);
    assert_eq!(harness.state().settings().hierarchy.pra_width, 2);
    assert_eq!(harness.state().scene().spec.unwrap().to_string(), "pra:width=2");
}

#[test]
fn side_by_side_draws_the_layers_on_both_canvases() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    assert_eq!(texture_draws(&harness, "pra-regions"), 1);
    click(&mut harness, "Compare side by side");
    settle(&mut harness);
    assert_eq!(harness.state().replays().len(), 2);
    assert_eq!(texture_draws(&harness, "pra-regions"), 2, "one per canvas");
    harness.get_by_label("none (reused)");
}

/// The planner's table beside A*'s stays inside the window at 1280x720 in the app (its lesson
/// list beside the page), at 100 % and a projector's 130 % text, PRA*(k)'s and HPA*'s longest
/// values included: the A* column was pushed out of the side panel.
#[test]
fn the_planner_table_keeps_its_a_star_column_in_the_window() {
    for scale in [1.0, 1.2, 1.3] {
        let mut harness = common::ui::app_on("Grid search", [1280.0, 720.0], scale);
        // The harness counts in points: 1280x720 pixels at the text scale.
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0) / scale);
        let in_window = |harness: &mut egui_kittest::Harness<'_, searchlab::app::SearchlabApp>, label: &str| {
            let node = harness.get_by_label(label);
            node.scroll_to_me();
            harness.run();
            let rect = harness.get_by_label(label).rect();
            assert!(window.contains_rect(rect), "'{label}' {rect:?} is off the window at {scale}x text");
        };
        click(&mut harness, "HPA*");
        common::ui::wait_until(&mut harness, |app| !app.is_busy());
        harness.run();
        in_window(&mut harness, "A* (flat)");
        click(&mut harness, "PRA*");
        common::ui::wait_until(&mut harness, |app| !app.is_busy());
        harness.run();
        click(&mut harness, "PRA*(k): refine only the first k steps");
        common::ui::wait_until(&mut harness, |app| !app.is_busy());
        harness.run();
        for label in ["A* (flat)", "no: first steps"] {
            in_window(&mut harness, label);
        }
    }
}

#[test]
fn pra_plans_a_near_goal_on_the_grid_and_says_so() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    let grid = harness.state().grid().clone();
    let (start, _) = harness.state().endpoints();
    let (x, y) = grid.coords(start);
    // The nearest free cell a few steps away: far closer than PRA*'s short-query bound, round a
    // wall (a free straight line is taken without a search).
    let line_blocked = |c: u32| GridGraph::new(&grid, MoveRules::MOVINGAI).straight_path(start, c).is_err();
    let near = (0..grid.cell_count() as u32)
        .filter(|&c| grid.is_cell_passable(c) && c != start && line_blocked(c))
        .min_by_key(|&c| {
            let (cx, cy) = grid.coords(c);
            (cx.abs_diff(x) + cy.abs_diff(y)).abs_diff(6)
        })
        .unwrap();
    harness.state_mut().apply(GridCommand::SetGoal(near));
    settle(&mut harness);
    let summary = harness.state().hierarchy().unwrap();
    let astar =
        searchlab::pathfinding::GridSearch::default().run(&grid, start, near, &mut SearchSpace::new(), &mut NoTrace);
    assert_eq!(summary.expanded_per_level, vec![astar.expanded], "plain A* on the grid");
    harness.get_by_label("0 (the grid)");
    let slider = harness.get(By::new().role(egui::Role::Slider).label("Plan level L"));
    assert_eq!(slider.accesskit_node().numeric_value(), Some(0.0), "the slider shows the level planned on");

    // The straight line first, and what stopped it.
    step_to_the_straight_line_verdict(&mut harness);
    harness.get(By::new().label_contains("The straight line is blocked by"));
    click(&mut harness, "Step >");
    assert_eq!(plan_state(&harness), (0, None, 3));
    harness.get(By::new().label_contains("Planning on level 0, the grid: plain A*"));
}

#[test]
fn a_pra_plan_shows_the_grid_corridor_on_level_0_without_stepping() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    let summary = harness.state().hierarchy().unwrap();
    assert_eq!(summary.expanded_per_level.len(), 2, "the lab's query plans on level 1");
    assert_eq!(texture_draws(&harness, "pra-corridor"), 0, "level 1 was searched whole");
    harness.get(
        By::new()
            .label_contains("Level 1: the abstract search ran here, on the whole level; level 0 shows the corridor"),
    );
    harness.get(By::new().role(egui::Role::Slider).label("Level shown")).set_value_accesskit(0.0);
    harness.run();
    assert_eq!(harness.state().settings().hierarchy.shown_level, 0);
    assert_eq!(texture_draws(&harness, "pra-corridor"), 1, "the grid's corridor under level 1's path");
    harness.get(By::new().label_contains("Level 0: refined inside the corridor under level 1's path"));
    click(&mut harness, "Corridor (darkened outside)");
    assert_eq!(texture_draws(&harness, "pra-corridor"), 0, "the checkbox hides the layer");
}

#[test]
fn pra_on_a_map_where_no_two_cells_join_draws_without_a_level_above_the_grid() {
    // A chequerboard: under the MovingAI rule no cell reaches another, so nothing groups.
    let rows: Vec<String> =
        (0..6).map(|y| (0..6).map(|x| if (x + y) % 2 == 0 { '.' } else { '@' }).collect()).collect();
    let scratch = common::scratch::ScratchDir::new("chequer");
    let map = scratch.write("chequer.map", format!("type octile\nheight 6\nwidth 6\nmap\n{}\n", rows.join("\n")));
    let grid = searchlab::grid::movingai::load_map(&map).unwrap();
    assert_eq!(Pyramid::build(&grid, MoveRules::MOVINGAI).height(), 1, "the grid alone");
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    harness.state_mut().apply(GridCommand::LoadMap(map.display().to_string()));
    settle(&mut harness);
    assert_eq!(harness.state().grid().width(), 6);
    assert_eq!(harness.state().error(), None);
    assert!(regions_drawn(&harness), "each cell its own region");
    harness.get(By::new().label_contains("Planned on level"));
    select(&mut harness, "HPA*");
    assert_eq!(harness.state().error(), None);
    harness.get(By::new().label_contains("Abstract search"));
}

/// Steps through the planner's replay past the straight line it tries first, to the event that
/// says whether the line was free.
fn step_to_the_straight_line_verdict(harness: &mut LabHarness) {
    harness.get_by_label("the planner").scroll_to_me();
    harness.run();
    click(harness, "the planner");
    click(harness, "Step >");
    harness.get(By::new().label_contains("First the straight line from the start to the goal"));
    click(harness, "Step >");
}

#[test]
fn a_free_straight_line_is_the_whole_plan_and_the_lesson_says_why() {
    for planner in ["HPA*", "PRA*"] {
        let mut harness = lab_harness();
        select(&mut harness, planner);
        let grid = harness.state().grid().clone();
        let (start, _) = harness.state().endpoints();
        // The farthest cell the straight line reaches from the start.
        let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);
        let (goal, (cost, line)) = (0..grid.cell_count() as u32)
            .filter(|&c| grid.is_cell_passable(c) && c != start)
            .filter_map(|c| graph.straight_path(start, c).ok().map(|found| (c, found)))
            .max_by_key(|(_, (_, path))| path.len())
            .expect("the start has a free neighbour");
        assert!(line.len() >= 3, "{planner}: a line of {} cells", line.len());
        harness.state_mut().apply(GridCommand::SetGoal(goal));
        settle(&mut harness);
        let summary = harness.state().hierarchy().unwrap();
        assert!(
            summary.expanded_per_level.iter().all(|&n| n == 0),
            "{planner}: no search, {:?}",
            summary.expanded_per_level
        );
        let (x, y) = (grid.coords(start), grid.coords(goal));
        assert!(same_cost(cost, movingai_cost(&grid, x, y).unwrap()), "{planner}: the line is a cheapest path");
        harness.get_by_label("free: no planning");
        step_to_the_straight_line_verdict(&mut harness);
        harness.get(By::new().label_contains(&format!(
            "so a path of cost {cost:.3} through {} cells is returned without planning",
            line.len()
        )));
    }
}
