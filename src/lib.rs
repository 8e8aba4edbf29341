//! searchlab: a teaching playground for pathfinding and game-tree search.
//!
//! Algorithms live here free of any GUI; the CLI (`cli`, feature `cli`) and the app (`app`,
//! feature `app`) drive them through the [`trace`] mechanism. Without those features the library
//! builds without eframe, wgpu or clap.

pub mod adversarial;
#[cfg(feature = "app")]
pub mod app;
#[cfg(feature = "cli")]
pub mod cli;
pub mod files;
pub mod games;
pub mod graph;
pub mod grid;
pub mod lecture;
pub mod navmesh;
pub mod pathfinding;
pub mod quiz;
pub mod scene;
pub mod spec_text;
pub mod text;
/// The clock: `std::time` on the desktop; the browser's in wasm, where `std::time::Instant` panics.
pub mod time {
    pub use web_time::{Duration, Instant};
}
pub mod tournament;
pub mod trace;
