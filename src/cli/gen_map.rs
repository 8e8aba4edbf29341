//! `searchlab gen`: write a generated map and its scenarios.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::{CliError, CliResult, emit};
use crate::grid::{generate, movingai};
use crate::pathfinding::scenarios;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    Maze,
    Rooms,
    Random,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// Which generator.
    #[arg(value_enum)]
    kind: Kind,
    #[arg(long, default_value_t = 64)]
    width: u32,
    #[arg(long, default_value_t = 64)]
    height: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Maze corridor width in cells.
    #[arg(long, default_value_t = 1)]
    corridor: u32,
    /// Room side in cells (rooms).
    #[arg(long, default_value_t = 8)]
    room: u32,
    /// Probability of a door in a wall beyond those that connect the rooms (rooms).
    #[arg(long, default_value_t = 0.3)]
    doors: f64,
    /// Probability that a cell is blocked (random).
    #[arg(long, default_value_t = 0.25)]
    density: f64,
    /// Where to write the map; scenarios go to the same path with `.scen` appended.
    #[arg(long)]
    out: PathBuf,
    /// Number of scenarios to write (0 for none).
    #[arg(long, default_value_t = 100)]
    scenarios: usize,
}

pub fn run(args: GenArgs) -> CliResult {
    if args.width < 3 || args.height < 3 || args.width as usize * args.height as usize > movingai::MAX_CELLS {
        return Err(CliError(format!("map size {}x{} is out of range (3x3 up to {} cells)", args.width, args.height, movingai::MAX_CELLS)));
    }
    for (name, p) in [("--doors", args.doors), ("--density", args.density)] {
        if !(0.0..=1.0).contains(&p) {
            return Err(CliError(format!("{name} must be a probability in 0..1, got {p}")));
        }
    }
    let grid = match args.kind {
        Kind::Maze => generate::maze(args.width, args.height, args.corridor, args.seed),
        Kind::Rooms => generate::rooms(args.width, args.height, args.room, args.doors, args.seed),
        Kind::Random => generate::random(args.width, args.height, args.density, args.seed),
    };
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text).map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))
    };
    write(&args.out, movingai::write_map(&grid))?;
    let map_name = args.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let scen_path = PathBuf::from(format!("{}.scen", args.out.display()));
    let scenarios = scenarios::generate(&grid, &map_name, args.scenarios, args.seed);
    if args.scenarios > 0 {
        write(&scen_path, movingai::write_scen(&scenarios))?;
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
