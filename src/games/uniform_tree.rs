//! A synthetic game tree: every node has `branching` children down to `depth` plies, where the
//! game stops. Values are built so the move ordering is known, which makes the Knuth–Moore bound
//! on alpha-beta testable: with perfect ordering alpha-beta visits exactly
//! `b^ceil(d/2) + b^floor(d/2) - 1` leaves, with the worst ordering all `b^d`.
//!
//! Values are exact at every node (from the side to move's point of view): the root is worth 0,
//! and child `i` of a node worth `v` is worth `-v + i·s` (perfect ordering: child 0 is the best
//! move) or `-v + (b - 1 - i)·s` (worst ordering: the last child is the best move), where the
//! gap `s` shrinks with depth (see `step`). `evaluate` returns that
//! value, so depth-limited searches see true values too. Search it to `depth` plies: the bottom
//! nodes have no moves and no outcome, and only a horizon evaluates them rather than scoring a draw.

use super::{Game, Outcome, Score, Side, path_key};
use crate::text::quote;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ordering {
    /// Child 0 is best at every node.
    Perfect,
    /// The last child is best at every node.
    Worst,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UniformTree {
    branching: u8,
    depth: usize,
    ordering: Ordering,
    /// Child indices from the root to the current node.
    path: Vec<u8>,
    /// Values of the nodes on the path, the root's first.
    values: Vec<Score>,
    hash: u64,
}

impl UniformTree {
    pub fn new(branching: u8, depth: usize, ordering: Ordering) -> Self {
        assert!(branching >= 1, "a uniform tree needs at least one move per node");
        Self { branching, depth, ordering, path: Vec::new(), values: vec![0], hash: 0 }
    }

    pub fn branching(&self) -> u8 {
        self.branching
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Leaves alpha-beta visits on this tree with perfect ordering (Knuth and Moore, 1975).
    pub fn minimal_leaf_count(branching: u64, depth: u32) -> u64 {
        branching.pow(depth.div_ceil(2)) + branching.pow(depth / 2) - 1
    }

    fn child_value(&self, index: u8) -> Score {
        let parent = *self.values.last().expect("the root value is always there");
        let rank = match self.ordering {
            Ordering::Perfect => index,
            Ordering::Worst => self.branching - 1 - index,
        };
        -parent + Score::from(rank) * self.step(self.path.len())
    }

    /// The value gap between siblings at `ply`: larger than all the variation below them, so with
    /// the worst ordering every child lands inside every ancestor's window and nothing is pruned.
    /// Trees too big for that (b^d > 2^20) use gaps of 1.
    fn step(&self, ply: usize) -> Score {
        let b = u64::from(self.branching);
        match b.checked_pow(self.depth as u32) {
            Some(size) if size <= 1 << 20 => b.pow((self.depth - ply - 1) as u32) as Score,
            _ => 1,
        }
    }
}

impl Game for UniformTree {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        if self.path.len().is_multiple_of(2) { Side::First } else { Side::Second }
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.path.len() < self.depth {
            moves.extend(0..self.branching);
        }
    }

    fn make_move(&mut self, index: u8) {
        let value = self.child_value(index);
        self.hash ^= path_key(self.path.len(), index.into());
        self.path.push(index);
        self.values.push(value);
    }

    fn unmake_move(&mut self) {
        let index = self.path.pop().expect("unmake_move at the root");
        self.values.pop();
        self.hash ^= path_key(self.path.len(), index.into());
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> Score {
        *self.values.last().expect("the root value is always there")
    }

    fn ply(&self) -> usize {
        self.path.len()
    }

    fn move_text(&self, index: u8) -> String {
        index.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let index: u8 = text.trim().parse().map_err(|_| format!("'{}' is not a child index", quote(text)))?;
        if self.path.len() >= self.depth {
            return Err("the bottom of the tree has no moves".to_string());
        }
        if index >= self.branching {
            return Err(format!("child {index} does not exist: the branching factor is {}", self.branching));
        }
        Ok(index)
    }
}
