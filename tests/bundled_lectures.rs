//! The lectures shipped in `lectures/`, as a lecturer would use them: each loads, every cell passes
//! `searchlab lecture --check` (the library's check and the binary), every cell opens on its lab
//! page without an error and on a step of its replay, the figures the prose quotes are the ones the
//! pages show, and in the notebook every slide fits a 1280x720 projector with text at 130%.

mod common;

use std::path::{Path, PathBuf};

use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::notebook::COURSE_LECTURES;
use searchlab::app::{AgentsLab, BarcaLab, GridLab, Lesson, NavmeshLab, Notebook, NotebookCommand, TreeLab, TuningLab};
use searchlab::lecture::{Block, Cell, Lecture, cell_values, check, check_cell, check_expect};
use searchlab::scene::{Lab, Moment, Scene, Step};

use common::cli::{json_lines, searchlab};
use common::ui::{click, lesson_harness, settle};

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every bundled lecture, by file name (the chapters are numbered).
fn bundled_lectures() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(project().join("lectures"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    paths.sort();
    paths
}

/// A chapter of the course (the welcome lecture shows the format instead).
fn is_chapter(path: &Path) -> bool {
    !["welcome.md", "writing-lectures.md"].contains(&name(path))
}

fn name(path: &Path) -> &str {
    path.file_name().unwrap().to_str().unwrap()
}

fn read(path: &Path) -> Lecture {
    Lecture::parse(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|problem| panic!("{}", problem.at(name(path))))
}

/// An instruction to click something stands on the slide of the cell it is about, not on the next.
#[test]
fn a_slide_that_says_click_shows_a_cell() {
    for path in bundled_lectures() {
        for section in read(&path).sections {
            let says_click = section
                .blocks
                .iter()
                .any(|block| matches!(block, Block::Prose { text, .. } if text.contains("Click ")));
            let has_cell = section.blocks.iter().any(|block| matches!(block, Block::Cell(_)));
            assert!(
                !says_click || has_cell,
                "{}: slide {:?} says 'Click' with no cell to click",
                name(&path),
                section.title
            );
        }
    }
}

#[test]
fn every_bundled_lecture_loads_and_its_cells_check_clean() {
    let paths = bundled_lectures();
    assert!(paths.len() >= 7, "the welcome lecture and one per chapter: {paths:?}");
    for path in &paths {
        let lecture = read(path);
        assert!(lecture.title.is_some(), "{}: a title for the lecture list", name(path));
        let problems: Vec<String> = check(&lecture, project()).iter().map(|p| p.at(name(path))).collect();
        assert!(problems.is_empty(), "{problems:#?}");
        if !is_chapter(path) {
            continue;
        }
        assert!(lecture.cells().count() >= 6, "{}: a chapter shows at least 6 live cells", name(path));
        // When presenting, a cell reaches down to the bottom of the slide: one cell per slide, last.
        for section in &lecture.sections {
            let cells = section.blocks.iter().filter(|block| matches!(block, Block::Cell(_))).count();
            let last_is_cell = matches!(section.blocks.last(), Some(Block::Cell(_)));
            assert!(
                cells <= 1 && (cells == 0 || last_is_cell),
                "{}:{}: one cell per slide, after the prose",
                name(path),
                section.line
            );
        }
    }
}

#[test]
fn the_command_line_checks_every_bundled_lecture_clean() {
    let files: Vec<String> = bundled_lectures().iter().map(|path| format!("lectures/{}", name(path))).collect();
    let mut args = vec!["lecture", "--check"];
    args.extend(files.iter().map(String::as_str));
    let output = searchlab(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty());
    let lines = json_lines(&output);
    assert_eq!(lines.len(), files.len());
    for (line, file) in lines.iter().zip(&files) {
        assert_eq!(line["file"], file.as_str());
        assert_eq!(line["problems"], 0, "{file}");
    }
}

/// `cell` with the literal `key = ...` of its `expect` changed: a number's last digit counted up
/// (9 to 0), a text given one more letter, a flag flipped; and the line that writes it.
fn with_changed_expect(cell: &Cell, key: &str) -> (Cell, usize) {
    let mut lines: Vec<String> = cell.source.lines().map(str::to_string).collect();
    let from = lines.iter().position(|line| line.contains("expect")).expect("an expect");
    for (index, line) in lines.iter_mut().enumerate().skip(from) {
        let pattern = format!("{key} = ");
        let word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
        let Some(at) =
            line.match_indices(&pattern).map(|(at, _)| at).find(|&at| at == 0 || !word(line.as_bytes()[at - 1]))
        else {
            continue;
        };
        let start = at + pattern.len();
        let end = start + line[start..].find([',', '}', ' ']).unwrap_or(line.len() - start);
        let mut literal = line[start..end].to_string();
        match literal.as_str() {
            "true" => literal = "false".to_string(),
            "false" => literal = "true".to_string(),
            _ => {
                let last = literal.pop().expect("a literal");
                match last.to_digit(10) {
                    Some(digit) => literal.push(char::from_digit((digit + 1) % 10, 10).unwrap()),
                    None if last == '"' => literal.push_str("x\""),
                    None => panic!("{key}: an unexpected literal {literal}{last}"),
                }
            }
        }
        line.replace_range(start..end, &literal);
        let source = lines.join("\n") + "\n";
        return (Cell { source, ..cell.clone() }, cell.body_line(index));
    }
    panic!("{key} is not written in the cell's expect")
}

/// Every number a bundled cell's `expect` states is what its recording measures, and changing any
/// one makes the check fail at its line, naming it.
#[test]
fn changing_any_expected_number_fails_the_check_at_its_line() {
    let mut checked = 0;
    for path in bundled_lectures() {
        let lecture = read(&path);
        let measured = cell_values(&lecture, project());
        for (cell, measured) in lecture.cells().zip(&measured) {
            assert_eq!(cell.line, measured.line);
            let problems: Vec<String> = measured.problems.iter().map(|p| p.at(name(&path))).collect();
            assert!(problems.is_empty(), "{problems:#?}");
            let scene = Scene::from_toml(&cell.source).unwrap();
            for key in scene.expect.keys() {
                let (changed, line) = with_changed_expect(cell, key);
                let problems = check_expect(&changed, &measured.values);
                let at = format!("{}:{line}", name(&path));
                assert!(
                    problems.iter().any(|p| p.line == line && p.message.starts_with(&format!("expected {key} = "))),
                    "{at}: changing {key} went unnoticed: {problems:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 60, "the bundled lectures state {checked} checked numbers");
}

/// The binary fails on a lecture whose stated number no longer holds, naming the file and line.
#[test]
fn the_command_line_fails_on_a_number_that_no_longer_holds() {
    let scratch = common::scratch::ScratchDir::new("lecture-expect");
    let text = std::fs::read_to_string(project().join("lectures/writing-lectures.md")).unwrap();
    let changed = text.replacen("expanded = 654", "expanded = 690", 1);
    assert_ne!(changed, text);
    let file = scratch.write("changed.md", &changed);
    let line = changed.lines().position(|line| line.contains("expanded = 690")).unwrap() + 1;
    let output = searchlab(&["lecture", "--check", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("changed.md:{line}: expected expanded = 690, got 654")), "{stderr}");
}

/// `--values` prints each cell's line and measured values, the names `expect` takes.
#[test]
fn check_values_prints_each_cells_measurements() {
    let output = searchlab(&["lecture", "--check", "--values", "lectures/writing-lectures.md"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = json_lines(&output);
    let cells: Vec<&serde_json::Value> = lines.iter().filter(|line| line.get("values").is_some()).collect();
    let lecture = read(&project().join("lectures/writing-lectures.md"));
    assert_eq!(cells.len(), lecture.cells().count());
    let grid = cells[0];
    assert_eq!(grid["line"], lecture.cells().next().unwrap().line);
    assert_eq!(grid["values"]["expanded"], 654);
    assert!((grid["values"]["cost"].as_f64().unwrap() - 258.811).abs() < 5e-4);
    let tree = cells.iter().find(|cell| cell["values"].get("leaves").is_some()).expect("the game-tree cell");
    assert_eq!(tree["values"]["value"], 3);
    assert_eq!(lines.last().unwrap()["problems"], 0);
}

/// Shows `scene` on a fresh `page` as "Open in the lab" does and waits for its recording; returns
/// the harness, or what the page said was wrong.
fn open_on_page<L: Lesson + 'static>(
    mut page: L,
    scene: &Scene,
    error: fn(&L) -> Option<&str>,
) -> Result<egui_kittest::Harness<'static, L>, String> {
    page.set_scene(scene)?;
    // Tall, so that every statistic of the side panel is laid out on screen.
    let mut harness = lesson_harness([1400.0, 2400.0], page);
    settle(&mut harness);
    match error(harness.state()) {
        Some(error) => Err(error.to_string()),
        None => Ok(harness),
    }
}

/// The page opened on the authored step: a named moment is an event after the start.
fn assert_on_authored_step(authored: Step, shown: Step, at: &str) {
    let fits = match (authored, shown) {
        (Step::End, shown) => shown == Step::End,
        (Step::Index(index), Step::Index(at)) => index == at,
        (Step::Index(_), Step::End) => true,
        (Step::Moment(Moment::Start), shown) => shown == Step::Index(0),
        (Step::Moment(_), Step::Index(at)) => at > 0,
        (Step::Moment(_), Step::End) => true,
        _ => false,
    };
    assert!(fits, "{at}: authored step {authored}, the page shows {shown}");
}

#[test]
fn every_cell_opens_on_its_lab_page_on_its_authored_step() {
    for path in bundled_lectures() {
        let lecture = read(&path);
        for (index, cell) in lecture.cells().enumerate() {
            let at = format!("{}:{} (cell {index})", name(&path), cell.line);
            let scene = check_cell(cell, project()).unwrap_or_else(|problem| panic!("{}", problem.at(&at)));
            macro_rules! on_page {
                ($page:expr, $error:expr) => {{
                    let harness = open_on_page($page, &scene, $error).unwrap_or_else(|error| panic!("{at}: {error}"));
                    let shown = Lesson::scene(harness.state()).expect("a page that shows a scene says which");
                    assert_on_authored_step(scene.step, shown.step, &at);
                }};
            }
            match scene.lab {
                Lab::Grid | Lab::Hierarchical => on_page!(GridLab::from_saved(None), GridLab::error),
                Lab::Polygon => on_page!(NavmeshLab::new(), NavmeshLab::error),
                Lab::GameTree => on_page!(TreeLab::from_saved(None), TreeLab::error),
                Lab::Barca => on_page!(BarcaLab::new(), |_| None),
                Lab::Tuning => on_page!(TuningLab::new(), TuningLab::error),
                Lab::Agents => on_page!(AgentsLab::from_saved(None), AgentsLab::error),
                // A quiz cell asks its question in place: it opens no lab page.
                Lab::Quiz => {}
            }
        }
    }
}

/// A projector's 1280x720 pixels with text at 130%, in points.
const PROJECTOR: [f32; 2] = [1280.0 / 1.3, 720.0 / 1.3];

/// The notebook presenting `path` full screen on the projector.
fn present(path: &Path) -> egui_kittest::Harness<'static, Notebook> {
    let mut harness = egui_kittest::Harness::builder().with_size(PROJECTOR).with_pixels_per_point(1.3).build_ui_state(
        |ui, notebook: &mut Notebook| {
            notebook.logic(ui.ctx());
            notebook.ui(ui);
        },
        Notebook::open(path),
    );
    harness.state_mut().apply(NotebookCommand::Present(true));
    settle(&mut harness);
    harness
}

/// The lowest edge of anything on screen with text, in points.
fn lowest_text(harness: &egui_kittest::Harness<'_, Notebook>) -> f32 {
    harness
        .query_all_by(|node| node.label().is_some_and(|label| !label.is_empty()))
        .map(|node| node.rect().bottom())
        .fold(0.0, f32::max)
}

/// How far down slide `slide` reaches: its cell's canvas (which stretches to the bottom of the
/// screen when the prose above leaves room), or its lowest text when it shows no canvas.
fn slide_bottom(harness: &egui_kittest::Harness<'_, Notebook>, slide: usize) -> f32 {
    let notebook = harness.state();
    let section = &notebook.lecture().unwrap().sections[notebook.slides()[slide].0];
    let canvas = section.blocks.iter().find_map(|block| match block {
        Block::Cell(cell) => notebook.cells().iter().find(|view| view.line() == cell.line)?.rect(),
        _ => None,
    });
    canvas.map_or_else(|| lowest_text(harness), |rect| rect.bottom())
}

#[test]
fn presenting_every_slide_fits_the_projector_and_every_cell_comes_alive() {
    let screen_bottom = PROJECTOR[1];
    for path in bundled_lectures().into_iter().filter(|path| is_chapter(path)) {
        let mut harness = present(&path);
        assert_eq!(harness.state().error(), None);
        let slides = harness.state().slide_count();
        for slide in 0..slides {
            harness.state_mut().apply(NotebookCommand::GoToSlide(slide));
            settle(&mut harness);
            harness.get_by_label(&format!("Slide {} / {slides}", slide + 1));
            let bottom = slide_bottom(&harness, slide);
            assert!(
                bottom <= screen_bottom + 1.0,
                "{} slide {}: text reaches {bottom:.0} of {screen_bottom:.0} points",
                name(&path),
                slide + 1
            );
        }
        for cell in harness.state().cells() {
            assert!(cell.live().is_some(), "{}:{}: the cell was built when its slide showed", name(&path), cell.line());
        }
    }
}

#[test]
fn the_course_menu_lists_every_chapter_in_order() {
    let chapters: Vec<String> =
        bundled_lectures().iter().filter(|path| is_chapter(path)).map(|path| name(path).to_string()).collect();
    let listed: Vec<String> = COURSE_LECTURES.iter().map(|(file, _)| file.to_string()).collect();
    assert_eq!(listed, chapters);
}

#[test]
fn a_chapter_opens_from_the_course_menu_on_its_first_cell() {
    let mut harness = lesson_harness([1280.0, 900.0], Notebook::default());
    settle(&mut harness);
    click(&mut harness, "Course lectures");
    click(&mut harness, "4. Game trees: minimax, alpha-beta, ID");
    settle(&mut harness);
    let expected = read(&project().join("lectures/4-game-trees.md"));
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().lecture().map(|lecture| &lecture.title), Some(&expected.title));
    // The first cell (minimax) is live; the negamax cell below it may show the same figures.
    assert!(harness.state().cells()[0].live().is_some());
    assert!(harness.query_all_by_label_contains("Whole search: 186 nodes, 86 leaves, 0 cutoffs").next().is_some());
}

/// Every labelled widget of every slide (step counter, "Timeline", statistics, pseudocode,
/// legend, column headers) lies inside the projector's screen: nothing runs past an edge.
#[test]
fn presenting_every_slide_keeps_every_label_on_the_projector_screen() {
    let [width, height] = PROJECTOR;
    let mut clipped = Vec::new();
    for path in bundled_lectures().into_iter().filter(|path| is_chapter(path)) {
        let mut harness = present(&path);
        let slides = harness.state().slide_count();
        for slide in 0..slides {
            harness.state_mut().apply(NotebookCommand::GoToSlide(slide));
            settle(&mut harness);
            // A game tree's cards ("node 12: …", "others (3)", "2 pruned β cut") pan inside its canvas, which clips them.
            let pruned =
                |label: &str| label.contains(" pruned ") && (label.ends_with("α cut") || label.ends_with("β cut"));
            let card = |label: &str| label.starts_with("node ") || label.starts_with("others (") || pruned(label);
            for node in
                harness.query_all_by(|node| node.label().is_some_and(|label| !label.is_empty() && !card(&label)))
            {
                let rect = node.rect();
                if rect.right() > width + 1.0 || rect.bottom() > height + 1.0 || rect.left() < -1.0 {
                    let label = node.accesskit_node().label().unwrap_or_default();
                    clipped.push(format!("{} slide {}: {label:?} at {rect:?}", name(&path), slide + 1));
                }
            }
        }
    }
    assert!(clipped.is_empty(), "past the {width:.0}x{height:.0} screen:\n{}", clipped.join("\n"));
}

/// Card height, in points, below which a game-tree card's text cannot be read on the projector
/// (a card is 54 points tall with 14-point text at zoom 1: 36 points is text of about 12 pixels).
const READABLE_CARD: f32 = 36.0;

/// Runs `check` on every game-tree cell of the chapters, at its authored step, in a cell as big
/// as the notebook gives it on the projector; `at` names the lecture and slide.
fn for_each_game_tree_cell(mut check: impl FnMut(&str, &mut egui_kittest::Harness<'static, TreeLab>)) {
    for path in bundled_lectures().into_iter().filter(|path| is_chapter(path)) {
        let mut notebook = present(&path);
        let sections = notebook.state().lecture().unwrap().sections.clone();
        for (index, section) in sections.iter().enumerate() {
            let Some(Block::Cell(cell)) = section.blocks.iter().find(|b| matches!(b, Block::Cell(_))) else { continue };
            let slide = notebook.state().slides().iter().position(|&slide| slide == (index, false)).unwrap();
            let scene = check_cell(cell, project()).unwrap();
            if scene.lab != Lab::GameTree {
                continue;
            }
            notebook.state_mut().apply(NotebookCommand::GoToSlide(slide));
            settle(&mut notebook);
            let canvas = notebook
                .state()
                .cells()
                .iter()
                .find(|view| view.line() == cell.line)
                .and_then(|view| view.rect())
                .unwrap();
            // The same page, drawn as the notebook draws the cell: as wide, its canvas as tall.
            let mut lab = TreeLab::from_saved(None);
            lab.set_scene(&scene).unwrap();
            let height = canvas.height();
            let mut harness = egui_kittest::Harness::builder()
                .with_size([PROJECTOR[0] - 2.0 * canvas.left(), height + 120.0])
                .with_pixels_per_point(1.3)
                .build_ui_state(
                    move |ui, lab: &mut TreeLab| {
                        lab.logic(ui.ctx());
                        searchlab::app::LiveCell::cell_ui(lab, ui, height);
                    },
                    lab,
                );
            settle(&mut harness);
            check(&format!("{} slide {}", name(&path), slide + 1), &mut harness);
        }
    }
}

/// The tree's cards ("node 12: …", "others (3)", "2 pruned β cut") where the canvas draws them:
/// their widgets lie in the tree's plane, which the canvas shows `scene_rect` of, centred.
fn cards_on_canvas(harness: &egui_kittest::Harness<'static, TreeLab>) -> Vec<(String, egui::Rect)> {
    let shown = harness.get_by_label("Game tree canvas").rect();
    let scene_rect = harness.state().scene_rect();
    let scale = (shown.size() / scene_rect.size()).min_elem().clamp(0.01, 1.5);
    let is_card =
        |label: &str| label.starts_with("node ") || label.starts_with("others (") || label.contains(" pruned ");
    harness
        .query_all_by(|node| node.label().is_some_and(|label| is_card(&label)))
        .map(|node| {
            let rect = node.rect();
            let on_canvas = egui::Rect::from_center_size(
                shown.center() + (rect.center() - scene_rect.center()) * scale,
                rect.size() * scale,
            );
            (node.accesskit_node().label().unwrap_or_default(), on_canvas)
        })
        .collect()
}

/// Every game-tree cell of the chapters opens with readable cards and the root on the canvas.
#[test]
fn game_tree_cells_open_with_readable_cards_and_the_root_in_view() {
    for_each_game_tree_cell(|at, harness| {
        let shown = harness.get_by_label("Game tree canvas").rect();
        let cards = cards_on_canvas(harness);
        let (_, root) = cards.iter().find(|(label, _)| label.contains(": root ")).expect("the root's card");
        assert!(shown.expand(1.0).contains_rect(*root), "{at}: the root {root:?} is off the canvas {shown:?}");
        let card = root.height();
        assert!(card >= READABLE_CARD, "{at}: cards {card:.0} points tall, fewer than {READABLE_CARD}");
    });
}

/// A game tree laid out tidily (no card over another) is shown whole in its cell when it fits at
/// a readable size; else the canvas says how much of it is in view and where the rest lies, and
/// its button shows the whole tree (saying when its cards are too small to read).
#[test]
fn game_tree_cells_show_the_whole_tree_or_say_what_is_cut() {
    let mut whole = Vec::new();
    let mut noted = Vec::new();
    for_each_game_tree_cell(|at, harness| {
        let shown = harness.get_by_label("Game tree canvas").rect();
        let cards = cards_on_canvas(harness);
        for (i, (a, ra)) in cards.iter().enumerate() {
            for (b, rb) in &cards[i + 1..] {
                assert!(!ra.intersects(*rb), "{at}: '{a}' {ra:?} overlaps '{b}' {rb:?}");
            }
        }
        let in_view = |cards: &[(String, egui::Rect)]| {
            cards.iter().filter(|(_, card)| shown.expand(1.0).contains_rect(*card)).count()
        };
        let note = harness
            .query_by_label_contains(" cards in view, more ")
            .map(|note| (note.accesskit_node().value(), note.rect()));
        if in_view(&cards) == cards.len() {
            assert!(note.is_none(), "{at}: the whole tree is in view, yet the canvas says {note:?}");
            whole.push(at.to_string());
            return;
        }
        let (text, rect) = note
            .unwrap_or_else(|| panic!("{at}: {} of {} cards in view, and no word of it", in_view(&cards), cards.len()));
        assert!(
            text.as_deref().is_some_and(|text| text.contains(&format!(" of {} cards in view, more ", cards.len()))),
            "{at}: {text:?}"
        );
        // The note and its button sit in a row under the canvas (review 2, #6: over it they hid cards).
        let button = harness.get_by_label("Show the whole tree").rect();
        for (what, rect) in [("note", rect), ("button", button)] {
            assert!(rect.top() >= shown.bottom() - 1.0, "{at}: the {what} {rect:?} is not under the canvas {shown:?}");
            for (card, on_canvas) in &cards {
                assert!(
                    !on_canvas.intersect(shown).intersects(rect),
                    "{at}: the {what} {rect:?} covers '{card}' {on_canvas:?}"
                );
            }
        }
        noted.push(at.to_string());
        harness.get_by_label("Show the whole tree").click();
        harness.run();
        let cards = cards_on_canvas(harness);
        assert_eq!(in_view(&cards), cards.len(), "{at}: 'Show the whole tree' leaves cards out");
        // Cards too small to read say so, and "Readable size" goes back to the view it opened on.
        if harness.query_by_label_contains("The whole tree, in small cards").is_some() {
            harness.get_by_label("Readable size").click();
            harness.run();
            let (_, root) = cards_on_canvas(harness)
                .into_iter()
                .find(|(label, _)| label.contains(": root "))
                .expect("the root's card");
            assert!(
                root.height() >= READABLE_CARD,
                "{at}: 'Readable size' left cards {:.0} points tall",
                root.height()
            );
            harness.get_by_label_contains(" cards in view, more ");
        }
    });
    // The textbook tree by hand, with minimax and alpha-beta, at least.
    assert!(whole.len() >= 2, "shown whole: {whole:?}");
    // Lecture 4's large trees and lecture 5's UCT cells, the selection rule's slide among them, say what is cut.
    for lecture in ["4-", "5-monte-carlo-tree-search.md slide 3"] {
        assert!(noted.iter().any(|at| at.starts_with(lecture)), "no note on {lecture}: {noted:?}");
    }
}

/// On a slide, the highlighted pseudocode line and the narration sentence of a cell lie inside
/// the cell, beside its canvas, without scrolling: lines near the end of a long pseudocode too,
/// and a planner's long comparison table does not push them off.
#[test]
fn presenting_keeps_the_current_pseudocode_line_and_the_narration_beside_the_canvas() {
    // Lecture, slide (from 1), the current line, the start of the narration sentence.
    let cases = [
        ("1-grid-search.md", 2, "if v = goal: return the path to v", "The goal (35,11) is reached"),
        ("3-triangulations.md", 4, "if c reaches the goal: best = min(best, funnel(c))", "A channel of "),
    ];
    for (lecture, slide, line, narration) in cases {
        // Read first, as a lecturer opens it, then presented: the cell's column shrinks.
        let mut harness = lesson_harness(PROJECTOR, Notebook::open(&project().join("lectures").join(lecture)));
        settle(&mut harness);
        harness.state_mut().apply(NotebookCommand::Present(true));
        harness.state_mut().apply(NotebookCommand::GoToSlide(slide - 1));
        settle(&mut harness);
        let canvas = slide_bottom(&harness, slide - 1);
        let top = harness.get_by_label(&format!("Slide {slide} / {}", harness.state().slide_count())).rect().bottom();
        // The statistics lie below the pseudocode's own scrolling view.
        let figures = harness
            .query_all_by(|node| node.label().is_some_and(|label| label.starts_with("Step ") && label.contains(" / ")))
            .map(|node| node.rect().top())
            .fold(canvas, f32::min);
        let code = harness.get_by_label(line).rect();
        assert!(
            code.bottom() <= figures,
            "{lecture} slide {slide}: the line at {code:?}, the figures start at {figures:.0}"
        );
        for (what, rect) in [("line", code), ("narration", harness.get_by_label_contains(narration).rect())] {
            assert!(
                rect.top() > top && rect.bottom() <= canvas + 1.0,
                "{lecture} slide {slide}: the {what} at {rect:?}, the cell ends at {canvas:.0}"
            );
        }
    }
}

/// On a slide the tuning cell's two charts share the slide's free height: each is tall enough
/// for several ticks and its axis title, and the cell reaches the bottom of the screen.
#[test]
fn presenting_the_tuning_cell_lets_its_charts_fill_the_slide() {
    let mut harness = present(&project().join("lectures/6-barca-ai.md"));
    let section = harness.state().lecture().unwrap().sections.iter().position(|section| {
        section
            .blocks
            .iter()
            .any(|block| matches!(block, Block::Cell(cell) if cell.source.contains("lab = \"tuning\"")))
    });
    // A quiz section before it takes two slides.
    let slide =
        section.and_then(|section| harness.state().slides().iter().position(|&slide| slide == (section, false)));
    harness.state_mut().apply(NotebookCommand::GoToSlide(slide.expect("lecture 6 has a tuning cell")));
    settle(&mut harness);
    // A chart lies below its legend, down to the next chart's title or the cell's bottom.
    let cell = slide_bottom(&harness, slide.unwrap());
    let weights = harness.get_by_label_contains("Weights").rect().top();
    let scores = harness.get_by_label("report score").rect().bottom();
    let score_chart = if weights > scores { weights } else { cell } - scores;
    let weight_chart = cell - harness.get_by_label("holes_held[0]").rect().bottom();
    for (chart, height) in [("score", score_chart), ("weights", weight_chart)] {
        assert!(height > 200.0, "the {chart} chart and its axes take {height:.0} points");
    }
    assert!(cell > PROJECTOR[1] - 30.0, "the cell ends at {cell:.0} of {:.0} points", PROJECTOR[1]);
}
