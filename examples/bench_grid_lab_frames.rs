//! Frame time of the grid lab while it replays a full Dijkstra search on maps/random512.map, in a
//! headless egui context: the page's own work plus tessellation (no GPU). The target is 60 fps,
//! i.e. well under 16.7 ms per frame.
//!
//! `cargo run --release --example bench_grid_lab_frames [events per second]`

use std::time::{Duration, Instant};

use searchlab::app::grid_lab::{MapSource, Settings};
use searchlab::app::{GridLab, Lesson};
use searchlab::pathfinding::{Algorithm, GridSearch};

const FRAMES: usize = 600;

fn frame(ctx: &egui::Context, lab: &mut GridLab) -> Duration {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 1000.0))),
        predicted_dt: 1.0 / 60.0,
        ..Default::default()
    };
    let began = Instant::now();
    let output = ctx.run_ui(input, |ui| lab.ui(ui));
    let meshes = ctx.tessellate(output.shapes, output.pixels_per_point);
    std::hint::black_box(meshes);
    began.elapsed()
}

fn report(name: &str, mut times: Vec<Duration>, uploads: &[usize]) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / times.len() as f64;
    let texels = uploads.iter().sum::<usize>() as f64 / uploads.len() as f64;
    println!(
        "{name}: {} frames, mean {mean:.2} ms, median {:.2} ms, p95 {:.2} ms, max {:.2} ms; {texels:.0} texels uploaded per frame",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[times.len() * 95 / 100]),
        ms(*times.last().unwrap()),
    );
}

fn main() {
    let speed: f32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20_000.0);
    let settings = Settings {
        searches: [GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }; 2],
        map: MapSource::File("maps/random512.map".into()),
        speed,
        ..Settings::default()
    };
    let ctx = egui::Context::default();
    let mut lab = GridLab::with_settings(settings);
    let began = Instant::now();
    while lab.is_busy() {
        frame(&ctx, &mut lab);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(lab.error(), None);
    println!(
        "recorded Dijkstra on random512: {} events in {:.2} s (off the UI thread)",
        lab.player().len(),
        began.elapsed().as_secs_f64()
    );
    frame(&ctx, &mut lab);

    lab.apply(searchlab::app::Command::TogglePlay);
    let (mut times, mut uploads) = (Vec::new(), Vec::new());
    for _ in 0..FRAMES {
        times.push(frame(&ctx, &mut lab));
        uploads.push(lab.last_texture_upload());
    }
    report(&format!("playing at {speed} events/s"), times, &uploads);

    // Scrubbing: every frame jumps a twentieth of the trace (the replay moves ~130k events, the
    // whole texture is redrawn); the time includes the seek.
    let (mut times, mut uploads) = (Vec::new(), Vec::new());
    for i in 0..60 {
        let began = Instant::now();
        lab.apply(searchlab::app::Command::Seek(lab.player().len() * (i % 20) / 20));
        times.push(began.elapsed() + frame(&ctx, &mut lab));
        uploads.push(lab.last_texture_upload());
    }
    report("scrubbing the timeline in big jumps", times, &uploads);
}
