//! The grid-search lesson: BFS, Dijkstra and A* on a grid map, replayed step by step.

use egui::{Color32, ColorImage, Key, Sense, TextureHandle, TextureOptions, Vec2};

use super::Lesson;
use crate::grid::movingai;
use crate::grid::{Grid, generate};
use crate::pathfinding::{Algorithm, GridSearch, Heuristic, SearchSpace};
use crate::trace::{NO_NODE, NodeStatus, Player, Recorder, SearchEvent, SearchOutcome, SearchSnapshot};

/// The map the lesson opens with.
pub const DEFAULT_MAP: &str = "maps/maze64.map";

/// Every action of the page; buttons, keys and tests all go through [`GridLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Run,
    StepForward,
    StepBack,
    ToStart,
    ToEnd,
    Seek(usize),
    TogglePlay,
    LoadMap(String),
    SetStart(u32),
    SetGoal(u32),
    ToggleWall(u32),
}

const PSEUDOCODE: [&str; 9] = [
    "open := {start}; g(start) := 0",
    "while open is not empty:",
    "    u := the open node with the lowest f = g + h",
    "    if u = goal: return the path to u",
    "    for each neighbour v of u:",
    "        if g(u) + cost(u, v) < g(v):",
    "            g(v) := g(u) + cost(u, v); parent(v) := u",
    "            add v to open",
    "return no path",
];

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

pub struct GridLab {
    grid: Grid,
    map_path: String,
    error: Option<String>,
    start: u32,
    goal: u32,
    search: GridSearch,
    player: Player<SearchSnapshot>,
    playing: bool,
    /// Replay speed in events per second.
    speed: f32,
    /// Events owed to the replay from earlier frames (fractions of a step).
    pending: f32,
    texture: Option<TextureHandle>,
}

impl Default for GridLab {
    fn default() -> Self {
        Self::new()
    }
}

impl GridLab {
    /// Opens the default map; if it cannot be read, a generated maze and the reason.
    pub fn new() -> Self {
        let (grid, error) = match movingai::load_map(DEFAULT_MAP.as_ref()) {
            Ok(grid) => (grid, None),
            Err(e) => (generate::maze(64, 64, 2, 1), Some(format!("{e}; showing a generated maze instead"))),
        };
        let mut lab = Self {
            player: Player::new(Recorder::new(0).finish(), SearchSnapshot::new(0)),
            grid,
            map_path: DEFAULT_MAP.to_string(),
            error,
            start: 0,
            goal: 0,
            search: GridSearch::default(),
            playing: false,
            speed: 200.0,
            pending: 0.0,
            texture: None,
        };
        lab.place_endpoints();
        lab.apply(Command::Run);
        lab
    }

    pub fn player(&self) -> &Player<SearchSnapshot> {
        &self.player
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Start at the first passable cell, goal at the last.
    fn place_endpoints(&mut self) {
        let mut open = (0..self.grid.cell_count() as u32).filter(|&c| self.grid.is_cell_passable(c));
        self.start = open.next().unwrap_or(0);
        self.goal = open.next_back().unwrap_or(self.start);
    }

    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Run => {
                let mut recorder = Recorder::default();
                self.search.run(&self.grid, self.start, self.goal, &mut SearchSpace::new(), &mut recorder);
                self.player = Player::new(recorder.finish(), SearchSnapshot::new(self.grid.cell_count()));
                self.playing = false;
            }
            Command::StepForward => {
                self.player.forward();
            }
            Command::StepBack => {
                self.player.back();
            }
            Command::ToStart => {
                self.player.seek(0);
            }
            Command::ToEnd => {
                self.player.seek(usize::MAX);
            }
            Command::Seek(step) => {
                self.player.seek(step);
            }
            Command::TogglePlay => self.playing = !self.playing,
            Command::LoadMap(path) => match movingai::load_map(path.as_ref()) {
                Ok(grid) => {
                    self.grid = grid;
                    self.map_path = path;
                    self.error = None;
                    self.texture = None;
                    self.place_endpoints();
                    self.apply(Command::Run);
                }
                // The map on screen stays; only the message changes.
                Err(e) => self.error = Some(e.to_string()),
            },
            Command::SetStart(cell) if self.grid.is_cell_passable(cell) => {
                self.start = cell;
                self.apply(Command::Run);
            }
            Command::SetGoal(cell) if self.grid.is_cell_passable(cell) => {
                self.goal = cell;
                self.apply(Command::Run);
            }
            Command::ToggleWall(cell) if cell != self.start && cell != self.goal => {
                let (x, y) = self.grid.coords(cell);
                self.grid.set_passable(x, y, !self.grid.is_cell_passable(cell));
                self.apply(Command::Run);
            }
            Command::SetStart(_) | Command::SetGoal(_) | Command::ToggleWall(_) => {}
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        // A long timeline: scrubbing through thousands of events needs the room.
        ui.spacing_mut().slider_width = 280.0;
        let mut commands = Vec::new();
        ui.horizontal(|ui| {
            let label = ui.label("Map file:");
            ui.text_edit_singleline(&mut self.map_path).labelled_by(label.id);
            if ui.button("Load map").clicked() {
                commands.push(Command::LoadMap(self.map_path.clone()));
            }
        });
        if let Some(error) = &self.error {
            ui.colored_label(Color32::from_rgb(220, 80, 60), error);
        }
        let before = self.search;
        ui.horizontal(|ui| {
            ui.label("Algorithm:");
            for algorithm in Algorithm::ALL {
                ui.radio_value(&mut self.search.algorithm, algorithm, algorithm.name());
            }
        });
        ui.add_enabled_ui(self.search.algorithm == Algorithm::Astar, |ui| {
            ui.horizontal(|ui| {
                ui.label("Heuristic:");
                for heuristic in Heuristic::ALL {
                    ui.radio_value(&mut self.search.heuristic, heuristic, heuristic.name());
                }
            });
            ui.add(egui::Slider::new(&mut self.search.weight, 1.0..=5.0).text("Weight w"));
        });
        if self.search != before {
            commands.push(Command::Run);
        }
        ui.horizontal(|ui| {
            let buttons = [
                ("|< Start", Command::ToStart),
                ("< Step back", Command::StepBack),
                (if self.playing { "Pause" } else { "Play" }, Command::TogglePlay),
                ("Step >", Command::StepForward),
                ("End >|", Command::ToEnd),
            ];
            for (label, command) in buttons {
                if ui.button(label).clicked() {
                    commands.push(command);
                }
            }
        });
        let mut step = self.player.step();
        let timeline = egui::Slider::new(&mut step, 0..=self.player.len()).text("Step");
        if ui.add(timeline).changed() {
            commands.push(Command::Seek(step));
        }
        ui.add(egui::Slider::new(&mut self.speed, 1.0..=5000.0).logarithmic(true).text("Events per second"));
        for command in commands {
            self.apply(command);
        }
    }

    fn stats(&self, ui: &mut egui::Ui) {
        let view = self.player.view();
        ui.label(format!("Step {} / {}", self.player.step(), self.player.len()));
        if self.player.trace().truncated {
            ui.label("Trace truncated: the search went on past the recording limit.");
        }
        ui.label(format!("Expanded: {}", view.expanded));
        ui.label(format!("Open: {}   Closed: {}", view.open_count, view.closed_count));
        let outcome = match &view.outcome {
            Some(SearchOutcome::Found { cost, path }) => format!("Path found: cost {cost:.3}, {} cells", path.len()),
            Some(SearchOutcome::Exhausted) => "No path: the open list ran empty".to_string(),
            None => "Searching...".to_string(),
        };
        ui.label(outcome);
    }

    fn pseudocode(&self, ui: &mut egui::Ui) {
        let line = self.player.current_event().map(pseudocode_line);
        for (index, text) in PSEUDOCODE.iter().enumerate() {
            let mut rich = egui::RichText::new(*text).monospace();
            if Some(index) == line {
                rich = rich.background_color(Color32::from_rgb(250, 220, 90)).color(Color32::BLACK);
            }
            ui.label(rich);
        }
    }

    /// The map coloured by what the search knows at this step.
    fn image(&self) -> ColorImage {
        let view = self.player.view();
        let on_path: Vec<u32> = match &view.outcome {
            Some(SearchOutcome::Found { path, .. }) => path.clone(),
            _ => Vec::new(),
        };
        let mut pixels: Vec<Color32> = (0..self.grid.cell_count() as u32)
            .map(|cell| {
                if !self.grid.is_cell_passable(cell) {
                    return Color32::from_gray(40);
                }
                let shade = 255 - (self.grid.weight(cell) - 1) * 14;
                match view.node(cell).status {
                    NodeStatus::Unseen => Color32::from_gray(shade),
                    NodeStatus::Open => Color32::from_rgb(120, 210, 130),
                    NodeStatus::Closed => Color32::from_rgb(140, 170, 230),
                }
            })
            .collect();
        for cell in on_path {
            pixels[cell as usize] = Color32::from_rgb(250, 200, 40);
        }
        let marks = [
            (view.relaxing, Color32::from_rgb(250, 140, 40)),
            (view.current, Color32::from_rgb(220, 40, 40)),
            (Some(self.start), Color32::from_rgb(30, 160, 60)),
            (Some(self.goal), Color32::from_rgb(170, 40, 170)),
        ];
        for (cell, colour) in marks {
            if let Some(cell) = cell {
                pixels[cell as usize] = colour;
            }
        }
        ColorImage::new([self.grid.width() as usize, self.grid.height() as usize], pixels)
    }

    fn canvas(&mut self, ui: &mut egui::Ui) {
        let image = self.image();
        let texture = match &mut self.texture {
            Some(texture) => {
                texture.set(image, TextureOptions::NEAREST);
                texture.clone()
            }
            None => self.texture.insert(ui.ctx().load_texture("grid", image, TextureOptions::NEAREST)).clone(),
        };
        let (w, h) = (self.grid.width() as f32, self.grid.height() as f32);
        let available = ui.available_size();
        let scale = (available.x / w).min(available.y / h).max(1.0);
        let (response, painter) = ui.allocate_painter(Vec2::new(w * scale, h * scale), Sense::click());
        let rect = response.rect;
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        painter.image(texture.id(), rect, uv, Color32::WHITE);
        let cell_at = |pos: egui::Pos2| {
            let (x, y) = (((pos.x - rect.min.x) / scale) as i64, ((pos.y - rect.min.y) / scale) as i64);
            self.grid.contains(x, y).then(|| self.grid.cell(x as u32, y as u32))
        };
        if let Some(cell) = response.hover_pos().and_then(cell_at) {
            let record = self.player.view().node(cell);
            let (x, y) = self.grid.coords(cell);
            let parent = if record.parent == NO_NODE { "-".to_string() } else { format!("{:?}", self.grid.coords(record.parent)) };
            let text = if record.status == NodeStatus::Unseen {
                format!("cell ({x}, {y}), weight {}\nnot reached yet", self.grid.weight(cell))
            } else {
                format!(
                    "cell ({x}, {y}), weight {}\ng = {:.3}\nh = {:.3}\nf = {:.3}\nparent {parent}",
                    self.grid.weight(cell),
                    record.g,
                    record.h,
                    record.f()
                )
            };
            response.clone().on_hover_text(text);
        }
        if response.clicked()
            && let Some(cell) = response.interact_pointer_pos().and_then(cell_at)
        {
            let modifiers = ui.input(|i| i.modifiers);
            let command = if modifiers.shift {
                Command::SetStart(cell)
            } else if modifiers.ctrl || modifiers.command {
                Command::ToggleWall(cell)
            } else {
                Command::SetGoal(cell)
            };
            self.apply(command);
        }
    }

    fn keyboard(&mut self, ui: &egui::Ui) {
        let keys = [
            (Key::Space, Command::TogglePlay),
            (Key::ArrowRight, Command::StepForward),
            (Key::ArrowLeft, Command::StepBack),
            (Key::Home, Command::ToStart),
            (Key::End, Command::ToEnd),
        ];
        for (key, command) in keys {
            if ui.input(|i| i.key_pressed(key)) {
                self.apply(command);
            }
        }
    }

    fn advance_playback(&mut self, ui: &egui::Ui) {
        if !self.playing {
            return;
        }
        self.pending += self.speed * ui.input(|i| i.stable_dt).min(0.1);
        let steps = self.pending as usize;
        self.pending -= steps as f32;
        let target = self.player.step() + steps;
        self.player.seek(target);
        if self.player.at_end() {
            self.playing = false;
        }
        ui.ctx().request_repaint();
    }
}

impl Lesson for GridLab {
    fn title(&self) -> &'static str {
        "Grid search"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.keyboard(ui);
        self.advance_playback(ui);
        ui.heading("Grid search: BFS, Dijkstra and A*");
        ui.label(
            "Every search keeps an open list of cells it has reached but not yet explored. BFS takes them \
             in the order found, Dijkstra takes the cheapest route so far, and A* adds an estimate h of the \
             distance still to go, so it explores towards the goal first. Step through the search and watch \
             the open (green) and closed (blue) cells; the yellow line is the path. Click: goal, \
             Shift+click: start, Ctrl+click: wall.",
        );
        ui.separator();
        egui::Panel::right("grid-lab-side").resizable(false).min_size(420.0).show(ui, |ui| {
            self.controls(ui);
            ui.separator();
            self.stats(ui);
            ui.separator();
            ui.label("Pseudocode (the line of the current event is highlighted):");
            self.pseudocode(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| self.canvas(ui));
    }
}
