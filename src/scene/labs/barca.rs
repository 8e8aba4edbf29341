//! The Barca page: a position and the computer's level.

use super::{LabKind, no_replay};
use crate::adversarial::engine::{EngineAlgorithm, EngineSpec};
use crate::scene::{FieldError, RunSpec, Scene};

pub struct Barca;

impl LabKind for Barca {
    const ID: &'static str = "barca";
    const FIELDS: &'static [&'static str] = &["spec", "position"];
    const SHOWS: &'static str = "a Barca position and the computer's level";

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Engine)
    }

    fn check_fit(_second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Engine(_) => Ok(()),
            _ => Err(" the barca lab".to_string()),
        }
    }

    fn check_page(scene: &Scene, _tree_height: Option<usize>) -> Result<(), FieldError> {
        no_replay(scene, "the Barca page shows its position", "use end")?;
        let is_level = |engine: &EngineSpec| {
            matches!(engine.algorithm, EngineAlgorithm::Id | EngineAlgorithm::Uct)
                && engine.level.is_some()
                && *engine == EngineSpec { level: engine.level, ..EngineSpec::new(engine.algorithm) }
        };
        match scene.engine().filter(|engine| !is_level(engine)) {
            Some(engine) => Err(FieldError::new(
                "spec",
                format!("the computer plays easy, medium, hard or uct:LEVEL, not '{engine}'"),
            )),
            None => Ok(()),
        }
    }
}
