//! TRA*, triangulation reduction A* (Demyen & Buro 2006): TA*'s search on the triangulation
//! reduced by [`super::reduction`], crossing each corridor in one step from decision point to
//! decision point and leaving out dead ends.
//!
//! The search itself is TA*'s ([`super::tastar`]), with the same anytime scheme and result.

use super::reduction::Reduction;
use super::tastar::{MeshQuery, MeshSearchResult, SearchScratch};
use super::triangulation::Navmesh;
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::Tracer;

/// TRA*: the shortest path for `query` on the reduced triangulation (same result as TA*).
pub fn tra_star<T: Tracer<SearchEvent>>(
    mesh: &Navmesh,
    reduction: &Reduction,
    query: &MeshQuery,
    tracer: &mut T,
) -> Result<MeshSearchResult, String> {
    SearchScratch::default().tra_star(mesh, reduction, query, tracer)
}

impl SearchScratch {
    /// TRA* ([`tra_star`]) with these buffers.
    pub fn tra_star<T: Tracer<SearchEvent>>(
        &mut self,
        mesh: &Navmesh,
        reduction: &Reduction,
        query: &MeshQuery,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        self.search(mesh, query, Some(reduction), tracer)
    }
}
