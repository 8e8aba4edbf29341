//! Pan and pinch-zoom on a tablet, as the browser delivers them: the first finger is also the
//! pointer (pressed, moved, released), and every finger is a touch event. A pinch must keep the
//! map under both fingers, whatever tool is picked, and must not edit anything; the mouse wheel
//! zooms the grid map about the pointer as it always has.

mod common;

use egui::{Event, Modifiers, MouseWheelUnit, PointerButton, Pos2, TouchDeviceId, TouchId, TouchPhase, Vec2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::grid_lab::{GridSettings, Tool};
use searchlab::app::{GridLab, NavmeshLab};

use common::ui::{lesson_harness, settle};

fn touch(id: u64, phase: TouchPhase, pos: Pos2) -> Event {
    Event::Touch { device_id: TouchDeviceId(0), id: TouchId(id), phase, pos, force: None }
}

fn primary(pos: Pos2, pressed: bool) -> Event {
    Event::PointerButton { pos, button: PointerButton::Primary, pressed, modifiers: Modifiers::NONE }
}

/// Two fingers land at `from`, move to `to` over a few frames, and lift; events in the order
/// eframe's web runner sends them.
fn pinch<S>(harness: &mut Harness<'_, S>, from: [Pos2; 2], to: [Pos2; 2]) {
    harness.event(Event::PointerMoved(from[0]));
    harness.event(primary(from[0], true));
    harness.event(touch(0, TouchPhase::Start, from[0]));
    harness.step();
    harness.event(touch(1, TouchPhase::Start, from[1]));
    harness.step();
    for t in [0.25, 0.5, 0.75, 1.0] {
        let (a, b) = (from[0].lerp(to[0], t), from[1].lerp(to[1], t));
        harness.event(Event::PointerMoved(a));
        harness.event(touch(0, TouchPhase::Move, a));
        harness.event(touch(1, TouchPhase::Move, b));
        harness.step();
    }
    harness.event(touch(1, TouchPhase::End, to[1]));
    harness.event(primary(to[0], false));
    harness.event(touch(0, TouchPhase::End, to[0]));
    harness.event(Event::PointerGone);
    harness.step();
}

/// Fingers `spread` apart about `centre`, moved `factor` times as far apart about `centre + shift`.
fn spread_about(centre: Pos2, spread: Vec2, shift: Vec2, factor: f32) -> [[Pos2; 2]; 2] {
    let to = centre + shift;
    [[centre - spread, centre + spread], [to - spread * factor, to + spread * factor]]
}

fn assert_near(found: Pos2, expected: Pos2, what: &str) {
    assert!(found.distance(expected) < 0.75, "{what}: at {found:?}, expected {expected:?}");
}

#[test]
fn a_pinch_on_the_grid_zooms_about_the_fingers_and_paints_nothing() {
    // With the wall brush picked: one finger would paint, two must not.
    let settings = GridSettings { tool: Tool::Wall, ..GridSettings::default() };
    let mut harness = lesson_harness([1500.0, 950.0], GridLab::with_settings(settings));
    settle(&mut harness);
    let lab = harness.state();
    let (grid, endpoints, zoom) = (lab.grid().clone(), lab.endpoints(), lab.map_view().zoom);
    let (w, h) = (grid.width(), grid.height());
    let [near_a, near_b] = [grid.cell(w / 3, h / 3), grid.cell(2 * w / 3, 2 * h / 3)];
    let before = [near_a, near_b].map(|cell| lab.cell_on_screen(cell).unwrap());
    let centre = before[0].lerp(before[1], 0.5);
    let shift = vec2(30.0, -20.0);
    let factor = 2.0;
    let [from, to] = spread_about(centre, vec2(40.0, 25.0), shift, factor);
    pinch(&mut harness, from, to);
    harness.run_ok();

    let lab = harness.state();
    assert!((lab.map_view().zoom / zoom - factor).abs() < 1e-3, "zoom {} -> {}", zoom, lab.map_view().zoom);
    for (cell, was) in [near_a, near_b].into_iter().zip(before) {
        let expected = centre + shift + (was - centre) * factor;
        assert_near(lab.cell_on_screen(cell).unwrap(), expected, "a cell after the pinch");
    }
    assert_eq!(lab.grid(), &grid, "the pinch painted no wall");
    assert_eq!(lab.endpoints(), endpoints, "nor moved the start or goal");
}

#[test]
fn the_wheel_still_zooms_the_grid_about_the_pointer() {
    let mut harness = lesson_harness([1500.0, 950.0], GridLab::new());
    settle(&mut harness);
    let lab = harness.state();
    let cell = lab.grid().cell(lab.grid().width() / 4, lab.grid().height() / 2);
    let pointer = lab.cell_on_screen(cell).unwrap();
    let (zoom, other) = (lab.map_view().zoom, lab.grid().cell(lab.grid().width() / 2, lab.grid().height() / 4));
    let other_before = lab.cell_on_screen(other).unwrap();
    harness.hover_at(pointer);
    harness.step();
    harness.event(Event::MouseWheel {
        unit: MouseWheelUnit::Point,
        delta: vec2(0.0, 120.0),
        modifiers: Modifiers::NONE,
        phase: TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
    });
    harness.run_ok();
    let lab = harness.state();
    let factor = lab.map_view().zoom / zoom;
    // The wheel's 120 points, smoothed over frames, add up to e^(120/300).
    assert!((factor - (120.0f32 / 300.0).exp()).abs() < 0.02, "wheel up zooms in by e^0.4, got {factor}");
    assert_near(lab.cell_on_screen(cell).unwrap(), pointer, "the cell under the pointer");
    assert_near(lab.cell_on_screen(other).unwrap(), pointer + (other_before - pointer) * factor, "another cell");
}

#[test]
fn the_polygon_canvas_pans_and_pinch_zooms_and_clicks_land_where_shown() {
    let mut harness = lesson_harness([1400.0, 900.0], NavmeshLab::new());
    settle(&mut harness);
    let scene = harness.state().scene();
    let (start, goal) = (scene.start.unwrap(), scene.goal.unwrap());
    let at = |harness: &Harness<'_, NavmeshLab>, p| harness.state().point_on_screen(p).unwrap();
    let (start_before, goal_before) = (at(&harness, start), at(&harness, goal));
    let centre = start_before.lerp(goal_before, 0.5);
    let shift = vec2(-15.0, 10.0);
    let factor = 2.0;
    let [from, to] = spread_about(centre, vec2(30.0, 30.0), shift, factor);
    pinch(&mut harness, from, to);
    harness.run_ok();
    for (p, was) in [(start, start_before), (goal, goal_before)] {
        assert_near(at(&harness, p), centre + shift + (was - centre) * factor, "a point after the pinch");
    }

    // A mouse drag pans by as much (grabbed where the fingers left off, on the canvas).
    let (start_zoomed, drag) = (at(&harness, start), vec2(-40.0, 25.0));
    let grab = centre + shift;
    harness.hover_at(grab);
    harness.drag_at(grab);
    harness.step();
    for t in [0.5, 1.0] {
        harness.hover_at(grab + drag * t);
        harness.step();
    }
    harness.drop_at(grab + drag);
    harness.run_ok();
    assert_near(at(&harness, start), start_zoomed + drag, "the start after the drag");
    assert_eq!(harness.state().scene().goal, Some(goal), "a drag sets no goal");

    // A click sets the goal where it is shown under the pointer.
    let click = grab + vec2(6.0, -4.0);
    harness.hover_at(click);
    harness.step();
    harness.event(primary(click, true));
    harness.event(primary(click, false));
    settle(&mut harness);
    let goal = harness.state().scene().goal.unwrap();
    assert_near(at(&harness, goal), click, "the new goal");

    common::ui::click(&mut harness, "Fit");
    assert_near(at(&harness, start), start_before, "the start after Fit");
}

#[test]
fn a_pinch_on_the_game_tree_zooms_about_the_fingers_centre() {
    let mut harness = common::tree_lab::lab_harness();
    let canvas = harness.get_by_label("Game tree canvas").rect();
    let centre = canvas.center();
    let before = harness.state().scene_rect();
    // A symmetric pinch: the centre stays put, so the part of the tree under it must too. The
    // tree opens as close as it may be shown, so the pinch zooms out.
    let factor = 0.5;
    let [from, to] = spread_about(centre, vec2(120.0, 80.0), Vec2::ZERO, factor);
    pinch(&mut harness, from, to);
    harness.run_ok();
    let after = harness.state().scene_rect();
    // The scene fills the canvas (less its frame's few points of margin), fitted and centred.
    let scale = |shown: egui::Rect| (canvas.size() / shown.size()).min_elem();
    assert!((scale(after) / scale(before) - factor).abs() < 0.03, "{before:?} -> {after:?}");
    let drift = (after.center() - before.center()).length() * scale(after);
    assert!(drift < 1.5, "the tree under the pinch centre moved {drift} points: {before:?} -> {after:?}");
}

/// One finger down and up at `pos`, as the browser sends a tap.
fn tap<S>(harness: &mut Harness<'_, S>, pos: Pos2) {
    harness.event(Event::PointerMoved(pos));
    harness.event(primary(pos, true));
    harness.event(touch(0, TouchPhase::Start, pos));
    harness.step();
    harness.event(primary(pos, false));
    harness.event(touch(0, TouchPhase::End, pos));
    harness.event(Event::PointerGone);
    harness.step();
}

#[test]
fn on_a_tablet_a_tap_places_the_goal_or_the_start_as_the_toggle_beside_the_map_says() {
    let mut harness = lesson_harness([1024.0, 768.0], NavmeshLab::new());
    settle(&mut harness);
    let at = |harness: &Harness<'_, NavmeshLab>, p| harness.state().point_on_screen(p).unwrap();
    let scene = harness.state().scene();
    let (start, goal) = (scene.start.unwrap(), scene.goal.unwrap());
    let (start_shown, goal_shown) = (at(&harness, start), at(&harness, goal));
    let (near_start, near_goal) = (start_shown + vec2(8.0, 6.0), goal_shown + vec2(-6.0, 8.0));

    tap(&mut harness, near_goal);
    settle(&mut harness);
    let scene = harness.state().scene();
    assert_eq!(scene.start, Some(start), "a tap places the goal at first");
    assert_near(at(&harness, scene.goal.unwrap()), near_goal, "the goal tapped");

    let toggle = harness.get_by_label("Start").rect().center();
    tap(&mut harness, toggle);
    harness.run_ok();
    tap(&mut harness, near_start);
    settle(&mut harness);
    let scene = harness.state().scene();
    assert_near(at(&harness, scene.start.unwrap()), near_start, "with Start picked, a tap places the start");
    assert_near(at(&harness, scene.goal.unwrap()), near_goal, "and leaves the goal");

    // Back to the goal; the mouse's Shift+click still places the start.
    let toggle = harness.get_by_label("Goal").rect().center();
    tap(&mut harness, toggle);
    harness.run_ok();
    let shift_click = start_shown;
    harness.hover_at(shift_click);
    harness.step();
    let shift = Modifiers::SHIFT;
    harness.event(Event::ModifiersChanged(shift));
    harness.event(Event::PointerButton {
        pos: shift_click,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: shift,
    });
    harness.event(Event::PointerButton {
        pos: shift_click,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: shift,
    });
    harness.event(Event::ModifiersChanged(Modifiers::NONE));
    settle(&mut harness);
    let scene = harness.state().scene();
    assert_near(at(&harness, scene.start.unwrap()), shift_click, "Shift+click places the start");
    assert_near(at(&harness, scene.goal.unwrap()), near_goal, "and leaves the goal");
}

fn wheel<S>(harness: &mut Harness<'_, S>, at: Pos2, modifiers: Modifiers) {
    harness.hover_at(at);
    harness.step();
    harness.event(Event::MouseWheel {
        unit: MouseWheelUnit::Point,
        delta: vec2(0.0, -120.0),
        modifiers,
        phase: TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
    });
    harness.run_ok();
}

/// In a lecture cell the plain wheel scrolls the lecture: it leaves the map fitted, so the cell,
/// presented later on a larger canvas, shows the whole map; ctrl + wheel still zooms.
#[test]
fn the_plain_wheel_leaves_a_cells_map_fitted() {
    use searchlab::app::{Lesson, LiveCell};
    let scene = searchlab::scene::Scene::from_toml(
        "version = 1\nlab = \"grid\"\nmap = { bundled = \"lecture-u.map\" }\nspec = \"bfs\"\nstart = [4, 11]\ngoal = [35, 11]",
    )
    .unwrap();
    let mut lab = GridLab::new();
    lab.set_scene(&scene).unwrap();
    let mut harness = Harness::builder().with_size([1200.0, 600.0]).build_ui_state(
        |ui, lab: &mut GridLab| {
            lab.logic(ui.ctx());
            lab.cell_ui(ui, 400.0);
        },
        lab,
    );
    common::ui::wait_until(&mut harness, |lab| !lab.is_busy());
    harness.run();
    let canvas = harness.get_by_label("Map canvas").rect();
    wheel(&mut harness, canvas.center(), Modifiers::NONE);
    assert!(harness.state().map_view().fitted, "the wheel scrolled past the cell");
    wheel(&mut harness, canvas.center(), Modifiers::CTRL);
    assert!(!harness.state().map_view().fitted, "ctrl + wheel zooms");
}

/// A zoomed polygon canvas that changes size (a cell presented) shows the same part of the map.
#[test]
fn a_zoomed_polygon_canvas_keeps_its_view_when_it_grows() {
    let mut harness = lesson_harness([1100.0, 700.0], NavmeshLab::new());
    settle(&mut harness);
    let goal = harness.state().scene().goal.unwrap();
    let canvas = harness.get_by_label("Polygon canvas").rect();
    let spread = vec2(30.0, 30.0);
    pinch(
        &mut harness,
        [canvas.center() - spread, canvas.center() + spread],
        [canvas.center() - spread * 2.0, canvas.center() + spread * 2.0],
    );
    harness.run_ok();
    let share = |harness: &Harness<'_, NavmeshLab>| {
        let canvas = harness.get_by_label("Polygon canvas").rect();
        (harness.state().point_on_screen(goal).unwrap() - canvas.min) / canvas.size()
    };
    let before = share(&harness);
    harness.set_size(vec2(1600.0, 1000.0));
    harness.run_ok();
    let after = share(&harness);
    assert!(harness.get_by_label("Polygon canvas").rect().width() > canvas.width() + 100.0, "the canvas grew");
    assert!((after - before).length() < 0.005, "the goal stays where it was on the canvas: {before:?} -> {after:?}");
}
