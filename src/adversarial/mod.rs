//! Game-tree search algorithms, written once against the `Game` trait.
pub mod mcts;
