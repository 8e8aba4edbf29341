//! Frame times of the grid lab replaying Dijkstra on maps/random512.map in a real eframe window:
//! the desktop side of the web page's `?test=replay-random512`, the same `FrameTimer` in a window
//! of the page's size (frame intervals with the replay still and playing, which include wgpu
//! drawing and presenting, and the egui pass alone); then it closes.
//! Without a GPU, run it under Xvfb, where wgpu draws with Mesa's software Vulkan (lavapipe):
//!
//! `xvfb-run -s "-screen 0 1280x720x24" cargo run --release --example frame_time_eframe`

use searchlab::app::frame_timer::{FrameTimer, Summary};

struct App(FrameTimer);

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let Some(times) = self.0.frame(ui) else { return };
        let times = times.expect("the search runs on random512");
        let show = |s: Summary| format!("mean {:.2} ms, p95 {:.2} ms, max {:.2} ms", s.mean, s.p95, s.max);
        println!(
            "eframe window, replaying {} events at {} events/s: frame interval still {}; playing ({} frames) {}; egui pass playing {}",
            times.events,
            times.events_per_second,
            show(times.still),
            times.frames,
            show(times.playing),
            show(times.pass)
        );
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native("searchlab frame times", options, Box::new(|_| Ok(Box::new(App(FrameTimer::default())))))
}
