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

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::adversarial::engine::{EngineAlgorithm, EngineSpec, UCT_DEFAULT_ITERATIONS};
use crate::adversarial::mcts::MctsConfig;
use crate::adversarial::mcts_trace::MctsEvent;
use crate::adversarial::tree::TreeEvent;
use crate::games::barca::START_FEN;
use crate::games::custom_tree::{self, CustomTree};
use crate::games::{Outcome, Side};
use crate::grid::generate::Spec;
use crate::grid::{Grid, movingai};
use crate::navmesh::search::MeshSearch;
use crate::navmesh::{self, MapFile, PolygonMap};
use crate::pathfinding::plan_trace::PlanEvent;
use crate::pathfinding::planner::{Method, Planner};
use crate::pathfinding::search_trace::SearchEvent;
use crate::text::quote;
use crate::trace::Trace;

/// The scene format this searchlab reads and writes.
pub const SCENE_VERSION: u32 = 1;

/// Which page shows the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lab {
    Grid,
    Hierarchical,
    Polygon,
    GameTree,
    Barca,
    Tuning,
}

impl Lab {
    pub const ALL: [Lab; 6] = [Lab::Grid, Lab::Hierarchical, Lab::Polygon, Lab::GameTree, Lab::Barca, Lab::Tuning];

    /// The layers a page of this lab can show.
    pub fn layers(self) -> &'static [&'static str] {
        match self {
            Lab::Grid => &["values"],
            Lab::Hierarchical => &[
                "values",
                "clusters",
                "transitions",
                "graph",
                "abstract-path",
                "refined",
                "smoothed",
                "regions",
                "corridor",
            ],
            Lab::Polygon | Lab::GameTree | Lab::Barca | Lab::Tuning => &[],
        }
    }

    /// The optional scene fields the lab's page reads (besides `step` and `layers`), and what it
    /// shows, to say why it reads no others.
    fn fields(self) -> (&'static [&'static str], &'static str) {
        match self {
            Lab::Grid => (&["map", "spec", "compare", "start", "goal"], "searches on a grid map"),
            Lab::Hierarchical => (&["map", "spec", "compare", "start", "goal", "replay"], "searches on a grid map"),
            Lab::Polygon => (&["map", "spec", "start", "goal"], "one search on a polygon map"),
            Lab::GameTree => (&["spec", "position", "tree"], "a search of a position or a typed-in tree"),
            Lab::Barca => (&["spec", "position"], "a Barca position and the computer's level"),
            Lab::Tuning => (&["map"], "the tuning log its map names"),
        }
    }

    /// The first of the `given` fields the lab's page does not read, with why.
    fn unused_field(self, given: [(&'static str, bool); 8]) -> Result<(), FieldError> {
        let (fields, shows) = self.fields();
        match given.into_iter().find(|&(field, present)| present && !fields.contains(&field)) {
            Some((field, _)) => Err(FieldError::new(
                field,
                format!("the {} lab does not use `{field}`: it shows {shows}", lab_name(self)),
            )),
            None => Ok(()),
        }
    }
}

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
}

impl fmt::Display for RunSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunSpec::Planner(planner) => planner.fmt(f),
            RunSpec::Mesh(search) => search.fmt(f),
            RunSpec::Engine(engine) => engine.fmt(f),
        }
    }
}

impl RunSpec {
    /// Reads `text` as the kind of spec `lab` runs, so a bad one gets that kind's message (the
    /// planners for a grid cell, the engines for a game cell).
    pub fn parse(lab: Lab, text: &str) -> Result<RunSpec, String> {
        match lab {
            Lab::Grid | Lab::Hierarchical => text.parse().map(RunSpec::Planner),
            Lab::Polygon => text.parse().map(RunSpec::Mesh),
            Lab::GameTree | Lab::Barca => text.parse().map(RunSpec::Engine),
            Lab::Tuning => Err(format!("the tuning lab runs no spec, not '{}'", quote(text))),
        }
    }
}

/// Written as text; read by [`RunSpec::parse`], which needs the scene's lab.
impl Serialize for RunSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The game a game-tree scene searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameKind {
    TicTacToe,
    Barca,
    /// A tree typed in as nested leaves.
    CustomTree,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::TicTacToe, GameKind::Barca, GameKind::CustomTree];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "Tic-tac-toe",
            GameKind::Barca => "Barca",
            GameKind::CustomTree => "Custom tree",
        }
    }

    /// The position a page opens with: one with a small, instructive tree.
    pub fn default_position(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "x.o/.x./..o",
            GameKind::Barca => START_FEN,
            GameKind::CustomTree => "((3,12,8),(2,4,6),(14,5,2))",
        }
    }

    pub fn side_name(self, side: Side) -> &'static str {
        match (self, side) {
            (GameKind::TicTacToe, Side::First) => "X",
            (GameKind::TicTacToe, Side::Second) => "O",
            (GameKind::Barca, side) => crate::games::barca::side_name(side),
            (GameKind::CustomTree, Side::First) => "MAX",
            (GameKind::CustomTree, Side::Second) => "MIN",
        }
    }

    /// The depth a newly chosen game is searched to: the whole game, or what takes a moment.
    pub fn default_depth(self) -> u32 {
        match self {
            GameKind::TicTacToe => 9,
            GameKind::Barca => 3,
            // Searched to its height whatever the depth asked for (see the game-tree lab's `spawn`).
            GameKind::CustomTree => custom_tree::MAX_DEPTH as u32,
        }
    }

    /// The deepest search offered: deeper Barca searches take minutes.
    pub fn max_depth(self, algorithm: EngineAlgorithm) -> u32 {
        match (self, algorithm) {
            (GameKind::TicTacToe, _) => 9,
            (GameKind::Barca, EngineAlgorithm::Minimax | EngineAlgorithm::Negamax) => 3,
            (GameKind::Barca, _) => 5,
            (GameKind::CustomTree, _) => custom_tree::MAX_DEPTH as u32,
        }
    }
    /// The game of a position's text: only a Barca FEN names the side to move after a space.
    pub fn of_position(text: &str) -> GameKind {
        if text.trim().contains(char::is_whitespace) { GameKind::Barca } else { GameKind::TicTacToe }
    }

    /// The searches the game-tree lab offers on the game: a typed-in tree has values only at its
    /// leaves, so only the searches that run to its height.
    pub fn algorithms(self) -> &'static [EngineAlgorithm] {
        match self {
            GameKind::CustomTree => &[EngineAlgorithm::Minimax, EngineAlgorithm::Negamax, EngineAlgorithm::AlphaBeta],
            _ => &EngineAlgorithm::SEARCHES,
        }
    }

    /// The engine the game-tree lab records: plain UCT with `playouts` (its replay computes plain
    /// UCT's selection scores), the others to `depth`.
    pub fn recorded_engine(self, algorithm: EngineAlgorithm, depth: u32, playouts: u64) -> EngineSpec {
        match algorithm {
            EngineAlgorithm::Uct => EngineSpec {
                iterations: Some(playouts),
                // Random Barca games rarely end: score playouts after a few plies instead.
                uct: MctsConfig {
                    playout_cutoff: if self == GameKind::Barca { Some(16) } else { MctsConfig::plain().playout_cutoff },
                    ..MctsConfig::plain()
                },
                ..EngineSpec::new(EngineAlgorithm::Uct)
            },
            algorithm => EngineSpec::depth(algorithm, depth),
        }
    }

    /// Whether the game-tree lab can record `engine` on the game; else why, naming what to write.
    pub fn check_engine(self, engine: &EngineSpec) -> Result<(), String> {
        if !self.algorithms().contains(&engine.algorithm) || engine.level.is_some() {
            return Err(match self {
                GameKind::CustomTree => {
                    format!("a typed-in tree is searched with minimax, negamax or alphabeta, not '{engine}'")
                }
                _ => format!(
                    "the game-tree lab records minimax:D, negamax:D, alphabeta:D, id:D or uct:N,plain, not '{engine}'"
                ),
            });
        }
        let depth = engine.depth.unwrap_or(self.default_depth());
        let recorded =
            self.recorded_engine(engine.algorithm, depth, engine.iterations.unwrap_or(UCT_DEFAULT_ITERATIONS));
        if recorded != *engine {
            return Err(match engine.algorithm {
                EngineAlgorithm::Uct => format!(
                    "the game-tree lab shows plain UCT with a number of playouts: write '{recorded}', not '{engine}'"
                ),
                _ => format!(
                    "the game-tree lab searches to a depth, with no other limits: write '{recorded}', not '{engine}'"
                ),
            });
        }
        let max = self.max_depth(engine.algorithm);
        if engine.algorithm != EngineAlgorithm::Uct && depth > max {
            return Err(format!(
                "the lab searches {} at most {max} plies deep with {}",
                self.name(),
                engine.algorithm.name()
            ));
        }
        Ok(())
    }

    /// Whether there is anything to search after `outcome`; else a one-line reason.
    pub fn searchable(self, outcome: Option<Outcome>) -> Result<(), String> {
        match outcome {
            None => Ok(()),
            Some(Outcome::Win(side)) => {
                Err(format!("the game is over ({} has won): nothing to search", self.side_name(side)))
            }
            Some(Outcome::Draw) => Err("the game is over (a draw): nothing to search".to_string()),
        }
    }
}

/// Why a step is not in a recording of `len` events that stopped before its search did.
fn stops_early(len: usize) -> String {
    format!("the recording stops at event {len} of a longer search")
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

/// Named moments of a replay a scene can open on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    Start,
    FirstExpansion,
    PathFound,
    Cutoff,
}

impl Moment {
    pub const ALL: [Moment; 4] = [Moment::Start, Moment::FirstExpansion, Moment::PathFound, Moment::Cutoff];

    pub fn name(self) -> &'static str {
        match self {
            Moment::Start => "start",
            Moment::FirstExpansion => "first-expansion",
            Moment::PathFound => "path-found",
            Moment::Cutoff => "cutoff",
        }
    }
}

/// The step of the replay to open on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step {
    /// After this many events.
    Index(usize),
    /// After the last event.
    #[default]
    End,
    /// The first time this happens.
    Moment(Moment),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Index(index) => write!(f, "{index}"),
            Step::End => write!(f, "end"),
            Step::Moment(moment) => write!(f, "{}", moment.name()),
        }
    }
}

impl FromStr for Step {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text == "end" {
            return Ok(Step::End);
        }
        if let Some(moment) = Moment::ALL.into_iter().find(|m| m.name() == text) {
            return Ok(Step::Moment(moment));
        }
        text.parse().map(Step::Index).map_err(|_| {
            let names: Vec<&str> = Moment::ALL.iter().map(|m| m.name()).collect();
            format!("step '{}' is not an event index, end, or one of {}", quote(text), names.join(", "))
        })
    }
}

impl Step {
    /// The number of events to replay to reach this step in a recording, `usize::MAX` for the end;
    /// `moment` finds the event a named moment is (an error names one the recording does not have, or
    /// an index past the end, and says when the recording stopped before the search did).
    pub fn resolve<E>(self, trace: &Trace<E>, moment: impl Fn(Moment, &E) -> bool) -> Result<usize, String> {
        let events = &trace.events;
        match self {
            Step::Index(index) if index > events.len() => Err(match trace.truncated {
                true => format!("step {index} is past the end of the recording ({})", stops_early(events.len())),
                false => format!("step {index} is past the end (the search has {} events)", events.len()),
            }),
            Step::Index(index) => Ok(index),
            Step::End => Ok(usize::MAX),
            Step::Moment(Moment::Start) => Ok(0),
            Step::Moment(named) => {
                events.iter().position(|event| moment(named, event)).map(|i| i + 1).ok_or_else(|| {
                    let why = if trace.truncated { format!(" ({})", stops_early(events.len())) } else { String::new() };
                    format!("this replay has no '{}' moment{why}", named.name())
                })
            }
        }
    }

    /// What to tell the author about opening a recording on this step though it is fine to open:
    /// the end of a recording that stopped before the search did shows no result.
    pub fn warning<E>(self, trace: &Trace<E>) -> Option<String> {
        (self == Step::End && trace.truncated).then(|| {
            format!(
                "step end opens where the recording stops, before the search's result: {}",
                stops_early(trace.events.len())
            )
        })
    }

    /// [`Step::resolve`] for a best-first search's recording.
    pub fn in_search(self, trace: &Trace<SearchEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => matches!(event, SearchEvent::Expand { .. }),
            Moment::PathFound => matches!(event, SearchEvent::Found { .. }),
            Moment::Start | Moment::Cutoff => false,
        })
    }

    /// [`Step::resolve`] for a hierarchical planner's recording: its moments are those of the
    /// searches it runs (the first path found is the abstract one).
    pub fn in_plan(self, trace: &Trace<PlanEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| {
            matches!(
                (moment, event),
                (Moment::FirstExpansion, PlanEvent::Search(SearchEvent::Expand { .. }))
                    | (Moment::PathFound, PlanEvent::Search(SearchEvent::Found { .. }))
            )
        })
    }

    /// [`Step::resolve`] for a game-tree search's recording.
    pub fn in_tree(self, trace: &Trace<TreeEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => {
                matches!(event, TreeEvent::Enter { parent, .. } if *parent != crate::trace::NO_NODE)
            }
            Moment::Cutoff => matches!(event, TreeEvent::Cutoff { .. }),
            Moment::PathFound => matches!(event, TreeEvent::Pv { .. }),
            Moment::Start => false,
        })
    }

    /// [`Step::resolve`] for UCT's recording, which has no named moments but its start.
    pub fn in_mcts(self, trace: &Trace<MctsEvent>) -> Result<usize, String> {
        self.resolve(trace, |_, _| false)
    }

    /// The step a replay at `step` of `len` events is at.
    pub fn at(step: usize, len: usize) -> Step {
        if step >= len { Step::End } else { Step::Index(step) }
    }
}

impl Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Step::Index(index) => serializer.serialize_u64(*index as u64),
            other => serializer.collect_str(other),
        }
    }
}

impl<'de> Deserialize<'de> for Step {
    /// An event index as a number, or a word.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepVisitor;
        impl serde::de::Visitor<'_> for StepVisitor {
            type Value = Step;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an event index, \"end\" or a moment such as \"path-found\"")
            }
            fn visit_u64<E: serde::de::Error>(self, index: u64) -> Result<Step, E> {
                usize::try_from(index).map(Step::Index).map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, index: i64) -> Result<Step, E> {
                usize::try_from(index).map(Step::Index).map_err(|_| E::custom(format!("step {index} is negative")))
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Step, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_any(StepVisitor)
    }
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
}

/// `[x, y]`, refused with any other count of numbers (serde's arrays drop the ones past the second).
fn point<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<[f64; 2]>, D::Error> {
    let numbers = Vec::<f64>::deserialize(deserializer)?;
    let count = numbers.len();
    <[f64; 2]>::try_from(numbers)
        .map(Some)
        .map_err(|_| serde::de::Error::custom(format!("a cell or point is [x, y]: two numbers, not {count}")))
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
    fn given(&self) -> [(&'static str, bool); 8] {
        [
            ("map", self.map.is_some()),
            ("spec", self.spec.is_some()),
            ("compare", self.compare.is_some()),
            ("start", self.start.is_some()),
            ("goal", self.goal.is_some()),
            ("position", self.position.is_some()),
            ("tree", self.tree.is_some()),
            ("replay", self.replay.is_some()),
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
        let Scene { version, lab, map, start, goal, position, tree, replay, step, layers, .. } = self;
        let scene = Scene { version, lab, map, spec, compare, start, goal, position, tree, replay, step, layers };
        scene.check_after_specs(height)?;
        Ok(scene)
    }
}

/// Whether `spec`, written `written`, fits `lab` as its `field`; else why, quoting it as written and
/// saying where it goes.
fn check_fit(lab: Lab, field: &'static str, spec: RunSpec, written: &str) -> Result<(), FieldError> {
    let refused = |why: &str| Err(FieldError::new(field, format!("{field} '{}' does not fit{why}", quote(written))));
    let second = field == "compare";
    match (lab, spec) {
        (Lab::Grid | Lab::Hierarchical, RunSpec::Planner(planner)) => match (lab, planner.is_hierarchical(), second) {
            (Lab::Grid, true, _) => {
                let name = if matches!(planner.method, Method::Hpa { .. }) { "HPA*" } else { "PRA*" };
                refused(&format!(" the grid lab: {name} is shown by lab = \"hierarchical\""))
            }
            (Lab::Hierarchical, false, false) => {
                refused(": the hierarchical lab takes hpa or pra as spec; put a flat search in compare")
            }
            (Lab::Hierarchical, true, true) => {
                refused(": the hierarchical lab compares its planner with a flat search, such as astar or dijkstra")
            }
            _ => Ok(()),
        },
        (Lab::Polygon, RunSpec::Mesh(_)) | (Lab::GameTree | Lab::Barca, RunSpec::Engine(_)) => Ok(()),
        _ => refused(&format!(" the {} lab", lab_name(lab))),
    }
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
            let message = format!("unknown layer '{layer}' for the {} lab (known: {known})", lab_name(self.lab));
            return Err(FieldError::new("layers", message));
        }
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

    /// The rules of the page that shows the scene, beyond its spec's kind: what the game-tree lab
    /// records on the scene's game, and the Barca page's computer levels.
    fn check_page(&self, tree_height: Option<usize>) -> Result<(), FieldError> {
        let spec = |message: String| FieldError::new("spec", message);
        if self.tree.is_some() && self.position.is_some() {
            let message = "a typed-in tree is a game-tree cell of its own: give a tree or a position, not both";
            return Err(FieldError::new("tree", message));
        }
        match (self.lab, self.engine()) {
            (Lab::GameTree, Some(engine)) => {
                self.game().check_engine(&engine).map_err(spec)?;
                if let Some(height) =
                    tree_height.map(|height| height as u32).filter(|&height| engine.depth < Some(height))
                {
                    let name = engine.algorithm.name();
                    let message = format!(
                        "the tree is {height} plies high and only its leaves have values: write {name} or {name}:{height}"
                    );
                    return Err(spec(message));
                }
            }
            (Lab::Tuning, _) if self.step != Step::End => {
                return Err(FieldError::new(
                    "step",
                    format!("the tuning lab shows a log, not step '{}': remove `step`", self.step),
                ));
            }
            (Lab::Barca, engine) => {
                if self.step != Step::End {
                    return Err(FieldError::new(
                        "step",
                        format!("the Barca page shows its position, not step '{}': use end", self.step),
                    ));
                }
                let is_level = |engine: &EngineSpec| {
                    matches!(engine.algorithm, EngineAlgorithm::Id | EngineAlgorithm::Uct)
                        && engine.level.is_some()
                        && *engine == EngineSpec { level: engine.level, ..EngineSpec::new(engine.algorithm) }
                };
                if let Some(engine) = engine.filter(|engine| !is_level(engine)) {
                    return Err(spec(format!("the computer plays easy, medium, hard or uct:LEVEL, not '{engine}'")));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The game a game-tree scene searches: its typed-in tree, its position's game, or
    /// tic-tac-toe, the game a new lab opens on.
    pub fn game(&self) -> GameKind {
        match (&self.tree, &self.position) {
            (Some(_), _) => GameKind::CustomTree,
            (None, Some(text)) => GameKind::of_position(text),
            (None, None) => GameKind::TicTacToe,
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

    pub fn mesh_search(&self) -> Option<MeshSearch> {
        match self.spec {
            Some(RunSpec::Mesh(search)) => Some(search),
            _ => None,
        }
    }

    /// The query as grid cells; an error names the field with a coordinate that is not a whole number.
    pub fn cells(&self) -> Result<Option<((u32, u32), (u32, u32))>, FieldError> {
        let cell = |field: &'static str, p: [f64; 2]| {
            let whole = |v: f64| v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v);
            match whole(p[0]) && whole(p[1]) {
                true => Ok((p[0] as u32, p[1] as u32)),
                false => Err(FieldError::new(field, format!("{field} {},{} is not a grid cell", p[0], p[1]))),
            }
        };
        match (self.start, self.goal) {
            (Some(start), Some(goal)) => Ok(Some((cell("start", start)?, cell("goal", goal)?))),
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

fn lab_name(lab: Lab) -> &'static str {
    match lab {
        Lab::Grid => "grid",
        Lab::Hierarchical => "hierarchical",
        Lab::Polygon => "polygon",
        Lab::GameTree => "game-tree",
        Lab::Barca => "barca",
        Lab::Tuning => "tuning",
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
mod tests {
    use proptest::prelude::*;

    use super::*;

    const EXAMPLE: &str = r#"
version = 1
lab = "grid"
map = { bundled = "maze64.map" }
spec = "astar:octile,weight=1.5"
compare = "dijkstra"
start = [1, 1]
goal = [62, 62]
step = "first-expansion"
layers = ["values"]
"#;

    #[test]
    fn the_documented_example_reads() {
        let scene = Scene::from_toml(EXAMPLE).unwrap();
        assert_eq!(scene.map, Some(MapSource::Bundled("maze64.map".to_string())));
        assert_eq!(scene.planner().unwrap().to_string(), "astar:octile,weight=1.5");
        assert_eq!(scene.cells(), Ok(Some(((1, 1), (62, 62)))));
        assert_eq!(scene.step, Step::Moment(Moment::FirstExpansion));
        assert_eq!(Scene::from_toml(&scene.to_toml()), Ok(scene.clone()));
        assert_eq!(Scene::from_json(&scene.to_json()), Ok(scene));
    }

    #[test]
    fn bad_scenes_are_refused_in_one_line() {
        let with = |from: &str, to: &str| EXAMPLE.replace(from, to);
        for (text, message) in [
            (
                with("version = 1", "version = 7"),
                "scene line 2: scene version 7 is not supported: this searchlab reads version 1",
            ),
            (with("version = 1", ""), "scene has no version"),
            // The key starts its line: the line is its own, not the one before.
            (with("layers", "layer"), "scene line 10: unknown field `layer`"),
            (
                with("\"dijkstra\"", "\"hpa\""),
                "scene line 6: compare 'hpa' does not fit the grid lab: HPA* is shown by lab = \"hierarchical\"",
            ),
            (
                with("\"dijkstra\"", "\" pra:k=4\""),
                "compare 'pra:k=4' does not fit the grid lab: PRA* is shown by lab = \"hierarchical\"",
            ),
            (with("weight=1.5", "weight=0.5"), "weight must be a number >= 1"),
            (with("\"values\"", "\"clusters\""), "scene line 10: unknown layer 'clusters' for the grid lab"),
            (
                with("\"astar:octile,weight=1.5\"", "\"foo\""),
                "scene line 5: unknown planner 'foo': use bfs, dijkstra, astar, jps, hpa or pra",
            ),
            (with("\"dijkstra\"", "\"astar,4conn\""), "scene line 6: unknown planner 'astar,4conn'"),
            (with("first-expansion", "halfway"), "step 'halfway' is not an event index"),
            (with("goal = [62, 62]", ""), "give both start and goal"),
            (with("bundled", "online"), "scene line 4: unknown field `online`"),
            (
                with("}", ", path = \"x.map\" }"),
                "scene line 4: give one map source: bundled, path, inline or generated",
            ),
            (with("{ bundled = \"maze64.map\" }", "{}"), "scene line 4: give one map source"),
            (with("[1, 1]", "[1, 1, 7]"), "scene line 7: a cell or point is [x, y]: two numbers, not 3"),
            (with("[62, 62]", "[62]"), "scene line 8: a cell or point is [x, y]: two numbers, not 1"),
            (with("[62, 62]", "[62, nan]"), "scene line 8: goal must be finite numbers"),
            (
                with("compare = \"dijkstra\"", "compare = \"dijkstra\"\ncompare = \"bfs\""),
                "scene line 7: duplicate key `compare` (first on scene line 6)",
            ),
        ] {
            let error = Scene::from_toml(&text).unwrap_err();
            assert!(error.contains(message) && !error.contains('\n'), "{message}: {error}");
        }
        let half = Scene::from_toml(&with("[62, 62]", "[62, 62.5]")).unwrap().cells();
        assert_eq!(half, Err(FieldError::new("goal", "goal 62,62.5 is not a grid cell")));
        let error = Scene::from_json(r#"{"version": 2, "lab": "grid"}"#).unwrap_err();
        assert!(error.contains("scene version 2 is not supported"), "{error}");
        assert!(
            Scene::from_json(r#"{"version": 1, "lab": "grid", "colour": 3}"#)
                .unwrap_err()
                .contains("unknown field `colour`")
        );
    }

    #[test]
    fn specs_are_read_as_the_labs_kind() {
        let read =
            |lab: &str, spec: &str| Scene::from_toml(&format!("version = 1\nlab = \"{lab}\"\nspec = \"{spec}\""));
        assert_eq!(read("grid", "jps").unwrap().planner(), Some("jps".parse().unwrap()));
        let flat = "scene line 3: spec 'jps' does not fit: the hierarchical lab takes hpa or pra as spec; put a flat search in compare";
        assert_eq!(read("hierarchical", "jps").unwrap_err(), flat);
        let planner =
            Scene::from_toml("version = 1\nlab = \"hierarchical\"\nspec = \"pra\"\ncompare = \"hpa\"").unwrap_err();
        assert!(
            planner
                .contains("compare 'hpa' does not fit: the hierarchical lab compares its planner with a flat search"),
            "{planner}"
        );
        assert!(read("game-tree", "jps").unwrap_err().starts_with("scene line 3: unknown engine 'jps': use minimax:D"));
        assert!(read("polygon", "bfs").unwrap_err().contains("scene line 3:"));
        assert!(read("tuning", "bfs").unwrap_err().contains("the tuning lab does not use `spec`"));
    }

    /// Each lab refuses the fields its page does not read, naming the field and the lab; the ones
    /// it reads are taken.
    #[test]
    fn fields_a_lab_does_not_read_are_refused() {
        let values = [
            ("map", "map = { bundled = \"maze64.map\" }"),
            ("compare", "compare = \"dijkstra\""),
            ("start", "start = [1, 1]\ngoal = [2, 2]"),
            ("position", "position = \"x../.o./...\""),
            ("tree", "tree = \"((1,2),(3,4))\""),
        ];
        let reads: [(Lab, &[&str]); 6] = [
            (Lab::Grid, &["map", "compare", "start"]),
            (Lab::Hierarchical, &["map", "compare", "start"]),
            (Lab::Polygon, &["map", "start"]),
            (Lab::GameTree, &["position", "tree"]),
            (Lab::Barca, &["position"]),
            (Lab::Tuning, &["map"]),
        ];
        for (lab, read) in reads {
            for (field, line) in values {
                let text = format!("version = 1\nlab = \"{}\"\n{line}", lab_name(lab));
                let scene = Scene::from_toml(&text);
                if read.contains(&field) {
                    // A game-tree scene needs nothing else; a bundled map is not a tuning log, which is checked later.
                    assert!(scene.is_ok() || field == "compare", "{lab:?} reads {field}: {scene:?}");
                } else {
                    let expected = format!("scene line 3: the {} lab does not use `{field}`: it shows ", lab_name(lab));
                    assert!(scene.as_ref().unwrap_err().starts_with(&expected), "{lab:?}, {field}: {scene:?}");
                }
            }
        }
        let step = Scene::from_toml("version = 1\nlab = \"tuning\"\nstep = 3").unwrap_err();
        assert_eq!(step, "scene line 3: the tuning lab shows a log, not step '3': remove `step`");
    }

    /// A typed-in tree is read before the spec that takes its height: a typo in it is named at its
    /// column, not taken for a spec without a depth.
    #[test]
    fn a_typed_in_tree_is_read_before_its_spec() {
        let read = |spec: &str, tree: &str| {
            Scene::from_toml(&format!("version = 1\nlab = \"game-tree\"\nspec = \"{spec}\"\ntree = \"{tree}\""))
        };
        for spec in ["alphabeta", "minimax", "negamax:2", "alphabeta:9"] {
            let error = read(spec, "((3,12,8),(2,4,6),(14,5,2)").unwrap_err();
            assert_eq!(
                error, "scene line 4: tree: column 27: expected ',' or ')', found the end of the text",
                "{spec}"
            );
            assert!(
                read(spec, "((3,12,8),(2,4,,6),(14,5,2))").unwrap_err().starts_with("scene line 4: tree: column 16: "),
                "{spec}"
            );
            assert_eq!(read(spec, "7").unwrap_err(), "scene line 4: tree: a tree needs at least one move", "{spec}");
        }
        assert_eq!(
            read("alphabeta", "((3,12,8),(2,4,6),(14,5,2))").unwrap().engine().unwrap().to_string(),
            "alphabeta:2"
        );
    }

    /// A scene made in the app (the game-tree page's, copied or opened in the lab) is checked as
    /// one read from a lecture: its typed-in tree too, before its spec.
    #[test]
    fn a_scene_made_in_the_app_has_its_tree_checked_as_a_read_one() {
        let minimax = Some(RunSpec::Engine("minimax:1".parse().unwrap()));
        let with_tree = |tree: &str| Scene { tree: Some(tree.to_string()), spec: minimax, ..Scene::new(Lab::GameTree) };
        assert_eq!(with_tree("7").validate(), Err(FieldError::new("tree", "tree: a tree needs at least one move")));
        assert!(with_tree("((1,2)").validate().unwrap_err().message.starts_with("tree: column 7: "));
        let deep = with_tree("((1,2),3)").validate().unwrap_err();
        assert_eq!(
            deep.message,
            "the tree is 2 plies high and only its leaves have values: write minimax or minimax:2"
        );
        assert_eq!(with_tree("(1,2)").validate(), Ok(()));
    }

    /// Past the end of a recording that stopped early, the step's error says so; its end is allowed
    /// with a warning, since it shows no result.
    #[test]
    fn steps_in_a_truncated_recording_say_that_the_recording_stopped() {
        let whole = Trace { events: vec![SearchEvent::Found { cost: 1.0, path: vec![0] }], truncated: false };
        let cut = Trace { events: Vec::new(), truncated: true };
        assert_eq!(
            Step::Index(5).in_search(&whole),
            Err("step 5 is past the end (the search has 1 events)".to_string())
        );
        assert_eq!(Step::Moment(Moment::PathFound).in_search(&whole), Ok(1));
        assert_eq!(Step::End.warning(&whole), None);
        assert_eq!(
            Step::Index(5).in_search(&cut),
            Err("step 5 is past the end of the recording (the recording stops at event 0 of a longer search)"
                .to_string())
        );
        assert_eq!(
            Step::Moment(Moment::PathFound).in_search(&cut),
            Err("this replay has no 'path-found' moment (the recording stops at event 0 of a longer search)"
                .to_string())
        );
        assert_eq!(Step::End.in_search(&cut), Ok(usize::MAX));
        assert!(Step::End.warning(&cut).unwrap().contains("the recording stops at event 0 of a longer search"));
        assert_eq!(Step::Index(0).warning(&cut), None);
    }

    #[test]
    fn tuning_scenes_name_their_log_as_their_map() {
        let with = |map: MapSource| Scene { map: Some(map), ..Scene::new(Lab::Tuning) };
        assert_eq!(with(MapSource::Bundled(BUNDLED_TUNING_LOG.to_string())).tuning_log(), Ok(Some(LogSource::Bundled)));
        assert_eq!(with(MapSource::Path("run.json".to_string())).tuning_log(), Ok(Some(LogSource::Path("run.json"))));
        assert!(
            with(MapSource::Bundled("old.json".to_string()))
                .tuning_log()
                .unwrap_err()
                .contains("no bundled tuning log 'old.json'")
        );
        assert!(with(MapSource::Generated("maze:8x8".parse().unwrap())).tuning_log().is_err());
        assert_eq!(Scene::new(Lab::Tuning).tuning_log(), Ok(None));
    }

    fn planner() -> impl Strategy<Value = Planner> {
        let texts = prop_oneof![
            Just("bfs".to_string()),
            Just("dijkstra:4conn".to_string()),
            (0..5usize, 10..40u32, any::<bool>(), any::<bool>()).prop_map(|(h, w, four, cut)| {
                let heuristic = crate::pathfinding::Heuristic::ALL[h].name();
                let rules = match (four, cut) {
                    (true, true) => ",4conn,corner-cut",
                    (true, false) => ",4conn",
                    (false, true) => ",corner-cut",
                    (false, false) => "",
                };
                format!("astar:{heuristic},weight={}{rules}", f64::from(w) / 10.0)
            }),
            (2..64u32, 1..3usize, any::<bool>())
                .prop_map(|(c, l, s)| format!("hpa:cluster={c},levels={l}{}", if s { "" } else { ",no-smooth" })),
            (proptest::option::of(0..6usize), proptest::option::of(1..9usize)).prop_map(|(level, k)| {
                let items: Vec<String> =
                    level.map(|l| format!("level={l}")).into_iter().chain(k.map(|k| format!("k={k}"))).collect();
                if items.is_empty() { "pra".to_string() } else { format!("pra:{}", items.join(",")) }
            }),
        ];
        texts.prop_map(|text| text.parse::<Planner>().unwrap())
    }

    /// An engine a game page shows, from (algorithm, depth, playouts, level) numbers: what the
    /// game-tree lab records on the scene's game, or one of the Barca page's levels.
    fn page_engine(scene: &Scene, (a, d, n, level): (usize, u32, u64, usize)) -> EngineSpec {
        if scene.lab == Lab::Barca {
            return ["easy", "medium", "hard", "uct:easy", "uct:medium", "uct:hard"][level].parse().unwrap();
        }
        let game = scene.game();
        let algorithm = game.algorithms()[a % game.algorithms().len()];
        let max = game.max_depth(algorithm);
        // Only a typed-in tree's height is searched: any depth up to the most covers it.
        let depth = if game == GameKind::CustomTree { max } else { 1 + d % max };
        game.recorded_engine(algorithm, depth, n)
    }

    fn mesh() -> impl Strategy<Value = MeshSearch> {
        (any::<bool>(), 0..20u32, any::<bool>(), proptest::option::of(0..30u32)).prop_map(|(tra, r, first, angle)| {
            MeshSearch {
                algorithm: if tra {
                    crate::navmesh::search::MeshAlgorithm::Tra
                } else {
                    crate::navmesh::search::MeshAlgorithm::Ta
                },
                radius: f64::from(r) / 10.0,
                first_path_only: first,
                min_angle: angle.map(f64::from),
                ..MeshSearch::default()
            }
        })
    }

    fn generator() -> impl Strategy<Value = Spec> {
        (0..4usize, 3..300u32, 3..300u32, any::<u64>(), 1..5u32, 2..20u32, 0..=10u32).prop_map(
            |(kind, w, h, seed, c, r, p)| {
                let kind = crate::grid::generate::Kind::ALL[kind];
                let text = match kind {
                    crate::grid::generate::Kind::Maze => format!("maze:{w}x{h},corridor={c},seed={seed}"),
                    crate::grid::generate::Kind::Rooms => {
                        format!("rooms:{w}x{h},room={r},doors={},seed={seed}", f64::from(p) / 10.0)
                    }
                    crate::grid::generate::Kind::Random => {
                        format!("random:{w}x{h},density={},seed={seed}", f64::from(p) / 10.0)
                    }
                    crate::grid::generate::Kind::Cave => {
                        format!("cave:{w}x{h},fill={},seed={seed}", f64::from(p) / 10.0)
                    }
                };
                text.parse().unwrap()
            },
        )
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            Just(Step::End),
            any::<u32>().prop_map(|i| Step::Index(i as usize)),
            (0..4usize).prop_map(|m| Step::Moment(Moment::ALL[m]))
        ]
    }

    fn scene() -> impl Strategy<Value = Scene> {
        let map = proptest::option::of(prop_oneof![
            "[a-z/._]{1,20}".prop_map(MapSource::Path),
            "[a-z0-9]{1,10}\\.map".prop_map(MapSource::Bundled),
            "type octile\nheight 1\nwidth 2\nmap\n[.@]{2}\n".prop_map(MapSource::Inline),
            generator().prop_map(MapSource::Generated),
        ]);
        let lab = (0..6usize).prop_map(|i| Lab::ALL[i]);
        let query = proptest::option::of((0..500u32, 0..500u32, 0..500u32, 0..500u32));
        let position = proptest::option::of("[ -~]{0,30}");
        // A typed-in tree is read with the scene: trees with one level and with several.
        let tree = proptest::option::of(prop_oneof![
            Just("(1,-2)".to_string()),
            Just(GameKind::CustomTree.default_position().to_string())
        ]);
        let engine = (0..5usize, 0..64u32, 1..5000u64, 0..6usize);
        (lab, map, query, position, tree, step(), planner(), engine, mesh(), any::<bool>()).prop_map(
            |(lab, map, query, position, tree, step, planner, engine, mesh, compare)| {
                let mut scene = Scene { map, step, position, tree, ..Scene::new(lab) };
                // Only the fields the lab reads: a game page shows a typed-in tree or a position, the
                // Barca page its position at the end, the tuning page its log.
                let game = matches!(lab, Lab::GameTree | Lab::Barca);
                if game {
                    scene.map = None;
                } else {
                    scene.position = None;
                }
                if lab != Lab::GameTree || scene.position.is_some() {
                    scene.tree = None;
                }
                if matches!(lab, Lab::Barca | Lab::Tuning) {
                    scene.step = Step::End;
                }
                let engine = page_engine(&scene, engine);
                let spec = match lab {
                    Lab::Grid => planner.grid_search().map(|_| RunSpec::Planner(planner)),
                    Lab::Hierarchical => Some(RunSpec::Planner(planner)).filter(|_| planner.is_hierarchical()),
                    Lab::Polygon => Some(RunSpec::Mesh(mesh)),
                    Lab::GameTree | Lab::Barca => Some(RunSpec::Engine(engine)),
                    Lab::Tuning => None,
                };
                scene.spec = spec;
                scene.compare = match lab {
                    Lab::Hierarchical => Some(RunSpec::Planner(Planner::default())),
                    Lab::Grid => spec,
                    _ => None,
                }
                .filter(|_| compare && spec.is_some());
                if let Some((sx, sy, gx, gy)) =
                    query.filter(|_| matches!(lab, Lab::Grid | Lab::Hierarchical | Lab::Polygon))
                {
                    (scene.start, scene.goal) = (Some([sx.into(), sy.into()]), Some([gx.into(), gy.into()]));
                }
                scene.layers = lab.layers().iter().take(2).map(|s| s.to_string()).collect();
                scene
            },
        )
    }

    proptest! {
        #[test]
        fn scenes_round_trip_through_toml_and_json(scene in scene()) {
            prop_assert_eq!(Scene::from_toml(&scene.to_toml()), Ok(scene.clone()));
            prop_assert_eq!(Scene::from_json(&scene.to_json()), Ok(scene));
        }
    }
}
