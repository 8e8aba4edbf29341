//! The transposition table: search results by position hash, so a position reached again (by a
//! transposition or the next iteration) is not searched again, and its best move is tried first.

use serde::{Deserialize, Serialize};

use crate::games::{Score, WIN, is_proven};

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    Exact,
    /// The search failed high: the value is at least the score.
    Lower,
    /// The search failed low: the value is at most the score.
    Upper,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry<M> {
    pub key: u64,
    /// The remaining depth the score was searched to.
    pub depth: u32,
    /// Proven scores are stored relative to this node (see [`to_table`]).
    pub score: Score,
    pub bound: Bound,
    pub best_move: Option<M>,
    /// The search (generation) that stored it; entries of earlier searches are replaced first.
    pub age: u32,
}

/// One entry per slot, indexed by the hash's low bits. A slot is replaced when it is empty, holds
/// the same position, comes from an earlier search, or holds a shallower search (depth-preferred).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TranspositionTable<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    age: u32,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits;
        Self { slots: vec![None; size], mask: size - 1, age: 0 }
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[key as usize & self.mask].as_ref().filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, depth: u32, score: Score, bound: Bound, best_move: Option<M>) {
        let age = self.age;
        let slot = &mut self.slots[key as usize & self.mask];
        let replace = match slot {
            None => true,
            Some(old) => old.key == key || old.age != age || depth >= old.depth,
        };
        if replace {
            // Keep the old best move when this search found none (an all-node fails low everywhere).
            let best_move = best_move.or_else(|| slot.filter(|old| old.key == key).and_then(|old| old.best_move));
            *slot = Some(Entry { key, depth, score, bound, best_move, age });
        }
    }
}

/// A proven score counts plies from the root; the table stores it counted from the node, so the
/// same position reached at another ply reads the right distance to the end.
pub fn to_table(score: Score, ply: usize) -> Score {
    if !is_proven(score) {
        score
    } else if score > 0 {
        score + ply as Score
    } else {
        score - ply as Score
    }
}

/// The inverse of [`to_table`] at the probing node's ply.
pub fn from_table(score: Score, ply: usize) -> Score {
    if !is_proven(score) {
        score
    } else if score > 0 {
        (score - ply as Score).min(WIN)
    } else {
        (score + ply as Score).max(-WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_preferred_replacement_within_a_search() {
        let mut tt = TranspositionTable::<u8>::new(4);
        let (a, b) = (3u64, 3u64 + 16); // same slot
        tt.store(a, 5, 10, Bound::Exact, Some(1));
        tt.store(b, 2, 20, Bound::Lower, Some(2));
        assert_eq!(tt.probe(a).map(|e| e.score), Some(10), "a shallower entry does not evict a deeper one");
        assert!(tt.probe(b).is_none());
        tt.new_search();
        tt.store(b, 2, 20, Bound::Lower, None);
        assert_eq!(tt.probe(b).map(|e| (e.depth, e.bound, e.best_move)), Some((2, Bound::Lower, None)));
        tt.store(b, 1, 15, Bound::Upper, None);
        assert_eq!(tt.probe(b).map(|e| e.score), Some(15), "the same position is always refreshed");
    }

    #[test]
    fn proven_scores_are_stored_relative_to_the_node() {
        let win_in_3_from_root = WIN - 7; // found at ply 7, stored at ply 4
        let stored = to_table(win_in_3_from_root, 4);
        assert_eq!(stored, WIN - 3);
        assert_eq!(from_table(stored, 2), WIN - 5);
        assert_eq!(from_table(to_table(-(WIN - 9), 5), 1), -(WIN - 5));
        assert_eq!(from_table(to_table(123, 5), 1), 123);
    }
}
