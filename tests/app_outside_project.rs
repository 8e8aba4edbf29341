//! The app started from a folder without the bundled maps (its own test binary: it changes the
//! working directory, which every test of a binary shares). Pages fall back to a built-in map,
//! say why, and draw without panicking.

mod common;

use searchlab::app::{GridLab, NavmeshLab};

#[test]
fn pages_fall_back_to_built_in_maps_when_the_bundled_ones_are_missing() {
    let dir = std::env::temp_dir().join(format!("searchlab-elsewhere-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_current_dir(&dir).unwrap();

    let mut mesh = common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new());
    common::ui::settle(&mut mesh);
    let error = mesh.state().error().expect("the missing map is reported").to_string();
    assert!(error.contains("maps/") && error.ends_with("showing a small built-in room instead"), "{error}");
    let path = mesh.state().result().and_then(|r| r.path.as_ref()).expect("the built-in room is searched");
    assert!(path.length > 0.0);

    let mut grid = common::ui::lesson_harness([1400.0, 900.0], GridLab::new());
    grid.run();
    let error = grid.state().error().expect("the missing map is reported").to_string();
    assert!(error.contains("showing a generated maze instead"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
