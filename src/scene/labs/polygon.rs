//! The polygon lab: one any-angle search on a polygon map.

use super::LabKind;
use crate::scene::Moment;
use crate::scene::RunSpec;

pub struct Polygon;

impl LabKind for Polygon {
    const ID: &'static str = "polygon";
    const FIELDS: &'static [&'static str] = &["map", "spec", "start", "goal"];
    const SHOWS: &'static str = "one search on a polygon map";
    const MOMENTS: &'static [Moment] = &[Moment::Start, Moment::FirstExpansion, Moment::PathFound];

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Mesh)
    }

    fn check_fit(_second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Mesh(_) => Ok(()),
            _ => Err(" the polygon lab".to_string()),
        }
    }
}
