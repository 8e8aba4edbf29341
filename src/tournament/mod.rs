//! Self-play tournaments: engines and their specs, the parallel match runner, Elo and SPRT
//! statistics, plain and report-style scoring, and gradient-ascent tuning of the Barca weights.

pub mod elo;
pub mod engine;
pub mod plot;
pub mod runner;
pub mod scoring;
pub mod shard;
pub mod sprt;
pub mod tune;

pub use elo::{EloEstimate, Wdl, elo_estimate};
pub use engine::{Engine, EngineSpec};
pub use runner::{
    Contestant, MatchConfig, MatchObserver, MatchReport, MatchSummary, opening, run_match, run_pairs, useful_threads,
};
pub use scoring::{GameRecord, GameResult, ReportScoring, plain_score};
pub use sprt::{Decision, Sprt, SprtStatus};
pub use tune::{IterationLog, Objective, TuneConfig, TuneLog, tune};
