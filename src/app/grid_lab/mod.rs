//! The grid-search lesson: BFS, Dijkstra and A* on a grid map, replayed step by step, alone or two
//! side by side. Searches are recorded on a worker thread; the page only replays what arrives.

mod canvas;
mod layers;
mod replay;

use std::path::Path;

use egui::{Color32, Key, PointerButton, RichText, Sense, Vec2};
use serde::{Deserialize, Serialize};

use self::canvas::{CellTexture, MapView, Overlay};
use self::layers::HierarchyState;
pub use self::layers::{HierarchySettings, Layers, PlanSummary, Planner, Stepping, recomputed_text};
pub use self::replay::{SearchReplay, StepUnit};
use super::Lesson;
use super::file_dialog::{FileRequest, NativeDialog};
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::worker::Job;
use crate::grid::movingai::{self, Scenario};
use crate::grid::{Connectivity, Grid, MAX_WEIGHT, MoveRules, generate};
use crate::pathfinding::{Algorithm, GridSearch, Heuristic, PlanView};
use crate::trace::{NO_NODE, NodeStatus, Player, SearchEvent, SearchOutcome, SearchSnapshot};

/// The map the lesson opens with.
pub const DEFAULT_MAP: &str = "maps/maze64.map";

/// What a left-button press on the canvas does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Tool {
    /// Drag to pan; hover to inspect.
    #[default]
    Pan,
    Wall,
    Erase,
    Weight,
    Start,
    Goal,
}

impl Tool {
    pub const ALL: [Tool; 6] = [Tool::Pan, Tool::Wall, Tool::Erase, Tool::Weight, Tool::Start, Tool::Goal];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Pan => "Pan",
            Tool::Wall => "Wall",
            Tool::Erase => "Erase",
            Tool::Weight => "Weight",
            Tool::Start => "Start",
            Tool::Goal => "Goal",
        }
    }
}

/// What painting does to a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    Wall,
    Erase,
    Weight(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneratorKind {
    Maze,
    Rooms,
    Random,
}

impl GeneratorKind {
    pub const ALL: [GeneratorKind; 3] = [GeneratorKind::Maze, GeneratorKind::Rooms, GeneratorKind::Random];

    pub fn name(self) -> &'static str {
        match self {
            GeneratorKind::Maze => "maze",
            GeneratorKind::Rooms => "rooms",
            GeneratorKind::Random => "random",
        }
    }
}

/// A generated map, reproducible from these numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GeneratorSpec {
    pub kind: GeneratorKind,
    pub width: u32,
    pub height: u32,
    pub seed: u64,
    /// Maze corridor width.
    pub corridor: u32,
    /// Room side.
    pub room: u32,
    /// Share of blocked cells on a random map.
    pub density: f64,
}

impl Default for GeneratorSpec {
    fn default() -> Self {
        Self { kind: GeneratorKind::Maze, width: 128, height: 128, seed: 1, corridor: 2, room: 12, density: 0.3 }
    }
}

impl GeneratorSpec {
    pub fn generate(&self) -> Grid {
        let (w, h) = (self.width.clamp(2, 4096), self.height.clamp(2, 4096));
        match self.kind {
            GeneratorKind::Maze => generate::maze(w, h, self.corridor, self.seed),
            GeneratorKind::Rooms => generate::rooms(w, h, self.room, 0.15, self.seed),
            GeneratorKind::Random => generate::random(w, h, self.density, self.seed),
        }
    }
}

/// Where the map on screen came from (restored on the next start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MapSource {
    File(String),
    Generated(GeneratorSpec),
}

/// Everything the page remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The left (or only) search and the right one; both use the left one's move rules.
    pub searches: [GridSearch; 2],
    pub compare: bool,
    pub unit: StepUnit,
    /// Replay speed in steps per second.
    pub speed: f32,
    pub map: MapSource,
    pub map_path: String,
    pub scen_path: String,
    pub save_path: String,
    pub generator: GeneratorSpec,
    pub tool: Tool,
    pub paint_weight: u8,
    pub show_values: bool,
    pub hierarchy: HierarchySettings,
}

impl Default for Settings {
    fn default() -> Self {
        let dijkstra = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
        Self {
            searches: [GridSearch::default(), dijkstra],
            compare: false,
            unit: StepUnit::Event,
            speed: 200.0,
            map: MapSource::File(DEFAULT_MAP.to_string()),
            map_path: DEFAULT_MAP.to_string(),
            scen_path: format!("{DEFAULT_MAP}.scen"),
            save_path: "edited.map".to_string(),
            generator: GeneratorSpec::default(),
            tool: Tool::Pan,
            paint_weight: 5,
            show_values: false,
            hierarchy: HierarchySettings::default(),
        }
    }
}

/// The path fields a native file dialog can fill in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileField {
    Map,
    Scenarios,
    SaveMap,
}

impl FileField {
    fn request(self) -> FileRequest {
        let (title, filter_name, extensions, save): (_, _, &'static [&'static str], _) = match self {
            FileField::Map => ("Open a grid map", "MovingAI maps", &["map"], false),
            FileField::Scenarios => ("Open a scenario file", "MovingAI scenarios", &["scen"], false),
            FileField::SaveMap => ("Save the map as", "MovingAI maps", &["map"], true),
        };
        FileRequest { title, filter_name, extensions, save }
    }
}

/// Every action of the page; buttons, keys, the canvas and tests all go through [`GridLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Record the search(es) again on the worker.
    Run,
    /// Re-run after an edit of the map and show the new result at its end.
    Rerun,
    /// Stop the search being recorded; the replay on screen stays.
    Cancel,
    /// Step, play, jump on the timeline (positions in the current step unit).
    Replay(ReplayCommand),
    SetStepUnit(StepUnit),
    /// Options of the left (0) or right (1) search.
    SetSearch(usize, GridSearch),
    SetRules(MoveRules),
    SetCompare(bool),
    LoadMap(String),
    LoadScenarios(String),
    PickQuery(usize),
    SaveMap(String),
    /// Open the native file dialog for one of the path fields.
    Browse(FileField),
    Generate(GeneratorSpec),
    SetStart(u32),
    SetGoal(u32),
    /// Paint cells; the search re-runs only on `Rerun` (sent when the drag ends).
    Paint(Brush, Vec<u32>),
    SetTool(Tool),
    SetPaintWeight(u8),
    ShowValues(bool),
    /// HPA*/PRA* beside the replay: re-plans when the planner or its options change.
    SetHierarchy(HierarchySettings),
    /// Fit the whole map into the canvas.
    Fit,
}

const PSEUDOCODE: [&str; 9] = [
    "open := {start}; g(start) := 0",
    "while open is not empty:",
    "",
    "    if u = goal: return the path to u",
    "    for each neighbour v of u:",
    "        if g(u) + cost(u, v) < g(v):",
    "            g(v) := g(u) + cost(u, v); parent(v) := u",
    "            add v to open",
    "return no path",
];

/// Line 2 is where the algorithms differ: which open node comes next.
fn selection_line(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Bfs => "    u := the oldest node in open (first in, first out)",
        Algorithm::Dijkstra => "    u := the open node with the lowest g",
        Algorithm::Astar => "    u := the open node with the lowest f = g + w·h",
        Algorithm::Jps => "    u := the open jump point with the lowest f = g + h",
    }
}

/// The pseudocode line an event belongs to.
fn pseudocode_line(event: &SearchEvent) -> usize {
    match event {
        SearchEvent::Open { parent, .. } if *parent == NO_NODE => 0,
        SearchEvent::Expand { .. } => 2,
        SearchEvent::Found { .. } => 3,
        SearchEvent::Relax { improved: false, .. } => 4,
        SearchEvent::Relax { improved: true, .. } => 5,
        SearchEvent::Open { .. } => 7,
        SearchEvent::Exhausted => 8,
    }
}

fn describe(search: &GridSearch) -> String {
    match search.algorithm {
        Algorithm::Astar if search.weight > 1.0 => format!("A* ({}, w = {:.1})", search.heuristic.name(), search.weight),
        Algorithm::Astar => format!("A* ({})", search.heuristic.name()),
        other => other.name().to_string(),
    }
}

/// What the worker sends back: new searches, and the map they ran on if it replaces the current one.
struct Recorded {
    new_map: Option<(Grid, MapSource)>,
    start: u32,
    goal: u32,
    replays: Vec<SearchReplay>,
    hierarchy: Option<layers::Plan>,
    show_end: bool,
    /// Why a search could not run on this map (JPS on weighted cells), shown as the error.
    refused: Option<&'static str>,
}

/// The map a job searches on.
enum JobMap {
    Current,
    Replace(Grid, MapSource),
    Generate(GeneratorSpec),
}

/// A drag on the canvas in progress.
#[derive(Debug, Clone, Copy)]
enum Drag {
    Pan,
    Paint { brush: Brush, last: (i64, i64), painted: bool },
    /// Moving the start or the goal; `cell` is where it would drop.
    Endpoint { goal: bool, cell: u32 },
}

/// Start and goal at opposite ends of the largest connected area, so a new map has a long query.
fn corner_endpoints(grid: &Grid, rules: MoveRules) -> (u32, u32) {
    let components = grid.components(rules);
    let mut sizes = std::collections::HashMap::new();
    for &label in components.iter().filter(|&&label| label != u32::MAX) {
        *sizes.entry(label).or_insert(0usize) += 1;
    }
    let Some((&largest, _)) = sizes.iter().max_by_key(|&(label, size)| (size, std::cmp::Reverse(label))) else {
        return (0, 0);
    };
    let mut cells = (0..grid.cell_count() as u32).filter(|&c| components[c as usize] == largest);
    let start = cells.next().unwrap_or(0);
    (start, cells.next_back().unwrap_or(start))
}

pub struct GridLab {
    settings: Settings,
    grid: Grid,
    start: u32,
    goal: u32,
    error: Option<String>,
    notice: Option<String>,
    scenarios: Vec<Scenario>,
    scenario: Option<usize>,
    /// One replay, or two when comparing; they always belong to `grid`'s size.
    replays: Vec<SearchReplay>,
    /// Counts recordings, so the textures know when to redraw everything.
    replay_id: u64,
    position: usize,
    job: Option<Job<Option<Recorded>>>,
    bar: ReplayBar,
    map_view: MapView,
    textures: [CellTexture; 2],
    canvas_rects: [Option<egui::Rect>; 2],
    drag: Option<Drag>,
    hierarchy: HierarchyState,
    /// Wakes the UI when a worker finishes (known after the first frame).
    repaint: Option<egui::Context>,
    dialog: NativeDialog<FileField>,
}

impl Default for GridLab {
    fn default() -> Self {
        Self::new()
    }
}

impl GridLab {
    /// Opens the default map and starts recording a search on it.
    pub fn new() -> Self {
        Self::with_settings(Settings::default())
    }

    /// Opens the map `settings` name (a generated maze and the reason if the file cannot be read)
    /// and starts recording a search on it.
    pub fn with_settings(settings: Settings) -> Self {
        let loaded = match &settings.map {
            MapSource::File(path) => movingai::load_map(path.as_ref()).map_err(|e| e.to_string()),
            MapSource::Generated(spec) => Ok(spec.generate()),
        };
        let (grid, error) = match loaded {
            Ok(grid) => (grid, None),
            Err(e) => (generate::maze(64, 64, 2, 1), Some(format!("{e}; showing a generated maze instead"))),
        };
        let (start, goal) = corner_endpoints(&grid, settings.searches[0].rules);
        let mut lab = Self {
            bar: ReplayBar::new(settings.speed),
            replays: vec![SearchReplay::empty(grid.cell_count())],
            grid,
            settings,
            start,
            goal,
            error,
            notice: None,
            scenarios: Vec::new(),
            scenario: None,
            replay_id: 0,
            position: 0,
            job: None,
            map_view: MapView::default(),
            textures: Default::default(),
            canvas_rects: [None; 2],
            drag: None,
            hierarchy: HierarchyState::default(),
            repaint: None,
            dialog: NativeDialog::default(),
        };
        lab.apply(Command::Run);
        lab
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The left (or only) search's replay.
    pub fn player(&self) -> &Player<SearchSnapshot> {
        &self.replays[0].player
    }

    /// All replays on screen: one, or two when comparing.
    pub fn replays(&self) -> &[SearchReplay] {
        &self.replays
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn endpoints(&self) -> (u32, u32) {
        (self.start, self.goal)
    }

    pub fn scenarios(&self) -> &[Scenario] {
        &self.scenarios
    }

    /// True while a search or a map is being made on the worker.
    pub fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    /// Where a cell's centre is on screen in the left canvas (after at least one frame).
    pub fn cell_on_screen(&self, cell: u32) -> Option<egui::Pos2> {
        self.canvas_rects[0].map(|rect| self.map_view.cell_center(rect, &self.grid, cell))
    }

    pub fn map_view(&self) -> &MapView {
        &self.map_view
    }

    /// The hierarchical planner's figures against A*, once planned.
    pub fn hierarchy(&self) -> Option<PlanSummary> {
        self.hierarchy.summary()
    }

    /// The planner's replay while the timeline steps through it.
    pub fn plan_player(&self) -> Option<&Player<PlanView>> {
        self.hierarchy.stepping(&self.settings.hierarchy)
    }

    /// Regions PRA*'s region layer showed in the last frame it was drawn.
    pub fn region_count(&self) -> usize {
        self.hierarchy.region_count()
    }

    /// Texels the left canvas uploaded in the last frame.
    pub fn last_texture_upload(&self) -> usize {
        self.textures[0].last_upload
    }

    fn searches(&self) -> Vec<GridSearch> {
        let [left, mut right] = self.settings.searches;
        right.rules = left.rules;
        if self.settings.compare { vec![left, right] } else { vec![left] }
    }

    /// Starts recording the searches on the worker; any job still running is dropped (cancelled).
    fn spawn(&mut self, map: JobMap, show_end: bool) {
        let searches = self.searches();
        let label = match &map {
            JobMap::Generate(spec) => format!("Generating a {}x{} {} and searching", spec.width, spec.height, spec.kind.name()),
            _ => format!("Recording {}", searches.iter().map(describe).collect::<Vec<_>>().join(" and ")),
        };
        let current = matches!(map, JobMap::Current).then(|| self.grid.clone());
        let (start, goal) = (self.start, self.goal);
        let plan = self.hierarchy.job(&self.settings.hierarchy, searches[0].rules);
        self.job = Some(Job::spawn(label, self.repaint.clone(), move |progress| {
            let (grid, new_map) = match map {
                JobMap::Current => (current.expect("cloned above"), None),
                JobMap::Replace(grid, source) => (grid.clone(), Some((grid, source))),
                JobMap::Generate(spec) => {
                    let grid = spec.generate();
                    (grid.clone(), Some((grid, MapSource::Generated(spec))))
                }
            };
            let (start, goal) = if new_map.is_some() { corner_endpoints(&grid, searches[0].rules) } else { (start, goal) };
            progress.set_total(grid.passable_count() * searches.len());
            let refused = searches.iter().find_map(|search| search.refusal(&grid));
            let replays = searches
                .iter()
                .map(|search| match refused {
                    Some(_) => Some(SearchReplay::empty(grid.cell_count())),
                    None => SearchReplay::record(&grid, *search, start, goal, progress),
                })
                .collect::<Option<Vec<_>>>()?;
            let hierarchy = plan.run(&grid, start, goal, new_map.is_some());
            Some(Recorded { new_map, start, goal, replays, hierarchy, show_end, refused })
        }));
    }

    /// Installs the worker's result once it is in.
    fn poll_job(&mut self) {
        let Some(Some(recorded)) = self.job.as_ref().and_then(Job::poll) else { return };
        self.job = None;
        if let Some((grid, source)) = recorded.new_map {
            if (grid.width(), grid.height()) != (self.grid.width(), self.grid.height()) {
                self.map_view.fitted = true;
            }
            self.grid = grid;
            self.settings.map = source;
            self.scenarios.clear();
            self.scenario = None;
            self.textures.iter_mut().for_each(CellTexture::invalidate);
            self.hierarchy.forget();
        }
        if let Some(reason) = recorded.refused {
            self.error = Some(reason.to_string());
        }
        self.hierarchy.install(recorded.hierarchy);
        (self.start, self.goal) = (recorded.start, recorded.goal);
        self.replays = recorded.replays;
        self.replay_id += 1;
        self.bar.playing = false;
        self.seek(if recorded.show_end { usize::MAX } else { 0 });
    }

    /// The timeline's length: the planner's events while stepping through it, else the search's.
    fn timeline_len(&self) -> usize {
        match self.plan_player() {
            Some(player) => player.len(),
            None => self.replays.iter().map(|r| r.len(self.settings.unit)).max().unwrap_or(0),
        }
    }

    fn timeline_position(&self) -> usize {
        self.plan_player().map_or(self.position, Player::step)
    }

    /// Moves the timeline. While stepping through the planner the search waits at its start (a
    /// bare map under the planner's drawing) and keeps its position for when it is stepped again.
    fn seek(&mut self, position: usize) {
        let planner = self.plan_player().is_some();
        if planner {
            self.hierarchy.seek(position);
        } else {
            self.position = position.min(self.timeline_len());
        }
        for replay in &mut self.replays {
            replay.seek(self.settings.unit, if planner { 0 } else { self.position });
        }
    }

    /// Start and goal still those of the picked scenario.
    fn current_scenario(&self) -> Option<&Scenario> {
        let scenario = self.scenarios.get(self.scenario?)?;
        let cell = |(x, y): (u32, u32)| self.grid.cell(x, y);
        (cell(scenario.start) == self.start && cell(scenario.goal) == self.goal).then_some(scenario)
    }

    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Run => self.spawn(JobMap::Current, false),
            Command::Rerun => self.spawn(JobMap::Current, true),
            Command::Cancel => self.job = None,
            Command::Replay(command) => {
                if let Some(position) = self.bar.apply(command, self.timeline_position(), self.timeline_len()) {
                    self.seek(position);
                }
                self.settings.speed = self.bar.speed;
            }
            Command::SetStepUnit(unit) => {
                let position = self.replays[0].position(unit);
                self.settings.unit = unit;
                if self.plan_player().is_none() {
                    self.seek(position);
                } else {
                    self.position = position;
                }
            }
            Command::SetSearch(side, search) => {
                self.settings.searches[side.min(1)] = search;
                if side == 0 || self.settings.compare {
                    self.apply(Command::Run);
                }
            }
            Command::SetRules(rules) => {
                self.settings.searches[0].rules = rules;
                self.apply(Command::Run);
            }
            Command::SetCompare(compare) => {
                self.settings.compare = compare;
                self.apply(Command::Run);
            }
            Command::LoadMap(path) => match movingai::load_map(path.as_ref()) {
                Ok(grid) => {
                    self.error = None;
                    self.notice = None;
                    self.settings.map_path = path.clone();
                    let scen = format!("{path}.scen");
                    if Path::new(&scen).exists() {
                        self.settings.scen_path = scen;
                    }
                    self.spawn(JobMap::Replace(grid, MapSource::File(path)), false);
                }
                // The map on screen stays; only the message changes.
                Err(e) => self.error = Some(e.to_string()),
            },
            Command::LoadScenarios(path) => {
                let loaded = movingai::load_scen(path.as_ref()).and_then(|scenarios| {
                    movingai::check_scenarios(&path, &scenarios, &self.grid)?;
                    Ok(scenarios)
                });
                match loaded {
                    Ok(scenarios) if scenarios.is_empty() => self.error = Some(format!("{path}: no queries in the file")),
                    Ok(scenarios) => {
                        self.error = None;
                        self.notice = Some(format!("{} queries loaded; pick one under Query", scenarios.len()));
                        self.settings.scen_path = path;
                        self.scenarios = scenarios;
                        self.scenario = None;
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            Command::PickQuery(index) => {
                if let Some(scenario) = self.scenarios.get(index) {
                    self.start = self.grid.cell(scenario.start.0, scenario.start.1);
                    self.goal = self.grid.cell(scenario.goal.0, scenario.goal.1);
                    self.scenario = Some(index);
                    self.apply(Command::Run);
                }
            }
            Command::SaveMap(path) => match std::fs::write(&path, movingai::write_map(&self.grid)) {
                Ok(()) => {
                    self.error = None;
                    self.notice = Some(format!("Saved the {}x{} map to {path}", self.grid.width(), self.grid.height()));
                    self.settings.save_path = path.clone();
                    self.settings.map_path = path.clone();
                    self.settings.map = MapSource::File(path);
                }
                Err(e) => self.error = Some(format!("{path}: cannot write: {e}")),
            },
            Command::Browse(field) => {
                let current = match field {
                    FileField::Map => &self.settings.map_path,
                    FileField::Scenarios => &self.settings.scen_path,
                    FileField::SaveMap => &self.settings.save_path,
                };
                self.dialog.open(field, field.request(), current, self.repaint.clone());
            }
            Command::Generate(spec) => {
                self.settings.generator = spec;
                self.error = None;
                self.notice = None;
                self.spawn(JobMap::Generate(spec), false);
            }
            Command::SetStart(cell) if self.grid.is_cell_passable(cell) && cell != self.goal => {
                self.start = cell;
                self.spawn(JobMap::Current, true);
            }
            Command::SetGoal(cell) if self.grid.is_cell_passable(cell) && cell != self.start => {
                self.goal = cell;
                self.spawn(JobMap::Current, true);
            }
            Command::SetStart(_) | Command::SetGoal(_) => {}
            Command::Paint(brush, cells) => {
                for &cell in &cells {
                    if cell == self.start || cell == self.goal || cell as usize >= self.grid.cell_count() {
                        continue;
                    }
                    let (x, y) = self.grid.coords(cell);
                    match brush {
                        Brush::Wall => self.grid.set_passable(x, y, false),
                        Brush::Erase => {
                            self.grid.set_passable(x, y, true);
                            self.grid.set_weight(x, y, 1);
                        }
                        Brush::Weight(weight) => {
                            self.grid.set_passable(x, y, true);
                            self.grid.set_weight(x, y, weight);
                        }
                    }
                }
                self.textures.iter_mut().for_each(|t| t.mark_edited(cells.iter().copied()));
                self.hierarchy.note_edits(&self.grid, &cells);
            }
            Command::SetTool(tool) => self.settings.tool = tool,
            Command::SetPaintWeight(weight) => self.settings.paint_weight = weight.clamp(1, MAX_WEIGHT),
            Command::ShowValues(show) => self.settings.show_values = show,
            Command::SetHierarchy(hierarchy) => {
                let replan = hierarchy.plan_key() != self.settings.hierarchy.plan_key();
                let was_planner = self.plan_player().is_some();
                self.settings.hierarchy = hierarchy;
                self.bar.playing &= was_planner == self.plan_player().is_some();
                if replan {
                    self.apply(Command::Run);
                } else if was_planner != self.plan_player().is_some() {
                    // Back to where the search was, or to the planner's start.
                    self.seek(if was_planner { self.position } else { 0 });
                }
            }
            Command::Fit => self.map_view.fitted = true,
        }
    }

    fn map_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Map file:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.map_path).desired_width(230.0)).labelled_by(label.id);
            if ui.button("Load map").clicked() {
                commands.push(Command::LoadMap(self.settings.map_path.clone()));
            }
            self.browse_button(ui, "Open map…", FileField::Map, commands);
        });
        ui.weak("…or drop a .map or .scen file onto the window.");
        let spec = &mut self.settings.generator;
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Generator")
                .selected_text(spec.kind.name())
                .show_ui(ui, |ui| {
                    for kind in GeneratorKind::ALL {
                        ui.selectable_value(&mut spec.kind, kind, kind.name());
                    }
                });
            match spec.kind {
                GeneratorKind::Maze => ui.add(egui::DragValue::new(&mut spec.corridor).range(1..=16).prefix("corridor ")),
                GeneratorKind::Rooms => ui.add(egui::DragValue::new(&mut spec.room).range(3..=64).prefix("room ")),
                GeneratorKind::Random => {
                    ui.add(egui::DragValue::new(&mut spec.density).range(0.0..=0.9).speed(0.01).prefix("walls "))
                }
            };
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut spec.width).range(4..=2048).prefix("width "));
            ui.add(egui::DragValue::new(&mut spec.height).range(4..=2048).prefix("height "));
            ui.add(egui::DragValue::new(&mut spec.seed).prefix("seed "));
            if ui.button("Generate").clicked() {
                commands.push(Command::Generate(*spec));
            }
        });
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Save as:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.save_path).desired_width(230.0)).labelled_by(label.id);
            if ui.button("Save map").clicked() {
                commands.push(Command::SaveMap(self.settings.save_path.clone()));
            }
            self.browse_button(ui, "Save map as…", FileField::SaveMap, commands);
        });
    }

    /// A "Browse" button; disabled while a dialog is open, since one answer is awaited at a time.
    fn browse_button(&self, ui: &mut egui::Ui, label: &str, field: FileField, commands: &mut Vec<Command>) {
        let hint = "The system's file dialog. If none appears, your desktop has no file-dialog service: \
                    type the path or drop the file onto the window.";
        if ui.add_enabled(!self.dialog.is_open(), egui::Button::new(label)).on_hover_text(hint).clicked() {
            commands.push(Command::Browse(field));
        }
    }

    /// A file chosen in the native dialog goes into its field and is loaded (or saved) at once.
    fn dialog_answer(&mut self, commands: &mut Vec<Command>) {
        let Some((field, path)) = self.dialog.poll() else { return };
        let path = path.display().to_string();
        commands.push(match field {
            FileField::Map => {
                self.settings.map_path = path.clone();
                Command::LoadMap(path)
            }
            FileField::Scenarios => {
                self.settings.scen_path = path.clone();
                Command::LoadScenarios(path)
            }
            FileField::SaveMap => Command::SaveMap(path),
        });
    }

    fn scenario_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Scenario file:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.scen_path).desired_width(200.0)).labelled_by(label.id);
            if ui.button("Load scenarios").clicked() {
                commands.push(Command::LoadScenarios(self.settings.scen_path.clone()));
            }
            self.browse_button(ui, "Open scenarios…", FileField::Scenarios, commands);
        });
        if self.scenarios.is_empty() {
            return;
        }
        let query_text = |i: usize, s: &Scenario| {
            format!("#{i}: ({}, {}) -> ({}, {}), optimal {:.2}", s.start.0, s.start.1, s.goal.0, s.goal.1, s.optimal)
        };
        let selected = match self.scenario {
            Some(i) => query_text(i, &self.scenarios[i]),
            None => format!("{} queries", self.scenarios.len()),
        };
        egui::ComboBox::from_label("Query").selected_text(selected).width(300.0).show_ui(ui, |ui| {
            for (i, scenario) in self.scenarios.iter().enumerate() {
                if ui.selectable_label(self.scenario == Some(i), query_text(i, scenario)).clicked() {
                    commands.push(Command::PickQuery(i));
                }
            }
        });
    }

    /// Algorithm, heuristic and weight of one side.
    fn search_options(ui: &mut egui::Ui, side: usize, search: &GridSearch, commands: &mut Vec<Command>) {
        let mut edited = *search;
        let salt = ["left", "right"][side];
        ui.horizontal(|ui| {
            ui.label(if side == 0 { "Algorithm:" } else { "Right:" });
            for algorithm in Algorithm::ALL {
                ui.radio_value(&mut edited.algorithm, algorithm, algorithm.name());
            }
        });
        ui.add_enabled_ui(edited.algorithm == Algorithm::Astar, |ui| {
            ui.horizontal(|ui| {
                egui::ComboBox::new(("heuristic", salt), if side == 0 { "Heuristic" } else { "Right heuristic" })
                    .selected_text(edited.heuristic.name())
                    .show_ui(ui, |ui| {
                        for heuristic in Heuristic::ALL {
                            ui.selectable_value(&mut edited.heuristic, heuristic, heuristic.name());
                        }
                    });
            });
            let text = if side == 0 { "Weight w" } else { "Right weight w" };
            ui.add(egui::Slider::new(&mut edited.weight, 1.0..=5.0).step_by(0.1).text(text));
        });
        if edited != *search {
            commands.push(Command::SetSearch(side, edited));
        }
    }

    fn search_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        Self::search_options(ui, 0, &self.settings.searches[0], commands);
        let mut rules = self.settings.searches[0].rules;
        ui.horizontal(|ui| {
            ui.label("Moves:");
            ui.radio_value(&mut rules.connectivity, Connectivity::Four, "4-connected");
            ui.radio_value(&mut rules.connectivity, Connectivity::Eight, "8-connected");
        });
        ui.add_enabled(
            rules.connectivity == Connectivity::Eight,
            egui::Checkbox::new(&mut rules.corner_cutting, "Cut corners (diagonal past one wall)"),
        );
        if rules != self.settings.searches[0].rules {
            commands.push(Command::SetRules(rules));
        }
        let mut compare = self.settings.compare;
        if ui.checkbox(&mut compare, "Compare side by side").changed() {
            commands.push(Command::SetCompare(compare));
        }
        if self.settings.compare {
            Self::search_options(ui, 1, &self.settings.searches[1], commands);
        }
        if let Some(reason) = self.settings.searches[0].suboptimality_reason(self.grid.has_weights()) {
            ui.label(RichText::new(format!("Not always optimal: {reason}.")).italics());
        }
        if ui.button("Run search").clicked() {
            commands.push(Command::Run);
        }
    }

    fn replay_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let mut replay = Vec::new();
        let unit = if self.plan_player().is_some() { "event" } else { self.settings.unit.name() };
        self.bar.ui(ui, self.timeline_position(), self.timeline_len(), unit, &mut replay);
        commands.extend(replay.into_iter().map(Command::Replay));
    }

    fn canvas_toolbar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Tool:");
            for tool in Tool::ALL {
                if ui.selectable_label(self.settings.tool == tool, tool.name()).clicked() {
                    commands.push(Command::SetTool(tool));
                }
            }
            if self.settings.tool == Tool::Weight {
                let mut weight = self.settings.paint_weight;
                if ui.add(egui::DragValue::new(&mut weight).range(1..=MAX_WEIGHT).prefix("weight ")).changed() {
                    commands.push(Command::SetPaintWeight(weight));
                }
            }
            ui.separator();
            let mut unit = self.settings.unit;
            // The planner's timeline is in events.
            ui.add_enabled_ui(self.plan_player().is_none(), |ui| {
                egui::ComboBox::from_label("Step by").selected_text(unit.name()).show_ui(ui, |ui| {
                    for choice in [StepUnit::Event, StepUnit::Expansion] {
                        ui.selectable_value(&mut unit, choice, choice.name());
                    }
                });
            });
            if unit != self.settings.unit {
                commands.push(Command::SetStepUnit(unit));
            }
            ui.separator();
            let mut show = self.settings.show_values;
            if ui.checkbox(&mut show, "Show g/h/f in cells").changed() {
                commands.push(Command::ShowValues(show));
            }
            if ui.button("Fit").clicked() {
                commands.push(Command::Fit);
            }
            ui.weak(format!("zoom {:.1} px/cell", self.map_view.zoom));
        });
    }

    fn progress(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let Some(job) = &self.job else { return };
        ui.horizontal(|ui| {
            ui.spinner();
            let done = job.progress().done();
            let bar = egui::ProgressBar::new(job.progress().fraction().unwrap_or(0.0)).show_percentage();
            ui.add(bar.desired_width(200.0));
            ui.label(format!("{}: {done} expansions, {:.1} s", job.label, job.elapsed().as_secs_f32()));
            if ui.button("Cancel").clicked() {
                commands.push(Command::Cancel);
            }
        });
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
    }

    fn outcome_text(replay: &SearchReplay) -> String {
        match &replay.player.view().outcome {
            Some(SearchOutcome::Found { cost, path }) => format!("Path found: cost {cost:.3}, {} cells", path.len()),
            Some(SearchOutcome::Exhausted) => "No path: the open list ran empty".to_string(),
            None => "No result yet at this step".to_string(),
        }
    }

    fn stats(&self, ui: &mut egui::Ui) {
        let optimal = self.current_scenario().map(|s| s.optimal);
        if let [replay] = self.replays.as_slice() {
            let view = replay.player.view();
            ui.label(format!("Step {} / {}", replay.player.step(), replay.player.len()));
            if replay.player.trace().truncated {
                ui.label("Trace truncated: the search went on past the recording limit.");
            }
            ui.label(format!("Expanded: {}", view.expanded));
            ui.label(format!("Open: {}   Closed: {}", view.open_count, view.closed_count));
            ui.label(Self::outcome_text(replay));
            ui.weak(format!(
                "Whole search: {} expanded, {} pushed, {:.2} ms without recording",
                replay.result.expanded,
                replay.result.pushed,
                replay.time.as_secs_f64() * 1e3
            ));
            if let Some(optimal) = optimal {
                ui.label(format!("Optimal (scenario): {optimal:.3}"));
            }
            return;
        }
        let row = |ui: &mut egui::Ui, name: &str, values: [String; 2]| {
            ui.label(name);
            for value in values {
                ui.label(value);
            }
            ui.end_row();
        };
        let both = |f: &dyn Fn(&SearchReplay) -> String| [f(&self.replays[0]), f(&self.replays[1])];
        let cost = |r: &SearchReplay| r.result.cost().map_or("no path".to_string(), |c| format!("{c:.3}"));
        let length = |r: &SearchReplay| r.result.path.as_ref().map_or("-".to_string(), |(_, p)| p.len().to_string());
        egui::Grid::new("comparison").striped(true).num_columns(3).show(ui, |ui| {
            row(ui, "", both(&|r| describe(&r.search)));
            row(ui, "Step", both(&|r| format!("{} / {}", r.player.step(), r.player.len())));
            row(ui, "Expanded now", both(&|r| r.player.view().expanded.to_string()));
            row(ui, "Open now", both(&|r| r.player.view().open_count.to_string()));
            row(ui, "Expanded (total)", both(&|r| r.result.expanded.to_string()));
            row(ui, "Pushed (total)", both(&|r| r.result.pushed.to_string()));
            row(ui, "Path cost", both(&cost));
            row(ui, "Path length (cells)", both(&length));
            row(ui, "Time (no recording)", both(&|r| format!("{:.2} ms", r.time.as_secs_f64() * 1e3)));
            if let Some(optimal) = optimal {
                row(ui, "Optimal (scenario)", [format!("{optimal:.3}"), format!("{optimal:.3}")]);
            }
        });
    }

    fn pseudocode(&self, ui: &mut egui::Ui) {
        let highlights = [Color32::from_rgb(250, 220, 90), Color32::from_rgb(120, 220, 240)];
        let lines: Vec<Option<usize>> =
            self.replays.iter().map(|r| r.player.current_event().map(pseudocode_line)).collect();
        for (index, text) in PSEUDOCODE.iter().enumerate() {
            let text = if index == 2 { selection_line(self.replays[0].search.algorithm) } else { text };
            let mut rich = RichText::new(text).monospace();
            if let Some(side) = lines.iter().position(|&line| line == Some(index)) {
                rich = rich.background_color(highlights[side]).color(Color32::BLACK);
            }
            ui.label(rich);
        }
        if self.replays.len() == 2 {
            ui.weak("Yellow: the left search's line; blue: the right one's (where they differ).");
        }
    }

    fn legend(ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let entries = [
                (canvas::OPEN, "open"),
                (canvas::CLOSED, "closed"),
                (canvas::CURRENT, "expanding"),
                (canvas::RELAXING, "neighbour examined"),
                (canvas::PATH, "path"),
                (canvas::START, "start"),
                (canvas::GOAL, "goal"),
                (canvas::WALL, "wall"),
            ];
            for (colour, name) in entries {
                let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
                ui.painter().rect_filled(rect, 2.0, colour);
                ui.label(name);
            }
        });
        ui.weak("Darker ground costs more (weights 1–9). Zoom in for parent arrows.");
    }

    /// One map canvas showing replay `side`.
    fn canvas(&mut self, ui: &mut egui::Ui, side: usize, size: Vec2, commands: &mut Vec<Command>) {
        let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
        let name = if side == 0 { "Map canvas" } else { "Right map canvas" };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, name));
        let rect = response.rect;
        self.canvas_rects[side] = Some(rect);
        if self.map_view.fitted {
            self.map_view.fit(rect.size(), &self.grid);
        }
        let replay = &self.replays[side];
        let texture = self.textures[side].update(ui.ctx(), &self.grid, self.replay_id, &replay.player);
        painter.rect_filled(rect, 0.0, Color32::from_gray(24));
        let map_rect = egui::Rect::from_min_max(
            self.map_view.to_screen(rect, 0.0, 0.0),
            self.map_view.to_screen(rect, self.grid.width() as f32, self.grid.height() as f32),
        );
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        painter.image(texture, map_rect, uv, Color32::WHITE);
        self.hierarchy.paint_below(ui.ctx(), &painter, rect, &self.map_view, &self.grid, &self.settings.hierarchy);

        let pointer_cell = |pos: egui::Pos2| {
            let (x, y) = self.map_view.cell_at(rect, pos);
            self.grid.contains(x, y).then(|| self.grid.cell(x as u32, y as u32))
        };
        let hovered = response.hover_pos().and_then(pointer_cell);
        let (mut start, mut goal) = (self.start, self.goal);
        if let Some(Drag::Endpoint { goal: moving_goal, cell }) = self.drag {
            *(if moving_goal { &mut goal } else { &mut start }) = cell;
        }
        let overlay = Overlay {
            grid: &self.grid,
            view: replay.player.view(),
            start,
            goal,
            show_values: self.settings.show_values,
            hovered,
        };
        canvas::paint_overlays(&painter, rect, &self.map_view, &overlay);
        self.hierarchy.paint_above(&painter, rect, &self.map_view, &self.grid, &self.settings.hierarchy);
        if let Some(cell) = hovered {
            let text = self.cell_info(side, cell);
            response.clone().on_hover_text_at_pointer(text);
        }
        if ui.input(|i| !i.raw.hovered_files.is_empty()) {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(160));
            let font = egui::FontId::proportional(26.0);
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, "Drop a .map or .scen file", font, Color32::WHITE);
        }
        self.canvas_input(ui, &response, rect, commands);
    }

    fn cell_info(&self, side: usize, cell: u32) -> String {
        let record = self.replays[side].player.view().node(cell);
        let (x, y) = self.grid.coords(cell);
        let weight = if self.grid.is_cell_passable(cell) { format!("weight {}", self.grid.weight(cell)) } else { "wall".into() };
        match record.status {
            NodeStatus::Unseen => format!("cell ({x}, {y}), {weight}\nnot reached yet"),
            status => {
                let parent = if record.parent == NO_NODE { "-".to_string() } else { format!("{:?}", self.grid.coords(record.parent)) };
                let status = if status == NodeStatus::Open { "open" } else { "closed" };
                format!(
                    "cell ({x}, {y}), {weight}, {status}\ng = {:.3}\nh = {:.3}\nf = {:.3}\nparent {parent}",
                    record.g,
                    record.h,
                    record.f()
                )
            }
        }
    }

    /// Zoom, pan, painting and dragging the endpoints.
    fn canvas_input(&mut self, ui: &egui::Ui, response: &egui::Response, rect: egui::Rect, commands: &mut Vec<Command>) {
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll / 300.0).exp();
            if factor != 1.0
                && let Some(pos) = response.hover_pos()
            {
                self.map_view.zoom_at(rect, pos, factor);
            }
        }
        let cell_xy = |pos: egui::Pos2| self.map_view.cell_at(rect, pos);
        let cell_of = |(x, y): (i64, i64)| self.grid.contains(x, y).then(|| self.grid.cell(x as u32, y as u32));
        let brush = match self.settings.tool {
            Tool::Wall => Some(Brush::Wall),
            Tool::Erase => Some(Brush::Erase),
            Tool::Weight => Some(Brush::Weight(self.settings.paint_weight)),
            Tool::Pan | Tool::Start | Tool::Goal => None,
        };
        if response.clicked()
            && let Some(cell) = response.interact_pointer_pos().map(cell_xy).and_then(cell_of)
        {
            match (self.settings.tool, brush) {
                (_, Some(brush)) => commands.extend([Command::Paint(brush, vec![cell]), Command::Rerun]),
                (Tool::Start, _) => commands.push(Command::SetStart(cell)),
                (Tool::Goal, _) => commands.push(Command::SetGoal(cell)),
                _ => {}
            }
        }
        if response.drag_started() {
            let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(rect.center());
            let pressed = cell_of(cell_xy(origin));
            let primary = response.dragged_by(PointerButton::Primary) && !ui.input(|i| i.modifiers.ctrl);
            self.drag = Some(match (primary, pressed, brush) {
                (false, _, _) => Drag::Pan,
                (true, Some(cell), _) if cell == self.start => Drag::Endpoint { goal: false, cell },
                (true, Some(cell), _) if cell == self.goal => Drag::Endpoint { goal: true, cell },
                (true, _, _) if self.settings.tool == Tool::Start => Drag::Endpoint { goal: false, cell: self.start },
                (true, _, _) if self.settings.tool == Tool::Goal => Drag::Endpoint { goal: true, cell: self.goal },
                (true, _, Some(brush)) => Drag::Paint { brush, last: cell_xy(origin), painted: false },
                (true, _, None) => Drag::Pan,
            });
        }
        if response.dragged()
            && let Some(pos) = response.interact_pointer_pos()
        {
            match &mut self.drag {
                Some(Drag::Pan) => self.map_view.pan(response.drag_delta()),
                Some(Drag::Paint { brush, last, painted }) => {
                    let here = cell_xy(pos);
                    let cells: Vec<u32> = canvas::line_cells(*last, here).into_iter().filter_map(cell_of).collect();
                    *last = here;
                    if !cells.is_empty() {
                        *painted = true;
                        commands.push(Command::Paint(*brush, cells));
                    }
                }
                Some(Drag::Endpoint { cell, .. }) => {
                    if let Some(here) = cell_of(cell_xy(pos)).filter(|&c| self.grid.is_cell_passable(c)) {
                        *cell = here;
                    }
                }
                None => {}
            }
        }
        if response.drag_stopped() {
            match self.drag.take() {
                Some(Drag::Paint { painted: true, .. }) => commands.push(Command::Rerun),
                Some(Drag::Endpoint { goal: false, cell }) if cell != self.start => commands.push(Command::SetStart(cell)),
                Some(Drag::Endpoint { goal: true, cell }) if cell != self.goal => commands.push(Command::SetGoal(cell)),
                _ => {}
            }
        }
    }

    fn keyboard(&self, ui: &egui::Ui, commands: &mut Vec<Command>) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        commands.extend(replay.into_iter().map(Command::Replay));
        let keys = [
            (Key::F, Command::Fit),
            (Key::Enter, Command::Run),
            (Key::Escape, Command::Cancel),
        ];
        for (key, command) in keys {
            if ui.input(|i| i.key_pressed(key)) {
                commands.push(command);
            }
        }
    }

    fn dropped_files(&self, ui: &egui::Ui, commands: &mut Vec<Command>) {
        for file in ui.input(|i| i.raw.dropped_files.clone()) {
            let path = file.path().display().to_string();
            commands.push(if path.ends_with(".scen") { Command::LoadScenarios(path) } else { Command::LoadMap(path) });
        }
    }

    fn advance_playback(&mut self, ui: &egui::Ui) {
        let dt = ui.input(|i| i.stable_dt);
        if let Some(position) = self.bar.advance(dt, self.timeline_position(), self.timeline_len()) {
            self.seek(position);
            ui.ctx().request_repaint();
        }
    }
}

impl Lesson for GridLab {
    fn title(&self) -> &'static str {
        "Grid search"
    }

    fn save(&self) -> Option<String> {
        serde_json::to_string(&self.settings).ok()
    }

    fn restore(&mut self, saved: &str) {
        if let Ok(settings) = serde_json::from_str::<Settings>(saved) {
            *self = Self::with_settings(settings);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.repaint.get_or_insert_with(|| ui.ctx().clone());
        self.poll_job();
        let mut commands = Vec::new();
        self.keyboard(ui, &mut commands);
        self.dropped_files(ui, &mut commands);
        self.dialog_answer(&mut commands);
        self.advance_playback(ui);
        ui.heading("Grid search: BFS, Dijkstra and A*");
        ui.label(
            "Every search keeps an open list of cells it has reached but not yet explored. BFS takes them \
             in the order found, Dijkstra takes the cheapest route so far, and A* adds an estimate h of the \
             distance still to go, so it explores towards the goal first. Step through the search and watch \
             the open (green) and closed (blue) cells grow; the yellow line is the path. Drag the start or \
             goal to move them; pick a tool to draw walls or weights. Wheel: zoom, right-drag: pan.",
        );
        egui::Panel::right("grid-lab-side").resizable(true).default_size(440.0).min_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::CollapsingHeader::new("Map").default_open(true).show(ui, |ui| self.map_controls(ui, &mut commands));
                egui::CollapsingHeader::new("Scenario")
                    .default_open(true)
                    .show(ui, |ui| self.scenario_controls(ui, &mut commands));
                egui::CollapsingHeader::new("Search")
                    .default_open(true)
                    .show(ui, |ui| self.search_controls(ui, &mut commands));
                egui::CollapsingHeader::new("Hierarchical planners (HPA*, PRA*)").default_open(true).show(ui, |ui| {
                    self.hierarchy.controls(ui, &self.settings.hierarchy, &mut commands);
                    self.hierarchy.stats(ui);
                });
                ui.separator();
                ui.strong("Statistics");
                self.stats(ui);
                ui.separator();
                ui.strong("Pseudocode (the line of the current event is highlighted)");
                if !self.hierarchy.pseudocode(ui, &self.settings.hierarchy) {
                    self.pseudocode(ui);
                }
                ui.separator();
                Self::legend(ui);
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.replay_controls(ui, &mut commands);
            self.canvas_toolbar(ui, &mut commands);
            self.progress(ui, &mut commands);
            if let Some(error) = &self.error {
                ui.colored_label(Color32::from_rgb(235, 90, 70), error);
            } else if let Some(notice) = &self.notice {
                ui.colored_label(Color32::from_rgb(120, 200, 140), notice);
            }
            if let Some(note) = self.hierarchy.level_note(&self.settings.hierarchy) {
                ui.weak(note);
            }
            let available = ui.available_size();
            if self.replays.len() == 2 {
                let size = Vec2::new((available.x - 12.0) / 2.0, available.y - 24.0);
                ui.horizontal(|ui| {
                    for side in 0..2 {
                        ui.vertical(|ui| {
                            ui.strong(format!("{}: {}", ["Left", "Right"][side], describe(&self.replays[side].search)));
                            self.canvas(ui, side, size, &mut commands);
                        });
                    }
                });
            } else {
                self.canvas(ui, 0, available, &mut commands);
            }
        });
        for command in commands {
            self.apply(command);
        }
    }
}
