//! `searchlab mesh`: shortest paths on polygon maps with TA*, TRA* or Polyanya.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::path::micros_since;
use super::{CliError, QueriesResult, emit};
use crate::grid::{Grid, movingai};
use crate::navmesh::grid_outline::{cell_centre, said_of_cell};
use crate::navmesh::reduction::Role;
use crate::navmesh::search::{MeshAlgorithm, MeshSearch, PolygonKind, PreparedMesh};
use crate::navmesh::tastar::DEFAULT_MAX_EXPANSIONS;
use crate::navmesh::{MapFile, Point, load_grid_for_polygons, load_map_file};
use crate::text::{number, without_bom};
use crate::trace::NoTrace;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MeshAlgo {
    Ta,
    Tra,
    Polyanya,
}

/// The polygons Polyanya searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MeshKind {
    Triangles,
    Merged,
}

#[derive(Debug, Args)]
pub struct MeshArgs {
    /// The map: a polygon map (.json), a Polyanya mesh (.mesh), or a grid map (.map, read as --grid).
    #[arg(long, required_unless_present = "grid", conflicts_with = "grid")]
    map: Option<PathBuf>,
    /// A grid map (MovingAI .map), triangulated; points are cells, searched from their centres.
    #[arg(long)]
    grid: Option<PathBuf>,
    /// Start point `x,y` of a single query (a cell with --grid).
    #[arg(long, value_parser = parse_xy, requires = "to", allow_hyphen_values = true)]
    from: Option<Point>,
    /// Goal point `x,y` of a single query.
    #[arg(long, value_parser = parse_xy, requires = "from", allow_hyphen_values = true)]
    to: Option<Point>,
    /// Many queries: lines `sx sy gx gy` (a MovingAI .scen with --grid).
    #[arg(long, conflicts_with_all = ["from", "to"])]
    queries: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = MeshAlgo::Ta)]
    algo: MeshAlgo,
    /// With --algo polyanya: search the triangles, or them merged into convex polygons.
    #[arg(long, value_enum, default_value_t = MeshKind::Merged)]
    mesh: MeshKind,
    /// The agent's radius: paths keep this far from obstacles (TA* and TRA*; Polyanya refuses one).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    radius: f64,
    /// Stop at the first path found instead of proving the shortest.
    #[arg(long)]
    first_path: bool,
    /// Refine the triangulation until no angle is below this many degrees (at most 30).
    #[arg(long)]
    min_angle: Option<f64>,
    /// Give up on a query after this many expansions.
    #[arg(long, default_value_t = DEFAULT_MAX_EXPANSIONS)]
    max_expansions: usize,
}

fn parse_xy(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .filter(|(_, y)| !y.contains(','))
        .ok_or_else(|| format!("'{}' is not x,y (two numbers, e.g. 3.5,4)", crate::text::quote(text)))?;
    let coordinate = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("'{s}' in '{text}' is not a number"))
    };
    Ok([coordinate(x)?, coordinate(y)?])
}

/// Queries of a text file: `sx sy gx gy` per line, `#` starts a comment.
fn parse_queries(file: &str, text: &str) -> Result<Vec<(Point, Point)>, CliError> {
    let mut queries = Vec::new();
    for (i, line) in without_bom(text).lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let numbers: Vec<f64> =
            line.split_whitespace().filter_map(|w| w.parse().ok()).filter(|v: &f64| v.is_finite()).collect();
        match (numbers.as_slice(), line.split_whitespace().count()) {
            (&[sx, sy, gx, gy], 4) => queries.push(([sx, sy], [gx, gy])),
            _ => return Err(CliError(format!("{file}:{}: expected four numbers 'sx sy gx gy'", i + 1))),
        }
    }
    Ok(queries)
}

/// A query point as searched: on a grid map the user names a cell, searched from its centre.
fn grid_point(grid: Option<&Grid>, p: Point, what: &str) -> Result<Point, String> {
    let Some(grid) = grid else { return Ok(p) };
    let (x, y) = (p[0] as i64, p[1] as i64);
    if p[0].fract() != 0.0 || p[1].fract() != 0.0 || !grid.contains(x, y) {
        return Err(format!(
            "{what} {},{} is not a cell of the {}x{} grid",
            number(p[0]),
            number(p[1]),
            grid.width(),
            grid.height()
        ));
    }
    // Said of the cell the user gave, not of its centre the search would start from.
    if !grid.is_passable(x, y) {
        return Err(format!("{what} cell {x},{y} is blocked"));
    }
    Ok(cell_centre(grid, grid.cell(x as u32, y as u32)))
}

/// The queries asked for: a file's (a grid map's `.scen`, else lines of points), or the one given.
fn read_queries(args: &MeshArgs, grid: Option<&Grid>, map_path: &Path) -> Result<Vec<(Point, Point)>, CliError> {
    Ok(match (&args.queries, args.from, args.to) {
        (Some(file), _, _) => {
            let name = file.display().to_string();
            if let Some(grid) = grid {
                let scenarios = movingai::load_scen(file)?;
                movingai::check_map_size(&name, &scenarios, grid)?;
                if let Some(warning) = super::other_map_warning(file, &scenarios, map_path) {
                    eprintln!("{warning}");
                }
                scenarios
                    .iter()
                    .map(|s| ([s.start.0 as f64, s.start.1 as f64], [s.goal.0 as f64, s.goal.1 as f64]))
                    .collect()
            } else {
                let text = crate::files::read_text(file, crate::files::MAX_TEXT).map_err(|e| CliError(e.at(&name)))?;
                parse_queries(&name, &text)?
            }
        }
        (None, Some(from), Some(to)) => vec![(from, to)],
        _ => return Err(CliError("give either --queries FILE or --from x,y --to x,y".to_string())),
    })
}

/// A batch's summary: its `totals`, and what the mesh is made of.
fn mesh_summary(mut summary: serde_json::Value, prepared: &PreparedMesh) -> serde_json::Value {
    summary["triangles"] = json!(prepared.mesh.walkable_count());
    if let Some(polygons) = &prepared.polygons {
        summary["polygons"] = json!(polygons.len());
    }
    if let Some(reduction) = &prepared.reduction {
        summary["decision_points"] = json!(reduction.count(Role::Decision));
        summary["corridor_triangles"] = json!(reduction.count(Role::Corridor));
        summary["dead_end_triangles"] = json!(reduction.count(Role::DeadEnd));
    }
    summary
}

pub fn run(args: MeshArgs) -> QueriesResult {
    let algorithm = match args.algo {
        MeshAlgo::Ta => MeshAlgorithm::Ta,
        MeshAlgo::Tra => MeshAlgorithm::Tra,
        MeshAlgo::Polyanya => MeshAlgorithm::Polyanya,
    };
    let algo_name = algorithm.name();
    let search = MeshSearch {
        algorithm,
        radius: args.radius,
        first_path_only: args.first_path,
        min_angle: args.min_angle,
        max_expansions: args.max_expansions,
        mesh: match args.mesh {
            MeshKind::Triangles => PolygonKind::Triangles,
            MeshKind::Merged => PolygonKind::Merged,
        },
    };
    search.validate().map_err(|e| CliError::of_option(e, &["radius", "min-angle", "max-expansions"]))?;
    let map_path = args
        .map
        .as_ref()
        .or(args.grid.as_ref())
        .ok_or_else(|| CliError("give --map FILE or --grid FILE.map".to_string()))?;
    // A grid map given as --map is read as --grid would: its queries name cells, not corners.
    let MapFile { outline, grid, .. } = match &args.map {
        Some(map) => load_map_file(map)?,
        None => MapFile::of_grid(load_grid_for_polygons(map_path)?),
    };
    let map_name = map_path.display().to_string();
    let clock = Instant::now();
    let prepared = search.prepare(&outline).map_err(|e| CliError(format!("{map_name}: {e}")))?;
    let preprocessing_micros = micros_since(clock);
    let to_point = |p: Point, what: &str| grid_point(grid.as_ref(), p, what);
    let queries = read_queries(&args, grid.as_ref(), map_path)?;
    let single = args.queries.is_none();
    let (mut total_expanded, mut total_micros, mut unreachable, mut failed) = (0, 0.0, 0, 0);
    for (from, to) in &queries {
        let clock = Instant::now();
        let answer =
            to_point(*from, "start").and_then(|start| prepared.query(start, to_point(*to, "goal")?, &mut NoTrace));
        // On a grid map the user named cells: so does the error.
        let cell = |p: Point| (p[0] as i64, p[1] as i64);
        let answer = answer.map_err(|e| match grid {
            Some(_) => said_of_cell(said_of_cell(e, "start", cell(*from)), "goal", cell(*to)),
            None => e,
        });
        let micros = micros_since(clock);
        let result = match answer {
            Ok(result) => result,
            // A lone query's problem is the command's; one of many is reported and the rest run.
            Err(error) if single => return Err(CliError(error)),
            Err(error) => {
                failed += 1;
                emit(&json!({ "start": from, "goal": to, "algo": algo_name, "error": error }));
                continue;
            }
        };
        total_expanded += result.expanded;
        total_micros += micros;
        unreachable += usize::from(result.path.is_none());
        emit(&json!({
            "start": from,
            "goal": to,
            "algo": algo_name,
            "length": result.path.as_ref().map(|p| p.length),
            "first_path_length": result.first_length,
            "waypoints": result.path.as_ref().map(|p| &p.waypoints),
            "expanded": result.expanded,
            "micros": micros,
        }));
    }
    if !single {
        let totals = json!({
            "algo": algo_name,
            "queries": queries.len(),
            "failed": failed,
            "unreachable": unreachable,
            "total_expanded": total_expanded,
            "total_micros": (total_micros * 10.0).round() / 10.0,
            "preprocessing_micros": preprocessing_micros,
        });
        emit(&json!({ "summary": mesh_summary(totals, &prepared) }));
    }
    super::report_failed(failed, queries.len());
    Ok(failed)
}
