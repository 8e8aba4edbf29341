//! Pre-processing: transitions on the cluster borders, the abstract graph of each level, and
//! local updates after edits.

use super::fields::Fields;
use super::query::Links;
use super::{AbstractEdge, CROSSING, GROUP, Hpa, IntraEdge, Layer, WIDE_ENTRANCE};
use crate::graph::{Graph, NodeMap};
use crate::grid::{Grid, GridGraph, MoveRules};
use crate::pathfinding::SearchSpace;
use crate::pathfinding::dijkstra::dijkstra;
use crate::trace::NoTrace;

/// Dijkstra from each entrance of one cluster to the others inside it: the intra edges.
/// `node_of` maps an entrance cell to its node in `graph`, `cell_of` maps back; `searched` sees
/// each finished search with the index of its entrance.
fn all_pairs(
    graph: &impl Graph,
    entrances: &[u32],
    node_of: impl Fn(u32) -> u32,
    cell_of: impl Fn(u32) -> u32,
    space: &mut SearchSpace,
    mut searched: impl FnMut(usize, &SearchSpace),
) -> Vec<IntraEdge> {
    let mut edges = Vec::new();
    for (index, &from) in entrances.iter().enumerate() {
        dijkstra(graph, node_of(from), None, space, &mut NoTrace);
        searched(index, space);
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
        let mut hpa = Hpa::skeleton(grid, rules, cluster_size, levels);
        let all: Vec<u32> = (0..hpa.layers[0].intra.len() as u32).collect();
        hpa.rebuild(grid, &all);
        hpa
    }

    /// The bytes [`Hpa::build_levels`] would take on `grid`, estimated before anything is built
    /// from the transitions on the cluster borders (a pass over the borders alone). Per level-1
    /// cluster with e entrances: the cached distances, 4 bytes per cell and entrance (both ways on
    /// weighted ground), and up to e² intra edges with their paths. Higher levels add little.
    pub fn estimate_bytes(grid: &Grid, rules: MoveRules, cluster_size: u32) -> usize {
        let mut hpa = Hpa::skeleton(grid, rules, cluster_size, 1);
        let (count, clusters_x) = (hpa.layers[0].intra.len() as u32, hpa.layers[0].clusters_x);
        for cluster in 0..count {
            hpa.find_transitions(grid, cluster, true);
            hpa.find_transitions(grid, cluster, false);
        }
        let ways = if grid.has_weights() { 2 } else { 1 };
        let clusters = 0..count as usize;
        let bytes = clusters.map(|c| {
            let (cx, cy) = (c as u32 % clusters_x, c as u32 / clusters_x);
            let west = if cx > 0 { hpa.east[c - 1].len() } else { 0 };
            let north = if cy > 0 { hpa.south[c - clusters_x as usize].len() } else { 0 };
            let entrances = hpa.east[c].len() + hpa.south[c].len() + west + north;
            let (x0, y0, x1, y1) = hpa.cluster_rect(grid, 1, c as u32);
            let area = ((x1 - x0) * (y1 - y0)) as usize;
            let edge = std::mem::size_of::<IntraEdge>() + 4 * (x1 - x0).max(y1 - y0) as usize;
            4 * area * entrances * ways + entrances * entrances * edge
        });
        bytes.sum()
    }

    /// The levels' clusters with no transitions or edges yet.
    fn skeleton(grid: &Grid, rules: MoveRules, cluster_size: u32, levels: usize) -> Hpa {
        let cluster_size = cluster_size.max(2);
        let layers: Vec<Layer> = (0..levels.max(1) as u32)
            .map(|l| Layer::new(grid, cluster_size.saturating_mul(GROUP.saturating_pow(l))))
            .collect();
        let count = layers[0].intra.len();
        Hpa {
            rules,
            east: vec![Vec::new(); count],
            south: vec![Vec::new(); count],
            node_cells: Vec::new(),
            cell_nodes: NodeMap::default(),
            layers,
            fields: vec![Fields::default(); count],
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
                let edges = if level == 1 {
                    let (edges, fields) = self.level_one_cluster(grid, cluster, &mut space);
                    self.fields[cluster as usize] = fields;
                    edges
                } else {
                    self.intra_edges(grid, level, cluster, &mut space)
                };
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
            // Where the weights beside the border change, so does the cost of crossing it: each
            // stretch of equal weights on both sides gets its own transitions, so a cheap
            // crossing is never hidden behind a dear one. Unweighted borders are one stretch.
            let weights = |i: u32| {
                let ((ax, ay), (bx, by)) = pair(i);
                (grid.weight(grid.cell(ax, ay)), grid.weight(grid.cell(bx, by)))
            };
            let mut i = 0;
            while i < length {
                if !open(i) {
                    i += 1;
                    continue;
                }
                let first = i;
                while i < length && open(i) && weights(i) == weights(first) {
                    i += 1;
                }
                let last = i - 1;
                // A stretch counts as wide when walking along it costs what walking a wide plain
                // entrance does: on dear ground each cell of a detour to its middle costs its weight.
                let (wa, wb) = weights(first);
                let wide = (last - first + 1) * u32::from(wa.max(wb)) >= WIDE_ENTRANCE;
                let mut places = if wide { vec![first, (first + last) / 2, last] } else { vec![(first + last) / 2] };
                places.dedup();
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
    /// returns the inter edges (node, node, cost): both directions of each transition, and the
    /// diagonal steps between transition cells that cross a border on uneven ground.
    fn number_nodes(&mut self, grid: &Grid) -> Vec<(u32, u32, f64)> {
        let Hpa { rules, east, south, node_cells, cell_nodes, layers, .. } = self;
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
                inter.push((from, to, graph.step_cost(x, y).expect("transition cells are neighbours")));
            }
        }
        // A diagonal step between transition cells of two clusters crosses a border as well. On
        // even ground going round it by a straight crossing costs what it does on a plain map
        // (and smoothing straightens it), but where the four cells around it differ in weight
        // the way round can cost many times more, so there the step is an inter edge too.
        let clusters = &layers[0];
        for (from, &cell) in node_cells.iter().enumerate() {
            let (x, y) = grid.coords(cell);
            for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                let Some((next, cost)) = graph.step(x, y, dx, dy) else { continue };
                let Some(&to) = cell_nodes.get(&next) else { continue };
                let (nx, ny) = grid.coords(next);
                let around = [cell, next, grid.cell(nx, y), grid.cell(x, ny)].map(|c| grid.weight(c));
                if clusters.cluster_of(x, y) != clusters.cluster_of(nx, ny) && around.iter().any(|&w| w != around[0]) {
                    inter.push((from as u32, to, cost));
                }
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

    /// The intra edges of a level-1 cluster and its distance fields: one Dijkstra from each
    /// entrance, and one towards it where weighted cells make the two ways differ.
    fn level_one_cluster(&self, grid: &Grid, cluster: u32, space: &mut SearchSpace) -> (Vec<IntraEdge>, Fields) {
        let entrances = &self.layers[0].entrances[cluster as usize];
        let rect = self.cluster_rect(grid, 1, cluster);
        let (x0, y0, x1, y1) = rect;
        let weighted = (y0..y1).any(|y| (x0..x1).any(|x| grid.weight(grid.cell(x, y)) > 1));
        let mut fields = Fields::new(rect, entrances.len(), weighted);
        let forward = self.confined(grid, cluster, false);
        let edges = all_pairs(
            &forward,
            entrances,
            |cell| cell,
            |cell| cell,
            space,
            |index, space| fields.store(grid, index, false, space),
        );
        if !fields.is_symmetric() {
            let backward = self.confined(grid, cluster, true);
            for (index, &entrance) in entrances.iter().enumerate() {
                dijkstra(&backward, entrance, None, space, &mut NoTrace);
                fields.store(grid, index, true, space);
            }
        }
        (edges, fields)
    }

    /// The intra edges of one cluster of a level above the first, from the level below.
    fn intra_edges(&self, grid: &Grid, level: usize, cluster: u32, space: &mut SearchSpace) -> Vec<IntraEdge> {
        let entrances = &self.layers[level - 1].entrances[cluster as usize];
        let no_links = Links::default();
        // The ends are placeholders: without links no search reaches them.
        let below = self.query_graph(grid, level - 1, &no_links, [0, 0], Some((level, cluster)), false);
        all_pairs(
            &below,
            entrances,
            |cell| self.cell_nodes[&cell],
            |node| self.node_cells[node as usize],
            space,
            |_, _| {},
        )
    }

    /// Assembles `level`'s adjacency from the inter edges crossing its borders and its intra
    /// edges, in that order in every node's lists (a query takes the crossing ones alone).
    fn connect(&mut self, level: usize, inter: &[(u32, u32, f64)]) {
        let count = self.node_cells.len();
        let cell_nodes = &self.cell_nodes;
        let layer = &mut self.layers[level - 1];
        let (mut out, mut into) = (vec![Vec::new(); count], vec![Vec::new(); count]);
        let mut arc = |from: u32, to: u32, cost: f64, intra: u32| {
            out[from as usize].push(AbstractEdge { to, cost, intra });
            into[to as usize].push(AbstractEdge { to: from, cost, intra });
        };
        for &(a, b, cost) in inter {
            if layer.node_clusters[a as usize] != layer.node_clusters[b as usize] {
                arc(a, b, cost, CROSSING);
            }
        }
        for edges in &layer.intra {
            for (index, edge) in edges.iter().enumerate() {
                arc(cell_nodes[&edge.from], cell_nodes[&edge.to], edge.cost, index as u32);
            }
        }
        layer.out = out;
        layer.into = into;
    }
}
