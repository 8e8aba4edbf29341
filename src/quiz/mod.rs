//! Questions generated on a small random instance from a seed and answered from the recorded
//! trace of the same code the labs run, never typed by hand. Each question carries the scene that
//! rebuilds its instance (so "show me" opens the replay) and the step the question is about.
//!
//! Kinds: on a grid ([`grid`]) which cell is expanded next, a cell's g, h and f, the returned
//! path's cost; on a typed-in game tree ([`tree`]) a node's minimax value, the leaves alpha-beta
//! never evaluates, whether a node's alpha-beta value is exact or a bound; in UCT ([`uct`]) which
//! child selection picks next. Instances come from a seeded ChaCha generator ([`StdRng`]), the
//! same on every platform, the browser included.

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;

use crate::text::{or_list, quote};

pub mod answer;
pub mod exam;
pub mod grid;
pub mod tree;
pub mod uct;

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    NextExpansion,
    CellValues,
    PathCost,
    NodeValue,
    PrunedLeaves,
    NodeBound,
    UctNext,
}

impl Kind {
    pub const ALL: &'static [Kind] = &[
        Kind::NextExpansion,
        Kind::CellValues,
        Kind::PathCost,
        Kind::NodeValue,
        Kind::PrunedLeaves,
        Kind::NodeBound,
        Kind::UctNext,
    ];

    /// The name on the command line and in scenes.
    pub fn id(self) -> &'static str {
        match self {
            Kind::NextExpansion => "next-expansion",
            Kind::CellValues => "cell-values",
            Kind::PathCost => "path-cost",
            Kind::NodeValue => "node-value",
            Kind::PrunedLeaves => "pruned-leaves",
            Kind::NodeBound => "node-bound",
            Kind::UctNext => "uct-next",
        }
    }

    /// A different salt per kind, so the same seed gives unrelated instances across kinds.
    fn salt(self) -> u64 {
        Kind::ALL.iter().position(|&kind| kind == self).expect("a kind") as u64 + 1
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Kind::ALL.iter().copied().find(|kind| kind.id() == text.trim()).ok_or_else(|| {
            let ids: Vec<&str> = Kind::ALL.iter().map(|kind| kind.id()).collect();
            format!("unknown question kind '{}': use {}", quote(text), or_list(&ids))
        })
    }
}

/// What may be chosen about an instance; unset ones are drawn from the seed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// The algorithm by its spec name (`astar`, `bfs`, ...; `minimax`, `alphabeta`).
    pub algorithm: Option<String>,
    /// The grid's width (its height is 4/5 of it) or the tree's depth.
    pub size: Option<u32>,
}

impl crate::scene::Scene {
    /// A quiz cell's options.
    pub fn quiz_options(&self) -> Options {
        Options { algorithm: self.algorithm.clone(), size: self.size }
    }
}

/// The right answer, in the form the CLI prints and a student gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// Every accepted cell `[x, y]` (next-expansion).
    Cells(Vec<[u32; 2]>),
    /// A cell's values when it is expanded (cell-values).
    Values { g: f64, h: f64, f: f64 },
    /// A cost or a value (path-cost, node-value).
    Number(f64),
    /// 0-based positions among all leaves, left to right (pruned-leaves).
    Leaves(Vec<usize>),
    /// `exact`, `<=` or `>=`, and the number (node-bound).
    Bound { relation: Relation, value: i32 },
    /// Every accepted move (uct-next).
    Moves(Vec<String>),
}

/// How a node's returned value relates to its true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Relation {
    #[serde(rename = "exact")]
    Exact,
    /// The true value is at most the returned one.
    #[serde(rename = "<=")]
    AtMost,
    /// The true value is at least the returned one.
    #[serde(rename = ">=")]
    AtLeast,
}

impl Relation {
    pub fn text(self) -> &'static str {
        match self {
            Relation::Exact => "exact",
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
        }
    }
}

/// Numbers a student types are right within this.
const NUMBER_SLACK: f64 = 1e-3;

impl Answer {
    /// Whether `given` is right: one of the accepted cells or moves, the same numbers (within
    /// [`NUMBER_SLACK`]), the same leaves in any order, the same relation and number.
    pub fn accepts(&self, given: &Answer) -> bool {
        let near = |a: f64, b: f64| (a - b).abs() <= NUMBER_SLACK;
        match (self, given) {
            (Answer::Cells(cells), Answer::Cells(given)) => given.len() == 1 && cells.contains(&given[0]),
            (Answer::Values { g, h, f }, Answer::Values { g: g2, h: h2, f: f2 }) => {
                near(*g, *g2) && near(*h, *h2) && near(*f, *f2)
            }
            (Answer::Number(a), Answer::Number(b)) => near(*a, *b),
            (Answer::Leaves(leaves), Answer::Leaves(given)) => {
                let mut given = given.clone();
                given.sort_unstable();
                given.dedup();
                *leaves == given
            }
            (Answer::Bound { relation, value }, Answer::Bound { relation: r2, value: v2 }) => {
                relation == r2 && value == v2
            }
            (Answer::Moves(moves), Answer::Moves(given)) => given.len() == 1 && moves.contains(&given[0]),
            _ => false,
        }
    }
}

/// What the question shows besides its instance: what a page highlights and a checker reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Given {
    Nothing,
    /// The cells expanded so far, in order (next-expansion).
    Expanded(Vec<[u32; 2]>),
    /// The cell asked about (cell-values).
    Cell([u32; 2]),
    /// The node asked about: child numbers from 1 down from the root (empty: the root).
    Node(Vec<u32>),
    /// The root's visits and its children's statistics (uct-next).
    Uct {
        root_visits: u32,
        exploration: f64,
        children: Vec<ChildShown>,
    },
}

/// One child of the UCT root as the question shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChildShown {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u32,
    /// The sum of the rewards of the player who moves into it.
    pub reward: f64,
    /// Proven lost for that player: selection never takes it.
    pub proven_loss: bool,
}

/// One generated question: its kind and seed, and what it asks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Question {
    pub kind: String,
    pub seed: u64,
    #[serde(flatten)]
    pub body: Made,
}

impl Question {
    /// One JSON line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a question is plain data")
    }
}

/// The question of `kind` for `seed`: the same seed and options give the same question.
pub fn generate(kind: Kind, seed: u64, options: &Options) -> Result<Question, String> {
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ kind.salt());
    let made = match kind {
        Kind::NextExpansion | Kind::CellValues | Kind::PathCost => grid::generate(kind, &mut rng, options)?,
        Kind::NodeValue | Kind::PrunedLeaves | Kind::NodeBound => tree::generate(kind, &mut rng, options)?,
        Kind::UctNext => uct::generate(&mut rng, options)?,
    };
    Ok(Question { kind: kind.id().to_string(), seed, body: made })
}

/// What a question asks, made by its family's generator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Made {
    #[serde(rename = "question")]
    pub text: String,
    /// The TOML of a scene that rebuilds the instance, opened on the step the question shows.
    pub scene: String,
    pub answer: Answer,
    pub explanation: String,
    /// The replay's step that shows the answer ("show me").
    pub show_step: usize,
    pub given: Given,
}

/// Refuses an option the kind does not read.
fn refuse_algorithm(options: &Options, allowed: &[&str], kind: &str) -> Result<(), String> {
    match &options.algorithm {
        Some(name) if !allowed.contains(&name.as_str()) => {
            Err(format!("{kind} questions use {}, not '{}'", or_list(allowed), quote(name)))
        }
        _ => Ok(()),
    }
}

/// A number as a class writes it: whole numbers without a decimal point, others to 3 places.
pub fn show_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e9 { format!("{}", value as i64) } else { format!("{value:.3}") }
}
