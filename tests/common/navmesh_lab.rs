//! The polygon lab's canvas as painted.

use egui::Color32;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::NavmeshLab;

/// Colours painted on the polygon canvas in the last frame: the fills of polygons and dots, the
/// outlines drawn alone, and with `lines` the colours of lines (Polyanya's intervals and polygons).
pub fn canvas_colours(harness: &Harness<'_, NavmeshLab>, lines: bool) -> Vec<Color32> {
    let canvas = harness.get_by_label("Polygon canvas").rect();
    let mut colours = Vec::new();
    for clipped in harness
        .output()
        .shapes
        .iter()
        .filter(|clipped| canvas.contains_rect(clipped.shape.visual_bounding_rect().shrink(1.0)))
    {
        match &clipped.shape {
            egui::Shape::Path(path) if path.closed && path.fill.a() == 255 => colours.push(path.fill),
            egui::Shape::Path(path) if (path.closed || lines) && path.fill == Color32::TRANSPARENT => {
                if let egui::epaint::ColorMode::Solid(colour) = path.stroke.color {
                    colours.push(colour);
                }
            }
            egui::Shape::LineSegment { stroke, .. } if lines => colours.push(stroke.color),
            egui::Shape::Circle(circle) if circle.fill.a() == 255 => colours.push(circle.fill),
            _ => {}
        }
    }
    colours
}
