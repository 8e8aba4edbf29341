//! The lecture notebook driven as a lecturer would: open a lecture, present it with the keys, step
//! a live cell, open it in the lab, edit the file and watch it reload, copy cells from the labs.

mod common;

use std::path::{Path, PathBuf};

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::{Notebook, NotebookCommand, SearchlabApp};
use searchlab::scene::{Lab, Scene, Step};

use common::scratch::ScratchDir;
use common::ui::{app_on, click, lesson_harness, settle, type_into, wait_until};

type NotebookHarness = Harness<'static, Notebook>;

/// A lecture in its own temp folder, which lives as long as the returned guard.
fn lecture_file(test: &str, text: &str) -> (ScratchDir, PathBuf) {
    let dir = ScratchDir::new(&format!("notebook-{test}"));
    let path = dir.write("talk.md", text);
    (dir, path)
}

fn open(path: &Path) -> NotebookHarness {
    let mut harness = lesson_harness([1280.0, 900.0], Notebook::open(path));
    settle(&mut harness);
    harness
}

/// A* on the bundled maze, from corner to corner, opening on `step`.
fn grid_cell(step: &str) -> String {
    format!(
        "```searchlab\nversion = 1\nlab = \"grid\"\nmap = {{ bundled = \"maze64.map\" }}\nspec = \"astar:octile\"\n\
         start = [1, 1]\ngoal = [62, 62]\nstep = {step}\n```\n"
    )
}

/// The optimal cost of the maze's corner-to-corner query, from the `pathfinding` crate.
fn maze_optimal_cost() -> f64 {
    let grid = searchlab::grid::movingai::load_map(&common::project_map("maze64.map")).unwrap();
    common::reference::movingai_cost(&grid, (1, 1), (62, 62)).unwrap()
}

#[test]
fn a_lecture_opens_with_its_prose_and_cells() {
    let (_dir, path) =
        lecture_file("open", &format!("# Searching a maze\n\nA paragraph about mazes.\n\n{}", grid_cell("\"end\"")));
    let harness = open(&path);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("Searching a maze");
    harness.get_by_label("A paragraph about mazes.");
    harness.get_by_label("Map canvas");
    assert!(harness.state().cells()[0].live().is_some(), "the cell in view is built");
}

#[test]
fn presenting_moves_between_sections_with_the_keys() {
    let text = format!("# One\n\nfirst\n\n## Two\n\nsecond\n\n---\n\nthird\n\n{}", grid_cell("0"));
    let (_dir, path) = lecture_file("keys", &text);
    let mut harness = open(&path);
    click(&mut harness, "Present");
    harness.get_by_label("Slide 1 / 3");
    for (key, slide) in [
        (Key::PageDown, 2),
        (Key::ArrowRight, 3),
        (Key::PageDown, 3),
        (Key::PageUp, 2),
        (Key::ArrowLeft, 1),
        (Key::ArrowDown, 2),
    ] {
        harness.key_press(key);
        harness.run();
        harness.get_by_label(&format!("Slide {slide} / 3"));
        assert_eq!(harness.state().slide(), slide - 1);
    }
    harness.get_by_label("second");
    assert!(harness.query_by_label("first").is_none(), "one section per screen");
    harness.key_press(Key::Escape);
    harness.run();
    assert!(!harness.state().is_presenting());
    harness.get_by_label("first");
}

#[test]
fn a_cell_opens_on_its_authored_step() {
    let (_dir, path) = lecture_file("step", &format!("{}\n{}", grid_cell("40"), grid_cell("\"path-found\"")));
    let mut harness = open(&path);
    harness.state_mut().apply(NotebookCommand::Present(true));
    settle(&mut harness);
    let shown = harness.state().cells()[0].live().and_then(|cell| cell.scene()).unwrap();
    assert_eq!(shown.step, Step::Index(40));
    harness.get_by_label_contains("Step 40 / ");
    harness.key_press(Key::PageDown);
    settle(&mut harness);
    // The second cell opens where A* first reaches the goal: the optimal cost is on screen.
    harness.get_by_label_contains(&format!("Path found: cost {:.3}", maze_optimal_cost()));
}

#[test]
fn reset_returns_a_stepped_cell_to_its_authored_step() {
    let (_dir, path) = lecture_file("reset", &grid_cell("25"));
    let mut harness = open(&path);
    harness.get_by_label_contains("Step 25 / ");
    click(&mut harness, "Step >");
    harness.get_by_label_contains("Step 26 / ");
    click(&mut harness, "Reset");
    settle(&mut harness);
    harness.get_by_label_contains("Step 25 / ");
}

#[test]
fn a_malformed_cell_shows_its_error_with_the_line_and_the_next_cell_renders() {
    let text = format!(
        "# Broken\n\n```searchlab\nversion = 1\nlab = \"grid\"\nspec = \"astar:sideways\"\n```\n\n{}",
        grid_cell("12")
    );
    let (_dir, path) = lecture_file("malformed", &text);
    let harness = open(&path);
    harness.get_by_label_contains(&format!("{}:6: ", path.display()));
    harness.get_by_label_contains("sideways");
    harness.get_by_label_contains("Step 12 / ");
    assert!(harness.state().cells()[0].scene().is_err());
    assert!(harness.state().cells()[1].live().is_some());
}

#[test]
fn the_lecture_reloads_when_the_file_changes_and_keeps_the_slide() {
    let (_dir, path) = lecture_file("reload", "# One\n\nfirst\n\n# Two\n\nsecond\n");
    let mut harness = open(&path);
    harness.state_mut().apply(NotebookCommand::Present(true));
    harness.state_mut().apply(NotebookCommand::NextSlide);
    harness.run();
    harness.get_by_label("second");
    std::fs::write(&path, "# One\n\nfirst\n\n# Two\n\nsecond, edited\n\n# Three\n\nthird\n").unwrap();
    wait_until(&mut harness, |notebook| notebook.slide_count() == 3);
    harness.run();
    harness.get_by_label("second, edited");
    harness.get_by_label("Slide 2 / 3");
}

/// A section inserted above the one shown moves it down: the reload follows it (by its heading)
/// rather than keeping its number.
#[test]
fn a_reload_stays_on_the_section_shown_when_one_is_inserted_above_it() {
    let (_dir, path) =
        lecture_file("reload-moved", "# One\n\nfirst\n\n# Two\n\nsecond\n\n# Poly\n\nthird\n\n# Four\n\nfourth\n");
    let mut harness = open(&path);
    harness.state_mut().apply(NotebookCommand::Present(true));
    harness.state_mut().apply(NotebookCommand::GoToSlide(2));
    harness.run();
    harness.get_by_label("Slide 3 / 4");
    harness.get_by_label("third");
    let edited = "# One\n\nfirst, with a new paragraph\n\n## Inserted slide\n\nnew\n\n# Two\n\nsecond\n\n# Poly\n\nthird\n\n# Four\n\nfourth\n";
    std::fs::write(&path, edited).unwrap();
    wait_until(&mut harness, |notebook| notebook.slide_count() == 5);
    harness.run();
    harness.get_by_label("Slide 4 / 5");
    harness.get_by_label("third");
    // A heading that is gone: the slide at the same place.
    std::fs::write(&path, edited.replace("# Poly", "# Polygons")).unwrap();
    wait_until(&mut harness, |notebook| {
        notebook.lecture().is_some_and(|lecture| lecture.sections[3].title.as_deref() == Some("Polygons"))
    });
    harness.run();
    harness.get_by_label("Slide 4 / 5");
}

#[test]
fn open_in_the_lab_carries_the_scene() {
    let (_dir, path) = lecture_file("lab", &format!("# In the lab\n\n{}", grid_cell("30")));
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    click(&mut harness, "Lecture notebook");
    type_into(&mut harness, "Lecture file:", &path.display().to_string());
    click(&mut harness, "Open lecture");
    wait_until(&mut harness, |app| !app.is_busy());
    click(&mut harness, "Step >");
    harness.get_by_label_contains("Step 31 / ");
    click(&mut harness, "Open in the lab");
    wait_until(&mut harness, |app| !app.is_busy());
    harness.run();
    harness.get_by_label("Grid search: BFS, Dijkstra and A*");
    harness.get_by_label_contains("Step 31 / ");
}

#[test]
fn the_welcome_lecture_opens_on_a_first_run() {
    let mut harness = lesson_harness([1280.0, 720.0], Notebook::from_saved(None));
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("Welcome to lecture notebooks");
    let scene: Option<Scene> = harness.state().cells()[0].live().and_then(|cell| cell.scene());
    assert_eq!(scene.map(|scene| scene.lab), Some(Lab::Grid));
}

/// The text the last frame put on the clipboard.
fn copied(harness: &Harness<'_, SearchlabApp>) -> Option<String> {
    harness.output().platform_output.commands.iter().find_map(|command| match command {
        egui::OutputCommand::CopyText(text) => Some(text.clone()),
        _ => None,
    })
}

/// Clicks "Copy this cell"; what it put on the clipboard.
fn copy_cell(app: &mut Harness<'_, SearchlabApp>) -> Option<String> {
    app.get_by_label("Copy this cell").click();
    app.step();
    copied(app)
}

/// Pastes the copied `block` into a lecture: the cell is taken, and shows what was copied.
fn assert_pastes(lesson: &str, block: &str) {
    assert!(block.starts_with("```searchlab\n") && block.ends_with("```\n"), "{lesson}: {block}");
    let (_dir, path) = lecture_file(&format!("copy-{}", lesson.len()), &format!("# Pasted\n\n{block}"));
    let mut notebook = open(&path);
    settle(&mut notebook);
    let cell = &notebook.state().cells()[0];
    let authored = cell.scene().unwrap_or_else(|problem| panic!("{lesson}: {problem}")).clone();
    let shown = cell.live().and_then(|live| live.scene()).unwrap_or_else(|| panic!("{lesson}: the cell is live"));
    assert_eq!(shown, authored, "{lesson}: the cell shows what was copied");
    let lab_scene =
        searchlab::scene::Scene::from_toml(block.trim_start_matches("```searchlab\n").trim_end_matches("```\n"))
            .unwrap();
    assert_eq!(authored, lab_scene, "{lesson}");
}

#[test]
fn copy_this_cell_from_each_lab_pastes_into_a_lecture_that_shows_the_same_state() {
    for lesson in ["Grid search", "Polygon maps", "Game-tree search", "Barca: play", "Tuning"] {
        let mut app = app_on(lesson, [1400.0, 900.0], 1.0);
        let block = copy_cell(&mut app).unwrap_or_else(|| panic!("{lesson}: nothing copied"));
        assert_pastes(lesson, &block);
    }
}

/// The game-tree page copies the tree it shows, searched: a tree typed in its field that does not
/// parse (a lecture would refuse the cell), or one not searched yet, is named in the page's message
/// instead, and the clipboard is left alone.
#[test]
fn copy_this_cell_copies_the_tree_shown_and_names_a_broken_or_unsearched_one() {
    let mut app = app_on("Game-tree search", [1400.0, 900.0], 1.0);
    click(&mut app, "Custom tree");
    wait_until(&mut app, |app| !app.is_busy());
    type_into(&mut app, "Tree:", "((3,12");
    assert_eq!(copy_cell(&mut app), None, "a broken tree is not copied");
    app.get_by_label_contains("Not copied: Tree: ");
    click(&mut app, "Search this tree");
    assert_eq!(copy_cell(&mut app), None, "nor once its search is refused");
    app.get_by_label_contains("Not copied: Tree: ");
    type_into(&mut app, "Tree:", "((1,2),(3,4))");
    assert_eq!(copy_cell(&mut app), None, "a tree not searched yet is not the one shown");
    app.get_by_label("Not copied: the tree typed is not the one shown; press \"Search this tree\" first");
    click(&mut app, "Search this tree");
    wait_until(&mut app, |app| !app.is_busy());
    app.run();
    let block = copy_cell(&mut app).expect("the tree shown is copied");
    assert!(block.contains("tree = \"((1,2),(3,4))\""), "{block}");
    app.get_by_label("Copied: paste it into a lecture file");
    assert_pastes("Game-tree search", &block);
}

#[test]
fn copy_this_cell_waits_for_a_grid_search_still_being_recorded() {
    let mut app = app_on("Grid search", [1400.0, 900.0], 1.0);
    click(&mut app, "Dijkstra");
    wait_until(&mut app, |app| !app.is_busy());
    // Dijkstra across 512x512 records for a while: the settings name the new map, the replay the old.
    type_into(&mut app, "Map file:", "maps/random512.map");
    app.get_by_label("Load map").click();
    app.step();
    assert!(app.state().is_busy(), "the 512x512 recording runs in the background");
    assert_eq!(copy_cell(&mut app), None, "a scene half old, half new is not copied");
    app.get_by_label(searchlab::app::STILL_RECORDING);
    wait_until(&mut app, |app| !app.is_busy());
    let block = copy_cell(&mut app).expect("the search shown is copied once it is in");
    assert!(block.contains("random512"), "{block}");
}

#[test]
fn a_dropped_map_is_no_lecture_and_a_dropped_lecture_opens() {
    let cell = "```searchlab\nversion = 1\nlab = \"grid\"\nmap = { path = \"mine.map\" }\nspec = \"astar:octile\"\nstart = [0, 0]\ngoal = [2, 0]\n```\n";
    let (dir, path) = lecture_file("drop", &format!("# Mine\n\n{cell}"));
    let mut harness = open(&path);
    assert!(harness.state().cells()[0].live().is_none(), "mine.map is not there yet");
    // The browser keeps a dropped file under its name; on the desktop it is on disk beside the lecture.
    let map = dir.write_arg("mine.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    harness.state_mut().apply(NotebookCommand::Dropped(vec![map.clone()]));
    settle(&mut harness);
    let notebook = harness.state();
    assert_eq!(notebook.lecture().unwrap().sections[0].title.as_deref(), Some("Mine"), "the lecture stays");
    assert_eq!(
        notebook.notice(),
        Some("mine.map is not a lecture (.md): the lecture was read again for cells that name it")
    );
    assert!(notebook.cells()[0].live().is_some(), "the cell finds the map now");

    let other = dir.write_arg("OTHER.MD", "# Other\n\nText.\n");
    harness.state_mut().apply(NotebookCommand::Dropped(vec![other, map]));
    assert_eq!(
        harness.state().lecture().unwrap().sections[0].title.as_deref(),
        Some("Other"),
        "the lecture among the files opens"
    );
}

#[test]
fn save_image_writes_the_cells_canvas_as_png() {
    let (_dir, path) = lecture_file("image", &format!("# Picture\n\n{}", grid_cell("\"end\"")));
    let mut harness = open(&path);
    let canvas = harness.state().cells()[0].rect().expect("the cell was drawn");
    click(&mut harness, "Save image");
    wait_until(&mut harness, |notebook| notebook.notice().is_some() || notebook.error().is_some());
    assert_eq!(harness.state().error(), None);
    let written = path.with_file_name("talk-line-3.png");
    assert!(harness.state().notice().unwrap().contains(&written.display().to_string()));
    let image = image::open(&written).unwrap();
    let scale = harness.ctx.pixels_per_point();
    assert_eq!(
        (image.width(), image.height()),
        ((canvas.width() * scale).round() as u32, (canvas.height() * scale).round() as u32)
    );
}

/// A cell of `lab` with the TOML `body`, under a heading.
fn cell(lab: &str, body: &str) -> String {
    format!("# A cell\n\n```searchlab\nversion = 1\nlab = \"{lab}\"\n{body}\n```\n")
}

#[test]
fn a_typed_in_tree_is_a_live_cell_on_its_step() {
    let body = "tree = \"((3,12,8),(2,4,6),(14,5,2))\"\nspec = \"alphabeta:2\"\nstep = \"cutoff\"";
    let (_dir, path) = lecture_file("tree", &cell("game-tree", body));
    let mut harness = open(&path);
    // By hand: MIN 1's leaves 3, 12, 8, then MIN 2's first leaf 2 ≤ α = 3 cuts 4 and 6.
    harness.get_by_label("Leaves: 4");
    harness.get_by_label("Cutoffs: 1");
    harness.get_by_label("2 pruned α cut");
    let shown = harness.state().cells()[0].live().and_then(|cell| cell.scene()).unwrap();
    assert_eq!(shown.tree.as_deref(), Some("((3,12,8),(2,4,6),(14,5,2))"));
    click(&mut harness, "End >|");
    harness.get_by_label("Root value: +3");
    harness.get_by_label("Leaves: 7");
}

#[test]
fn a_barca_cell_shows_the_board_and_the_computer_answers_from_it() {
    use searchlab::games::Game;
    use searchlab::games::barca::{Barca, START_FEN};
    let (_dir, path) = lecture_file("barca", &cell("barca", &format!("position = \"{START_FEN}\"\nspec = \"easy\"")));
    let mut harness = open(&path);
    harness.get_by_label("White to move");
    click(&mut harness, "Computer move");
    wait_until(&mut harness, |notebook| !searchlab::app::Lesson::is_busy(notebook));
    harness.run();
    harness.get_by_label("Black to move");
    harness.get_by_label_contains("Last computer search: ");
    // The board moved on by one legal move from the scene's position.
    let fen = harness.state().cells()[0].live().and_then(|cell| cell.scene()).and_then(|scene| scene.position).unwrap();
    let start = Barca::from_fen(START_FEN).unwrap();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let reached = moves.iter().any(|&mv| {
        let mut game = start.clone();
        game.make_move(mv);
        game.to_fen() == fen
    });
    assert!(reached, "{fen} is one move from the start");
}

#[test]
fn a_tuning_cell_plots_the_log_it_names_beside_the_lecture() {
    let (_dir, path) = lecture_file(
        "tuning",
        &format!(
            "{}\n{}",
            cell("tuning", "map = { path = \"run.json\" }"),
            cell("tuning", "map = { path = \"lost.json\" }")
        ),
    );
    let log =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/tuning-log.json")).unwrap();
    std::fs::write(path.with_file_name("run.json"), &log).unwrap();
    let harness = open(&path);
    let best = serde_json::from_str::<serde_json::Value>(&log).unwrap()["best_iteration"].as_u64().unwrap();
    harness.get_by_label_contains(&format!("Best vs the reference: iteration {best}, "));
    harness.get_by_label_contains(&format!("Log: {}", path.with_file_name("run.json").display()));
    harness.get_by_label("Score against the fixed reference");
    // The second cell's log is missing: its error names the lecture's line with the path.
    harness.get_by_label_contains(&format!("{}:14: ", path.display()));
}

#[test]
fn presenting_gives_the_slide_the_whole_window_until_stopped() {
    let (_dir, path) = lecture_file("full", "# One\n\nfirst\n\n# Two\n\nsecond\n");
    let mut harness = Harness::builder()
        .with_size([1280.0, 720.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    click(&mut harness, "Lecture notebook");
    type_into(&mut harness, "Lecture file:", &path.display().to_string());
    click(&mut harness, "Open lecture");
    harness.get_by_label("Grid search");
    click(&mut harness, "Present");
    // The lesson list and the top bar hide, full screen or not.
    for full_screen in [false, true] {
        for shown in ["Slide 1 / 2", "Next >", "first", "Stop presenting"] {
            harness.get_by_label(shown);
        }
        for hidden in ["Grid search", "Copy this cell", "Larger"] {
            assert!(harness.query_by_label(hidden).is_none(), "{hidden} is hidden (full screen: {full_screen})");
        }
        if !full_screen {
            click(&mut harness, "Full screen");
        }
    }
    click(&mut harness, "Stop presenting");
    harness.get_by_label("Grid search");
    harness.get_by_label("Larger");
}

/// The file line of `key` in the `n`th cell of `text` (1-based, as errors name lines).
fn key_line(text: &str, n: usize, key: &str) -> usize {
    let fences = text.lines().enumerate().filter(|(_, line)| line.starts_with("```searchlab")).map(|(i, _)| i);
    let start = fences.clone().nth(n).unwrap();
    start + 1 + text.lines().skip(start).position(|line| line.starts_with(&format!("{key} ="))).unwrap()
}

/// `lecture --check` and the notebook take the same cells and refuse the same ones, with the same
/// `FILE:LINE: problem`: the game-tree lab's and the Barca page's own spec rules and finished games
/// included, each at the line of the field at fault.
#[test]
fn the_notebook_and_lecture_check_refuse_the_same_cells_at_the_same_lines() {
    let barca_start = "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 w";
    let white_won = "4ee4/3lmml3/10/3L6/10/10/3E2E3/10/4MML3/10 b";
    let maze = "map = { bundled = \"maze64.map\" }\nstart = [1, 1]\ngoal = [62, 62]";
    let weighted = "map = { inline = \"type octile\\nheight 3\\nwidth 4\\nmap\\n....\\n....\\n....\\nweights\\n1191\\n1191\\n1111\\n\" }\nstart = [0, 0]\ngoal = [3, 0]";
    let pillars = "map = { bundled = \"pillars.json\" }\nspec = \"ta\"";
    let bad: [(&str, String, &str, &str); 23] = [
        // What the page cannot search: the CLI's refusals, at the field at fault.
        ("grid", format!("{maze}\nspec = \"jps:4conn\""), "spec", "JPS needs 8-connected moves"),
        ("grid", format!("{maze}\nspec = \"jps:corner-cut\""), "spec", "JPS here follows the MovingAI rule"),
        ("grid", format!("{weighted}\nspec = \"jps\""), "spec", "JPS needs uniform ground"),
        // The right-hand search moves by the left one's rules.
        (
            "grid",
            format!("{maze}\nspec = \"astar:4conn\"\ncompare = \"jps\""),
            "compare",
            "JPS needs 8-connected moves",
        ),
        (
            "hierarchical",
            "map = { bundled = \"maze64.map\" }\nspec = \"pra:level=30\"\ncompare = \"astar\"".into(),
            "spec",
            "level 30 is above the pyramid's top level",
        ),
        (
            "polygon",
            format!("{pillars}\nstart = [9, 9]\ngoal = [39, 29]"),
            "start",
            "start [9.0, 9.0] is inside an obstacle",
        ),
        (
            "polygon",
            format!("{pillars}\nstart = [1, 1]\ngoal = [390, 29]"),
            "goal",
            "goal [390.0, 29.0] is outside the map",
        ),
        // A grid map's point is the cell the author named, searched from its centre.
        (
            "polygon",
            format!("{maze}\nspec = \"ta\"").replace("goal = [62, 62]", "goal = [0, 0]"),
            "goal",
            "goal cell 0,0 is blocked",
        ),
        (
            "polygon",
            format!("{maze}\nspec = \"ta:radius=0.6\""),
            "start",
            "start cell 1,1 is closer than the radius 0.6 to an obstacle",
        ),
        (
            "game-tree",
            "spec = \"uct:100\"\nposition = \"x../.o./...\"".into(),
            "spec",
            "the game-tree lab shows plain UCT with a number of playouts: write 'uct:100,plain', not 'uct:100'",
        ),
        (
            "barca",
            "spec = \"random\"".into(),
            "spec",
            "the computer plays easy, medium, hard or uct:LEVEL, not 'random'",
        ),
        (
            "barca",
            "spec = \"alphabeta:2\"".into(),
            "spec",
            "the computer plays easy, medium, hard or uct:LEVEL, not 'alphabeta:2'",
        ),
        (
            "game-tree",
            format!("spec = \"minimax:6\"\nposition = \"{barca_start}\""),
            "spec",
            "the lab searches Barca at most 3 plies deep with minimax",
        ),
        (
            "game-tree",
            "spec = \"alphabeta:3\"\nposition = \"xxx/oo./...\"\nstep = \"end\"".into(),
            "position",
            "the game is over (X has won): nothing to search",
        ),
        (
            "game-tree",
            format!("spec = \"alphabeta:2\"\nposition = \"{white_won}\""),
            "position",
            "the game is over (White has won): nothing to search",
        ),
        (
            "game-tree",
            "tree = \"((3,12,8),(2,4,6),(14,5,2))\"\nspec = \"minimax:1\"".into(),
            "spec",
            "the tree is 2 plies high",
        ),
        (
            "game-tree",
            "spec = \"alphabeta\"\ntree = \"((3,12,8),(2,4,6),(14,5,2)\"".into(),
            "tree",
            "tree: column 27: expected ',' or ')', found the end of the text",
        ),
        ("game-tree", "spec = \"minimax\"\ntree = \"7\"".into(), "tree", "tree: a tree needs at least one move"),
        (
            "game-tree",
            "position = \"x../.o./...\"\nmap = { bundled = \"maze64.map\" }".into(),
            "map",
            "the game-tree lab does not use `map`",
        ),
        (
            "grid",
            "map = { bundled = \"maze64.map\" }\nstart = [1, 1, 7]\ngoal = [62, 62]".into(),
            "start",
            "a cell or point is [x, y]: two numbers, not 3",
        ),
        (
            "grid",
            "map = { bundled = \"maze64.map\", path = \"x.map\" }".into(),
            "map",
            "give one map source: bundled, path, inline or generated",
        ),
        (
            "grid",
            "map = { bundled = \"maze64.map\" }\nspec = \"hpa\"".into(),
            "spec",
            "spec 'hpa' does not fit the grid lab: HPA* is shown by lab = \"hierarchical\"",
        ),
        (
            "grid",
            "map = { bundled = \"maze64.map\" }\nstart = [1, 1]\ngoal = [62, 62.5]".into(),
            "goal",
            "goal 62,62.5 is not a grid cell",
        ),
    ];
    let good = [
        ("game-tree", "spec = \"uct:100,plain\"\nposition = \"x../.o./...\"".to_string()),
        ("barca", "spec = \"uct:hard\"".to_string()),
        ("game-tree", "tree = \"((3,12,8),(2,4,6),(14,5,2))\"\nspec = \"minimax\"\nstep = 30".to_string()),
        ("grid", format!("{maze}\nspec = \"jps\"")),
        ("polygon", format!("{pillars}\nstart = [1, 1]\ngoal = [39, 29]")),
    ];
    let text: String = bad
        .iter()
        .map(|(lab, body, ..)| cell(lab, body))
        .chain(good.iter().map(|(lab, body)| cell(lab, body)))
        .collect();
    let (_dir, path) = lecture_file("same-rules", &text);
    let file = path.display().to_string();
    let expected: Vec<String> = bad
        .iter()
        .enumerate()
        .map(|(n, (_, _, key, message))| format!("{file}:{}: {message}", key_line(&text, n, key)))
        .collect();
    let output = common::cli::searchlab(&["lecture", "--check", &file]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), bad.len() + 1, "one line per bad cell and a summary: {stderr}");
    for (line, expected) in lines.iter().zip(&expected) {
        assert!(line.starts_with(expected.as_str()), "--check said '{line}', expected '{expected}'");
    }
    let harness = open(&path);
    for (n, expected) in expected.iter().enumerate() {
        // Refused before a page is built: no other position's tree under the error.
        assert!(
            harness.state().cells()[n].scene().is_err() && harness.state().cells()[n].live().is_none(),
            "cell {n} is refused"
        );
        harness.get_by_label_contains(expected);
    }
    for n in bad.len()..bad.len() + good.len() {
        assert!(harness.state().cells()[n].scene().is_ok(), "cell {n} is taken");
    }
}

/// A step past the end of the recorded search: the cell says so over itself with the lecture's
/// `FILE:LINE`, the same line `lecture --check` gives.
#[test]
fn a_step_past_the_end_is_reported_over_the_cell_as_the_check_reports_it() {
    let text = format!("# Too far\n\n{}", grid_cell("99999999"));
    let (_dir, path) = lecture_file("past-end", &text);
    let output = common::cli::searchlab(&["lecture", "--check", &path.display().to_string()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reported = stderr.lines().next().unwrap();
    let step_line = key_line(&text, 0, "step");
    assert!(
        reported
            .starts_with(&format!("{}:{step_line}: step 99999999 is past the end (the search has ", path.display())),
        "{stderr}"
    );
    let harness = open(&path);
    harness.get_by_label(reported);
}

/// The app at 1280x720 with the text at 130% (a projector), on the notebook showing `lecture`.
fn projector_on(lecture: &str) -> Harness<'static, SearchlabApp> {
    let zoom = 1.3;
    let app = SearchlabApp::default().with_lecture(&Path::new(env!("CARGO_MANIFEST_DIR")).join(lecture));
    let mut harness = Harness::builder()
        .with_size([1280.0 / zoom, 720.0 / zoom])
        .with_context_setup(move |ctx| {
            searchlab::app::set_style(ctx);
            ctx.set_zoom_factor(zoom);
        })
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), app);
    harness.run_steps(4);
    harness
}

/// The frame of the cell whose header is labelled `header`, and the left edge of the page's
/// scroll bar beside it, if there is one (the cells' own scroll bars are inside their frames).
fn cell_frame_and_bar(harness: &Harness<'_, SearchlabApp>, header: &str) -> (egui::Rect, Option<f32>) {
    let label = harness.get_by_label_contains(header).rect();
    let rects: Vec<&egui::epaint::RectShape> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| if let egui::Shape::Rect(rect) = &clipped.shape { Some(rect) } else { None })
        .collect();
    let frame = rects
        .iter()
        .filter(|shape| shape.stroke.width > 0.0 && shape.rect.contains(label.center()) && shape.rect.width() > 400.0)
        .map(|shape| shape.rect)
        .min_by(|a, b| a.area().total_cmp(&b.area()))
        .unwrap_or_else(|| panic!("{header}: no frame around the cell"));
    let bar = rects
        .iter()
        .filter(|shape| {
            shape.rect.width() <= 12.0 && shape.rect.height() >= 40.0 && shape.rect.left() > frame.right() - 1.0
        })
        .map(|shape| shape.rect.left())
        .min_by(f32::total_cmp);
    (frame, bar)
}

/// "Slide i / n" while presenting.
fn slide_label(harness: &Harness<'_, SearchlabApp>) -> String {
    let node = harness.get_by_label_contains("Slide ");
    node.accesskit_node().label().or_else(|| node.accesskit_node().value()).unwrap_or_default()
}

/// Runs frames until every cell in view has its recording.
fn settle_cells(harness: &mut Harness<'_, SearchlabApp>) {
    harness.run_steps(2);
    wait_until(harness, |app| !app.is_busy());
    harness.run_steps(4);
}

#[test]
fn on_a_projector_every_cell_frame_stands_clear_of_the_page_scroll_bar() {
    let screen = egui::vec2(1280.0, 720.0) / 1.3;
    let lectures = searchlab::app::notebook::COURSE_LECTURES.map(|(file, _)| format!("lectures/{file}"));
    for lecture in lectures.iter().map(String::as_str).chain(["lectures/welcome.md"]) {
        let mut harness = projector_on(lecture);
        let mut cell = 1;
        while harness.query_by_label_contains(&format!("Cell {cell} (line ")).is_some() {
            let header = format!("Cell {cell} (line ");
            harness.get_by_label_contains(&header).scroll_to_me();
            settle_cells(&mut harness);
            let (frame, bar) = cell_frame_and_bar(&harness, &header);
            let bar = bar.unwrap_or_else(|| panic!("{lecture}: the page scrolls"));
            assert!(
                frame.right() + 8.0 <= bar,
                "{lecture}, cell {cell}: the frame's right edge {} is under or against the scroll bar at {bar}",
                frame.right()
            );
            cell += 1;
        }
        assert!(cell > 1, "{lecture} has cells");
        // Presenting, each slide's cell fits the screen, clear of any scroll bar.
        harness.get_by_label("Present").click();
        settle_cells(&mut harness);
        let slides = slide_label(&harness);
        let count: usize = slides.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("Slide i / n");
        // A quiz cell is on two slides (question, then answer): each cell counted once.
        let mut presented = std::collections::BTreeSet::new();
        for slide in 1..=count {
            assert_eq!(slide_label(&harness), format!("Slide {slide} / {count}"));
            for cell in 1..cell {
                let header = format!("Cell {cell} (line ");
                if harness.query_by_label_contains(&header).is_none() {
                    continue;
                }
                settle_cells(&mut harness);
                let (frame, bar) = cell_frame_and_bar(&harness, &header);
                let edge = bar.unwrap_or(screen.x);
                assert!(
                    frame.right() + 8.0 <= edge,
                    "{lecture}, slide {slide}: the frame's right edge {} is under or against {edge}",
                    frame.right()
                );
                assert!(
                    frame.bottom() <= screen.y,
                    "{lecture}, slide {slide}: the cell's bottom {} is below the screen",
                    frame.bottom()
                );
                presented.insert(cell);
            }
            harness.key_press(Key::PageDown);
            harness.run_steps(2);
        }
        assert_eq!(presented.len(), cell - 1, "{lecture}: every cell is on a slide");
    }
}

/// Presents `lecture` on the projector and calls `look` on each slide, its cells recorded.
fn on_each_slide(lecture: &str, mut look: impl FnMut(&Harness<'static, SearchlabApp>)) {
    let mut harness = projector_on(lecture);
    harness.get_by_label("Present").click();
    settle_cells(&mut harness);
    let count: usize = slide_label(&harness).rsplit(' ').next().and_then(|n| n.parse().ok()).expect("Slide i / n");
    for _ in 1..=count {
        settle_cells(&mut harness);
        look(&harness);
        harness.key_press(Key::PageDown);
        harness.run_steps(2);
    }
}

#[test]
fn on_a_projector_a_slides_polygon_map_takes_the_cells_height() {
    let screen = egui::vec2(1280.0, 720.0) / 1.3;
    let mut maps = 0;
    on_each_slide("lectures/3-triangulations.md", |harness| {
        if let Some(map) = harness.query_by_label("Polygon canvas").map(|node| node.rect()) {
            let slide = slide_label(harness);
            let header = harness.get_by_label_contains("Cell ").rect();
            // The replay's controls sit beside the map, not above it.
            assert!(
                map.top() - header.bottom() < 12.0,
                "{slide}: the map starts {} under the cell's header",
                map.top() - header.bottom()
            );
            assert!(map.bottom() <= screen.y, "{slide}: the map ends below the screen");
            assert!(
                map.height() >= 0.45 * screen.y,
                "{slide}: the map is {} of the screen's height",
                map.height() / screen.y
            );
            maps += 1;
        }
    });
    assert!(maps >= 8, "lecture 3's polygon cells are on its slides");
}

#[test]
fn a_lecture_file_over_the_cap_is_refused_unread_and_the_shown_lecture_stays() {
    let (_dir, path) = lecture_file("huge", "# Kept\n\nThe lecture on screen.\n");
    let huge = path.with_file_name("huge.md");
    // Sparse: a gigabyte the reader must refuse by its size, without reading it.
    std::fs::File::create(&huge).unwrap().set_len(1 << 30).unwrap();
    let mut harness = open(&path);
    type_into(&mut harness, "Lecture file:", &huge.display().to_string());
    click(&mut harness, "Open lecture");
    harness.get_by_label(&format!("{}: too big (1 GB, max 16 MB)", huge.display()));
    harness.get_by_label("The lecture on screen.");
}

/// The `n`th line `lecture --check` writes to stderr for the lecture at `path`.
fn checked_line(path: &Path, n: usize) -> String {
    let output = common::cli::searchlab(&["lecture", "--check", &path.display().to_string()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr.lines().nth(n).unwrap_or_else(|| panic!("line {n} of: {stderr}")).to_string()
}

/// A UCT cell's step is checked by `lecture --check` as the page checks it: the same line over the cell.
#[test]
fn a_uct_cells_step_past_the_end_is_reported_as_the_check_reports_it() {
    let text =
        format!("# UCT\n\n{}", cell("game-tree", "spec = \"uct:100,plain\"\nposition = \"x../.o./...\"\nstep = 99999"));
    let (_dir, path) = lecture_file("uct-past-end", &text);
    let reported = checked_line(&path, 0);
    assert!(
        reported.starts_with(&format!("{}:{}: step 99999 is past the end", path.display(), key_line(&text, 0, "step"))),
        "{reported}"
    );
    let harness = open(&path);
    harness.get_by_label(&reported);
}

/// A search longer than the recording cap: the cell on `path-found` says, as `--check` does, that the
/// recording stopped before it; the cell on `end` warns that it shows no result.
#[test]
fn cells_on_a_recording_that_stops_early_say_so_as_the_check_does() {
    let long = |step: &str| {
        cell(
            "grid",
            &format!(
                "map = {{ generated = \"random:2048x2048,density=0.2,seed=3\" }}\nspec = \"dijkstra\"\nstart = [1, 1]\ngoal = [2045, 2045]\nstep = {step}"
            ),
        )
    };
    let text = format!("# Long\n\n{}{}", long("\"end\""), long("\"path-found\""));
    let (_dir, path) = lecture_file("truncated", &text);
    let warned = checked_line(&path, 0);
    let refused = checked_line(&path, 1);
    let file = path.display();
    assert!(
        warned.starts_with(&format!(
            "{file}:{}: warning: step end opens where the recording stops",
            key_line(&text, 0, "step")
        )),
        "{warned}"
    );
    assert!(refused.starts_with(&format!(
        "{file}:{}: this replay has no 'path-found' moment (the recording stops at",
        key_line(&text, 1, "step")
    )));
    let mut harness = lesson_harness([1280.0, 1400.0], Notebook::open(&path));
    settle(&mut harness);
    harness.get_by_label(&warned.replace("warning: ", ""));
    harness.get_by_label(&refused);
}

/// Presenting lecture 1 on a 720p projector, a compared cell's table shows every row, its last
/// (the time) included, beside the maps rather than scrolled out of the column.
#[test]
fn on_a_projector_a_compared_cells_table_shows_all_its_rows() {
    let mut tables = 0;
    on_each_slide("lectures/1-grid-search.md", |harness| {
        if let Some(time) = harness.query_by_label("Total: time, no recording").map(|node| node.rect()) {
            let slide = slide_label(harness);
            let map = harness.get_by_label("Right map canvas").rect();
            assert!(
                time.bottom() <= map.bottom() + 1.0,
                "{slide}: the time row ends at {}, below the maps' {}",
                time.bottom(),
                map.bottom()
            );
            tables += 1;
        }
    });
    assert_eq!(tables, 4, "lecture 1's compared cells");
}

/// Presented at 1280x720, lecture 4's move-ordering cell has more pseudocode than its pane holds:
/// scrolled to its current line (the last), the pane starts at a line of code, not through one.
#[test]
fn a_scrolled_code_pane_starts_at_a_line() {
    let mut harness = presented_on("lectures/4-game-trees.md", "Move ordering");
    harness.run_steps(5);
    let shown: Vec<(String, egui::Rect, egui::Rect)> =
        code_lines(&harness).into_iter().filter(|(_, clip, letters)| clip.intersects(*letters)).collect();
    for (text, clip, letters) in &shown {
        // The letters' own bounds: any cut of them shows.
        let cut = clip.top() - letters.top();
        assert!(cut <= 1.0, "'{text}' is cut by {cut:.1} points at the pane's top");
    }
    assert!(shown.len() >= 5, "the pane shows code ({} lines)", shown.len());
}

/// Bundled `lecture` presented at 1280x720 on the slide that shows `heading`, its cell recorded.
fn presented_on(lecture: &str, heading: &str) -> NotebookHarness {
    let lecture = Path::new(env!("CARGO_MANIFEST_DIR")).join(lecture);
    let mut harness = lesson_harness([1280.0, 720.0], Notebook::open(&lecture));
    harness.state_mut().apply(NotebookCommand::Present(true));
    let slide = (0..harness.state().slide_count()).find(|&slide| {
        harness.state_mut().apply(NotebookCommand::GoToSlide(slide));
        harness.step();
        harness.query_by_label_contains(heading).is_some()
    });
    assert!(slide.is_some(), "the slide '{heading}'");
    settle(&mut harness);
    harness
}

/// The lines of code drawn in the last frame: each one's text, clip rect and letters' bounds.
fn code_lines(harness: &NotebookHarness) -> Vec<(String, egui::Rect, egui::Rect)> {
    let monospace = |text: &egui::epaint::TextShape| {
        text.galley.job.sections.first().is_some_and(|s| s.format.font_id.family == egui::FontFamily::Monospace)
    };
    (harness.output().shapes.iter())
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text) if monospace(text) => {
                Some((text.galley.text().to_string(), clipped.clip_rect, text.visual_bounding_rect()))
            }
            _ => None,
        })
        .collect()
}

/// The highlighted line of the code pane beside a planner replay, on lecture 2's corridor slide at
/// 1280x720: after a seek typed into the timeline and after each step, it is fully in view.
#[test]
fn a_planner_cells_current_line_stays_in_its_code_pane() {
    let mut harness = presented_on("lectures/2-hierarchical-search.md", "refining through a corridor");
    let highlighted_in_view = |harness: &NotebookHarness| {
        let highlighted: Vec<bool> = harness
            .output()
            .shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                egui::Shape::Text(text)
                    if text
                        .galley
                        .job
                        .sections
                        .iter()
                        .any(|s| s.format.background == egui::Color32::from_rgb(250, 220, 90)) =>
                {
                    let rect = text.visual_bounding_rect();
                    Some(clipped.clip_rect.expand(1.0).contains_rect(rect))
                }
                _ => None,
            })
            .collect();
        highlighted == [true]
    };
    // The timeline's number box (beside its slider, which shares the label).
    let value = egui_kittest::kittest::By::new().label("Timeline").role(egui::accesskit::Role::SpinButton);
    harness.get(value.clone()).click();
    harness.run_steps(2);
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.get(value).type_text("262");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(4);
    harness.get_by_label_contains("Planner step 262 / ");
    assert!(highlighted_in_view(&harness), "after the seek");
    // The code the class follows gets room: at least five of its lines whole (it had two).
    let whole_code_lines =
        code_lines(&harness).iter().filter(|(_, clip, letters)| clip.contains_rect(*letters)).count();
    assert!(whole_code_lines >= 5, "{whole_code_lines} lines of code in view");
    for step in 263..290 {
        click(&mut harness, "Step >");
        harness.run_steps(4);
        assert!(highlighted_in_view(&harness), "at step {step}");
    }
    harness.get_by_label_contains("Planner step 289 / ");
}

/// A cell whose `expect` no longer holds shows the same `FILE:LINE: expected ...` as
/// `lecture --check`, and one that holds shows nothing.
#[test]
fn a_cell_shows_an_expected_number_that_no_longer_holds() {
    let body = "tree = \"((3,12,8),(2,4,6),(14,5,2))\"\nspec = \"alphabeta\"\nexpect = { leaves = 6, value = 3 }";
    let (_dir, path) = lecture_file("expect", &cell("game-tree", body));
    let mut harness = open(&path);
    wait_until(&mut harness, |notebook| notebook.cells()[0].live().is_some());
    let line = key_line(&std::fs::read_to_string(&path).unwrap(), 0, "expect");
    for _ in 0..200 {
        harness.run();
        if harness.query_by_label_contains("expected leaves = 6, got 7").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    harness.get_by_label_contains(&format!("talk.md:{line}: expected leaves = 6, got 7"));
    assert!(harness.query_by_label_contains("expected value").is_none(), "value = 3 holds");
}
