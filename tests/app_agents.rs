//! The multi-agent page, driven as a reader would: the lecture's two agents collide when
//! planned alone and not when planned cooperatively, and the page says so from the recording.

mod common;

use common::ui::{lesson_harness, settle};
use egui_kittest::kittest::Queryable;
use searchlab::app::{AgentsLab, Lesson};
use searchlab::scene::Scene;

const CROSSING: &str = r#"
version = 1
lab = "agents"
map = { bundled = "rooms128.map" }
spec = "independent"
agents = [[5, 8, 27, 8], [27, 8, 5, 8]]
"#;

#[test]
fn planned_alone_the_two_agents_collide_at_the_cell_and_time_the_page_names() {
    let mut page = AgentsLab::from_saved(None);
    page.set_scene(&Scene::from_toml(CROSSING).unwrap()).unwrap();
    let mut harness = lesson_harness([1400.0, 900.0], page);
    settle(&mut harness);
    // Opened at the end: the last event is the collision, and the time follows it.
    harness.get_by_label("Collision: agents 1 and 2 are both at (16,8) at t = 11.");
    harness.get_by_label("Collisions: 1");
    harness.get_by_label("Cooperative A*").click();
    settle(&mut harness);
    assert!(harness.query_by_label("Collisions: 1").is_none());
    harness.get_by_label("Sum of costs: 46   Makespan: 24");
    // The last event: the second agent, which waited or stepped aside, parks at its goal.
    harness.get_by_label("Agent 2 holds its goal (5,8) from t = 24 on.");
}
