//! HPA* and PRA* on the grid lab's map: their abstractions drawn as layers over the left canvas,
//! a table against A* on the same query, and the clusters HPA* re-computed after a wall edit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Color32, ColorImage, Mesh, Painter, Pos2, Rect, Sense, Shape, Stroke, TextureHandle, TextureOptions, Vec2};
use serde::{Deserialize, Serialize};

use super::Command;
use super::canvas::{CLOSED, CURRENT, MapView, OPEN};
use crate::grid::{Grid, MoveRules};
use crate::pathfinding::hpa::{Hpa, HpaQuery, HpaResult};
use crate::pathfinding::pra::{PraOptions, PraResult, Pyramid};
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage, PlanView};
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::trace::{NO_NODE, NoTrace, Player, Recorder};
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent};

/// The hierarchical planner run beside the replayed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Planner {
    #[default]
    Off,
    Hpa,
    Pra,
}

impl Planner {
    pub const ALL: [Planner; 3] = [Planner::Off, Planner::Hpa, Planner::Pra];

    pub fn name(self) -> &'static str {
        match self {
            Planner::Off => "Off",
            Planner::Hpa => "HPA*",
            Planner::Pra => "PRA*",
        }
    }
}

/// What the replay bar steps through while a planner is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Stepping {
    #[default]
    Search,
    Planner,
}

/// Which drawings are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layers {
    pub clusters: bool,
    pub transitions: bool,
    pub graph: bool,
    pub abstract_path: bool,
    pub refined: bool,
    pub smoothed: bool,
    pub regions: bool,
    pub corridor: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            clusters: true,
            transitions: true,
            graph: false,
            abstract_path: true,
            refined: true,
            smoothed: true,
            regions: true,
            corridor: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HierarchySettings {
    pub planner: Planner,
    /// HPA*: cluster side, levels (1 or 2), smoothing.
    pub cluster: u32,
    pub levels: usize,
    pub smooth: bool,
    /// The level whose transitions, graph and abstract path (HPA*) or regions, abstract path and
    /// corridor (PRA*) are drawn.
    pub shown_level: usize,
    pub layers: Layers,
    pub stepping: Stepping,
    /// PRA*: the level to plan on (None: half the pyramid height) and PRA*(k).
    pub pra_level: Option<usize>,
    pub pra_k: Option<usize>,
}

impl Default for HierarchySettings {
    fn default() -> Self {
        Self {
            planner: Planner::Off,
            cluster: 10,
            levels: 1,
            smooth: true,
            shown_level: 1,
            layers: Layers::default(),
            stepping: Stepping::Search,
            pra_level: None,
            pra_k: None,
        }
    }
}

impl HierarchySettings {
    /// What the plan depends on; the rest only changes the drawing.
    pub fn plan_key(&self) -> (Planner, u32, usize, bool, Option<usize>, Option<usize>) {
        (self.planner, self.cluster, self.levels, self.smooth, self.pra_level, self.pra_k)
    }

    fn pra_options(&self) -> PraOptions {
        PraOptions { level: self.pra_level, k: self.pra_k }
    }
}

const CLUSTER: Color32 = Color32::from_rgb(90, 90, 110);
const TRANSITION: Color32 = Color32::from_rgb(230, 70, 160);
const GRAPH: Color32 = Color32::from_rgba_premultiplied(120, 60, 170, 170);
const ABSTRACT: Color32 = Color32::from_rgb(170, 40, 220);
const REFINED: Color32 = Color32::from_rgb(240, 110, 40);
const SMOOTHED: Color32 = Color32::from_rgb(20, 190, 200);
const RECOMPUTED: Color32 = Color32::from_rgb(255, 120, 0);
/// Seconds the re-computed clusters stay highlighted.
const HIGHLIGHT_SECONDS: f32 = 4.0;

#[derive(Debug, Clone)]
enum Abstraction {
    Hpa(Hpa),
    Pra(Pyramid),
}

#[derive(Debug, Clone)]
enum Answer {
    Hpa(HpaResult),
    Pra(PraResult),
}

/// A* on the same query, the reference for suboptimality.
#[derive(Debug, Clone, Copy)]
struct Reference {
    cost: Option<f64>,
    expanded: usize,
    time: Duration,
}

/// One planned query with what the layers draw.
pub struct Plan {
    abstraction: Arc<Abstraction>,
    /// Building, or after an edit updating, the abstraction; None when the last one was reused.
    preprocessing: Option<Duration>,
    /// Per level (index = level - 1), the clusters an edit made HPA* re-compute; None after a build.
    recomputed: Option<Vec<Vec<u32>>>,
    answer: Answer,
    query_time: Duration,
    astar: Reference,
    /// HPA*: per level, transitions and the graph's edges (each undirected edge once).
    transitions: Vec<Vec<(u32, u32)>>,
    edges: Vec<Vec<(u32, u32)>>,
    /// Edits included, so only later ones are kept for the next update.
    edits_applied: usize,
    /// The query's recorded trace, for stepping through the planner.
    player: Player<PlanView>,
}

/// What the worker needs to plan: the settings and the abstraction to reuse or update.
pub struct PlanJob {
    settings: HierarchySettings,
    rules: MoveRules,
    previous: Option<Arc<Abstraction>>,
    edits: Vec<(u32, u32)>,
}

impl PlanJob {
    /// Plans on `grid` (`fresh`: a new map, nothing to reuse). None when no planner is on.
    pub fn run(self, grid: &Grid, start: u32, goal: u32, fresh: bool) -> Option<Plan> {
        let settings = self.settings;
        let previous = self.previous.filter(|_| !fresh).filter(|previous| match &**previous {
            Abstraction::Hpa(hpa) if settings.planner == Planner::Hpa => {
                (hpa.cluster_size(), hpa.levels(), hpa.rules()) == (settings.cluster.max(2), settings.levels, self.rules)
            }
            Abstraction::Pra(pyramid) => settings.planner == Planner::Pra && pyramid.rules() == self.rules && self.edits.is_empty(),
            Abstraction::Hpa(_) => false,
        });
        let clock = Instant::now();
        let reused = previous.is_some() && self.edits.is_empty();
        let (abstraction, recomputed) = match (settings.planner, previous) {
            (Planner::Off, _) => return None,
            (_, Some(previous)) if self.edits.is_empty() => (previous, None),
            (Planner::Hpa, Some(previous)) => {
                let Abstraction::Hpa(mut hpa) = Arc::unwrap_or_clone(previous) else { unreachable!("filtered above") };
                let redone = hpa.update(grid, &self.edits);
                (Arc::new(Abstraction::Hpa(hpa)), Some(redone))
            }
            (Planner::Hpa, None) => {
                let hpa = Hpa::build_levels(grid, self.rules, settings.cluster, settings.levels.clamp(1, 2));
                (Arc::new(Abstraction::Hpa(hpa)), None)
            }
            (Planner::Pra, _) => (Arc::new(Abstraction::Pra(Pyramid::build(grid, self.rules))), None),
        };
        let preprocessing = (!reused).then(|| clock.elapsed());
        let mut space = SearchSpace::new();
        let clock = Instant::now();
        let answer = match &*abstraction {
            Abstraction::Hpa(hpa) => {
                Answer::Hpa(hpa.query(grid, start, goal, HpaQuery { smooth: settings.smooth }, &mut space, &mut NoTrace))
            }
            Abstraction::Pra(pyramid) => {
                Answer::Pra(pyramid.query(grid, start, goal, settings.pra_options(), &mut space, &mut NoTrace))
            }
        };
        let query_time = clock.elapsed();
        // Again, recorded: the same code, its events kept for the replay.
        let mut recorder = Recorder::default();
        match &*abstraction {
            Abstraction::Hpa(hpa) => {
                hpa.query(grid, start, goal, HpaQuery { smooth: settings.smooth }, &mut space, &mut recorder);
            }
            Abstraction::Pra(pyramid) => {
                pyramid.query(grid, start, goal, settings.pra_options(), &mut space, &mut recorder);
            }
        }
        // Room for PRA*'s virtual goal, one id past the last cell.
        let player = Player::new(recorder.finish(), PlanView::new(grid.cell_count() + 1));
        let clock = Instant::now();
        let astar = GridSearch { rules: self.rules, ..GridSearch::default() }.run(grid, start, goal, &mut space, &mut NoTrace);
        let astar = Reference { cost: astar.cost(), expanded: astar.expanded, time: clock.elapsed() };
        let (mut transitions, mut edges) = (Vec::new(), Vec::new());
        if let Abstraction::Hpa(hpa) = &*abstraction {
            for level in 1..=hpa.levels() {
                transitions.push(hpa.transitions(level).collect());
                edges.push(hpa.abstract_edges(level).filter(|e| e.0 < e.1).map(|e| (e.0, e.1)).collect());
            }
        }
        Some(Plan {
            abstraction,
            preprocessing,
            recomputed,
            answer,
            query_time,
            astar,
            transitions,
            edges,
            edits_applied: self.edits.len(),
            player,
        })
    }
}

/// A texture drawn over the map, rebuilt only when what it shows changes.
#[derive(Default)]
struct CachedTexture {
    key: Option<(u64, usize)>,
    texture: Option<TextureHandle>,
}

impl CachedTexture {
    fn get(&mut self, ctx: &egui::Context, name: &str, key: (u64, usize), make: impl FnOnce() -> ColorImage) -> &TextureHandle {
        if self.key != Some(key) || self.texture.is_none() {
            let image = make();
            match &mut self.texture {
                Some(texture) => texture.set(image, TextureOptions::NEAREST),
                None => self.texture = Some(ctx.load_texture(name, image, TextureOptions::NEAREST)),
            }
            self.key = Some(key);
        }
        self.texture.as_ref().expect("made above")
    }
}

/// The page's hierarchical planning: the last plan and the edits made since.
#[derive(Default)]
pub struct HierarchyState {
    plan: Option<Plan>,
    /// Counts installed plans, so cached textures know when to redraw.
    plan_id: u64,
    abstraction: Option<Arc<Abstraction>>,
    edits: Vec<(u32, u32)>,
    installed_at: Option<Instant>,
    regions: CachedTexture,
    /// How many regions the region layer shows (PRA*'s nodes on the level shown).
    region_count: usize,
    corridor: CachedTexture,
}

/// A planner's figures against A* on the same query, as the table shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanSummary {
    pub planner: Planner,
    pub cost: Option<f64>,
    pub astar_cost: Option<f64>,
    /// Nodes expanded per level, index = level (0 = the grid).
    pub expanded_per_level: Vec<usize>,
    /// Per level, the clusters re-computed by the last edit (HPA* only).
    pub recomputed: Option<Vec<usize>>,
    /// False when PRA*(k) kept only the first steps of the way.
    pub complete: bool,
}

impl PlanSummary {
    /// How much dearer than A*'s path, in percent.
    pub fn suboptimality(&self) -> Option<f64> {
        if !self.complete {
            return None;
        }
        Some(100.0 * (self.cost? / self.astar_cost?.max(1e-12) - 1.0))
    }
}

fn percent(value: f64) -> String {
    format!("{value:.2} %")
}

fn millis(time: Duration) -> String {
    format!("{:.2} ms", time.as_secs_f64() * 1e3)
}

/// The label under the re-computed clusters, e.g. "Re-computed clusters: 5 on level 1, 2 on level 2".
pub fn recomputed_text(counts: &[usize]) -> String {
    let parts: Vec<String> = counts.iter().enumerate().map(|(l, n)| format!("{n} on level {}", l + 1)).collect();
    format!("Re-computed clusters: {}", parts.join(", "))
}

/// A distinct colour per region id.
fn region_colour(id: u32) -> Color32 {
    let hue = (id as f32 * 0.618_034).fract();
    let [r, g, b, _] = Color32::from(egui::ecolor::Hsva::new(hue, 0.6, 0.95, 1.0)).to_array();
    Color32::from_rgba_unmultiplied(r, g, b, 150)
}

/// Adds a line from `a` to `b` as one quad: thousands of edges stay one mesh.
fn add_segment(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let normal = (b - a).normalized().rot90() * (width / 2.0);
    let first = mesh.vertices.len() as u32;
    for p in [a + normal, a - normal, b - normal, b + normal] {
        mesh.colored_vertex(p, colour);
    }
    mesh.add_triangle(first, first + 1, first + 2);
    mesh.add_triangle(first, first + 2, first + 3);
}

fn polyline(painter: &Painter, points: Vec<Pos2>, width: f32, colour: Color32) {
    if points.len() > 1 {
        painter.add(Shape::line(points.clone(), Stroke::new(width + 2.0, Color32::from_black_alpha(140))));
        painter.add(Shape::line(points, Stroke::new(width, colour)));
    }
}

/// The planner's state at the current step, while the bar steps through the planner.
fn step_view<'a>(plan: &'a Plan, settings: &HierarchySettings) -> Option<&'a PlanView> {
    (settings.planner != Planner::Off && settings.stepping == Stepping::Planner).then(|| plan.player.view())
}

/// A colour swatch before a control: the legend of the layer it switches.
fn swatch(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
    ui.painter().rect_filled(rect, 2.0, colour);
}

impl HierarchyState {
    /// What the worker needs for the next plan (the edits stay until a plan includes them).
    pub fn job(&self, settings: &HierarchySettings, rules: MoveRules) -> PlanJob {
        PlanJob { settings: *settings, rules, previous: self.abstraction.clone(), edits: self.edits.clone() }
    }

    /// Cells painted on the map: HPA* updates the clusters around them.
    pub fn note_edits(&mut self, grid: &Grid, cells: &[u32]) {
        self.edits.extend(cells.iter().map(|&cell| grid.coords(cell)));
    }

    /// A new map: nothing built so far applies to it.
    pub fn forget(&mut self) {
        self.abstraction = None;
        self.edits.clear();
    }

    pub fn install(&mut self, plan: Option<Plan>) {
        if let Some(plan) = &plan {
            self.abstraction = Some(Arc::clone(&plan.abstraction));
            self.edits.drain(..plan.edits_applied.min(self.edits.len()));
            self.installed_at = Some(Instant::now());
            self.plan_id += 1;
        }
        self.plan = plan;
    }

    pub fn summary(&self) -> Option<PlanSummary> {
        let plan = self.plan.as_ref()?;
        let (planner, cost, expanded_per_level, complete) = match &plan.answer {
            Answer::Hpa(result) => {
                (Planner::Hpa, result.path.as_ref().map(|p| p.0), result.expanded_per_level.clone(), result.path.is_some())
            }
            Answer::Pra(result) => (Planner::Pra, result.path.as_ref().map(|p| p.0), result.expanded_per_level.clone(), result.complete),
        };
        let recomputed = plan.recomputed.as_ref().map(|levels| levels.iter().map(Vec::len).collect());
        Some(PlanSummary { planner, cost, astar_cost: plan.astar.cost, expanded_per_level, recomputed, complete })
    }

    /// Regions in the region layer last drawn (PRA*).
    pub fn region_count(&self) -> usize {
        self.region_count
    }

    /// The planner's replay while the bar steps through it.
    pub fn stepping(&self, settings: &HierarchySettings) -> Option<&Player<PlanView>> {
        self.plan.as_ref().filter(|_| settings.planner != Planner::Off && settings.stepping == Stepping::Planner).map(|plan| &plan.player)
    }

    /// Moves the planner's replay to `step` (clamped); returns the step reached.
    pub fn seek(&mut self, step: usize) -> usize {
        self.plan.as_mut().map_or(0, |plan| plan.player.seek(step))
    }

    /// Levels the "Level shown" slider offers.
    fn level_range(&self, settings: &HierarchySettings) -> std::ops::RangeInclusive<usize> {
        match self.plan.as_ref().map(|plan| &*plan.abstraction) {
            Some(Abstraction::Pra(pyramid)) => 1..=(pyramid.height() - 1).max(1),
            Some(Abstraction::Hpa(hpa)) => 1..=hpa.levels(),
            None if settings.planner == Planner::Hpa => 1..=settings.levels,
            None => 1..=1,
        }
    }

    pub fn controls(&self, ui: &mut egui::Ui, settings: &HierarchySettings, commands: &mut Vec<Command>) {
        let mut edited = *settings;
        ui.horizontal(|ui| {
            ui.label("Planner:");
            for planner in Planner::ALL {
                ui.radio_value(&mut edited.planner, planner, planner.name());
            }
        });
        let layers = &mut edited.layers;
        match edited.planner {
            Planner::Off => {
                ui.weak("Pick HPA* or PRA* to plan the same query hierarchically and see its abstraction.");
            }
            Planner::Hpa => {
                ui.horizontal(|ui| {
                    egui::ComboBox::from_label("Cluster size").selected_text(edited.cluster.to_string()).show_ui(ui, |ui| {
                        for size in [8, 10, 16, 32] {
                            ui.selectable_value(&mut edited.cluster, size, size.to_string());
                        }
                    });
                    ui.label("Levels:");
                    ui.radio_value(&mut edited.levels, 1, "1 level");
                    ui.radio_value(&mut edited.levels, 2, "2 levels");
                });
                ui.checkbox(&mut edited.smooth, "Smooth the refined path");
                let boxes = [
                    (CLUSTER, &mut layers.clusters, "Cluster borders"),
                    (TRANSITION, &mut layers.transitions, "Entrances (transitions)"),
                    (GRAPH, &mut layers.graph, "Abstract graph"),
                    (ABSTRACT, &mut layers.abstract_path, "Abstract path"),
                    (REFINED, &mut layers.refined, "Refined path (before smoothing)"),
                    (SMOOTHED, &mut layers.smoothed, "Final path (after smoothing)"),
                ];
                for (colour, on, label) in boxes {
                    ui.horizontal(|ui| {
                        swatch(ui, colour);
                        ui.checkbox(on, label);
                    });
                }
            }
            Planner::Pra => {
                self.pra_options(ui, &mut edited);
                let layers = &mut edited.layers;
                let boxes = [
                    (region_colour(3), &mut layers.regions, "Abstract regions"),
                    (ABSTRACT, &mut layers.abstract_path, "Abstract path"),
                    (Color32::from_black_alpha(200), &mut layers.corridor, "Corridor (darkened outside)"),
                    (SMOOTHED, &mut layers.smoothed, "Final path"),
                ];
                for (colour, on, label) in boxes {
                    ui.horizontal(|ui| {
                        swatch(ui, colour);
                        ui.checkbox(on, label);
                    });
                }
            }
        }
        if edited.planner != Planner::Off {
            let range = self.level_range(&edited);
            edited.shown_level = edited.shown_level.clamp(*range.start(), *range.end());
            let stepping = edited.stepping == Stepping::Planner;
            ui.add_enabled(!stepping, egui::Slider::new(&mut edited.shown_level, range).text("Level shown"))
                .on_disabled_hover_text("While stepping through the planner, the level shown is the step's.");
            ui.horizontal(|ui| {
                ui.label("Step through:");
                ui.radio_value(&mut edited.stepping, Stepping::Search, "the search");
                ui.radio_value(&mut edited.stepping, Stepping::Planner, "the planner");
            });
        }
        if edited != *settings {
            commands.push(Command::SetHierarchy(edited));
        }
    }

    /// PRA*'s query options: the level it plans on and PRA*(k).
    fn pra_options(&self, ui: &mut egui::Ui, edited: &mut HierarchySettings) {
        let range = self.level_range(edited);
        let default_level = match self.plan.as_ref().map(|plan| &*plan.abstraction) {
            Some(Abstraction::Pra(pyramid)) => pyramid.height() / 2,
            _ => *range.end() / 2 + 1,
        };
        ui.horizontal(|ui| {
            let mut level = edited.pra_level.unwrap_or(default_level).clamp(*range.start(), *range.end());
            if ui.add(egui::Slider::new(&mut level, range).text("Plan level L")).changed() {
                edited.pra_level = Some(level);
            }
            if ui.add_enabled(edited.pra_level.is_some(), egui::Button::new("Default level")).clicked() {
                edited.pra_level = None;
            }
        });
        ui.weak("Default: half the pyramid's height. Higher plans faster but coarser.");
        ui.horizontal(|ui| {
            let mut partial = edited.pra_k.is_some();
            ui.checkbox(&mut partial, "PRA*(k): refine only the first k steps");
            let mut k = edited.pra_k.unwrap_or(4);
            ui.add_enabled(partial, egui::Slider::new(&mut k, 1..=16).text("k"));
            edited.pra_k = partial.then_some(k);
        });
    }

    /// The planner against A* on the same query.
    pub fn stats(&self, ui: &mut egui::Ui) {
        let (Some(plan), Some(summary)) = (&self.plan, self.summary()) else { return };
        if let Some(counts) = &summary.recomputed {
            ui.colored_label(RECOMPUTED, recomputed_text(counts));
        }
        egui::Grid::new("hierarchy-vs-astar").striped(true).num_columns(3).show(ui, |ui| {
            let mut row = |label: &str, ours: String, astar: String| {
                ui.label(label);
                ui.label(ours);
                ui.label(astar);
                ui.end_row();
            };
            let none = || "–".to_string();
            row("", format!("{} (hierarchical)", summary.planner.name()), "A* (flat)".to_string());
            let preprocessing = match (plan.preprocessing, &plan.recomputed) {
                (None, _) => "none: the last abstraction still holds".to_string(),
                (Some(time), Some(_)) => format!("{} (updated)", millis(time)),
                (Some(time), None) => format!("{} (built)", millis(time)),
            };
            row("Pre-processing", preprocessing, none());
            row("Query time", millis(plan.query_time), millis(plan.astar.time));
            for (level, expanded) in summary.expanded_per_level.iter().enumerate() {
                let label = if level == 0 { "Expanded on the grid".to_string() } else { format!("Expanded on level {level}") };
                row(&label, expanded.to_string(), if level == 0 { plan.astar.expanded.to_string() } else { none() });
            }
            match &plan.answer {
                Answer::Hpa(result) => {
                    row("Linking start and goal", result.insertion_expanded.to_string(), none());
                    row("Abstract search", result.abstract_expanded.to_string(), none());
                    row("Refinement", result.refinement_expanded.to_string(), none());
                    let unsmoothed = result.unsmoothed_cost.map_or_else(none, |c| format!("{c:.3}"));
                    row("Cost before smoothing", unsmoothed, none());
                }
                Answer::Pra(result) => {
                    row("Planned on level", result.level.to_string(), none());
                    let complete = if result.complete || result.path.is_none() { "yes" } else { "no: PRA*(k) kept the first steps" };
                    row("Complete path", complete.to_string(), none());
                }
            }
            let cost = |c: Option<f64>| c.map_or_else(|| "no path".to_string(), |c| format!("{c:.3}"));
            row("Path cost", cost(summary.cost), cost(summary.astar_cost));
            row("Suboptimality", summary.suboptimality().map_or_else(none, percent), percent(0.0));
            if let Abstraction::Hpa(hpa) = &*plan.abstraction {
                for level in 1..=hpa.levels() {
                    let size = format!("{} nodes, {} edges", hpa.node_count(level), hpa.edge_count(level));
                    row(&format!("Graph on level {level}"), size, none());
                }
            }
        });
    }

    /// Draws the switched-on area layers (regions, corridor, clusters, transitions, the graph)
    /// over the map in `canvas`, below the search's own path and marks.
    pub fn paint_below(
        &mut self,
        ctx: &egui::Context,
        painter: &Painter,
        canvas: Rect,
        map: &MapView,
        grid: &Grid,
        settings: &HierarchySettings,
    ) {
        let Some(plan) = self.plan.as_ref().filter(|_| settings.planner != Planner::Off) else { return };
        let layers = settings.layers;
        let step = step_view(plan, settings);
        // While stepping, the level of the step (the slider's before the first); otherwise the slider's.
        let shown = step.filter(|view| view.stage.is_some()).map_or(settings.shown_level, |view| view.level);
        let zoom = map.zoom;
        let center = |cell: u32| map.cell_center(canvas, grid, cell);
        let map_rect = Rect::from_min_max(map.to_screen(canvas, 0.0, 0.0), map.to_screen(canvas, grid.width() as f32, grid.height() as f32));
        let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
        let (xs, ys) = map.visible(canvas, grid);
        let visible = |a: (u32, u32), b: (u32, u32)| {
            a.0.max(b.0) + 1 >= xs.start && a.0.min(b.0) < xs.end + 1 && a.1.max(b.1) + 1 >= ys.start && a.1.min(b.1) < ys.end + 1
        };
        match (&*plan.abstraction, &plan.answer) {
            (Abstraction::Hpa(hpa), Answer::Hpa(_)) => {
                let level = shown.clamp(1, hpa.levels());
                if let Some(redone) = &plan.recomputed {
                    let age = self.installed_at.map_or(f32::MAX, |t| t.elapsed().as_secs_f32());
                    if age < HIGHLIGHT_SECONDS {
                        let alpha = (1.0 - age / HIGHLIGHT_SECONDS) * 0.45;
                        for &cluster in &redone[0] {
                            let (x0, y0, x1, y1) = hpa.cluster_rect(grid, 1, cluster);
                            let rect = Rect::from_min_max(
                                map.to_screen(canvas, x0 as f32, y0 as f32),
                                map.to_screen(canvas, x1 as f32, y1 as f32),
                            );
                            painter.rect_filled(rect, 0.0, RECOMPUTED.gamma_multiply(alpha));
                        }
                        // Not an immediate repaint: the fade needs only a few frames a second.
                        ctx.request_repaint_after(Duration::from_millis(50));
                    }
                }
                let mut mesh = Mesh::default();
                if layers.clusters {
                    // Borders of every level, clipped to the visible cells; higher levels thicker.
                    for l in 1..=hpa.levels() {
                        let side = hpa.cluster_rect(grid, l, 0).2;
                        let thickness = if l == 1 { 1.0 } else { 2.5 };
                        let (top, bottom) = (map.to_screen(canvas, 0.0, ys.start as f32).y, map.to_screen(canvas, 0.0, ys.end as f32).y);
                        for x in (side..grid.width()).step_by(side as usize).filter(|x| xs.contains(x)) {
                            let sx = map.to_screen(canvas, x as f32, 0.0).x;
                            add_segment(&mut mesh, Pos2::new(sx, top), Pos2::new(sx, bottom), thickness, CLUSTER);
                        }
                        let (left, right) = (map.to_screen(canvas, xs.start as f32, 0.0).x, map.to_screen(canvas, xs.end as f32, 0.0).x);
                        for y in (side..grid.height()).step_by(side as usize).filter(|y| ys.contains(y)) {
                            let sy = map.to_screen(canvas, 0.0, y as f32).y;
                            add_segment(&mut mesh, Pos2::new(left, sy), Pos2::new(right, sy), thickness, CLUSTER);
                        }
                    }
                }
                if layers.graph {
                    for &(a, b) in &plan.edges[level - 1] {
                        if visible(grid.coords(a), grid.coords(b)) {
                            add_segment(&mut mesh, center(a), center(b), (zoom * 0.08).clamp(0.6, 2.0), GRAPH);
                        }
                    }
                }
                if layers.transitions {
                    let half = (zoom * 0.35).max(0.8);
                    for &(a, b) in &plan.transitions[level - 1] {
                        if visible(grid.coords(a), grid.coords(b)) {
                            for cell in [a, b] {
                                mesh.add_colored_rect(Rect::from_center_size(center(cell), Vec2::splat(2.0 * half)), TRANSITION);
                            }
                        }
                    }
                }
                painter.add(Shape::mesh(mesh));
            }
            (Abstraction::Pra(pyramid), Answer::Pra(result)) => {
                let level = shown.clamp(1, pyramid.height() - 1);
                let size = [grid.width() as usize, grid.height() as usize];
                if layers.regions {
                    let region_count = &mut self.region_count;
                    let texture = self.regions.get(ctx, "pra-regions", (self.plan_id, level), || {
                        let regions = pyramid.region_map(grid, level);
                        let mut ids: Vec<u32> = regions.iter().copied().filter(|&r| r != NO_NODE).collect();
                        ids.sort_unstable();
                        ids.dedup();
                        *region_count = ids.len();
                        let pixels = regions.iter().map(|&r| if r == NO_NODE { Color32::TRANSPARENT } else { region_colour(r) });
                        ColorImage::new(size, pixels.collect())
                    });
                    painter.image(texture.id(), map_rect, uv, Color32::WHITE);
                }
                // While stepping: the corridor of the level being refined (the grid's too).
                let corridor = match step {
                    Some(view) => view.corridor.as_ref().filter(|(l, _)| *l == shown).map(|(l, nodes)| (*l, nodes)),
                    None => result.corridors.get(level).map(|nodes| (level, nodes)),
                };
                if layers.corridor && let Some((level, corridor)) = corridor.filter(|(_, c)| !c.is_empty()) {
                    let texture = self.corridor.get(ctx, "pra-corridor", (self.plan_id, level), || {
                        let mut pixels = vec![Color32::from_black_alpha(120); grid.cell_count()];
                        for cell in pyramid.cells_under(level, corridor) {
                            pixels[cell as usize] = Color32::TRANSPARENT;
                        }
                        ColorImage::new(size, pixels)
                    });
                    painter.image(texture.id(), map_rect, uv, Color32::WHITE);
                }
            }
            _ => {}
        }
    }

    /// Draws the switched-on paths, above the search's own path so both stay visible.
    pub fn paint_above(&self, painter: &Painter, canvas: Rect, map: &MapView, grid: &Grid, settings: &HierarchySettings) {
        let Some(plan) = self.plan.as_ref().filter(|_| settings.planner != Planner::Off) else { return };
        if let Some(view) = step_view(plan, settings) {
            paint_step(painter, canvas, map, grid, &plan.abstraction, view);
            return;
        }
        let layers = settings.layers;
        let center = |cell: u32| map.cell_center(canvas, grid, cell);
        let width = (map.zoom * 0.25).clamp(2.0, 5.0);
        let dot = (map.zoom * 0.4).clamp(2.0, 8.0);
        let abstract_path = |points: Vec<Pos2>| {
            polyline(painter, points.clone(), width * 0.6, ABSTRACT);
            // Not over the start and goal marks.
            for &point in points.iter().skip(1).take(points.len().saturating_sub(2)) {
                painter.circle(point, dot, ABSTRACT, Stroke::new(1.0, Color32::WHITE));
            }
        };
        let (final_path, level_path) = match (&*plan.abstraction, &plan.answer) {
            (Abstraction::Hpa(hpa), Answer::Hpa(result)) => {
                if layers.refined {
                    polyline(painter, result.refined_path.iter().map(|&c| center(c)).collect(), width, REFINED);
                }
                let level = settings.shown_level.clamp(1, hpa.levels());
                (&result.path, result.abstract_paths[level - 1].iter().map(|&c| center(c)).collect())
            }
            (Abstraction::Pra(pyramid), Answer::Pra(result)) => {
                let level = settings.shown_level.clamp(1, pyramid.height() - 1);
                let at = |node: &u32| {
                    let (x, y) = pyramid.position(grid, level, *node);
                    map.to_screen(canvas, x as f32 + 0.5, y as f32 + 0.5)
                };
                (&result.path, result.paths.get(level).map_or_else(Vec::new, |nodes| nodes.iter().map(at).collect()))
            }
            _ => return,
        };
        if layers.smoothed && let Some((_, path)) = final_path {
            polyline(painter, path.iter().map(|&c| center(c)).collect(), width * 0.7, SMOOTHED);
        }
        if layers.abstract_path {
            abstract_path(level_path);
        }
    }

    /// The planner's pseudocode with the line of the current step highlighted, while stepping
    /// through it; false (nothing drawn) otherwise.
    pub fn pseudocode(&self, ui: &mut egui::Ui, settings: &HierarchySettings) -> bool {
        let Some(player) = self.stepping(settings) else { return false };
        let lines: &[&str] = if settings.planner == Planner::Hpa { &HPA_PSEUDOCODE } else { &PRA_PSEUDOCODE };
        let current = plan_line(settings.planner, player);
        for (index, text) in lines.iter().enumerate() {
            let mut rich = egui::RichText::new(*text).monospace();
            if current == Some(index) {
                rich = rich.background_color(Color32::from_rgb(250, 220, 90)).color(Color32::BLACK);
            }
            ui.label(rich);
        }
        true
    }

    /// A note under the canvas about the level shown, when the plan has nothing there.
    pub fn level_note(&self, settings: &HierarchySettings) -> Option<String> {
        if let Some(player) = self.stepping(settings) {
            let view = player.view();
            let stage = view.stage.map_or("not started", PlanStage::name);
            let name = settings.planner.name();
            return Some(format!("Stepping through {name}: step {} / {}, level {}: {stage}", player.step(), player.len(), view.level));
        }
        let plan = self.plan.as_ref().filter(|_| settings.planner == Planner::Pra)?;
        let Answer::Pra(result) = &plan.answer else { return None };
        let level = settings.shown_level;
        if level > result.level {
            Some(format!("PRA* planned on level {}: level {level} shows regions only", result.level))
        } else if level == result.level {
            Some(format!("Level {level}: the abstract search ran here, on the whole level"))
        } else {
            Some(format!("Level {level}: refined inside the corridor under level {}'s path", level + 1))
        }
    }
}

/// While stepping through the planner: the nodes its current search has reached (abstract ones
/// as larger squares at their positions), the node being expanded and the paths found on this
/// level and the one above.
fn paint_step(painter: &Painter, canvas: Rect, map: &MapView, grid: &Grid, abstraction: &Abstraction, view: &PlanView) {
    // HPA*'s events name grid cells on every level; PRA*'s name the nodes of the stage's level.
    let at = |level: usize, node: u32| -> Option<Pos2> {
        match abstraction {
            Abstraction::Pra(pyramid) if level > 0 => ((node as usize) < pyramid.node_count(grid, level)).then(|| {
                let (x, y) = pyramid.position(grid, level, node);
                map.to_screen(canvas, x as f32 + 0.5, y as f32 + 0.5)
            }),
            _ => ((node as usize) < grid.cell_count()).then(|| map.cell_center(canvas, grid, node)),
        }
    };
    let side = if view.level > 0 { (map.zoom * 1.2).clamp(5.0, 16.0) } else { (map.zoom * 0.7).max(1.5) };
    let mut mesh = Mesh::default();
    for (node, record) in view.search.nodes().iter().enumerate() {
        let colour = match record.status {
            NodeStatus::Open => OPEN,
            NodeStatus::Closed => CLOSED,
            NodeStatus::Unseen => continue,
        };
        if let Some(p) = at(view.level, node as u32) {
            // Outlined, so they stand out on the coloured regions.
            mesh.add_colored_rect(Rect::from_center_size(p, Vec2::splat(side + 2.0)), Color32::from_black_alpha(180));
            mesh.add_colored_rect(Rect::from_center_size(p, Vec2::splat(side)), colour);
        }
    }
    painter.add(Shape::mesh(mesh));
    let width = (map.zoom * 0.25).clamp(2.0, 5.0);
    // The path being refined (one level up) and what this level found: older levels would hide them.
    for (level, path) in view.found.iter().filter(|(level, _)| *level <= view.level + 1) {
        let colour = if *level > 0 { ABSTRACT } else { REFINED };
        polyline(painter, path.iter().filter_map(|&node| at(*level, node)).collect(), width, colour);
    }
    if let Some(p) = view.search.current.and_then(|node| at(view.level, node)) {
        painter.circle(p, side * 0.7, CURRENT, Stroke::new(1.5, Color32::WHITE));
    }
}

const HPA_PSEUDOCODE: [&str; 7] = [
    "for each level: link start and goal to their cluster's entrances",
    "A* on the top level's abstract graph from start to goal:",
    "    expand the abstract node with the lowest f",
    "refine the abstract path to the level below",
    "for each abstract edge: its cached path inside the cluster",
    "smooth: replace detours by straight runs",
    "return the path",
];

const PRA_PSEUDOCODE: [&str; 8] = [
    "A* on level L between the parents of start and goal:",
    "    expand the abstract node with the lowest f",
    "for each level l from L - 1 down to the grid:",
    "    corridor := the nodes under level l + 1's path and their neighbours",
    "    A* on level l inside the corridor (PRA*(k): the path above is cut after k steps)",
    "        expand the node with the lowest f",
    "    no way through the corridor: A* on the whole level",
    "return the grid path (PRA*(k): its first steps)",
];

/// The planner's pseudocode line at the current step of `player`.
fn plan_line(planner: Planner, player: &Player<PlanView>) -> Option<usize> {
    let event = player.current_event()?;
    let expanding = matches!(event, PlanEvent::Search(SearchEvent::Expand { .. }));
    let stage = player.view().stage;
    match planner {
        _ if player.at_end() => Some(if planner == Planner::Hpa { 6 } else { 7 }),
        Planner::Hpa => match stage {
            Some(PlanStage::AbstractSearch) => Some(1 + expanding as usize),
            Some(PlanStage::RefineAbstractPath) => Some(3),
            Some(PlanStage::RefineEdges) => Some(4),
            Some(PlanStage::Smooth) => Some(5),
            _ => Some(0),
        },
        Planner::Pra => match (stage, event) {
            (_, PlanEvent::Corridor { .. }) => Some(3),
            (Some(PlanStage::AbstractSearch), _) => Some(expanding as usize),
            (Some(PlanStage::Refine), _) => Some(4 + expanding as usize),
            (Some(PlanStage::RefineWithoutCorridor), _) => Some(6),
            _ => None,
        },
        Planner::Off => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate;

    #[test]
    fn pra_pseudocode_follows_the_stages() {
        let grid = generate::maze(32, 32, 1, 5);
        let cells = grid.passable_cells();
        let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
        let mut recorder = Recorder::default();
        pyramid.query(&grid, cells[0], *cells.last().unwrap(), PraOptions::default(), &mut SearchSpace::new(), &mut recorder);
        let mut player = Player::new(recorder.finish(), PlanView::new(grid.cell_count() + 1));
        assert_eq!(plan_line(Planner::Pra, &player), None, "nothing before the first event");
        let mut lines = Vec::new();
        while player.forward() {
            let line = plan_line(Planner::Pra, &player).expect("every event has a line");
            // Every stage the planner records has its own line here: a new stage fails the test.
            let expected = match (player.current_event().unwrap(), player.view().stage) {
                _ if player.at_end() => 7,
                (PlanEvent::Corridor { .. }, _) => 3,
                (PlanEvent::Search(SearchEvent::Expand { .. }), Some(PlanStage::AbstractSearch)) => 1,
                (_, Some(PlanStage::AbstractSearch)) => 0,
                (PlanEvent::Search(SearchEvent::Expand { .. }), Some(PlanStage::Refine)) => 5,
                (_, Some(PlanStage::Refine)) => 4,
                (_, Some(PlanStage::RefineWithoutCorridor)) => 6,
                (event, stage) => panic!("no expected line for {event:?} in stage {stage:?}"),
            };
            assert_eq!(line, expected);
            lines.push(line);
        }
        for line in [0, 1, 3, 4, 5, 7] {
            assert!(lines.contains(&line), "line {line} is reached");
        }
    }
}
