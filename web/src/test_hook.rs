//! `?test=NAME`: the page runs a known piece of work through the app's job mechanism and writes
//! the outcome as one JSON line on the console, for `web/test.py` to check against independent
//! figures (a canvas has no text to read).
//! - `grid-astar`: A* on the bundled maze's longest MovingAI query, in a Web Worker.
//! - `long-job`: Dijkstra recorded on random512 in a Web Worker while the page times its frames;
//!   the job is cancelled [`LONG_JOB_WATCH_MS`] after its first progress report.

use std::path::Path;

use searchlab::app::SearchlabApp;
use searchlab::app::grid_lab::GridJob;
use searchlab::app::worker::{Job, Request, Response};
use searchlab::grid::movingai;
use searchlab::pathfinding::{Algorithm, GridSearch};
use searchlab::scene::Scene;
use wasm_bindgen::JsValue;

use crate::log;

/// The bundled map the grid test searches, and its MovingAI scenarios (with optimal lengths).
const GRID_MAP: &str = "maze64.map";
/// The bundled map the long job searches.
const LONG_MAP: &str = "random512.map";
/// How long the page draws frames beside the long job, once it runs, before cancelling it.
const LONG_JOB_WATCH_MS: f64 = 1000.0;
/// The long job gives up waiting for the worker's first report after this long.
const LONG_JOB_PATIENCE_MS: f64 = 30_000.0;

pub enum TestHook {
    GridAstar(GridAstar),
    LongJob(LongJob),
}

impl TestHook {
    pub fn new(name: &str) -> Result<TestHook, JsValue> {
        match name {
            "grid-astar" => Ok(TestHook::GridAstar(GridAstar::new()?)),
            "long-job" => Ok(TestHook::LongJob(LongJob::new()?)),
            _ => Err(format!("?test={name}: the test hooks are grid-astar and long-job").into()),
        }
    }

    pub fn update(&mut self, app: &mut SearchlabApp, ctx: &egui::Context) {
        match self {
            TestHook::GridAstar(hook) => hook.update(app, ctx),
            TestHook::LongJob(hook) => hook.update(ctx),
        }
    }
}

/// The last (longest) query of a bundled map's `.scen` file: the map, start and goal cells.
fn last_query(map: &str) -> Result<(searchlab::grid::Grid, (u32, u32), (u32, u32)), String> {
    let grid = movingai::load_map(Path::new(&format!("maps/{map}"))).map_err(|e| e.to_string())?;
    let scen = format!("maps/{map}.scen");
    let scenarios = movingai::load_scen(Path::new(&scen)).map_err(|e| e.to_string())?;
    let last = scenarios.last().ok_or_else(|| format!("{scen}: no scenarios"))?;
    Ok((grid, last.start, last.goal))
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

pub struct GridAstar {
    scene: Scene,
    request: Option<Request>,
    job: Option<Job>,
    query: ((u32, u32), (u32, u32)),
    done: bool,
}

impl GridAstar {
    fn new() -> Result<GridAstar, JsValue> {
        let (grid, start, goal) = last_query(GRID_MAP)?;
        let scene = Scene::from_toml(&format!(
            "version = 1\nlab = \"grid\"\nmap = {{ bundled = \"{GRID_MAP}\" }}\nspec = \"astar\"\n\
             start = [{}, {}]\ngoal = [{}, {}]\nstep = \"end\"\n",
            start.0, start.1, goal.0, goal.1
        ))?;
        let planner = scene.planner().ok_or("the scene names no planner")?;
        let search = planner.grid_search().ok_or("the planner is not a flat grid search")?;
        let (s, g) = (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1));
        let request = Request::Grid(GridJob::new(grid, vec![search], s, g));
        Ok(GridAstar { scene, request: Some(request), job: None, query: (start, goal), done: false })
    }

    /// Starts the search on the first frame, shows its scene, and reports once it is in.
    fn update(&mut self, app: &mut SearchlabApp, ctx: &egui::Context) {
        if self.done {
            return;
        }
        if let Some(request) = self.request.take() {
            self.job = Some(Job::start("test: grid A*", Some(ctx.clone()), request));
            app.open_scene(&self.scene);
            return;
        }
        let Some(job) = &self.job else { return };
        let Some(response) = job.poll() else { return };
        self.done = true;
        let Response::Grid(Some(recorded)) = response else {
            return web_sys::console::error_1(&"?test=grid-astar: no recording came back".into());
        };
        let replay = &recorded.replays()[0];
        let cost = replay.result.cost().map_or("null".to_string(), |cost| format!("{cost:.8}"));
        let ((sx, sy), (gx, gy)) = self.query;
        let ran_in = job.ran_in().map_or("nowhere", |place| place.name());
        log(&format!(
            r#"{{"test":"grid-astar","map":"{GRID_MAP}","start":[{sx},{sy}],"goal":[{gx},{gy}],"cost":{cost},"expanded":{},"events":{},"ran_in":"{ran_in}","ms":{}}}"#,
            replay.result.expanded,
            replay.player.len(),
            job.elapsed().as_millis()
        ));
    }
}

pub struct LongJob {
    request: Option<Request>,
    job: Option<Job>,
    started: f64,
    /// When the first progress report arrived: the worker runs.
    running: Option<f64>,
    /// When each frame began while the job ran.
    frames: Vec<f64>,
    done: bool,
}

impl LongJob {
    fn new() -> Result<LongJob, JsValue> {
        let (grid, start, goal) = last_query(LONG_MAP)?;
        let search = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
        let (s, g) = (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1));
        let request = Request::Grid(GridJob::new(grid, vec![search], s, g));
        Ok(LongJob { request: Some(request), job: None, started: 0.0, running: None, frames: Vec::new(), done: false })
    }

    /// Draws frames as fast as the page allows while the job runs, then cancels it and reports.
    fn update(&mut self, ctx: &egui::Context) {
        if self.done {
            return;
        }
        let now = now_ms();
        ctx.request_repaint();
        if let Some(request) = self.request.take() {
            self.started = now;
            self.job = Some(Job::start("test: Dijkstra on random512", Some(ctx.clone()), request));
            return;
        }
        let Some(job) = &self.job else { return };
        if self.running.is_none() && job.progress().done() > 0 {
            self.running = Some(now);
        }
        if self.running.is_some() {
            self.frames.push(now);
        }
        let finished = job.poll().is_some();
        let watched = self.running.map_or(now - self.started < LONG_JOB_PATIENCE_MS, |running| now - running < LONG_JOB_WATCH_MS);
        if !finished && watched {
            return;
        }
        let (done, fraction) = (job.progress().done(), job.progress().fraction().unwrap_or(0.0));
        let cancelling = now_ms();
        self.job = None;
        let cancel_ms = now_ms() - cancelling;
        self.done = true;
        let gaps: Vec<f64> = self.frames.windows(2).map(|w| w[1] - w[0]).collect();
        let max_gap = gaps.iter().copied().fold(0.0, f64::max);
        let mean_gap = if gaps.is_empty() { 0.0 } else { gaps.iter().sum::<f64>() / gaps.len() as f64 };
        log(&format!(
            r#"{{"test":"long-job","map":"{LONG_MAP}","finished":{finished},"first_report_ms":{},"frames":{},"mean_gap_ms":{mean_gap:.1},"max_gap_ms":{max_gap:.1},"watched_ms":{:.0},"progress_done":{done},"progress_fraction":{fraction:.3},"cancel_ms":{cancel_ms:.2}}}"#,
            self.running.map_or("null".to_string(), |running| format!("{:.0}", running - self.started)),
            self.frames.len(),
            self.frames.last().zip(self.frames.first()).map_or(0.0, |(last, first)| last - first)
        ));
    }
}
