//! The open list of best-first search: 16-byte entries in a 4-ary heap.

/// An open-list entry, 16 bytes with one integer key, because the heap is the hot spot of every
/// search. The key orders by `f`, ties going to the larger `g` (the node closest to the goal).
/// Costs are non-negative, so their IEEE bit patterns order like the numbers; the lowest
/// `TIE_BITS` bits of `f` (a relative 2^-40, far below `COST_EPSILON` at any map size) are replaced
/// by the rank of `g / f`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OpenEntry {
    pub key: u64,
    pub node: u32,
}

pub(super) const TIE_BITS: u32 = 12;

impl OpenEntry {
    pub fn new(f: f64, g: f64, node: u32) -> Self {
        debug_assert!(f >= 0.0 && g >= 0.0);
        let tie_max = (1u64 << TIE_BITS) - 1;
        // The top bits of h = f - g (its exponent and first mantissa bit) rank ties: a smaller h
        // (a deeper node) comes first. Coarse, but a shift instead of a division in the hot path.
        let h = (f - g).max(0.0);
        let h_rank = (h.to_bits() >> (64 - 1 - TIE_BITS)) & tie_max;
        Self { key: (f.to_bits() & !tie_max) | h_rank, node }
    }
}

/// A 4-ary min-heap on `OpenEntry::key`: half the levels of a binary heap, and the four children
/// of a node share one cache line.
#[derive(Debug, Default)]
pub(super) struct OpenHeap {
    items: Vec<OpenEntry>,
}

impl OpenHeap {
    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn peek(&self) -> Option<&OpenEntry> {
        self.items.first()
    }

    pub fn push(&mut self, entry: OpenEntry) {
        let mut i = self.items.len();
        self.items.push(entry);
        while i > 0 {
            let parent = (i - 1) / 4;
            if self.items[parent].key <= entry.key {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = entry;
    }

    pub fn pop(&mut self) -> Option<OpenEntry> {
        let last = self.items.pop()?;
        let Some(&top) = self.items.first() else { return Some(last) };
        let n = self.items.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let children = &self.items[first..(first + 4).min(n)];
            let (mut best, mut best_key) = (0, children[0].key);
            for (k, child) in children.iter().enumerate().skip(1) {
                if child.key < best_key {
                    (best, best_key) = (k, child.key);
                }
            }
            if best_key >= last.key {
                break;
            }
            self.items[i] = children[best];
            i = first + best;
        }
        self.items[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_prefers_low_f_then_high_g() {
        let mut heap = OpenHeap::default();
        heap.push(OpenEntry::new(5.0, 1.0, 0));
        heap.push(OpenEntry::new(5.0, 4.0, 1));
        heap.push(OpenEntry::new(3.0, 0.0, 2));
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop().map(|e| e.node)).collect();
        assert_eq!(order, vec![2, 1, 0]);
    }

    #[test]
    fn heap_pops_in_key_order() {
        let mut heap = OpenHeap::default();
        let keys: Vec<u64> = (0..500u64).map(|i| (i * 7919) % 613).collect();
        for (node, &key) in keys.iter().enumerate() {
            heap.push(OpenEntry { key, node: node as u32 });
        }
        let popped: Vec<u64> = std::iter::from_fn(|| heap.pop().map(|e| e.key)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(popped, sorted);
    }
}
