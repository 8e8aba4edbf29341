//! `?test=replay-random512`: how smoothly the page replays a big search. The grid lab alone (no
//! lesson list) records Dijkstra on the bundled maps/random512.map between the far corners of its
//! largest open area, then times frames with the replay still and then playing at the replay
//! bar's top speed (from the start again whenever it ends), and logs one JSON line: the frame
//! interval (everything between two frames: the egui pass, tessellation, WebGL drawing, the
//! browser) both ways, and the egui pass alone while playing. The desktop figures for the
//! same lab and settings come from `examples/bench_grid_lab_frames.rs`.

use searchlab::app::grid_lab::{MapSource, Settings};
use searchlab::app::replay_bar::{ReplayBar, ReplayCommand};
use searchlab::app::{GridCommand, GridLab, Lesson};
use searchlab::pathfinding::{Algorithm, GridSearch};

use crate::log;

pub const NAME: &str = "replay-random512";
/// Frames left out while the page settles after the recording arrives.
const WARM_UP: usize = 10;
/// Frames timed with the replay still, for comparison.
const IDLE_FRAMES: usize = 30;
const FRAMES: usize = 120;

pub struct FrameTimer {
    lab: GridLab,
    /// When the last frame's pass began, in milliseconds since the page opened; None when the
    /// interval since must not count (before the first frame, after rewinding).
    last: Option<f64>,
    /// Frame intervals and egui passes: first with the replay still, then playing.
    idle: Vec<f64>,
    intervals: Vec<f64>,
    passes: Vec<f64>,
    skipped: usize,
    done: bool,
}

impl FrameTimer {
    pub fn new() -> FrameTimer {
        let settings = Settings {
            searches: [GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }; 2],
            map: MapSource::File("maps/random512.map".into()),
            speed: ReplayBar::MAX_SPEED,
            ..Settings::default()
        };
        let lab = GridLab::with_settings(settings);
        FrameTimer { lab, last: None, idle: Vec::new(), intervals: Vec::new(), passes: Vec::new(), skipped: 0, done: false }
    }

    /// Draws the lab; once the recording is in, times frames with the replay still, then plays it
    /// (from the start again whenever it ends) and times those.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let began = now();
        self.lab.logic(ui.ctx());
        self.lab.ui(ui);
        let pass = now() - began;
        if self.done || self.lab.is_busy() {
            return;
        }
        if let Some(error) = self.lab.error() {
            web_sys::console::error_1(&format!("?test={NAME}: {error}").into());
            self.done = true;
            return;
        }
        ui.ctx().request_repaint();
        let interval = self.last.map(|last| began - last);
        self.last = Some(began);
        if self.skipped < WARM_UP {
            self.skipped += 1;
        } else if self.idle.len() < IDLE_FRAMES {
            self.idle.extend(interval);
            if self.idle.len() == IDLE_FRAMES {
                self.lab.apply(GridCommand::Replay(ReplayCommand::TogglePlay));
                self.last = None;
            }
        } else if let Some(interval) = interval {
            self.intervals.push(interval);
            self.passes.push(pass);
        }
        if self.idle.len() == IDLE_FRAMES && self.lab.player().at_end() {
            // Play at the end starts over; the rewind's frame is not counted.
            self.lab.apply(GridCommand::Replay(ReplayCommand::TogglePlay));
            self.last = None;
        }
        if self.intervals.len() == FRAMES {
            self.done = true;
            let (idle, interval, pass) = (summary(&mut self.idle), summary(&mut self.intervals), summary(&mut self.passes));
            log(&format!(
                r#"{{"test":"{NAME}","frames":{FRAMES},"events_per_second":{},"events":{},"idle_interval_ms":{idle},"interval_ms":{interval},"pass_ms":{pass}}}"#,
                ReplayBar::MAX_SPEED,
                self.lab.player().len(),
            ));
        }
    }
}

/// `{"mean":…,"p95":…,"max":…}` of `times` (milliseconds).
fn summary(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let p95 = times[times.len() * 95 / 100];
    format!(r#"{{"mean":{mean:.2},"p95":{p95:.2},"max":{:.2}}}"#, times[times.len() - 1])
}

/// Milliseconds since the page opened.
fn now() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}
