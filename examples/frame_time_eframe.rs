//! Frame times of the grid lab replaying Dijkstra on maps/random512.map in a real eframe window:
//! the desktop side of the web page's `?test=replay-random512` (web/src/frame_time.rs), with the
//! same lab, settings, speed, window size and timing: frame intervals with the replay still, then
//! playing (egui pass, tessellation, wgpu drawing, presenting, waiting for vsync), and the egui
//! pass alone while playing; then it closes.
//! Without a GPU, run it under Xvfb, where wgpu draws with Mesa's software Vulkan (lavapipe):
//!
//! `xvfb-run -s "-screen 0 1280x720x24" cargo run --release --example frame_time_eframe`

use std::time::Instant;

use searchlab::app::grid_lab::{MapSource, Settings};
use searchlab::app::replay_bar::{ReplayBar, ReplayCommand};
use searchlab::app::{GridCommand, GridLab, Lesson};
use searchlab::pathfinding::{Algorithm, GridSearch};

/// Frames left out while the window settles after the recording arrives.
const WARM_UP: usize = 10;
/// Frames timed with the replay still, for comparison.
const IDLE_FRAMES: usize = 30;
const FRAMES: usize = 120;

struct FrameTimer {
    lab: GridLab,
    /// When the last frame's pass began; None when the interval since must not count.
    last: Option<Instant>,
    skipped: usize,
    /// Frame intervals and egui passes (ms): first with the replay still, then playing.
    idle: Vec<f64>,
    intervals: Vec<f64>,
    passes: Vec<f64>,
    done: bool,
}

impl eframe::App for FrameTimer {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let began = Instant::now();
        self.lab.logic(ui.ctx());
        self.lab.ui(ui);
        let pass = began.elapsed().as_secs_f64() * 1e3;
        ui.ctx().request_repaint();
        if self.done || self.lab.is_busy() {
            return;
        }
        assert_eq!(self.lab.error(), None);
        let interval = self.last.map(|last| (began - last).as_secs_f64() * 1e3);
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
            println!(
                "eframe window, replaying {} events at {} events/s: frame interval still {}; playing {}; egui pass playing {}",
                self.lab.player().len(),
                ReplayBar::MAX_SPEED,
                summary(&mut self.idle),
                summary(&mut self.intervals),
                summary(&mut self.passes)
            );
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

fn summary(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    format!("mean {mean:.2} ms, p95 {:.2} ms, max {:.2} ms", times[times.len() * 95 / 100], times[times.len() - 1])
}

fn main() -> eframe::Result {
    let settings = Settings {
        searches: [GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }; 2],
        map: MapSource::File("maps/random512.map".into()),
        speed: ReplayBar::MAX_SPEED,
        ..Settings::default()
    };
    let timer = FrameTimer {
        lab: GridLab::with_settings(settings),
        last: None,
        skipped: 0,
        idle: Vec::new(),
        intervals: Vec::new(),
        passes: Vec::new(),
        done: false,
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native("searchlab frame times", options, Box::new(|_| Ok(Box::new(timer))))
}
