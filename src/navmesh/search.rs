//! What to run on a polygon map, as one value: TA*, TRA* or Polyanya (on the triangles or on them
//! merged), the agent radius, first path only, and the triangulation's refinement. The CLI, the
//! polygon lab and scenes all use it.

use std::fmt;
use std::str::FromStr;

use super::merge::ConvexMesh;
use super::polyanya_search::{PolyanyaEvent, PolyanyaScratch};
use super::reduction::Reduction;
use super::tastar::{DEFAULT_MAX_EXPANSIONS, MeshPath, MeshQuery, MeshSearchResult, ta_star};
use super::trastar::tra_star;
use super::{Navmesh, Outline, Point, Refinement};
use crate::pathfinding::search_trace::SearchEvent;
use crate::spec_text::SpecText;
use crate::text::{number, quote};
use crate::trace::{Recorder, Tracer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshAlgorithm {
    Ta,
    Tra,
    Polyanya,
}

/// The convex polygons Polyanya searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolygonKind {
    /// The walkable triangles as they are.
    Triangles,
    /// The triangles merged into larger convex polygons ([`ConvexMesh::merged`]).
    #[default]
    Merged,
}

impl PolygonKind {
    pub fn name(self) -> &'static str {
        match self {
            PolygonKind::Triangles => "triangles",
            PolygonKind::Merged => "merged",
        }
    }

    /// `mesh`'s walkable triangles as polygons of this kind.
    pub fn polygons(self, mesh: &Navmesh) -> ConvexMesh {
        match self {
            PolygonKind::Triangles => ConvexMesh::triangles(mesh),
            PolygonKind::Merged => ConvexMesh::merged(mesh),
        }
    }
}

impl FromStr for PolygonKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "triangles" => Ok(PolygonKind::Triangles),
            "merged" => Ok(PolygonKind::Merged),
            _ => Err(format!("'{}' is not a mesh: use triangles or merged", quote(text))),
        }
    }
}

impl MeshAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            MeshAlgorithm::Ta => "ta",
            MeshAlgorithm::Tra => "tra",
            MeshAlgorithm::Polyanya => "polyanya",
        }
    }

    /// The name shown to a class.
    pub fn label(self) -> &'static str {
        match self {
            MeshAlgorithm::Ta => "TA*",
            MeshAlgorithm::Tra => "TRA*",
            MeshAlgorithm::Polyanya => "Polyanya",
        }
    }
}

/// A mesh search and how the mesh is built for it.
///
/// Text form: `ta`, `tra` or `polyanya`, then optionally `:ITEM,...` with items `radius=R` (the
/// agent's radius, R >= 0, default 0; Polyanya plans for a point agent and refuses R > 0),
/// `first-path` (stop at the first path instead of proving the shortest; Polyanya's first path
/// is its shortest), `min-angle=A` (refine the triangulation until no angle is below A degrees,
/// 0..30; default: no refinement), `max-expansions=N` (give up after N expansions, default
/// 2,000,000) and, for Polyanya only, `mesh=triangles|merged` (the polygons it searches, default
/// merged). Examples: `ta`, `tra:radius=0.9,first-path`, `ta:min-angle=25`, `polyanya:mesh=triangles`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshSearch {
    pub algorithm: MeshAlgorithm,
    pub radius: f64,
    pub first_path_only: bool,
    pub min_angle: Option<f64>,
    pub max_expansions: usize,
    /// Polyanya's polygons (the triangle searches ignore it).
    pub mesh: PolygonKind,
}

impl Default for MeshSearch {
    fn default() -> Self {
        Self {
            algorithm: MeshAlgorithm::Ta,
            radius: 0.0,
            first_path_only: false,
            min_angle: None,
            max_expansions: DEFAULT_MAX_EXPANSIONS,
            mesh: PolygonKind::default(),
        }
    }
}

impl MeshSearch {
    /// Checks the values; the message starts with the option's name (also the CLI flag's).
    pub fn validate(&self) -> Result<(), String> {
        if !(self.radius.is_finite() && self.radius >= 0.0) {
            return Err(format!("radius must be a number >= 0, got {}", number(self.radius)));
        }
        if self.algorithm == MeshAlgorithm::Polyanya && self.radius != 0.0 {
            return Err(format!("radius must be 0: Polyanya plans for a point agent (got {})", number(self.radius)));
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

    /// Triangulates `outline` as this search wants it, with TRA*'s reduction or Polyanya's
    /// polygons when it needs them.
    pub fn prepare(&self, outline: &Outline) -> Result<PreparedMesh, String> {
        self.validate()?;
        let mesh = Navmesh::build(outline, self.refinement())?;
        let reduction = (self.algorithm == MeshAlgorithm::Tra).then(|| Reduction::new(&mesh));
        let polygons = (self.algorithm == MeshAlgorithm::Polyanya).then(|| self.mesh.polygons(&mesh));
        Ok(PreparedMesh { mesh, reduction, polygons, search: *self })
    }

    /// Searches `mesh` from `start` to `goal`; TRA* uses `reduction` (which must be `mesh`'s) or
    /// reduces the mesh first, Polyanya `polygons` (made of `mesh`) or makes them first. TA* and
    /// TRA* record [`SearchEvent`]s, Polyanya [`PolyanyaEvent`]s.
    pub fn run<T: Tracer<SearchEvent> + Tracer<PolyanyaEvent>>(
        &self,
        mesh: &Navmesh,
        reduction: Option<&Reduction>,
        polygons: Option<&ConvexMesh>,
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
            (MeshAlgorithm::Polyanya, _) => {
                let made;
                let polygons = match polygons {
                    Some(polygons) => polygons,
                    None => {
                        made = self.mesh.polygons(mesh);
                        &made
                    }
                };
                polyanya_result(mesh, polygons, &query, tracer)
            }
        }
    }
}

/// Polyanya's answer in the triangle searches' terms: its first path is its shortest, and it
/// has no channel of triangles.
fn polyanya_result<T: Tracer<PolyanyaEvent>>(
    mesh: &Navmesh,
    polygons: &ConvexMesh,
    query: &MeshQuery,
    tracer: &mut T,
) -> Result<MeshSearchResult, String> {
    let found = PolyanyaScratch::default().search(mesh, polygons, query, tracer)?;
    Ok(MeshSearchResult {
        first_length: found.path.as_ref().map(|p| p.length),
        improvements: usize::from(found.path.is_some()),
        path: found.path.map(|p| MeshPath { length: p.length, waypoints: p.waypoints, channel: Vec::new() }),
        expanded: found.expanded,
    })
}

/// Records whichever search runs: TA*/TRA*'s events in `search`, Polyanya's in `polyanya`.
#[derive(Default)]
pub struct MeshRecorder {
    pub search: Recorder<SearchEvent>,
    pub polyanya: Recorder<PolyanyaEvent>,
}

impl Tracer<SearchEvent> for MeshRecorder {
    const ENABLED: bool = true;
    fn record(&mut self, make: impl FnOnce() -> SearchEvent) {
        self.search.record(make);
    }
}

impl Tracer<PolyanyaEvent> for MeshRecorder {
    const ENABLED: bool = true;
    fn record(&mut self, make: impl FnOnce() -> PolyanyaEvent) {
        self.polyanya.record(make);
    }
}

/// A mesh built for one [`MeshSearch`].
pub struct PreparedMesh {
    pub mesh: Navmesh,
    /// TRA*'s reduction of the mesh; None for the others.
    pub reduction: Option<Reduction>,
    /// Polyanya's polygons; None for the others.
    pub polygons: Option<ConvexMesh>,
    search: MeshSearch,
}

impl PreparedMesh {
    pub fn query<T: Tracer<SearchEvent> + Tracer<PolyanyaEvent>>(
        &self,
        start: Point,
        goal: Point,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        self.search.run(&self.mesh, self.reduction.as_ref(), self.polygons.as_ref(), start, goal, tracer)
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
        if self.algorithm == MeshAlgorithm::Polyanya && self.mesh != PolygonKind::default() {
            items.push(format!("mesh={}", self.mesh.name()));
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
            "polyanya" => MeshAlgorithm::Polyanya,
            name => return Err(format!("unknown mesh search '{}': use ta, tra or polyanya", quote(name))),
        };
        let mesh = spec.value::<PolygonKind>("mesh")?;
        if mesh.is_some() && algorithm != MeshAlgorithm::Polyanya {
            return Err("mesh: only polyanya searches merged polygons; ta and tra search triangles".to_string());
        }
        let search = MeshSearch {
            algorithm,
            radius: spec.value("radius")?.unwrap_or(0.0),
            first_path_only: spec.flag("first-path"),
            min_angle: spec.value("min-angle")?,
            max_expansions: spec.value("max-expansions")?.unwrap_or(DEFAULT_MAX_EXPANSIONS),
            mesh: mesh.unwrap_or_default(),
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
        for text in [
            "ta",
            "tra",
            "ta:radius=0.5",
            "tra:first-path",
            "ta:min-angle=20",
            "ta:max-expansions=1000",
            "polyanya",
            "polyanya:mesh=triangles",
        ] {
            assert_eq!(text.parse::<MeshSearch>().unwrap().to_string(), text);
        }
        for (text, message) in [
            ("ta:radius=-1", "radius must be a number >= 0"),
            ("tra:min-angle=40", "min-angle must be between 0 and 30"),
            ("ja", "unknown mesh search 'ja'"),
            ("ta:fast", "unknown option 'fast'"),
            ("ta:max-expansions=0", "max-expansions must be at least 1"),
            ("polyanya:radius=0.5", "radius must be 0: Polyanya plans for a point agent"),
            ("polyanya:mesh=quads", "mesh=quads"),
            ("ta:mesh=merged", "mesh: only polyanya"),
        ] {
            assert!(text.parse::<MeshSearch>().unwrap_err().contains(message), "{text}");
        }
    }
}
