//! The grid lab: flat searches on a grid map, one or two side by side.

use super::LabKind;
use crate::scene::Moment;
use crate::scene::RunSpec;

pub struct Grid;

impl LabKind for Grid {
    const ID: &'static str = "grid";
    const FIELDS: &'static [&'static str] = &["map", "spec", "compare", "start", "goal"];
    const SHOWS: &'static str = "searches on a grid map";
    const MOMENTS: &'static [Moment] = &[Moment::Start, Moment::FirstExpansion, Moment::PathFound];
    const LAYERS: &'static [&'static str] = &["values"];

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Planner)
    }

    fn check_fit(_second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Planner(planner) if planner.is_hierarchical() => {
                let name = if planner.method.name() == "hpa" { "HPA*" } else { "PRA*" };
                Err(format!(" the grid lab: {name} is shown by lab = \"hierarchical\""))
            }
            RunSpec::Planner(_) => Ok(()),
            _ => Err(" the grid lab".to_string()),
        }
    }
}
