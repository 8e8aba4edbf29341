//! `?test=replay-random512`: how smoothly the page replays a big search. The grid lab alone (no
//! lesson list) records Dijkstra on the bundled maps/random512.map between the far corners of its
//! largest open area, then plays the recording at the replay bar's top speed; after a warm-up the
//! page logs one JSON line with the frame interval (everything between two frames: the egui pass,
//! tessellation, WebGL drawing, the browser) and the egui pass alone. The desktop figures for the
//! same lab and settings come from `examples/bench_grid_lab_frames.rs`.

use searchlab::app::grid_lab::{MapSource, Settings};
use searchlab::app::replay_bar::{ReplayBar, ReplayCommand};
use searchlab::app::{GridCommand, GridLab, Lesson};
use searchlab::pathfinding::{Algorithm, GridSearch};

use crate::log;

pub const NAME: &str = "replay-random512";
/// Frames left out while the page settles after playing starts.
const WARM_UP: usize = 30;
const FRAMES: usize = 300;

pub struct FrameTimer {
    lab: GridLab,
    playing: bool,
    /// When the last frame's pass began, in milliseconds since the page opened.
    last: Option<f64>,
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
        FrameTimer { lab, playing: false, last: None, intervals: Vec::new(), passes: Vec::new(), skipped: 0, done: false }
    }

    /// Draws the lab; starts playing once the recording is in, and times every frame after.
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
        if !self.playing {
            self.lab.apply(GridCommand::Replay(ReplayCommand::TogglePlay));
            self.playing = true;
        } else if self.skipped < WARM_UP {
            self.skipped += 1;
        } else if let Some(last) = self.last {
            self.intervals.push(began - last);
            self.passes.push(pass);
        }
        self.last = Some(began);
        ui.ctx().request_repaint();
        if self.intervals.len() == FRAMES {
            self.done = true;
            let (interval, pass) = (summary(&mut self.intervals), summary(&mut self.passes));
            let player = self.lab.player();
            log(&format!(
                r#"{{"test":"{NAME}","frames":{FRAMES},"events_per_second":{},"events":{},"played":{},"interval_ms":{interval},"pass_ms":{pass}}}"#,
                ReplayBar::MAX_SPEED,
                player.len(),
                player.step()
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
