//! PRA* (Sturtevant & Buro 2005): partial refinement over a clique abstraction.
//!
//! The map becomes a pyramid: each level groups the nodes of the one below into 4-, 3- and
//! 2-cliques (an orphan with a single neighbour joins that neighbour's group), until one node
//! per connected component is left. Grid cells form cliques only inside aligned 2x2 blocks, so
//! that open ground becomes a regular lattice on level 1: cliques taken greedily wherever they
//! fit left centres that zigzag, level-1 paths ran 7% over the octile guide and A* there
//! expanded as many nodes as on the grid (10%-random 512x512 map; examples/bench_hierarchy).
//! A query plans on one level between the ancestors of start and goal, then refines level by
//! level, each time searching only the corridor under the path found above (plus rings of its
//! neighbours). PRA*(k) keeps only the first k steps of each level's path, which yields the
//! first moves long before a full path would be known.
//! On each level, costs from landmarks (a differential heuristic) sharpen A*'s guide.

mod build;

use super::astar::astar;
use super::plan_trace::{PlanEvent, PlanStage, straight_line};
use super::planner::Planner;
use super::search_trace::SearchEvent;
use super::{Heuristic, SearchSpace};
use crate::graph::Graph;
use crate::grid::{Grid, GridGraph, LineStop, MoveRules};
use crate::trace::{Mapped, NO_NODE, NoTrace, Tracer};
use build::abstract_level;

/// One abstraction level above the grid.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Level {
    /// The nodes of the level below that each node groups.
    children: Vec<Vec<u32>>,
    /// Mean position of each node's children (on level 1: of its cells).
    position: Vec<(f64, f64)>,
    /// Mean weight of each node's children (on level 1: of its cells' weights), so that a plan
    /// steers round costly ground as the grid search would.
    weight: Vec<f64>,
    /// Undirected adjacency, costs = distance between positions times the two nodes' mean
    /// weight (at least the distance, so the octile guide stays a bound): node n's neighbours are
    /// `edges[edge_start[n]..edge_start[n + 1]]`: one flat array, no pointer to chase per node.
    edge_start: Vec<u32>,
    edges: Vec<(u32, f64)>,
    /// Each node's cost on this level from each landmark of its region (`UNREACHED` in regions
    /// too small for landmarks): the differential heuristic |d(L, n) - d(L, goal)|, a lower bound.
    landmarks: Vec<[f64; LANDMARKS]>,
}

/// Landmarks per level: octile distance between centroids understates the way round obstacles,
/// so A* on level 1 expanded more of its level than A* on the grid did of the grid; landmarks
/// bound the detours too. Whole paths on random512 took 2,807 expansions (median) with 8 and
/// 1,735 with 24; on a 10%-random 512x512 map 1,877 and 1,247. 32 expanded fewer still but took
/// longer per query (each node's bound costs more than it saves). 24 take 2.5x the build time of
/// 8: about 0.6 s against 0.25 s for a 512x512 map (examples/bench_hierarchy).
const LANDMARKS: usize = 24;
// The bound reads them four at a time.
const _: () = assert!(LANDMARKS.is_multiple_of(4));
const UNREACHED: f64 = -1.0;
/// Regions smaller than this get no landmarks: a search there is short with the distance alone.
const LANDMARK_REGION: usize = 64;

/// The clique-abstraction pyramid of a grid. Level 0 is the grid itself (node = cell).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Pyramid {
    rules: MoveRules,
    /// `parents[l][n]`: the node of level l + 1 that groups node n of level l.
    parents: Vec<Vec<u32>>,
    /// `levels[l - 1]` is level l.
    levels: Vec<Level>,
    /// The top node over each level-1 node: one per connected region.
    regions: Vec<u32>,
}

/// A whole path whose cost, by the level-1 bound, is below this is planned on the grid: every
/// level's search costs more than A* there. Queries under 64 long ran at 0.3-0.6x A* on five of
/// six maps (random, rooms, caves, mazes, arena), and the crossover lay at 64-128 on all but
/// rooms512 (32-64).
const SHORT_QUERY: f64 = 64.0;

/// Query options: the level to plan on (default: see [`Pyramid::default_level`]), PRA*(k), and
/// how wide the corridors are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PraOptions {
    pub level: Option<usize>,
    pub k: Option<usize>,
    /// Rings of neighbours around the path above that the corridor takes in (0: the path only);
    /// whole paths only, PRA*(k) takes none. On the grid a corridor also takes in the free cells
    /// around it: without them a path through a region's corner zigzagged (6% of random512's
    /// paths more than 3% over the optimum, none with them).
    pub width: usize,
}

impl PraOptions {
    /// None: the path's own regions (on the grid with the cells around them) left at most 4% of
    /// the paths planned on level 1 more than 3% over the optimum (30%-random 512x512 map), and a
    /// ring of regions took 1.3-1.8x as long on every map (examples/bench_hierarchy).
    pub const DEFAULT_WIDTH: usize = 0;
}

impl Default for PraOptions {
    fn default() -> Self {
        PraOptions { level: None, k: None, width: Self::DEFAULT_WIDTH }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PraResult {
    /// Grid cells from the start, with their cost; with PRA*(k) a prefix of the way.
    pub path: Option<(f64, Vec<u32>)>,
    /// Whether the path reaches the goal (PRA*(k) may stop short).
    pub complete: bool,
    /// The level the plan started on.
    pub level: usize,
    /// The path found on each level as node ids of that level, index = level: `paths[level]` is
    /// the abstract path, `paths[0]` the grid cells. With PRA*(k) each is cut after k steps.
    pub paths: Vec<Vec<u32>>,
    /// The corridor each level below the planning level was searched in (nodes of that level
    /// under the path above and its neighbours), index = level; the planning level's is empty
    /// (searched whole). A level whose corridor had no way through was searched again whole.
    pub corridors: Vec<Vec<u32>>,
    /// Nodes expanded per level, index = level.
    pub expanded_per_level: Vec<usize>,
    /// Whether the path is the free straight line from start to goal, returned without planning
    /// (on level 0).
    pub straight_line: bool,
    /// Where the straight line stopped, when it was tried and not taken.
    pub line_stop: Option<LineStop>,
}

impl PraResult {
    /// The free straight line from start to goal, found before any planning.
    pub(super) fn straight(cost: f64, path: Vec<u32>) -> Self {
        PraResult {
            paths: vec![path.clone()],
            path: Some((cost, path)),
            complete: true,
            level: 0,
            corridors: vec![Vec::new()],
            expanded_per_level: vec![0],
            straight_line: true,
            line_stop: None,
        }
    }
}

/// One level seen as a graph: the grid at level 0, an abstract level above.
struct LevelGraph<'a> {
    pyramid: &'a Pyramid,
    grid: GridGraph<'a>,
    level: usize,
}

impl Graph for LevelGraph<'_> {
    fn node_count(&self) -> usize {
        self.pyramid.node_count(self.grid.grid, self.level)
    }

    fn for_each_neighbor(&self, node: u32, mut visit: impl FnMut(u32, f64)) {
        match self.level {
            0 => self.grid.for_each_neighbor(node, visit),
            l => self.pyramid.edges(l, node).iter().for_each(|&(nb, cost)| visit(nb, cost)),
        }
    }
}

/// A set of node ids that empties in O(1): a stamp per node, and a node is in while its stamp
/// is the current one. Kept per thread between queries, since allocating and filling a map-sized
/// array took longer than a whole query on small maps. A flag costs far less to test than a hash
/// set for every neighbour of every expanded node.
#[derive(Default)]
struct StampSet {
    stamps: Vec<u32>,
    current: u32,
    members: Vec<u32>,
}

/// A corridor as two sets: the nodes one level up (the path there and its rings) and the nodes
/// under them, which the search tests for each neighbour with one lookup.
#[derive(Default)]
struct CorridorSets {
    upper: StampSet,
    inside: StampSet,
}

thread_local! {
    static CORRIDOR_SETS: std::cell::RefCell<CorridorSets> = std::cell::RefCell::new(CorridorSets::default());
}

impl StampSet {
    /// Empties the set, for nodes below `count`.
    fn begin(&mut self, count: usize) {
        if self.stamps.len() < count || self.current == u32::MAX {
            self.stamps = vec![0; count.max(self.stamps.len())];
            self.current = 0;
        }
        self.current += 1;
        self.members.clear();
    }

    fn insert(&mut self, node: u32) {
        if std::mem::replace(&mut self.stamps[node as usize], self.current) != self.current {
            self.members.push(node);
        }
    }

    fn contains(&self, node: u32) -> bool {
        self.stamps[node as usize] == self.current
    }

    /// Adds the free cells around each member (a grid cell): the eight next to it, diagonals
    /// included even where a corner blocks the move (on 30%-random maps the moves alone left 8%
    /// of PRA*'s paths more than 3% over the optimum, these 4%).
    fn add_cells_around(&mut self, grid: &Grid) {
        for i in 0..self.members.len() {
            let (x, y) = grid.coords(self.members[i]);
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                if grid.is_passable(nx, ny) {
                    self.insert(grid.cell(nx as u32, ny as u32));
                }
            }
        }
    }

    /// Adds `rings` rings of neighbours round the members: each ring is the neighbours of the
    /// one before that are not in yet, and once one is empty the set has stopped growing.
    fn grow(&mut self, graph: &impl Graph, rings: usize) {
        let mut ring = 0..self.members.len();
        for _ in 0..rings {
            if ring.is_empty() {
                break;
            }
            let end = self.members.len();
            for i in ring {
                let node = self.members[i];
                graph.for_each_neighbor(node, |nb, _| self.insert(nb));
            }
            ring = end..self.members.len();
        }
    }
}

/// A level graph cut down to a corridor (the nodes in `inside`, or the whole level), with an
/// optional virtual goal (id = node count) joined at no cost from every node in `goal_region`:
/// how PRA*(k) aims at a region, not a node.
struct Corridor<'a> {
    inner: LevelGraph<'a>,
    inside: Option<&'a StampSet>,
    goal_region: Option<&'a dyn Fn(u32) -> bool>,
}

impl Corridor<'_> {
    fn virtual_goal(&self) -> u32 {
        self.inner.node_count() as u32
    }
}

impl Graph for Corridor<'_> {
    fn node_count(&self) -> usize {
        self.inner.node_count() + 1
    }

    fn for_each_neighbor(&self, node: u32, mut visit: impl FnMut(u32, f64)) {
        if node == self.virtual_goal() {
            return;
        }
        self.inner.for_each_neighbor(node, |nb, cost| {
            if self.inside.is_none_or(|inside| inside.contains(nb)) {
                visit(nb, cost);
            }
        });
        if self.goal_region.is_some_and(|in_region| in_region(node)) {
            visit(self.virtual_goal(), 0.0);
        }
    }
}

impl Pyramid {
    pub fn build(grid: &Grid, rules: MoveRules) -> Pyramid {
        let mut pyramid = Pyramid { rules, parents: Vec::new(), levels: Vec::new(), regions: Vec::new() };
        loop {
            let below = pyramid.height() - 1;
            let (parent, level, shrank) = {
                let graph = LevelGraph { pyramid: &pyramid, grid: GridGraph::new(grid, rules), level: below };
                let count = graph.node_count();
                let live = |n: u32| below > 0 || grid.is_cell_passable(n);
                let live_count = (0..count as u32).filter(|&n| live(n)).count();
                let group = |in_blocks| {
                    abstract_level(
                        &graph,
                        count,
                        live,
                        |n| pyramid.position(grid, below, n),
                        |n| pyramid.weight(grid, below, n),
                        in_blocks,
                    )
                };
                // Grid cells group inside aligned 2x2 blocks, unless no two cells of a block touch.
                let (mut parent, mut level) = group(below == 0);
                if below == 0 && level.children.len() == live_count {
                    (parent, level) = group(false);
                }
                let shrank = level.children.len() < live_count;
                (parent, level, shrank)
            };
            if !shrank {
                break;
            }
            pyramid.parents.push(parent);
            pyramid.levels.push(level);
        }
        let top = pyramid.height() - 1;
        for level in 1..=top {
            let landmarks = pyramid.place_landmarks(grid, level);
            pyramid.levels[level - 1].landmarks = landmarks;
        }
        if top > 0 {
            pyramid.regions = (0..pyramid.node_count(grid, 1) as u32).map(|node| pyramid.top_node(1, node)).collect();
        }
        pyramid
    }

    /// The top node over `node` of `level` (of level 1 and up): the pyramid stops where no two
    /// nodes are joined, so the nodes under one top node are one connected region.
    fn top_node(&self, level: usize, node: u32) -> u32 {
        (level..self.height() - 1).fold(node, |n, l| self.parent(l, n))
    }

    /// Whether a path can join two passable cells: whether one top node is over both. It takes
    /// four lookups, so even a short query asks (A* alone floods the start's whole region to
    /// learn that a goal behind a wall is out of reach).
    fn joins(&self, start: u32, goal: u32) -> bool {
        if self.height() == 1 {
            // Nothing above the grid (no two cells join): A* finds out.
            return true;
        }
        let region = |cell: u32| self.regions.get(self.parent(0, cell) as usize).copied();
        region(start).is_some() && region(start) == region(goal)
    }

    /// Costs from landmarks spread over each connected region of `level` with at least
    /// [`LANDMARK_REGION`] nodes: each next one is the node farthest from those before (the
    /// first, the farthest from the region's first node). Regions share the slots: a node is only
    /// ever compared with nodes of its own region.
    fn place_landmarks(&self, grid: &Grid, level: usize) -> Vec<[f64; LANDMARKS]> {
        let graph = LevelGraph { pyramid: self, grid: GridGraph::new(grid, self.rules), level };
        let count = graph.node_count();
        let mut regions: Vec<Vec<u32>> = vec![Vec::new(); self.node_count(grid, self.height() - 1)];
        for node in 0..count as u32 {
            regions[self.top_node(level, node) as usize].push(node);
        }
        let mut space = SearchSpace::new();
        let mut costs = vec![[UNREACHED; LANDMARKS]; count];
        for region in regions.iter().filter(|nodes| nodes.len() >= LANDMARK_REGION) {
            let mut sweep = |from: u32| {
                super::dijkstra::dijkstra(&graph, from, None, &mut space, &mut NoTrace);
                region.iter().map(|&n| space.g(n)).collect::<Vec<f64>>()
            };
            // The cost from the first node, then to the nearest landmark: the next goes where it
            // is largest.
            let mut nearest = sweep(region[0]);
            // `i` is a column of every node's row of `costs`, not an index into one slice.
            #[allow(clippy::needless_range_loop)]
            for i in 0..LANDMARKS {
                let farthest =
                    (0..region.len()).max_by(|&a, &b| nearest[a].total_cmp(&nearest[b])).expect("a region has nodes");
                for (at, cost) in sweep(region[farthest]).into_iter().enumerate() {
                    costs[region[at] as usize][i] = cost;
                    nearest[at] = if i == 0 { cost } else { nearest[at].min(cost) };
                }
            }
        }
        costs
    }

    /// What A* on `level` takes the cost from a node to `target` to be at least: the distance
    /// between their positions (edges cost that, and positions obey the triangle inequality),
    /// or, in a region above the grid that has landmarks, the landmarks' bound when larger. Both
    /// are consistent, so their maximum is. The target's side is looked up once, not per node.
    /// Regions share the landmark slots, so the bound holds for nodes of the target's region:
    /// [`Self::query`] asks [`Self::joins`] before it searches.
    pub fn lower_bound_to<'a>(&'a self, grid: &'a Grid, level: usize, target: u32) -> impl Fn(u32) -> f64 + 'a {
        let metric = self.metric();
        let (tx, ty) = self.position(grid, level, target);
        let above = level.checked_sub(1).map(|l| &self.levels[l]);
        let landmarks = above
            .and_then(|l| Some((&l.landmarks, *l.landmarks.get(target as usize)?)))
            .filter(|(_, to)| to[0] != UNREACHED);
        move |node| {
            let (x, y) = match above {
                Some(level) => level.position[node as usize],
                None => {
                    let (x, y) = grid.coords(node);
                    (x as f64, y as f64)
                }
            };
            let distance = metric.estimate(x - tx, y - ty);
            let Some((landmarks, to)) = landmarks else { return distance };
            let from = &landmarks[node as usize];
            if from[0] == UNREACHED {
                return distance;
            }
            // Four running maxima, so each comparison waits on one in four before it, not on every
            // one (a plain comparison: f64::max adds NaN checks for every landmark).
            let mut best = [distance; 4];
            for (a, b) in from.chunks_exact(4).zip(to.chunks_exact(4)) {
                for lane in 0..4 {
                    let bound = (a[lane] - b[lane]).abs();
                    best[lane] = if bound > best[lane] { bound } else { best[lane] };
                }
            }
            let [p, q, r, t] = best;
            let (pq, rt) = (if p > q { p } else { q }, if r > t { r } else { t });
            if pq > rt { pq } else { rt }
        }
    }

    /// The neighbours of `node` on `level` (above the grid) with the cost of each edge.
    pub fn edges(&self, level: usize, node: u32) -> &[(u32, f64)] {
        let level = &self.levels[level - 1];
        &level.edges[level.edge_start[node as usize] as usize..level.edge_start[node as usize + 1] as usize]
    }

    /// The distance between two positions as the grid counts it in open ground (octile, or
    /// Manhattan on a 4-connected grid): abstract edges cost this, and it guides every search.
    fn metric(&self) -> Heuristic {
        Planner::default_heuristic(self.rules)
    }

    /// Number of levels, the grid included.
    pub fn height(&self) -> usize {
        self.levels.len() + 1
    }

    pub fn rules(&self) -> MoveRules {
        self.rules
    }

    pub fn node_count(&self, grid: &Grid, level: usize) -> usize {
        if level == 0 { grid.cell_count() } else { self.levels[level - 1].children.len() }
    }

    /// The node of `level + 1` that groups `node` of `level` (`NO_NODE` at the top or for walls).
    pub fn parent(&self, level: usize, node: u32) -> u32 {
        self.parents.get(level).map_or(NO_NODE, |p| p[node as usize])
    }

    pub fn children(&self, level: usize, node: u32) -> &[u32] {
        if level == 0 { &[] } else { &self.levels[level - 1].children[node as usize] }
    }

    pub fn position(&self, grid: &Grid, level: usize, node: u32) -> (f64, f64) {
        if level == 0 {
            let (x, y) = grid.coords(node);
            (x as f64, y as f64)
        } else {
            self.levels[level - 1].position[node as usize]
        }
    }

    fn weight(&self, grid: &Grid, level: usize, node: u32) -> f64 {
        if level == 0 { grid.weight(node) as f64 } else { self.levels[level - 1].weight[node as usize] }
    }

    /// Each grid cell's node on `level` (`NO_NODE` for walls): the regions to colour.
    pub fn region_map(&self, grid: &Grid, level: usize) -> Vec<u32> {
        let mut regions: Vec<u32> =
            (0..grid.cell_count() as u32).map(|c| if grid.is_cell_passable(c) { c } else { NO_NODE }).collect();
        for parents in &self.parents[..level] {
            regions.iter_mut().filter(|n| **n != NO_NODE).for_each(|n| *n = parents[*n as usize]);
        }
        regions
    }

    /// The grid cells under `nodes` of `level` (a corridor or a path, for drawing).
    pub fn cells_under(&self, level: usize, nodes: &[u32]) -> Vec<u32> {
        let mut cells = nodes.to_vec();
        for l in (1..=level).rev() {
            cells = cells.iter().flat_map(|&n| self.children(l, n).iter().copied()).collect();
        }
        cells
    }

    /// The node of `level` above grid cell `cell`.
    pub fn ancestor(&self, cell: u32, level: usize) -> u32 {
        (0..level).fold(cell, |node, l| if node == NO_NODE { NO_NODE } else { self.parent(l, node) })
    }

    /// The level to plan on when none is given. A whole path plans on level 1: every level
    /// above costs about 1% of path length on cluttered maps (measured on random512, whose paths
    /// were 5% over the optimum when planned on half the pyramid). A goal that level 1's bound
    /// puts nearer than [`SHORT_QUERY`] is planned on the grid, by plain A*: none of maze512-32-9's
    /// 8,010 queries longer than 72 was. PRA*(k) wants its first steps fast, so it plans half way
    /// up to where start and goal share an ancestor (Sturtevant & Buro): low for a short query,
    /// high for a long one.
    /// Planning higher (half way, or two levels below where start and goal meet, with 3 or 4
    /// rings on the levels above the grid) was faster on rooms and mazes but left only 63-84% of
    /// random512's paths within 3% (examples/bench_hierarchy).
    pub fn default_level(&self, grid: &Grid, start: u32, goal: u32, k: Option<usize>) -> usize {
        if k.is_none() && self.height() > 1 {
            let bound = self.lower_bound_to(grid, 1, self.ancestor(goal, 1));
            if bound(self.ancestor(start, 1)) < SHORT_QUERY {
                return 0;
            }
        }
        let (mut a, mut b, mut meet) = (start, goal, 0);
        while a != b && meet + 1 < self.height() {
            (a, b) = (self.parent(meet, a), self.parent(meet, b));
            meet += 1;
        }
        let level = if k.is_none() { 1 } else { meet / 2 };
        // Even start and goal in one region plan above the grid: on that region alone.
        level.max(1).min(self.height() - 1)
    }

    /// Plans from `start` to `goal` (passable cells).
    pub fn query<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        start: u32,
        goal: u32,
        options: PraOptions,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PraResult {
        // A goal in another region is answered before any search; a free line before the level
        // is chosen or anything is allocated for the levels.
        let joined = self.joins(start, goal);
        let line_stop = match joined.then(|| straight_line(grid, self.rules, start, goal, tracer)) {
            Some(Ok((cost, path))) => return PraResult::straight(cost, path),
            Some(Err(stop)) => Some(stop),
            None => None,
        };
        let top = self.height() - 1;
        let level = options.level.unwrap_or_else(|| self.default_level(grid, start, goal, options.k)).min(top);
        let mut result = PraResult {
            path: None,
            complete: false,
            level,
            paths: vec![Vec::new(); level + 1],
            corridors: vec![Vec::new(); level + 1],
            expanded_per_level: vec![0; level + 1],
            straight_line: false,
            line_stop,
        };
        if !joined {
            return result;
        }
        // The grid search's own cost: walking the path again to add it up took a tenth of a
        // short query's time.
        let cost = CORRIDOR_SETS.with_borrow_mut(|sets| {
            let mut cost = None;
            // Level by level: the corridor comes from the path above (everything at the top).
            for l in (0..=level).rev() {
                // The stage comes before its corridor, so a replay draws the corridor on its level.
                tracer.record(|| PlanEvent::Stage {
                    level: l,
                    stage: if l == level { PlanStage::AbstractSearch } else { PlanStage::Refine },
                });
                if l < level {
                    // PRA*(k) only has to reach the next kept region, which borders the start's:
                    // rings would cost more than that search (they doubled PRA*(1)'s time on
                    // 64x64 maps).
                    let width = if options.k.is_some() { 0 } else { options.width };
                    let corridor = self.mark_corridor(grid, &result.paths[l + 1], l, width, sets);
                    if T::ENABLED {
                        let nodes = corridor.clone();
                        tracer.record(|| PlanEvent::Corridor { level: l, nodes });
                    }
                    result.corridors[l] = corridor;
                }
                let (region, goal_at) = self.aim(grid, l, &result, goal);
                let within = (l < level).then_some(&sets.inside);
                let mut found = self.search_level(grid, l, within, start, goal, region, goal_at, space, tracer);
                if found.0.is_none() && l < level {
                    // The corridor cut the way (it can around narrow passages): search the whole level.
                    tracer.record(|| PlanEvent::Stage { level: l, stage: PlanStage::RefineWithoutCorridor });
                    let retry = self.search_level(grid, l, None, start, goal, region, goal_at, space, tracer);
                    found = (retry.0, found.1 + retry.1);
                }
                result.expanded_per_level[l] += found.1;
                let (found_cost, mut nodes) = found.0?;
                if let Some(k) = options.k.filter(|_| l > 0) {
                    nodes.truncate(k.max(1) + 1);
                }
                result.paths[l] = nodes;
                cost = Some(found_cost);
            }
            cost
        });
        let Some(cost) = cost else { return result };
        let path = result.paths[0].clone();
        result.complete = path.last() == Some(&goal);
        if T::ENABLED {
            let cells = path.clone();
            tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost, path: cells }));
        }
        result.path = Some((cost, path));
        result
    }

    /// Where the search on level `l` heads: PRA*(k) for the region of the last node kept one level
    /// up, unless that holds the goal; else for the goal. With the position to aim at.
    fn aim(&self, grid: &Grid, l: usize, result: &PraResult, goal: u32) -> (Option<u32>, (f64, f64)) {
        let above = result.paths.get(l + 1).and_then(|above| above.last()).copied();
        let region = above.filter(|&last| l < result.level && last != self.ancestor(goal, l + 1));
        let goal_at = match region {
            Some(parent) => self.position(grid, l + 1, parent),
            None => self.position(grid, l, self.ancestor(goal, l)),
        };
        (region, goal_at)
    }

    /// A* on one level inside the corridor, from the start's ancestor to the goal's, or to any
    /// node under `region` (a node one level up). Returns the node path and the expansions.
    #[allow(clippy::too_many_arguments)]
    fn search_level<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        level: usize,
        inside: Option<&StampSet>,
        start: u32,
        goal: u32,
        region: Option<u32>,
        goal_at: (f64, f64),
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> (Option<(f64, Vec<u32>)>, usize) {
        let in_region = |n: u32| region.is_some_and(|p| self.parent(level, n) == p);
        let corridor = Corridor {
            inner: LevelGraph { pyramid: self, grid: GridGraph::new(grid, self.rules), level },
            inside,
            goal_region: region.map(|_| &in_region as &dyn Fn(u32) -> bool),
        };
        let virtual_goal = corridor.virtual_goal();
        let target = if region.is_some() { virtual_goal } else { self.ancestor(goal, level) };
        // Edge costs are at least the distance between positions, so this never overestimates
        // the way to a node; aiming at a region's centre is a guide, not a bound.
        let metric = self.metric();
        let bound = self.lower_bound_to(grid, level, self.ancestor(goal, level));
        let heuristic = |n: u32| {
            if n == virtual_goal {
                return 0.0;
            }
            if region.is_none() {
                return bound(n);
            }
            let (x, y) = self.position(grid, level, n);
            metric.estimate(x - goal_at.0, y - goal_at.1)
        };
        let from = self.ancestor(start, level);
        let tracer = &mut Mapped::new(tracer, PlanEvent::Search);
        // On the grid towards the goal the guide is A*'s own: the same bound, without the branches
        // for abstract levels (they cost a tenth of the grid search). Without a corridor (planning
        // on the grid itself) the graph is the grid alone, as plain A* searches it.
        let guide = super::astar::grid_heuristic(grid, goal, metric);
        let found = match (level, region, inside) {
            (0, None, None) => astar(&GridGraph::new(grid, self.rules), from, target, guide, 1.0, space, tracer),
            (0, None, Some(_)) => astar(&corridor, from, target, guide, 1.0, space, tracer),
            _ => astar(&corridor, from, target, heuristic, 1.0, space, tracer),
        };
        let nodes = found.path.map(|(cost, mut nodes)| {
            if nodes.last() == Some(&virtual_goal) {
                nodes.pop();
            }
            (cost, nodes)
        });
        (nodes, found.expanded)
    }

    /// Fills `sets` with the path one level up and `width` rings of its neighbours there, and the
    /// nodes of `level` under them (on the grid, with the free cells around those): the
    /// corridor, which it returns.
    fn mark_corridor(
        &self,
        grid: &Grid,
        upper_path: &[u32],
        level: usize,
        width: usize,
        sets: &mut CorridorSets,
    ) -> Vec<u32> {
        let upper = &mut sets.upper;
        upper.begin(self.node_count(grid, level + 1));
        upper_path.iter().for_each(|&node| upper.insert(node));
        upper.grow(&LevelGraph { pyramid: self, grid: GridGraph::new(grid, self.rules), level: level + 1 }, width);
        let inside = &mut sets.inside;
        inside.begin(self.node_count(grid, level));
        for &parent in &upper.members {
            self.children(level + 1, parent).iter().for_each(|&node| inside.insert(node));
        }
        if level == 0 {
            inside.add_cells_around(grid);
        }
        inside.members.clone()
    }
}
