//! `searchlab gen`: write a generated map and its scenarios.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::{CliError, CliResult, emit};
use crate::grid::generate::{self, Spec};
use crate::grid::{MoveRules, movingai};
use crate::pathfinding::scenarios;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    Maze,
    Rooms,
    Random,
    Cave,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Which generator.
    #[arg(value_enum)]
    kind: Kind,
    #[arg(long, default_value_t = Spec::default().width)]
    width: u32,
    #[arg(long, default_value_t = Spec::default().height)]
    height: u32,
    #[arg(long, default_value_t = Spec::default().seed)]
    seed: u64,
    /// Maze corridor width in cells.
    #[arg(long, default_value_t = Spec::default().corridor)]
    corridor: u32,
    /// Room side in cells (rooms).
    #[arg(long, default_value_t = Spec::default().room)]
    room: u32,
    /// Probability of a door in a wall beyond those that connect the rooms (rooms).
    #[arg(long, default_value_t = Spec::default().doors)]
    doors: f64,
    /// Probability that a cell is blocked (random).
    #[arg(long, default_value_t = Spec::default().density)]
    density: f64,
    /// Probability that a cell starts as rock before the caves are smoothed (cave).
    #[arg(long, default_value_t = Spec::default().fill)]
    fill: f64,
    /// Where to write the map; scenarios go to the same path with `.scen` appended.
    #[arg(long)]
    out: PathBuf,
    /// Number of scenarios to write (0 for none, at most 100000).
    #[arg(long, default_value_t = 100)]
    scenarios: usize,
}

pub fn run(args: GenArgs) -> CliResult {
    let kind = match args.kind {
        Kind::Maze => generate::Kind::Maze,
        Kind::Rooms => generate::Kind::Rooms,
        Kind::Random => generate::Kind::Random,
        Kind::Cave => generate::Kind::Cave,
    };
    let spec = Spec {
        kind,
        width: args.width,
        height: args.height,
        seed: args.seed,
        corridor: args.corridor,
        room: args.room,
        doors: args.doors,
        density: args.density,
        fill: args.fill,
    };
    if args.scenarios > movingai::MAX_SCENARIOS {
        return Err(CliError(format!(
            "--scenarios {}: at most {} scenarios are written",
            args.scenarios,
            movingai::MAX_SCENARIOS
        )));
    }
    let grid =
        spec.generate().map_err(|e| CliError::of_option(e, &["corridor", "room", "doors", "density", "fill"]))?;
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text).map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))
    };
    if grid.passable_count() == 0 {
        let option = match args.kind {
            Kind::Random => "lower --density",
            Kind::Cave => "lower --fill",
            Kind::Maze | Kind::Rooms => "make it larger",
        };
        return Err(CliError(format!("the generated map has no free cell: {option}")));
    }
    write(&args.out, movingai::write_map(&grid))?;
    let map_name = args.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let scen_path = PathBuf::from(format!("{}.scen", args.out.display()));
    let scenarios = scenarios::generate(&grid, &map_name, args.scenarios, args.seed);
    if args.scenarios > 0 {
        write(&scen_path, movingai::write_scen(&scenarios))?;
    }
    if scenarios.len() < args.scenarios {
        // Random pairs of free cells are drawn until enough share a region; on a map cut into
        // small pieces most do not, and the drawing stops.
        let why = if grid.largest_component(MoveRules::MOVINGAI).len() < 2 {
            "no two free cells on this map are connected"
        } else {
            "most random pairs of free cells on this map lie in pieces not connected to each other"
        };
        eprintln!("warning: {} of {} scenarios written: {why}", scenarios.len(), args.scenarios);
    }
    emit(&json!({
        "map": args.out.display().to_string(),
        "width": grid.width(),
        "height": grid.height(),
        "passable": grid.passable_count(),
        "scenarios": scenarios.len(),
        "scen": (args.scenarios > 0).then(|| scen_path.display().to_string()),
    }));
    Ok(())
}
