//! Driving the grid lab through its labelled controls, as a student would. Searches are recorded
//! on a worker thread, so tests poll the harness (a bounded number of frames) until the result is in.

use egui_kittest::Harness;
use searchlab::app::GridLab;

pub type LabHarness = Harness<'static, GridLab>;

pub fn lab_harness() -> LabHarness {
    let mut harness = crate::common::ui::lesson_harness([1500.0, 950.0], GridLab::new());
    settle(&mut harness);
    harness
}

pub use crate::common::ui::settle;

/// Presses at one cell, drags through the frames to another, releases.
pub fn drag_cells(harness: &mut LabHarness, from: u32, to: u32) {
    let a = harness.state().cell_on_screen(from).unwrap();
    let b = harness.state().cell_on_screen(to).unwrap();
    harness.hover_at(a);
    harness.drag_at(a);
    harness.step();
    for t in 1..=8 {
        harness.hover_at(a + (b - a) * (t as f32 / 8.0));
        harness.step();
    }
    harness.drop_at(b);
    harness.step();
}
