//! HPA* (Botea, Müller, Schaeffer 2004): near-optimal hierarchical pathfinding.
//!
//! Pre-processing cuts the map into square clusters, finds the entrances on each border between
//! two clusters and places transitions there (one in the middle of a short entrance, one at each
//! end of a long one). Transition cells become the nodes of an abstract graph, joined across the
//! border by the one-step inter edge and inside a cluster by intra edges whose exact costs come
//! from Dijkstra restricted to the cluster. A query links start and goal to the entrances of their
//! clusters, runs A* on the small abstract graph, refines each abstract edge into grid steps with
//! A* restricted to one cluster, and finally smooths the path with straight shortcuts.
//!
//! Higher levels (the paper's multi-level hierarchy) group `GROUP` × `GROUP` clusters of the level
//! below. Their entrances are the level-1 transitions on their cluster borders, and their intra
//! edges come from searching the level below inside one of their clusters. A query then links
//! start and goal level by level, plans on the top level and refines the plan down one level at a
//! time (cached paths), then to the grid.

use super::astar::{astar, grid_heuristic};
use super::dijkstra::dijkstra;
use super::plan_trace::{PlanEvent, PlanStage};
use super::{COST_EPSILON, Heuristic, SearchSpace};
use crate::graph::{Graph, NodeMap, path_cost, step_cost};
use crate::grid::{Grid, GridGraph, MoveRules};
use crate::trace::{Mapped, NoTrace, Tracer};
use super::search_trace::SearchEvent;

/// Entrances at least this wide get two transitions, one at each end (the paper's choice).
const WIDE_ENTRANCE: u32 = 6;

/// A cluster of level l + 1 is GROUP × GROUP clusters of level l.
pub const GROUP: u32 = 3;

/// One edge of an abstract graph; edges are directed because a weighted cell costs more to enter
/// than to leave. In a list of incoming edges `to` is the other end.
#[derive(Debug, Clone, Copy, PartialEq)]
struct AbstractEdge {
    to: u32,
    cost: f64,
}

#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone)]
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
}

/// The clusters, transitions and abstract graphs of a map.
#[derive(Debug, Clone)]
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
}

/// Query options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HpaQuery {
    pub smooth: bool,
}

/// What a query found and what it cost.
#[derive(Debug, Clone, PartialEq)]
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
    pub refinement_expanded: usize,
    /// Nodes expanded per level, index = level (0 = grid cells): on the grid, linking start and
    /// goal on level 1 and refining; on level l, linking on level l + 1 and, on the top level,
    /// the abstract search.
    pub expanded_per_level: Vec<usize>,
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

/// How a query's start and goal join one level.
#[derive(Debug, Default)]
struct Links {
    /// Start to node (the goal's id among them when reached directly).
    start: Vec<Link>,
    /// Node to goal.
    goal: Vec<Link>,
}

#[derive(Debug)]
struct Link {
    node: u32,
    cost: f64,
    /// The way on the level below, as its query-graph ids; empty on level 1, whose links are
    /// refined by searching the grid.
    path: Vec<u32>,
}

/// One level's abstract graph with the query's start and goal linked in (ids n and n + 1),
/// optionally confined to one cluster of a higher level and optionally reversed (edges in).
struct QueryGraph<'a> {
    hpa: &'a Hpa,
    level: usize,
    links: &'a Links,
    /// The goal's cluster on this level.
    goal_cluster: u32,
    within: Option<Within>,
    reversed: bool,
}

/// A cluster of some level that confines a search.
#[derive(Clone, Copy)]
struct Within {
    level: usize,
    cluster: u32,
    /// Whether the query's start and goal lie in it.
    ends_inside: [bool; 2],
}

impl QueryGraph<'_> {
    fn start(&self) -> u32 {
        self.hpa.node_cells.len() as u32
    }

    fn goal(&self) -> u32 {
        self.start() + 1
    }

    fn inside(&self, node: u32) -> bool {
        self.within.is_none_or(|within| match node.checked_sub(self.start()) {
            Some(end) => within.ends_inside[end as usize],
            None => self.hpa.layers[within.level - 1].node_clusters[node as usize] == within.cluster,
        })
    }
}

impl Graph for QueryGraph<'_> {
    fn node_count(&self) -> usize {
        self.hpa.node_cells.len() + 2
    }

    fn for_each_neighbor(&self, node: u32, mut visit: impl FnMut(u32, f64)) {
        let layer = &self.hpa.layers[self.level - 1];
        let mut go = |to: u32, cost: f64| {
            if self.inside(to) {
                visit(to, cost);
            }
        };
        // Nothing leads back into the start (or, reversed, out of the goal): no search needs it.
        if self.reversed {
            if node == self.goal() {
                self.links.goal.iter().for_each(|link| go(link.node, link.cost));
            } else if node != self.start() {
                layer.into[node as usize].iter().for_each(|e| go(e.to, e.cost));
            }
        } else if node == self.start() {
            self.links.start.iter().for_each(|link| go(link.node, link.cost));
        } else if node != self.goal() {
            layer.out[node as usize].iter().for_each(|e| go(e.to, e.cost));
            if layer.node_clusters[node as usize] == self.goal_cluster {
                for link in self.links.goal.iter().filter(|link| link.node == node) {
                    go(self.goal(), link.cost);
                }
            }
        }
    }
}

/// Dijkstra from each entrance of one cluster to the others inside it: the intra edges.
/// `node_of` maps an entrance cell to its node in `graph`, `cell_of` maps back.
fn all_pairs(
    graph: &impl Graph,
    entrances: &[u32],
    node_of: impl Fn(u32) -> u32,
    cell_of: impl Fn(u32) -> u32,
    space: &mut SearchSpace,
) -> Vec<IntraEdge> {
    let mut edges = Vec::new();
    for &from in entrances {
        dijkstra(graph, node_of(from), None, space, &mut NoTrace);
        for &to in entrances {
            let cost = space.g(node_of(to));
            if to != from && cost.is_finite() {
                let path = space.path_to(node_of(to)).into_iter().map(&cell_of).collect();
                edges.push(IntraEdge { from, to, cost, path });
            }
        }
    }
    edges
}

impl Hpa {
    /// Builds one abstraction level with square clusters of `cluster_size` cells.
    pub fn build(grid: &Grid, rules: MoveRules, cluster_size: u32) -> Hpa {
        Hpa::build_levels(grid, rules, cluster_size, 1)
    }

    /// Builds `levels` abstraction levels (at least one): level 1 with clusters of
    /// `cluster_size` cells, each level above with clusters of `GROUP` × `GROUP` below.
    pub fn build_levels(grid: &Grid, rules: MoveRules, cluster_size: u32, levels: usize) -> Hpa {
        let cluster_size = cluster_size.max(2);
        let layers: Vec<Layer> =
            (0..levels.max(1) as u32).map(|l| Layer::new(grid, cluster_size.saturating_mul(GROUP.saturating_pow(l)))).collect();
        let count = layers[0].intra.len();
        let mut hpa = Hpa {
            rules,
            east: vec![Vec::new(); count],
            south: vec![Vec::new(); count],
            node_cells: Vec::new(),
            cell_nodes: NodeMap::default(),
            layers,
        };
        let all: Vec<u32> = (0..count as u32).collect();
        hpa.rebuild(grid, &all);
        hpa
    }

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

    /// `level`'s graph with a query's `links`; `within` = (higher level, cluster) confines it.
    fn query_graph<'a>(
        &'a self,
        grid: &Grid,
        level: usize,
        links: &'a Links,
        ends: [u32; 2],
        within: Option<(usize, u32)>,
        reversed: bool,
    ) -> QueryGraph<'a> {
        let cluster = |level: usize, cell: u32| {
            let (x, y) = grid.coords(cell);
            self.cluster_at(level, x, y)
        };
        QueryGraph {
            hpa: self,
            level,
            links,
            goal_cluster: cluster(level, ends[1]),
            within: within.map(|(level, c)| Within { level, cluster: c, ends_inside: ends.map(|e| cluster(level, e) == c) }),
            reversed,
        }
    }

    /// Re-computes the abstraction after the cells in `changed` were edited; only the clusters
    /// around them are redone. Returns the clusters whose intra edges were recomputed, per level
    /// (index = level - 1).
    pub fn update(&mut self, grid: &Grid, changed: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let mut touched: Vec<u32> = changed.iter().map(|&(x, y)| self.cluster_at(1, x, y)).collect();
        touched.sort_unstable();
        touched.dedup();
        self.rebuild(grid, &touched)
    }

    /// Redoes the borders of `touched` level-1 clusters, then the intra edges of every cluster
    /// whose transitions may have moved (the touched ones and their four neighbours), then on
    /// each higher level the intra edges of the clusters holding a cluster redone below.
    fn rebuild(&mut self, grid: &Grid, touched: &[u32]) -> Vec<Vec<u32>> {
        let (clusters_x, clusters_y) = (self.layers[0].clusters_x, self.layers[0].clusters_y);
        let mut redo = Vec::new();
        for &cluster in touched {
            let (cx, cy) = (cluster % clusters_x, cluster / clusters_x);
            // A cluster owns its east and south borders; its west and north ones belong to its neighbours.
            if cx > 0 {
                self.find_transitions(grid, cluster - 1, true);
            }
            if cy > 0 {
                self.find_transitions(grid, cluster - clusters_x, false);
            }
            self.find_transitions(grid, cluster, true);
            self.find_transitions(grid, cluster, false);
            redo.push(cluster);
            if cx > 0 {
                redo.push(cluster - 1);
            }
            if cx + 1 < clusters_x {
                redo.push(cluster + 1);
            }
            if cy > 0 {
                redo.push(cluster - clusters_x);
            }
            if cy + 1 < clusters_y {
                redo.push(cluster + clusters_x);
            }
        }
        let inter = self.number_nodes(grid);
        let mut space = SearchSpace::new();
        let mut redone = Vec::new();
        for level in 1..=self.levels() {
            if level > 1 {
                redo = redo.iter().map(|&cluster| self.parent_cluster(grid, level - 1, cluster)).collect();
            }
            redo.sort_unstable();
            redo.dedup();
            for &cluster in &redo {
                let edges = self.intra_edges(grid, level, cluster, &mut space);
                self.layers[level - 1].intra[cluster as usize] = edges;
            }
            self.connect(level, &inter);
            redone.push(redo.clone());
        }
        redone
    }

    /// The cluster of `level + 1` that holds `cluster` of `level`.
    fn parent_cluster(&self, grid: &Grid, level: usize, cluster: u32) -> u32 {
        let (x0, y0, _, _) = self.cluster_rect(grid, level, cluster);
        self.cluster_at(level + 1, x0, y0)
    }

    /// The transitions on the east (or south) border of level-1 `cluster`.
    fn find_transitions(&mut self, grid: &Grid, cluster: u32, east: bool) {
        let layer = &self.layers[0];
        let (cx, cy) = (cluster % layer.clusters_x, cluster / layer.clusters_x);
        let (x0, y0, x1, y1) = self.cluster_rect(grid, 1, cluster);
        let mut found = Vec::new();
        let has_neighbour = if east { cx + 1 < layer.clusters_x } else { cy + 1 < layer.clusters_y };
        if has_neighbour {
            // Walk along the border; `pair(i)` is the cell pair straddling it at offset i.
            let pair = |i: u32| if east { ((x1 - 1, y0 + i), (x1, y0 + i)) } else { ((x0 + i, y1 - 1), (x0 + i, y1)) };
            let length = if east { y1 - y0 } else { x1 - x0 };
            let open = |i: u32| {
                let ((ax, ay), (bx, by)) = pair(i);
                grid.is_passable(ax as i64, ay as i64) && grid.is_passable(bx as i64, by as i64)
            };
            let mut i = 0;
            while i < length {
                if !open(i) {
                    i += 1;
                    continue;
                }
                let first = i;
                while i < length && open(i) {
                    i += 1;
                }
                let last = i - 1;
                let places = if last - first + 1 >= WIDE_ENTRANCE { vec![first, last] } else { vec![(first + last) / 2] };
                for at in places {
                    let ((ax, ay), (bx, by)) = pair(at);
                    found.push((grid.cell(ax, ay), grid.cell(bx, by)));
                }
            }
        }
        if east {
            self.east[cluster as usize] = found;
        } else {
            self.south[cluster as usize] = found;
        }
    }

    /// Numbers the transition cells, sorts them into each level's clusters and entrances, and
    /// returns the inter edges (node, node, cost), both directions of each transition.
    fn number_nodes(&mut self, grid: &Grid) -> Vec<(u32, u32, f64)> {
        let Hpa { rules, east, south, node_cells, cell_nodes, layers } = self;
        node_cells.clear();
        cell_nodes.clear();
        let mut node_of = |cell: u32| {
            *cell_nodes.entry(cell).or_insert_with(|| {
                node_cells.push(cell);
                node_cells.len() as u32 - 1
            })
        };
        let graph = GridGraph::new(grid, *rules);
        let mut inter = Vec::new();
        for (a, b) in east.iter().chain(south.iter()).flatten().copied() {
            let (na, nb) = (node_of(a), node_of(b));
            for (from, to, x, y) in [(na, nb, a, b), (nb, na, b, a)] {
                inter.push((from, to, step_cost(&graph, x, y).expect("transition cells are neighbours")));
            }
        }
        for layer in layers.iter_mut() {
            layer.node_clusters = node_cells
                .iter()
                .map(|&cell| {
                    let (x, y) = grid.coords(cell);
                    layer.cluster_of(x, y)
                })
                .collect();
            layer.entrances.iter_mut().for_each(Vec::clear);
            for &(a, b, _) in &inter {
                let (ca, cb) = (layer.node_clusters[a as usize], layer.node_clusters[b as usize]);
                if ca != cb {
                    layer.entrances[ca as usize].push(node_cells[a as usize]);
                }
            }
            for cells in &mut layer.entrances {
                cells.sort_unstable();
                cells.dedup();
            }
        }
        inter
    }

    /// The intra edges of one cluster of `level`, from the grid (level 1) or the level below.
    fn intra_edges(&self, grid: &Grid, level: usize, cluster: u32, space: &mut SearchSpace) -> Vec<IntraEdge> {
        let entrances = &self.layers[level - 1].entrances[cluster as usize];
        if level == 1 {
            return all_pairs(&self.confined(grid, cluster, false), entrances, |cell| cell, |cell| cell, space);
        }
        let no_links = Links::default();
        // The ends are placeholders: without links no search reaches them.
        let below = self.query_graph(grid, level - 1, &no_links, [0, 0], Some((level, cluster)), false);
        all_pairs(&below, entrances, |cell| self.cell_nodes[&cell], |node| self.node_cells[node as usize], space)
    }

    /// Assembles `level`'s adjacency from the inter edges crossing its borders and its intra edges.
    fn connect(&mut self, level: usize, inter: &[(u32, u32, f64)]) {
        let count = self.node_cells.len();
        let cell_nodes = &self.cell_nodes;
        let layer = &mut self.layers[level - 1];
        let (mut out, mut into) = (vec![Vec::new(); count], vec![Vec::new(); count]);
        let mut arc = |from: u32, to: u32, cost: f64| {
            out[from as usize].push(AbstractEdge { to, cost });
            into[to as usize].push(AbstractEdge { to: from, cost });
        };
        for &(a, b, cost) in inter {
            if layer.node_clusters[a as usize] != layer.node_clusters[b as usize] {
                arc(a, b, cost);
            }
        }
        for edge in layer.intra.iter().flatten() {
            arc(cell_nodes[&edge.from], cell_nodes[&edge.to], edge.cost);
        }
        layer.out = out;
        layer.into = into;
    }

    /// Searches from one end of a query (`from`, a node of `graph`) and links it to the entrances
    /// of `cluster` on `level` that it reached, and to `other_end` = (id on `level`, node of
    /// `graph`) if reached. `node_of` maps an entrance cell to its node in `graph`.
    #[allow(clippy::too_many_arguments)]
    fn link_end(
        &self,
        graph: &impl Graph,
        level: usize,
        cluster: u32,
        from: u32,
        other_end: Option<(u32, u32)>,
        node_of: impl Fn(u32) -> u32,
        keep_paths: bool,
        space: &mut SearchSpace,
        tracer: &mut impl Tracer<SearchEvent>,
    ) -> (Vec<Link>, usize) {
        let expanded = dijkstra(graph, from, None, space, tracer).expanded;
        let entrances = self.layers[level - 1].entrances[cluster as usize].iter().map(|&cell| (self.cell_nodes[&cell], node_of(cell)));
        let mut links = Vec::new();
        for (id, node) in entrances.chain(other_end) {
            let cost = space.g(node);
            if cost.is_finite() {
                let path = if keep_paths { space.path_to(node) } else { Vec::new() };
                links.push(Link { node: id, cost, path });
            }
        }
        (links, expanded)
    }

    /// Turns a path of `level`'s query graph into one of the level below: links and intra edges
    /// are replaced by the paths cached behind them.
    fn refine_to_level_below(&self, level: usize, nodes: &[u32], links: &Links) -> Vec<u32> {
        let layer = &self.layers[level - 1];
        let start = self.node_cells.len() as u32;
        let mut below = vec![start];
        for pair in nodes.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a == start {
                let link = links.start.iter().find(|link| link.node == b).expect("the path leaves the start by a link");
                below.extend_from_slice(&link.path[1..]);
            } else if b == start + 1 {
                let link = links.goal.iter().find(|link| link.node == a).expect("the path reaches the goal by a link");
                below.extend_from_slice(&link.path[1..]);
            } else if layer.node_clusters[a as usize] != layer.node_clusters[b as usize] {
                below.push(b);
            } else {
                let (from, to) = (self.node_cells[a as usize], self.node_cells[b as usize]);
                let intra = &layer.intra[layer.node_clusters[a as usize] as usize];
                let edge = intra.iter().find(|e| (e.from, e.to) == (from, to)).expect("steps inside a cluster are intra edges");
                below.extend(edge.path[1..].iter().map(|cell| self.cell_nodes[cell]));
            }
        }
        below
    }

    /// Finds a path from `start` to `goal` (grid cells, both passable).
    pub fn query<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        start: u32,
        goal: u32,
        options: HpaQuery,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> HpaResult {
        let top = self.levels();
        let mut result = HpaResult {
            path: None,
            refined_path: Vec::new(),
            unsmoothed_cost: None,
            abstract_paths: vec![Vec::new(); top],
            insertion_expanded: 0,
            abstract_expanded: 0,
            refinement_expanded: 0,
            expanded_per_level: vec![0; top + 1],
        };
        let ends = [start, goal];
        let (start_node, goal_node) = (self.node_cells.len() as u32, self.node_cells.len() as u32 + 1);
        let cell_of = |node: u32| match node.checked_sub(start_node) {
            Some(end) => ends[end as usize],
            None => self.node_cells[node as usize],
        };
        let on_grid = |e| PlanEvent::Search(e);
        let on_level = |e: SearchEvent| PlanEvent::Search(e.map_nodes(cell_of));

        // Link start and goal level by level: on level 1 by searching the grid inside their
        // clusters, higher up by searching the level below inside their clusters there.
        let mut links: Vec<Links> = Vec::with_capacity(top);
        for level in 1..=top {
            let mut joined = Links::default();
            for (end, reversed) in [(0, false), (1, true)] {
                let (x, y) = grid.coords(ends[end]);
                let cluster = self.cluster_at(level, x, y);
                let stage = if reversed { PlanStage::LinkGoal } else { PlanStage::LinkStart };
                tracer.record(|| PlanEvent::Stage { level: level - 1, stage });
                let other_end = |node| (!reversed).then_some((goal_node, node));
                let (found, expanded) = if level == 1 {
                    let graph = self.confined(grid, cluster, reversed);
                    let tracer = &mut Mapped::new(tracer, on_grid);
                    self.link_end(&graph, 1, cluster, ends[end], other_end(goal), |cell| cell, false, space, tracer)
                } else {
                    let graph = self.query_graph(grid, level - 1, &links[level - 2], ends, Some((level, cluster)), reversed);
                    let node_of = |cell| self.cell_nodes[&cell];
                    let tracer = &mut Mapped::new(tracer, on_level);
                    let from = start_node + end as u32;
                    self.link_end(&graph, level, cluster, from, other_end(goal_node), node_of, true, space, tracer)
                };
                result.insertion_expanded += expanded;
                result.expanded_per_level[level - 1] += expanded;
                if reversed {
                    // Searched backwards from the goal: each path runs goal to node.
                    joined.goal = found.into_iter().map(|link| Link { path: link.path.into_iter().rev().collect(), ..link }).collect();
                } else {
                    joined.start = found;
                }
            }
            links.push(joined);
        }

        tracer.record(|| PlanEvent::Stage { level: top, stage: PlanStage::AbstractSearch });
        let (gx, gy) = grid.coords(goal);
        let heuristic = |node: u32| {
            let (x, y) = grid.coords(cell_of(node));
            Heuristic::Octile.estimate(x as f64 - gx as f64, y as f64 - gy as f64)
        };
        let graph = self.query_graph(grid, top, &links[top - 1], ends, None, false);
        let found = astar(&graph, start_node, goal_node, heuristic, 1.0, space, &mut Mapped::new(tracer, on_level));
        result.abstract_expanded = found.expanded;
        result.expanded_per_level[top] += found.expanded;
        let Some((cost, mut nodes)) = found.path else { return result };
        result.abstract_paths[top - 1] = nodes.iter().map(|&n| cell_of(n)).collect();
        for level in (2..=top).rev() {
            tracer.record(|| PlanEvent::Stage { level: level - 1, stage: PlanStage::RefineAbstractPath });
            nodes = self.refine_to_level_below(level, &nodes, &links[level - 1]);
            let cells: Vec<u32> = nodes.iter().map(|&n| cell_of(n)).collect();
            if T::ENABLED {
                let path = cells.clone();
                tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
            }
            result.abstract_paths[level - 2] = cells;
        }

        tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::RefineEdges });
        let graph = GridGraph::new(grid, self.rules);
        let layer = &self.layers[0];
        let mut cells = vec![start];
        for pair in result.abstract_paths[0].windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ax, ay) = grid.coords(a);
            let (bx, by) = grid.coords(b);
            let cluster = layer.cluster_of(ax, ay);
            if cluster != layer.cluster_of(bx, by) {
                cells.push(b);
                continue;
            }
            if let Some(edge) = layer.intra[cluster as usize].iter().find(|e| (e.from, e.to) == (a, b)) {
                if T::ENABLED {
                    tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost: edge.cost, path: edge.path.clone() }));
                }
                cells.extend_from_slice(&edge.path[1..]);
                continue;
            }
            // Start and goal are linked to entrances only for this query: search their cluster.
            let inside = self.confined(grid, cluster, false);
            let segment = astar(&inside, a, b, grid_heuristic(grid, b, Heuristic::Octile), 1.0, space, &mut Mapped::new(tracer, on_grid));
            result.refinement_expanded += segment.expanded;
            result.expanded_per_level[0] += segment.expanded;
            let (_, steps) = segment.path.expect("start and goal links were found inside the cluster");
            cells.extend_from_slice(&steps[1..]);
        }
        result.unsmoothed_cost = Some(path_cost(&graph, &cells).expect("refined steps are grid moves"));
        result.refined_path = cells.clone();
        if options.smooth {
            tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::Smooth });
            cells = smooth(&graph, cells, self.cluster_size());
        }
        let cost = path_cost(&graph, &cells).expect("smoothing keeps grid moves");
        if T::ENABLED {
            let path = cells.clone();
            tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
        }
        result.path = Some((cost, cells));
        result
    }
}

/// Replaces stretches of `path` by straight runs (orthogonal or diagonal, at most `reach` steps)
/// wherever the run is cheaper, as HPA*'s post-processing does. From each kept cell it tries the
/// later path cells (furthest first, up to `3 * reach` path steps ahead) that lie on one of the
/// eight rays from it, so only promising runs are ever walked.
pub fn smooth(graph: &GridGraph, path: Vec<u32>, reach: u32) -> Vec<u32> {
    let grid = graph.grid;
    let coords: Vec<(i64, i64)> = path.iter().map(|&c| grid.coords(c)).map(|(x, y)| (x as i64, y as i64)).collect();
    // cost_to[i] = cost of path[..=i].
    let mut cost_to = vec![0.0; path.len()];
    for i in 1..path.len() {
        cost_to[i] = cost_to[i - 1] + step_cost(graph, path[i - 1], path[i]).expect("path steps are grid moves");
    }
    // The cost of the straight run from `from` to `to` if it is walkable, None otherwise.
    let run_cost = |(x, y): (i64, i64), (tx, ty): (i64, i64)| -> Option<f64> {
        let (dx, dy) = ((tx - x).signum(), (ty - y).signum());
        let steps = (tx - x).abs().max((ty - y).abs());
        let mut total = 0.0;
        for k in 0..steps {
            total += graph.step((x + dx * k) as u32, (y + dy * k) as u32, dx, dy)?.1;
        }
        Some(total)
    };
    let window = 3 * reach as usize;
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i + 1 < path.len() {
        out.push(path[i]);
        let (x, y) = coords[i];
        let shortcut = (i + 2..path.len().min(i + window + 1)).rev().find(|&j| {
            let (dx, dy) = (coords[j].0 - x, coords[j].1 - y);
            let on_ray = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            let near = dx.abs().max(dy.abs()) <= reach as i64;
            on_ray && near && run_cost(coords[i], coords[j]).is_some_and(|c| c + COST_EPSILON < cost_to[j] - cost_to[i])
        });
        match shortcut {
            Some(j) => {
                let (tx, ty) = coords[j];
                let (dx, dy) = ((tx - x).signum(), (ty - y).signum());
                let steps = (tx - x).abs().max((ty - y).abs());
                out.extend((1..steps).map(|k| grid.cell((x + dx * k) as u32, (y + dy * k) as u32)));
                i = j;
            }
            None => i += 1,
        }
    }
    out.push(*path.last().expect("paths are never empty"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;

    #[test]
    fn open_map_transitions_follow_the_paper() {
        // 20x10 open map, clusters of 10: one border 10 cells long, so two transitions at its ends.
        let grid = Grid::new(20, 10);
        let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        let pairs: Vec<((u32, u32), (u32, u32))> =
            hpa.transitions(1).map(|(a, b)| (grid.coords(a), grid.coords(b))).collect();
        assert_eq!(pairs, vec![((9, 0), (10, 0)), ((9, 9), (10, 9))]);
        assert_eq!(hpa.node_count(1), 4);
        // Inter edges both ways, intra edges both ways in each cluster.
        assert_eq!(hpa.edge_count(1), 4 + 4);
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
    fn smoothing_straightens_a_staircase() {
        let grid = Grid::new(6, 6);
        let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);
        // Right, right, down, down instead of two diagonals... then on to (4,4).
        let zigzag: Vec<u32> = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 3), (4, 4)]
            .iter()
            .map(|&(x, y)| grid.cell(x, y))
            .collect();
        let smoothed = smooth(&graph, zigzag.clone(), 10);
        let straight: Vec<u32> = (0..5).map(|i| grid.cell(i, i)).collect();
        assert_eq!(smoothed, straight);
        assert!(path_cost(&graph, &smoothed).unwrap() < path_cost(&graph, &zigzag).unwrap());
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
        let fresh = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 10, 2);
        for level in 1..=2 {
            let edges = |hpa: &Hpa| {
                let mut edges: Vec<_> = hpa.abstract_edges(level).map(|(x, y, c)| (x, y, (c * 1e6) as i64)).collect();
                edges.sort_unstable();
                edges
            };
            assert_eq!(edges(&hpa), edges(&fresh), "level {level}: an update gives the same graph as a rebuild");
            assert!(hpa.layers[level - 1].intra == fresh.layers[level - 1].intra, "and the same cached paths");
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
            let inside = Confined { graph: GridGraph::new(&grid, MoveRules::MOVINGAI), x0, y0, x1, y1, reversed: false };
            let best = dijkstra(&inside, from, Some(to), &mut space, &mut NoTrace).cost().unwrap();
            assert!(cost >= best - 1e-9, "{from}->{to}: {cost} vs {best}");
            ratios.push(cost / best);
        }
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        assert!(ratios.len() > 20 && mean < 1.1, "mean ratio {mean}");
    }
}
