//! `?test=NAME`: the page runs a known piece of work through the app's job mechanism and writes
//! the outcome as one JSON line on the console, for `web/test.py` to check against independent
//! figures (a canvas has no text to read).
//! - `grid-astar`: A* on the bundled maze's longest MovingAI query, in a Web Worker.
//! - `long-job`: the computer's Barca move, deepening in a Web Worker while the page times its
//!   frames; [`LONG_JOB_WATCH_MS`] after its first progress report the page stops it, as "Stop"
//!   does, and it answers with the best move so far. Then it starts and stops [`RESTARTS`] more
//!   such jobs, one after the other, so the test can count the workers left.
//! - `barca-uct`: the Barca page's computer, UCT at Hard, plays [`UCT_MOVES`] moves against itself
//!   as the page does (its kept tree carries over from move to move, in its Web Worker), then one
//!   stopped early and one more, while the page times its frames, each move's start and the
//!   largest messages to and from the workers.
//! - `steps`: the page as it is, with a line each time the shown page's replay step changes, so
//!   taps on a phone are checked by what they step.

use std::path::Path;

use searchlab::adversarial::choice::Difficulty;
use searchlab::adversarial::engine::{EngineAlgorithm, EngineSpec};
use searchlab::app::grid_lab::{GridJob, millis};
use searchlab::app::worker::{Job, Request, Response};
use searchlab::app::{AiAnswer, ComputerPlayer, MoveJob, SearchlabApp, Thinking, ai_engine};
use searchlab::games::Game;
use searchlab::games::barca::{Barca, Weights};
use searchlab::grid::movingai;
use searchlab::scene::Scene;
use searchlab::tournament::Engine;
use wasm_bindgen::JsValue;

use crate::log;

/// The bundled map the grid test searches, and its MovingAI scenarios (with optimal lengths).
const GRID_MAP: &str = "maze64.map";
/// How long the long job (the computer's Barca move) may deepen, unless stopped.
const LONG_JOB_MS: u64 = 30_000;
/// How long the page draws frames beside the long job, once it runs, before cancelling it.
const LONG_JOB_WATCH_MS: f64 = 1500.0;
/// The long job gives up waiting for the worker's first report after this long.
const LONG_JOB_PATIENCE_MS: f64 = 30_000.0;
/// Jobs started and stopped after the long job, as a student pressing Stop and starting again.
const RESTARTS: usize = 5;
/// Hard UCT moves the computer plays against itself (a second each: the kept tree grows).
const UCT_MOVES: usize = 8;

pub enum TestHook {
    GridAstar(GridAstar),
    LongJob(LongJob),
    BarcaUct(BarcaUct),
    Steps(Steps),
}

impl TestHook {
    pub fn new(name: &str) -> Result<TestHook, JsValue> {
        match name {
            "grid-astar" => Ok(TestHook::GridAstar(GridAstar::new()?)),
            "long-job" => Ok(TestHook::LongJob(LongJob::new()?)),
            "barca-uct" => Ok(TestHook::BarcaUct(BarcaUct::new())),
            "steps" => Ok(TestHook::Steps(Steps::default())),
            _ => Err(format!("?test={name}: the test hooks are grid-astar, long-job, barca-uct and steps").into()),
        }
    }

    pub fn update(&mut self, app: &mut SearchlabApp, ctx: &egui::Context) {
        match self {
            TestHook::GridAstar(hook) => hook.update(app, ctx),
            TestHook::LongJob(hook) => hook.update(ctx),
            TestHook::BarcaUct(hook) => hook.update(app, ctx),
            TestHook::Steps(hook) => hook.update(app),
        }
    }
}

/// The lesson shown and its replay's step, as last logged.
#[derive(Default)]
pub struct Steps {
    logged: Option<(&'static str, String)>,
}

impl Steps {
    fn update(&mut self, app: &SearchlabApp) {
        let Some(scene) = app.current_scene() else { return };
        let shown = (app.current_title(), scene.step.to_string());
        if self.logged.as_ref() != Some(&shown) {
            let (lesson, step) = (serde_json::Value::from(shown.0), serde_json::Value::from(shown.1.as_str()));
            log(&format!(r#"{{"event":"step","lesson":{lesson},"step":{step}}}"#));
            self.logged = Some(shown);
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
        let Ok(Response::Grid(Some(recorded))) = response else {
            return web_sys::console::error_1(&"?test=grid-astar: no recording came back".into());
        };
        let replay = &recorded.replays()[0];
        let cost = replay.result.cost().map_or("null".to_string(), |cost| format!("{cost:.8}"));
        let ((sx, sy), (gx, gy)) = self.query;
        let ran_in = job.ran_in().map_or("nowhere", |place| place.name());
        log(&format!(
            r#"{{"test":"grid-astar","map":"{GRID_MAP}","start":[{sx},{sy}],"goal":[{gx},{gy}],"cost":{cost},"expanded":{},"events":{},"ran_in":"{ran_in}","ms":{},"search_time":"{}","search_us":{}}}"#,
            replay.result.expanded,
            replay.player.len(),
            job.elapsed().as_millis(),
            millis(replay.time),
            replay.time.as_secs_f64() * 1e6
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
    /// Frames that showed a new progress count.
    reports: usize,
    last_done: usize,
    /// When the page pressed Stop.
    stopped: Option<f64>,
    done: bool,
    /// Jobs started and stopped since.
    restarts: usize,
}

impl LongJob {
    /// The computer's Barca move from the start, deepening for up to [`LONG_JOB_MS`].
    fn new() -> Result<LongJob, JsValue> {
        let request = Some(Self::request());
        Ok(LongJob {
            request,
            job: None,
            started: 0.0,
            running: None,
            frames: Vec::new(),
            reports: 0,
            last_done: 0,
            stopped: None,
            done: false,
            restarts: 0,
        })
    }

    fn request() -> Request {
        let spec = EngineSpec { millis: Some(LONG_JOB_MS), ..EngineSpec::new(EngineAlgorithm::Id) };
        Request::BarcaMove(MoveJob::new(&Barca::start(), &Weights::default(), Engine::new(spec), 1))
    }

    /// Starts the next of the [`RESTARTS`], and stops it once its worker reports progress; says
    /// so when the last has answered.
    fn restart(&mut self, ctx: &egui::Context) {
        if self.restarts == RESTARTS {
            return;
        }
        ctx.request_repaint();
        let Some(job) = &self.job else {
            self.job = Some(Job::start("test: Barca alpha-beta again", Some(ctx.clone()), Self::request()));
            return;
        };
        if job.progress().done() > 0 {
            job.progress().stop();
        }
        if job.poll().is_some() {
            self.job = None;
            self.restarts += 1;
            if self.restarts == RESTARTS {
                log(&format!(r#"{{"test":"restarts","jobs":{RESTARTS}}}"#));
            }
        }
    }

    /// Draws frames as fast as the page allows while the job runs, then stops it (as the page's
    /// Stop does) and reports the move it answers with: the best so far.
    fn update(&mut self, ctx: &egui::Context) {
        if self.done {
            return self.restart(ctx);
        }
        let now = now_ms();
        ctx.request_repaint();
        if let Some(request) = self.request.take() {
            self.started = now;
            self.job = Some(Job::start("test: Barca alpha-beta", Some(ctx.clone()), request));
            return;
        }
        let Some(job) = &self.job else { return };
        let done = job.progress().done();
        if done != self.last_done {
            (self.last_done, self.reports) = (done, self.reports + 1);
            self.running.get_or_insert(now);
        }
        if self.running.is_some() && self.stopped.is_none() {
            self.frames.push(now);
        }
        let watched =
            self.running.map_or(now - self.started < LONG_JOB_PATIENCE_MS, |running| now - running < LONG_JOB_WATCH_MS);
        if self.stopped.is_none() && !watched {
            self.stopped = Some(now);
            job.progress().stop();
        }
        let Some(response) = job.poll() else { return };
        let answered = now_ms();
        self.done = true;
        let Ok(Response::BarcaMove(answer)) = response else {
            return web_sys::console::error_1(&"?test=long-job: no Barca move came back".into());
        };
        let legal = answer.mv.is_some_and(|mv| {
            let mut moves = Vec::new();
            Barca::start().legal_moves(&mut moves);
            moves.contains(&mv)
        });
        let mv = answer.mv.map_or("null".to_string(), |mv| format!("\"{mv}\""));
        let best_depth = job.progress().best_so_far().map_or(0, |best| best.depth);
        let ran_in = job.ran_in().map_or("nowhere", |place| place.name());
        let gaps: Vec<f64> = self.frames.windows(2).map(|w| w[1] - w[0]).collect();
        let max_gap = gaps.iter().copied().fold(0.0, f64::max);
        let mean_gap = if gaps.is_empty() { 0.0 } else { gaps.iter().sum::<f64>() / gaps.len() as f64 };
        let ms = |since: Option<f64>| since.map_or("null".to_string(), |since| format!("{:.0}", since - self.started));
        log(&format!(
            r#"{{"test":"long-job","stopped_early":{},"move":{mv},"legal":{legal},"best_depth":{best_depth},"ran_in":"{ran_in}","first_report_ms":{},"reports":{},"frames":{},"mean_gap_ms":{mean_gap:.1},"max_gap_ms":{max_gap:.1},"watched_ms":{:.0},"nodes":{done},"stop_to_answer_ms":{:.1}}}"#,
            self.stopped.is_some(),
            ms(self.running),
            self.reports,
            self.frames.len(),
            self.frames.last().zip(self.frames.first()).map_or(0.0, |(last, first)| last - first),
            self.stopped.map_or(f64::NAN, |stopped| answered - stopped),
        ));
        self.job = None;
    }
}

pub struct BarcaUct {
    game: Barca,
    /// The computer, between moves; dropped once the game is done (its worker with it).
    player: Option<ComputerPlayer>,
    thinking: Option<Thinking>,
    /// When the game began, and when each frame began since.
    started: f64,
    frames: Vec<f64>,
    /// The page's time in starting each move (encoding the job and posting it).
    start_ms: Vec<f64>,
    /// The gap between the frame that took each answer in and the frame before it.
    answer_gap_ms: Vec<f64>,
    /// The search of each move, in one line.
    summaries: Vec<String>,
    /// Whether the move stopped early answered a legal move.
    stopped_legal: bool,
    done: bool,
}

impl BarcaUct {
    fn new() -> BarcaUct {
        BarcaUct {
            game: Barca::start(),
            player: Some(ComputerPlayer::new(ai_engine(EngineAlgorithm::Uct, Difficulty::Hard))),
            thinking: None,
            started: 0.0,
            frames: Vec::new(),
            start_ms: Vec::new(),
            answer_gap_ms: Vec::new(),
            summaries: Vec::new(),
            stopped_legal: false,
            done: false,
        }
    }

    /// Plays [`UCT_MOVES`] moves, then one stopped as soon as it reports progress (as "Stop"
    /// does: its worker ends, the tree with it), then one more, which must start afresh.
    fn update(&mut self, app: &mut SearchlabApp, ctx: &egui::Context) {
        if self.done {
            return;
        }
        let now = now_ms();
        ctx.request_repaint();
        if self.frames.is_empty() {
            let scene = Scene::from_toml("version = 1\nlab = \"barca\"\nspec = \"uct:hard\"").expect("a Barca scene");
            app.open_scene(&scene);
            self.started = now;
        }
        self.frames.push(now);
        if let Some(thinking) = &self.thinking {
            if self.start_ms.len() == UCT_MOVES + 1 && thinking.job.progress().done() > 0 {
                thinking.stop();
            }
            let Some(answer) = thinking.job.poll() else { return };
            let thinking = self.thinking.take().expect("polled above");
            let gap = self.frames.windows(2).last().map_or(0.0, |w| w[1] - w[0]);
            self.answer_gap_ms.push(gap);
            let Ok(Response::BarcaMove(AiAnswer { mv: Some(mv), summary, engine })) = answer else {
                self.done = true;
                return web_sys::console::error_1(&"?test=barca-uct: no Barca move came back".into());
            };
            if thinking.is_stopping() {
                let mut moves = Vec::new();
                self.game.legal_moves(&mut moves);
                self.stopped_legal = moves.contains(&mv);
            }
            self.game.make_move(mv);
            self.summaries.push(summary);
            self.player = Some(thinking.into_player(engine));
        }
        if self.start_ms.len() == UCT_MOVES + 2 {
            self.player = None;
            return self.report(now);
        }
        let player = self.player.take().expect("between moves");
        let seed = self.start_ms.len() as u64;
        let before = now_ms();
        self.thinking = Some(Thinking::start(&self.game, &Weights::default(), player, seed, Some(ctx.clone())));
        self.start_ms.push(now_ms() - before);
    }

    fn report(&mut self, now: f64) {
        self.done = true;
        let gaps: Vec<f64> = self.frames.windows(2).map(|w| w[1] - w[0]).collect();
        let mut sorted = gaps.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        let max = |values: &[f64]| values.iter().copied().fold(0.0, f64::max);
        let list = |values: &[f64]| values.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join(",");
        let traffic = crate::workers::traffic();
        let text = |line: &String| serde_json::Value::from(line.as_str());
        log(&format!(
            r#"{{"test":"barca-uct","moves":{},"from_ms":{:.0},"to_ms":{now:.0},"frames":{},"median_gap_ms":{median:.1},"max_gap_ms":{:.1},"answer_gap_ms":[{}],"start_ms":[{}],"largest_sent":{},"largest_received":{},"longest_receive_ms":{:.1},"stopped_legal":{},"searches":{}}}"#,
            self.start_ms.len(),
            self.started,
            self.frames.len(),
            max(&gaps),
            list(&self.answer_gap_ms),
            list(&self.start_ms),
            traffic.sent,
            traffic.received,
            traffic.receive_ms,
            self.stopped_legal,
            serde_json::Value::from(self.summaries.iter().map(text).collect::<Vec<_>>()),
        ));
    }
}
