//! Pixel snapshots of every lesson, rendered by wgpu (Mesa's software Vulkan driver in CI), in the
//! whole app at the two window sizes of a lecture. They catch what the label-driven tests cannot:
//! a canvas drawn in the wrong place, lost colours, a panel over the map, text cut off at 130%.
//! `UPDATE_SNAPSHOTS=1 cargo test --test app_snapshots` rewrites them after a deliberate change;
//! look at `tests/snapshots/*.png` before committing. Add a lesson's further states to `states`.

use std::time::Duration;

use egui_kittest::kittest::{By, NodeT, Queryable};
use egui_kittest::{Harness, SnapshotOptions};
use searchlab::app::{LESSONS, SearchlabApp};

mod common;
use common::ui::app_on;

type AppHarness = Harness<'static, SearchlabApp>;

/// A laptop's window, and a projector's with the text at 130%: (name, size in pixels, zoom).
const VIEWS: [(&str, [f32; 2], f32); 2] =
    [("1400x900", [1400.0, 900.0], 1.0), ("1280x720_text130", [1280.0, 720.0], 1.3)];

/// A named state of a page and how to reach it from the one before.
type State = (&'static str, fn(&mut AppHarness));

/// A lesson's states beyond the one it opens in: a name and how to get there from the previous one.
fn states(title: &str) -> Option<Vec<State>> {
    Some(match title {
        "Grid search" => vec![
            ("astar_step_300", |harness| {
                for _ in 0..300 {
                    harness.get_by_label("Step >").click();
                    harness.run();
                }
            }),
            ("astar_end", |harness| harness.get_by_label("End >|").click()),
            // The queue's front and its narration.
            ("bfs_step_60", |harness| {
                harness.get_by_label("BFS").click_accesskit();
                settle(harness);
                timeline(harness, 60.0);
            }),
            // The planner's narration while stepping through HPA*.
            ("hpa_planner_step_60", |harness| {
                harness.get_by_label("HPA*").click_accesskit();
                settle(harness);
                harness.get_by_label("the planner").click_accesskit();
                harness.run();
                timeline(harness, 60.0);
            }),
            // Back to the straight line HPA* tried first, crossed out where the maze blocks it.
            ("hpa_planner_line_blocked", |harness| timeline(harness, 2.0)),
            // The projector theme, then its colour-blind-safe colours (no green against red).
            ("light", |harness| harness.get_by_label("Light (projector)").click()),
            ("light_colour_blind_safe", |harness| harness.get_by_label("Colour-blind safe").click()),
        ],
        "Polygon maps" => vec![
            ("funnel_end", |harness| {
                harness.get_by_label("Funnel").click();
                harness.run();
                harness.get_by_label("End >|").click();
            }),
            // Polyanya mid-search: the merged polygons, an interval's cone from its root, its
            // successors with f; then the path it proves shortest.
            ("polyanya_step_12", |harness| {
                harness.get_by_label("Search").click_accesskit();
                harness.get_by_label("Polyanya").click_accesskit();
                settle(harness);
                timeline(harness, 12.0);
            }),
            ("polyanya_end", |harness| harness.get_by_label("End >|").click_accesskit()),
            ("tra_rooms128", |harness| {
                // By accessibility: at 720p the panel is scrolled to its foot, and a click lands on nothing.
                harness.get_by_label("Search").click_accesskit();
                harness.get_by_label("rooms128.map").click_accesskit();
                settle(harness);
                harness.get_by_label("TRA*").click_accesskit();
            }),
            ("tra_rooms128_light", |harness| harness.get_by_label("Light (projector)").click()),
        ],
        "Game-tree search" => vec![
            // A step's narration: the node, its value for X and the window (α, β).
            ("alphabeta_step_25", |harness| timeline(harness, 25.0)),
            // Alpha-beta's bounds (≤ 0 under a3) and the view following to the end.
            ("alphabeta_end", |harness| harness.get_by_label("End >|").click()),
            ("fit", |harness| harness.get_by_label("Fit").click()),
            // UCT cards sized by visits, side by side; values for X.
            ("uct_step_8", |harness| {
                harness.get_by_label("UCT").click_accesskit();
                settle(harness);
                timeline(harness, 8.0);
            }),
            // The textbook tree typed in: alpha-beta's bounds and the pruned leaves 4 and 6.
            ("custom_tree_end", |harness| {
                // By accessibility: at 720p the panel is scrolled to its foot, and a click lands on nothing.
                harness.get_by_label("Custom tree").click_accesskit();
                settle(harness);
                harness.get_by_label("Alpha-beta").click_accesskit();
                settle(harness);
                harness.get_by_label("End >|").click();
                harness.run();
                harness.get_by_label("Expand all").click();
                harness.run();
                harness.get_by_label("Fit").click();
            }),
            ("custom_tree_end_light", |harness| harness.get_by_label("Light (projector)").click()),
            // SM-MCTS on rock-paper-scissors: the root's joint-action matrix, the pair selected
            // highlighted, and the exact equilibrium beside the search's strategy.
            ("sm_mcts_rock_paper_scissors", |harness| {
                harness.get_by_label("Light (projector)").click();
                harness.run();
                harness.get_by_label("Simultaneous moves (SM-MCTS)").click_accesskit();
                // The side panel scrolls to the new pseudocode line: a few frames of animation.
                harness.run_steps(8);
                harness.get_by_label("Root").click_accesskit();
            }),
        ],
        "Multi-agent paths" => vec![
            // Independent A*: the agents' paths collide, marked on the map.
            ("independent_end", |harness| {
                harness.get_by_label("Independent A*").click_accesskit();
                settle(harness);
                harness.get_by_label("End >|").click();
            }),
            // WHCA*: a step inside an agent's windowed search, the reservations at its time.
            ("whca_step_200", |harness| {
                harness.get_by_label("WHCA*").click_accesskit();
                settle(harness);
                timeline(harness, 200.0);
            }),
        ],
        "Barca: play" => vec![("light", |harness| harness.get_by_label("Light (projector)").click())],
        "Lecture notebook" => vec![("presenting_slide_2", |harness| {
            harness.get_by_label("Present").click();
            harness.run();
            harness.key_press(egui::Key::PageDown);
        })],
        // Othello opens; Hus's board too, a human to move first (nothing thinking).
        "Play a game" => vec![("hus", |harness| pick_game(harness, "Hus"))],
        "Tuning" => vec![("light", |harness| harness.get_by_label("Light (projector)").click())],
        // The first practice question answered right, then the next one answered wrong.
        "Quiz" => vec![
            ("right", |harness| answer_quiz(harness, true)),
            ("wrong", |harness| {
                harness.get_by_label("Another one").click();
                harness.run();
                answer_quiz(harness, false);
            }),
        ],
        _ => return None,
    })
}

/// Types an answer to the quiz question shown, the right one or one off by one, and checks it.
fn answer_quiz(harness: &mut AppHarness, right: bool) {
    use searchlab::quiz::{Answer, generate};
    let scene = harness.state().current_scene().expect("the question's scene");
    let kind = scene.kind.as_deref().unwrap().parse().unwrap();
    let question = generate(kind, scene.seed.unwrap(), &scene.quiz_options()).unwrap();
    let typed = match (question.body.answer, right) {
        (Answer::Cells(cells), true) => format!("{}, {}", cells[0][0], cells[0][1]),
        (Answer::Values { g, h, f }, true) => format!("{g}, {h}, {f}"),
        (Answer::Values { g, h, f }, false) => format!("{}, {h}, {f}", g + 1.0),
        (answer, _) => panic!("no typed answer for {answer:?} here"),
    };
    harness.get_by_label("Your answer:").click();
    harness.run();
    harness.get_by_label("Your answer:").type_text(&typed);
    harness.run();
    harness.get_by_label("Check").click();
}

/// Moves the page's replay to `step` by its timeline slider.
/// The play page's game `name`, from its Game menu.
fn pick_game(harness: &mut AppHarness, name: &str) {
    harness.get_by_label("Game").click_accesskit();
    harness.run();
    harness.get_by_label(name).click_accesskit();
    harness.run();
    // Picked through accessibility, the menu stays open: closed as a user would.
    harness.key_press(egui::Key::Escape);
    harness.run();
}

fn timeline(harness: &mut AppHarness, step: f64) {
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit(step);
}

/// Runs frames until no lesson works in the background (at most ~60 s), then until the UI is still.
fn settle(harness: &mut AppHarness) {
    for _ in 0..12_000 {
        harness.step();
        if !harness.state().is_busy() {
            harness.run();
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("a background job did not finish");
}

/// "Game-tree search" -> "game_tree_search".
fn file_name(title: &str) -> String {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join("_")
        .to_lowercase()
}

#[test]
fn every_lesson_matches_its_snapshots() {
    // Measured times are shown in the statistics: a few glyphs may differ from run to run (the
    // four digits of "0.0351 ms" against "0.0246 ms" differed in 601 pixels).
    let options = SnapshotOptions::new().max_failed_pixels(900);
    let mut failures = Vec::new();
    for lesson in &LESSONS {
        for (view, [width, height], zoom) in VIEWS {
            let mut harness = app_on(lesson.title, [width, height], zoom);
            let name = file_name(lesson.title);
            let mut shots = vec![(format!("{name}_{view}"), None)];
            shots.extend(
                states(lesson.title)
                    .unwrap_or_else(|| {
                        panic!("lesson '{}' has no snapshot states: give it some in states()", lesson.title)
                    })
                    .into_iter()
                    .map(|(state, reach)| (format!("{name}_{state}_{view}"), Some(reach))),
            );
            for (shot, reach) in shots {
                if let Some(reach) = reach {
                    reach(&mut harness);
                    settle(&mut harness);
                }
                if let Err(error) = harness.try_snapshot_options(&shot, &options) {
                    failures.push(format!("{shot}: {error}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "snapshots differ:\n{}", failures.join("\n"));
}

/// On a projector (1280x720, text at 130%) the map pages give the canvas most of the room and no
/// widget lies over the canvas or over another panel's controls, in either theme.
#[test]
fn map_pages_keep_their_panels_apart_at_1280x720_with_large_text() {
    let (_, size, zoom) = VIEWS[1];
    let pages = [("Grid search", "Map canvas"), ("Polygon maps", "Polygon canvas")];
    for ((title, canvas_label), light) in pages.into_iter().flat_map(|page| [(page, false), (page, true)]) {
        let mut harness = app_on(title, size, zoom);
        if light {
            harness.get_by_label("Light (projector)").click();
            settle(&mut harness);
        }
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size[0] / zoom, size[1] / zoom));
        let canvas = harness.get_by_label(canvas_label).rect();

        assert!(canvas.width() >= 0.45 * window.width(), "{title}: the canvas is only {canvas:?} of {window:?}");
        assert!(canvas.height() >= 0.55 * window.height(), "{title}: the canvas is only {canvas:?} of {window:?}");
        let labelled =
            harness.query_all(By::new().predicate(|node| node.label().is_some_and(|label| !label.is_empty())));
        for node in labelled {
            let rect = node.rect();
            let label = node.accesskit_node().label().unwrap_or_default();
            if label != canvas_label {
                let overlap = rect.intersect(canvas);
                assert!(
                    overlap.width() <= 0.5 || overlap.height() <= 0.5,
                    "{title}: '{label}' {rect:?} lies over the canvas {canvas:?}"
                );
            }
        }
        // The replay buttons are not covered by the side panel's controls.
        for button in ["|< Start", "< Step back", "Step >", "End >|"] {
            let rect = harness.get_by_label(button).rect();
            assert!(window.contains_rect(rect), "{title}: '{button}' {rect:?} is off the window");
            for node in
                harness.query_all(By::new().predicate(|node| node.label().is_some_and(|label| !label.is_empty())))
            {
                let label = node.accesskit_node().label().unwrap_or_default();
                let overlap = node.rect().intersect(rect);
                let apart = overlap.width() <= 0.5 || overlap.height() <= 0.5;
                assert!(label == button || apart, "{title}: '{label}' {:?} covers '{button}' {rect:?}", node.rect());
            }
        }
    }
}
