//! `searchlab path`: grid queries from the command line.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use super::{CliError, CliResult, QueriesResult, emit, parse_point};
use crate::grid::movingai::{self, Scenario};
use crate::grid::{Connectivity, Grid, MoveRules};
use crate::pathfinding::planner::{Answer, Method, Planner, Prepared, canonical_reopen, planner_names};
use crate::pathfinding::{Algorithm, Heuristic, SearchSpace};
use crate::text::quote;
use crate::trace::NoTrace;

#[derive(Debug, Args)]
pub struct PathArgs {
    /// The grid map (MovingAI .map).
    #[arg(long)]
    map: PathBuf,
    /// Run every query of this scenario file.
    #[arg(long, conflicts_with_all = ["from", "to"])]
    scen: Option<PathBuf>,
    /// Start cell `x,y` of a single query.
    #[arg(long, value_parser = parse_point, requires = "to", allow_hyphen_values = true)]
    from: Option<(u32, u32)>,
    /// Goal cell `x,y` of a single query.
    #[arg(long, value_parser = parse_point, requires = "from", allow_hyphen_values = true)]
    to: Option<(u32, u32)>,
    /// The planner and its options as one spec, as a lecture cell writes it (`astar:octile,weight=1.5`,
    /// `hpa:cluster=16`); the flags below are the same options one by one, and must agree with it.
    #[arg(long, value_parser = parse_planner)]
    spec: Option<Planner>,
    /// The planner: a flat search (bfs, dijkstra, astar, jps, ...) or hpa or pra (default astar).
    /// HPA*: memory per map cell grows with the entrances per cluster: about 50-70 bytes on rooms
    /// and mazes, 450-530 on open random maps (2.2 GB at 2048x2048); A* needs about 16.
    #[arg(long, value_parser = parse_algo)]
    algo: Option<&'static str>,
    /// The heuristic of a search that reads one (default octile, or manhattan with --connectivity 4).
    #[arg(long, value_parser = parse_heuristic)]
    heuristic: Option<Heuristic>,
    /// Weighted A*: f = g + w*h with w >= 1 (default 1).
    #[arg(long)]
    weight: Option<f64>,
    /// A*: reopen closed cells reached again more cheaply (default: true at weight 1, false above).
    #[arg(long)]
    reopen: Option<bool>,
    /// Run at most this many scenario queries.
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(1..))]
    limit: Option<usize>,
    /// 4 or 8 neighbours (default 8).
    #[arg(long, value_parser = parse_connectivity)]
    connectivity: Option<Connectivity>,
    /// Allow a diagonal step past one blocked corner (MovingAI forbids it).
    #[arg(long)]
    corner_cutting: bool,
    /// HPA* cluster side in cells (default 32).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=256))]
    cluster: Option<u32>,
    /// HPA* abstraction levels: 1, or 2 (level-2 clusters of 3x3 level-1 clusters).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(1..=2))]
    levels: Option<usize>,
    /// HPA*: keep the refined path as it is, without straight shortcuts.
    #[arg(long)]
    no_smooth: bool,
    /// PRA*: the abstraction level to plan on, 0 being the grid (default 1, or 0 when the goal
    /// is less than 64 away by the landmarks' bound; with --k half way up to where start and
    /// goal share an ancestor).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..))]
    level: Option<usize>,
    /// PRA*(k): refine only the first k steps of each level's path.
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(1..))]
    k: Option<usize>,
    /// PRA*: rings of neighbours around the path above that each corridor takes in (default 0:
    /// the path's own regions, and on the grid the free cells around them; whole paths only,
    /// PRA*(k) takes no rings).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..))]
    width: Option<usize>,
}

impl PathArgs {
    /// The library's planner: `--spec`, or the flags; flags of another planner are refused, and
    /// flags given with a spec must say what it says.
    fn planner(&self) -> Result<Planner, CliError> {
        let name = self.algo.or(self.spec.map(|spec| spec.method.name())).unwrap_or("astar");
        self.check_flags_fit(name)?;
        let rules = MoveRules {
            connectivity: self.connectivity.or(self.spec.map(|spec| spec.rules.connectivity)).unwrap_or_default(),
            corner_cutting: self.corner_cutting || self.spec.is_some_and(|spec| spec.rules.corner_cutting),
        };
        let mut planner = match self.spec {
            Some(spec) if spec.method.name() == name => Planner { rules, ..spec },
            // The name alone, so its options take their defaults under these rules.
            _ => Planner::named(name, rules).map_err(CliError)?,
        };
        self.overlay(&mut planner.method);
        if let Some(spec) = self.spec.filter(|spec| *spec != planner) {
            return Err(CliError(format!(
                "the flags say {} but --spec says {spec}: give the options in one place",
                quote(&planner.to_string())
            )));
        }
        planner.validate().map_err(flag_error)?;
        Ok(planner)
    }

    /// Refuses a flag that planner `name` does not read.
    fn check_flags_fit(&self, name: &str) -> Result<(), CliError> {
        let reading = |reads: fn(Algorithm) -> bool| {
            let ids: Vec<&str> = Algorithm::ALL.iter().filter(|&&a| reads(a)).map(|a| a.id()).collect();
            (ids.contains(&name), crate::text::or_list(&ids))
        };
        let (heuristic_fits, heuristic_readers) = reading(Algorithm::uses_heuristic);
        let (weight_fits, weight_readers) = reading(Algorithm::uses_weight);
        let (reopen_fits, reopen_readers) = reading(Algorithm::uses_reopen);
        if self.heuristic.is_some() && !heuristic_fits {
            return Err(CliError(format!("--heuristic applies to {heuristic_readers} only")));
        }
        if self.weight.is_some() && !weight_fits {
            return Err(CliError(format!("--weight applies to {weight_readers} only")));
        }
        if self.reopen.is_some() && !reopen_fits {
            return Err(CliError(format!("--reopen applies to {reopen_readers} only")));
        }
        if name != "hpa" && (self.cluster.is_some() || self.levels.is_some() || self.no_smooth) {
            return Err(CliError("--cluster, --levels and --no-smooth apply to hpa only".to_string()));
        }
        if name != "pra" && (self.level.is_some() || self.k.is_some() || self.width.is_some()) {
            return Err(CliError("--level, --k and --width apply to pra only".to_string()));
        }
        if self.k.is_some() && self.width.is_some() {
            return Err(CliError("--width applies to whole paths only: PRA*(k) (--k) takes no rings".to_string()));
        }
        Ok(())
    }

    /// Sets the options the flags give.
    fn overlay(&self, method: &mut Method) {
        match method {
            Method::Flat { heuristic, weight, reopen, .. } => {
                *heuristic = self.heuristic.unwrap_or(*heuristic);
                *weight = self.weight.unwrap_or(*weight);
                *reopen = canonical_reopen(self.reopen.or(*reopen), *weight);
            }
            Method::Hpa { cluster, levels, smooth } => {
                *cluster = self.cluster.unwrap_or(*cluster);
                *levels = self.levels.unwrap_or(*levels);
                *smooth &= !self.no_smooth;
            }
            Method::Pra(options) => {
                options.level = self.level.or(options.level);
                options.k = self.k.or(options.k);
                options.width = self.width.unwrap_or(options.width);
            }
        }
    }
}

fn parse_planner(text: &str) -> Result<Planner, String> {
    text.parse()
}

fn parse_algo(text: &str) -> Result<&'static str, String> {
    planner_names()
        .into_iter()
        .find(|&name| name == text)
        .ok_or_else(|| format!("unknown planner '{}': use {}", quote(text), crate::text::or_list(&planner_names())))
}

/// A library message naming a planner option, as one naming the flag.
fn flag_error(message: String) -> CliError {
    CliError::of_option(message, &["weight", "cluster", "levels", "level", "k", "width"])
}

fn parse_heuristic(text: &str) -> Result<Heuristic, String> {
    Heuristic::ALL.into_iter().find(|h| h.name() == text).ok_or_else(|| {
        let names: Vec<&str> = Heuristic::ALL.iter().map(|h| h.name()).collect();
        format!("'{text}' is not one of {}", names.join(", "))
    })
}

fn parse_connectivity(text: &str) -> Result<Connectivity, String> {
    match text {
        "4" => Ok(Connectivity::Four),
        "8" => Ok(Connectivity::Eight),
        _ => Err(format!("'{text}' is not 4 or 8")),
    }
}

pub(super) fn micros_since(start: Instant) -> f64 {
    (start.elapsed().as_secs_f64() * 1e7).round() / 10.0
}

pub fn run(args: PathArgs) -> QueriesResult {
    let planner = args.planner()?;
    let grid = movingai::load_map(&args.map)?;
    let (start, goal) = match (args.from, args.to) {
        (Some(from), Some(to)) => {
            (Some(grid.endpoint(from, "start").map_err(CliError)?), Some(grid.endpoint(to, "goal").map_err(CliError)?))
        }
        _ => (None, None),
    };
    let scenarios = match &args.scen {
        Some(scen) => {
            let scenarios = movingai::load_scen(scen)?;
            movingai::check_map_size(&scen.display().to_string(), &scenarios, &grid)?;
            let warning = super::other_map_warning(scen, &scenarios, &args.map);
            Some((scenarios, warning))
        }
        None => None,
    };
    match (scenarios, start, goal) {
        (Some((scenarios, warning)), _, _) => {
            let clock = Instant::now();
            let prepared = planner.prepare(&grid).map_err(flag_error)?;
            let preprocessing_micros = clock.elapsed().as_secs_f64() * 1e6;
            let queries = &scenarios[..args.limit.unwrap_or(usize::MAX).min(scenarios.len())];
            run_scenarios(&grid, &planner, &prepared, preprocessing_micros, queries, warning)
        }
        (None, Some(start), Some(goal)) => run_single(&grid, &planner, start, goal).map(|()| 0),
        _ => Err(CliError("give either --scen FILE or --from x,y --to x,y".to_string())),
    }
}

/// One query: the answer that needs no abstraction if there is one (a free straight line), else
/// the planner's on what it builds, and the microseconds the query took (not the build).
fn answer_one(grid: &Grid, planner: &Planner, start: u32, goal: u32) -> Result<(Answer, f64), CliError> {
    let clock = Instant::now();
    if let Some(answer) = planner.answer_without_abstraction(grid, start, goal, &mut NoTrace) {
        return Ok((answer, micros_since(clock)));
    }
    let prepared = planner.prepare(grid).map_err(flag_error)?;
    let mut space = query_space(grid);
    let clock = Instant::now();
    let answer = planner.query(&prepared, grid, start, goal, &mut space, &mut NoTrace);
    Ok((answer, micros_since(clock)))
}

/// A search space ready for every level of `grid`'s planners (PRA*'s corridors add one node, a
/// virtual goal), so that no query's time includes filling it.
fn query_space(grid: &Grid) -> SearchSpace {
    SearchSpace::for_nodes(grid.cell_count() + 1)
}

/// Each planner's own figures for the JSON line.
fn details(answer: &Answer) -> Value {
    match answer {
        Answer::Flat(result) => json!({ "pushed": result.pushed }),
        Answer::Hpa(result) => json!({
            "levels": result.expanded_per_level.len() - 1,
            "insertion_expanded": result.insertion_expanded,
            "abstract_expanded": result.abstract_expanded,
            "expanded_per_level": result.expanded_per_level,
            "unsmoothed_cost": result.unsmoothed_cost.map(positive_zero),
            "straight_line": result.straight_line,
        }),
        Answer::Pra(result) => json!({
            "level": result.level,
            "complete": complete(answer),
            "expanded_per_level": result.expanded_per_level,
            "straight_line": result.straight_line,
        }),
    }
}

/// Whether PRA*'s path reaches the goal (PRA*(k) may stop short); no path is no partial path
/// (null, like the cost). Other planners' paths are always complete, so they leave it out.
fn complete(answer: &Answer) -> Option<Value> {
    match answer {
        Answer::Pra(result) => Some(json!(result.path.as_ref().map(|_| result.complete))),
        _ => None,
    }
}

fn run_single(grid: &Grid, planner: &Planner, start: u32, goal: u32) -> CliResult {
    let (answer, micros) = answer_one(grid, planner, start, goal)?;
    if let Some(error) = budget_error(planner, &answer) {
        return Err(CliError(error));
    }
    let path = answer.path().map(|(_, cells)| cells.iter().map(|&c| grid.coords(c)).collect::<Vec<_>>());
    let (from, to) = (grid.coords(start), grid.coords(goal));
    let mut line = json!({
        "start": [from.0, from.1],
        "goal": [to.0, to.1],
        "algo": planner.method.name(),
        "cost": answer.cost().map(positive_zero),
        "expanded": answer.expanded(),
        "micros": micros,
        "path": path,
    });
    merge(&mut line, details(&answer));
    emit(&line);
    Ok(())
}

/// Why a search gave up without an answer, if it spent its expansion budget.
fn budget_error(planner: &Planner, answer: &Answer) -> Option<String> {
    let Answer::Flat(result) = answer else { return None };
    result.out_of_budget.then(|| {
        format!(
            "{planner} stopped after {} expansions, its budget of {} per cell: reopening closed cells under a large weight re-expands them again and again (reopen=false expands each cell at most once)",
            result.expanded,
            crate::pathfinding::astar::REOPEN_BUDGET_PER_NODE
        )
    })
}

/// Adds the fields of `extra` (an object) to `line`.
fn merge(line: &mut Value, extra: Value) {
    if let (Some(line), Value::Object(extra)) = (line.as_object_mut(), extra) {
        line.extend(extra);
    }
}

/// A cost of -0 (an empty path summed) printed as 0.
fn positive_zero(cost: f64) -> f64 {
    cost + 0.0
}

/// Runs the queries; `warning` (about the scenario file) goes to stderr, on the line that reports
/// mismatches if there is one, so stderr stays one line.
/// Why a scenario file's lengths are not compared with.
const NOT_MOVINGAI: &str = "the .scen optimal lengths assume MovingAI rules (8-connected, no corner cutting) on unweighted ground, so no path is compared with them";

/// The mean and largest suboptimality over the complete paths (a partial path's cost says nothing
/// of the optimum); no figure at all when there are none.
fn suboptimality_summary(suboptimality: &[f64]) -> Value {
    let mean = (!suboptimality.is_empty())
        .then(|| positive_zero(suboptimality.iter().sum::<f64>() / suboptimality.len() as f64));
    json!({ "mean_suboptimality": mean, "max_suboptimality": suboptimality.iter().copied().reduce(f64::max) })
}

/// One scenario's answer and its microseconds, or why it has none: an endpoint on a blocked cell,
/// or a search that spent its budget.
fn scenario_query(
    grid: &Grid,
    planner: &Planner,
    prepared: &Prepared,
    s: &Scenario,
    space: &mut SearchSpace,
) -> Result<(Answer, f64), String> {
    if let Some(error) = movingai::blocked_endpoint(s, grid) {
        return Err(error);
    }
    let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
    let clock = Instant::now();
    let answer = planner.query(prepared, grid, start, goal, space, &mut NoTrace);
    let micros = micros_since(clock);
    budget_error(planner, &answer).map_or(Ok((answer, micros)), Err)
}

fn run_scenarios(
    grid: &Grid,
    planner: &Planner,
    prepared: &Prepared,
    preprocessing_micros: f64,
    queries: &[Scenario],
    warning: Option<String>,
) -> QueriesResult {
    let mut space = query_space(grid);
    // MovingAI's lengths are for its rules on unweighted ground: under others they are no optimum
    // to compare with (corner cutting beat them by 18% on a 1-wide maze: "suboptimality" -0.18).
    let lengths_apply = planner.rules == MoveRules::MOVINGAI && !grid.has_weights();
    let (mut failed, mut total_expanded, mut total_micros) = (0, 0, 0.0);
    let (mut mismatches, mut suboptimality, mut complete_paths, mut straight_lines) = (Vec::new(), Vec::new(), 0, 0);
    for (id, s) in queries.iter().enumerate() {
        let (answer, micros) = match scenario_query(grid, planner, prepared, s, &mut space) {
            Ok(answered) => answered,
            Err(error) => {
                // One bad query is reported on its line; the others still run.
                failed += 1;
                emit(
                    &json!({ "id": id, "start": [s.start.0, s.start.1], "goal": [s.goal.0, s.goal.1], "error": error }),
                );
                continue;
            }
        };
        let cost = answer.cost().map(positive_zero);
        // PRA*(k)'s first steps are no whole path to compare with the optimum.
        if cost.is_none_or(|c| answer.complete() && !s.is_optimal(c)) {
            mismatches.push(id);
        }
        (total_expanded, total_micros) = (total_expanded + answer.expanded(), total_micros + micros);
        let mut line = json!({
            "id": id,
            "start": [s.start.0, s.start.1],
            "goal": [s.goal.0, s.goal.1],
            "cost": cost,
            "optimal": s.optimal,
            "expanded": answer.expanded(),
            "micros": micros,
        });
        if let Some(complete) = complete(&answer) {
            line["complete"] = complete;
        }
        if let Some(straight) = answer.straight_line() {
            line["straight_line"] = json!(straight);
            straight_lines += usize::from(straight);
        }
        if planner.is_hierarchical() {
            let ratio =
                cost.filter(|_| lengths_apply && s.optimal > 0.0 && answer.complete()).map(|c| s.suboptimality(c));
            complete_paths += usize::from(cost.is_some() && answer.complete());
            suboptimality.extend(ratio);
            line["suboptimality"] = json!(ratio);
        }
        emit(&line);
    }
    let mut summary = json!({
        "algo": planner.method.name(),
        "queries": queries.len(),
        "failed": failed,
        "mismatches": mismatches.len(),
        "total_expanded": total_expanded,
        "total_micros": (total_micros * 10.0).round() / 10.0,
    });
    if planner.is_hierarchical() {
        summary["preprocessing_micros"] = json!((preprocessing_micros * 10.0).round() / 10.0);
        summary["complete"] = json!(complete_paths);
        // Answered by the free straight line, without planning.
        summary["straight_lines"] = json!(straight_lines);
        merge(&mut summary, suboptimality_summary(&suboptimality));
    }
    let reason = planner.suboptimality_reason(grid);
    summary["guaranteed_optimal"] = json!(reason.is_none());
    let mut notes: Vec<String> = reason.iter().cloned().collect();
    if !lengths_apply {
        summary["mismatches"] = json!(null);
        notes.push(NOT_MOVINGAI.to_string());
    }
    if !notes.is_empty() {
        summary["note"] = json!(notes.join("; "));
    }
    emit(&json!({ "summary": summary }));
    if reason.is_none() && lengths_apply && !mismatches.is_empty() {
        // An optimal search disagreeing with the .scen: a wrong file or a wrong search, never "fine".
        eprintln!(
            "{} of {} queries differ from the .scen's optimal length although {} is optimal: id {}{}",
            mismatches.len(),
            queries.len(),
            planner.method.name(),
            first_ids(&mismatches),
            warning.map(|warning| format!(" ({warning})")).unwrap_or_default()
        );
        return Ok(failed + mismatches.len());
    }
    if let Some(warning) = warning {
        eprintln!("{warning}");
    }
    Ok(failed)
}

/// The first few ids of a list, "3, 7, 12 and 40 more".
fn first_ids(ids: &[usize]) -> String {
    const SHOWN: usize = 10;
    let shown: Vec<String> = ids.iter().take(SHOWN).map(usize::to_string).collect();
    match ids.len().saturating_sub(SHOWN) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
