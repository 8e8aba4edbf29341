//! The look of every canvas in one place: a `Palette` per theme (dark, or light for a projector
//! that washes dark themes out) and per colour set (the usual one, or Okabe–Ito colours that
//! colour-blind students tell apart). Canvases and their legends read the same palette.

use egui::Color32;
use serde::{Deserialize, Serialize};

/// What the user picked on the top bar; kept between runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Theme {
    pub light: bool,
    pub colour_blind_safe: bool,
}

/// Every colour a canvas paints (and its legend shows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// Behind a map or a tree, where the map does not reach.
    pub background: Color32,
    /// Thin lines and labels drawn straight on the background.
    pub ink: Color32,
    // Searches on grids and polygons.
    pub unseen: Color32,
    pub wall: Color32,
    pub open: Color32,
    pub closed: Color32,
    pub current: Color32,
    pub relaxing: Color32,
    pub path: Color32,
    pub start: Color32,
    pub goal: Color32,
    pub hovered: Color32,
    // Hierarchical planners' layers.
    pub cluster: Color32,
    pub transition: Color32,
    pub graph: Color32,
    pub abstract_path: Color32,
    pub refined: Color32,
    pub smoothed: Color32,
    pub recomputed: Color32,
    // Polygon maps.
    pub triangle_edge: Color32,
    pub obstacle_edge: Color32,
    pub channel: Color32,
    pub corridor: Color32,
    pub dead_end: Color32,
    pub decision: Color32,
    pub grid_path: Color32,
    pub apex: Color32,
    pub left_side: Color32,
    pub right_side: Color32,
    pub portal: Color32,
    pub sample: Color32,
    pub walk: Color32,
    pub drawing: Color32,
    /// The any-angle path, over the channel's yellow.
    pub mesh_path: Color32,
    // Game trees: cards of the side to move, their text, outlines.
    pub max_fill: Color32,
    pub min_fill: Color32,
    pub other_fill: Color32,
    pub card_text: Color32,
    pub tree_edge: Color32,
    pub tree_current: Color32,
    pub tree_path: Color32,
    pub best_line: Color32,
    pub pruned: Color32,
    pub selected: Color32,
    // The Barca board.
    pub light_square: Color32,
    pub dark_square: Color32,
    pub water: Color32,
    pub water_line: Color32,
    pub last_move: Color32,
    pub picked: Color32,
    pub safe_move: Color32,
    pub unsafe_move: Color32,
    pub best_so_far: Color32,
    pub scared: Color32,
    pub white_fill: Color32,
    pub white_ink: Color32,
    pub black_fill: Color32,
    pub black_ink: Color32,
    /// Behind the white words of a result banner.
    pub banner: Color32,
    // Plots.
    /// Ten distinct colours (Tableau 10), one per tuned weight.
    pub series: [Color32; 10],
    pub best_iteration: Color32,
    pub restart: Color32,
    // Lines of text that mean something.
    pub error: Color32,
    pub warning: Color32,
    pub notice: Color32,
}

const fn rgb(r: u8, g: u8, b: u8) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// The Okabe–Ito colours (Okabe & Ito 2008), distinct under the common colour-vision deficiencies.
mod okabe_ito {
    use super::{Color32, rgb};
    pub const ORANGE: Color32 = rgb(230, 159, 0);
    pub const SKY_BLUE: Color32 = rgb(86, 180, 233);
    pub const BLUISH_GREEN: Color32 = rgb(0, 158, 115);
    pub const YELLOW: Color32 = rgb(240, 228, 66);
    pub const BLUE: Color32 = rgb(0, 114, 178);
    pub const VERMILLION: Color32 = rgb(213, 94, 0);
    pub const REDDISH_PURPLE: Color32 = rgb(204, 121, 167);
}

const DARK: Palette = Palette {
    background: Color32::from_gray(24),
    ink: Color32::from_gray(200),
    unseen: Color32::from_gray(238),
    wall: rgb(40, 42, 54),
    open: rgb(100, 200, 115),
    closed: rgb(115, 155, 230),
    current: rgb(230, 45, 45),
    relaxing: rgb(250, 145, 25),
    path: rgb(255, 210, 30),
    // Far darker than the frontier's green, which is drawn beside it: told apart on a projector.
    start: rgb(0, 85, 35),
    goal: rgb(190, 40, 190),
    hovered: rgb(255, 80, 200),
    cluster: rgb(90, 90, 110),
    transition: rgb(230, 70, 160),
    graph: Color32::from_rgba_premultiplied(120, 60, 170, 170),
    abstract_path: rgb(170, 40, 220),
    refined: rgb(240, 110, 40),
    smoothed: rgb(20, 190, 200),
    recomputed: rgb(255, 120, 0),
    triangle_edge: Color32::from_gray(150),
    obstacle_edge: Color32::BLACK,
    channel: rgb(250, 225, 120),
    // Lavender, clearly off the free space's white even on a washed-out projector.
    corridor: rgb(190, 170, 240),
    dead_end: Color32::from_gray(200),
    // Not the goal's magenta nor the start's green: all three show at once under TRA*.
    decision: rgb(25, 30, 130),
    grid_path: rgb(0, 170, 190),
    apex: rgb(120, 60, 20),
    left_side: rgb(130, 80, 220),
    right_side: rgb(220, 50, 50),
    portal: rgb(120, 120, 120),
    sample: rgb(240, 150, 30),
    walk: rgb(150, 40, 200),
    drawing: rgb(20, 140, 90),
    mesh_path: rgb(230, 120, 20),
    max_fill: rgb(44, 62, 92),
    min_fill: rgb(92, 48, 52),
    other_fill: Color32::from_gray(40),
    card_text: Color32::WHITE,
    tree_edge: Color32::from_gray(110),
    tree_current: rgb(250, 220, 90),
    tree_path: Color32::WHITE,
    best_line: rgb(240, 170, 40),
    pruned: Color32::from_gray(90),
    selected: rgb(90, 220, 240),
    light_square: rgb(226, 214, 178),
    dark_square: rgb(196, 178, 132),
    water: rgb(92, 158, 214),
    water_line: rgb(225, 240, 252),
    last_move: Color32::from_rgba_premultiplied(150, 140, 0, 110),
    picked: rgb(250, 200, 20),
    safe_move: rgb(30, 160, 60),
    unsafe_move: rgb(210, 40, 40),
    // Purple: the water's blue would hide the arrow on a watering hole.
    best_so_far: rgb(120, 40, 160),
    // Not the red of a move it would be scared on: both show at once.
    scared: rgb(255, 130, 0),
    white_fill: rgb(250, 246, 232),
    white_ink: rgb(70, 52, 30),
    black_fill: rgb(45, 42, 48),
    black_ink: rgb(240, 232, 210),
    banner: rgb(40, 90, 150),
    series: [
        rgb(78, 121, 167),
        rgb(242, 142, 43),
        rgb(225, 87, 89),
        rgb(118, 183, 178),
        rgb(89, 161, 79),
        rgb(23, 190, 207),
        rgb(176, 122, 161),
        rgb(255, 157, 167),
        rgb(156, 117, 95),
        rgb(186, 176, 172),
    ],
    best_iteration: rgb(250, 220, 90),
    restart: Color32::from_gray(215),
    error: rgb(235, 90, 70),
    warning: rgb(235, 150, 70),
    notice: rgb(120, 200, 140),
};

/// Darker, more saturated colours than the dark theme's: pale ones vanish on a projected white.
const LIGHT: Palette = Palette {
    background: Color32::from_gray(200),
    ink: Color32::from_gray(30),
    unseen: Color32::WHITE,
    open: rgb(60, 175, 80),
    closed: rgb(90, 130, 220),
    relaxing: rgb(240, 130, 0),
    path: rgb(250, 200, 0),
    cluster: rgb(70, 70, 90),
    triangle_edge: Color32::from_gray(120),
    max_fill: rgb(190, 210, 240),
    min_fill: rgb(242, 200, 200),
    other_fill: Color32::from_gray(225),
    card_text: Color32::BLACK,
    tree_edge: Color32::from_gray(120),
    tree_current: rgb(215, 130, 0),
    tree_path: Color32::BLACK,
    best_line: rgb(200, 90, 0),
    pruned: Color32::from_gray(150),
    selected: rgb(0, 140, 180),
    best_iteration: rgb(200, 140, 0),
    restart: Color32::from_gray(45),
    error: rgb(190, 30, 20),
    warning: rgb(170, 90, 0),
    notice: rgb(20, 120, 50),
    ..DARK
};

impl Theme {
    pub fn palette(self) -> Palette {
        let mut palette = if self.light { LIGHT } else { DARK };
        if self.colour_blind_safe {
            use okabe_ito::*;
            // Open and closed differ in lightness as well as hue; no red against green.
            palette.open = YELLOW;
            palette.closed = SKY_BLUE;
            palette.current = VERMILLION;
            palette.relaxing = REDDISH_PURPLE;
            // Darker than Okabe-Ito's blue: it runs over the sky-blue closed cells.
            palette.path = rgb(0, 60, 120);
            palette.start = BLUISH_GREEN;
            palette.goal = ORANGE;
            // Not the frontier's yellow: a pale reddish purple under the blue path.
            palette.channel = rgb(240, 200, 225);
            palette.mesh_path = BLUE;
            // Dots, on free space only: black is not taken there.
            palette.decision = Color32::BLACK;
            palette.grid_path = REDDISH_PURPLE;
            palette.right_side = VERMILLION;
            // Not the goal's orange: both show while the walk locates the goal.
            palette.sample = VERMILLION;
            palette.left_side = BLUE;
            palette.safe_move = BLUE;
            palette.unsafe_move = VERMILLION;
            palette.scared = REDDISH_PURPLE;
            palette.max_fill = if self.light { rgb(170, 205, 235) } else { rgb(20, 70, 110) };
            palette.min_fill = if self.light { rgb(245, 205, 160) } else { rgb(110, 60, 10) };
        }
        palette
    }

    /// The theme shown now (the dark one until the app sets another).
    pub fn of(ctx: &egui::Context) -> Theme {
        Self::applied(ctx).unwrap_or_default()
    }

    /// The theme last applied to `ctx`, if any was.
    pub fn applied(ctx: &egui::Context) -> Option<Theme> {
        ctx.data(|data| data.get_temp(egui::Id::unique(STORAGE_KEY)))
    }

    /// Shows the app in this theme from the next frame on: egui's widgets and every canvas.
    pub fn apply(self, ctx: &egui::Context) {
        ctx.data_mut(|data| data.insert_temp(egui::Id::unique(STORAGE_KEY), self));
        ctx.set_theme(if self.light { egui::Theme::Light } else { egui::Theme::Dark });
    }
}

/// Where the app keeps the theme between runs.
pub const STORAGE_KEY: &str = "theme";

/// The palette of the theme shown now.
pub fn palette(ctx: &egui::Context) -> Palette {
    Theme::of(ctx).palette()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance.
    fn luminance(colour: Color32) -> f32 {
        let linear = |c: u8| {
            let c = f32::from(c) / 255.0;
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * linear(colour.r()) + 0.7152 * linear(colour.g()) + 0.0722 * linear(colour.b())
    }

    /// WCAG contrast ratio, 1 to 21.
    fn contrast(a: Color32, b: Color32) -> f32 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The colour-blind-safe path is told from the cells it crosses by lightness, not hue alone.
    #[test]
    fn the_colour_blind_safe_path_stands_out_from_explored_cells() {
        for light in [false, true] {
            let p = Theme { light, colour_blind_safe: true }.palette();
            for (cells, name) in [(p.closed, "closed"), (p.open, "open")] {
                let ratio = contrast(p.path, cells);
                assert!(ratio >= 3.0, "path against {name} cells: contrast {ratio:.2} (light {light})");
            }
        }
    }

    /// The start sits among the frontier's cells, both green in the usual palettes: the two differ
    /// in lightness there (the colour-blind-safe frontier is yellow, another hue).
    #[test]
    fn the_start_stands_out_from_the_frontier() {
        for light in [false, true] {
            let p = Theme { light, colour_blind_safe: false }.palette();
            let ratio = contrast(p.start, p.open);
            assert!(ratio >= 3.0, "start against the frontier: contrast {ratio:.2} (light {light})");
        }
    }

    /// Colours a legend tells apart must differ, in every theme.
    #[test]
    fn the_search_colours_are_distinct_in_every_theme() {
        for light in [false, true] {
            for colour_blind_safe in [false, true] {
                let p = Theme { light, colour_blind_safe }.palette();
                let grid = [p.unseen, p.wall, p.open, p.closed, p.current, p.relaxing, p.path, p.start, p.goal];
                let polygon = [
                    p.unseen,
                    p.wall,
                    p.open,
                    p.closed,
                    p.current,
                    p.channel,
                    p.mesh_path,
                    p.start,
                    p.goal,
                    p.decision,
                    p.corridor,
                    p.dead_end,
                    p.grid_path,
                ];
                let walk = [p.unseen, p.wall, p.sample, p.walk, p.start, p.goal];
                let barca = crate::app::barca_board::legend_entries(&p).map(|(colour, _)| colour);
                for colours in [&grid[..], &polygon[..], &walk[..], &barca[..]] {
                    for (i, a) in colours.iter().enumerate() {
                        assert!(
                            !colours[i + 1..].contains(a),
                            "{a:?} twice (light {light}, colour-blind safe {colour_blind_safe})"
                        );
                    }
                }
            }
        }
    }

    /// Redmean colour distance (0 to about 765) of two colours as drawn over `ground`.
    fn distance_over(ground: Color32, a: Color32, b: Color32) -> f32 {
        let drawn = |c: Color32| {
            let behind = 1.0 - f32::from(c.a()) / 255.0;
            [(c.r(), ground.r()), (c.g(), ground.g()), (c.b(), ground.b())]
                .map(|(c, g)| f32::from(c) + behind * f32::from(g))
        };
        let ([r1, g1, b1], [r2, g2, b2]) = (drawn(a), drawn(b));
        let mean_red = (r1 + r2) / 2.0;
        ((2.0 + mean_red / 256.0) * (r1 - r2).powi(2)
            + 4.0 * (g1 - g2).powi(2)
            + (2.0 + (255.0 - mean_red) / 256.0) * (b1 - b2).powi(2))
        .sqrt()
    }

    /// TRA*'s corridor and dead-end triangles stand out from free space (the corridor was once a
    /// blue-white a projector washed into it).
    #[test]
    fn tra_roles_stand_out_from_free_space_in_every_theme() {
        for light in [false, true] {
            for colour_blind_safe in [false, true] {
                let p = Theme { light, colour_blind_safe }.palette();
                for (role, name) in [(p.corridor, "corridor"), (p.dead_end, "dead end")] {
                    let apart = distance_over(p.unseen, role, p.unseen);
                    assert!(apart >= 100.0, "{name}: {apart:.0} from free space (light {light})");
                }
            }
        }
    }

    /// Each mark in the Barca legend can be told from every other on the board's squares (the
    /// computer's move was once nearly the watering holes' blue).
    #[test]
    fn the_barca_marks_differ_clearly_in_every_theme() {
        for light in [false, true] {
            for colour_blind_safe in [false, true] {
                let p = Theme { light, colour_blind_safe }.palette();
                let legend = crate::app::barca_board::legend_entries(&p);
                for ground in [p.light_square, p.dark_square] {
                    for (i, (a, a_name)) in legend.iter().enumerate() {
                        for (b, b_name) in &legend[i + 1..] {
                            let apart = distance_over(ground, *a, *b);
                            assert!(
                                apart >= 100.0,
                                "{a_name} and {b_name}: {apart:.0} apart (light {light}, colour-blind safe {colour_blind_safe})"
                            );
                        }
                    }
                }
            }
        }
    }
}
