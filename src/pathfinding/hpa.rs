//! HPA* (Botea, Müller, Schaeffer 2004): near-optimal hierarchical pathfinding.
//!
//! Pre-processing cuts the map into square clusters, finds the entrances on each border between
//! two clusters and places transitions there (one in the middle of a short entrance, one at each
//! end of a long one). Transition cells become the nodes of an abstract graph, joined across the
//! border by the one-step inter edge and inside a cluster by intra edges whose exact costs come
//! from Dijkstra restricted to the cluster. A query links start and goal to the entrances of their
//! clusters, runs A* on the small abstract graph, refines each abstract edge into grid steps with
//! A* restricted to one cluster, and finally smooths the path with straight shortcuts.

use super::astar::{astar, grid_heuristic};
use super::dijkstra::dijkstra;
use super::{COST_EPSILON, Graph, Heuristic, NodeMap, PlanEvent, SearchSpace, path_cost, step_cost};
use crate::grid::{Grid, GridGraph, MoveRules};
use crate::trace::{Mapped, NoTrace, SearchEvent, Tracer};

/// Entrances at least this wide get two transitions, one at each end (the paper's choice).
const WIDE_ENTRANCE: u32 = 6;

/// One edge of the abstract graph; edges are directed because a weighted cell costs more to enter
/// than to leave.
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
    /// Cells from `from` to `to`, both included.
    path: Vec<u32>,
}

/// The clusters, transitions and abstract graph of a map.
#[derive(Debug, Clone)]
pub struct Hpa {
    rules: MoveRules,
    cluster_size: u32,
    clusters_x: u32,
    clusters_y: u32,
    /// Per cluster: transitions with its east and south neighbours, as (cell here, cell there).
    east: Vec<Vec<(u32, u32)>>,
    south: Vec<Vec<(u32, u32)>>,
    /// Per cluster: directed intra edges between its transition cells, with exact costs and the
    /// grid path behind each (cached, so refinement is a lookup).
    intra: Vec<Vec<IntraEdge>>,
    /// The assembled abstract graph: node -> cell, cell -> node, adjacency.
    node_cells: Vec<u32>,
    node_clusters: Vec<u32>,
    cell_nodes: NodeMap<u32>,
    edges: Vec<Vec<AbstractEdge>>,
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
    /// Cost of the refined path before smoothing.
    pub unsmoothed_cost: Option<f64>,
    /// The abstract path as grid cells (start, transitions..., goal).
    pub abstract_path: Vec<u32>,
    /// Nodes expanded linking start and goal to their clusters' entrances.
    pub insertion_expanded: usize,
    pub abstract_expanded: usize,
    pub refinement_expanded: usize,
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

/// The abstract graph with the query's start and goal linked in (ids `n` and `n + 1`).
struct QueryGraph<'a> {
    hpa: &'a Hpa,
    start_links: Vec<AbstractEdge>,
    /// (abstract node, cost from it to the goal).
    goal_links: Vec<(u32, f64)>,
    goal_cluster: u32,
}

impl QueryGraph<'_> {
    fn start(&self) -> u32 {
        self.hpa.node_cells.len() as u32
    }

    fn goal(&self) -> u32 {
        self.start() + 1
    }
}

impl Graph for QueryGraph<'_> {
    fn node_count(&self) -> usize {
        self.hpa.node_cells.len() + 2
    }

    fn for_each_neighbor(&self, node: u32, mut visit: impl FnMut(u32, f64)) {
        if node == self.start() {
            self.start_links.iter().for_each(|e| visit(e.to, e.cost));
        } else if node != self.goal() {
            self.hpa.edges[node as usize].iter().for_each(|e| visit(e.to, e.cost));
            if self.hpa.node_clusters[node as usize] == self.goal_cluster {
                for &(from, cost) in &self.goal_links {
                    if from == node {
                        visit(self.goal(), cost);
                    }
                }
            }
        }
    }
}

impl Hpa {
    /// Builds the abstraction with square clusters of `cluster_size` cells.
    pub fn build(grid: &Grid, rules: MoveRules, cluster_size: u32) -> Hpa {
        let cluster_size = cluster_size.max(2);
        let clusters_x = grid.width().div_ceil(cluster_size);
        let clusters_y = grid.height().div_ceil(cluster_size);
        let count = (clusters_x * clusters_y) as usize;
        let mut hpa = Hpa {
            rules,
            cluster_size,
            clusters_x,
            clusters_y,
            east: vec![Vec::new(); count],
            south: vec![Vec::new(); count],
            intra: vec![Vec::new(); count],
            node_cells: Vec::new(),
            node_clusters: Vec::new(),
            cell_nodes: NodeMap::default(),
            edges: Vec::new(),
        };
        let all: Vec<u32> = (0..count as u32).collect();
        hpa.rebuild(grid, &all);
        hpa
    }

    pub fn cluster_size(&self) -> u32 {
        self.cluster_size
    }

    pub fn rules(&self) -> MoveRules {
        self.rules
    }

    pub fn node_count(&self) -> usize {
        self.node_cells.len()
    }

    pub fn edge_count(&self) -> usize {
        self.edges.iter().map(Vec::len).sum()
    }

    /// Every transition pair (cell, cell across the border), for drawing.
    pub fn transitions(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.east.iter().chain(&self.south).flatten().copied()
    }

    /// Every abstract edge as (from cell, to cell, cost), for drawing.
    pub fn abstract_edges(&self) -> impl Iterator<Item = (u32, u32, f64)> + '_ {
        self.edges.iter().enumerate().flat_map(move |(from, out)| {
            out.iter().map(move |e| (self.node_cells[from], self.node_cells[e.to as usize], e.cost))
        })
    }

    /// The cluster holding grid cell (x, y).
    pub fn cluster_of(&self, x: u32, y: u32) -> u32 {
        (y / self.cluster_size) * self.clusters_x + x / self.cluster_size
    }

    /// The cells of a cluster: x0..x1, y0..y1 (clipped to the map).
    pub fn cluster_rect(&self, grid: &Grid, cluster: u32) -> (u32, u32, u32, u32) {
        let (cx, cy) = (cluster % self.clusters_x, cluster / self.clusters_x);
        let (x0, y0) = (cx * self.cluster_size, cy * self.cluster_size);
        (x0, y0, (x0 + self.cluster_size).min(grid.width()), (y0 + self.cluster_size).min(grid.height()))
    }

    fn confined<'g>(&self, grid: &'g Grid, cluster: u32, reversed: bool) -> Confined<'g> {
        let (x0, y0, x1, y1) = self.cluster_rect(grid, cluster);
        Confined { graph: GridGraph::new(grid, self.rules), x0, y0, x1, y1, reversed }
    }

    /// Re-computes the abstraction after the cells in `changed` were edited; only the clusters
    /// around them are redone. Returns how many clusters had their intra edges recomputed.
    pub fn update(&mut self, grid: &Grid, changed: &[(u32, u32)]) -> usize {
        let mut touched: Vec<u32> = changed.iter().map(|&(x, y)| self.cluster_of(x, y)).collect();
        touched.sort_unstable();
        touched.dedup();
        self.rebuild(grid, &touched)
    }

    /// Redoes the borders of `touched` clusters, then the intra edges of every cluster whose
    /// transitions may have moved (the touched ones and their four neighbours).
    fn rebuild(&mut self, grid: &Grid, touched: &[u32]) -> usize {
        let mut redo = Vec::new();
        for &cluster in touched {
            let (cx, cy) = (cluster % self.clusters_x, cluster / self.clusters_x);
            // A cluster owns its east and south borders; its west and north ones belong to its neighbours.
            if cx > 0 {
                self.find_transitions(grid, cluster - 1, true);
            }
            if cy > 0 {
                self.find_transitions(grid, cluster - self.clusters_x, false);
            }
            self.find_transitions(grid, cluster, true);
            self.find_transitions(grid, cluster, false);
            redo.push(cluster);
            if cx > 0 {
                redo.push(cluster - 1);
            }
            if cx + 1 < self.clusters_x {
                redo.push(cluster + 1);
            }
            if cy > 0 {
                redo.push(cluster - self.clusters_x);
            }
            if cy + 1 < self.clusters_y {
                redo.push(cluster + self.clusters_x);
            }
        }
        redo.sort_unstable();
        redo.dedup();
        let mut space = SearchSpace::new();
        for &cluster in &redo {
            self.intra[cluster as usize] = self.intra_edges(grid, cluster, &mut space);
        }
        self.assemble(grid);
        redo.len()
    }

    /// The transitions on the east (or south) border of `cluster`.
    fn find_transitions(&mut self, grid: &Grid, cluster: u32, east: bool) {
        let (cx, cy) = (cluster % self.clusters_x, cluster / self.clusters_x);
        let (x0, y0, x1, y1) = self.cluster_rect(grid, cluster);
        let mut found = Vec::new();
        let has_neighbour = if east { cx + 1 < self.clusters_x } else { cy + 1 < self.clusters_y };
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

    /// The transition cells inside `cluster`, from all four of its borders.
    fn entrances(&self, cluster: u32) -> Vec<u32> {
        let (cx, cy) = (cluster % self.clusters_x, cluster / self.clusters_x);
        let c = cluster as usize;
        let mut cells: Vec<u32> = self.east[c].iter().chain(&self.south[c]).map(|&(here, _)| here).collect();
        if cx > 0 {
            cells.extend(self.east[c - 1].iter().map(|&(_, there)| there));
        }
        if cy > 0 {
            cells.extend(self.south[c - self.clusters_x as usize].iter().map(|&(_, there)| there));
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    fn intra_edges(&self, grid: &Grid, cluster: u32, space: &mut SearchSpace) -> Vec<IntraEdge> {
        let graph = self.confined(grid, cluster, false);
        let entrances = self.entrances(cluster);
        let mut edges = Vec::new();
        for &from in &entrances {
            dijkstra(&graph, from, None, space, &mut NoTrace);
            for &to in &entrances {
                let cost = space.g(to);
                if to != from && cost.is_finite() {
                    edges.push(IntraEdge { from, to, cost, path: space.path_to(to) });
                }
            }
        }
        edges
    }

    /// Numbers the transition cells and builds the adjacency lists from the per-cluster parts.
    fn assemble(&mut self, grid: &Grid) {
        self.node_cells.clear();
        self.cell_nodes.clear();
        let mut node_of = |cell: u32, cells: &mut Vec<u32>| {
            *self.cell_nodes.entry(cell).or_insert_with(|| {
                cells.push(cell);
                cells.len() as u32 - 1
            })
        };
        let mut arcs = Vec::new();
        let graph = GridGraph::new(grid, self.rules);
        for (a, b) in self.east.iter().chain(&self.south).flatten().copied() {
            let (na, nb) = (node_of(a, &mut self.node_cells), node_of(b, &mut self.node_cells));
            for (from, to, x, y) in [(na, nb, a, b), (nb, na, b, a)] {
                let cost = step_cost(&graph, x, y).expect("transition cells are neighbours");
                arcs.push((from, AbstractEdge { to, cost }));
            }
        }
        for edge in self.intra.iter().flatten() {
            let (na, nb) = (node_of(edge.from, &mut self.node_cells), node_of(edge.to, &mut self.node_cells));
            arcs.push((na, AbstractEdge { to: nb, cost: edge.cost }));
        }
        self.node_clusters = self
            .node_cells
            .iter()
            .map(|&cell| {
                let (x, y) = grid.coords(cell);
                self.cluster_of(x, y)
            })
            .collect();
        self.edges = vec![Vec::new(); self.node_cells.len()];
        for (from, edge) in arcs {
            self.edges[from as usize].push(edge);
        }
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
        let mut result = HpaResult {
            path: None,
            unsmoothed_cost: None,
            abstract_path: Vec::new(),
            insertion_expanded: 0,
            abstract_expanded: 0,
            refinement_expanded: 0,
        };
        let (sx, sy) = grid.coords(start);
        let (gx, gy) = grid.coords(goal);
        let (start_cluster, goal_cluster) = (self.cluster_of(sx, sy), self.cluster_of(gx, gy));
        let on_grid = |e| PlanEvent::Search(e);

        tracer.record(|| PlanEvent::Stage { level: 0, stage: "link start to its cluster's entrances" });
        let mut query = QueryGraph { hpa: self, start_links: Vec::new(), goal_links: Vec::new(), goal_cluster };
        let out = self.confined(grid, start_cluster, false);
        result.insertion_expanded += dijkstra(&out, start, None, space, &mut Mapped::new(tracer, on_grid)).expanded;
        for &cell in &self.entrances(start_cluster) {
            if space.g(cell).is_finite() {
                query.start_links.push(AbstractEdge { to: self.cell_nodes[&cell], cost: space.g(cell) });
            }
        }
        if start_cluster == goal_cluster && space.g(goal).is_finite() {
            query.start_links.push(AbstractEdge { to: query.goal(), cost: space.g(goal) });
        }

        tracer.record(|| PlanEvent::Stage { level: 0, stage: "link goal to its cluster's entrances" });
        let back = self.confined(grid, goal_cluster, true);
        result.insertion_expanded += dijkstra(&back, goal, None, space, &mut Mapped::new(tracer, on_grid)).expanded;
        for &cell in &self.entrances(goal_cluster) {
            if space.g(cell).is_finite() {
                query.goal_links.push((self.cell_nodes[&cell], space.g(cell)));
            }
        }

        tracer.record(|| PlanEvent::Stage { level: 1, stage: "abstract search" });
        let (goal_node, start_node) = (query.goal(), query.start());
        let cell_of = |node: u32| {
            if node == start_node {
                start
            } else if node == goal_node {
                goal
            } else {
                self.node_cells[node as usize]
            }
        };
        let heuristic = |node: u32| {
            let (x, y) = grid.coords(cell_of(node));
            Heuristic::Octile.estimate(x as f64 - gx as f64, y as f64 - gy as f64)
        };
        let found = astar(&query, start_node, goal_node, heuristic, 1.0, space, &mut Mapped::new(tracer, |e: SearchEvent| {
            PlanEvent::Search(e.map_nodes(cell_of))
        }));
        result.abstract_expanded = found.expanded;
        let Some((_, nodes)) = found.path else { return result };
        result.abstract_path = nodes.iter().map(|&n| cell_of(n)).collect();

        tracer.record(|| PlanEvent::Stage { level: 0, stage: "refine abstract edges" });
        let graph = GridGraph::new(grid, self.rules);
        let mut cells = vec![start];
        for pair in result.abstract_path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ax, ay) = grid.coords(a);
            let (bx, by) = grid.coords(b);
            if self.cluster_of(ax, ay) != self.cluster_of(bx, by) {
                cells.push(b);
                continue;
            }
            let cluster = self.cluster_of(ax, ay);
            if let Some(edge) = self.intra[cluster as usize].iter().find(|e| (e.from, e.to) == (a, b)) {
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
            let (_, steps) = segment.path.expect("start and goal links were found inside the cluster");
            cells.extend_from_slice(&steps[1..]);
        }
        let refined = path_cost(&graph, &cells).expect("refined steps are grid moves");
        result.unsmoothed_cost = Some(refined);
        if options.smooth {
            tracer.record(|| PlanEvent::Stage { level: 0, stage: "smooth" });
            cells = smooth(&graph, cells, self.cluster_size);
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
            hpa.transitions().map(|(a, b)| (grid.coords(a), grid.coords(b))).collect();
        assert_eq!(pairs, vec![((9, 0), (10, 0)), ((9, 9), (10, 9))]);
        assert_eq!(hpa.node_count(), 4);
        // Inter edges both ways, intra edges both ways in each cluster.
        assert_eq!(hpa.edge_count(), 4 + 4);
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
        let pairs: Vec<(u32, u32)> = hpa.transitions().map(|(a, _)| grid.coords(a)).collect();
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
    fn update_redoes_only_nearby_clusters() {
        let mut grid = generate::random(100, 100, 0.2, 4);
        let mut hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        grid.set_passable(55, 55, !grid.is_passable(55, 55));
        let redone = hpa.update(&grid, &[(55, 55)]);
        assert_eq!(redone, 5, "the cluster and its four neighbours");
        let fresh = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        let mut a: Vec<_> = hpa.abstract_edges().map(|(x, y, c)| (x, y, (c * 1e6) as i64)).collect();
        let mut b: Vec<_> = fresh.abstract_edges().map(|(x, y, c)| (x, y, (c * 1e6) as i64)).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "an update gives the same graph as building from scratch");
    }
}
