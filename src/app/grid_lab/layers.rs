//! HPA* and PRA* on the grid lab's map: their abstractions drawn as layers over the left canvas,
//! a table against A* on the same query, and the clusters HPA* re-computed after a wall edit.

use crate::time::{Duration, Instant};
use std::sync::Arc;

use egui::Color32;
use serde::{Deserialize, Serialize};

mod narration;
mod paint;
mod pseudocode;

use self::paint::{CachedTexture, region_colour};
use super::GridCommand;
use super::replay::{SearchReplay, flat_search, millis, timed};
use crate::app::worker::shared;
use crate::app::{theme, widgets};
use crate::grid::{Grid, MoveRules, Obstacle};
// The app's `PlannerChoice` is the on/off choice; the library's `Planner` is the full spec.
use crate::pathfinding::plan_trace::PlanView;
use crate::pathfinding::planner::{Answer, Method, Planner as PlannerSpec, Prepared};
use crate::pathfinding::pra::PraOptions;
use crate::pathfinding::{GridSearch, PathResult, SearchSpace};
use crate::scene::Replayed;
use crate::trace::{NoTrace, Player, Recorder};

/// The hierarchical planner run beside the replayed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PlannerChoice {
    #[default]
    Off,
    Hpa,
    Pra,
}

impl PlannerChoice {
    pub const ALL: [PlannerChoice; 3] = [PlannerChoice::Off, PlannerChoice::Hpa, PlannerChoice::Pra];

    pub fn name(self) -> &'static str {
        match self {
            PlannerChoice::Off => "Off",
            PlannerChoice::Hpa => "HPA*",
            PlannerChoice::Pra => "PRA*",
        }
    }
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
    pub planner: PlannerChoice,
    /// HPA*: cluster side, levels (1 or 2), smoothing.
    pub cluster: u32,
    pub levels: usize,
    pub smooth: bool,
    /// The level whose transitions, graph and abstract path (HPA*) or regions, abstract path and
    /// corridor (PRA*) are drawn.
    pub shown_level: usize,
    pub layers: Layers,
    /// What the replay bar steps through while a planner is on (a scene's `replay`).
    pub stepping: Replayed,
    /// PRA*: the level to plan on (None: the default), PRA*(k) and the corridor's rings of
    /// neighbouring regions.
    pub pra_level: Option<usize>,
    pub pra_k: Option<usize>,
    pub pra_width: usize,
}

impl Default for HierarchySettings {
    fn default() -> Self {
        Self {
            planner: PlannerChoice::Off,
            cluster: 10,
            levels: 1,
            smooth: true,
            shown_level: 1,
            layers: Layers::default(),
            stepping: Replayed::Search,
            pra_level: None,
            pra_k: None,
            pra_width: PraOptions::DEFAULT_WIDTH,
        }
    }
}

impl HierarchySettings {
    /// What the plan depends on; the rest only changes the drawing.
    pub fn plan_key(&self) -> (PlannerChoice, u32, usize, bool, Option<usize>, Option<usize>, usize) {
        (self.planner, self.cluster, self.levels, self.smooth, self.pra_level, self.pra_k, self.pra_width)
    }

    /// The library's planner for these settings under `rules`; None when the planner is off.
    pub fn planner(&self, rules: MoveRules) -> Option<PlannerSpec> {
        let method = match self.planner {
            PlannerChoice::Off => return None,
            PlannerChoice::Hpa => Method::Hpa { cluster: self.cluster, levels: self.levels, smooth: self.smooth },
            PlannerChoice::Pra => {
                Method::Pra(PraOptions { level: self.pra_level, k: self.pra_k, width: self.pra_width })
            }
        };
        Some(PlannerSpec { method, rules })
    }
}

/// The corridor width slider's top: beyond it the corridor covers most of a lab-sized map.
const MAX_SHOWN_WIDTH: usize = 6;

/// A* on the same query, the reference for suboptimality.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Reference {
    cost: Option<f64>,
    expanded: usize,
    time: Duration,
}

impl Reference {
    fn of(result: &PathResult, time: Duration) -> Self {
        Self { cost: result.cost(), expanded: result.expanded, time }
    }
}

/// One planned query with what the layers draw.
#[derive(Serialize, Deserialize)]
pub struct Plan {
    #[serde(with = "shared")]
    abstraction: Arc<Prepared>,
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
    #[serde(with = "plan_replay")]
    player: Player<PlanView>,
}

#[cfg(test)]
impl Plan {
    /// The figures the page shows, and the abstraction and the replay's trace as bytes.
    pub fn shown(self) -> (Option<PlanSummary>, Vec<u8>) {
        let bytes = crate::app::worker::encode(&(&*self.abstraction, self.player.trace())).unwrap();
        let mut state = HierarchyState::default();
        state.install(Some(self));
        (state.summary(), bytes)
    }
}

/// A plan's replay crosses to and from a Web Worker as its trace; the page rebuilds the player.
mod plan_replay {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::pathfinding::plan_trace::{PlanEvent, PlanView};
    use crate::trace::{Player, Trace};

    pub fn serialize<S: Serializer>(player: &Player<PlanView>, serializer: S) -> Result<S::Ok, S::Error> {
        (player.trace(), player.view().search.nodes().len()).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Player<PlanView>, D::Error> {
        let (trace, nodes) = <(Trace<PlanEvent>, usize)>::deserialize(deserializer)?;
        Ok(Player::new(trace, PlanView::new(nodes)))
    }
}

/// What the worker needs to plan: the planner and the abstraction to reuse or update.
#[derive(Serialize, Deserialize)]
pub struct PlanJob {
    planner: Option<PlannerSpec>,
    #[serde(with = "shared::optional")]
    previous: Option<Arc<Prepared>>,
    edits: Vec<(u32, u32)>,
}

impl PlanJob {
    /// Why the planner cannot plan on `grid` (its abstraction would not fit in memory), if it cannot.
    pub fn refusal(&self, grid: &Grid) -> Option<String> {
        self.planner.as_ref()?.check_rules(grid).err()
    }

    /// Plans on `grid` (`fresh`: a new map, nothing to reuse), beside the page's `flat` searches of
    /// the same query. None when no planner is on.
    pub fn run(self, grid: &Grid, start: u32, goal: u32, fresh: bool, flat: &[SearchReplay]) -> Option<Plan> {
        let planner = self.planner?;
        if planner.check_rules(grid).is_err() {
            return None;
        }
        // HPA* updates the clusters around edits; PRA* rebuilds.
        let previous = self.previous.filter(|previous| {
            !fresh && planner.fits(previous) && (matches!(**previous, Prepared::Hpa(_)) || self.edits.is_empty())
        });
        let clock = Instant::now();
        let reused = previous.is_some() && self.edits.is_empty();
        let (prepared, recomputed) = match previous {
            Some(previous) if self.edits.is_empty() => (previous, None),
            Some(previous) => {
                let Prepared::Hpa(mut hpa) = Arc::unwrap_or_clone(previous) else { unreachable!("filtered above") };
                let redone = hpa.update(grid, &self.edits);
                (Arc::new(Prepared::Hpa(hpa)), Some(redone))
            }
            None => (Arc::new(planner.build(grid)), None),
        };
        let preprocessing = (!reused).then(|| clock.elapsed());
        let mut space = SearchSpace::new();
        let (answer, query_time) = timed(|| planner.query(&prepared, grid, start, goal, &mut space, &mut NoTrace));
        // Again, recorded: the same code, its events kept for the replay.
        let mut recorder = Recorder::default();
        planner.query(&prepared, grid, start, goal, &mut space, &mut recorder);
        // Room for PRA*'s virtual goal, one id past the last cell.
        let player = Player::new(recorder.finish(), PlanView::new(grid.cell_count() + 1));
        // The page's own A* replay already measured this query: its figures, so the table and the
        // statistics line agree; otherwise A* is measured here the same way.
        let reference = GridSearch { rules: planner.rules, ..GridSearch::default() };
        let astar = match flat.iter().find(|replay| replay.search == reference) {
            Some(replay) => Reference::of(&replay.result, replay.time),
            None => {
                let (result, time) = flat_search(grid, reference, start, goal, &mut space);
                Reference::of(&result, time)
            }
        };
        let (mut transitions, mut edges) = (Vec::new(), Vec::new());
        if let Prepared::Hpa(hpa) = &*prepared {
            for level in 1..=hpa.levels() {
                transitions.push(hpa.transitions(level).collect());
                edges.push(hpa.abstract_edges(level).filter(|e| e.0 < e.1).map(|e| (e.0, e.1)).collect());
            }
        }
        Some(Plan {
            abstraction: prepared,
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

/// The page's hierarchical planning: the last plan and the edits made since.
#[derive(Default)]
pub struct HierarchyState {
    plan: Option<Plan>,
    /// Counts installed plans, so cached textures know when to redraw.
    plan_id: u64,
    abstraction: Option<Arc<Prepared>>,
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
    pub planner: PlannerChoice,
    pub cost: Option<f64>,
    pub astar_cost: Option<f64>,
    /// Nodes expanded per level, index = level (0 = the grid).
    pub expanded_per_level: Vec<usize>,
    /// Per level, the clusters re-computed by the last edit (HPA* only).
    pub recomputed: Option<Vec<usize>>,
    /// False when PRA*(k) kept only the first steps of the way.
    pub complete: bool,
    pub query_time: Duration,
    pub astar_time: Duration,
}

impl PlanSummary {
    /// How much dearer than A*'s path, in percent.
    pub fn suboptimality(&self) -> Option<f64> {
        if !self.complete {
            return None;
        }
        let (cost, optimal) = (self.cost?, self.astar_cost?);
        // Start = goal: both paths cost nothing, and neither is over.
        Some(if optimal > 0.0 { 100.0 * (cost / optimal - 1.0) } else { 0.0 })
    }

    /// How many times faster than A* the query ran.
    pub fn speedup(&self) -> f64 {
        self.astar_time.as_secs_f64() / self.query_time.as_secs_f64().max(1e-12)
    }

    /// The speed-up as the table says it, e.g. "6.1× faster", "2.0× slower" or "as fast" (within
    /// 5%, which would read "1.0× slower"). PRA*(k)'s first steps are not a path A* also found,
    /// so they come "sooner" (the row says than what).
    pub fn speedup_text(&self) -> String {
        match self.speedup() {
            even if (0.95..1.05).contains(&even) => (if self.complete { "as fast" } else { "as soon" }).to_string(),
            faster if faster >= 1.0 => format!("{faster:.1}× {}", if self.complete { "faster" } else { "sooner" }),
            slower => format!("{:.1}× {}", 1.0 / slower.max(1e-12), if self.complete { "slower" } else { "later" }),
        }
    }
}

fn percent(value: f64) -> String {
    format!("{value:.2} %")
}

/// The label under the re-computed clusters, e.g. "Re-computed clusters: 5 on level 1, 2 on level 2".
pub fn recomputed_text(counts: &[usize]) -> String {
    let parts: Vec<String> = counts.iter().enumerate().map(|(l, n)| format!("{n} on level {}", l + 1)).collect();
    format!("Re-computed clusters: {}", parts.join(", "))
}

impl HierarchyState {
    /// What the worker needs for the next plan (the edits stay until a plan includes them).
    pub fn job(&self, settings: &HierarchySettings, rules: MoveRules) -> PlanJob {
        PlanJob { planner: settings.planner(rules), previous: self.abstraction.clone(), edits: self.edits.clone() }
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
            Answer::Hpa(result) => (
                PlannerChoice::Hpa,
                result.path.as_ref().map(|p| p.0),
                result.expanded_per_level.clone(),
                result.path.is_some(),
            ),
            Answer::Pra(result) => (
                PlannerChoice::Pra,
                result.path.as_ref().map(|p| p.0),
                result.expanded_per_level.clone(),
                result.complete,
            ),
            // Plans are hierarchical: the job runs only with HPA* or PRA* on.
            Answer::Flat(_) => return None,
        };
        let recomputed = plan.recomputed.as_ref().map(|levels| levels.iter().map(Vec::len).collect());
        Some(PlanSummary {
            planner,
            cost,
            astar_cost: plan.astar.cost,
            expanded_per_level,
            recomputed,
            complete,
            query_time: plan.query_time,
            astar_time: plan.astar.time,
        })
    }

    /// Regions in the region layer last drawn (PRA*).
    pub fn region_count(&self) -> usize {
        self.region_count
    }

    /// The planner's replay while the bar steps through it.
    pub fn stepping(&self, settings: &HierarchySettings) -> Option<&Player<PlanView>> {
        self.plan
            .as_ref()
            .filter(|_| settings.planner != PlannerChoice::Off && settings.stepping == Replayed::Planner)
            .map(|plan| &plan.player)
    }

    /// Moves the planner's replay to `step` (clamped); returns the step reached.
    pub fn seek(&mut self, step: usize) -> usize {
        self.plan.as_mut().map_or(0, |plan| plan.player.seek(step))
    }

    /// Levels the "Level shown" slider offers.
    fn level_range(&self, settings: &HierarchySettings) -> std::ops::RangeInclusive<usize> {
        match self.plan.as_ref().map(|plan| &*plan.abstraction) {
            Some(Prepared::Pra(pyramid)) => 0..=pyramid.height() - 1,
            Some(Prepared::Hpa(hpa)) => 1..=hpa.levels(),
            None if settings.planner == PlannerChoice::Hpa => 1..=settings.levels,
            Some(Prepared::Flat) | None => 1..=1,
        }
    }

    pub fn controls(&self, ui: &mut egui::Ui, settings: &HierarchySettings, commands: &mut Vec<GridCommand>) {
        let mut edited = *settings;
        ui.horizontal(|ui| {
            ui.label("Planner:");
            for planner in PlannerChoice::ALL {
                ui.radio_value(&mut edited.planner, planner, planner.name());
            }
        });
        let layers = &mut edited.layers;
        match edited.planner {
            PlannerChoice::Off => {
                ui.weak("Pick HPA* or PRA* to plan the same query hierarchically and see its abstraction.");
            }
            PlannerChoice::Hpa => {
                ui.horizontal_wrapped(|ui| {
                    egui::ComboBox::from_label("Cluster size").selected_text(edited.cluster.to_string()).show_ui(
                        ui,
                        |ui| {
                            for size in [8, 10, 16, 32] {
                                ui.selectable_value(&mut edited.cluster, size, size.to_string());
                            }
                        },
                    );
                    ui.label("Levels:");
                    ui.radio_value(&mut edited.levels, 1, "1 level");
                    ui.radio_value(&mut edited.levels, 2, "2 levels");
                });
                ui.checkbox(&mut edited.smooth, "Smooth the refined path");
                let p = theme::palette(ui.ctx());
                let boxes = [
                    (p.cluster, &mut layers.clusters, "Cluster borders"),
                    (p.transition, &mut layers.transitions, "Entrances (transitions)"),
                    (p.graph, &mut layers.graph, "Abstract graph"),
                    (p.abstract_path, &mut layers.abstract_path, "Abstract path"),
                    (p.refined, &mut layers.refined, "Refined path (before smoothing)"),
                    (p.smoothed, &mut layers.smoothed, "Final path (after smoothing)"),
                ];
                for (colour, on, label) in boxes {
                    ui.horizontal(|ui| {
                        widgets::swatch(ui, colour);
                        ui.checkbox(on, label);
                    });
                }
            }
            PlannerChoice::Pra => {
                self.pra_options(ui, &mut edited);
                let layers = &mut edited.layers;
                let p = theme::palette(ui.ctx());
                let boxes = [
                    (region_colour(3), &mut layers.regions, "Abstract regions"),
                    (p.abstract_path, &mut layers.abstract_path, "Abstract path"),
                    (Color32::from_black_alpha(200), &mut layers.corridor, "Corridor (darkened outside)"),
                    (p.smoothed, &mut layers.smoothed, "Final path"),
                ];
                for (colour, on, label) in boxes {
                    ui.horizontal(|ui| {
                        widgets::swatch(ui, colour);
                        ui.checkbox(on, label);
                    });
                }
            }
        }
        if edited.planner != PlannerChoice::Off {
            let range = self.level_range(&edited);
            edited.shown_level = edited.shown_level.clamp(*range.start(), *range.end());
            let stepping = edited.stepping == Replayed::Planner;
            ui.add_enabled(!stepping, egui::Slider::new(&mut edited.shown_level, range).text("Level shown"))
                .on_disabled_hover_text("While stepping through the planner, the level shown is the step's.");
            ui.horizontal_wrapped(|ui| {
                ui.label("Step through:");
                ui.radio_value(&mut edited.stepping, Replayed::Search, "the search");
                ui.radio_value(&mut edited.stepping, Replayed::Planner, "the planner");
            });
        }
        if edited != *settings {
            commands.push(GridCommand::SetHierarchy(edited));
        }
    }

    /// PRA*'s query options: the level it plans on, PRA*(k) and the corridor's width.
    fn pra_options(&self, ui: &mut egui::Ui, edited: &mut HierarchySettings) {
        let range = self.level_range(edited);
        // The default depends on the query (PRA*(k) plans higher for a far goal): the last plan's.
        let default_level = match self.plan.as_ref().map(|plan| &plan.answer) {
            Some(Answer::Pra(result)) => result.level,
            _ => 1,
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
        ui.weak("Level 0 is the grid: plain A*. Default: level 1, or 0 for a goal less than 64 away (landmarks' bound); with PRA*(k) half way up to where start and goal meet. Higher plans faster but coarser.");
        let mut partial = edited.pra_k.is_some();
        ui.checkbox(&mut partial, "PRA*(k): refine only the first k steps");
        // A scene's k or width may lie beyond the slider: kept until the slider is moved.
        let mut k = edited.pra_k.unwrap_or(4);
        ui.add_enabled(partial, egui::Slider::new(&mut k, 1..=16).clamping(egui::SliderClamping::Edits).text("k"));
        edited.pra_k = partial.then_some(k);
        ui.add_enabled(
            !partial,
            egui::Slider::new(&mut edited.pra_width, 0..=MAX_SHOWN_WIDTH)
                .clamping(egui::SliderClamping::Edits)
                .text("Corridor width W"),
        )
        .on_disabled_hover_text("PRA*(k) takes no rings: each search only has to reach the next region kept above.");
        ui.weak("Each level's search keeps to the regions under the path above, with W rings of neighbours round that path on its level (0: none; on the grid, with the free cells around them). Wider is closer to optimal but slower; PRA*(k) takes no rings.");
    }

    /// The planner against A* on the same query on `grid`.
    pub fn stats(&self, ui: &mut egui::Ui, grid: &Grid) {
        let (Some(plan), Some(summary)) = (&self.plan, self.summary()) else { return };
        if let Some(counts) = &summary.recomputed {
            ui.colored_label(theme::palette(ui.ctx()).recomputed, recomputed_text(counts));
        }
        let mut rows: Vec<[String; 3]> = Vec::new();
        let mut row = |label: &str, ours: String, astar: String| rows.push([label.to_string(), ours, astar]);
        let none = || "–".to_string();
        row("", format!("{} (hierarchical)", summary.planner.name()), "A* (flat)".to_string());
        let preprocessing = match (plan.preprocessing, &plan.recomputed) {
            (None, _) => "none (reused)".to_string(),
            (Some(time), Some(_)) => format!("{} (updated)", millis(time)),
            (Some(time), None) => format!("{} (built)", millis(time)),
        };
        row("Pre-processing", preprocessing, none());
        let query_time = if summary.complete { "Query time" } else { "Time to the first steps" };
        row(query_time, millis(plan.query_time), millis(plan.astar.time));
        // Short values: a long one pushes the A* column out of the side panel.
        row(if summary.complete { "Speed-up" } else { "First steps vs A*'s path" }, summary.speedup_text(), none());
        let line = match plan.answer.line_stop() {
            _ if plan.answer.straight_line() == Some(true) => "free: no planning".to_string(),
            Some(stop) => {
                let (x, y) = grid.coords(stop.cell);
                let obstacle = match stop.obstacle {
                    Obstacle::Wall => "wall".to_string(),
                    Obstacle::Corner => "corner".to_string(),
                    Obstacle::Weight(weight) => format!("weight {weight}"),
                };
                format!("blocked: {obstacle} at ({x},{y})")
            }
            // Not tried: no path joins start and goal.
            None => none(),
        };
        row("Straight line", line, none());
        for (level, expanded) in summary.expanded_per_level.iter().enumerate() {
            let label =
                if level == 0 { "Expanded on the grid".to_string() } else { format!("Expanded on level {level}") };
            row(&label, expanded.to_string(), if level == 0 { plan.astar.expanded.to_string() } else { none() });
        }
        match &plan.answer {
            Answer::Hpa(result) => {
                row("Linking start and goal", result.insertion_expanded.to_string(), none());
                row("Abstract search", result.abstract_expanded.to_string(), none());
                let unsmoothed = result.unsmoothed_cost.map_or_else(none, |c| format!("{c:.3}"));
                row("Cost before smoothing", unsmoothed, none());
            }
            Answer::Pra(result) => {
                // Short: a wider column pushed the A* column past a 1280-pixel cell at 130% text.
                let level = match result.level {
                    _ if result.straight_line => "– (straight line)".to_string(),
                    0 => "0 (the grid)".to_string(),
                    level => level.to_string(),
                };
                row("Planned on level", level, none());
                let complete = if result.complete || result.path.is_none() { "yes" } else { "no: first steps" };
                row("Complete path", complete.to_string(), none());
            }
            Answer::Flat(_) => {}
        }
        let cost = |c: Option<f64>| c.map_or_else(|| "no path".to_string(), |c| format!("{c:.3}"));
        row("Path cost", cost(summary.cost), cost(summary.astar_cost));
        row("Suboptimality", summary.suboptimality().map_or_else(none, percent), percent(0.0));
        if let Prepared::Hpa(hpa) = &*plan.abstraction {
            for level in 1..=hpa.levels() {
                let size = format!("{} nodes, {} edges", hpa.node_count(level), hpa.edge_count(level));
                row(&format!("Graph on level {level}"), size, none());
            }
        }
        comparison_table(ui, rows);
    }

    /// A note under the canvas about the level shown, when the plan has nothing there.
    pub fn level_note(&self, settings: &HierarchySettings) -> Option<String> {
        if let Some(player) = self.stepping(settings) {
            let view = player.view();
            // At the end, what the highlighted line says (the path is returned), not the last stage.
            let doing = match view.stage {
                None => "not started".to_string(),
                Some(_) if player.at_end() => format!(
                    "level {}: {}",
                    view.level,
                    pseudocode::plan_line_text(settings.planner, player).unwrap_or("done")
                ),
                Some(stage) => format!("level {}: {}", view.level, stage.name()),
            };
            let name = settings.planner.name();
            return Some(format!("Stepping through {name}: step {} / {}, {doing}", player.step(), player.len()));
        }
        let plan = self.plan.as_ref().filter(|_| settings.planner == PlannerChoice::Pra)?;
        let Answer::Pra(result) = &plan.answer else { return None };
        let level = settings.shown_level;
        if result.straight_line {
            Some("The straight line from start to goal is free: PRA* returned it without planning".to_string())
        } else if level > result.level {
            Some(format!("PRA* planned on level {}: level {level} shows regions only", result.level))
        } else if level == 0 && result.level == 0 {
            Some("Level 0: planned on the grid itself, by plain A* (no corridor)".to_string())
        } else if level == result.level {
            Some(format!(
                "Level {level}: the abstract search ran here, on the whole level; level {} shows the corridor under its path",
                level - 1
            ))
        } else {
            Some(format!("Level {level}: refined inside the corridor under level {}'s path", level + 1))
        }
    }
}

/// The planner-vs-A* rows as a table. A* keeps its column whole; the labels and the planner's
/// values wrap in what it leaves, so on a narrow panel (a projector at 130% text) the A* column
/// stays in view instead of being cut at the panel's edge.
fn comparison_table(ui: &mut egui::Ui, rows: Vec<[String; 3]>) {
    let spacing = ui.spacing().item_spacing.x;
    let width = |text: &str| widgets::text_width(ui, text, egui::TextStyle::Body);
    let widest = |column: usize| rows.iter().map(|r| width(&r[column])).fold(0.0, f32::max);
    let longest_word = |column: usize| rows.iter().flat_map(|r| r[column].split(' ')).map(width).fold(0.0, f32::max);
    let room = ui.available_width() - widest(2) - 2.0 * spacing;
    let (labels, ours) = (widest(0), widest(1));
    let label_width = if labels + ours <= room {
        labels
    } else if ours < room / 2.0 {
        room - ours
    } else {
        labels.min(room / 2.0)
    }
    .max(longest_word(0));
    let ours_width = (room - label_width).max(longest_word(1));
    let wrapped = |ui: &mut egui::Ui, text: String, max_width: f32| {
        ui.scope(|ui| {
            ui.set_max_width(max_width);
            ui.add(egui::Label::new(text).wrap());
        });
    };
    egui::Grid::new("hierarchy-vs-astar").striped(true).num_columns(3).show(ui, |ui| {
        for [label, ours, astar] in rows {
            wrapped(ui, label, label_width);
            wrapped(ui, ours, ours_width);
            ui.label(astar);
            ui.end_row();
        }
    });
}

/// PRA* recorded on a 32x32 maze between its first and last open cells, for the layer tests.
#[cfg(test)]
fn recorded_pra_plan() -> Player<PlanView> {
    use crate::pathfinding::pra::{PraOptions, Pyramid};
    let grid = crate::grid::generate::maze(32, 32, 1, 5);
    let cells = grid.passable_cells();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let mut recorder = Recorder::default();
    pyramid.query(
        &grid,
        cells[0],
        *cells.last().unwrap(),
        PraOptions::default(),
        &mut SearchSpace::new(),
        &mut recorder,
    );
    Player::new(recorder.finish(), PlanView::new(grid.cell_count() + 1))
}
