//! The series a tuning log is plotted from (shared by the app's Tuning page and the CLI), and a
//! small SVG writer so `barca plot` can draw them without a GUI.

use std::fmt::Write;

use super::tune::{TUNED_NAMES, TuneLog, tunable};

/// A named line of (iteration, value) points.
pub struct Series {
    pub name: &'static str,
    pub points: Vec<[f64; 2]>,
}

impl TuneLog {
    /// The report score and the W/D/L score (mapped to −1..1) against the reference.
    pub fn score_series(&self) -> Vec<Series> {
        let series = |name, value: fn(&super::IterationLog) -> f64| Series {
            name,
            points: self.iterations.iter().map(|row| [f64::from(row.iteration), value(row)]).collect(),
        };
        vec![
            series("report score", |row| row.report_score),
            series("W/D/L score (2s − 1)", |row| 2.0 * row.plain_score - 1.0),
        ]
    }

    /// Each tuned weight per iteration: its value (`raw`), or its change from the start divided by
    /// the start's size (at least [`MIN_SCALE`]), so weights of different sizes share one axis.
    pub fn weight_series(&self, raw: bool) -> Vec<Series> {
        let Some(first) = self.iterations.first() else { return Vec::new() };
        let start = tunable(&first.weights);
        (0..TUNED_NAMES.len())
            .map(|i| {
                let scale = f64::from(start[i].abs().max(MIN_SCALE));
                let points = self
                    .iterations
                    .iter()
                    .map(|row| {
                        let value = f64::from(tunable(&row.weights)[i]);
                        let shown = if raw { value } else { (value - f64::from(start[i])) / scale };
                        [f64::from(row.iteration), shown]
                    })
                    .collect();
                Series { name: TUNED_NAMES[i], points }
            })
            .collect()
    }

    /// Iterations that ended in a restart from the best vector.
    pub fn restarts(&self) -> Vec<f64> {
        self.iterations.iter().filter(|row| row.restarted).map(|row| f64::from(row.iteration)).collect()
    }
}

/// Weights starting smaller than this (or at 0) change in units of it, not of their start value.
const MIN_SCALE: i32 = 5;

/// The weights chart's title (the Tuning page's and the SVG's), saying what is plotted.
pub fn weights_title(raw: bool) -> String {
    if raw { "Weights".to_string() } else { format!("Weights: (value − start) ÷ max(|start|, {MIN_SCALE})") }
}

/// Line colours, distinguishable on white.
const PALETTE: [&str; 10] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

const WIDTH: f64 = 900.0;
const CHART_HEIGHT: f64 = 320.0;
/// Left, right, top and bottom margins of a chart: axis labels on the left, the legend on the right.
const MARGIN: [f64; 4] = [60.0, 190.0, 36.0, 40.0];

/// Both charts of the Tuning page, one above the other, as an SVG document.
pub fn tuning_svg(log: &TuneLog) -> String {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{}\" font-family=\"sans-serif\" \
         font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        2.0 * CHART_HEIGHT
    );
    chart(&mut svg, 0.0, "Score against the fixed reference", &log.score_series(), &log.restarts());
    chart(&mut svg, CHART_HEIGHT, &weights_title(false), &log.weight_series(false), &[]);
    svg.push_str("</svg>\n");
    svg
}

fn chart(svg: &mut String, top: f64, title: &str, series: &[Series], restarts: &[f64]) {
    let [left, right, margin_top, bottom] = MARGIN;
    let (x0, x1) = (left, WIDTH - right);
    let (y0, y1) = (top + CHART_HEIGHT - bottom, top + margin_top);
    // Points with a non-finite coordinate cannot be placed; they are left out.
    let points = || series.iter().flat_map(|s| s.points.iter()).filter(|p| p[0].is_finite() && p[1].is_finite());
    let bounds = |axis: usize| {
        let (low, high) =
            points().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[axis]), h.max(p[axis])));
        match (low.is_finite(), high > low) {
            (false, _) => (0.0, 1.0),
            // One value: a band around it, wide enough to survive rounding at any size.
            (true, false) => (low - low.abs().max(2.0) / 2.0, high + high.abs().max(2.0) / 2.0),
            (true, true) => (low, high),
        }
    };
    let ((xmin, xmax), (ymin, ymax)) = (bounds(0), bounds(1));
    let sx = |x: f64| x0 + fraction(x, xmin, xmax) * (x1 - x0);
    let sy = |y: f64| y0 - fraction(y, ymin, ymax) * (y0 - y1);
    let _ =
        writeln!(svg, "<text x=\"{left}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">{title}</text>", top + 20.0);
    let _ = writeln!(
        svg,
        "<rect x=\"{x0}\" y=\"{y1}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>",
        x1 - x0,
        y0 - y1
    );
    for tick in 0..=4 {
        let t = f64::from(tick) / 4.0;
        let y = ymin * (1.0 - t) + ymax * t;
        let _ =
            writeln!(svg, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", x0 - 6.0, sy(y) + 4.0, label(y, 2));
        let x = xmin * (1.0 - t) + xmax * t;
        let _ =
            writeln!(svg, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", sx(x), y0 + 16.0, label(x, 0));
    }
    let _ =
        writeln!(svg, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">iteration</text>", (x0 + x1) / 2.0, y0 + 32.0);
    if ymin < 0.0 && ymax > 0.0 {
        let _ = writeln!(svg, "<line x1=\"{x0}\" y1=\"{0}\" x2=\"{x1}\" y2=\"{0}\" stroke=\"#ccc\"/>", sy(0.0));
    }
    for &x in restarts {
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{y1}\" x2=\"{0}\" y2=\"{y0}\" stroke=\"#aaa\" stroke-dasharray=\"4 3\"/>",
            sx(x)
        );
    }
    for (i, line) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let path: Vec<String> = line
            .points
            .iter()
            .filter(|p| p[0].is_finite() && p[1].is_finite())
            .map(|p| format!("{:.1},{:.1}", sx(p[0]), sy(p[1])))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            path.join(" ")
        );
        let legend_y = y1 + 14.0 + 16.0 * i as f64;
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{legend_y}\" x2=\"{1}\" y2=\"{legend_y}\" stroke=\"{colour}\" stroke-width=\"3\"/>",
            x1 + 12.0,
            x1 + 32.0
        );
        let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\">{}</text>", x1 + 38.0, legend_y + 4.0, line.name);
    }
    if !restarts.is_empty() {
        let legend_y = y1 + 14.0 + 16.0 * series.len() as f64;
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{legend_y}\" x2=\"{1}\" y2=\"{legend_y}\" stroke=\"#aaa\" stroke-dasharray=\"4 3\"/>",
            x1 + 12.0,
            x1 + 32.0
        );
        let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\">restart</text>", x1 + 38.0, legend_y + 4.0);
    }
}

/// Where `value` lies between `low` and `high` (0 to 1); a span too wide for f64 (values near
/// ±f64::MAX) is measured in halves.
fn fraction(value: f64, low: f64, high: f64) -> f64 {
    let span = high - low;
    if span.is_finite() { (value - low) / span } else { (value / 2.0 - low / 2.0) / (high / 2.0 - low / 2.0) }
}

/// An axis label with `decimals` places, in exponent form when it would be long.
fn label(value: f64, decimals: usize) -> String {
    if value.abs() >= 1e6 { format!("{value:.2e}") } else { format!("{value:.decimals$}") }
}
