//! searchlab: a teaching playground for pathfinding and game-tree search.
//!
//! Algorithms live here free of any GUI; the CLI (`cli`) and the app drive them through the
//! [`trace`] mechanism.

pub mod adversarial;
pub mod app;
pub mod cli;
pub mod games;
pub mod grid;
pub mod navmesh;
pub mod pathfinding;
pub mod text;
pub mod tournament;
pub mod trace;
