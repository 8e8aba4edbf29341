//! A query: start and goal linked to their clusters' entrances, the abstract search, refinement
//! level by level down to the grid, smoothing.

use super::{Hpa, HpaQuery, HpaResult, smooth};
use crate::grid::{Grid, GridGraph};
use crate::pathfinding::astar::{astar, grid_heuristic};
use crate::pathfinding::dijkstra::dijkstra;
use crate::graph::{Graph, path_cost};
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage};
use crate::pathfinding::search_trace::SearchEvent;
use crate::pathfinding::{Heuristic, SearchSpace};
use crate::trace::{Mapped, Tracer};

/// How a query's start and goal join one level.
#[derive(Debug, Default)]
pub(super) struct Links {
    /// Start to node (the goal's id among them when reached directly).
    start: Vec<Link>,
    /// Node to goal.
    goal: Vec<Link>,
}

#[derive(Debug)]
struct Link {
    node: u32,
    cost: f64,
    /// The way on the level below, as its query-graph ids. On level 1: the grid cells of a
    /// direct start-goal link, empty for links to entrances (refined by walking the distances).
    path: Vec<u32>,
}

/// One level's abstract graph with the query's start and goal linked in (ids n and n + 1),
/// optionally confined to one cluster of a higher level and optionally reversed (edges in).
pub(super) struct QueryGraph<'a> {
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

impl Hpa {
    /// `level`'s graph with a query's `links`; `within` = (higher level, cluster) confines it.
    pub(super) fn query_graph<'a>(
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

    /// Links one end of a query to the entrances of its level-1 `cluster` by the cached
    /// distances; the start also straight to the goal when they share the cluster (A* inside it,
    /// the way kept for refinement). Returns the links and the cells expanded.
    fn link_on_level_one(
        &self,
        grid: &Grid,
        cluster: u32,
        [start, goal]: [u32; 2],
        reversed: bool,
        space: &mut SearchSpace,
        tracer: &mut impl Tracer<SearchEvent>,
    ) -> (Vec<Link>, usize) {
        let fields = &self.fields[cluster as usize];
        let end = if reversed { goal } else { start };
        let mut links = Vec::new();
        for (index, &cell) in self.layers[0].entrances[cluster as usize].iter().enumerate() {
            let cost = fields.distance(grid, index, !reversed, end);
            if cost.is_finite() {
                tracer.record(|| SearchEvent::Open { node: cell, parent: end, g: cost, h: 0.0 });
                links.push(Link { node: self.cell_nodes[&cell], cost, path: Vec::new() });
            }
        }
        let (gx, gy) = grid.coords(goal);
        if reversed || self.cluster_at(1, gx, gy) != cluster {
            return (links, 0);
        }
        let inside = self.confined(grid, cluster, false);
        let direct = astar(&inside, start, goal, grid_heuristic(grid, goal, Heuristic::Octile), 1.0, space, tracer);
        if let Some((cost, path)) = direct.path {
            links.push(Link { node: self.node_cells.len() as u32 + 1, cost, path });
        }
        (links, direct.expanded)
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
        space: &mut SearchSpace,
        tracer: &mut impl Tracer<SearchEvent>,
    ) -> (Vec<Link>, usize) {
        let expanded = dijkstra(graph, from, None, space, tracer).expanded;
        let entrances = self.layers[level - 1].entrances[cluster as usize].iter().map(|&cell| (self.cell_nodes[&cell], node_of(cell)));
        let mut links = Vec::new();
        for (id, node) in entrances.chain(other_end) {
            let cost = space.g(node);
            if cost.is_finite() {
                links.push(Link { node: id, cost, path: space.path_to(node) });
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

        // Link start and goal level by level: on level 1 by the cached distances inside their
        // clusters, higher up by searching the level below inside their clusters there.
        let mut links: Vec<Links> = Vec::with_capacity(top);
        for level in 1..=top {
            let mut joined = Links::default();
            for (end, reversed) in [(0, false), (1, true)] {
                let (x, y) = grid.coords(ends[end]);
                let cluster = self.cluster_at(level, x, y);
                let stage = if reversed { PlanStage::LinkGoal } else { PlanStage::LinkStart };
                tracer.record(|| PlanEvent::Stage { level: level - 1, stage });
                let (found, expanded) = if level == 1 {
                    self.link_on_level_one(grid, cluster, ends, reversed, space, &mut Mapped::new(tracer, on_grid))
                } else {
                    let graph = self.query_graph(grid, level - 1, &links[level - 2], ends, Some((level, cluster)), reversed);
                    let node_of = |cell| self.cell_nodes[&cell];
                    let tracer = &mut Mapped::new(tracer, on_level);
                    let from = start_node + end as u32;
                    let other_end = (!reversed).then_some((goal_node, goal_node));
                    self.link_end(&graph, level, cluster, from, other_end, node_of, space, tracer)
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
        // Where one refined piece (a cheapest way inside one cluster) ends and the next begins.
        let mut joints = Vec::with_capacity(result.abstract_paths[0].len());
        for (index, pair) in result.abstract_paths[0].windows(2).enumerate() {
            joints.push(cells.len() - 1);
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
            // Start and goal are linked to entrances only for this query: walk the cached
            // distances, or take the way found when the goal shares the start's cluster.
            let (first, last) = (index == 0, index + 2 == result.abstract_paths[0].len());
            let entrances = &layer.entrances[cluster as usize];
            let fields = &self.fields[cluster as usize];
            let steps = match (first, last) {
                (true, true) => {
                    let direct = links[0].start.iter().find(|link| link.node == goal_node).expect("a start-goal step is a direct link");
                    direct.path[1..].to_vec()
                }
                (true, false) => {
                    let entrance = entrances.binary_search(&b).expect("the start links to its cluster's entrances");
                    fields.walk(&graph, entrance, b, a, true)
                }
                _ => {
                    let entrance = entrances.binary_search(&a).expect("the goal links to its cluster's entrances");
                    fields.walk(&graph, entrance, a, b, false)
                }
            };
            // A goal that is the entrance itself adds no step: nothing to show.
            if T::ENABLED && !steps.is_empty() {
                let path: Vec<u32> = std::iter::once(a).chain(steps.iter().copied()).collect();
                let cost = path_cost(&graph, &path).expect("walked steps are grid moves");
                tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
            }
            cells.extend_from_slice(&steps);
        }
        let unsmoothed = path_cost(&graph, &cells).expect("refined steps are grid moves");
        result.unsmoothed_cost = Some(unsmoothed);
        result.refined_path = cells.clone();
        let cost = if options.smooth {
            tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::Smooth });
            joints.push(cells.len() - 1);
            cells = smooth(&graph, cells, &joints, self.cluster_size());
            path_cost(&graph, &cells).expect("smoothing keeps grid moves")
        } else {
            unsmoothed
        };
        if T::ENABLED {
            let path = cells.clone();
            tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
        }
        result.path = Some((cost, cells));
        result
    }
}
