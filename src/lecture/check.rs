//! Checking a lecture's cells as the app would open them, without a window: the scene parses and
//! fits its lab, its map loads, its query lies on the map, and (for `searchlab lecture --check`) its
//! step exists in the search recorded as the app records it.

use std::path::Path;

use super::values::{self, Values};
use super::{CELL_TAG, Cell, Lecture, Problem, expect};
use crate::adversarial::engine::{EngineAlgorithm, UCT_DEFAULT_ITERATIONS};
use crate::adversarial::recording::{Recording, Replay, SearchSpec, record};
use crate::games::GameKind;
use crate::games::barca::Barca;
use crate::grid::Grid;
use crate::navmesh::grid_outline::{said_of_cell, snap_to_cell};
use crate::navmesh::search::{MeshRecorder, PreparedMesh};
use crate::navmesh::tastar::locate_free;
use crate::pathfinding::mapf::MapfSpec;
use crate::pathfinding::mapf::agents::{Agent, from_corners};
use crate::pathfinding::planner::Planner;
use crate::pathfinding::search_trace::SearchEvent;
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::scene::{Lab, LogSource, MapSource, Replayed, RunSpec, Scene, field_index};
use crate::text::quote;
use crate::tournament::TuneLog;
use crate::trace::{Progress, Recorder, Trace};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Every bad cell of `lecture` (relative map paths start at `base`) and every warning, in file
/// order: the lecture's own (see [`Lecture::warnings`]), one for a lecture without cells, and a cell's
/// that opens where its recording stops. Steps are checked against the search recorded as the app
/// records it (with the same cap on events), so this runs each cell's search once.
pub fn check(lecture: &Lecture, base: &Path) -> Vec<Problem> {
    let mut problems = check_lecture(lecture);
    problems.extend(cell_values(lecture, base).into_iter().flat_map(|cell| cell.problems));
    problems.sort_by_key(|problem| problem.line);
    problems
}

/// The problems of the lecture as a whole, before its cells': its own warnings (see
/// [`Lecture::warnings`]), and one when it has no cells.
pub fn check_lecture(lecture: &Lecture) -> Vec<Problem> {
    let mut problems = Vec::new();
    if lecture.cells().next().is_none() {
        problems.push(Problem::warning(
            1,
            format!("the lecture has no live cells: a cell is a fenced block tagged ```{CELL_TAG}"),
        ));
    }
    problems.extend(lecture.warnings.iter().cloned());
    problems
}

/// One cell checked: what its recording measures, and its problems.
pub struct CellValues {
    /// The line of the cell's opening fence.
    pub line: usize,
    pub values: Values,
    pub problems: Vec<Problem>,
}

/// Every cell of `lecture` checked and measured, in file order (see [`check`]).
pub fn cell_values(lecture: &Lecture, base: &Path) -> Vec<CellValues> {
    lecture.cells().map(|cell| measure_cell(cell, base)).collect()
}

/// One cell checked and measured, as [`cell_values`] does for each (the notebook does it for a
/// cell it shows).
pub fn measure_cell(cell: &Cell, base: &Path) -> CellValues {
    let (values, problems) =
        match read_cell(cell, base).and_then(|(scene, read)| Ok((record_cell(cell, &scene, read)?, scene))) {
            Ok((Some(recorded), scene)) => {
                let problems = recorded_problems(cell, &scene, &recorded);
                (recorded.values, problems)
            }
            Ok((None, scene)) if !scene.expect.is_empty() => {
                let why = "expect: this cell measures nothing: it gives no query (start and goal), position or tree";
                (Values::new(), vec![Problem::new(key_line(cell, "expect"), why)])
            }
            Ok((None, _)) => (Values::new(), Vec::new()),
            Err(problem) => (Values::new(), vec![problem]),
        };
    CellValues { line: cell.line, values, problems }
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
    /// A multi-agent cell's map and agents.
    Agents(Grid, Vec<Agent>),
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
            if let Some([start, goal]) = scene.cells().map_err(|e| at(e.field)(e.message))? {
                grid.endpoint(start, "start").map_err(at("start"))?;
                grid.endpoint(goal, "goal").map_err(at("goal"))?;
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
        Lab::Agents => {
            let Some(grid) = scene.load_grid().map_err(|e| map_problem(cell, &scene, e))? else {
                return Ok((scene, Read::Nothing));
            };
            let agents = from_corners(&scene.agents, &grid).map_err(at("agents"))?;
            return Ok((scene, Read::Agents(grid, agents)));
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
        // Its question is generated when the scene is read (see the quiz lab's page rules).
        Lab::Quiz => {}
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

/// Whether `text` is a game-tree position with something to search (a game's position, the game
/// not over), else why: the parser's reason for the game the text looks like.
pub fn check_position(text: &str) -> Result<(), String> {
    let game = GameKind::of_position(text).unwrap_or(GameKind::TicTacToe);
    game.parse(text).map_err(|e| format!("'{}': {e}", quote(text)))?.searchable().map(drop)
}

fn read_fen(text: &str) -> Result<Barca, String> {
    Barca::from_fen(text.trim()).map_err(|e| format!("'{}': {e}", quote(text)))
}

/// A cell's search recorded as its page records it: where its step lands, and what it measures.
pub struct Recorded {
    /// The number of events to replay to the step, or why the step is not in the recording.
    step: Result<usize, String>,
    /// What to tell the author about the step though it opens (see [`crate::scene::Step::warning`]).
    warning: Option<String>,
    pub values: Values,
}

/// The problems with a recorded cell: a step not in its recording (or a warning about it), and
/// each `expect` entry its values do not show.
fn recorded_problems(cell: &Cell, scene: &Scene, recorded: &Recorded) -> Vec<Problem> {
    let line = key_line(cell, "step");
    let mut problems = match &recorded.step {
        Ok(_) => recorded.warning.iter().map(|warning| Problem::warning(line, warning.clone())).collect(),
        Err(message) => vec![Problem::new(line, message.clone())],
    };
    problems.extend(expect::mismatches(cell, &scene.expect, &recorded.values));
    problems
}

/// Records the cell's search as its page does (grid and polygon cells that give their query,
/// game-tree cells that give their position or tree); `None` for other cells, which leave the
/// query to their page and so measure nothing.
fn record_cell(cell: &Cell, scene: &Scene, read: Read) -> Result<Option<Recorded>, Problem> {
    let step = scene.step;
    let done = |resolved: Result<usize, String>, warning: Option<String>, values: Values| {
        Ok(Some(Recorded { step: resolved, warning, values }))
    };
    match scene.lab {
        Lab::Grid | Lab::Hierarchical => {
            let (Read::Grid(grid), Some([start, goal])) = (read, scene.cells().ok().flatten()) else {
                return Ok(None);
            };
            let (start, goal) = (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1));
            let mut values = Values::new();
            let (mut plan, mut flat) = (None, Vec::new());
            for (key, planner) in grid_planners(scene) {
                let prefix = if key == "spec" { "" } else { "compare_" };
                match planner.grid_search() {
                    Some(search) => {
                        let mut recorder = Recorder::default();
                        let result = search.run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
                        values::search_values(prefix, &result, &mut values);
                        flat.push((key, recorder.finish()));
                    }
                    None => {
                        let prepared = planner.prepare(&grid).map_err(|e| Problem::new(key_line(cell, key), e))?;
                        let mut recorder = Recorder::default();
                        let answer =
                            planner.query(&prepared, &grid, start, goal, &mut SearchSpace::new(), &mut recorder);
                        values::answer_values(prefix, &answer, &mut values);
                        plan = Some(recorder.finish());
                    }
                }
            }
            if let (Some(Replayed::Planner), Some(trace)) = (scene.replay, &plan) {
                return done(step.in_plan(trace), step.warning(trace), values);
            }
            // The page steps through the flat search (the hierarchical lab's is its second spec),
            // A* when the cell names none.
            let key = if scene.lab == Lab::Hierarchical { "compare" } else { "spec" };
            let trace = match flat.into_iter().find(|(field, _)| *field == key) {
                Some((_, trace)) => trace,
                None => search_trace(&grid, GridSearch::default(), start, goal),
            };
            done(step.in_search(&trace), step.warning(&trace), values)
        }
        Lab::Polygon => {
            let (Read::Mesh(prepared, grid), Some(start), Some(goal)) = (read, scene.start, scene.goal) else {
                return Ok(None);
            };
            let mut recorder = MeshRecorder::default();
            let snap = |point| snap_to_cell(grid.as_ref(), point);
            let result = prepared.query(snap(start), snap(goal), &mut recorder).map_err(|e| {
                // The search names the endpoint at fault first.
                let field = if e.starts_with("goal") { "goal" } else { "start" };
                Problem::new(key_line(cell, field), e)
            })?;
            let mut values = Values::new();
            values::mesh_values(&result, prepared.polygons.as_ref(), &mut values);
            // Polyanya's recording, or the triangle search's.
            let (search, intervals) = (recorder.search.finish(), recorder.polyanya.finish());
            match prepared.polygons {
                Some(_) => done(step.in_polyanya(&intervals), step.warning(&intervals), values),
                None => done(step.in_search(&search), step.warning(&search), values),
            }
        }
        Lab::GameTree => match game_tree_recording(scene) {
            None => Ok(None),
            Some(Err(message)) => Err(Problem::new(key_line(cell, "step"), message)),
            Some(Ok(mut recording)) => {
                let (resolved, warning) = match &recording.replay {
                    Replay::Tree(replay) => {
                        let trace = replay.player.trace();
                        (step.in_tree(trace), step.warning(trace))
                    }
                    Replay::Mcts(replay) => {
                        let trace = replay.player.trace();
                        (step.in_mcts(trace), step.warning(trace))
                    }
                };
                let mut values = Values::new();
                values::game_tree_values(&mut recording, &mut values);
                done(resolved, warning, values)
            }
        },
        Lab::Agents => {
            let Read::Agents(grid, agents) = read else { return Ok(None) };
            if agents.is_empty() {
                return Ok(None);
            }
            let mut recorder = Recorder::default();
            let plan = scene.mapf_spec().unwrap_or(MapfSpec::Cooperative).plan(&grid, &agents, &mut recorder);
            let trace = recorder.finish();
            let mut values = Values::new();
            values::agents_values(&plan, &mut values);
            done(step.in_agents(&trace), step.warning(&trace), values)
        }
        // The Barca page opens on its position (its step is always the end); a tuning log has no steps.
        Lab::Barca | Lab::Tuning | Lab::Quiz => Ok(None),
    }
}

/// How long `--check` lets a game-tree cell's search run to find its step.
pub const TREE_CHECK_TIME: Duration = Duration::from_secs(20);

/// The game-tree cell's search, recorded as the page records it; `None` for a cell with no
/// position or tree (the page's own is searched).
fn game_tree_recording(scene: &Scene) -> Option<Result<Recording, String>> {
    scene.position.as_ref().or(scene.tree.as_ref())?;
    let default = SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 9, iterations: UCT_DEFAULT_ITERATIONS };
    let (position, spec) = match crate::scene::game_tree_request(scene, (GameKind::TicTacToe, ""), default) {
        Ok(request) => request,
        Err(message) => return Some(Err(message)),
    };
    let progress = Progress::default();
    let (done, finished) = mpsc::channel::<()>();
    let watched = &progress;
    let recording = std::thread::scope(|scope| {
        scope.spawn(move || {
            if finished.recv_timeout(TREE_CHECK_TIME) == Err(RecvTimeoutError::Timeout) {
                watched.stop();
            }
        });
        let recording = record(position, spec, &progress);
        drop(done);
        recording
    });
    Some(recording.ok_or_else(|| {
        let seconds = TREE_CHECK_TIME.as_secs();
        format!("the search ran longer than {seconds} s, so its step could not be checked")
    }))
}

/// The search's recording, capped as the grid lab caps it.
fn search_trace(grid: &Grid, search: GridSearch, start: u32, goal: u32) -> Trace<SearchEvent> {
    let mut recorder = Recorder::default();
    search.run(grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    recorder.finish()
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
