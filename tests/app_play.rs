//! The "Play a game" page driven through its labelled boards and buttons, as players would: a
//! human's click, an illegal click explained, undo and redo, the computer's move arriving from its
//! worker, and a position saved and loaded as the game's text.

mod common;

use common::ui::{click, type_into, wait_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::PlayLab;
use searchlab::games::{Game, GameKind, Side};

type PlayHarness = Harness<'static, PlayLab>;

fn harness() -> PlayHarness {
    let mut harness = common::ui::lesson_harness([1400.0, 900.0], PlayLab::new());
    harness.run();
    harness
}

fn choose_game(harness: &mut PlayHarness, name: &str) {
    click(harness, "Game");
    click(harness, name);
}

fn refusal(lab: &PlayLab) -> String {
    match lab.message() {
        Some(Err(text)) => text.clone(),
        other => panic!("no refusal shown: {other:?}"),
    }
}

#[test]
fn a_human_plays_othello_by_clicking_and_an_illegal_click_is_explained() {
    let mut harness = harness();
    click(&mut harness, "Human vs human");
    harness.get_by_label("Black to move.");
    click(&mut harness, "square d3");
    assert_eq!(harness.state().moves(), ["d3"]);
    assert_eq!(harness.state().position().side_to_move(), Side::Second);
    harness.get_by_label("White to move.");
    // a1 is empty but encloses nothing: the game's own reason, in one sentence.
    click(&mut harness, "square a1");
    assert_eq!(refusal(harness.state()), "a1 is not legal here: a1 turns over no disc of the opponent.");
    click(&mut harness, "square d3");
    assert_eq!(refusal(harness.state()), "d3 is not legal here: d3 is not empty.");
    assert_eq!(harness.state().moves(), ["d3"], "refused clicks play nothing");
}

#[test]
fn undo_and_redo_take_back_and_replay_moves() {
    let mut harness = harness();
    click(&mut harness, "Human vs human");
    click(&mut harness, "square d3");
    click(&mut harness, "square c3");
    let after_two = harness.state().position().text();
    click(&mut harness, "Undo");
    assert_eq!(harness.state().moves(), ["d3"]);
    click(&mut harness, "Undo");
    assert!(harness.state().moves().is_empty());
    assert_eq!(harness.state().position().text(), GameKind::Othello.start_position());
    click(&mut harness, "Redo");
    click(&mut harness, "Redo");
    assert_eq!(harness.state().moves(), ["d3", "c3"]);
    assert_eq!(harness.state().position().text(), after_two);
}

#[test]
fn the_computer_answers_a_human_move_with_a_legal_one() {
    let mut harness = harness();
    click(&mut harness, "Human vs computer");
    click(&mut harness, "square d3");
    wait_until(&mut harness, |lab| lab.moves().len() == 2);
    let lab = harness.state();
    let mut game = searchlab::games::othello::Othello::start();
    game.play_moves(&lab.moves().join(" ")).expect("the computer's move is legal");
    assert_eq!(lab.position().text(), searchlab::games::RegisteredGame::position_text(&game));
    assert!(matches!(lab.message(), Some(Ok(text)) if text.starts_with("White played")), "{:?}", lab.message());
}

#[test]
fn a_position_saved_as_text_loads_back_and_bad_text_is_refused() {
    let mut harness = harness();
    choose_game(&mut harness, "Hus");
    click(&mut harness, "Human vs human");
    click(&mut harness, "pit 17");
    // Player 0 has moved: its pits are not Player 1's to sow.
    click(&mut harness, "pit 3 of Player 0");
    assert_eq!(refusal(harness.state()), "Pit 3 is Player 0's: Player 1 sows from their own pits.");
    harness.run();
    click(&mut harness, "Copy position");
    let saved = harness.state().position().text();
    click(&mut harness, "New game");
    type_into(&mut harness, "Position", &saved);
    click(&mut harness, "Load position");
    assert_eq!(harness.state().position().text(), saved);
    assert!(harness.state().moves().is_empty(), "a loaded position starts the game's record");
    type_into(&mut harness, "Position", "2,2,2");
    click(&mut harness, "Load position");
    let why = refusal(harness.state());
    assert!(why.starts_with("Not loaded: ") && !why.contains('\n'), "{why}");
    assert_eq!(harness.state().position().text(), saved, "a refused load changes nothing");
}

#[test]
fn computers_play_every_game_on_the_page() {
    for name in ["Tic-tac-toe", "Barca", "Othello", "Hus"] {
        let mut harness = harness();
        choose_game(&mut harness, name);
        click(&mut harness, "Computer vs computer");
        wait_until(&mut harness, |lab| lab.moves().len() >= 2);
        let lab = harness.state();
        let kind = lab.position().kind();
        let replayed = kind.parse(kind.start_position()).unwrap().after(lab.moves().iter().map(String::as_str));
        assert_eq!(replayed.unwrap().text(), lab.position().text(), "{name}");
    }
}
