//! The multi-agent lab: agents planned together on a grid map, in space-time.

use super::LabKind;
use crate::scene::{FieldError, Moment, RunSpec, Scene};

pub struct Agents;

/// More agents than this are a benchmark, not a picture.
pub const MAX_SCENE_AGENTS: usize = 200;

impl LabKind for Agents {
    const ID: &'static str = "agents";
    const FIELDS: &'static [&'static str] = &["map", "spec", "agents"];
    const SHOWS: &'static str = "agents planned together on a grid map";
    const MOMENTS: &'static [Moment] = &[Moment::Start, Moment::FirstExpansion, Moment::PathFound];

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Agents)
    }

    fn check_fit(second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Agents(_) if !second => Ok(()),
            _ => Err(" the agents lab".to_string()),
        }
    }

    fn check_page(scene: &Scene, _tree_height: Option<usize>) -> Result<(), FieldError> {
        if scene.agents.len() > MAX_SCENE_AGENTS {
            let message = format!("{} agents: a scene shows at most {MAX_SCENE_AGENTS}", scene.agents.len());
            return Err(FieldError::new("agents", message));
        }
        if !scene.agents.is_empty() && scene.map.is_none() {
            return Err(FieldError::new("agents", "agents are cells of a map: give the map too"));
        }
        Ok(())
    }
}
