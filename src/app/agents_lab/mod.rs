//! The multi-agent lesson: agents on a grid map planned together in space-time by independent
//! A*, cooperative A* or WHCA*. A time slider moves the agents along their plan; the replay bar
//! steps through the planner's recording (each agent's space-time search, its reservations).
//! The plan is recorded on the worker; the page only replays it.

mod canvas;
mod cell;
mod narration;

use serde::{Deserialize, Serialize};

use super::file_dialog::NativeDialog;
use super::grid_lab::FileField;
use super::replay_bar::{ReplayBar, ReplayCommand, slider_in_row};
use super::worker::{Job, Request, Response};
use super::{Lesson, widgets};
use crate::grid::Grid;
use crate::pathfinding::mapf::agents::{from_corners, parse_inline, random_agents};
use crate::pathfinding::mapf::replay::AgentsView;
use crate::pathfinding::mapf::{Agent, MapfEvent, MapfSpec, Plan};
use crate::scene::{Lab, MapSource, RunSpec, Scene, Step};
use crate::trace::{Player, Progress, Recorder, Trace, Watched};

/// The map a new page opens on, and how many agents it places.
const DEFAULT_MAP: &str = "rooms128.map";
const DEFAULT_AGENTS: usize = 12;
/// The most agents the page places at random.
const MOST_AGENTS: usize = 200;

/// Planning the agents: everything the worker needs, by value.
#[derive(Serialize, Deserialize)]
pub struct AgentsJob {
    grid: Grid,
    agents: Vec<Agent>,
    spec: MapfSpec,
}

/// A plan and the recording of how it was made.
#[derive(Serialize, Deserialize)]
pub struct Planned {
    plan: Plan,
    trace: Trace<MapfEvent>,
}

impl AgentsJob {
    /// Records the planner (each expansion counts as progress); `None` if stopped.
    pub fn run(self, progress: &Progress) -> Option<Planned> {
        let mut tracer = Watched::new(Recorder::default(), progress);
        let plan = self.spec.plan(&self.grid, &self.agents, &mut tracer);
        (!tracer.stopped()).then(|| Planned { plan, trace: tracer.into_inner().finish() })
    }
}

/// What the page keeps between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentsSettings {
    pub map: String,
    pub spec: MapfSpec,
    pub count: usize,
    pub seed: u64,
}

impl Default for AgentsSettings {
    fn default() -> Self {
        Self { map: DEFAULT_MAP.to_string(), spec: MapfSpec::Cooperative, count: DEFAULT_AGENTS, seed: 1 }
    }
}

/// A finished plan and its replay.
struct Shown {
    spec: MapfSpec,
    plan: Plan,
    player: Player<AgentsView>,
}

pub struct AgentsLab {
    settings: AgentsSettings,
    /// Where the map came from, for the scene the page shows.
    source: MapSource,
    grid: Grid,
    agents: Vec<Agent>,
    /// The agents as text, `sx,sy,gx,gy;…`, as the reader edits them.
    agents_text: String,
    shown: Option<Shown>,
    job: Option<Job>,
    bar: ReplayBar,
    /// The time the agents are drawn at; it follows the replay's events until dragged.
    time: u32,
    /// The step to open once the recording is in (a scene's).
    scene_step: Option<Step>,
    error: Option<String>,
    /// Counts the maps loaded, so the map's texture is made again for a new one.
    map_version: u64,
    texture: Option<(egui::TextureHandle, (u64, egui::Color32, egui::Color32))>,
    /// "Open map…": the dialog, while it is open.
    dialog: NativeDialog<()>,
}

impl AgentsLab {
    pub fn from_saved(saved: Option<&str>) -> Self {
        let settings: AgentsSettings = super::settings_from(saved);
        let mut lab = Self::on_map(settings.clone(), MapSource::Bundled(DEFAULT_MAP.to_string()));
        if settings.map != DEFAULT_MAP && lab.set_map(MapSource::Bundled(settings.map.clone())).is_err() {
            lab.settings.map = DEFAULT_MAP.to_string();
        }
        lab.place_random();
        lab
    }

    fn on_map(settings: AgentsSettings, source: MapSource) -> Self {
        let mut scene = Scene::new(Lab::Agents);
        scene.map = Some(source.clone());
        let grid = scene.load_grid().ok().flatten().expect("the bundled default map loads");
        Self {
            settings,
            source,
            grid,
            agents: Vec::new(),
            agents_text: String::new(),
            shown: None,
            job: None,
            bar: ReplayBar::new(200.0),
            time: 0,
            scene_step: None,
            error: None,
            map_version: 0,
            texture: None,
            dialog: NativeDialog::default(),
        }
    }

    /// What went wrong, as the page shows it.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Loads the map `source` names; the page keeps its map when it cannot be read.
    fn set_map(&mut self, source: MapSource) -> Result<(), String> {
        let mut scene = Scene::new(Lab::Agents);
        scene.map = Some(source.clone());
        self.grid = scene.load_grid()?.ok_or("no map")?;
        self.source = source;
        self.new_map();
        Ok(())
    }

    /// The shown plan belonged to the map before.
    fn new_map(&mut self) {
        self.map_version += 1;
        self.shown = None;
    }

    /// Random agents from the settings' count and seed, then planned.
    fn place_random(&mut self) {
        let agents = random_agents(&self.grid, self.settings.count, self.settings.seed);
        self.set_agents(agents);
    }

    fn set_agents(&mut self, agents: Vec<Agent>) {
        self.agents_text = agents
            .iter()
            .map(|a| format!("{},{},{},{}", a.start.0, a.start.1, a.goal.0, a.goal.1))
            .collect::<Vec<_>>()
            .join(";");
        self.agents = agents;
        self.plan();
    }

    /// Starts recording the plan; the replay opens at its end unless a scene names a step.
    fn plan(&mut self) {
        self.error = None;
        let job = AgentsJob { grid: self.grid.clone(), agents: self.agents.clone(), spec: self.settings.spec };
        let label = format!("Planning {} agents with {}", self.agents.len(), self.settings.spec);
        self.job = Some(Job::start(label, None, Request::Agents(job)));
    }

    /// The map chosen in "Open map…", once the dialog closes with one: its random agents planned.
    fn poll_dialog(&mut self) {
        let Some(((), path)) = self.dialog.poll() else { return };
        match self.set_map(MapSource::Path(path.display().to_string())) {
            Ok(()) => self.place_random(),
            Err(message) => self.error = Some(message),
        }
    }

    /// The map's name in the page: a bundled map's, a file's, or where a scene got it.
    fn map_name(&self) -> String {
        match &self.source {
            MapSource::Bundled(name) => name.clone(),
            MapSource::Path(path) => {
                std::path::Path::new(path).file_name().map_or(path.clone(), |name| name.to_string_lossy().into_owned())
            }
            MapSource::Inline(_) => "the scene's map".to_string(),
            MapSource::Generated(spec) => spec.to_string(),
        }
    }

    /// Takes in the recording once the worker has it.
    fn poll(&mut self) {
        let Some(Response::Agents(planned)) = Job::finish(&mut self.job, &mut self.error) else { return };
        let Some(Planned { plan, trace }) = planned else { return };
        let mut player = Player::new(trace, AgentsView::default());
        let step = self.scene_step.take().unwrap_or(Step::End);
        match step.in_agents(player.trace()) {
            Ok(position) => {
                self.error = step.warning(player.trace());
                player.seek(position);
            }
            Err(message) => self.error = Some(message),
        }
        self.shown = Some(Shown { spec: self.settings.spec, plan, player });
        self.follow_event();
    }

    /// Moves the time to the current event's, so a step shows the reservations it meets.
    fn follow_event(&mut self) {
        let Some(shown) = &self.shown else { return };
        self.time = shown.player.current_event().and_then(narration::event_time).unwrap_or(0);
    }

    fn replay(&mut self, command: ReplayCommand) {
        let Some(shown) = &mut self.shown else { return };
        let (step, len) = (shown.player.step(), shown.player.len());
        if let Some(to) = self.bar.apply(command, step, len) {
            shown.player.seek(to);
            self.follow_event();
        }
    }

    fn advance_playback(&mut self, ui: &egui::Ui) {
        let Some(shown) = &mut self.shown else { return };
        if let Some(to) = self.bar.advance(ui, shown.player.step(), shown.player.len()) {
            shown.player.seek(to);
            self.follow_event();
            ui.ctx().request_repaint();
        }
    }

    /// The page's own settings: map, planner, agents.
    fn settings_ui(&mut self, ui: &mut egui::Ui) {
        let mut replan = false;
        ui.horizontal_wrapped(|ui| {
            let before = self.settings.map.clone();
            egui::ComboBox::from_label("Map").selected_text(self.map_name()).show_ui(ui, |ui| {
                for name in crate::files::bundled_maps().filter(|name| name.ends_with(".map")) {
                    ui.selectable_value(&mut self.settings.map, name.to_string(), name);
                }
            });
            if self.settings.map != before {
                match self.set_map(MapSource::Bundled(self.settings.map.clone())) {
                    Ok(()) => self.place_random(),
                    Err(message) => (self.error, self.settings.map) = (Some(message), before),
                }
            }
            let open = ui.add_enabled(!self.dialog.is_open(), egui::Button::new("Open map…"));
            if open.on_hover_text("A MovingAI .map file of your own").clicked() {
                let current = match &self.source {
                    MapSource::Path(path) => path.clone(),
                    _ => String::new(),
                };
                self.dialog.open((), FileField::Map.request(), &current, Some(ui.ctx().clone()));
            }
        });
        // A row of its own: beside the map's, a projector's width pushed the slider past the edge.
        ui.horizontal_wrapped(|ui| replan |= self.planner_ui(ui));
        ui.horizontal_wrapped(|ui| {
            ui.add(egui::Slider::new(&mut self.settings.count, 1..=MOST_AGENTS).text("agents"));
            ui.add(egui::DragValue::new(&mut self.settings.seed).prefix("seed "));
            if ui.button("Random agents").clicked() {
                self.place_random();
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Agents (sx,sy,gx,gy; ...):");
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.agents_text).desired_width(f32::INFINITY))
                .labelled_by(label.id);
            if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                match parse_inline("agents", &self.agents_text, &self.grid) {
                    Ok(agents) => self.set_agents(agents),
                    Err(error) => self.error = Some(error.to_string()),
                }
            }
        });
        if replan {
            self.plan();
        }
    }

    /// The planner's choice and its window; true when it changed.
    fn planner_ui(&mut self, ui: &mut egui::Ui) -> bool {
        let before = self.settings.spec;
        let window = match before {
            MapfSpec::Whca { window } => window,
            _ => MapfSpec::DEFAULT_WINDOW,
        };
        let choices = [MapfSpec::Independent, MapfSpec::Cooperative, MapfSpec::Whca { window }];
        for (choice, label) in choices.into_iter().zip(["Independent A*", "Cooperative A*", "WHCA*"]) {
            if ui.radio(std::mem::discriminant(&before) == std::mem::discriminant(&choice), label).clicked() {
                self.settings.spec = choice;
            }
        }
        if let MapfSpec::Whca { window } = &mut self.settings.spec {
            slider_in_row(ui, egui::Slider::new(window, 1..=64).text("window W"), "window W");
        }
        self.settings.spec != before
    }
}

impl Lesson for AgentsLab {
    fn ui(&mut self, ui: &mut egui::Ui) {
        widgets::intro(
            ui,
            "agents",
            "Agents move on a 4-connected grid, one step or a wait per time step. No two may be in one \
             cell at one time, nor swap cells in one step; an agent at its goal stays there. \
             Independent A* plans each agent alone, and they collide. Cooperative A* plans them in \
             turn in space-time, each around the cells the agents before it reserved. WHCA* does so \
             a window of W steps at a time, with the true distance to the goal beyond the window.",
        );
        self.settings_ui(ui);
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        if let Some(shown) = &self.shown {
            self.bar.ui(ui, shown.player.step(), shown.player.len(), "event", &mut replay);
        }
        for command in replay {
            self.replay(command);
        }
        self.advance_playback(ui);
        self.progress_and_errors(ui);
        let height = ui.available_height();
        self.body(ui, height);
    }

    fn logic(&mut self, _ctx: &egui::Context) {
        self.poll_dialog();
        self.poll();
    }

    fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    fn save(&self) -> Option<String> {
        serde_json::to_string(&self.settings).ok()
    }

    fn scene(&self) -> Option<Scene> {
        let mut scene = Scene::new(Lab::Agents);
        scene.map = Some(self.source.clone());
        scene.spec = Some(RunSpec::Agents(self.settings.spec));
        scene.agents = self.agents.iter().map(|a| [a.start.0, a.start.1, a.goal.0, a.goal.1]).collect();
        if let Some(shown) = &self.shown {
            scene.step = Step::at(shown.player.step(), shown.player.len());
        }
        Some(scene)
    }

    fn copy_refused(&self) -> Option<String> {
        self.job.is_some().then(|| super::STILL_RECORDING.to_string())
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        if scene.lab != Lab::Agents {
            return Err(format!("the agents lab cannot show a {} scene", scene.lab));
        }
        // Everything read before anything changes: a scene that does not fit leaves the page as it was.
        let (grid, source) = match &scene.map {
            Some(source) => {
                let mut read = Scene::new(Lab::Agents);
                read.map = Some(source.clone());
                (read.load_grid()?.ok_or("no map")?, source.clone())
            }
            None => (self.grid.clone(), self.source.clone()),
        };
        let agents = match scene.agents.is_empty() {
            true => None,
            false => Some(from_corners(&scene.agents, &grid)?),
        };
        if let MapSource::Bundled(name) = &source {
            self.settings.map = name.clone();
        }
        (self.grid, self.source) = (grid, source);
        self.new_map();
        if let Some(spec) = scene.mapf_spec() {
            self.settings.spec = spec;
        }
        self.scene_step = Some(scene.step);
        match agents {
            Some(agents) => self.set_agents(agents),
            None => self.place_random(),
        }
        Ok(())
    }
}
