//! Checking a lecture's cells as the app would open them, without a window: the scene parses and
//! fits its lab, its map loads, its query lies on the map, and (for `searchlab lecture --check`) its
//! step exists in the search recorded as the app records it.

use std::path::Path;

use super::{CELL_TAG, Cell, Lecture, Problem};
use crate::adversarial::engine::{EngineAlgorithm, EngineResult, EngineSpec};
use crate::adversarial::mcts_trace::MctsEvent;
use crate::adversarial::tree::TreeEvent;
use crate::games::barca::Barca;
use crate::games::custom_tree::CustomTree;
use crate::games::tictactoe::TicTacToe;
use crate::games::{DefaultEval, Game};
use crate::grid::Grid;
use crate::navmesh::grid_outline::{said_of_cell, snap_to_cell};
use crate::navmesh::search::PreparedMesh;
use crate::navmesh::tastar::locate_free;
use crate::pathfinding::planner::Planner;
use crate::pathfinding::search_trace::SearchEvent;
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::scene::{GameKind, Lab, LogSource, MapSource, Replayed, RunSpec, Scene, field_index};
use crate::text::quote;
use crate::tournament::TuneLog;
use crate::trace::{Progress, Recorder, Trace, Watched};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Every bad cell of `lecture` (relative map paths start at `base`) and every warning, in file
/// order: the lecture's own (see [`Lecture::warnings`]), one for a lecture without cells, and a cell's
/// that opens where its recording stops. Steps are checked against the search recorded as the app
/// records it (with the same cap on events), so this runs each cell's search once.
pub fn check(lecture: &Lecture, base: &Path) -> Vec<Problem> {
    let mut problems = Vec::new();
    if lecture.cells().next().is_none() {
        problems.push(Problem::warning(
            1,
            format!("the lecture has no live cells: a cell is a fenced block tagged ```{CELL_TAG}"),
        ));
    }
    problems.extend(lecture.warnings.iter().cloned());
    for cell in lecture.cells() {
        match read_cell(cell, base).and_then(|(scene, read)| check_step(cell, &scene, read)) {
            Ok(warning) => problems.extend(warning),
            Err(problem) => problems.push(problem),
        }
    }
    problems.sort_by_key(|problem| problem.line);
    problems
}

/// The cell's scene, its map paths resolved against `base`, or its first problem: everything its
/// page would refuse (a planner the map cannot take, as JPS on weighted cells; a polygon query
/// point in an obstacle), so the notebook and `lecture --check` refuse the same cells. Loads the
/// map (triangulated for a polygon query) but searches nothing: the notebook calls it for every
/// cell when a lecture loads.
pub fn check_cell(cell: &Cell, base: &Path) -> Result<Scene, Problem> {
    read_cell(cell, base).map(|(scene, _)| scene)
}

/// What checking a cell read, so that `--check` records the cell's search without reading its
/// map again (a 512x512 random grid map takes a quarter of a second to triangulate).
enum Read {
    Grid(Grid),
    /// The polygon map prepared for the cell's query, and the grid it was traced from, if any.
    Mesh(Box<PreparedMesh>, Option<Grid>),
    Nothing,
}

/// [`check_cell`], with what it read.
fn read_cell(cell: &Cell, base: &Path) -> Result<(Scene, Read), Problem> {
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
            let Some(grid) = scene.load_grid().map_err(|e| map_problem(cell, &scene, e))? else {
                return Ok((scene, Read::Nothing));
            };
            if let Some((start, goal)) = scene.cells().map_err(|e| at(e.field)(e.message))? {
                grid_endpoint(&grid, start, "start").map_err(at("start"))?;
                grid_endpoint(&grid, goal, "goal").map_err(at("goal"))?;
            }
            for (key, planner) in grid_planners(&scene) {
                planner.check(&grid).map_err(at(key))?;
            }
            return Ok((scene, Read::Grid(grid)));
        }
        Lab::Polygon => {
            let Some(map) = scene.load_polygon_map().map_err(|e| map_problem(cell, &scene, e))? else {
                return Ok((scene, Read::Nothing));
            };
            if let (Some(start), Some(goal)) = (scene.start, scene.goal) {
                let search = scene.mesh_search().unwrap_or_default();
                let prepared = search.prepare(&map.outline).map_err(at("spec"))?;
                for (key, point) in [("start", start), ("goal", goal)] {
                    // On a grid map the author named a cell: said of it, not of its centre.
                    let (x, y) = (point[0].floor() as i64, point[1].floor() as i64);
                    if map.grid.as_ref().is_some_and(|grid| grid.contains(x, y) && !grid.is_passable(x, y)) {
                        return Err(at(key)(format!("{key} cell {x},{y} is blocked")));
                    }
                    locate_free(&prepared.mesh, snap_to_cell(map.grid.as_ref(), point), search.radius, key)
                        .map_err(|e| if map.grid.is_some() { said_of_cell(e, key, (x, y)) } else { e })
                        .map_err(at(key))?;
                }
                return Ok((scene, Read::Mesh(Box::new(prepared), map.grid)));
            }
        }
        Lab::GameTree | Lab::Barca => {
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
                Some(LogSource::Path(path)) => Some(
                    crate::files::read_text(path.as_ref(), crate::files::MAX_TEXT)
                        .map_err(|e| at("map")(e.at(path)))?,
                ),
                Some(LogSource::Inline(text)) => Some(text.to_string()),
                Some(LogSource::Bundled) | None => None,
            };
            if let Some(text) = text {
                TuneLog::from_json(&text).map_err(at("map"))?;
            }
        }
    }
    Ok((scene, Read::Nothing))
}

/// The planners a grid or hierarchical cell runs, with the field that names each. The grid lab
/// runs its second search under the first one's move rules.
fn grid_planners(scene: &Scene) -> Vec<(&'static str, Planner)> {
    let planner = |spec: Option<RunSpec>| match spec {
        Some(RunSpec::Planner(planner)) => Some(planner),
        _ => None,
    };
    let (first, mut second) = (planner(scene.spec), planner(scene.compare));
    if let (Lab::Grid, Some(first), Some(second)) = (scene.lab, first, &mut second) {
        second.rules = first.rules;
    }
    [("spec", first), ("compare", second)].into_iter().filter_map(|(key, planner)| Some((key, planner?))).collect()
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

/// Records the cell's search as its page does and checks that its step is in it (grid and polygon
/// cells that give their query, game-tree cells that give their position or tree; other cells
/// leave the query to their page); a warning when the step is the end of a recording that stops
/// before its search does.
fn check_step(cell: &Cell, scene: &Scene, read: Read) -> Result<Option<Problem>, Problem> {
    let line = key_line(cell, "step");
    let step = scene.step;
    let resolved = |resolved: Result<usize, String>, warning: Option<String>| match resolved {
        Ok(_) => Ok(warning.map(|warning| Problem::warning(line, warning))),
        Err(message) => Err(Problem::new(line, message)),
    };
    match scene.lab {
        Lab::Grid | Lab::Hierarchical => {
            let (Read::Grid(grid), Some((start, goal))) = (read, scene.cells().ok().flatten()) else {
                return Ok(None);
            };
            if let (Some(Replayed::Planner), Some(RunSpec::Planner(planner))) = (scene.replay, scene.spec) {
                let prepared = planner.prepare(&grid).map_err(|e| Problem::new(key_line(cell, "spec"), e))?;
                let mut recorder = Recorder::default();
                let (start, goal) = (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1));
                planner.query(&prepared, &grid, start, goal, &mut SearchSpace::new(), &mut recorder);
                let trace = recorder.finish();
                return resolved(step.in_plan(&trace), step.warning(&trace));
            }
            // The page steps through the flat search; the hierarchical lab's is its second spec.
            let flat = if scene.lab == Lab::Hierarchical { scene.compare } else { scene.spec };
            let search = match flat {
                Some(RunSpec::Planner(planner)) => planner.grid_search().unwrap_or_default(),
                _ => GridSearch::default(),
            };
            let trace = search_trace(&grid, search, start, goal);
            resolved(step.in_search(&trace), step.warning(&trace))
        }
        Lab::Polygon => {
            let (Read::Mesh(prepared, grid), Some(start), Some(goal)) = (read, scene.start, scene.goal) else {
                return Ok(None);
            };
            let mut recorder = Recorder::default();
            let snap = |point| snap_to_cell(grid.as_ref(), point);
            prepared.query(snap(start), snap(goal), &mut recorder).map_err(|e| {
                // The search names the endpoint at fault first.
                let field = if e.starts_with("goal") { "goal" } else { "start" };
                Problem::new(key_line(cell, field), e)
            })?;
            let trace = recorder.finish();
            resolved(step.in_search(&trace), step.warning(&trace))
        }
        Lab::GameTree => match game_tree_trace(scene) {
            None => Ok(None),
            Some(Err(message)) => Err(Problem::new(line, message)),
            Some(Ok(Recorded::Tree(trace))) => resolved(step.in_tree(&trace), step.warning(&trace)),
            Some(Ok(Recorded::Mcts(trace))) => resolved(step.in_mcts(&trace), step.warning(&trace)),
        },
        // The Barca page opens on its position (its step is always the end); a tuning log has no steps.
        Lab::Barca | Lab::Tuning => Ok(None),
    }
}

/// How long `--check` lets a game-tree cell's search run to find its step.
pub const TREE_CHECK_TIME: Duration = Duration::from_secs(20);

/// A game-tree search's recording: a tree search's or UCT's.
enum Recorded {
    Tree(Trace<TreeEvent>),
    Mcts(Trace<MctsEvent>),
}

/// The game-tree cell's search, recorded as the page records it; `None` for a cell with no
/// position or tree (the page's own is searched).
fn game_tree_trace(scene: &Scene) -> Option<Result<Recorded, String>> {
    let default = || EngineSpec::depth(EngineAlgorithm::AlphaBeta, 9);
    let engine = scene.engine().unwrap_or_else(default);
    if let Some(text) = &scene.tree {
        let tree = CustomTree::parse(text).ok()?;
        // The page searches a typed-in tree to its deepest leaf.
        let engine = EngineSpec { depth: Some(tree.root().height() as u32), ..engine };
        return Some(record(&tree, &engine));
    }
    let text = scene.position.as_deref()?;
    match TicTacToe::from_position(text) {
        Ok(game) => Some(record(&game, &engine)),
        Err(_) => Some(record(&Barca::from_fen(text.trim()).ok()?, &engine)),
    }
}

/// Records `engine` on `game` as the game-tree lab does (UCT seeded as there), stopped after
/// [`TREE_CHECK_TIME`].
fn record<G: Game>(game: &G, engine: &EngineSpec) -> Result<Recorded, String> {
    let progress = Progress::default();
    let (done, finished) = mpsc::channel::<()>();
    let watched = &progress;
    let (searched, stopped) = std::thread::scope(|scope| {
        scope.spawn(move || {
            if finished.recv_timeout(TREE_CHECK_TIME) == Err(RecvTimeoutError::Timeout) {
                watched.stop();
            }
        });
        let mut tree = Watched::new(Recorder::default(), &progress);
        let mut mcts = Watched::new(Recorder::default(), &progress);
        let mut id = EngineSpec::id_engine(16);
        let searched = engine.search(game, &DefaultEval, &mut id, &mut tree, &mut mcts);
        drop(done);
        let recorded = searched.map(|result| match result {
            EngineResult::Tree(_) => Recorded::Tree(tree.into_inner().finish()),
            EngineResult::Uct(_) => Recorded::Mcts(mcts.into_inner().finish()),
        });
        (recorded, progress.is_stopped())
    });
    if stopped {
        let seconds = TREE_CHECK_TIME.as_secs();
        return Err(format!("the search ran longer than {seconds} s, so its step could not be checked"));
    }
    searched
}

/// The search's recording, capped as the grid lab caps it.
fn search_trace(grid: &Grid, search: GridSearch, (sx, sy): (u32, u32), (gx, gy): (u32, u32)) -> Trace<SearchEvent> {
    let mut recorder = Recorder::default();
    search.run(grid, grid.cell(sx, sy), grid.cell(gx, gy), &mut SearchSpace::new(), &mut recorder);
    recorder.finish()
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
/// at the cell's opening fence; other scene lines it names become the file's too.
fn scene_problem(cell: &Cell, message: &str) -> Problem {
    const NAMED: &str = "scene line ";
    let file_line = |number: &str| Some(cell.body_line(number.parse::<usize>().ok()?.checked_sub(1)?));
    let located = message.strip_prefix(NAMED).and_then(|rest| {
        let (number, text) = rest.split_once(": ")?;
        Some((file_line(number)?, text))
    });
    let (line, text) = located.unwrap_or((cell.line, message));
    let mut text = text.to_string();
    while let Some(at) = text.find(NAMED) {
        let number = at + NAMED.len();
        let end = number + text[number..].chars().take_while(char::is_ascii_digit).count();
        let Some(line) = file_line(&text[number..end]) else { break };
        text.replace_range(at..end, &format!("line {line}"));
    }
    Problem::new(line, text)
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
