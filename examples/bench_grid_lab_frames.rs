//! Frame time of the grid lab while it replays a full Dijkstra search on maps/random512.map. First in
//! a headless egui context (the page's own work plus tessellation, no GPU), then in the egui_kittest
//! harness rendering every frame with wgpu (on Mesa's software Vulkan driver where there is no GPU,
//! so that figure is an upper bound). The target is 60 fps, i.e. well under 16.7 ms per frame.
//!
//! `cargo run --release --example bench_grid_lab_frames [events per second]`

use std::time::{Duration, Instant};

use searchlab::app::grid_lab::{GridSettings, MapOrigin};
use searchlab::app::replay_bar::ReplayCommand;
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
    let mut output = ctx.run_ui(input, |ui| {
        lab.logic(ui.ctx());
        lab.ui(ui);
    });
    // Nothing draws here, so the texture uploads are dropped (debug builds insist it is said).
    output.textures_delta.clear();
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

fn settings(speed: f32) -> GridSettings {
    GridSettings {
        searches: [GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }; 2],
        map: MapOrigin::File("maps/random512.map".into()),
        speed,
        ..GridSettings::default()
    }
}

/// The same replay in the kittest harness: one `step` (an egui pass) plus a wgpu render per frame.
fn kittest_frames(speed: f32) {
    let lab = GridLab::with_settings(settings(speed));
    let mut harness = egui_kittest::Harness::builder().with_size([1600.0, 1000.0]).wgpu().build_ui_state(
        |ui, lab: &mut GridLab| {
            lab.logic(ui.ctx());
            lab.ui(ui);
        },
        lab,
    );
    while harness.state().is_busy() {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.state_mut().apply(searchlab::app::GridCommand::Replay(ReplayCommand::TogglePlay));
    let (mut passes, mut frames, mut uploads) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..120 {
        let began = Instant::now();
        harness.step();
        passes.push(began.elapsed());
        if let Err(e) = harness.render() {
            println!("kittest harness: no wgpu renderer here ({e}); egui passes only");
            frames.clear();
            break;
        }
        frames.push(began.elapsed());
        uploads.push(harness.state().last_texture_upload());
    }
    report("kittest harness, egui pass", passes, &uploads);
    if !frames.is_empty() {
        report("kittest harness, pass + wgpu render + read-back", frames, &uploads);
    }
}

fn main() {
    let speed: f32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20_000.0);
    let ctx = egui::Context::default();
    let mut lab = GridLab::with_settings(settings(speed));
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

    lab.apply(searchlab::app::GridCommand::Replay(ReplayCommand::TogglePlay));
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
        lab.apply(searchlab::app::GridCommand::Replay(ReplayCommand::Seek(lab.player().len() * (i % 20) / 20)));
        times.push(began.elapsed() + frame(&ctx, &mut lab));
        uploads.push(lab.last_texture_upload());
    }
    report("scrubbing the timeline in big jumps", times, &uploads);

    kittest_frames(speed);
}
