//! HPA* (Botea, Müller, Schaeffer 2004): near-optimal hierarchical pathfinding.
//!
//! Pre-processing cuts the map into square clusters, finds the entrances on each border between
//! two clusters and places transitions there (one in the middle of a short entrance, one at each
//! end of a long one). On weighted maps an entrance is first cut where the weights beside the
//! border change, so each stretch of even ground gets its own transitions. Transition cells become
//! the nodes of an abstract graph, joined across the border by the one-step inter edge (and, where
//! the weights around it differ, by a diagonal step between two transition cells) and inside a
//! cluster by intra edges whose exact costs come from Dijkstra restricted to the cluster; those
//! searches also leave, per cluster, the distances between every cell and each entrance. A query
//! links start and goal to the entrances of their clusters by looking those distances up, runs A*
//! on the small abstract graph (where a node reached inside its cluster goes on only across the
//! border: the intra edge straight there is never dearer), refines each abstract edge into grid
//! steps (cached paths, and walks down the distances for the links), and finally smooths the path
//! with straight shortcuts.
//!
//! `build` pre-processes and updates, `query` answers, `smooth` post-processes, `fields` holds the
//! cached distances.
//!
//! Higher levels (the paper's multi-level hierarchy) group `GROUP` × `GROUP` clusters of the level
//! below. Their entrances are the level-1 transitions on their cluster borders, and their intra
//! edges come from searching the level below inside one of their clusters. A query then links
//! start and goal level by level, plans on the top level and refines the plan down one level at a
//! time (cached paths), then to the grid.

mod build;
mod fields;
mod query;
mod smooth;

pub use smooth::smooth;

use crate::graph::{Graph, NodeMap};
use crate::grid::{Grid, GridGraph, LineStop, MoveRules};

/// Entrances at least this wide get three transitions: one at each end, as in Botea et al. (2004),
/// and one in the middle, which the paper does not have (its threshold is 6); narrower ones get
/// one in the middle. On weighted ground the width is counted in cost (cells times the dearer
/// weight beside the border), as a detour along the border costs that much. The paper's ends alone (and one in the middle of rooms128's 5-cell doors)
/// make paths bend through a doorway's corner, which smoothing leaves at over 1% mean
/// suboptimality on rooms maps; with these every measured map stays under 1%
/// (examples/bench_hierarchy.rs).
const WIDE_ENTRANCE: u32 = 5;

/// A cluster of level l + 1 is GROUP × GROUP clusters of level l.
pub const GROUP: u32 = 3;

/// One edge of an abstract graph; edges are directed because a weighted cell costs more to enter
/// than to leave. In a list of incoming edges `to` is the other end.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
struct AbstractEdge {
    to: u32,
    cost: f64,
    /// An intra edge's index among its cluster's (`Layer::intra`); [`CROSSING`] for an inter edge.
    intra: u32,
}

/// The `intra` of an edge crossing a cluster border.
const CROSSING: u32 = u32::MAX;

impl AbstractEdge {
    fn crosses(&self) -> bool {
        self.intra == CROSSING
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct IntraEdge {
    from: u32,
    to: u32,
    cost: f64,
    /// From `from` to `to`, both included: grid cells on level 1, higher up the cells of the
    /// level-below nodes passed.
    path: Vec<u32>,
}

/// One abstraction level: its clusters, their intra edges, and its graph over the level-1 nodes
/// (a node that is not an entrance on this level has no edges here).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Layer {
    /// Cluster side in cells, clusters per row and per column.
    side: u32,
    clusters_x: u32,
    clusters_y: u32,
    /// Per cluster: directed intra edges between its entrances with the path behind each
    /// (cached, so refinement is a lookup).
    intra: Vec<Vec<IntraEdge>>,
    /// Per cluster: its entrance cells, sorted.
    entrances: Vec<Vec<u32>>,
    /// Per level-1 node: its cluster on this level, its edges out and its edges in.
    node_clusters: Vec<u32>,
    out: Vec<Vec<AbstractEdge>>,
    into: Vec<Vec<AbstractEdge>>,
}

impl Layer {
    fn new(grid: &Grid, side: u32) -> Layer {
        let (clusters_x, clusters_y) = (grid.width().div_ceil(side), grid.height().div_ceil(side));
        let count = (clusters_x * clusters_y) as usize;
        Layer {
            side,
            clusters_x,
            clusters_y,
            intra: vec![Vec::new(); count],
            entrances: vec![Vec::new(); count],
            node_clusters: Vec::new(),
            out: Vec::new(),
            into: Vec::new(),
        }
    }

    fn cluster_of(&self, x: u32, y: u32) -> u32 {
        (y / self.side) * self.clusters_x + x / self.side
    }

    /// The intra edge from node `from` to node `to`, if they are joined by one. Scanning a
    /// cluster's intra edges for the cells took 15% of a query on a 5%-random map, whose
    /// clusters have about 700 each; `from`'s own edges are a few dozen, side by side.
    fn intra_edge(&self, from: u32, to: u32) -> Option<&IntraEdge> {
        let edge = self.out[from as usize].iter().find(|e| e.to == to).filter(|e| !e.crosses())?;
        Some(&self.intra[self.node_clusters[from as usize] as usize][edge.intra as usize])
    }
}

/// The clusters, transitions and abstract graphs of a map.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Hpa {
    rules: MoveRules,
    /// Per level-1 cluster: transitions with its east and south neighbours, as (cell here, cell there).
    east: Vec<Vec<(u32, u32)>>,
    south: Vec<Vec<(u32, u32)>>,
    /// The transition cells, numbered: the nodes of every level (each level uses some of them).
    node_cells: Vec<u32>,
    cell_nodes: NodeMap<u32>,
    /// `layers[l - 1]` is level l.
    layers: Vec<Layer>,
    /// Per level-1 cluster: the distances between its cells and its entrances.
    fields: Vec<fields::Fields>,
}

/// Query options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HpaQuery {
    pub smooth: bool,
}

/// What a query found and what it cost.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HpaResult {
    /// Grid cells from start to goal and the cost, after smoothing when asked for.
    pub path: Option<(f64, Vec<u32>)>,
    /// The refined grid path before smoothing, and its cost.
    pub refined_path: Vec<u32>,
    pub unsmoothed_cost: Option<f64>,
    /// The abstract path on each level as grid cells (start, transitions..., goal):
    /// `abstract_paths[l - 1]` is level l's. The top level's was planned, the lower ones refine it.
    pub abstract_paths: Vec<Vec<u32>>,
    /// Nodes expanded linking start and goal to their clusters' entrances, on every level.
    pub insertion_expanded: usize,
    pub abstract_expanded: usize,
    /// Nodes expanded per level, index = level (0 = grid cells): on the grid, linking start and
    /// goal on level 1 (refinement walks cached distances and expands nothing); on level l, linking on level l + 1 and, on the top level,
    /// the abstract search.
    pub expanded_per_level: Vec<usize>,
    /// Whether the path is the free straight line from start to goal, returned without planning.
    pub straight_line: bool,
    /// Where the straight line stopped, when it was tried and not taken.
    pub line_stop: Option<LineStop>,
}

impl HpaResult {
    /// No path yet, with room for the figures of `levels` levels.
    pub(super) fn none(levels: usize) -> Self {
        HpaResult {
            path: None,
            refined_path: Vec::new(),
            unsmoothed_cost: None,
            abstract_paths: vec![Vec::new(); levels],
            insertion_expanded: 0,
            abstract_expanded: 0,
            expanded_per_level: vec![0; levels + 1],
            straight_line: false,
            line_stop: None,
        }
    }

    /// The free straight line from start to goal, found before any planning.
    pub(crate) fn straight(levels: usize, cost: f64, path: Vec<u32>) -> Self {
        let refined_path = path.clone();
        HpaResult {
            path: Some((cost, path)),
            refined_path,
            unsmoothed_cost: Some(cost),
            straight_line: true,
            ..HpaResult::none(levels)
        }
    }
}

/// A grid graph confined to one rectangle of cells; `reversed` gives each edge the cost of
/// travelling it the other way (searching backwards from a goal).
struct Confined<'a> {
    graph: GridGraph<'a>,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    reversed: bool,
}

impl Graph for Confined<'_> {
    fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    fn for_each_neighbor(&self, cell: u32, mut visit: impl FnMut(u32, f64)) {
        let grid = self.graph.grid;
        self.graph.for_each_neighbor(cell, |nb, cost| {
            let (x, y) = grid.coords(nb);
            if x < self.x0 || x >= self.x1 || y < self.y0 || y >= self.y1 {
                return;
            }
            let cost = if self.reversed { cost / grid.weight(nb) as f64 * grid.weight(cell) as f64 } else { cost };
            visit(nb, cost);
        });
    }
}

impl Hpa {
    pub fn cluster_size(&self) -> u32 {
        self.layers[0].side
    }

    pub fn levels(&self) -> usize {
        self.layers.len()
    }

    pub fn rules(&self) -> MoveRules {
        self.rules
    }

    /// Number of nodes (entrance cells) on `level`.
    pub fn node_count(&self, level: usize) -> usize {
        self.layers[level - 1].entrances.iter().map(Vec::len).sum()
    }

    pub fn edge_count(&self, level: usize) -> usize {
        self.layers[level - 1].out.iter().map(Vec::len).sum()
    }

    pub fn cluster_count(&self, level: usize) -> usize {
        self.layers[level - 1].intra.len()
    }

    /// The transitions on `level`'s cluster borders as (cell, cell across the border), for drawing.
    pub fn transitions(&self, level: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let clusters = &self.layers[level - 1].node_clusters;
        let cluster = move |cell: u32| clusters[self.cell_nodes[&cell] as usize];
        self.east.iter().chain(&self.south).flatten().copied().filter(move |&(a, b)| cluster(a) != cluster(b))
    }

    /// Every edge of `level`'s abstract graph as (from cell, to cell, cost), for drawing.
    pub fn abstract_edges(&self, level: usize) -> impl Iterator<Item = (u32, u32, f64)> + '_ {
        self.layers[level - 1].out.iter().enumerate().flat_map(move |(from, out)| {
            out.iter().map(move |e| (self.node_cells[from], self.node_cells[e.to as usize], e.cost))
        })
    }

    /// The cluster of `level` holding grid cell (x, y).
    pub fn cluster_at(&self, level: usize, x: u32, y: u32) -> u32 {
        self.layers[level - 1].cluster_of(x, y)
    }

    /// The cells of a cluster of `level`: x0..x1, y0..y1 (clipped to the map).
    pub fn cluster_rect(&self, grid: &Grid, level: usize, cluster: u32) -> (u32, u32, u32, u32) {
        let layer = &self.layers[level - 1];
        let (x0, y0) = ((cluster % layer.clusters_x) * layer.side, (cluster / layer.clusters_x) * layer.side);
        (x0, y0, (x0 + layer.side).min(grid.width()), (y0 + layer.side).min(grid.height()))
    }

    fn confined<'g>(&self, grid: &'g Grid, cluster: u32, reversed: bool) -> Confined<'g> {
        let (x0, y0, x1, y1) = self.cluster_rect(grid, 1, cluster);
        Confined { graph: GridGraph::new(grid, self.rules), x0, y0, x1, y1, reversed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;
    use crate::pathfinding::SearchSpace;
    use crate::pathfinding::dijkstra::dijkstra;
    use crate::trace::NoTrace;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn wide_entrance_gets_transitions_at_its_ends_and_middle() {
        // 20x10 open map, clusters of 10: one border 10 cells long, so transitions at its ends (the
        // paper's) and its middle (ours: see WIDE_ENTRANCE).
        let grid = Grid::new(20, 10);
        let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        let pairs: Vec<((u32, u32), (u32, u32))> =
            hpa.transitions(1).map(|(a, b)| (grid.coords(a), grid.coords(b))).collect();
        assert_eq!(pairs, vec![((9, 0), (10, 0)), ((9, 4), (10, 4)), ((9, 9), (10, 9))]);
        assert_eq!(hpa.node_count(1), 6);
        // Inter edges both ways (3 x 2), intra edges both ways between the 3 nodes of each cluster.
        assert_eq!(hpa.edge_count(1), 3 * 2 + 2 * 6);
    }

    #[test]
    fn narrow_entrance_gets_one_transition_in_the_middle() {
        let mut grid = Grid::new(20, 10);
        for y in 0..10 {
            if !(3..=5).contains(&y) {
                grid.set_passable(10, y, false);
            }
        }
        let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        let pairs: Vec<(u32, u32)> = hpa.transitions(1).map(|(a, _)| grid.coords(a)).collect();
        assert_eq!(pairs, vec![(9, 4)]);
    }

    #[test]
    fn update_redoes_only_nearby_clusters_on_both_levels() {
        let mut grid = generate::random(100, 100, 0.2, 4);
        let mut hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, 2);
        grid.set_passable(55, 55, !grid.is_passable(55, 55));
        let redone = hpa.update(&grid, &[(55, 55)]);
        // Level 1: cluster (5, 5) and its four neighbours; level 2 (30x30 cells, 4 per row): the
        // ones holding them, (1, 1), (2, 1) and (1, 2).
        assert_eq!(redone, vec![vec![45, 54, 55, 56, 65], vec![5, 6, 9]]);
        assert_same_as_rebuild(&hpa, &grid);
    }

    /// Checks that `hpa`, updated after edits, holds what a fresh build of `grid` does.
    fn assert_same_as_rebuild(hpa: &Hpa, grid: &Grid) {
        let fresh = Hpa::build_levels(grid, hpa.rules, hpa.cluster_size(), hpa.levels());
        for level in 1..=hpa.levels() {
            let edges = |hpa: &Hpa| {
                let mut edges: Vec<_> = hpa.abstract_edges(level).map(|(x, y, c)| (x, y, (c * 1e6) as i64)).collect();
                edges.sort_unstable();
                edges
            };
            assert_eq!(edges(hpa), edges(&fresh), "level {level}: an update gives the same graph as a rebuild");
            assert!(hpa.layers[level - 1].intra == fresh.layers[level - 1].intra, "and the same cached paths");
        }
        assert!(hpa.fields == fresh.fields, "and the same cached distances");
    }

    #[test]
    fn updates_on_weighted_ground_agree_with_a_rebuild() {
        // Edits beside the corners of level-2 clusters (9 x 9 cells), where weights split
        // entrances and decide which diagonal steps across a corner are inter edges.
        let mut grid = generate::random(36, 36, 0.15, 5);
        let mut rng = StdRng::seed_from_u64(9);
        for (x, y) in (0..36).flat_map(|y| (0..36).map(move |x| (x, y))) {
            grid.set_weight(x, y, rng.random_range(1..=2));
        }
        let mut hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 3, 2);
        let near_corner = [8, 9, 17, 18, 26, 27];
        for _ in 0..80 {
            let (x, y) = (near_corner[rng.random_range(0..6)], near_corner[rng.random_range(0..6)]);
            if rng.random_bool(0.2) {
                grid.set_passable(x, y, !grid.is_passable(x as i64, y as i64));
            } else {
                grid.set_weight(x, y, rng.random_range(1..=3));
            }
            hpa.update(&grid, &[(x, y)]);
            assert_same_as_rebuild(&hpa, &grid);
        }
    }

    #[test]
    fn level_two_entrances_are_the_level_one_transitions_on_its_borders() {
        let grid = generate::random(90, 60, 0.2, 7);
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, 2);
        assert_eq!((hpa.cluster_count(1), hpa.cluster_count(2)), (54, 6));
        let on_level_two: Vec<(u32, u32)> = hpa.transitions(2).collect();
        let crossing: Vec<(u32, u32)> = hpa
            .transitions(1)
            .filter(|&(a, b)| {
                let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
                (ax / 30, ay / 30) != (bx / 30, by / 30)
            })
            .collect();
        assert!(!crossing.is_empty());
        assert_eq!(on_level_two, crossing);
        assert!(hpa.node_count(2) < hpa.node_count(1));
        // A level-2 intra edge passes only through level-1 transitions inside its 30x30 cluster:
        // never cheaper than the best way inside the cluster, and on average close to it.
        let mut space = SearchSpace::new();
        let mut ratios = Vec::new();
        for (from, to, cost) in hpa.abstract_edges(2) {
            let ((ax, ay), (bx, by)) = (grid.coords(from), grid.coords(to));
            let cluster = hpa.cluster_at(2, ax, ay);
            if cluster != hpa.cluster_at(2, bx, by) {
                continue;
            }
            let (x0, y0, x1, y1) = hpa.cluster_rect(&grid, 2, cluster);
            let inside =
                Confined { graph: GridGraph::new(&grid, MoveRules::MOVINGAI), x0, y0, x1, y1, reversed: false };
            let best = dijkstra(&inside, from, Some(to), &mut space, &mut NoTrace).cost().unwrap();
            assert!(cost >= best - 1e-9, "{from}->{to}: {cost} vs {best}");
            ratios.push(cost / best);
        }
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        assert!(ratios.len() > 20 && mean < 1.1, "mean ratio {mean}");
    }
}
