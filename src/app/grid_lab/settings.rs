//! What the grid lab remembers between runs, and the choices it offers: tools, generators, the map's source.

use serde::{Deserialize, Serialize};

use super::{HierarchySettings, StepUnit};
use crate::app::file_dialog::FileRequest;
use crate::grid::generate;
use crate::pathfinding::{Algorithm, GridSearch};

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

/// Where the map on screen came from (restored on the next start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MapOrigin {
    File(String),
    /// A map's text, from a scene.
    Inline(String),
    Generated(generate::Spec),
}

/// Everything the page remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GridSettings {
    /// The left (or only) search and the right one; both use the left one's move rules.
    pub searches: [GridSearch; 2],
    pub compare: bool,
    pub unit: StepUnit,
    /// Replay speed in steps per second.
    pub speed: f32,
    pub map: MapOrigin,
    pub map_path: String,
    pub scen_path: String,
    pub save_path: String,
    pub generator: generate::Spec,
    pub tool: Tool,
    pub paint_weight: u8,
    pub show_values: bool,
    pub hierarchy: HierarchySettings,
}

impl Default for GridSettings {
    fn default() -> Self {
        let dijkstra = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
        Self {
            searches: [GridSearch::default(), dijkstra],
            compare: false,
            unit: StepUnit::Event,
            speed: 200.0,
            map: MapOrigin::File(DEFAULT_MAP.to_string()),
            map_path: DEFAULT_MAP.to_string(),
            scen_path: format!("{DEFAULT_MAP}.scen"),
            save_path: "edited.map".to_string(),
            // The page offers a bigger maze than the CLI's default to start with.
            generator: generate::Spec { width: 128, height: 128, corridor: 2, ..generate::Spec::default() },
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
    pub(crate) fn request(self) -> FileRequest {
        use crate::grid::movingai::{MAX_MAP_TEXT, MAX_SCEN_TEXT};
        let (title, filter_name, extensions, save, max_bytes): (_, _, &'static [&'static str], _, _) = match self {
            FileField::Map => ("Open a grid map", "MovingAI maps", &["map"], false, MAX_MAP_TEXT),
            FileField::Scenarios => ("Open a scenario file", "MovingAI scenarios", &["scen"], false, MAX_SCEN_TEXT),
            FileField::SaveMap => ("Save the map as", "MovingAI maps", &["map"], true, MAX_MAP_TEXT),
        };
        FileRequest { title, filter_name, extensions, save, max_bytes }
    }
}
