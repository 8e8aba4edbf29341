//! Pixel snapshots of the grid lab, rendered by wgpu (Mesa's software Vulkan driver in CI). They
//! catch what the label-driven tests cannot: a canvas drawn in the wrong place, lost colours, a
//! panel over the map. `UPDATE_SNAPSHOTS=1 cargo test --test app_snapshots` rewrites them after a
//! deliberate change; look at `tests/snapshots/*.png` before committing.

mod common;

use common::grid_lab::settle;
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use searchlab::app::{GridLab, Lesson};

#[test]
fn grid_lab_replay_mid_search_and_at_the_end() {
    let mut harness =
        common::ui::lesson_harness([1400.0, 900.0], GridLab::new());
    settle(&mut harness);
    // The stats show measured times: a few glyphs may differ from run to run, nothing more.
    let options = SnapshotOptions::new().max_failed_pixels(400);
    for _ in 0..300 {
        harness.get_by_label("Step >").click();
        harness.run();
    }
    harness.snapshot_options("grid_lab_astar_step_300", &options);
    harness.get_by_label("End >|").click();
    harness.run();
    harness.snapshot_options("grid_lab_astar_end", &options);
}
