//! Building PRA*'s pyramid: grouping one level into cliques, and what a pyramid would take.

use super::{LANDMARKS, Level, LevelGraph, Pyramid};
use crate::graph::Graph;
use crate::grid::Grid;
use crate::trace::NO_NODE;

impl Pyramid {
    /// The bytes [`Pyramid::build`] would take on `grid`, estimated from its free cells before
    /// anything is built. Level 1 groups cells in cliques of up to 4 in 2x2 blocks (about a quarter
    /// as many nodes as free cells; a third of that again on the levels above), each with its
    /// children, position, weight, up to 8 edges and its landmark distances; each level also keeps
    /// a parent per node below it.
    pub fn estimate_bytes(grid: &Grid) -> usize {
        use std::mem::size_of;
        let per_node = size_of::<Vec<u32>>()
            + 4 * size_of::<u32>()
            + size_of::<(f64, f64)>()
            + size_of::<f64>()
            + size_of::<u32>()
            + 8 * size_of::<(u32, f64)>()
            + size_of::<[f64; LANDMARKS]>();
        let cells = grid.passable_count();
        // Parents: one per grid cell (all cells, free or not) and one per node above level 1.
        let parents = size_of::<u32>() * (grid.cell_count() + cells / 3);
        parents + cells / 3 * per_node
    }
}

/// Groups the live nodes of one level into cliques; returns each node's parent and the new level.
pub(super) fn abstract_level(
    graph: &LevelGraph,
    count: usize,
    live: impl Fn(u32) -> bool,
    position: impl Fn(u32) -> (f64, f64),
    weight: impl Fn(u32) -> f64,
    in_blocks: bool,
) -> (Vec<u32>, Level) {
    let mut parent = vec![NO_NODE; count];
    let mut children: Vec<Vec<u32>> = Vec::new();
    let neighbours = |n: u32| {
        let mut out = Vec::with_capacity(8);
        graph.for_each_neighbor(n, |nb, _| out.push(nb));
        out
    };
    let adjacent = |a: u32, b: u32| {
        let mut found = false;
        graph.for_each_neighbor(a, |nb, _| found |= nb == b);
        found
    };
    let block = |n: u32| {
        let (x, y) = position(n);
        ((x / 2.0).floor() as i64, (y / 2.0).floor() as i64)
    };
    for n in (0..count as u32).filter(|&n| live(n)) {
        if parent[n as usize] != NO_NODE {
            continue;
        }
        let free: Vec<u32> = neighbours(n)
            .into_iter()
            .filter(|&m| parent[m as usize] == NO_NODE && (!in_blocks || block(m) == block(n)))
            .collect();
        let group = largest_clique(n, &free, &adjacent);
        let id = children.len() as u32;
        if group.len() == 1 {
            // An orphan with one neighbour joins it, once that neighbour is grouped (in a block of
            // its own it may not be yet).
            let all = neighbours(n);
            if let [only] = all[..]
                && parent[only as usize] != NO_NODE
            {
                let joined = parent[only as usize];
                parent[n as usize] = joined;
                children[joined as usize].push(n);
                continue;
            }
        }
        for &member in &group {
            parent[member as usize] = id;
        }
        children.push(group);
    }
    let position: Vec<(f64, f64)> = children
        .iter()
        .map(|group| {
            let (sx, sy) = group.iter().map(|&c| position(c)).fold((0.0, 0.0), |(ax, ay), (x, y)| (ax + x, ay + y));
            (sx / group.len() as f64, sy / group.len() as f64)
        })
        .collect();
    let weight: Vec<f64> =
        children.iter().map(|group| group.iter().map(|&c| weight(c)).sum::<f64>() / group.len() as f64).collect();
    let metric = graph.pyramid.metric();
    let mut adjacency: Vec<Vec<(u32, f64)>> = vec![Vec::new(); children.len()];
    for n in (0..count as u32).filter(|&n| live(n)) {
        let a = parent[n as usize];
        graph.for_each_neighbor(n, |nb, _| {
            let b = parent[nb as usize];
            if a != b && !adjacency[a as usize].iter().any(|&(m, _)| m == b) {
                let ((ax, ay), (bx, by)) = (position[a as usize], position[b as usize]);
                let mean_weight = (weight[a as usize] + weight[b as usize]) / 2.0;
                adjacency[a as usize].push((b, metric.estimate(ax - bx, ay - by) * mean_weight));
            }
        });
    }
    let mut edge_start = Vec::with_capacity(adjacency.len() + 1);
    edge_start.push(0);
    for list in &adjacency {
        edge_start.push(edge_start.last().unwrap() + list.len() as u32);
    }
    let edges = adjacency.concat();
    (parent, Level { children, position, weight, edge_start, edges, landmarks: Vec::new() })
}

/// The largest clique (up to 4) of `n` with nodes from `free`, preferring the first found.
fn largest_clique(n: u32, free: &[u32], adjacent: &impl Fn(u32, u32) -> bool) -> Vec<u32> {
    for (i, &a) in free.iter().enumerate() {
        for (j, &b) in free.iter().enumerate().skip(i + 1) {
            if !adjacent(a, b) {
                continue;
            }
            for &c in &free[j + 1..] {
                if adjacent(a, c) && adjacent(b, c) {
                    return vec![n, a, b, c];
                }
            }
        }
    }
    for (i, &a) in free.iter().enumerate() {
        if let Some(&b) = free[i + 1..].iter().find(|&&b| adjacent(a, b)) {
            return vec![n, a, b];
        }
    }
    free.first().map_or_else(|| vec![n], |&a| vec![n, a])
}
