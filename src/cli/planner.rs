//! The planners `searchlab path` can run: the flat searches, or a hierarchical planner whose
//! abstraction is built once per map before the queries.

use std::time::Instant;

use clap::ValueEnum;
use serde_json::{Value, json};

use super::CliError;
use crate::grid::{Grid, MoveRules};
use crate::pathfinding::hpa::{Hpa, HpaQuery};
use crate::pathfinding::pra::{PraOptions, Pyramid};
use crate::pathfinding::{Algorithm, GridSearch, SearchSpace};
use crate::trace::NoTrace;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathAlgo {
    Bfs,
    Dijkstra,
    Astar,
    Jps,
    Hpa,
    Pra,
}

impl PathAlgo {
    fn flat(self) -> Option<Algorithm> {
        match self {
            PathAlgo::Bfs => Some(Algorithm::Bfs),
            PathAlgo::Dijkstra => Some(Algorithm::Dijkstra),
            PathAlgo::Astar => Some(Algorithm::Astar),
            PathAlgo::Jps => Some(Algorithm::Jps),
            PathAlgo::Hpa | PathAlgo::Pra => None,
        }
    }
}

/// Options of the hierarchical planners, checked against the chosen algorithm.
#[derive(Debug, Clone, Copy)]
pub struct HierarchyOptions {
    pub cluster: Option<u32>,
    pub levels: Option<usize>,
    pub no_smooth: bool,
    pub level: Option<usize>,
    pub k: Option<usize>,
}

pub enum Planner {
    Flat(GridSearch),
    Hpa(Hpa, HpaQuery),
    Pra(Pyramid, PraOptions),
}

/// One answered query.
pub struct Solved {
    pub cost: Option<f64>,
    pub path: Option<Vec<u32>>,
    pub expanded: usize,
    /// False when only the first part of a path was planned (PRA*(k)).
    pub complete: bool,
    /// Planner-specific figures for the JSON line.
    pub details: Value,
}

impl Planner {
    /// Builds what the planner needs for `grid`; returns it with the pre-processing time in micros.
    pub fn prepare(algo: PathAlgo, search: GridSearch, options: HierarchyOptions, grid: &Grid) -> Result<(Planner, f64), CliError> {
        if algo != PathAlgo::Hpa && (options.cluster.is_some() || options.levels.is_some() || options.no_smooth) {
            return Err(CliError("--cluster, --levels and --no-smooth apply to hpa only".to_string()));
        }
        if algo != PathAlgo::Pra && (options.level.is_some() || options.k.is_some()) {
            return Err(CliError("--level and --k apply to pra only".to_string()));
        }
        if options.k == Some(0) {
            return Err(CliError("--k must be at least 1".to_string()));
        }
        let clock = Instant::now();
        let planner = match algo.flat() {
            Some(algorithm) => {
                let search = GridSearch { algorithm, ..search };
                if let Some(reason) = search.refusal(grid) {
                    return Err(CliError(reason.to_string()));
                }
                Planner::Flat(search)
            }
            None if algo == PathAlgo::Pra => {
                let pyramid = Pyramid::build(grid, search.rules);
                if let Some(level) = options.level.filter(|&l| l >= pyramid.height()) {
                    return Err(CliError(format!("--level {level} is above the pyramid's top level {}", pyramid.height() - 1)));
                }
                Planner::Pra(pyramid, PraOptions { level: options.level, k: options.k })
            }
            None => {
                let cluster = options.cluster.unwrap_or(10);
                if !(2..=256).contains(&cluster) {
                    return Err(CliError(format!("--cluster must be 2..256 cells, got {cluster}")));
                }
                let levels = options.levels.unwrap_or(1);
                if !(1..=2).contains(&levels) {
                    return Err(CliError(format!("--levels must be 1 or 2, got {levels}")));
                }
                let hpa = Hpa::build_levels(grid, search.rules, cluster, levels);
                Planner::Hpa(hpa, HpaQuery { smooth: !options.no_smooth })
            }
        };
        Ok((planner, clock.elapsed().as_secs_f64() * 1e6))
    }

    pub fn rules(&self) -> MoveRules {
        match self {
            Planner::Flat(search) => search.rules,
            Planner::Hpa(hpa, _) => hpa.rules(),
            Planner::Pra(pyramid, _) => pyramid.rules(),
        }
    }

    pub fn is_hierarchical(&self) -> bool {
        !matches!(self, Planner::Flat(_))
    }

    /// Why the planner may miss the optimum, if it may.
    pub fn suboptimality_reason(&self, grid: &Grid) -> Option<String> {
        match self {
            Planner::Flat(search) => search.suboptimality_reason(grid.has_weights()),
            Planner::Hpa(..) => Some("HPA* paths are near-optimal, not optimal".to_string()),
            Planner::Pra(_, options) if options.k.is_some() => {
                Some("PRA*(k) returns the first steps of a path, not a whole path".to_string())
            }
            Planner::Pra(..) => Some("PRA* paths are near-optimal, not optimal".to_string()),
        }
    }

    pub fn solve(&self, grid: &Grid, start: u32, goal: u32, space: &mut SearchSpace) -> Solved {
        match self {
            Planner::Flat(search) => {
                let result = search.run(grid, start, goal, space, &mut NoTrace);
                Solved {
                    cost: result.cost(),
                    expanded: result.expanded,
                    complete: true,
                    details: json!({ "pushed": result.pushed }),
                    path: result.path.map(|(_, cells)| cells),
                }
            }
            Planner::Hpa(hpa, query) => {
                let result = hpa.query(grid, start, goal, *query, space, &mut NoTrace);
                Solved {
                    cost: result.path.as_ref().map(|(cost, _)| *cost),
                    expanded: result.insertion_expanded + result.abstract_expanded + result.refinement_expanded,
                    complete: true,
                    details: json!({
                        "levels": hpa.levels(),
                        "insertion_expanded": result.insertion_expanded,
                        "abstract_expanded": result.abstract_expanded,
                        "refinement_expanded": result.refinement_expanded,
                        "expanded_per_level": result.expanded_per_level,
                        "unsmoothed_cost": result.unsmoothed_cost,
                    }),
                    path: result.path.map(|(_, cells)| cells),
                }
            }
            Planner::Pra(pyramid, options) => {
                let result = pyramid.query(grid, start, goal, *options, space, &mut NoTrace);
                Solved {
                    cost: result.path.as_ref().map(|(cost, _)| *cost),
                    expanded: result.expanded_per_level.iter().sum(),
                    complete: result.complete,
                    details: json!({
                        "level": result.level,
                        "complete": result.complete,
                        "expanded_per_level": result.expanded_per_level,
                    }),
                    path: result.path.map(|(_, cells)| cells),
                }
            }
        }
    }
}
