//! Checking a lecture's cells as the app would open them, without a window: the scene parses and
//! fits its lab, its map loads, its query lies on the map, and (for `searchlab lecture --check`) its
//! step exists in the recorded search.

use std::path::Path;

use super::{Cell, Lecture, Problem};
use crate::games::barca::Barca;
use crate::games::tictactoe::TicTacToe;
use crate::grid::Grid;
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::scene::{Lab, MapSource, RunSpec, Scene, Step};
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::Recorder;

/// Every bad cell of `lecture` (relative map paths start at `base`), in file order. Steps are checked
/// against the recorded search, so this runs each cell's search once.
pub fn check(lecture: &Lecture, base: &Path) -> Vec<Problem> {
    lecture.cells().filter_map(|cell| check_cell(cell, base).and_then(|scene| check_step(cell, &scene)).err()).collect()
}

/// The cell's scene, its map paths resolved against `base`, or its first problem. Loads the map but
/// searches nothing: the notebook calls it for every cell when a lecture loads.
pub fn check_cell(cell: &Cell, base: &Path) -> Result<Scene, Problem> {
    if cell.unclosed {
        return Err(Problem::new(cell.line, "this ```searchlab block is never closed: end it with a line ```"));
    }
    let mut scene = Scene::from_toml(&cell.source).map_err(|message| scene_problem(cell, &message))?;
    if let Some(MapSource::Path(path)) = &mut scene.map
        && Path::new(path.as_str()).is_relative()
    {
        *path = base.join(&*path).display().to_string();
    }
    let at = |key: &'static str| move |message: String| Problem::new(key_line(cell, key), message);
    match scene.lab {
        Lab::Grid | Lab::Hierarchical => {
            let Some(grid) = scene.load_grid().map_err(at("map"))? else { return Ok(scene) };
            if let Some((start, goal)) = scene.cells().map_err(at("start"))? {
                grid_endpoint(&grid, start, "start").map_err(at("start"))?;
                grid_endpoint(&grid, goal, "goal").map_err(at("goal"))?;
            }
        }
        Lab::Polygon => {
            scene.load_outline().map_err(at("map"))?;
        }
        Lab::GameTree | Lab::Barca => {
            if let Some(text) = &scene.position {
                let parses = match scene.lab {
                    Lab::Barca => Barca::from_fen(text.trim()).is_ok(),
                    _ => TicTacToe::from_position(text).is_ok() || Barca::from_fen(text.trim()).is_ok(),
                };
                if !parses {
                    return Err(at("position")(format!("position '{text}' is neither a tic-tac-toe board nor a Barca FEN")));
                }
            }
        }
        Lab::Tuning => {}
    }
    Ok(scene)
}

/// Records the cell's search and checks that its step is in it (grid and polygon cells that give
/// their query; other labs choose the query themselves).
fn check_step(cell: &Cell, scene: &Scene) -> Result<(), Problem> {
    let at = |message: String| Problem::new(key_line(cell, "step"), message);
    let events = match scene.lab {
        Lab::Grid | Lab::Hierarchical => {
            let (Some(grid), Some((start, goal))) = (scene.load_grid().ok().flatten(), scene.cells().ok().flatten()) else {
                return Ok(());
            };
            // The page steps through the flat search; the hierarchical lab's is its second spec.
            let flat = if scene.lab == Lab::Hierarchical { scene.compare } else { scene.spec };
            let search = match flat {
                Some(RunSpec::Planner(planner)) => planner.grid_search().unwrap_or_default(),
                _ => GridSearch::default(),
            };
            search_events(&grid, search, start, goal)
        }
        Lab::Polygon => {
            let (Some(outline), Some(start), Some(goal)) = (scene.load_outline().ok().flatten(), scene.start, scene.goal) else {
                return Ok(());
            };
            let prepared = scene.mesh_search().unwrap_or_default().prepare(&outline).map_err(at)?;
            let mut recorder = Recorder::new(usize::MAX);
            prepared.query(start, goal, &mut recorder).map_err(|e| Problem::new(key_line(cell, "start"), e))?;
            recorder.finish().events
        }
        Lab::GameTree | Lab::Barca | Lab::Tuning => return Ok(()),
    };
    let len = events.len();
    match scene.step {
        Step::Index(index) if index > len => Err(at(format!("step {index} is past the end (the search has {len} events)"))),
        step => step.in_search(&events).map(drop).map_err(at),
    }
}

fn search_events(grid: &Grid, search: GridSearch, (sx, sy): (u32, u32), (gx, gy): (u32, u32)) -> Vec<SearchEvent> {
    let mut recorder = Recorder::new(usize::MAX);
    search.run(grid, grid.cell(sx, sy), grid.cell(gx, gy), &mut SearchSpace::new(), &mut recorder);
    recorder.finish().events
}

/// The passable cell at `(x, y)`, or why it cannot be an endpoint.
fn grid_endpoint(grid: &Grid, (x, y): (u32, u32), what: &str) -> Result<(), String> {
    if !grid.contains(i64::from(x), i64::from(y)) {
        return Err(format!("the {what} {x},{y} is outside the {}x{} map", grid.width(), grid.height()));
    }
    if !grid.is_cell_passable(grid.cell(x, y)) {
        return Err(format!("the {what} {x},{y} is a blocked cell"));
    }
    Ok(())
}

/// A problem from reading the scene, at the line of the file it names (`scene line N: ...`), else
/// at the cell's opening fence.
fn scene_problem(cell: &Cell, message: &str) -> Problem {
    let located = message.strip_prefix("scene line ").and_then(|rest| {
        let (number, text) = rest.split_once(": ")?;
        Some(Problem::new(cell.body_line(number.parse::<usize>().ok()?.checked_sub(1)?), text))
    });
    located.unwrap_or_else(|| Problem::new(cell.line, message))
}

/// The file line where the cell sets `key` (its opening fence if it does not).
fn key_line(cell: &Cell, key: &str) -> usize {
    let sets = |line: &str| line.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='));
    cell.source.lines().position(sets).map_or(cell.line, |index| cell.body_line(index))
}
