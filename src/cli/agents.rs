//! `searchlab agents`: multi-agent paths on a grid map, as one JSON object.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::{CliError, QueriesResult, emit};
use crate::grid::Grid;
use crate::grid::movingai;
use crate::pathfinding::mapf::agents::{load_agents, parse_inline, random_agents};
use crate::pathfinding::mapf::{Agent, Conflict, MapfSpec, Plan};
use crate::trace::NoTrace;

#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// The grid map (MovingAI .map), searched 4-connected with waits.
    #[arg(long)]
    map: PathBuf,
    /// The agents in priority order: a file (MovingAI .scen, or lines `sx sy gx gy`) or inline
    /// `sx,sy,gx,gy;sx,sy,gx,gy;...`.
    #[arg(long, required_unless_present = "random", conflicts_with = "random")]
    agents: Option<String>,
    /// Instead of --agents: this many random agents (distinct starts, distinct goals).
    #[arg(long, value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(1..=10_000))]
    random: Option<usize>,
    /// Seed of --random.
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    /// `independent`, `cooperative` or `whca:window=W`.
    #[arg(long, default_value = "cooperative", value_parser = |text: &str| text.parse::<MapfSpec>())]
    spec: MapfSpec,
}

/// Prints the plan; the agents that failed count as failed queries (exit code 1).
pub fn run(args: AgentsArgs) -> QueriesResult {
    let grid = movingai::load_map(&args.map)?;
    let agents = match (&args.agents, args.random) {
        (Some(text), _) => read_agents(text, &grid)?,
        (None, Some(count)) => random_agents(&grid, count, args.seed),
        (None, None) => return Err(CliError("give --agents or --random".to_string())),
    };
    let plan = args.spec.plan(&grid, &agents, &mut NoTrace);
    emit(&report(&args.spec, &grid, &agents, &plan));
    Ok(plan.failed().len())
}

/// The agents of `--agents`: a file if one is there, else the inline form.
fn read_agents(text: &str, grid: &Grid) -> Result<Vec<Agent>, CliError> {
    let path = Path::new(text);
    let inline = text.chars().all(|c| c.is_ascii_digit() || ",; \t".contains(c));
    if path.is_file() || !inline {
        return Ok(load_agents(path, grid)?);
    }
    Ok(parse_inline("--agents", text, grid)?)
}

fn report(spec: &MapfSpec, grid: &Grid, agents: &[Agent], plan: &Plan) -> Value {
    let rows: Vec<Value> = agents
        .iter()
        .zip(&plan.agents)
        .enumerate()
        .map(|(id, (agent, result))| {
            let mut row = json!({
                "id": id,
                "start": [agent.start.0, agent.start.1],
                "goal": [agent.goal.0, agent.goal.1],
                "path": result.path.as_ref().map(|path| crate::pathfinding::mapf::timed(grid, path, 0)),
                "cost": result.cost(),
                "expanded": result.expanded,
            });
            if result.heuristic_expanded > 0 {
                row["heuristic_expanded"] = json!(result.heuristic_expanded);
            }
            if let Some(reason) = &result.failure {
                row["failed"] = json!(reason);
            }
            row
        })
        .collect();
    json!({
        "spec": spec.to_string(),
        "agents": rows,
        "conflicts": plan.conflicts.iter().map(Conflict::to_json).collect::<Vec<_>>(),
        "totals": {
            "agents": agents.len(),
            "sum_of_costs": plan.sum_of_costs(),
            "makespan": plan.makespan(),
            "expanded": plan.expanded(),
            "failed": plan.failed(),
            "conflicts": plan.conflicts.len(),
        },
    })
}
