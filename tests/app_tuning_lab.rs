//! The tuning lesson: loads a tuning log through its labelled controls and plots it.

mod common;

use common::scratch::ScratchDir;
use common::ui::{click, type_into};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::{SearchlabApp, TuningLab};
use searchlab::tournament::{TuneConfig, TuneLog, tune};

type LabHarness = Harness<'static, TuningLab>;

fn lab_harness() -> LabHarness {
    common::ui::lesson_harness([1400.0, 900.0], TuningLab::new())
}

#[test]
fn opens_on_the_example_log_with_both_plots_and_their_legends() {
    let mut harness = lab_harness();
    harness.run();
    let log = harness.state().log().expect("the bundled example is shown").clone();
    assert!(log.iterations.len() > 2);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("report score");
    harness.get_by_label("W/D/L score (2s − 1)");
    for name in ["holes_held[0]", "holes_next_turn[2]", "scared", "centre", "teammates"] {
        harness.get_by_label(name);
    }
    harness.get_by_label_contains(&format!("Best vs the reference: iteration {},", log.best_iteration));
}

#[test]
fn loads_a_log_file_typed_into_the_path_field_and_reports_bad_files() {
    let dir = ScratchDir::new("tuning-lab");
    let mut config = TuneConfig::new(1, 2, 1);
    config.ply_limit = 40;
    let written = tune(&config, &()).unwrap();
    let path = dir.write("log.json", written.to_json());
    let broken = dir.write("broken.json", "{\"iterations\": 3}");

    let mut harness = lab_harness();
    harness.run();
    let load = |harness: &mut LabHarness, file: &std::path::Path| {
        type_into(harness, "Log file", file.to_str().unwrap());
        click(harness, "Load log");
    };
    load(&mut harness, &path);
    assert_eq!(harness.state().error(), None);
    let shown: &TuneLog = harness.state().log().unwrap();
    assert_eq!(shown.iterations.len(), 2);
    assert_eq!(shown.best, written.best);
    harness.get_by_label_contains("2 games per match, 1 iterations");

    load(&mut harness, &broken);
    assert!(harness.state().error().unwrap().contains("tuning log"), "{:?}", harness.state().error());
    assert_eq!(harness.state().log().unwrap().iterations.len(), 2, "a bad file keeps the shown log");
    let csv = dir.write("log.csv", written.to_csv());
    load(&mut harness, &csv);
    assert!(harness.state().error().unwrap().contains("reads the JSON log"), "{:?}", harness.state().error());
    assert_eq!(harness.state().log().unwrap().iterations.len(), 2);
}

#[test]
fn a_tiny_tuning_runs_on_a_worker_and_replaces_the_plot() {
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label("Run a tiny tuning").click();
    harness.step();
    assert!(harness.state().is_running(), "the tuning runs on the worker, the page stays live");
    common::ui::settle(&mut harness);
    harness.get_by_label_contains("Log: a tiny tuning run. Engine id:1, 8 games per match, 4 iterations");
}

#[test]
fn the_app_lists_the_tuning_lesson() {
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run();
    harness.get_by_label("Tuning").click();
    harness.run();
    harness.get_by_label("Tuning the Barca evaluation by self-play");
}

/// The weights chart's title says what its lines are, on the page and in `barca plot`'s SVG: in
/// the bundled log `centre` goes 2 → 3 at iteration 1, +50 % of its start, and is drawn at
/// (3 − 2) ÷ max(2, 5) = 0.2, which is what the title must describe.
#[test]
fn the_weights_chart_title_says_what_is_plotted() {
    let title = "Weights: (value − start) ÷ max(|start|, 5)";
    let mut harness = lab_harness();
    harness.run();
    harness.get_by_label(title);
    let log = harness.state().log().unwrap().clone();
    let centre = log.weight_series(false).into_iter().find(|s| s.name == "centre").unwrap();
    assert_eq!(centre.points[1], [1.0, 0.2]);
    assert!(searchlab::tournament::plot::tuning_svg(&log).contains(title));
}

#[test]
fn on_a_projector_the_weights_chart_labels_several_values_on_its_y_axis() {
    let harness = common::ui::app_on("Tuning", [1280.0, 720.0], 1.3);
    let title = harness.get_by_label_contains("Weights: ").rect();
    // The numbers drawn below the chart's title: the y axis's labels, and the x axis's on one row at the bottom.
    let numbers: Vec<(f64, egui::Rect)> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text) => {
                let rect = text.visual_bounding_rect();
                let value = text.galley.text().replace('−', "-").parse::<f64>().ok()?;
                (rect.left() > title.left() - 40.0 && rect.top() > title.bottom()).then_some((value, rect))
            }
            _ => None,
        })
        .collect();
    let x_row = numbers.iter().map(|(_, rect)| rect.center().y).fold(f32::MIN, f32::max);
    let mut y_labels: Vec<(f64, egui::Rect)> =
        numbers.into_iter().filter(|(_, rect)| rect.center().y < x_row - 4.0).collect();
    y_labels.sort_by(|a, b| a.1.top().total_cmp(&b.1.top()));
    let values: Vec<f64> = y_labels.iter().map(|(value, _)| *value).collect();
    assert!(values.len() >= 4, "the y axis labels {values:?}");
    assert!(values.windows(2).all(|pair| pair[0] > pair[1]), "values read upwards: {values:?}");
    assert!(y_labels.windows(2).all(|pair| pair[0].1.bottom() < pair[1].1.top()), "labels never overlap");
    assert!(values.contains(&0.0) && values.iter().any(|&v| v < 0.0) && values.iter().any(|&v| v > 0.0), "{values:?}");
}
