//! A [`Scene`]: one thing to show, as data. A notebook cell, a saved page state and a web
//! worker's job all carry one; each lab page can show a scene and say which scene it shows.
//!
//! ```toml
//! version = 1
//! lab = "grid"
//! map = { bundled = "maze64.map" }
//! spec = "astar:octile,weight=1.5"
//! compare = "dijkstra"
//! start = [1, 1]
//! goal = [62, 62]
//! step = "first-expansion"
//! layers = ["values"]
//! ```
//!
//! A hierarchical scene may add `replay = "planner"`: its replay bar then steps through the
//! planner's stages (abstract search, corridors, refinement) instead of the flat search.
//!
//! Specs are written in their text form ([`Planner`], [`MeshSearch`], [`EngineSpec`], the
//! generator's [`Spec`]). Reading refuses unknown fields (naming them), other versions, and specs
//! that do not fit the lab, each in one line.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::adversarial::engine::EngineSpec;
use crate::games::custom_tree::CustomTree;
use crate::grid::generate::Spec;
use crate::grid::{Grid, movingai};
use crate::navmesh::search::MeshSearch;
use crate::navmesh::{self, MapFile, PolygonMap};
use crate::pathfinding::mapf::MapfSpec;
use crate::pathfinding::planner::Planner;
use crate::text::quote;

mod game;
mod labs;
mod step;

pub use game::GameKind;
pub use labs::{Lab, LabKind, game_tree_request, recorded_spec};
pub use step::{Moment, Step};

/// The scene format this searchlab reads and writes.
pub const SCENE_VERSION: u32 = 1;

/// Where the map comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", try_from = "MapFields")]
pub enum MapSource {
    /// A file path.
    Path(String),
    /// A map shipped in `maps/`, by file name.
    Bundled(String),
    /// A small map's text: MovingAI `.map` for grids, polygon JSON for polygon maps.
    Inline(String),
    /// A generated grid map.
    Generated(Spec),
}

/// A map source as written: a table that should hold exactly one of the sources.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a map source: { bundled = NAME }, { path = FILE }, { inline = TEXT } or { generated = SPEC }"
)]
struct MapFields {
    path: Option<String>,
    bundled: Option<String>,
    inline: Option<String>,
    generated: Option<Spec>,
}

impl TryFrom<MapFields> for MapSource {
    type Error = String;

    fn try_from(MapFields { path, bundled, inline, generated }: MapFields) -> Result<Self, String> {
        let given = [
            path.map(MapSource::Path),
            bundled.map(MapSource::Bundled),
            inline.map(MapSource::Inline),
            generated.map(MapSource::Generated),
        ];
        let mut given = given.into_iter().flatten();
        match (given.next(), given.next()) {
            (Some(source), None) => Ok(source),
            _ => Err("give one map source: bundled, path, inline or generated".to_string()),
        }
    }
}

/// What a scene runs: the lab decides which kind fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunSpec {
    Planner(Planner),
    Mesh(MeshSearch),
    Engine(EngineSpec),
    /// A multi-agent planner.
    Agents(MapfSpec),
}

impl fmt::Display for RunSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunSpec::Planner(planner) => planner.fmt(f),
            RunSpec::Mesh(search) => search.fmt(f),
            RunSpec::Engine(engine) => engine.fmt(f),
            RunSpec::Agents(planner) => planner.fmt(f),
        }
    }
}

impl RunSpec {
    /// Reads `text` as the kind of spec `lab` runs, so a bad one gets that kind's message (the
    /// planners for a grid cell, the engines for a game cell).
    pub fn parse(lab: Lab, text: &str) -> Result<RunSpec, String> {
        lab.parse_spec(text)
    }
}

/// Written as text; read by [`RunSpec::parse`], which needs the scene's lab.
impl Serialize for RunSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Which recording a hierarchical scene's replay bar steps through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Replayed {
    /// The flat search beside the planner (`compare`), cell by cell.
    #[default]
    #[serde(alias = "Search")]
    Search,
    /// The planner's own stages: its abstract search, then each corridor and refinement.
    #[serde(alias = "Planner")]
    Planner,
}

/// One thing to show. See the module documentation for the TOML form. Its specs are read as text
/// first (`Scene<String>`): the lab says which kind of spec they are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene<S = RunSpec> {
    pub version: u32,
    pub lab: Lab,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapSource>,
    /// What runs: a planner (grid, hierarchical), a mesh search (polygon), an engine (game tree, Barca).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<S>,
    /// A second spec shown side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<S>,
    /// The query: cells (grid) or points (polygon).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "point")]
    pub start: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "point")]
    pub goal: Option<[f64; 2]>,
    /// A game position in the game's notation (tic-tac-toe rows, Barca FEN).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// A typed-in game tree as nested leaves, MAX at the root: `((3,12,8),(2,4,6),(14,5,2))`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    /// What the replay bar steps through (hierarchical lab); the flat search when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replayed>,
    #[serde(default)]
    pub step: Step,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<String>,
    /// The game a game-tree scene searches (`game = "barca"`); without it the game is the one its
    /// position is written as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameKind>,
    /// The agents of a multi-agent scene in priority order, `[sx, sy, gx, gy]` each.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "agent_rows")]
    pub agents: Vec<[u32; 4]>,
    /// What the cell's recording must show, by the names `lecture --check --values` prints:
    /// `expect = { expanded = 684, cost = 36.799 }`; numbers compare at the precision written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub expect: BTreeMap<String, serde_json::Value>,
    /// A quiz cell's question kind (`kind = "next-expansion"`), the algorithm and size it asks
    /// about (drawn from the seed when not given) and its first seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// `[x, y]`, refused with any other count of numbers (serde's arrays drop the ones past the second).
fn point<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<[f64; 2]>, D::Error> {
    let numbers = Vec::<f64>::deserialize(deserializer)?;
    let count = numbers.len();
    <[f64; 2]>::try_from(numbers)
        .map(Some)
        .map_err(|_| serde::de::Error::custom(format!("a cell or point is [x, y]: two numbers, not {count}")))
}

/// `[[sx, sy, gx, gy], ...]`, each agent refused with any other count of numbers.
fn agent_rows<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<[u32; 4]>, D::Error> {
    let rows = Vec::<Vec<u32>>::deserialize(deserializer)?;
    rows.into_iter()
        .zip(1..)
        .map(|(row, agent)| {
            let count = row.len();
            <[u32; 4]>::try_from(row).map_err(|_| {
                serde::de::Error::custom(format!("agent {agent} is [sx, sy, gx, gy]: four numbers, not {count}"))
            })
        })
        .collect()
}

/// A problem with one field of a scene: the field lets a lecture point at its line.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        FieldError { field, message: message.into() }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<FieldError> for String {
    fn from(error: FieldError) -> String {
        error.message
    }
}

/// The index of the line of a scene's TOML `text` that sets the top-level `key`.
pub fn field_index(text: &str, key: &str) -> Option<usize> {
    field_indices(text, key).next()
}

/// The indices of the lines of `text` that set `key`, in order.
fn field_indices<'a>(text: &'a str, key: &'a str) -> impl Iterator<Item = usize> + 'a {
    let sets =
        move |line: &str| line.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='));
    text.lines().enumerate().filter(move |(_, line)| sets(line)).map(|(index, _)| index)
}

/// A typed-in tree's height, or why it is not a tree to search.
fn read_tree(text: &str) -> Result<usize, FieldError> {
    CustomTree::parse(text).map(|tree| tree.root().height()).map_err(|e| FieldError::new("tree", format!("tree: {e}")))
}

impl<S> Scene<S> {
    /// The optional fields that are set, for [`Lab::unused_field`].
    fn given(&self) -> [(&'static str, bool); 14] {
        [
            ("map", self.map.is_some()),
            ("spec", self.spec.is_some()),
            ("compare", self.compare.is_some()),
            ("start", self.start.is_some()),
            ("goal", self.goal.is_some()),
            ("position", self.position.is_some()),
            ("tree", self.tree.is_some()),
            ("replay", self.replay.is_some()),
            ("game", self.game.is_some()),
            ("agents", !self.agents.is_empty()),
            ("kind", self.kind.is_some()),
            ("algorithm", self.algorithm.is_some()),
            ("size", self.size.is_some()),
            ("seed", self.seed.is_some()),
        ]
    }

    /// The specs (`spec`, `compare`) as its lab's kind, by `read` (a spec and how it is written,
    /// given the typed-in tree's height), each checked to fit the lab; and the tree's height.
    /// Fields the lab does not read are refused first, then the tree, so a typo in it is not taken
    /// for a spec without a depth.
    fn read_specs(
        &self,
        read: impl Fn(&S, Option<usize>) -> Result<(RunSpec, String), String>,
    ) -> Result<([Option<RunSpec>; 2], Option<usize>), FieldError> {
        self.lab.unused_field(self.given())?;
        let height = self.tree.as_deref().map(read_tree).transpose()?;
        let fit = |field, spec: &Option<S>| {
            let Some(spec) = spec else { return Ok(None) };
            let (spec, written) = read(spec, height).map_err(|e| FieldError::new(field, e))?;
            check_fit(self.lab, field, spec, &written)?;
            Ok(Some(spec))
        };
        Ok(([fit("spec", &self.spec)?, fit("compare", &self.compare)?], height))
    }
}

impl Scene<String> {
    /// The scene with its specs read as its lab's kind, validated as [`Scene::validate`] does (its
    /// version is read before its fields).
    fn read(self) -> Result<Scene, FieldError> {
        let lab = self.lab;
        let ([spec, compare], height) = self.read_specs(|written, height| {
            // A typed-in tree is searched to its height: a bare `minimax` means that depth.
            let text = match height {
                Some(height) if ["minimax", "negamax", "alphabeta"].contains(&written.trim()) => {
                    format!("{}:{height}", written.trim())
                }
                _ => written.clone(),
            };
            Ok((RunSpec::parse(lab, &text)?, written.trim().to_string()))
        })?;
        let Scene {
            version,
            lab,
            map,
            start,
            goal,
            position,
            tree,
            replay,
            step,
            layers,
            game,
            agents,
            expect,
            kind,
            algorithm,
            size,
            seed,
            ..
        } = self;
        let scene = Scene {
            version,
            lab,
            map,
            spec,
            compare,
            start,
            goal,
            position,
            tree,
            replay,
            step,
            layers,
            game,
            agents,
            expect,
            kind,
            algorithm,
            size,
            seed,
        };
        scene.check_after_specs(height)?;
        Ok(scene)
    }
}

/// Whether `spec`, written `written`, fits `lab` as its `field`; else why, quoting it as written and
/// saying where it goes.
fn check_fit(lab: Lab, field: &'static str, spec: RunSpec, written: &str) -> Result<(), FieldError> {
    lab.check_fit(field == "compare", spec)
        .map_err(|why| FieldError::new(field, format!("{field} '{}' does not fit{why}", quote(written))))
}

/// Only the version, read first so a newer format is named as such rather than by its fields.
#[derive(Deserialize)]
struct VersionOnly {
    version: Option<u32>,
}

impl Scene {
    pub fn new(lab: Lab) -> Self {
        Scene {
            version: SCENE_VERSION,
            lab,
            map: None,
            spec: None,
            compare: None,
            start: None,
            goal: None,
            position: None,
            tree: None,
            replay: None,
            step: Step::End,
            layers: Vec::new(),
            game: None,
            agents: Vec::new(),
            expect: BTreeMap::new(),
            kind: None,
            algorithm: None,
            size: None,
            seed: None,
        }
    }

    /// Checks what the fields cannot say alone: the version, the fields the lab reads, the typed-in
    /// tree, specs fitting the lab, the layers, the page's rules and the query; the first problem
    /// in that order is the one named.
    pub fn validate(&self) -> Result<(), FieldError> {
        check_version(Some(self.version)).map_err(|e| FieldError::new("version", e))?;
        let (_, height) = self.read_specs(|&spec, _| Ok((spec, spec.to_string())))?;
        self.check_after_specs(height)
    }

    /// [`Scene::validate`]'s checks from the layers on; `tree_height` is the typed-in tree's.
    fn check_after_specs(&self, tree_height: Option<usize>) -> Result<(), FieldError> {
        if let Some(layer) = self.layers.iter().find(|layer| !self.lab.layers().contains(&layer.as_str())) {
            let known = self.lab.layers();
            let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            let message = format!("unknown layer '{layer}' for the {} lab (known: {known})", self.lab.id());
            return Err(FieldError::new("layers", message));
        }
        self.lab.check_step(self.step)?;
        self.check_page(tree_height)?;
        if self.start.is_some() != self.goal.is_some() {
            let given = if self.start.is_some() { "start" } else { "goal" };
            return Err(FieldError::new(given, "give both start and goal, or neither"));
        }
        for (field, point) in [("start", self.start), ("goal", self.goal)] {
            if point.iter().flatten().any(|v| !v.is_finite()) {
                return Err(FieldError::new(field, format!("{field} must be finite numbers")));
            }
        }
        Ok(())
    }

    /// The rules of the page that shows the scene, beyond its spec's kind.
    fn check_page(&self, tree_height: Option<usize>) -> Result<(), FieldError> {
        if self.tree.is_some() && self.position.is_some() {
            let message = "a typed-in tree is a game-tree cell of its own: give a tree or a position, not both";
            return Err(FieldError::new("tree", message));
        }
        self.lab.check_page(self, tree_height)
    }

    /// The game a game-tree scene searches: its typed-in tree, its position's game, or
    /// tic-tac-toe, the game a new lab opens on.
    pub fn game(&self) -> GameKind {
        match (&self.tree, &self.position) {
            (Some(_), _) => GameKind::CustomTree,
            (None, Some(text)) => self.game.or(GameKind::of_position(text)).unwrap_or(GameKind::TicTacToe),
            (None, None) => self.game.unwrap_or(GameKind::TicTacToe),
        }
    }

    pub fn from_toml(text: &str) -> Result<Scene, String> {
        let one_line = |e: toml::de::Error| {
            // Counted by line breaks: a span at the start of a line (an unknown key) is on it.
            let line = e
                .span()
                .map(|span| text.as_bytes()[..span.start.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1);
            let message = e.message().trim().replace('\n', " ");
            // Named at the second time the key is set, which is the one to remove.
            let key = e.span().and_then(|span| text.get(span)).map(|key| key.trim().trim_matches(['"', '\'']));
            if let Some(key) = key.filter(|_| message == "duplicate key")
                && let [first, second, ..] = field_indices(text, key).collect::<Vec<_>>()[..]
            {
                return format!("scene line {}: duplicate key `{key}` (first on scene line {})", second + 1, first + 1);
            }
            match line {
                Some(line) => format!("scene line {line}: {message}"),
                None => format!("scene: {message}"),
            }
        };
        let version: VersionOnly = toml::from_str(text).map_err(one_line)?;
        // Each problem with a field, at the line that sets it.
        let at_field = |field: &str, message: String| match field_index(text, field) {
            Some(index) => format!("scene line {}: {message}", index + 1),
            None => message,
        };
        check_version(version.version).map_err(|message| at_field("version", message))?;
        let fields: Scene<String> = toml::from_str(text).map_err(one_line)?;
        fields.read().map_err(|e| at_field(e.field, e.message))
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a scene is plain data")
    }

    pub fn from_json(text: &str) -> Result<Scene, String> {
        let version: VersionOnly = serde_json::from_str(text).map_err(|e| format!("scene: {e}"))?;
        check_version(version.version)?;
        let fields: Scene<String> = serde_json::from_str(text).map_err(|e| format!("scene: {e}"))?;
        Ok(fields.read()?)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a scene is plain data")
    }

    /// The grid planner, for the grid and hierarchical labs.
    pub fn planner(&self) -> Option<Planner> {
        match self.spec {
            Some(RunSpec::Planner(planner)) => Some(planner),
            _ => None,
        }
    }

    pub fn engine(&self) -> Option<EngineSpec> {
        match self.spec {
            Some(RunSpec::Engine(engine)) => Some(engine),
            _ => None,
        }
    }

    pub fn mapf_spec(&self) -> Option<MapfSpec> {
        match self.spec {
            Some(RunSpec::Agents(planner)) => Some(planner),
            _ => None,
        }
    }

    pub fn mesh_search(&self) -> Option<MeshSearch> {
        match self.spec {
            Some(RunSpec::Mesh(search)) => Some(search),
            _ => None,
        }
    }

    /// The query as grid cells; an error names the field with a coordinate that is not a whole number.
    pub fn cells(&self) -> Result<Option<[(u32, u32); 2]>, FieldError> {
        let cell = |field: &'static str, p: [f64; 2]| {
            let whole = |v: f64| v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v);
            match whole(p[0]) && whole(p[1]) {
                true => Ok((p[0] as u32, p[1] as u32)),
                false => Err(FieldError::new(field, format!("{field} {},{} is not a grid cell", p[0], p[1]))),
            }
        };
        match (self.start, self.goal) {
            (Some(start), Some(goal)) => Ok(Some([cell("start", start)?, cell("goal", goal)?])),
            _ => Ok(None),
        }
    }
}

/// Bundled maps are built in, so a scene reads them from any working directory.
pub use crate::files::{bundled_file, bundled_name};

impl Scene {
    /// The scene's grid map, read or generated; none when the scene names no map.
    pub fn load_grid(&self) -> Result<Option<Grid>, String> {
        let read = |path: &str| movingai::load_map(path.as_ref()).map_err(|e| e.to_string());
        Ok(Some(match &self.map {
            None => return Ok(None),
            Some(MapSource::Path(path)) => read(path)?,
            Some(MapSource::Bundled(name)) => read(&bundled_file(name)?)?,
            Some(MapSource::Inline(text)) => movingai::parse_map("the scene's map", text).map_err(|e| e.to_string())?,
            Some(MapSource::Generated(spec)) => spec.generate()?,
        }))
    }

    /// The scene's polygon map with its outline (a grid map is traced); none when it names no map.
    pub fn load_polygon_map(&self) -> Result<Option<MapFile>, String> {
        let read = |path: &str| navmesh::load_map_file(path.as_ref()).map_err(|e| e.to_string());
        Ok(Some(match &self.map {
            None => return Ok(None),
            Some(MapSource::Path(path)) => read(path)?,
            Some(MapSource::Bundled(name)) => read(&bundled_file(name)?)?,
            Some(MapSource::Inline(text)) => MapFile::of_polygons(
                PolygonMap::parse("the scene's map", text).map_err(|e| e.to_string())?.validated()?,
            ),
            Some(MapSource::Generated(spec)) => MapFile::of_grid(spec.generate()?),
        }))
    }
}

/// The name a scene gives the tuning log bundled with searchlab.
pub const BUNDLED_TUNING_LOG: &str = "tuning-log.json";

/// Where a tuning scene's log comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogSource<'a> {
    Bundled,
    Path(&'a str),
    /// The log's JSON.
    Inline(&'a str),
}

impl Scene {
    /// The tuning log the scene names as its `map`; none when it names none.
    pub fn tuning_log(&self) -> Result<Option<LogSource<'_>>, String> {
        Ok(Some(match &self.map {
            None => return Ok(None),
            Some(MapSource::Bundled(name)) if name == BUNDLED_TUNING_LOG => LogSource::Bundled,
            Some(MapSource::Bundled(name)) => {
                return Err(format!("no bundled tuning log '{name}': there is {BUNDLED_TUNING_LOG}"));
            }
            Some(MapSource::Path(path)) => LogSource::Path(path),
            Some(MapSource::Inline(text)) => LogSource::Inline(text),
            Some(MapSource::Generated(_)) => return Err("a tuning log is not a generated map".to_string()),
        }))
    }
}

fn check_version(version: Option<u32>) -> Result<(), String> {
    match version {
        Some(SCENE_VERSION) => Ok(()),
        Some(other) => {
            Err(format!("scene version {other} is not supported: this searchlab reads version {SCENE_VERSION}"))
        }
        None => Err(format!("scene has no version: add `version = {SCENE_VERSION}`")),
    }
}

#[cfg(test)]
mod tests;
