//! Graphs with nodes `0..n` and non-negative edge costs, as the searches in `pathfinding` see
//! them. Grids, abstract graphs and triangulations implement [`Graph`].

/// A graph with nodes `0..node_count()` and non-negative edge costs.
pub trait Graph {
    fn node_count(&self) -> usize;
    fn for_each_neighbor(&self, node: u32, visit: impl FnMut(u32, f64));

    /// The neighbours a search reaching `node` from `parent` (`NO_NODE` at the start) has to
    /// try: all of them, unless the graph knows that some are never reached more cheaply
    /// through `node` than straight from `parent`.
    fn for_each_successor(&self, node: u32, _parent: u32, visit: impl FnMut(u32, f64)) {
        self.for_each_neighbor(node, visit)
    }

    /// The cost of the edge from `a` to `b`, or `None` if there is none. Asks for every neighbour
    /// of `a`; a graph that can look one edge up does so.
    fn step_cost(&self, a: u32, b: u32) -> Option<f64> {
        let mut step = None;
        self.for_each_neighbor(a, |nb, cost| {
            if nb == b {
                step = Some(cost);
            }
        });
        step
    }
}

/// Sums the edge costs along `path`, or `None` if two consecutive nodes are not adjacent.
pub fn path_cost(graph: &impl Graph, path: &[u32]) -> Option<f64> {
    // Adding 0 turns the empty sum's -0.0 (a path of one node) into 0.0, shown "0.000", not "-0.000".
    path.windows(2).map(|pair| graph.step_cost(pair[0], pair[1])).sum::<Option<f64>>().map(|cost| cost + 0.0)
}

/// A hash map keyed by node or cell id, with a multiplicative hash: ids are small integers, so
/// SipHash's protection against crafted keys only costs time here.
pub type NodeMap<V> = std::collections::HashMap<u32, V, std::hash::BuildHasherDefault<NodeHasher>>;

#[derive(Debug, Default, Clone, Copy)]
pub struct NodeHasher(u64);

impl std::hash::Hasher for NodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, id: u32) {
        self.0 = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    /// Mixes into what came before, so composite keys hash in a step per word. The full 128-bit
    /// product, folded, lets every input bit reach the low bits the table indexes by (keys such
    /// as coordinates' bits have only zeros there).
    fn write_u64(&mut self, word: u64) {
        let product = u128::from(self.0.rotate_left(29) ^ word) * 0x9E37_79B9_7F4A_7C15;
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}
