//! The hierarchical lab: HPA* or PRA* on a grid map, beside a flat search.

use super::LabKind;
use crate::scene::Moment;
use crate::scene::RunSpec;

pub struct Hierarchical;

impl LabKind for Hierarchical {
    const ID: &'static str = "hierarchical";
    const FIELDS: &'static [&'static str] = &["map", "spec", "compare", "start", "goal", "replay"];
    const SHOWS: &'static str = "searches on a grid map";
    const MOMENTS: &'static [Moment] = &[Moment::Start, Moment::FirstExpansion, Moment::PathFound];
    const LAYERS: &'static [&'static str] =
        &["values", "clusters", "transitions", "graph", "abstract-path", "refined", "smoothed", "regions", "corridor"];

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Planner)
    }

    fn check_fit(second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Planner(planner) => match (planner.is_hierarchical(), second) {
                (false, false) => {
                    Err(": the hierarchical lab takes hpa or pra as spec; put a flat search in compare".to_string())
                }
                (true, true) => Err(
                    ": the hierarchical lab compares its planner with a flat search, such as astar or dijkstra"
                        .to_string(),
                ),
                _ => Ok(()),
            },
            _ => Err(" the hierarchical lab".to_string()),
        }
    }
}
