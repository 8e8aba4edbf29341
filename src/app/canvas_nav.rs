//! Pan and zoom, the same on every canvas. On a touch screen two fingers always pan and
//! pinch-zoom about their centre, whatever tool is picked, so one finger keeps its meaning on each
//! canvas (paint walls, place points, drag the start, or pan). With a mouse, ctrl + wheel or a
//! trackpad pinch zooms about the pointer (the grid map's plain wheel too, as it always has).
//! The game tree is an `egui::Scene`, which does the same by itself: one finger or the mouse
//! drags it, and a pinch keeps the tree under the first finger, hence under both.

use egui::emath::TSTransform;
use egui::{Pos2, Rangef, Rect, Ui, Vec2};

/// One frame's change of view: move the content by `pan`, then scale it by `zoom` about `about`
/// (screen points). The content under the pinch centre stays under it as the fingers move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nav {
    pub pan: Vec2,
    pub zoom: f32,
    pub about: Pos2,
    /// Two or more fingers are down: the pointer's drag belongs to the gesture, not to an edit.
    pub touch: bool,
}

impl Nav {
    /// A two-finger gesture over the canvas at `rect`, or started on it (`pressed_on`).
    pub fn touch(ui: &Ui, rect: Rect, pressed_on: bool) -> Option<Nav> {
        let touch = ui.input(|i| i.multi_touch())?;
        (pressed_on || rect.contains(touch.center_pos)).then_some(Nav {
            pan: touch.translation_delta,
            zoom: touch.zoom_delta,
            about: touch.center_pos,
            touch: true,
        })
    }

    /// This frame's change of the view of a map canvas at `rect`: a two-finger gesture, else,
    /// while the pointer is over the canvas (`hovered`), ctrl + wheel or a trackpad pinch (and the
    /// plain wheel where it `wheel_zooms`) zooming about the pointer, plus the pointer's `drag`
    /// where that pans. None when the view stays.
    pub fn read(ui: &Ui, rect: Rect, hovered: bool, drag: Vec2, wheel_zooms: bool) -> Option<Nav> {
        if let Some(nav) = Self::touch(ui, rect, hovered) {
            return Some(nav);
        }
        let (pointer, scroll, zoom) = ui.input(|i| (i.pointer.latest_pos(), i.smooth_scroll_delta.y, i.zoom_delta()));
        let wheel = if wheel_zooms { (scroll / 300.0).exp() } else { 1.0 };
        let zoom = if hovered { zoom * wheel } else { 1.0 };
        let nav = Nav { pan: drag, zoom, about: pointer.unwrap_or(rect.center()), touch: false };
        (drag != Vec2::ZERO || zoom != 1.0).then_some(nav)
    }

    /// The content-to-screen transform `to_screen` after this change, its scale kept in `scales`.
    pub fn apply(self, to_screen: TSTransform, scales: Rangef) -> TSTransform {
        let moved = TSTransform::from_translation(self.pan) * to_screen;
        let zoom = scales.clamp(moved.scaling * self.zoom) / moved.scaling;
        let about = self.about.to_vec2();
        TSTransform::from_translation(about)
            * TSTransform::from_scaling(zoom)
            * TSTransform::from_translation(-about)
            * moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinch_keeps_the_content_under_both_fingers() {
        let to_screen = TSTransform::new(Vec2::new(30.0, -12.0), 1.5);
        let (a, b) = (Pos2::new(100.0, 100.0), Pos2::new(200.0, 160.0));
        let (content_a, content_b) = (to_screen.inverse() * a, to_screen.inverse() * b);
        // The fingers move apart and to the right: twice as far apart, centre 40 points right.
        let (a2, b2) = (Pos2::new(90.0, 70.0), Pos2::new(290.0, 190.0));
        let (centre, centre2) = (a.lerp(b, 0.5), a2.lerp(b2, 0.5));
        let nav = Nav { pan: centre2 - centre, zoom: 2.0, about: centre2, touch: true };
        let after = nav.apply(to_screen, Rangef::new(0.1, 10.0));
        assert!((after * content_a).distance(a2) < 1e-3, "{:?} vs {a2:?}", after * content_a);
        assert!((after * content_b).distance(b2) < 1e-3, "{:?} vs {b2:?}", after * content_b);
    }

    #[test]
    fn the_zoom_stops_at_the_range_but_keeps_the_centre() {
        let to_screen = TSTransform::new(Vec2::new(5.0, 5.0), 2.0);
        let about = Pos2::new(50.0, 40.0);
        let content = to_screen.inverse() * about;
        let after = Nav { pan: Vec2::ZERO, zoom: 10.0, about, touch: true }.apply(to_screen, Rangef::new(0.5, 4.0));
        assert_eq!(after.scaling, 4.0);
        assert!((after * content).distance(about) < 1e-3);
    }
}
