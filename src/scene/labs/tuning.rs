//! The tuning lab: a self-play tuning log, named as the scene's map.

use super::{LabKind, no_replay};
use crate::scene::{FieldError, Scene};

pub struct Tuning;

impl LabKind for Tuning {
    const ID: &'static str = "tuning";
    const FIELDS: &'static [&'static str] = &["map"];
    const SHOWS: &'static str = "the tuning log its map names";

    fn check_page(scene: &Scene, _tree_height: Option<usize>) -> Result<(), FieldError> {
        no_replay(scene, "the tuning lab shows a log", "remove `step`")
    }
}
