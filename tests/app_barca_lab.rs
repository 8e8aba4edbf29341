//! The Barca page driven through its labelled board squares and controls, as a player would. The
//! computer thinks on a worker thread, so tests poll the harness (a bounded number of frames).

mod common;

use common::scratch::ScratchDir;
use common::ui::{click, type_into};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use searchlab::app::{BarcaCommand, BarcaLab, Seat};
use searchlab::games::Game;
use searchlab::games::barca::{Barca, START_FEN, Weights, parse_square};

type LabHarness = Harness<'static, BarcaLab>;

fn lab_harness() -> LabHarness {
    let mut harness = common::ui::lesson_harness([1500.0, 950.0], BarcaLab::new());
    harness.run();
    harness
}

/// A page where both sides are played by hand.
fn two_player_harness() -> LabHarness {
    let mut harness = lab_harness();
    click(&mut harness, "Human vs human");
    harness
}

fn click_square(harness: &mut LabHarness, square: &str) {
    click(harness, &format!("square {square}"));
}

/// Clicks the animal on `from`, then the square `to`.
fn click_move(harness: &mut LabHarness, from: &str, to: &str) {
    click_square(harness, from);
    click_square(harness, to);
}

/// Runs frames until `done` holds (at most ~30 s: the dev profile's searches are slower).
fn bit(square: &str) -> u128 {
    1 << parse_square(square).unwrap()
}

fn notice(lab: &BarcaLab) -> String {
    lab.notice().map(|n| n.text.clone()).unwrap_or_default()
}

#[test]
fn clicking_an_animal_shows_its_dots_and_clicking_a_green_dot_moves_it() {
    let mut harness = two_player_harness();
    harness.get_by_label("White to move");
    click_square(&mut harness, "e2");
    let decor = harness.state().decor();
    assert_eq!(decor.selected, parse_square("e2").ok());
    // The white mouse on e2 slides up the e-file to e8; next to the black lion on d9, e8 would scare it.
    let file: u128 = ["e3", "e4", "e5", "e6", "e7"].iter().map(|s| bit(s)).sum();
    assert_eq!(decor.green_dots, file);
    assert_eq!(decor.red_dots, bit("e8"));

    click_square(&mut harness, "e5");
    assert_eq!(harness.state().moves_text(), "e2e5");
    assert_eq!(harness.state().game().to_fen(), "4ee4/3lmml3/10/10/10/4M5/10/10/3L1ML3/4EE4 b");
    assert_eq!(harness.state().decor().last_move.map(|m| m.to_string()), Some("e2e5".to_string()));
    harness.get_by_label("Black to move");
    assert_eq!(harness.state().notice(), None);
}

#[test]
fn an_illegal_click_is_refused_with_a_message_and_the_position_kept() {
    let mut harness = two_player_harness();
    click_move(&mut harness, "e2", "e8");
    let message = "e2e8: the mouse would be scared on e8";
    assert_eq!(notice(harness.state()), message);
    harness.get_by_label(message);
    assert_eq!(harness.state().game().to_fen(), START_FEN);
    assert_eq!(harness.state().moves_text(), "");

    // The mouse stays selected: an occupied square is out of its reach.
    click_square(&mut harness, "e9");
    assert_eq!(notice(harness.state()), "e2e9: the mouse on e2 cannot reach e9");
    // Clicking it again puts it down; Black's animals are not White's to move.
    click_square(&mut harness, "e2");
    assert_eq!(harness.state().decor().selected, None);
    click_square(&mut harness, "e9");
    assert_eq!(notice(harness.state()), "The mouse on e9 is Black's: White to move");
    click_square(&mut harness, "e5");
    harness.get_by_label("Click one of White's animals first");
    assert_eq!(harness.state().game().ply(), 0);
}

#[test]
fn undo_redo_and_a_new_move_after_undo_starts_a_new_line() {
    let mut harness = two_player_harness();
    click_move(&mut harness, "e2", "e5");
    click_move(&mut harness, "e9", "e6");
    assert_eq!(harness.state().moves_text(), "e2e5 e9e6");
    click(&mut harness, "Undo");
    assert_eq!(harness.state().moves_text(), "e2e5");
    harness.get_by_label("Black to move");
    click(&mut harness, "Undo");
    assert_eq!(harness.state().game().to_fen(), START_FEN);
    click(&mut harness, "Redo");
    click(&mut harness, "Redo");
    assert_eq!(harness.state().moves_text(), "e2e5 e9e6");
    click(&mut harness, "Redo");
    assert_eq!(notice(harness.state()), "Nothing to redo");

    // Back to the start via the move list, then play from there: the old line is gone.
    click(&mut harness, "Start position");
    assert_eq!(harness.state().game().ply(), 0);
    click_move(&mut harness, "f2", "f5");
    assert_eq!(harness.state().moves_text(), "f2f5");
    click(&mut harness, "Redo");
    assert_eq!(harness.state().moves_text(), "f2f5");
}

#[test]
fn the_computer_answers_a_move_on_its_worker() {
    let mut harness = lab_harness();
    assert_eq!(harness.state().settings().players, [Seat::Human, Seat::Computer], "White plays the computer");
    click_move(&mut harness, "e2", "e5");
    common::ui::wait_until(&mut harness, |lab| lab.game().ply() == 2);
    let lab = harness.state();
    assert!(!lab.is_thinking());
    assert_eq!(lab.game().side_to_move(), searchlab::games::Side::First);
    // Its reply was legal in the position after e2e5.
    let mut replay = Barca::start();
    for text in lab.moves_text().split(' ') {
        let mv = replay.parse_move(text).expect("every move played is legal");
        replay.make_move(mv);
    }
    assert_eq!(replay.to_fen(), lab.game().to_fen());
    harness.get_by_label_contains("Last computer search: sampled among the best five moves at depth 3");
}

#[test]
fn stop_makes_a_hard_search_play_its_best_move_so_far() {
    let mut harness = two_player_harness();
    click(&mut harness, "Hard");
    // The Hard search stops itself after one second; on a loaded machine that can pass before
    // Stop is pressed, so try again (from the start) until Stop reached a running search.
    for attempt in 1.. {
        assert!(attempt <= 10, "Stop never reached a running search");
        harness.get_by_label("Computer move").click();
        harness.step();
        harness.step();
        if let Some(stop) = harness.query_by_label("Stop") {
            stop.click();
            harness.step();
        }
        common::ui::wait_until(&mut harness, |lab| !lab.is_thinking());
        if notice(harness.state()) == "Stopped: the computer plays the best move it has found so far" {
            break;
        }
        click(&mut harness, "Undo");
    }
    let lab = harness.state();
    assert_eq!(lab.game().ply(), 1, "the best move so far was played");
    assert_eq!(notice(lab), "Stopped: the computer plays the best move it has found so far");
    assert!(Barca::start().check_legal(lab.game().moves_played().next().unwrap()).is_ok());
}

#[test]
fn a_bad_position_is_reported_and_the_game_kept() {
    let mut harness = two_player_harness();
    click_move(&mut harness, "e2", "e5");
    type_into(&mut harness, "Position (FEN)", "4ee4/3lmml3/10 w");
    click(&mut harness, "Load position");
    let message =
        "Position not loaded: position has 3 rows separated by '/', expected 10. The game on the board is kept.";
    assert_eq!(notice(harness.state()), message);
    harness.get_by_label(message);
    assert_eq!(harness.state().moves_text(), "e2e5");

    let fen = "4ee4/3lmml3/10/10/10/10/10/10/3LMML3/4EE4 b";
    type_into(&mut harness, "Position (FEN)", fen);
    click(&mut harness, "Load position");
    assert_eq!(harness.state().game().to_fen(), fen);
    assert_eq!(harness.state().moves_text(), "");
    harness.get_by_label("Black to move");
}

#[test]
fn bad_weights_are_reported_and_the_old_ones_kept() {
    let dir = ScratchDir::new("barca-lab");
    let path = dir.write("bad-weights.json", "{\"holes_held\": [0, 1, 2, 3]}");
    let mut harness = lab_harness();
    type_into(&mut harness, "Weights file (JSON)", path.to_str().unwrap());
    click(&mut harness, "Load weights");
    let text = notice(harness.state());
    assert!(text.starts_with("Weights not loaded, still using default:"), "{text}");
    assert!(text.contains("missing field"), "{text}");
    assert_eq!(harness.state().weights(), &Weights::default());

    let weights = Weights { centre: 7, ..Weights::default() };
    std::fs::write(&path, weights.to_json()).unwrap();
    click(&mut harness, "Load weights");
    assert_eq!(harness.state().weights().centre, 7);
    harness.get_by_label_contains(&format!("with the {} weights", path.display()));
}

#[test]
fn a_saved_game_loads_back_and_threefold_repetition_is_announced() {
    let dir = ScratchDir::new("barca-lab");
    let path = dir.path("game.txt");
    let mut harness = two_player_harness();
    click_move(&mut harness, "e2", "e5");
    click_move(&mut harness, "e9", "e6");
    type_into(&mut harness, "Game file", path.to_str().unwrap());
    click(&mut harness, "Save game");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "1. e2e5 e9e6\n");
    click(&mut harness, "New game");
    assert_eq!(harness.state().moves_text(), "");
    click(&mut harness, "Load game file");
    assert_eq!(harness.state().moves_text(), "e2e5 e9e6");

    type_into(&mut harness, "Game (moves)", "1. e2e3 e9e8 2. e3e2 e8e9 3. e2e3 e9e8 4. e3e2 e8e9");
    click(&mut harness, "Load game text");
    assert_eq!(harness.state().game().to_fen(), START_FEN);
    harness.get_by_label("Draw by threefold repetition");
    click_square(&mut harness, "e2");
    assert!(notice(harness.state()).starts_with("The game is over (draw)"));

    type_into(&mut harness, "Game (moves)", "1. e2e3 e9e8 2. e3e9");
    click(&mut harness, "Load game text");
    let text = notice(harness.state());
    assert!(text.starts_with("Game not loaded: line 1: move 3:"), "{text}");
    assert_eq!(harness.state().game().ply(), 8, "the repetition game is kept");
}

#[test]
fn two_uct_computers_play_each_other_without_a_human() {
    let mut harness = lab_harness();
    click(&mut harness, "UCT (Monte Carlo tree search)");
    click(&mut harness, "Easy");
    harness.get_by_label("The computer runs 300 playouts, then plays the most visited move.");
    harness.state_mut().apply(BarcaCommand::SetMoveDelay(0));
    click(&mut harness, "Computer vs computer");
    common::ui::wait_until(&mut harness, |lab| lab.game().ply() >= 3);
    let lab = harness.state();
    let mut replay = Barca::start();
    for text in lab.moves_text().split(' ') {
        replay.make_move(replay.parse_move(text).expect("every move played is legal"));
    }
    // Each search goes on from the tree the last move left (the same player plays both sides).
    let summary = lab.last_search().unwrap_or_default();
    assert!(summary.starts_with("300 playouts + ") && summary.contains(" kept from the last move, "), "{summary}");
}

#[test]
fn the_app_lists_the_barca_lesson_and_opens_it() {
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, app: &mut searchlab::app::SearchlabApp| app.show(ui), Default::default());
    harness.run();
    harness.get_by_label("Barca: play").click();
    harness.run();
    harness.get_by_label("White to move");
    harness.get_by_label("square j10");
}

#[test]
fn while_the_computer_thinks_the_board_shows_its_best_move_so_far() {
    let mut harness = two_player_harness();
    click(&mut harness, "Hard");
    harness.get_by_label("Computer move").click();
    harness.step();
    assert!(harness.state().is_thinking());
    // Hard thinks for a second; its first iteration names a move within milliseconds.
    let mut shown = None;
    while harness.state().is_thinking() && shown.is_none() {
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
        shown = harness.state().decor().best_so_far;
    }
    let mv = shown.expect("an arrow while thinking");
    assert!(Barca::start().check_legal(mv).is_ok(), "{mv} is a legal first move");
    common::ui::wait_until(&mut harness, |lab| !lab.is_thinking());
    assert_eq!(harness.state().decor().best_so_far, None, "no arrow once the move is played");
}

#[test]
fn a_loaded_position_says_how_the_computer_resumes() {
    // Human (White) against the computer (Black): the page's default.
    let mut harness = lab_harness();
    assert_eq!(harness.state().settings().players, [Seat::Human, Seat::Computer]);
    type_into(&mut harness, "Position (FEN)", START_FEN);
    click(&mut harness, "Load position");
    assert_eq!(notice(harness.state()), "Position loaded (the computer answers your next move)");
    assert!(harness.query_by_label("Resume").is_none(), "no Resume button while the human is to move");

    harness.get_by_label("Start position");

    let black_to_move = START_FEN.replace(" w", " b");
    type_into(&mut harness, "Position (FEN)", &black_to_move);
    click(&mut harness, "Load position");
    assert_eq!(notice(harness.state()), "Position loaded (the computer waits: press Resume)");
    harness.get_by_label("Resume");
    // The move list starts from the position given, which is not Barca's start.
    harness.get_by_label("Given position");
    assert!(harness.query_by_label("Start position").is_none());
}

/// On a projector (1280x720, text at 130%) the whole evaluation table is inside the side panel:
/// every heading and feature whole, no column reached only by scrolling sideways ("Contribution"
/// was cut to "Contributio").
#[test]
fn the_evaluation_table_fits_the_side_panel_at_720p_with_large_text() {
    let mut harness = common::ui::app_on("Barca: play", [1280.0, 720.0], 1.3);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0) / 1.3);
    // Scrolled down the panel as a user would, to the line under the table.
    harness.get_by_label_contains("Table weights: holes held").scroll_to_me();
    harness.run();
    // The panel's text column as scrolled: the game's text box fills its width.
    let panel =
        harness.query_all_by_label("Game (moves)").map(|node| node.rect()).fold(egui::Rect::NOTHING, egui::Rect::union);
    for cell in
        ["Feature", "White", "Opp.", "Wt", "Score", "complementary teammates adjacent", "ways onto a hole next move"]
    {
        let rect = harness.get_by_label(cell).rect();
        assert!(window.contains_rect(rect), "'{cell}' {rect:?} is off the window {window:?}");
        assert!(
            rect.left() >= panel.left() - 1.0 && rect.right() <= panel.right() + 1.0,
            "'{cell}' {rect:?} is outside the panel {panel:?}"
        );
    }
}

/// At 1280x720 with 130% text, the computer's last search (UCT: whose mean reward it is) wraps
/// beside the board instead of widening the page under the side panel, and its reply in the move
/// list stays whole beside the board.
#[test]
fn the_last_search_and_the_move_list_fit_beside_the_side_panel_at_720p_with_large_text() {
    let mut harness = common::ui::app_on("Barca: play", [1280.0, 720.0], 1.3);
    click(&mut harness, "UCT (Monte Carlo tree search)");
    click(&mut harness, "Easy");
    for square in ["e2", "e5"] {
        click(&mut harness, &format!("square {square}"));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while harness.query_by_label_contains("Last computer search: 300 playouts").is_none() {
        assert!(std::time::Instant::now() < deadline, "the computer never answered");
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
    }
    harness.run();
    let panel =
        harness.query_all_by_label("Game (moves)").map(|node| node.rect()).fold(egui::Rect::NOTHING, egui::Rect::union);
    let summary = harness.get_by_label_contains("Last computer search: 300 playouts");
    let text = summary.accesskit_node().label().or_else(|| summary.accesskit_node().value()).unwrap_or_default();
    assert!(
        text.contains("mean reward") && text.contains(" for Black"),
        "the mean reward is the computer's, Black's: {text}"
    );
    assert!(
        summary.rect().right() <= panel.left(),
        "the summary {:?} runs under the side panel {panel:?}",
        summary.rect()
    );
    // Both moves of the list ("e2e5" and the computer's reply), whole and left of the panel.
    let is_move = |text: &str| {
        let squares: Vec<&str> =
            text.split(|c: char| c.is_ascii_lowercase()).filter(|digits| !digits.is_empty()).collect();
        text.len() >= 4
            && squares.len() == 2
            && text.chars().all(|c| c.is_ascii_alphanumeric())
            && squares.iter().all(|d| d.chars().all(|c| c.is_ascii_digit()))
    };
    let moves: Vec<egui::Rect> = harness
        .query_all(egui_kittest::kittest::By::new())
        .filter(|node| {
            node.accesskit_node().label().or_else(|| node.accesskit_node().value()).is_some_and(|label| is_move(&label))
        })
        .map(|node| node.rect())
        .collect();
    assert_eq!(moves.len(), 2, "e2e5 and the reply");
    for rect in moves {
        assert!(rect.right() <= panel.left(), "a move {rect:?} runs under the side panel {panel:?}");
    }
}
