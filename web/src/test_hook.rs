//! `?test=NAME`: the page runs a known piece of work through the app's job mechanism and writes
//! the outcome as one JSON line on the console, for `web/test.py` to check against independent
//! figures (a canvas has no text to read).

use std::path::Path;

use searchlab::app::SearchlabApp;
use searchlab::app::grid_lab::SearchReplay;
use searchlab::app::worker::Job;
use searchlab::grid::movingai;
use searchlab::scene::Scene;
use wasm_bindgen::JsValue;

use crate::log;

/// The bundled map the grid test searches, and its MovingAI scenarios (with optimal lengths).
const GRID_MAP: &str = "maze64.map";

pub struct TestHook {
    scene: Scene,
    job: Option<Job<Result<String, String>>>,
    done: bool,
}

impl TestHook {
    /// `grid-astar`: A* on the bundled maze, on the last (longest) query of its `.scen` file.
    pub fn new(name: &str) -> Result<TestHook, JsValue> {
        if name != "grid-astar" {
            return Err(format!("?test={name}: the only test hook is grid-astar").into());
        }
        let scen = format!("maps/{GRID_MAP}.scen");
        let scenarios = movingai::load_scen(Path::new(&scen)).map_err(|e| e.to_string())?;
        let last = scenarios.last().ok_or_else(|| format!("{scen}: no scenarios"))?;
        let (start, goal) = (last.start, last.goal);
        let scene = Scene::from_toml(&format!(
            "version = 1\nlab = \"grid\"\nmap = {{ bundled = \"{GRID_MAP}\" }}\nspec = \"astar\"\n\
             start = [{}, {}]\ngoal = [{}, {}]\nstep = \"end\"\n",
            start.0, start.1, goal.0, goal.1
        ))?;
        Ok(TestHook { scene, job: None, done: false })
    }

    /// Starts the search on the first frame, shows its scene, and reports once it is in.
    pub fn update(&mut self, app: &mut SearchlabApp, ctx: &egui::Context) {
        if self.done {
            return;
        }
        let Some(job) = &self.job else {
            let scene = self.scene.clone();
            self.job = Some(Job::spawn("test: grid A*", Some(ctx.clone()), move |progress| search(&scene, progress)));
            app.open_scene(&self.scene);
            return;
        };
        match job.poll() {
            Some(Ok(line)) => log(&line),
            Some(Err(error)) => web_sys::console::error_1(&format!("?test=grid-astar: {error}").into()),
            None => return,
        }
        self.done = true;
    }
}

/// Records the scene's query as the grid lab does; the result as a JSON line.
fn search(scene: &Scene, progress: &searchlab::trace::Progress) -> Result<String, String> {
    let grid = scene.load_grid()?.ok_or("the scene names no map")?;
    let planner = scene.planner().ok_or("the scene names no planner")?;
    let search = planner.grid_search().ok_or("the planner is not a flat grid search")?;
    let ((sx, sy), (gx, gy)) = scene.cells()?.ok_or("the scene has no query")?;
    let cell = |x, y| if x < grid.width() && y < grid.height() { Ok(grid.cell(x, y)) } else { Err(format!("{x},{y} is off the map")) };
    let replay = SearchReplay::record(&grid, search, cell(sx, sy)?, cell(gx, gy)?, progress).ok_or("stopped")?;
    let cost = replay.result.cost().map_or("null".to_string(), |cost| format!("{cost:.8}"));
    Ok(format!(
        r#"{{"test":"grid-astar","map":"{GRID_MAP}","start":[{sx},{sy}],"goal":[{gx},{gy}],"cost":{cost},"expanded":{},"events":{}}}"#,
        replay.result.expanded,
        replay.player.len()
    ))
}
