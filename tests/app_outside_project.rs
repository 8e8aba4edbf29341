//! The app started from a folder without the bundled maps (its own test binary: it changes the
//! working directory, which every test of a binary shares). The bundled maps and lectures are
//! built in, so the pages and the welcome lecture open on them as they do in a checkout.

mod common;

use egui_kittest::kittest::Queryable;
use searchlab::app::{GridLab, NavmeshLab, Notebook};

#[test]
fn pages_and_the_welcome_lecture_read_the_built_in_maps_from_another_folder() {
    let dir = common::scratch::ScratchDir::new("elsewhere");
    std::env::set_current_dir(dir.dir()).unwrap();

    let mut mesh = common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new());
    common::ui::settle(&mut mesh);
    assert_eq!(mesh.state().error(), None);
    mesh.get_by_label_contains("pillars.json");

    let mut grid = common::ui::lesson_harness([1400.0, 900.0], GridLab::new());
    grid.run();
    assert_eq!(grid.state().error(), None);
    assert_eq!((grid.state().grid().width(), grid.state().grid().height()), (64, 64), "the bundled maze");

    let mut welcome = common::ui::lesson_harness([1280.0, 720.0], Notebook::from_saved(None));
    common::ui::settle(&mut welcome);
    assert_eq!(welcome.state().error(), None);
    let cells = welcome.state().cells();
    assert!(cells.len() >= 3);
    for cell in cells {
        assert!(cell.scene().is_ok(), "{:?}", cell.scene().err());
    }
    assert!(cells[0].live().is_some(), "the first cell is drawn");
}
