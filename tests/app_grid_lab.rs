//! The grid lab driven through its labelled controls, as a student would. Searches are recorded on
//! a worker thread, so tests poll the harness (a bounded number of frames) until the result is in.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use searchlab::app::{GridLab, Lesson, SearchlabApp};
use searchlab::grid::movingai;
use searchlab::pathfinding::search_trace::{SearchEvent, SearchOutcome};

mod common;
use common::grid_lab::{LabHarness, drag_cells, lab_harness, settle};
use common::reference::{movingai_cost, same_cost};
use common::scratch::ScratchDir;
use common::ui::{Memory, click, type_into};

fn step_label(harness: &LabHarness) -> String {
    let lab = harness.state();
    format!("Step {} / {}", lab.player().step(), lab.player().len())
}

fn found_path(lab: &GridLab) -> Option<(f64, Vec<u32>)> {
    lab.player().trace().events.iter().find_map(|e| match e {
        SearchEvent::Found { cost, path } => Some((*cost, path.clone())),
        _ => None,
    })
}

#[test]
fn opens_on_the_bundled_map_with_a_recorded_search() {
    let harness = lab_harness();
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().grid().width(), 64);
    assert!(harness.state().player().len() > 100);
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label("No result yet at this step");
    harness.get_by_label("Map canvas");
}

#[test]
fn step_forward_back_and_scrub_change_the_stats() {
    let mut harness = lab_harness();
    click(&mut harness, "Step >");
    click(&mut harness, "Step >");
    assert_eq!(harness.state().player().step(), 2);
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label("Expanded: 1");
    click(&mut harness, "< Step back");
    assert_eq!(harness.state().player().step(), 1);
    harness.get_by_label("Expanded: 0");

    let len = harness.state().player().len();
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit((len / 2) as f64);
    harness.run();
    assert_eq!(harness.state().player().step(), len / 2, "the timeline jumps to the middle");
    let expanded = harness.state().player().view().expanded;
    assert!(expanded > 10);
    harness.get_by_label(&format!("Expanded: {expanded}"));
    harness.get_by_label("No result yet at this step");

    click(&mut harness, "End >|");
    assert!(harness.state().player().at_end());
    harness.get_by_label_contains("Path found: cost");
    click(&mut harness, "|< Start");
    assert_eq!(harness.state().player().step(), 0);
    harness.get_by_label("No result yet at this step");
}

#[test]
fn keys_step_the_replay() {
    let mut harness = lab_harness();
    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    assert_eq!(harness.state().player().step(), 2);
    harness.key_press(egui::Key::End);
    harness.run();
    assert!(harness.state().player().at_end());
}

/// Presses that arrive within one frame (a slow frame, a fast typist) all count, in order.
#[test]
fn key_presses_within_one_frame_all_count_in_order() {
    let mut harness = lab_harness();
    harness.key_press(egui::Key::End);
    harness.key_press(egui::Key::Home);
    for _ in 0..5 {
        harness.key_press(egui::Key::ArrowRight);
    }
    harness.run();
    assert_eq!(harness.state().player().step(), 5);
}

#[test]
fn choosing_dijkstra_records_a_search_without_estimates() {
    let has_estimates = |lab: &GridLab| {
        lab.player().trace().events.iter().any(|e| matches!(e, SearchEvent::Open { h, .. } if *h > 0.0))
    };
    let mut harness = lab_harness();
    assert!(has_estimates(harness.state()), "A* records h for the cells it opens");
    harness.get_by_label("Dijkstra").click();
    settle(&mut harness);
    assert!(!has_estimates(harness.state()), "Dijkstra's recording has h = 0 everywhere");
    assert!(harness.state().player().len() > 100);
}

#[test]
fn a_malformed_map_shows_an_error_and_keeps_the_current_map() {
    let dir = ScratchDir::new("app-bad-map");
    let bad = dir.write("bad.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.x\n");
    let mut harness = lab_harness();
    let before = harness.state().grid().clone();
    type_into(&mut harness, "Map file:", &bad.display().to_string());
    click(&mut harness, "Load map");
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("bad.map:6: unknown terrain 'x' in column 2"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().grid(), &before, "the map on screen is kept");
    assert!(!harness.state().is_busy(), "nothing is searched for a map that failed");
}

#[test]
fn a_map_without_a_free_cell_is_refused_and_the_current_map_kept() {
    let dir = ScratchDir::new("app-wall-map");
    let walls = dir.write("walls.map", "type octile\nheight 2\nwidth 3\nmap\n@@@\nTTT\n");
    let mut harness = lab_harness();
    let before = (harness.state().grid().clone(), harness.state().endpoints());
    type_into(&mut harness, "Map file:", &walls.display().to_string());
    click(&mut harness, "Load map");
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("walls.map: the map has no free cell to search"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(
        (harness.state().grid().clone(), harness.state().endpoints()),
        before,
        "the map and query on screen are kept"
    );
    assert!(!harness.state().is_busy(), "nothing is searched on walls");
}

#[test]
fn a_scenario_query_is_searched_and_matches_its_optimal_length() {
    let mut harness = lab_harness();
    // Loading maze64.map filled in its scenario file.
    assert_eq!(harness.state().settings().scen_path, "maps/maze64.map.scen");
    click(&mut harness, "Load scenarios");
    let scenarios = harness.state().scenarios().to_vec();
    assert!(scenarios.len() > 5);
    harness.get_by_label_contains("queries loaded");
    harness.get_by_label("Query").click();
    harness.run();
    harness.get_by_label_contains("#5: ").click();
    settle(&mut harness);
    let scenario = &scenarios[5];
    let grid = harness.state().grid();
    let expected = (grid.cell(scenario.start.0, scenario.start.1), grid.cell(scenario.goal.0, scenario.goal.1));
    assert_eq!(harness.state().endpoints(), expected);
    let (cost, _) = found_path(harness.state()).expect("the query has a path");
    // The scenario's length is checked by an independent solver (tests/bundled_scen.rs).
    assert!(same_cost(cost, scenario.optimal), "A* found {cost}, the scenario says {}", scenario.optimal);
    harness.get_by_label(&format!("Optimal (scenario): {}", scenario.optimal_text()));
    assert!(
        harness.query_by_label_contains("queries loaded").is_none(),
        "the notice to pick a query goes once one is picked"
    );
}

#[test]
fn scenarios_for_another_map_are_refused_with_a_message() {
    let mut harness = lab_harness();
    type_into(&mut harness, "Scenario file:", "maps/rooms128.map.scen");
    click(&mut harness, "Load scenarios");
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("scenario is for a 128x128 map, but the map is 64x64"), "{error}");
    harness.get_by_label(&error);
    assert!(harness.state().scenarios().is_empty());
    type_into(&mut harness, "Scenario file:", "maps/no-such.scen");
    click(&mut harness, "Load scenarios");
    assert!(harness.state().error().unwrap().contains("cannot read"), "{:?}", harness.state().error());
}

/// MovingAI's wc3maps512 scenario files start a few queries in water, blocked here: the lab keeps
/// the others and says which were left out, rather than refusing the whole file.
#[test]
fn scenarios_from_blocked_cells_are_left_out_and_the_rest_load() {
    let dir = ScratchDir::new("app-water-scen");
    let text = std::fs::read_to_string("maps/maze64.map.scen").unwrap();
    let mut lines: Vec<&str> = text.lines().take(11).collect();
    // maze64's cell (0,0) is a wall.
    lines.insert(3, "0\tmaze64.map\t64\t64\t0\t0\t1\t1\t1.41421356");
    let scen = dir.write("water.scen", lines.join("\n") + "\n");
    let mut harness = lab_harness();
    type_into(&mut harness, "Scenario file:", &scen.display().to_string());
    click(&mut harness, "Load scenarios");
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().scenarios().len(), 10);
    assert!(harness.state().scenarios().iter().all(|s| s.start != (0, 0)));
    let notice = format!(
        "10 queries loaded (1 query left out: {}:4: start (0,0) is a blocked cell (searchlab blocks '@', 'O', 'T' and water 'W')); pick one under Query",
        scen.display()
    );
    harness.get_by_label(&notice);
}

#[test]
fn the_edited_map_is_saved_and_reads_back_the_same() {
    let dir = ScratchDir::new("app-save");
    let file = dir.path("edited.map");
    let mut harness = lab_harness();
    type_into(&mut harness, "Save as:", &file.display().to_string());
    click(&mut harness, "Save map");
    assert_eq!(harness.state().error(), None);
    harness.get_by_label_contains("Saved the 64x64 map to");
    assert_eq!(&movingai::load_map(&file).unwrap(), harness.state().grid());

    type_into(&mut harness, "Save as:", &dir.path("missing-dir/x.map").display().to_string());
    click(&mut harness, "Save map");
    assert!(harness.state().error().unwrap().contains("cannot write"), "{:?}", harness.state().error());
}

#[test]
fn side_by_side_steps_both_searches_in_sync_and_tabulates_them() {
    let mut harness = lab_harness();
    click(&mut harness, "Compare side by side");
    settle(&mut harness);
    let replays = harness.state().replays();
    assert_eq!(replays.len(), 2);
    harness.get_by_label("Right map canvas");
    harness.get_by_label("Total: expanded / pushed");
    harness.get_by_label("Left: A* (octile)");
    harness.get_by_label("Right: Dijkstra");
    let (astar, dijkstra) = (&replays[0].result, &replays[1].result);
    assert!(astar.expanded < dijkstra.expanded, "A* expands fewer cells than Dijkstra");
    let grid = harness.state().grid();
    let (start, goal) = harness.state().endpoints();
    let optimal = movingai_cost(grid, grid.coords(start), grid.coords(goal)).unwrap();
    for result in [astar, dijkstra] {
        assert!(same_cost(result.cost().unwrap(), optimal), "{:?} vs the reference {optimal}", result.cost());
    }
    for result in [astar, dijkstra] {
        harness.get_by_label(&format!("{} / {}", result.expanded, result.pushed));
        assert!(
            harness
                .query_all_by_label(&format!(
                    "{:.3} ({})",
                    result.cost().unwrap(),
                    result.path.as_ref().unwrap().1.len()
                ))
                .next()
                .is_some()
        );
    }

    // In sync by expansions: each press expands one more cell on both sides.
    click(&mut harness, "expansion");
    for _ in 0..3 {
        click(&mut harness, "Step >");
    }
    let expanded: Vec<usize> = harness.state().replays().iter().map(|r| r.player.view().expanded).collect();
    assert_eq!(expanded, [3, 3]);
    click(&mut harness, "End >|");
    assert!(harness.state().replays().iter().all(|r| r.player.at_end()), "the longer timeline ends both");
}

#[test]
fn a_big_search_runs_on_the_worker_and_can_be_cancelled() {
    let mut harness = lab_harness();
    harness.get_by_label("Dijkstra").click();
    settle(&mut harness);
    type_into(&mut harness, "Map file:", "maps/random512.map");
    harness.get_by_label("Load map").click();
    harness.step();
    harness.step();
    assert!(harness.state().is_busy(), "the 512x512 recording runs in the background");
    assert_eq!(harness.state().grid().width(), 64, "the old map and replay stay until the new one arrives");
    harness.get_by_label_contains("expansions");
    harness.get_by_label("Cancel").click();
    harness.step();
    assert!(!harness.state().is_busy());
    assert_eq!(harness.state().grid().width(), 64, "a cancelled load keeps the current map");

    harness.get_by_label("Load map").click();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.grid().width(), 512);
    assert!(lab.player().len() > 500_000, "Dijkstra across 512x512 records hundreds of thousands of events");
    assert!(found_path(lab).is_some(), "start and goal lie in the largest connected area");
}

#[test]
fn drawing_a_wall_across_the_path_reruns_the_search() {
    let mut harness = lab_harness();
    let (_, old_path) = found_path(harness.state()).unwrap();
    click(&mut harness, "Wall");
    let (a, b) = (old_path[old_path.len() / 2], old_path[old_path.len() / 2 + 2]);
    drag_cells(&mut harness, a, b);
    assert!(!harness.state().grid().is_cell_passable(a) && !harness.state().grid().is_cell_passable(b));
    settle(&mut harness);
    let lab = harness.state();
    assert!(lab.player().at_end(), "after an edit the new result is shown at once");
    match &lab.player().view().outcome {
        Some(SearchOutcome::Found { path, .. }) => {
            assert!(path.iter().all(|&c| lab.grid().is_cell_passable(c)), "the new path avoids the wall")
        }
        Some(SearchOutcome::Exhausted) => {}
        None => panic!("the search re-ran to an outcome"),
    }
}

#[test]
fn dragging_the_goal_moves_it_and_reruns_the_search() {
    let mut harness = lab_harness();
    let (start, goal) = harness.state().endpoints();
    let (_, path) = found_path(harness.state()).unwrap();
    let target = path[path.len() / 2];
    drag_cells(&mut harness, goal, target);
    settle(&mut harness);
    assert_eq!(harness.state().endpoints(), (start, target));
    let (_, new_path) = found_path(harness.state()).unwrap();
    assert_eq!(new_path.last(), Some(&target));
}

#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_map_dropped_on_the_window_opens() {
    let mut harness = lab_harness();
    let path = std::fs::canonicalize("maps/rooms128.map").unwrap();
    harness.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(path)));
    settle(&mut harness);
    assert_eq!(harness.state().grid().width(), 128);
    assert!(harness.state().settings().map_path.ends_with("rooms128.map"));
}

/// A scenario file is known by its `.scen` extension in any case, as a map by `.map`.
#[test]
fn a_scenario_file_dropped_in_upper_case_loads_its_queries() {
    let mut harness = lab_harness();
    let dir = ScratchDir::new("grid-lab-drop");
    let scen = dir.write("MAZE64.MAP.SCEN", std::fs::read("maps/maze64.map.scen").unwrap());
    harness.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(scen)));
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    let expected = movingai::load_scen(Path::new("maps/maze64.map.scen")).unwrap();
    assert_eq!(harness.state().scenarios().len(), expected.len());
    assert_eq!(harness.state().grid().width(), 64, "the map on screen stays");
}

#[test]
fn settings_and_the_map_survive_a_restart() {
    let mut harness = lab_harness();
    type_into(&mut harness, "Map file:", "maps/rooms128.map");
    click(&mut harness, "Load map");
    settle(&mut harness);
    click(&mut harness, "BFS");
    settle(&mut harness);
    click(&mut harness, "Show g/h/f in cells");
    // A query picked from the map's scenarios.
    click(&mut harness, "Load scenarios");
    harness.get_by_label("Query").click();
    harness.run();
    harness.get_by_label_contains("#5: ").click();
    settle(&mut harness);
    let picked = harness.state().endpoints();
    assert_ne!(picked, GridLab::with_settings(harness.state().settings().clone()).endpoints(), "not the map's corners");
    let saved = harness.state().save().expect("the grid lab keeps settings");

    let restored = GridLab::from_saved(Some(&saved));
    assert_eq!(restored.settings(), harness.state().settings());
    assert_eq!(restored.grid().width(), 128, "the last map opens again");
    assert_eq!(restored.endpoints(), picked, "and the query on screen");
    // What an earlier version saved (settings alone) still opens, between the map's corners.
    let settings_only = serde_json::to_string(harness.state().settings()).unwrap();
    assert_eq!(GridLab::from_saved(Some(&settings_only)).settings(), harness.state().settings());
}

#[test]
fn the_app_lists_the_lessons() {
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.step();
    harness.get_all_by_label("Grid search").next().expect("the lesson is listed");
    // The text-size buttons zoom the whole app, for projection.
    harness.get_by_label("Larger").click();
    harness.run();
    assert!((harness.ctx.zoom_factor() - 1.1).abs() < 1e-6);
    harness.get_by_label("Text size 110%");
}

#[test]
fn the_app_opens_a_lesson_from_its_saved_settings_and_keeps_those_of_unopened_ones() {
    let mut settings = GridLab::new().settings().clone();
    settings.searches[0].algorithm = searchlab::pathfinding::Algorithm::Bfs;
    let mut storage = Memory::default();
    storage.0.insert("lesson: Grid search".into(), serde_json::to_string(&settings).unwrap());
    storage.0.insert("lesson: Barca: play".into(), "kept as it is".into());
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::restored(&storage));
    common::ui::wait_until(&mut harness, |app| !app.is_busy());
    // The page saves its own settings: BFS, not the default A*, means it was built from the saved ones.
    eframe::App::save(harness.state_mut(), &mut storage);
    let saved: serde_json::Value = serde_json::from_str(&storage.0["lesson: Grid search"]).unwrap();
    assert_eq!(saved["searches"][0]["algorithm"], "bfs");
    assert_eq!(storage.0["lesson: Barca: play"], "kept as it is", "a lesson never opened keeps what it saved");
}

#[test]
fn the_open_list_marks_a_next_entry_only_while_the_search_runs() {
    let mut harness = lab_harness();
    click(&mut harness, "Step >");
    assert_eq!(harness.query_all_by_label("next").count(), 1, "a running search takes the first entry next");
    click(&mut harness, "End >|");
    assert!(harness.state().player().view().outcome.is_some());
    assert!(harness.state().player().view().open_count > 0, "entries remain open when the path is found");
    assert_eq!(harness.query_all_by_label("next").count(), 0, "an ended search takes nothing next");
}

/// On a 720p projector the statistics and the pseudocode stay beside the canvas, whatever the
/// open list holds at the end of the search.
#[test]
fn statistics_and_pseudocode_are_on_screen_at_720p() {
    let mut harness = common::ui::lesson_harness([1280.0, 720.0], GridLab::new());
    settle(&mut harness);
    for at_end in [false, true] {
        if at_end {
            click(&mut harness, "End >|");
        }
        for label in ["Statistics", "Expanded: ", "Whole search: ", "while open is not empty:", "return no path"] {
            let rect = harness.get_by_label_contains(label).rect();
            assert!(rect.bottom() <= 720.0, "'{label}' at {rect:?} (end: {at_end})");
        }
    }
}

/// The canvas toolbar's labels stay on one line at every text size a projector uses: a row too
/// long for the window moves whole controls down (never one letter of "Step by" per line, nor
/// under the side panel).
#[test]
fn the_canvas_toolbar_never_wraps_a_label_at_720p() {
    for zoom in [1.0, 1.1, 1.2, 1.3] {
        let harness = common::ui::app_on("Grid search", [1280.0, 720.0], zoom);
        let row = harness.get_by_label("Fit").rect().height();
        let canvas = harness.get_by_label("Map canvas").rect();
        for label in ["Step by:", "event", "expansion", "Show g/h/f in cells", "Fit"] {
            let rect = harness.get_by_label(label).rect();
            let at = format!("{:.0}%: '{label}' is {rect:?}", zoom * 100.0);
            assert!(rect.height() <= row + 1.0, "{at}, the row {row:.0} points tall");
            assert!(rect.right() <= canvas.right() + 1.0, "{at}, past the canvas {canvas:?} (under the side panel)");
        }
        // The label stays on the row of its choices.
        let [label, event, expansion] =
            ["Step by:", "event", "expansion"].map(|label| harness.get_by_label(label).rect());
        let same_row = event.y_range().contains(label.center().y) && event.y_range().contains(expansion.center().y);
        assert!(same_row, "{:.0}%: {label:?} {event:?} {expansion:?}", zoom * 100.0);
    }
}

/// The query picker fits the side panel at 720p: its label stays one word on one line.
#[test]
fn the_query_label_keeps_its_line_beside_the_picker_at_720p() {
    for zoom in [1.0, 1.3] {
        let mut harness = common::ui::app_on("Grid search", [1280.0, 720.0], zoom);
        harness.get_by_label("Load scenarios").click_accesskit();
        harness.run();
        harness.get_by_label_contains("queries loaded").scroll_to_me();
        harness.run();
        let row = harness.get_by_label("Load scenarios").rect().height();
        let label = harness.get_by_label("Query").rect();
        assert!(label.height() <= row + 1.0, "{:.0}%: 'Query' is {label:?}, a row {row:.0} points tall", zoom * 100.0);
    }
}

/// JPS where it cannot search, picked on the page: the reason shows over the canvas, the narration
/// points to it and the pseudocode is JPS's; it goes once a search that can run is picked.
#[test]
fn jps_on_four_connected_moves_shows_why_until_a_search_that_can_run_is_picked() {
    let mut harness = lab_harness();
    click(&mut harness, "JPS");
    settle(&mut harness);
    assert_eq!(harness.state().refused(), None, "JPS runs on the bundled maze");
    click(&mut harness, "4-connected");
    settle(&mut harness);
    let reason = "JPS needs 8-connected moves: its pruning rules are written for diagonal steps";
    harness.get_by_label(reason);
    assert!(
        harness
            .query_all_by_label("Nothing to replay: the search was refused (the message above says why).")
            .next()
            .is_some()
    );
    harness.get_by_label_contains("u := the open jump point with the lowest f");
    click(&mut harness, "A*");
    settle(&mut harness);
    assert!(harness.query_by_label(reason).is_none(), "the refusal goes with the search refused");
    assert!(harness.state().player().len() > 100);
}

/// The pseudocode lines drawn on a coloured background in the last frame.
fn highlighted_lines(harness: &LabHarness) -> Vec<String> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text)
                if text.galley.job.sections.iter().any(|s| s.format.background != egui::Color32::TRANSPARENT) =>
            {
                Some(text.galley.job.text.clone())
            }
            _ => None,
        })
        .collect()
}

/// Comparing A* with Dijkstra: each search's line is highlighted, each on its own selection line
/// while both expand, in the colour of its name over the table's column.
#[test]
fn comparing_two_best_first_searches_highlights_both_lines() {
    let mut harness = lab_harness();
    let scene = "version = 1\nlab = \"grid\"\nmap = { bundled = \"maze64.map\" }\nspec = \"astar\"\ncompare = \"dijkstra\"\nstart = [1, 1]\ngoal = [62, 62]\nstep = 2";
    harness.state_mut().set_scene(&searchlab::scene::Scene::from_toml(scene).unwrap()).unwrap();
    settle(&mut harness);
    harness.run();
    let lines = highlighted_lines(&harness);
    for expected in [
        "u := the open node with the lowest f = g + w·h",
        "u := the open node with the lowest g",
        "A* (octile)",
        "Dijkstra",
    ] {
        assert!(lines.iter().any(|line| line == expected), "{expected} is highlighted: {lines:?}");
    }
}

/// An empty replay (a refused search) has its timeline's thumb at the start, not mid-rail as if
/// half of something had played.
#[test]
fn an_empty_replays_timeline_thumb_sits_at_the_start() {
    let mut harness = lab_harness();
    click(&mut harness, "JPS");
    click(&mut harness, "4-connected");
    settle(&mut harness);
    assert_eq!(harness.state().player().len(), 0);
    let rail = harness.get(By::new().role(egui::Role::Slider).label("Timeline")).rect();
    // The handle: a small upright rectangle on the rail (egui's default slider handle).
    let thumbs: Vec<egui::Rect> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Rect(shape)
                if rail.expand(4.0).contains_rect(shape.rect)
                    && shape.rect.width() < 20.0
                    && shape.rect.height() > shape.rect.width() =>
            {
                Some(shape.rect)
            }
            _ => None,
        })
        .collect();
    assert_eq!(thumbs.len(), 1, "one thumb on the rail {rail:?}: {thumbs:?}");
    assert!(thumbs[0].center().x < rail.left() + rail.width() * 0.1, "the thumb {:?} on {rail:?}", thumbs[0]);
}
