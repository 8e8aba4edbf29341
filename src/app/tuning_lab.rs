//! The tuning lesson: a gradient-ascent log of the Barca weights, plotted. Score against the fixed
//! reference per iteration, and each weight per iteration. Loads a log written by
//! `searchlab barca tune --log FILE.json`, or runs a tiny tuning on a worker thread.

use egui::Color32;
use egui_plot::{GridInput, GridMark, Line, LineStyle, Plot, PlotPoints, VLine};

use super::Lesson;
use super::worker::{Job, Request, Response};
use super::{theme, widgets};
use crate::scene::{BUNDLED_TUNING_LOG, Lab, LogSource, MapSource, Scene};
use crate::tournament::plot::Series;
use crate::tournament::{GameRecord, MatchObserver, Objective, TuneConfig, TuneLog};
use crate::trace::Progress;

/// The log of `searchlab barca tune --iterations 20 --games-per-eval 200 --depth 2 --seed 1
/// --out examples/data/tuned-weights.json --log examples/data/tuning-log.json`.
const EXAMPLE_LOG: &str = include_str!("../../examples/data/tuning-log.json");
/// How the page says the bundled log is where it came from.
const BUNDLED_SOURCE: &str = "the bundled example";

/// The tiny run behind "Run a tiny tuning": seconds, not minutes, at depth 1.
const TINY_ITERATIONS: u32 = 4;
const TINY_GAMES: u32 = 8;

/// The charts' grid lines are drawn from this many points apart, fully from the upper end on.
const GRID_SPACING: egui::Rangef = egui::Rangef { min: 12.0, max: 120.0 };
/// Labelled values on a chart's y axis are at least this many points apart: a label's height and
/// air, so a chart a slide squeezes still reads at several values (egui_plot's own spacing there
/// labelled only 0 on the weights, its next round step being wider than the values' span).
const Y_LABEL_GAP: f64 = 36.0;

/// Lines at round values (1, 2 or 5 times a power of ten) at least [`Y_LABEL_GAP`] apart, each
/// one labelled.
fn y_grid(input: GridInput) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    let least = Y_LABEL_GAP * input.base_step_size / f64::from(GRID_SPACING.min);
    if !(least > 0.0 && least.is_finite() && low.is_finite() && high.is_finite()) {
        return Vec::new();
    }
    let power = 10f64.powf(least.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&step| step >= least).unwrap_or(10.0 * power);
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    (first..=last).map(|i| GridMark { value: i as f64 * step, step_size: step }).collect()
}

/// A y label with as many decimals as its step needs: 0.2, 0.05, 10.
fn y_tick_text(mark: GridMark) -> String {
    let decimals = (-mark.step_size.log10().floor()).max(0.0) as usize;
    format!("{:.*}", decimals, mark.value)
}

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
    job: Option<Job>,
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
        let mut lab =
            Self { log: None, source: String::new(), path: String::new(), error: None, job: None, raw_weights: false };
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
            BUNDLED_SOURCE => Some(MapSource::Bundled(BUNDLED_TUNING_LOG.to_string())),
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
        match scene.tuning_log()? {
            None => return Ok(()),
            Some(LogSource::Bundled) => self.show_log(TuneLog::from_json(EXAMPLE_LOG), BUNDLED_SOURCE),
            Some(LogSource::Path(path)) => {
                self.path = path.to_string();
                self.load_path();
            }
            Some(LogSource::Inline(text)) => self.show_log(TuneLog::from_json(text), "the scene's log"),
        }
        self.error.clone().map_or(Ok(()), Err)
    }

    fn load_path(&mut self) {
        let path = self.path.trim().to_string();
        // The CSV log is for spreadsheets: it lacks the reference and the best vector the page shows.
        let log = if crate::files::has_extension(path.as_ref(), "csv") {
            Err("this page reads the JSON log; write one with `barca tune --log FILE.json`".to_string())
        } else {
            crate::files::read_text(path.as_ref(), crate::files::MAX_TEXT)
                .map_err(|e| e.to_string())
                .and_then(|text| TuneLog::from_json(&text))
        };
        self.show_log(log, &path);
    }

    fn start_tiny_tuning(&mut self, ctx: &egui::Context) {
        let config = TuneConfig::new(TINY_ITERATIONS, TINY_GAMES, 1);
        self.job = Some(Job::start("Tuning", Some(ctx.clone()), Request::Tune(config)));
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
            "Best vs the reference: iteration {}, report score {:+.3}, W/D/L score {:.3}, Elo {}.",
            log.best_iteration, best.report_score, best.plain_score, best.elo
        ));
    }

    /// The two plots, sharing `room` points of height (titles and legends included): whatever
    /// their headers leave goes to the charts, so they fill a cell or a page of any height. Where
    /// the room is short and wide (a slide on a projector) they stand side by side.
    fn plots(&self, log: &TuneLog, ui: &mut egui::Ui, room: f32) {
        // Shorter than this a chart shows a single tick and clips its axis title.
        const LEAST: f32 = 120.0;
        let bottom = ui.cursor().top() + room;
        let side_by_side = room < 4.0 * LEAST + 80.0 && ui.available_width() > 700.0;
        let best = f64::from(log.best_iteration);
        let restarts = log.restarts();
        let palette = theme::palette(ui.ctx());
        let series_colour = |i: usize| palette.series[i % palette.series.len()];
        // The legends sit above the plots, wrapped, so they never cover a line or run off the plot.
        // The first chart leaves the second half of what its own header leaves, less a header as
        // tall as its own and a row (the weights' legend is longer); the second takes the rest.
        let plot = |ui: &mut egui::Ui, id: &str, title: &str, series: Vec<Series>, y_label: &str, last: bool| {
            let top = ui.cursor().top();
            ui.strong(title);
            let mut entries: Vec<(Color32, &str)> =
                series.iter().enumerate().map(|(i, s)| (series_colour(i), s.name)).collect();
            entries.push((palette.best_iteration, "best iteration"));
            if !restarts.is_empty() {
                entries.push((palette.restart, "restart (dashed)"));
            }
            widgets::legend(ui, &entries);
            let header = ui.cursor().top() - top + ui.text_style_height(&egui::TextStyle::Body);
            let left = bottom - ui.cursor().top() - ui.spacing().item_spacing.y;
            let height = if last { left } else { (left - header) / 2.0 };
            let chart = Plot::new(id)
                .height(height.max(LEAST))
                .grid_spacing(GRID_SPACING)
                .y_grid_spacer(y_grid)
                .y_axis_formatter(|mark, _| y_tick_text(mark))
                .x_axis_label("iteration")
                .y_axis_label(y_label);
            chart.show(ui, |plot| {
                for (i, Series { name, points }) in series.into_iter().enumerate() {
                    let colour = series_colour(i);
                    plot.line(Line::new(name, PlotPoints::from(points)).color(colour).width(2.0));
                }
                for &iteration in &restarts {
                    // Dashed and wider than the grid's lines, which also fall on whole iterations.
                    let marker = VLine::new("restart", iteration).color(palette.restart).width(2.0);
                    plot.vline(marker.style(LineStyle::dashed_dense()));
                }
                plot.vline(VLine::new("best iteration", best).color(palette.best_iteration).width(2.5));
            });
        };
        let title = crate::tournament::plot::weights_title(self.raw_weights);
        let scores = |ui: &mut egui::Ui, last| {
            plot(ui, "tuning-scores", "Score against the fixed reference", log.score_series(), "score (−1..1)", last)
        };
        let weights =
            |ui: &mut egui::Ui| plot(ui, "tuning-weights", &title, log.weight_series(self.raw_weights), "", true);
        if side_by_side {
            ui.columns(2, |columns| {
                scores(&mut columns[0], true);
                weights(&mut columns[1]);
            });
        } else {
            scores(ui, false);
            weights(ui);
        }
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
        if let Some(Response::Tune(result)) = Job::finish(&mut self.job, &mut self.error) {
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
             Dashed vertical lines mark restarts from the best vector with a smaller delta or step. \
             The win term (three holes) is pinned.",
        );
        self.controls(ui);
        self.progress(ui);
        ui.separator();
        let Some(log) = self.log.take() else { return };
        Self::summary(&log, &self.source, ui);
        self.plots(&log, ui, ui.available_height());
        self.log = Some(log);
    }
}

/// In a lecture cell: the log's summary and plots as the page draws them, without its controls
/// (the lecture names the log).
impl crate::app::notebook::LiveCell for TuningLab {
    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> egui::Rect {
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
        let Some(log) = self.log.take() else { return egui::Rect::NOTHING };
        let response = ui.scope(|ui| {
            let top = ui.cursor().top();
            Self::summary(&log, &self.source, ui);
            // No replay bar nor row of options: the charts take their rows too.
            let rows = 2.0 * crate::app::notebook::cell_row(ui);
            self.plots(&log, ui, height + rows - (ui.cursor().top() - top));
        });
        self.log = Some(log);
        response.response.rect
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::tune::TUNED_NAMES;

    #[test]
    fn every_weight_has_its_own_colour() {
        for light in [false, true] {
            let palette = theme::Theme { light, colour_blind_safe: false }.palette();
            let colours = &palette.series[..TUNED_NAMES.len()];
            for (i, a) in colours.iter().enumerate() {
                assert!(colours[i + 1..].iter().all(|b| b != a), "{} shares its colour", TUNED_NAMES[i]);
                assert!(
                    *a != palette.best_iteration && *a != palette.restart,
                    "{} looks like a marker",
                    TUNED_NAMES[i]
                );
            }
        }
    }
}
