//! What to run on a polygon map, as one value: TA* or TRA*, the agent radius, first path only,
//! and the triangulation's refinement. The CLI, the polygon lab and scenes all use it.

use std::fmt;
use std::str::FromStr;

use super::reduction::Reduction;
use super::tastar::{DEFAULT_MAX_EXPANSIONS, MeshQuery, MeshSearchResult, ta_star};
use super::trastar::tra_star;
use super::{Navmesh, Outline, Point, Refinement};
use crate::pathfinding::search_trace::SearchEvent;
use crate::spec_text::SpecText;
use crate::text::{number, quote};
use crate::trace::Tracer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshAlgorithm {
    Ta,
    Tra,
}

impl MeshAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            MeshAlgorithm::Ta => "ta",
            MeshAlgorithm::Tra => "tra",
        }
    }

    /// The name shown to a class.
    pub fn label(self) -> &'static str {
        match self {
            MeshAlgorithm::Ta => "TA*",
            MeshAlgorithm::Tra => "TRA*",
        }
    }
}

/// A triangle search and how the mesh is built for it.
///
/// Text form: `ta` or `tra`, then optionally `:ITEM,...` with items `radius=R` (the agent's
/// radius, R >= 0, default 0), `first-path` (stop at the first path instead of proving the
/// shortest), `min-angle=A` (refine the triangulation until no angle is below A degrees,
/// 0..30; default: no refinement) and `max-expansions=N` (give up after N expansions, default
/// 2,000,000). Examples: `ta`, `tra:radius=0.9,first-path`, `ta:min-angle=25`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshSearch {
    pub algorithm: MeshAlgorithm,
    pub radius: f64,
    pub first_path_only: bool,
    pub min_angle: Option<f64>,
    pub max_expansions: usize,
}

impl Default for MeshSearch {
    fn default() -> Self {
        Self {
            algorithm: MeshAlgorithm::Ta,
            radius: 0.0,
            first_path_only: false,
            min_angle: None,
            max_expansions: DEFAULT_MAX_EXPANSIONS,
        }
    }
}

impl MeshSearch {
    /// Checks the values; the message starts with the option's name (also the CLI flag's).
    pub fn validate(&self) -> Result<(), String> {
        if !(self.radius.is_finite() && self.radius >= 0.0) {
            return Err(format!("radius must be a number >= 0, got {}", number(self.radius)));
        }
        if self.max_expansions == 0 {
            return Err("max-expansions must be at least 1".to_string());
        }
        match self.min_angle {
            Some(angle) if !(angle.is_finite() && (0.0..=30.0).contains(&angle)) => {
                Err(format!("min-angle must be between 0 and 30 degrees, got {}", number(angle)))
            }
            _ => Ok(()),
        }
    }

    pub fn refinement(&self) -> Option<Refinement> {
        self.min_angle.map(|min_angle_deg| Refinement { min_angle_deg, max_area: None })
    }

    /// Triangulates `outline` as this search wants it, with TRA*'s reduction when it needs one.
    pub fn prepare(&self, outline: &Outline) -> Result<PreparedMesh, String> {
        self.validate()?;
        let mesh = Navmesh::build(outline, self.refinement())?;
        let reduction = (self.algorithm == MeshAlgorithm::Tra).then(|| Reduction::new(&mesh));
        Ok(PreparedMesh { mesh, reduction, search: *self })
    }

    /// Searches `mesh` from `start` to `goal`; TRA* uses `reduction` (which must be `mesh`'s) or
    /// reduces the mesh first.
    pub fn run<T: Tracer<SearchEvent>>(
        &self,
        mesh: &Navmesh,
        reduction: Option<&Reduction>,
        start: Point,
        goal: Point,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        let query = MeshQuery {
            start,
            goal,
            radius: self.radius,
            first_path_only: self.first_path_only,
            max_expansions: self.max_expansions,
        };
        match (self.algorithm, reduction) {
            (MeshAlgorithm::Ta, _) => ta_star(mesh, &query, tracer),
            (MeshAlgorithm::Tra, Some(reduction)) => tra_star(mesh, reduction, &query, tracer),
            (MeshAlgorithm::Tra, None) => tra_star(mesh, &Reduction::new(mesh), &query, tracer),
        }
    }
}

/// A mesh built for one [`MeshSearch`].
pub struct PreparedMesh {
    pub mesh: Navmesh,
    /// TRA*'s reduction of the mesh; None for TA*.
    pub reduction: Option<Reduction>,
    search: MeshSearch,
}

impl PreparedMesh {
    pub fn query<T: Tracer<SearchEvent>>(
        &self,
        start: Point,
        goal: Point,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        self.search.run(&self.mesh, self.reduction.as_ref(), start, goal, tracer)
    }
}

impl fmt::Display for MeshSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        if self.radius != 0.0 {
            items.push(format!("radius={}", self.radius));
        }
        if self.first_path_only {
            items.push("first-path".to_string());
        }
        items.extend(self.min_angle.map(|angle| format!("min-angle={angle}")));
        if self.max_expansions != DEFAULT_MAX_EXPANSIONS {
            items.push(format!("max-expansions={}", self.max_expansions));
        }
        crate::spec_text::write(f, self.algorithm.name(), &items)
    }
}

impl FromStr for MeshSearch {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut spec = SpecText::parse(text)?;
        let algorithm = match spec.name {
            "ta" => MeshAlgorithm::Ta,
            "tra" => MeshAlgorithm::Tra,
            name => return Err(format!("unknown mesh search '{}': use ta or tra", quote(name))),
        };
        let search = MeshSearch {
            algorithm,
            radius: spec.value("radius")?.unwrap_or(0.0),
            first_path_only: spec.flag("first-path"),
            min_angle: spec.value("min-angle")?,
            max_expansions: spec.value("max-expansions")?.unwrap_or(DEFAULT_MAX_EXPANSIONS),
        };
        spec.done(search, MeshSearch::validate)
    }
}

crate::serde_as_text!(MeshSearch);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_and_refuses_bad_values() {
        let search: MeshSearch = "tra:radius=0.9,first-path,min-angle=25".parse().unwrap();
        assert_eq!(
            search,
            MeshSearch {
                algorithm: MeshAlgorithm::Tra,
                radius: 0.9,
                first_path_only: true,
                min_angle: Some(25.0),
                ..MeshSearch::default()
            }
        );
        for text in ["ta", "tra", "ta:radius=0.5", "tra:first-path", "ta:min-angle=20", "ta:max-expansions=1000"] {
            assert_eq!(text.parse::<MeshSearch>().unwrap().to_string(), text);
        }
        for (text, message) in [
            ("ta:radius=-1", "radius must be a number >= 0"),
            ("tra:min-angle=40", "min-angle must be between 0 and 30"),
            ("ja", "unknown mesh search 'ja'"),
            ("ta:fast", "unknown option 'fast'"),
            ("ta:max-expansions=0", "max-expansions must be at least 1"),
        ] {
            assert!(text.parse::<MeshSearch>().unwrap_err().contains(message), "{text}");
        }
    }
}
