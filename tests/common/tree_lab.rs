//! The game-tree lab in a harness. Searches are recorded on a worker thread, so tests poll the
//! harness until the result is in.

use egui_kittest::Harness;
use searchlab::app::{Lesson, TreeLab};

pub type LabHarness = Harness<'static, TreeLab>;

pub fn lab_harness() -> LabHarness {
    let mut harness = super::ui::lesson_harness([1500.0, 950.0], TreeLab::new());
    settle(&mut harness);
    harness
}

/// Runs frames until the worker's result is installed.
pub fn settle(harness: &mut LabHarness) {
    super::ui::wait_until(harness, |lab| !lab.is_busy() && lab.recording().is_some());
    harness.run_ok();
}
