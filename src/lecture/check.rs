//! Checking a lecture's cells as the app would open them, without a window: the scene parses and
//! fits its lab, its map loads, its query lies on the map, and (for `searchlab lecture --check`) its
//! step exists in the recorded search.

use std::path::Path;

use super::{Cell, Lecture, Problem};
use crate::games::barca::Barca;
use crate::games::tictactoe::TicTacToe;
use crate::text::quote;
use crate::grid::Grid;
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::scene::{GameKind, Lab, LogSource, MapSource, RunSpec, Scene, Step, field_index};
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::{NoTrace, Progress, Recorder, Watched};
use crate::adversarial::engine::{EngineAlgorithm, EngineSpec};
use crate::adversarial::tree::TreeEvent;
use crate::games::custom_tree::CustomTree;
use crate::games::{DefaultEval, Game};
use crate::tournament::TuneLog;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

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
            let Some(grid) = scene.load_grid().map_err(|e| map_problem(cell, &scene, e))? else { return Ok(scene) };
            if let Some((start, goal)) = scene.cells().map_err(at("start"))? {
                grid_endpoint(&grid, start, "start").map_err(at("start"))?;
                grid_endpoint(&grid, goal, "goal").map_err(at("goal"))?;
            }
        }
        Lab::Polygon => {
            scene.load_outline().map_err(|e| map_problem(cell, &scene, e))?;
        }
        Lab::GameTree | Lab::Barca => {
            if let Some(text) = &scene.tree {
                CustomTree::parse(text).map_err(|e| at("tree")(format!("tree: {e}")))?;
            }
            if let Some(text) = &scene.position {
                let parsed = match scene.lab {
                    Lab::Barca => read_fen(text).map(drop),
                    _ => check_position(text),
                };
                parsed.map_err(at("position"))?;
            }
        }
        Lab::Tuning => {
            let text = match scene.tuning_log().map_err(at("map"))? {
                Some(LogSource::Path(path)) => Some(crate::files::read_text(path.as_ref(), crate::files::MAX_TEXT).map_err(|e| at("map")(e.at(path)))?),
                Some(LogSource::Inline(text)) => Some(text.to_string()),
                Some(LogSource::Bundled) | None => None,
            };
            if let Some(text) = text {
                TuneLog::from_json(&text).map_err(at("map"))?;
            }
        }
    }
    Ok(scene)
}

/// Whether `text` is a game-tree position with something to search (a tic-tac-toe board or a Barca
/// FEN, the game not over), else why: the parser's reason for the game the text looks like.
pub fn check_position(text: &str) -> Result<(), String> {
    let game = GameKind::of_position(text);
    let outcome = match game {
        GameKind::Barca => read_fen(text)?.outcome(),
        _ => TicTacToe::from_position(text)?.outcome(),
    };
    game.searchable(outcome)
}

fn read_fen(text: &str) -> Result<Barca, String> {
    Barca::from_fen(text.trim()).map_err(|e| format!("'{}': {e}", quote(text)))
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
        Lab::GameTree => {
            let events = match game_tree_events(scene) {
                Some(events) => events.map_err(at)?,
                None => return Ok(()),
            };
            return scene.step.in_tree(&events).map(drop).map_err(at);
        }
        Lab::Barca | Lab::Tuning => return Ok(()),
    };
    scene.step.in_search(&events).map(drop).map_err(at)
}

/// How long `--check` lets a game-tree cell's search run to find its step.
pub const TREE_CHECK_TIME: Duration = Duration::from_secs(20);

/// The events of the game-tree cell's search, recorded as the page records it; `None` for cells
/// whose step the check leaves to the page (no position given, or UCT, whose playouts the page sets).
fn game_tree_events(scene: &Scene) -> Option<Result<Vec<TreeEvent>, String>> {
    let default = || EngineSpec::depth(EngineAlgorithm::AlphaBeta, 9);
    let engine = scene.engine().unwrap_or_else(default);
    if engine.algorithm == EngineAlgorithm::Uct || scene.step == Step::End {
        return None;
    }
    if let Some(text) = &scene.tree {
        let tree = CustomTree::parse(text).ok()?;
        // The page searches a typed-in tree to its deepest leaf.
        let engine = EngineSpec { depth: Some(tree.root().height() as u32), ..engine };
        return Some(tree_events(&tree, &engine));
    }
    let text = scene.position.as_deref()?;
    match TicTacToe::from_position(text) {
        Ok(game) => Some(tree_events(&game, &engine)),
        Err(_) => Some(tree_events(&Barca::from_fen(text.trim()).ok()?, &engine)),
    }
}

/// Records `engine` on `game`, stopped after [`TREE_CHECK_TIME`].
fn tree_events<G: Game>(game: &G, engine: &EngineSpec) -> Result<Vec<TreeEvent>, String> {
    let progress = Progress::default();
    let (done, finished) = mpsc::channel::<()>();
    let watched = &progress;
    let (recorder, stopped) = std::thread::scope(|scope| {
        scope.spawn(move || {
            if finished.recv_timeout(TREE_CHECK_TIME) == Err(RecvTimeoutError::Timeout) {
                watched.stop();
            }
        });
        let mut tracer = Watched::new(Recorder::default(), &progress);
        let mut id = EngineSpec::id_engine(16);
        let searched = engine.search(game, &DefaultEval, &mut id, &mut tracer, &mut NoTrace);
        drop(done);
        (searched.map(|_| tracer.into_inner()), progress.is_stopped())
    });
    if stopped {
        let seconds = TREE_CHECK_TIME.as_secs();
        return Err(format!("the search ran longer than {seconds} s, so its step could not be checked"));
    }
    Ok(recorder?.finish().events)
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
    key_index(cell, key).map_or(cell.line, |index| cell.body_line(index))
}

/// The line of the cell's body that sets `key`.
fn key_index(cell: &Cell, key: &str) -> Option<usize> {
    field_index(&cell.source, key)
}

/// A problem with the scene's map, at the lecture's line: an inline map's own line numbers
/// ("the scene's map:7: ...", as [`Scene::load_grid`] names it) become the file's.
fn map_problem(cell: &Cell, scene: &Scene, message: String) -> Problem {
    let inline = || {
        let Some(MapSource::Inline(text)) = &scene.map else { return None };
        let (number, reason) = message.strip_prefix("the scene's map:")?.split_once(": ")?;
        let number = number.parse::<usize>().ok()?.checked_sub(1)?;
        // The map's first line sits on the `map =` line or below it.
        let first = text.lines().next().map(str::trim).filter(|line| !line.is_empty())?;
        let key = key_index(cell, "map")?;
        let start = key + cell.source.lines().skip(key).position(|line| line.trim_end().ends_with(first))?;
        Some(Problem::new(cell.body_line(start + number), format!("the scene's map: {reason}")))
    };
    inline().unwrap_or_else(|| Problem::new(key_line(cell, "map"), message.clone()))
}
