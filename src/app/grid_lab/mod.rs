//! The grid-search lesson: BFS, Dijkstra and A* on a grid map, replayed step by step, alone or two
//! side by side. Searches are recorded on a worker thread; the page only replays what arrives.

mod canvas;
mod cell;
mod commands;
mod input;
mod layers;
mod narration;
mod open_list;
mod panels;
mod pseudocode;
mod replay;
mod scene;
mod settings;

use std::path::Path;

use egui::Vec2;
use serde::{Deserialize, Serialize};

use self::canvas::{CellTexture, MapView};
use self::layers::HierarchyState;
pub use self::layers::{HierarchySettings, Layers, PlanSummary, PlannerChoice, recomputed_text};
pub use self::replay::{SearchReplay, StepUnit, millis};
pub use self::settings::{Brush, DEFAULT_MAP, FileField, GridSettings, MapOrigin, Tool};
use super::Lesson;
use super::file_dialog::NativeDialog;
use super::history::{History, Step};
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::widgets;
use super::worker::{Job, Request, Response};
use crate::grid::movingai::{self, Scenario};
use crate::grid::{Grid, MAX_WEIGHT, MoveRules, generate};
use crate::pathfinding::GridSearch;
use crate::pathfinding::plan_trace::PlanView;
use crate::pathfinding::search_trace::SearchSnapshot;
use crate::scene::Scene;
use crate::trace::{Player, Progress};

/// Every action of the page; buttons, keys, the canvas and tests all go through [`GridLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum GridCommand {
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
    Generate(generate::Spec),
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
    /// Back to the map before the last edit (paint stroke, start or goal moved, map loaded or
    /// generated), or forward again.
    History(Step),
}

/// What an edit of the map can change, kept to undo it.
#[derive(Debug, Clone)]
struct MapState {
    grid: Grid,
    start: u32,
    goal: u32,
    source: MapOrigin,
}

/// Map states kept for undo: a few dozen, each a copy of the map (1 MB at most for 1024x1024).
const UNDO_LIMIT: usize = 40;

fn describe(search: &GridSearch) -> String {
    let algorithm = search.algorithm;
    match (algorithm.uses_heuristic(), algorithm.uses_weight() && search.weight > 1.0) {
        (true, true) => format!("{} ({}, w = {:.1})", algorithm.name(), search.heuristic.name(), search.weight),
        (true, false) => format!("{} ({})", algorithm.name(), search.heuristic.name()),
        _ => algorithm.name().to_string(),
    }
}

/// What the worker sends back: new searches, and the map they ran on if it replaces the current one.
#[derive(Serialize, Deserialize)]
pub struct GridRecorded {
    new_map: Option<(Grid, MapOrigin)>,
    start: u32,
    goal: u32,
    replays: Vec<SearchReplay>,
    hierarchy: Option<layers::Plan>,
    show_end: bool,
    /// Why a search could not run on this map (JPS on weighted cells), shown as the error.
    refused: Option<String>,
}

/// The map a job searches on.
#[derive(Serialize, Deserialize)]
enum JobMap {
    Current,
    Replace(Grid, MapOrigin),
    Generate(generate::Spec),
}

/// Recording the page's searches: everything the worker needs, by value.
#[derive(Serialize, Deserialize)]
pub struct GridJob {
    map: JobMap,
    /// The map shown, for [`JobMap::Current`].
    current: Option<Grid>,
    searches: Vec<GridSearch>,
    start: u32,
    goal: u32,
    /// The start and goal were chosen (by a scene): keep them on a new map.
    chosen: bool,
    /// HPA*/PRA* beside the search, reusing or updating the page's abstraction.
    plan: Option<layers::PlanJob>,
    show_end: bool,
}

impl GridJob {
    /// A recording of `searches` on `grid` from `start` to `goal`, as the page makes one.
    pub fn new(grid: Grid, searches: Vec<GridSearch>, start: u32, goal: u32) -> Self {
        Self {
            map: JobMap::Current,
            current: Some(grid),
            searches,
            start,
            goal,
            chosen: true,
            plan: None,
            show_end: true,
        }
    }

    /// None if stopped.
    pub fn run(self, progress: &Progress) -> Option<GridRecorded> {
        let GridJob { map, current, searches, start, goal, chosen, plan, show_end } = self;
        let (grid, new_map) = match map {
            JobMap::Current => (current.expect("set with JobMap::Current"), None),
            JobMap::Replace(grid, source) => (grid.clone(), Some((grid, source))),
            JobMap::Generate(spec) => {
                let grid = spec.generate().expect("checked before the job");
                (grid.clone(), Some((grid, MapOrigin::Generated(spec))))
            }
        };
        let (start, goal) =
            if new_map.is_some() && !chosen { corner_endpoints(&grid, searches[0].rules) } else { (start, goal) };
        progress.set_total(grid.passable_count() * searches.len());
        let refused = searches.iter().find_map(|search| search.refusal(&grid));
        let replays = searches
            .iter()
            .map(|search| match refused {
                Some(_) => Some(SearchReplay::empty(*search, grid.cell_count())),
                None => SearchReplay::record(&grid, *search, start, goal, progress),
            })
            .collect::<Option<Vec<_>>>()?;
        let plan_refused = plan.as_ref().and_then(|plan| plan.refusal(&grid));
        let hierarchy = plan.and_then(|plan| plan.run(&grid, start, goal, new_map.is_some(), &replays));
        // A planner refused (its abstraction would not fit) leaves the flat searches running.
        let refused = refused.map(str::to_string).or(plan_refused);
        Some(GridRecorded { new_map, start, goal, replays, hierarchy, show_end, refused })
    }
}

#[cfg(test)]
impl GridJob {
    /// With HPA* or PRA* beside the search, built afresh.
    pub fn planned(mut self, settings: &HierarchySettings) -> Self {
        let rules = self.searches.first().map_or(crate::grid::MoveRules::MOVINGAI, |search| search.rules);
        self.plan = Some(HierarchyState::default().job(settings, rules));
        self
    }
}

#[cfg(test)]
impl GridRecorded {
    pub fn plan(self) -> Option<layers::Plan> {
        self.hierarchy
    }

    pub fn refusal(&self) -> Option<&str> {
        self.refused.as_deref()
    }
}

impl GridRecorded {
    pub fn replays(&self) -> &[SearchReplay] {
        &self.replays
    }

    /// The query searched (cells).
    pub fn query(&self) -> (u32, u32) {
        (self.start, self.goal)
    }
}

/// A drag on the canvas in progress.
#[derive(Debug, Clone, Copy)]
enum Drag {
    Pan,
    Paint {
        brush: Brush,
        last: (i64, i64),
        painted: bool,
    },
    /// Moving the start or the goal; `cell` is where it would drop.
    Endpoint {
        goal: bool,
        cell: u32,
    },
}

/// Start and goal at opposite ends of the largest connected area, so a new map has a long query.
fn corner_endpoints(grid: &Grid, rules: MoveRules) -> (u32, u32) {
    let cells = grid.largest_component(rules);
    match (cells.first(), cells.last()) {
        (Some(&start), Some(&goal)) => (start, goal),
        _ => (0, 0),
    }
}

/// What the page keeps between runs: its settings and the query on screen (start and goal
/// cells), so that a student finds the query they left, a scenario's among them.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Saved {
    #[serde(flatten)]
    settings: GridSettings,
    query: Option<[(u32, u32); 2]>,
}

pub struct GridLab {
    settings: GridSettings,
    grid: Grid,
    start: u32,
    goal: u32,
    error: Option<String>,
    /// Why the last recording's search could not run on its map (JPS on weighted cells).
    refused: Option<String>,
    notice: Option<String>,
    scenarios: Vec<Scenario>,
    scenario: Option<usize>,
    /// One replay, or two when comparing; they always belong to `grid`'s size.
    replays: Vec<SearchReplay>,
    /// Counts recordings, so the textures know when to redraw everything.
    replay_id: u64,
    position: usize,
    job: Option<Job>,
    bar: ReplayBar,
    map_view: MapView,
    textures: [CellTexture; 2],
    canvas_rects: [Option<egui::Rect>; 2],
    drag: Option<Drag>,
    hierarchy: HierarchyState,
    /// Wakes the UI when a worker finishes (known after the first frame).
    repaint: Option<egui::Context>,
    dialog: NativeDialog<FileField>,
    /// A scene's query and step, taken by the next recording.
    scene_endpoints: Option<(u32, u32)>,
    scene_step: Option<crate::scene::Step>,
    /// The maps before each edit, to undo it.
    history: History<MapState>,
    /// A paint stroke is going on: it is undone as one edit.
    painting: bool,
    open_entries: open_list::ShownEntries,
    /// The cell under the mouse in the last frame, for the side column.
    hovered: Option<u32>,
}

impl Default for GridLab {
    fn default() -> Self {
        Self::new()
    }
}

impl GridLab {
    /// Opens the default map and starts recording a search on it.
    pub fn new() -> Self {
        Self::with_settings(GridSettings::default())
    }

    /// The lab as it was left: `saved` is what `Lesson::save` returned in an earlier run.
    pub fn from_saved(saved: Option<&str>) -> Self {
        let Saved { settings, query } = crate::app::settings_from(saved);
        Self::open(settings, query)
    }

    /// Opens the map `settings` name (a generated maze and the reason if the file cannot be read)
    /// and starts recording a search on it.
    pub fn with_settings(settings: GridSettings) -> Self {
        Self::open(settings, None)
    }

    /// [`Self::with_settings`], searching `query` (start and goal cells) where both are free
    /// cells of the map, else between its corners.
    fn open(settings: GridSettings, query: Option<[(u32, u32); 2]>) -> Self {
        let loaded = match &settings.map {
            MapOrigin::File(path) => movingai::load_map(path.as_ref()).map_err(|e| e.to_string()),
            MapOrigin::Inline(text) => movingai::parse_map("the saved map", text).map_err(|e| e.to_string()),
            MapOrigin::Generated(spec) => spec.generate(),
        };
        let (grid, error) = match loaded {
            Ok(grid) => (grid, None),
            Err(e) => (generate::maze(64, 64, 2, 1), Some(format!("{e}; showing a generated maze instead"))),
        };
        let free = |(x, y): (u32, u32)| grid.is_passable(i64::from(x), i64::from(y));
        let (start, goal) = match query {
            Some([start, goal]) if free(start) && free(goal) => {
                (grid.cell(start.0, start.1), grid.cell(goal.0, goal.1))
            }
            _ => corner_endpoints(&grid, settings.searches[0].rules),
        };
        let mut lab = Self {
            bar: ReplayBar::new(settings.speed),
            replays: vec![SearchReplay::empty(settings.searches[0], grid.cell_count())],
            grid,
            settings,
            start,
            goal,
            error,
            refused: None,
            notice: None,
            scenarios: Vec::new(),
            scenario: None,
            replay_id: 0,
            position: 0,
            job: None,
            map_view: MapView::default(),
            textures: Default::default(),
            canvas_rects: [None; 2],
            hovered: None,
            drag: None,
            hierarchy: HierarchyState::default(),
            repaint: None,
            dialog: NativeDialog::default(),
            scene_endpoints: None,
            scene_step: None,
            history: History::new(UNDO_LIMIT),
            painting: false,
            open_entries: Default::default(),
        };
        lab.apply(GridCommand::Run);
        lab
    }

    pub fn settings(&self) -> &GridSettings {
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

    /// Why the search shown could not run on this map, if it could not.
    pub fn refused(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// The refusal, then the error or else the notice.
    fn messages(&self, ui: &mut egui::Ui) {
        if let Some(refused) = &self.refused {
            widgets::error(ui, refused);
        }
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        } else if let Some(notice) = &self.notice {
            widgets::notice(ui, notice);
        }
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
            JobMap::Generate(spec) => {
                format!("Generating a {}x{} {} and searching", spec.width, spec.height, spec.kind.name())
            }
            _ => format!("Recording {}", searches.iter().map(describe).collect::<Vec<_>>().join(" and ")),
        };
        let current = matches!(map, JobMap::Current).then(|| self.grid.clone());
        let chosen = self.scene_endpoints.is_some();
        let (start, goal) = self.scene_endpoints.take().unwrap_or((self.start, self.goal));
        let plan = self
            .settings
            .hierarchy
            .planner(searches[0].rules)
            .map(|_| self.hierarchy.job(&self.settings.hierarchy, searches[0].rules));
        let job = GridJob { map, current, searches, start, goal, chosen, plan, show_end };
        self.job = Some(Job::start(label, self.repaint.clone(), Request::Grid(job)));
    }

    /// Installs the worker's result once it is in.
    fn poll_job(&mut self) {
        let Some(Response::Grid(Some(recorded))) = Job::finish(&mut self.job, &mut self.error) else { return };
        if let Some((grid, source)) = recorded.new_map {
            // A map loaded or generated over the one shown: that one can be had back.
            self.history.record(self.map_state());
            if (grid.width(), grid.height()) != (self.grid.width(), self.grid.height()) {
                self.map_view.fitted = true;
            }
            self.grid = grid;
            self.settings.map = source;
            self.name_map_file();
            self.scenarios.clear();
            self.scenario = None;
            self.textures.iter_mut().for_each(CellTexture::invalidate);
            self.hierarchy.forget();
        }
        self.refused = recorded.refused;
        self.hierarchy.install(recorded.hierarchy);
        (self.start, self.goal) = (recorded.start, recorded.goal);
        self.replays = recorded.replays;
        self.replay_id += 1;
        self.bar.playing = false;
        self.seek(if recorded.show_end { usize::MAX } else { 0 });
        // A refused search has no steps: its reason stays the message.
        if let Some(step) = self.scene_step.take().filter(|_| self.refused.is_none()) {
            self.open_scene_step(step);
        }
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

    /// The file fields name the map shown when it came from a file (a scene's or an undone
    /// one's too), and its scenarios when they lie beside it: else the field would offer the
    /// last map's queries for this one.
    fn name_map_file(&mut self) {
        let MapOrigin::File(path) = &self.settings.map else { return };
        self.settings.map_path = path.clone();
        let scen = format!("{path}.scen");
        self.settings.scen_path = if Path::new(&scen).exists() { scen } else { String::new() };
    }

    fn map_state(&self) -> MapState {
        MapState { grid: self.grid.clone(), start: self.start, goal: self.goal, source: self.settings.map.clone() }
    }

    /// Shows `state`'s map (undone or redone) and searches it again.
    fn restore(&mut self, state: MapState) {
        let resized = (state.grid.width(), state.grid.height()) != (self.grid.width(), self.grid.height());
        if resized {
            self.map_view.fitted = true;
            self.scenarios.clear();
            self.scenario = None;
        }
        // An undone wall edit keeps the map's file: a path typed in its field stays.
        let other_file = state.source != self.settings.map;
        MapState { grid: self.grid, start: self.start, goal: self.goal, source: self.settings.map } = state;
        if other_file {
            self.name_map_file();
        }
        if resized {
            // The old map's replays index other cells: the bare map shows until the new search is in.
            self.replays =
                self.replays.iter().map(|replay| SearchReplay::empty(replay.search, self.grid.cell_count())).collect();
            self.replay_id += 1;
            self.position = 0;
        }
        self.textures.iter_mut().for_each(CellTexture::invalidate);
        self.hierarchy.forget();
        self.spawn(JobMap::Current, true);
    }

    pub fn apply(&mut self, command: GridCommand) {
        if !matches!(command, GridCommand::Paint(..)) {
            self.painting = false;
        }
        match command {
            GridCommand::Run => self.spawn(JobMap::Current, false),
            GridCommand::Rerun => self.spawn(JobMap::Current, true),
            GridCommand::Cancel => self.job = None,
            GridCommand::Replay(command) => {
                if let Some(position) = self.bar.apply(command, self.timeline_position(), self.timeline_len()) {
                    self.seek(position);
                }
                self.settings.speed = self.bar.speed;
            }
            GridCommand::SetStepUnit(unit) => {
                let position = self.replays[0].position(unit);
                self.settings.unit = unit;
                if self.plan_player().is_none() {
                    self.seek(position);
                } else {
                    self.position = position;
                }
            }
            GridCommand::SetSearch(side, search) => {
                self.settings.searches[side.min(1)] = search;
                if side == 0 || self.settings.compare {
                    self.apply(GridCommand::Run);
                }
            }
            GridCommand::SetRules(rules) => {
                self.settings.searches[0].rules = rules;
                self.apply(GridCommand::Run);
            }
            GridCommand::SetCompare(compare) => {
                self.settings.compare = compare;
                self.apply(GridCommand::Run);
            }
            GridCommand::LoadMap(path) => self.load_map(path),
            GridCommand::LoadScenarios(path) => self.load_scenarios(path),
            GridCommand::SaveMap(path) => self.save_map(path),
            GridCommand::Paint(brush, cells) => self.paint(brush, &cells),
            GridCommand::PickQuery(index) => {
                if let Some(scenario) = self.scenarios.get(index) {
                    self.start = self.grid.cell(scenario.start.0, scenario.start.1);
                    self.goal = self.grid.cell(scenario.goal.0, scenario.goal.1);
                    self.scenario = Some(index);
                    // "N queries loaded; pick one" is done with.
                    self.notice = None;
                    self.apply(GridCommand::Run);
                }
            }
            GridCommand::Browse(field) => {
                let current = match field {
                    FileField::Map => &self.settings.map_path,
                    FileField::Scenarios => &self.settings.scen_path,
                    FileField::SaveMap => &self.settings.save_path,
                };
                self.dialog.open(field, field.request(), current, self.repaint.clone());
            }
            GridCommand::Generate(spec) => {
                self.settings.generator = spec;
                self.notice = None;
                self.error = spec.validate().err();
                if self.error.is_none() {
                    self.spawn(JobMap::Generate(spec), false);
                }
            }
            GridCommand::SetStart(cell) if self.grid.is_cell_passable(cell) && cell != self.goal => {
                self.history.record(self.map_state());
                self.start = cell;
                self.spawn(JobMap::Current, true);
            }
            GridCommand::SetGoal(cell) if self.grid.is_cell_passable(cell) && cell != self.start => {
                self.history.record(self.map_state());
                self.goal = cell;
                self.spawn(JobMap::Current, true);
            }
            GridCommand::SetStart(_) | GridCommand::SetGoal(_) => {}
            GridCommand::SetTool(tool) => self.settings.tool = tool,
            GridCommand::SetPaintWeight(weight) => self.settings.paint_weight = weight.clamp(1, MAX_WEIGHT),
            GridCommand::ShowValues(show) => self.settings.show_values = show,
            GridCommand::SetHierarchy(hierarchy) => self.set_hierarchy(hierarchy),
            GridCommand::Fit => self.map_view.fitted = true,
            GridCommand::History(step) => {
                if let Some(state) = self.history.step(step, self.map_state()) {
                    self.restore(state);
                }
            }
        }
    }

    fn advance_playback(&mut self, ui: &egui::Ui) {
        if let Some(position) = self.bar.advance(ui, self.timeline_position(), self.timeline_len()) {
            self.seek(position);
            ui.ctx().request_repaint();
        }
    }
}

impl Lesson for GridLab {
    fn scene(&self) -> Option<Scene> {
        Some(GridLab::scene(self))
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        GridLab::set_scene(self, scene)
    }

    fn save(&self) -> Option<String> {
        let query = Some([self.grid.coords(self.start), self.grid.coords(self.goal)]);
        serde_json::to_string(&Saved { settings: self.settings.clone(), query }).ok()
    }

    fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    fn copy_refused(&self) -> Option<String> {
        self.job.is_some().then(|| crate::app::STILL_RECORDING.to_string())
    }

    fn logic(&mut self, ctx: &egui::Context) {
        self.repaint.get_or_insert_with(|| ctx.clone());
        self.poll_job();
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        self.keyboard(ui, &mut commands);
        self.dropped_files(ui, &mut commands);
        self.dialog_answer(&mut commands);
        self.advance_playback(ui);
        ui.heading("Grid search: BFS, Dijkstra and A*");
        widgets::intro(
            ui,
            "grid-lab-intro",
            "Every search keeps an open list of cells it has reached but not yet explored. BFS takes them \
             in the order found, Dijkstra takes the cheapest route so far, and A* adds an estimate h of the \
             distance still to go, so it explores towards the goal first. Step through the search and watch \
             the open and closed cells grow (their colours are in the legend) until the path is found. Drag the start or \
             goal to move them; pick a tool to draw walls or weights. Wheel: zoom, right-drag: pan; on a touch \
             screen two fingers pan and pinch to zoom.",
        );
        let narration = widgets::Narration::new(ui);
        let sentence = self.narration();
        let pinned = |ui: &mut egui::Ui| narration.in_side_panel(ui, &sentence);
        widgets::side_panel_pinned(ui, "grid-lab-side", 0.36, pinned, |ui| {
            // What a class follows while stepping comes first, so on a 720p projector it stays
            // beside the canvas; the options, set once, are below.
            ui.strong("Statistics");
            self.stats(ui);
            self.hierarchy.stats(ui, self.grid());
            ui.separator();
            ui.strong("Pseudocode (the line of the current event is highlighted)");
            if !self.hierarchy.pseudocode(ui, &self.settings.hierarchy) {
                self.pseudocode(ui);
            }
            ui.separator();
            // The planner's steps have their own list.
            if self.plan_player().is_none() {
                egui::CollapsingHeader::new("Open list").default_open(true).show(ui, |ui| self.open_list(ui));
            }
            egui::CollapsingHeader::new("Search")
                .default_open(true)
                .show(ui, |ui| self.search_controls(ui, &mut commands));
            egui::CollapsingHeader::new("Hierarchical planners (HPA*, PRA*)")
                .default_open(true)
                .show(ui, |ui| self.hierarchy.controls(ui, &self.settings.hierarchy, &mut commands));
            egui::CollapsingHeader::new("Map").default_open(true).show(ui, |ui| self.map_controls(ui, &mut commands));
            egui::CollapsingHeader::new("Scenario")
                .default_open(true)
                .show(ui, |ui| self.scenario_controls(ui, &mut commands));
            ui.separator();
            Self::legend(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            // Measured first: a row too wide for large text widens the panel's ui, not the canvas.
            let width = ui.available_width();
            self.replay_controls(ui, &mut commands);
            narration.under_bar(ui, &sentence, if self.replays.len() == 2 { 4 } else { 2 });
            self.canvas_toolbar(ui, &mut commands);
            self.progress(ui, &mut commands);
            self.messages(ui);
            if let Some(note) = self.hierarchy.level_note(&self.settings.hierarchy) {
                ui.label(note);
            }
            let available = Vec2::new(width, ui.available_height());
            if self.replays.len() == 2 {
                let size = Vec2::new((available.x - 12.0) / 2.0, available.y - 24.0);
                ui.horizontal(|ui| {
                    for side in 0..2 {
                        ui.vertical(|ui| {
                            ui.strong(format!("{}: {}", ["Left", "Right"][side], describe(&self.replays[side].search)));
                            self.canvas(ui, side, size, true, &mut commands);
                        });
                    }
                });
            } else {
                self.canvas(ui, 0, available, true, &mut commands);
            }
        });
        for command in commands {
            self.apply(command);
        }
    }
}
