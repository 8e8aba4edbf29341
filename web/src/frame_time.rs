//! `?test=replay-random512`: how smoothly the page replays a big search. The page shows the grid
//! lab alone replaying Dijkstra on random512 (`searchlab::app::frame_timer`, which the desktop's
//! examples/frame_time_eframe.rs times too) and logs one JSON line with the frame intervals, still
//! and playing, and the egui pass alone (milliseconds).

use searchlab::app::frame_timer::{FrameTimer, Summary};

use crate::log;

pub const NAME: &str = "replay-random512";

#[derive(Default)]
pub struct FrameTimeHook(FrameTimer);

impl FrameTimeHook {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        match self.0.frame(ui) {
            Some(Ok(times)) => log(&format!(
                r#"{{"test":"{NAME}","frames":{},"events_per_second":{},"events":{},"idle_interval_ms":{},"interval_ms":{},"pass_ms":{}}}"#,
                times.frames,
                times.events_per_second,
                times.events,
                json(times.still),
                json(times.playing),
                json(times.pass)
            )),
            Some(Err(error)) => web_sys::console::error_1(&format!("?test={NAME}: {error}").into()),
            None => {}
        }
    }
}

fn json(summary: Summary) -> String {
    format!(r#"{{"mean":{:.2},"p95":{:.2},"max":{:.2}}}"#, summary.mean, summary.p95, summary.max)
}
