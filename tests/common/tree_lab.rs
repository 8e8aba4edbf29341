//! The game-tree lab in a harness. Searches are recorded on a worker thread, so tests poll the
//! harness (a bounded number of frames) until the result is in.

use std::time::Duration;

use egui_kittest::Harness;
use searchlab::app::{Lesson, TreeLab};

pub type LabHarness = Harness<'static, TreeLab>;

pub fn lab_harness() -> LabHarness {
    let mut harness = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_ui_state(|ui, lab: &mut TreeLab| lab.ui(ui), TreeLab::new());
    settle(&mut harness);
    harness
}

/// Runs frames until the worker's result is installed (at most ~60 s).
pub fn settle(harness: &mut LabHarness) {
    for _ in 0..6000 {
        harness.step();
        if !harness.state().is_busy() && harness.state().recording().is_some() {
            harness.run_ok();
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the worker did not finish");
}
