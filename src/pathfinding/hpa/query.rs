//! A query: start and goal linked to their clusters' entrances, the abstract search, refinement
//! level by level down to the grid, smoothing.

use super::{Hpa, HpaQuery, HpaResult, smooth};
use crate::graph::{Graph, path_cost};
use crate::grid::{Grid, GridGraph};
use crate::pathfinding::astar::{astar, grid_heuristic};
use crate::pathfinding::dijkstra::dijkstra;
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage, straight_line};
use crate::pathfinding::search_trace::SearchEvent;
use crate::pathfinding::{Heuristic, SearchSpace};
use crate::trace::{Mapped, NO_NODE, Tracer};

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

    fn for_each_neighbor(&self, node: u32, visit: impl FnMut(u32, f64)) {
        self.for_each_successor(node, NO_NODE, visit);
    }

    /// A node reached inside its cluster (by an intra edge, or by a link from the start or, in
    /// reverse, the goal) only crosses the border: intra edges and links cost the cheapest way
    /// inside the cluster, so going on to another entrance of it is never cheaper than going
    /// there straight: only edges that cannot shorten a route are left out. On a 5%-random
    /// 512x512 map, whose clusters have about 27 entrances each, this made unsmoothed queries
    /// 1.45x faster (median, examples/bench_hierarchy).
    fn for_each_successor(&self, node: u32, parent: u32, mut visit: impl FnMut(u32, f64)) {
        let layer = &self.hpa.layers[self.level - 1];
        let mut go = |to: u32, cost: f64| {
            if self.inside(to) {
                visit(to, cost);
            }
        };
        if node >= self.start() {
            // Nothing leads back into the start (or, reversed, out of the goal): no search needs it.
            let links = if self.reversed {
                (node == self.goal()).then_some(&self.links.goal)
            } else {
                (node == self.start()).then_some(&self.links.start)
            };
            links.into_iter().flatten().for_each(|link| go(link.node, link.cost));
            return;
        }
        let cluster = layer.node_clusters[node as usize];
        let arrived_inside =
            parent != NO_NODE && (parent >= self.start() || layer.node_clusters[parent as usize] == cluster);
        // `connect` lists the edges crossing the border first.
        let edges = if self.reversed { &layer.into[node as usize] } else { &layer.out[node as usize] };
        let tried =
            if arrived_inside { &edges[..edges.iter().take_while(|e| e.crosses()).count()] } else { &edges[..] };
        tried.iter().for_each(|e| go(e.to, e.cost));
        if !self.reversed && cluster == self.goal_cluster {
            for link in self.links.goal.iter().filter(|link| link.node == node) {
                go(self.goal(), link.cost);
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
            within: within.map(|(level, c)| Within {
                level,
                cluster: c,
                ends_inside: ends.map(|e| cluster(level, e) == c),
            }),
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
        let entrances = self.layers[level - 1].entrances[cluster as usize]
            .iter()
            .map(|&cell| (self.cell_nodes[&cell], node_of(cell)));
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
            } else {
                match layer.intra_edge(a, b) {
                    Some(edge) => below.extend(edge.path[1..].iter().map(|cell| self.cell_nodes[cell])),
                    None => below.push(b),
                }
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
        let mut result = HpaResult::none(self.levels());
        match straight_line(grid, self.rules, start, goal, tracer) {
            Ok((cost, path)) => return HpaResult::straight(self.levels(), cost, path),
            Err(stop) => result.line_stop = Some(stop),
        }
        let ends = [start, goal];
        let links = self.link_ends(grid, ends, space, &mut result, tracer);
        let Some(nodes) = self.abstract_path(grid, ends, &links, space, &mut result, tracer) else { return result };

        tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::RefineEdges });
        let (mut cells, mut joints) = self.refine_edges(grid, ends, &nodes, &links[0], tracer);
        let graph = GridGraph::new(grid, self.rules);
        result.refined_path = cells.clone();
        let cost = if options.smooth {
            tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::Smooth });
            joints.push(cells.len() - 1);
            let smoothed = smooth(&graph, cells, &joints, self.cluster_size());
            result.unsmoothed_cost = Some(smoothed.unsmoothed_cost);
            cells = smoothed.path;
            smoothed.cost
        } else {
            let unsmoothed = path_cost(&graph, &cells).expect("refined steps are grid moves");
            result.unsmoothed_cost = Some(unsmoothed);
            unsmoothed
        };
        if T::ENABLED {
            let path = cells.clone();
            tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
        }
        result.path = Some((cost, cells));
        result
    }

    /// The grid cell of a node of a query graph: an entrance's cell, or the query's start or goal (`ends`).
    fn cell_of(&self, ends: [u32; 2], node: u32) -> u32 {
        match node.checked_sub(self.node_cells.len() as u32) {
            Some(end) => ends[end as usize],
            None => self.node_cells[node as usize],
        }
    }

    /// Links start and goal (`ends`) level by level: on level 1 by the cached distances inside
    /// their clusters, higher up by searching the level below inside their clusters there.
    fn link_ends<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        ends: [u32; 2],
        space: &mut SearchSpace,
        result: &mut HpaResult,
        tracer: &mut T,
    ) -> Vec<Links> {
        let top = self.levels();
        let (start_node, goal_node) = (self.node_cells.len() as u32, self.node_cells.len() as u32 + 1);
        let on_grid = |e| PlanEvent::Search(e);
        let on_level = |e: SearchEvent| PlanEvent::Search(e.map_nodes(|node| self.cell_of(ends, node)));
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
                    let graph =
                        self.query_graph(grid, level - 1, &links[level - 2], ends, Some((level, cluster)), reversed);
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
                    joined.goal = found
                        .into_iter()
                        .map(|link| Link { path: link.path.into_iter().rev().collect(), ..link })
                        .collect();
                } else {
                    joined.start = found;
                }
            }
            links.push(joined);
        }
        links
    }

    /// The abstract search on the top level, its path refined level by level down to level 1
    /// (each level's in `result.abstract_paths`); returns level 1's path as query-graph nodes.
    fn abstract_path<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        ends: [u32; 2],
        links: &[Links],
        space: &mut SearchSpace,
        result: &mut HpaResult,
        tracer: &mut T,
    ) -> Option<Vec<u32>> {
        let top = self.levels();
        let (start_node, goal_node) = (self.node_cells.len() as u32, self.node_cells.len() as u32 + 1);
        let cell_of = |node: u32| self.cell_of(ends, node);
        let on_level = |e: SearchEvent| PlanEvent::Search(e.map_nodes(cell_of));
        tracer.record(|| PlanEvent::Stage { level: top, stage: PlanStage::AbstractSearch });
        let (gx, gy) = grid.coords(ends[1]);
        let heuristic = |node: u32| {
            let (x, y) = grid.coords(cell_of(node));
            Heuristic::Octile.estimate(x as f64 - gx as f64, y as f64 - gy as f64)
        };
        let graph = self.query_graph(grid, top, &links[top - 1], ends, None, false);
        let found = astar(&graph, start_node, goal_node, heuristic, 1.0, space, &mut Mapped::new(tracer, on_level));
        result.abstract_expanded = found.expanded;
        result.expanded_per_level[top] += found.expanded;
        let (cost, mut nodes) = found.path?;
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
        Some(nodes)
    }

    /// Level 1's path (query-graph `nodes`, linked by `links`) as grid cells, with the joints
    /// where one refined piece (a cheapest way inside one cluster) ends and the next begins.
    fn refine_edges<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        ends: [u32; 2],
        nodes: &[u32],
        links: &Links,
        tracer: &mut T,
    ) -> (Vec<u32>, Vec<usize>) {
        let (start_node, goal_node) = (self.node_cells.len() as u32, self.node_cells.len() as u32 + 1);
        let graph = GridGraph::new(grid, self.rules);
        let layer = &self.layers[0];
        let mut cells = vec![ends[0]];
        let mut joints = Vec::with_capacity(nodes.len());
        for pair in nodes.windows(2) {
            joints.push(cells.len() - 1);
            let (a, b) = (self.cell_of(ends, pair[0]), self.cell_of(ends, pair[1]));
            if pair[0] != start_node && pair[1] != goal_node {
                match layer.intra_edge(pair[0], pair[1]) {
                    Some(edge) => {
                        if T::ENABLED {
                            tracer.record(|| {
                                PlanEvent::Search(SearchEvent::Found { cost: edge.cost, path: edge.path.clone() })
                            });
                        }
                        cells.extend_from_slice(&edge.path[1..]);
                    }
                    None => cells.push(b),
                }
                continue;
            }
            let steps = self.end_steps(grid, &graph, links, ends, pair);
            // A goal that is the entrance itself adds no step: nothing to show.
            if T::ENABLED && !steps.is_empty() {
                let path: Vec<u32> = std::iter::once(a).chain(steps.iter().copied()).collect();
                let cost = path_cost(&graph, &path).expect("walked steps are grid moves");
                tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path }));
            }
            cells.extend_from_slice(&steps);
        }
        (cells, joints)
    }

    /// The grid cells after the first of a step of level 1's path (`pair`) that leaves the start
    /// or reaches the goal. Start and goal are linked to entrances only for this query: walk the
    /// cached distances, or take the way found when the goal shares the start's cluster.
    fn end_steps(&self, grid: &Grid, graph: &GridGraph, links: &Links, ends: [u32; 2], pair: &[u32]) -> Vec<u32> {
        let (start_node, goal_node) = (self.node_cells.len() as u32, self.node_cells.len() as u32 + 1);
        let (a, b) = (self.cell_of(ends, pair[0]), self.cell_of(ends, pair[1]));
        let layer = &self.layers[0];
        let (ax, ay) = grid.coords(a);
        let cluster = layer.cluster_of(ax, ay);
        let entrances = &layer.entrances[cluster as usize];
        let fields = &self.fields[cluster as usize];
        match (pair[0] == start_node, pair[1] == goal_node) {
            (true, true) => {
                let direct =
                    links.start.iter().find(|link| link.node == goal_node).expect("a start-goal step is a direct link");
                direct.path[1..].to_vec()
            }
            (true, false) => {
                let entrance = entrances.binary_search(&b).expect("the start links to its cluster's entrances");
                fields.walk(graph, entrance, b, a, true)
            }
            _ => {
                let entrance = entrances.binary_search(&a).expect("the goal links to its cluster's entrances");
                fields.walk(graph, entrance, a, b, false)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{MoveRules, generate};
    use crate::trace::NoTrace;

    /// A query graph with every edge tried from every node, however it was reached.
    struct EveryEdge<'a>(QueryGraph<'a>);

    impl Graph for EveryEdge<'_> {
        fn node_count(&self) -> usize {
            self.0.node_count()
        }

        fn for_each_neighbor(&self, node: u32, visit: impl FnMut(u32, f64)) {
            self.0.for_each_neighbor(node, visit);
        }
    }

    #[test]
    fn only_crossing_after_an_intra_edge_keeps_the_abstract_optimum() {
        let mut space = SearchSpace::new();
        for (density, seed) in [(0.05, 1), (0.25, 2), (0.4, 3)] {
            // 12-cell clusters leave the last row of clusters short.
            let grid = generate::random(96, 80, density, seed);
            let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 12);
            let free: Vec<u32> = (0..grid.cell_count() as u32).filter(|&c| grid.is_cell_passable(c)).collect();
            for i in 0..60 {
                let ends = [free[i * 7919 % free.len()], free[(i * 104_729 + 13) % free.len()]];
                let mut links = Links::default();
                for (end, reversed) in [(0, false), (1, true)] {
                    let (x, y) = grid.coords(ends[end]);
                    let (found, _) =
                        hpa.link_on_level_one(&grid, hpa.cluster_at(1, x, y), ends, reversed, &mut space, &mut NoTrace);
                    *(if reversed { &mut links.goal } else { &mut links.start }) = found;
                }
                let graph = || hpa.query_graph(&grid, 1, &links, ends, None, false);
                let (from, to) = (graph().start(), graph().goal());
                let every = dijkstra(&EveryEdge(graph()), from, Some(to), &mut space, &mut NoTrace);
                let pruned = dijkstra(&graph(), from, Some(to), &mut space, &mut NoTrace);
                let planned = hpa
                    .query(&grid, ends[0], ends[1], HpaQuery { smooth: false }, &mut space, &mut NoTrace)
                    .unsmoothed_cost;
                let (every, pruned) = (every.cost(), pruned.cost());
                let mut checked = vec![pruned];
                // A free straight line is answered without the abstract graph, and is never dearer.
                match GridGraph::new(&grid, MoveRules::MOVINGAI).straight_path(ends[0], ends[1]) {
                    Ok((line, _)) => {
                        assert_eq!(planned, Some(line));
                        assert!(
                            every.is_some_and(|every| line <= every + 1e-4),
                            "density {density}, query {i}: line {line} against {every:?}"
                        );
                    }
                    Err(_) => checked.push(planned),
                }
                // Links cost the cached distances, kept as f32: sums may differ in the sixth digit.
                for cost in checked {
                    assert_eq!(cost.is_some(), every.is_some(), "density {density}, query {i}");
                    if let (Some(cost), Some(every)) = (cost, every) {
                        assert!(
                            (cost - every).abs() < 1e-4,
                            "density {density}, query {i}: {cost} against {every} trying every edge"
                        );
                    }
                }
            }
        }
    }
}
