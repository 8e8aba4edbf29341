//! The tuning lesson: a gradient-ascent log of the Barca weights, plotted. Score against the fixed
//! reference per iteration, and each weight per iteration. Loads a log written by
//! `searchlab barca tune --log FILE.json`, or runs a tiny tuning on a worker thread.

use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};

use super::Lesson;
use super::widgets;
use crate::scene::{Lab, MapSource, Scene};
use super::worker::Job;
use crate::trace::Progress;
use crate::tournament::plot::Series;
use crate::tournament::{GameRecord, MatchObserver, Objective, TuneConfig, TuneLog, tune};

/// The log of `searchlab barca tune --iterations 20 --games-per-eval 200 --depth 2 --seed 1
/// --out examples/data/tuned-weights.json --log examples/data/tuning-log.json`.
const EXAMPLE_LOG: &str = include_str!("../../examples/data/tuning-log.json");
/// How scenes name the bundled log, and how the page says where it came from.
const BUNDLED_NAME: &str = "tuning-log.json";
const BUNDLED_SOURCE: &str = "the bundled example";

/// The tiny run behind "Run a tiny tuning": seconds, not minutes, at depth 1.
const TINY_ITERATIONS: u32 = 4;
const TINY_GAMES: u32 = 8;

impl MatchObserver for Progress {
    fn game_finished(&self, _game: &GameRecord) {
        self.add(1);
    }

    fn cancelled(&self) -> bool {
        self.is_stopped()
    }
}

pub struct TuningLab {
    log: Option<TuneLog>,
    /// Where the shown log came from.
    source: String,
    path: String,
    error: Option<String>,
    job: Option<Job<Result<TuneLog, String>>>,
    /// Plot weights as they are, instead of their change relative to the start.
    raw_weights: bool,
}

impl Default for TuningLab {
    fn default() -> Self {
        Self::new()
    }
}

impl TuningLab {
    /// The page showing the bundled example log.
    pub fn new() -> Self {
        let mut lab = Self { log: None, source: String::new(), path: String::new(), error: None, job: None, raw_weights: false };
        lab.show_log(TuneLog::from_json(EXAMPLE_LOG), BUNDLED_SOURCE);
        lab
    }

    pub fn log(&self) -> Option<&TuneLog> {
        self.log.as_ref()
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    fn show_log(&mut self, log: Result<TuneLog, String>, source: &str) {
        match log {
            Ok(log) if log.iterations.is_empty() => self.error = Some(format!("{source}: the log has no iterations")),
            Ok(log) => {
                self.log = Some(log);
                self.source = source.to_string();
                self.error = None;
            }
            Err(error) => self.error = Some(format!("{source}: {error}")),
        }
    }

    /// What the page shows: its tuning log, as the bundled file's name, a path or the log itself.
    pub fn scene(&self) -> Scene {
        let mut scene = Scene::new(Lab::Tuning);
        scene.map = match self.source.as_str() {
            BUNDLED_SOURCE => Some(MapSource::Bundled(BUNDLED_NAME.to_string())),
            source if source == self.path.trim() && !source.is_empty() => Some(MapSource::Path(source.to_string())),
            _ => self.log.as_ref().map(|log| MapSource::Inline(log.to_json())),
        };
        scene
    }

    /// Shows the tuning log `scene` names; the page keeps its log when the scene does not fit.
    pub fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        if scene.lab != Lab::Tuning {
            return Err(format!("the tuning page cannot show a {:?} scene", scene.lab));
        }
        match &scene.map {
            None => return Ok(()),
            Some(MapSource::Bundled(name)) if name == BUNDLED_NAME => self.show_log(TuneLog::from_json(EXAMPLE_LOG), BUNDLED_SOURCE),
            Some(MapSource::Bundled(name)) => return Err(format!("no bundled tuning log '{name}': there is {BUNDLED_NAME}")),
            Some(MapSource::Path(path)) => {
                self.path = path.clone();
                self.load_path();
            }
            Some(MapSource::Inline(text)) => self.show_log(TuneLog::from_json(text), "the scene's log"),
            Some(MapSource::Generated(_)) => return Err("a tuning log is not a generated map".to_string()),
        }
        self.error.clone().map_or(Ok(()), Err)
    }

    fn load_path(&mut self) {
        let path = self.path.trim().to_string();
        // The CSV log is for spreadsheets: it lacks the reference and the best vector the page shows.
        let log = if path.to_ascii_lowercase().ends_with(".csv") {
            Err("this page reads the JSON log; write one with `barca tune --log FILE.json`".to_string())
        } else {
            std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|text| TuneLog::from_json(&text))
        };
        self.show_log(log, &path);
    }

    fn start_tiny_tuning(&mut self, ctx: &egui::Context) {
        let config = TuneConfig::new(TINY_ITERATIONS, TINY_GAMES, 1);
        let total = config.total_games() as usize;
        self.job = Some(Job::spawn("Tuning", Some(ctx.clone()), move |progress| {
            progress.set_total(total);
            tune(&config, progress)
        }));
    }

    fn progress(&mut self, ui: &mut egui::Ui) {
        let Some(job) = &self.job else { return };
        let text = format!("{}: {} games", job.label, job.progress().done());
        if widgets::progress(ui, &text, job.progress().fraction(), job.elapsed()) {
            self.job = None;
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Log file");
            ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("tuning-log.json").desired_width(320.0))
                .labelled_by(label.id);
            if ui.button("Load log").clicked() {
                self.load_path();
            }
            if ui.button("Load the example").clicked() {
                self.show_log(TuneLog::from_json(EXAMPLE_LOG), BUNDLED_SOURCE);
            }
            let idle = self.job.is_none();
            if ui.add_enabled(idle, egui::Button::new("Run a tiny tuning")).clicked() {
                self.start_tiny_tuning(ui.ctx());
            }
            ui.checkbox(&mut self.raw_weights, "Raw weights");
        });
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
    }

    fn summary(log: &TuneLog, source: &str, ui: &mut egui::Ui) {
        let best = &log.iterations[log.best_iteration as usize];
        let restarts = log.iterations.iter().filter(|row| row.restarted).count();
        ui.label(format!(
            "Log: {source}. Engine {}, {} games per match, {} iterations, {restarts} restarts, {} objective{}.",
            log.engine,
            log.games_per_eval,
            log.iterations.len() - 1,
            match log.objective {
                Objective::Report => "report-score",
                Objective::Plain => "W/D/L",
            },
            if log.cancelled { " (cancelled)" } else { "" }
        ));
        ui.label(format!(
            "Best vs the reference: iteration {}, report score {:+.3}, W/D/L score {:.3}, Elo {:+.0} [{:+.0}, {:+.0}].",
            log.best_iteration, best.report_score, best.plain_score, best.elo.elo, best.elo.low, best.elo.high
        ));
    }

    fn plots(&self, log: &TuneLog, ui: &mut egui::Ui) {
        let height = (ui.available_height() / 2.0 - 30.0).max(150.0);
        // Room on the right of the last iteration, where the legends sit, so they hide no line.
        let legend_room = log.iterations.last().map_or(1.0, |row| f64::from(row.iteration).max(1.0) * 1.35);
        let lines = |plot: &mut egui_plot::PlotUi<'_>, series: Vec<Series>| {
            for Series { name, points } in series {
                plot.line(Line::new(name, PlotPoints::from(points)));
            }
        };
        ui.strong("Score against the fixed reference");
        Plot::new("tuning-scores")
            .legend(Legend::default())
            .include_x(legend_room)
            .height(height)
            .x_axis_label("iteration")
            .y_axis_label("score (−1..1)")
            .show(ui, |plot| {
                lines(plot, log.score_series());
                for iteration in log.restarts() {
                    plot.vline(VLine::new("restart", iteration).color(egui::Color32::from_gray(140)));
                }
            });
        ui.strong(if self.raw_weights { "Weights" } else { "Weights: change from the start, in units of the start value" });
        Plot::new("tuning-weights")
            .legend(Legend::default())
            .include_x(legend_room)
            .height(height)
            .x_axis_label("iteration")
            .show(ui, |plot| lines(plot, log.weight_series(self.raw_weights)));
    }
}

impl Lesson for TuningLab {
    fn scene(&self) -> Option<Scene> {
        Some(TuningLab::scene(self))
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        TuningLab::set_scene(self, scene)
    }

    fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    fn logic(&mut self, _ctx: &egui::Context) {
        if let Some(result) = self.job.as_ref().and_then(|job| job.poll()) {
            self.job = None;
            self.show_log(result, "a tiny tuning run");
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Tuning the Barca evaluation by self-play");
        ui.label(
            "Gradient ascent over the evaluation weights: each derivative comes from a match between the \
             weights nudged up and nudged down, the step follows the gradient, and every new vector plays \
             the FIXED reference weights, so progress is never judged against a moving target. The report \
             score rewards quick wins and the better side of a draw; the W/D/L score counts results only. \
             Vertical lines mark restarts from the best vector with a smaller delta or step. \
             The win term (three holes) is pinned.",
        );
        self.controls(ui);
        self.progress(ui);
        ui.separator();
        let Some(log) = self.log.take() else { return };
        Self::summary(&log, &self.source, ui);
        self.plots(&log, ui);
        self.log = Some(log);
    }
}

