//! How smoothly a big search replays: the grid lab alone, Dijkstra on maps/random512.map between
//! the far corners of its largest open area, played at the replay bar's top speed (from the start
//! again whenever it ends). The desktop (examples/frame_time_eframe.rs) and the web page
//! (`?test=replay-random512`) both time this, so their figures compare.

use super::grid_lab::{GridSettings, MapOrigin};
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::{GridCommand, GridLab, Lesson};
use crate::pathfinding::{Algorithm, GridSearch};
use crate::time::Instant;

/// Frames left out while the window settles after the recording arrives.
const WARM_UP: usize = 10;
/// Frames timed with the replay still, for comparison.
const STILL_FRAMES: usize = 30;
/// Frames timed while playing.
const FRAMES: usize = 120;

/// Mean, 95th percentile and slowest of some times, in milliseconds.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    pub mean: f64,
    pub p95: f64,
    pub max: f64,
}

impl Summary {
    fn of(times: &mut [f64]) -> Summary {
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        Summary { mean, p95: times[times.len() * 95 / 100], max: times[times.len() - 1] }
    }
}

/// What was measured: frame intervals (from one frame's start to the next: the egui pass,
/// tessellation, drawing, presenting, waiting for the display) with the replay still and playing,
/// and the egui pass alone while playing.
#[derive(Debug, Clone, Copy)]
pub struct FrameTimes {
    /// Frames timed while playing.
    pub frames: usize,
    pub events: usize,
    pub events_per_second: f32,
    pub still: Summary,
    pub playing: Summary,
    pub pass: Summary,
}

pub struct FrameTimer {
    lab: GridLab,
    /// When the last frame began; None when the interval since must not count.
    last: Option<Instant>,
    skipped: usize,
    still: Vec<f64>,
    playing: Vec<f64>,
    passes: Vec<f64>,
    done: bool,
}

impl Default for FrameTimer {
    fn default() -> Self {
        let settings = GridSettings {
            searches: [GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }; 2],
            map: MapOrigin::File("maps/random512.map".into()),
            speed: ReplayBar::MAX_SPEED,
            ..GridSettings::default()
        };
        let lab = GridLab::with_settings(settings);
        FrameTimer {
            lab,
            last: None,
            skipped: 0,
            still: Vec::new(),
            playing: Vec::new(),
            passes: Vec::new(),
            done: false,
        }
    }
}

impl FrameTimer {
    /// Draws the lab and times this frame; keeps the window repainting. The figures once, when
    /// enough frames are timed (or why the search could not run).
    pub fn frame(&mut self, ui: &mut egui::Ui) -> Option<Result<FrameTimes, String>> {
        let began = Instant::now();
        self.lab.logic(ui.ctx());
        self.lab.ui(ui);
        let pass = began.elapsed().as_secs_f64() * 1e3;
        if self.done || self.lab.is_busy() {
            return None;
        }
        ui.ctx().request_repaint();
        if let Some(error) = self.lab.error() {
            self.done = true;
            return Some(Err(error.to_string()));
        }
        let interval = self.last.map(|last| (began - last).as_secs_f64() * 1e3);
        self.last = Some(began);
        if self.skipped < WARM_UP {
            self.skipped += 1;
        } else if self.still.len() < STILL_FRAMES {
            self.still.extend(interval);
            if self.still.len() == STILL_FRAMES {
                self.lab.apply(GridCommand::Replay(ReplayCommand::TogglePlay));
                self.last = None;
            }
        } else if let Some(interval) = interval {
            self.playing.push(interval);
            self.passes.push(pass);
        }
        if self.still.len() == STILL_FRAMES && self.lab.player().at_end() {
            // Play at the end starts over; the rewind's frame is not counted.
            self.lab.apply(GridCommand::Replay(ReplayCommand::TogglePlay));
            self.last = None;
        }
        (self.playing.len() == FRAMES).then(|| {
            self.done = true;
            Ok(FrameTimes {
                frames: FRAMES,
                events: self.lab.player().len(),
                events_per_second: ReplayBar::MAX_SPEED,
                still: Summary::of(&mut self.still),
                playing: Summary::of(&mut self.playing),
                pass: Summary::of(&mut self.passes),
            })
        })
    }
}
