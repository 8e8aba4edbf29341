//! The quiz lab: a question generated from the scene's `kind`, `algorithm`, `size` and `seed`
//! (see [`crate::quiz`]); the cell asks it and grades the answer.

use super::{LabKind, no_replay};
use crate::quiz::{self, Kind};
use crate::scene::{FieldError, Scene};

pub struct Quiz;

impl LabKind for Quiz {
    const ID: &'static str = "quiz";
    const FIELDS: &'static [&'static str] = &["kind", "algorithm", "size", "seed"];
    const SHOWS: &'static str = "a question generated from its kind and seed";

    /// The kind is given and known, and a question of it is generated from these options.
    fn check_page(scene: &Scene, _tree_height: Option<usize>) -> Result<(), FieldError> {
        no_replay(scene, "a quiz cell shows a question", "remove `step`")?;
        let Some(kind) = &scene.kind else {
            let kinds: Vec<&str> = Kind::ALL.iter().map(|kind| kind.id()).collect();
            let message = format!("a quiz cell needs `kind`: {}", crate::text::or_list(&kinds));
            return Err(FieldError::new("kind", message));
        };
        let kind: Kind = kind.parse().map_err(|e| FieldError::new("kind", e))?;
        let options = scene.quiz_options();
        quiz::generate(kind, scene.seed.unwrap_or(0), &options).map(drop).map_err(|e| {
            let field = if e.contains("size") { "size" } else { "algorithm" };
            FieldError::new(field, e)
        })
    }
}
