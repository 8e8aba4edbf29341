//! What to run on a game, as one value: the algorithm and its budget. The CLI's searches, match
//! engines, the game-tree lab's recordings and the Barca page's computer player all use it.

use std::fmt;
use std::str::FromStr;

use super::choice::Difficulty;
use super::iterative::{IdOptions, IterativeDeepening};
use super::mcts::{MctsConfig, MctsResult, uct_search};
use super::mcts_trace::MctsEvent;
use super::tree::TreeEvent;
use super::{SearchLimits, SearchResult, alphabeta, minimax, negamax};
use crate::games::{Evaluator, Game};
use crate::spec_text::SpecText;
use crate::text::quote;
use crate::trace::Tracer;

/// Random plies before a plain UCT playout is scored by the evaluation: random Barca games rarely end.
pub const UCT_PLAYOUT_CUTOFF: u32 = super::mcts::PLAIN_PLAYOUT_CUTOFF;
/// UCT's playouts when neither playouts nor time are given.
pub const UCT_DEFAULT_ITERATIONS: u64 = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EngineAlgorithm {
    Minimax,
    Negamax,
    AlphaBeta,
    /// Alpha-beta with iterative deepening, transposition table, killers and history.
    Id,
    /// Monte Carlo tree search (UCT).
    Uct,
    /// A uniformly random legal move (match engines only).
    Random,
}

impl EngineAlgorithm {
    pub const SEARCHES: [EngineAlgorithm; 5] = [
        EngineAlgorithm::Minimax,
        EngineAlgorithm::Negamax,
        EngineAlgorithm::AlphaBeta,
        EngineAlgorithm::Id,
        EngineAlgorithm::Uct,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineAlgorithm::Minimax => "minimax",
            EngineAlgorithm::Negamax => "negamax",
            EngineAlgorithm::AlphaBeta => "alphabeta",
            EngineAlgorithm::Id => "id",
            EngineAlgorithm::Uct => "uct",
            EngineAlgorithm::Random => "random",
        }
    }

    /// The name shown to a class.
    pub fn label(self) -> &'static str {
        match self {
            EngineAlgorithm::Minimax => "Minimax",
            EngineAlgorithm::Negamax => "Negamax",
            EngineAlgorithm::AlphaBeta => "Alpha-beta",
            EngineAlgorithm::Id => "ID + TT",
            EngineAlgorithm::Uct => "UCT",
            EngineAlgorithm::Random => "Random",
        }
    }

    /// Searches a fixed number of plies, and only that.
    pub fn is_fixed_depth(self) -> bool {
        matches!(self, EngineAlgorithm::Minimax | EngineAlgorithm::Negamax | EngineAlgorithm::AlphaBeta)
    }
}

/// A game-tree engine: the algorithm and its budget.
///
/// Text form: `NAME[:ITEM,...]`.
/// - `minimax:D`, `negamax:D`, `alphabeta:D`: D plies (1..64, required);
/// - `id:D` (deepest iteration), `id:Tms` (time), with optional `nodes=N`, `millis=T`, `depth=D`
///   for the other limits (the first limit reached stops it);
/// - `uct:N` (N playouts a move), `uct:Tms` (time), `uct:easy|medium|hard` (that level's budget),
///   playing with [`MctsConfig::tuned`]'s settings, changed by `plain` (classic UCT, see
///   [`MctsConfig::plain`]), `exploration=C`, `playout-cutoff=P|none`, `eval-scale=S`, `bias=W`,
///   `minimax=A`, `mast=E|off`, `rave=K|off` (RAVE, β = sqrt(K / (3n + K))), `solver=on|off` (see [`MctsConfig::apply_item`]), `seed=S`;
/// - `random`, and the difficulty levels `easy`, `medium`, `hard` (alpha-beta: the best five moves
///   sampled at depth 1 or 3, or iterative deepening for a second).
///
/// Examples: `alphabeta:3`, `id:200ms`, `id:8,nodes=100000`, `uct:100ms`, `uct:100ms,minimax=0`,
/// `uct:5000,plain,exploration=0.7,seed=3`.
/// These are the engines `barca match` accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineSpec {
    pub algorithm: EngineAlgorithm,
    /// Plays at this level: for `Id`, the level's sampling or timed search; for `Uct`, its budget.
    pub level: Option<Difficulty>,
    pub depth: Option<u32>,
    pub millis: Option<u64>,
    pub nodes: Option<u64>,
    pub iterations: Option<u64>,
    /// UCT's settings (its budget and seed are the fields above).
    pub uct: MctsConfig,
    pub seed: u64,
}

impl EngineSpec {
    /// `algorithm` with no limits set and UCT's defaults.
    pub fn new(algorithm: EngineAlgorithm) -> Self {
        Self {
            algorithm,
            level: None,
            depth: None,
            millis: None,
            nodes: None,
            iterations: None,
            uct: MctsConfig::tuned(),
            seed: 0,
        }
    }

    /// `algorithm` searching `depth` plies.
    pub fn depth(algorithm: EngineAlgorithm, depth: u32) -> Self {
        Self { depth: Some(depth), ..Self::new(algorithm) }
    }

    /// The alpha-beta player of a difficulty level (`easy`, `medium`, `hard`).
    pub fn level(level: Difficulty) -> Self {
        Self { level: Some(level), ..Self::new(EngineAlgorithm::Id) }
    }

    /// Checks the values and that each limit fits the algorithm; one line, naming the option.
    pub fn validate(&self) -> Result<(), String> {
        use EngineAlgorithm::*;
        let name = self.algorithm.name();
        if let Some(depth) = self.depth.filter(|d| !(1..=64).contains(d)) {
            return Err(format!("depth {depth} is not a whole number from 1 to 64"));
        }
        if self.algorithm.is_fixed_depth() && self.depth.is_none() {
            return Err(format!("{name} needs a depth, e.g. {name}:3"));
        }
        if self.millis == Some(0) {
            return Err("millis must be a positive number of milliseconds".to_string());
        }
        if self.nodes == Some(0) {
            return Err("nodes must be a positive number of nodes".to_string());
        }
        if self.iterations == Some(0) {
            return Err("uct needs a positive number of playouts, e.g. uct:5000".to_string());
        }
        if !(self.uct.exploration.is_finite() && self.uct.exploration >= 0.0) {
            return Err(format!("exploration {} must be a number >= 0", crate::text::number(self.uct.exploration)));
        }
        let has_limits =
            self.depth.is_some() || self.millis.is_some() || self.nodes.is_some() || self.iterations.is_some();
        match self.algorithm {
            Minimax | Negamax | AlphaBeta if self.millis.is_some() || self.nodes.is_some() => {
                Err(format!("{name} searches a fixed depth: millis and nodes do not apply"))
            }
            Uct if self.depth.is_some() || self.nodes.is_some() => {
                Err("depth and nodes do not apply to uct (use playouts or millis)".to_string())
            }
            Minimax | Negamax | AlphaBeta | Id if self.iterations.is_some() => {
                Err("playouts apply to uct only".to_string())
            }
            Id | Uct if self.level.is_some() && has_limits => {
                Err(format!("a level sets {name}'s budget: no other limits"))
            }
            Random if has_limits || self.level.is_some() => Err("random takes no limits".to_string()),
            Minimax | Negamax | AlphaBeta if self.level.is_some() => Err(format!("{name} has no levels")),
            _ => Ok(()),
        }
    }

    /// The limits of a tree search (`Id` reads them all).
    pub fn limits(&self) -> SearchLimits {
        let millis = self.millis.or(self.level.filter(|l| l.sampling_depth().is_none()).map(Difficulty::search_millis));
        SearchLimits { depth: self.depth, millis, nodes: self.nodes }
    }

    /// The UCT configuration: the playouts asked for, the level's budget, or the default playouts
    /// when only time is not given either.
    pub fn mcts_config(&self) -> MctsConfig {
        let (iterations, millis) = match (self.level, self.iterations, self.millis) {
            (Some(Difficulty::Easy), ..) => (Some(300), None),
            (Some(Difficulty::Medium), ..) => (Some(3_000), None),
            (Some(Difficulty::Hard), ..) => (None, Some(Difficulty::Hard.search_millis())),
            (None, None, Some(millis)) => (None, Some(millis)),
            (None, iterations, millis) => (Some(iterations.unwrap_or(UCT_DEFAULT_ITERATIONS)), millis),
        };
        MctsConfig { iterations, millis, seed: self.seed, ..self.uct }
    }

    /// Runs the search once on `game`, tree searches traced into `tree`, UCT into `mcts`; `id`
    /// keeps iterative deepening's table between calls. Random and the alpha-beta levels choose
    /// moves instead ([`crate::tournament::Engine`]) and are refused.
    pub fn search<G: Game, E: Evaluator<G>>(
        &self,
        game: &G,
        eval: &E,
        id: &mut IterativeDeepening<G>,
        tree: &mut impl Tracer<TreeEvent>,
        mcts: &mut impl Tracer<MctsEvent>,
    ) -> Result<EngineResult<G::Move>, String> {
        let depth = self.depth.unwrap_or(1);
        Ok(EngineResult::Tree(match self.algorithm {
            EngineAlgorithm::Minimax => minimax::search(game, eval, depth, tree),
            EngineAlgorithm::Negamax => negamax::search(game, eval, depth, tree),
            EngineAlgorithm::AlphaBeta => alphabeta::search(game, eval, depth, tree),
            EngineAlgorithm::Id if self.level.is_none() => id.search(game, eval, &self.limits(), tree),
            EngineAlgorithm::Uct => return Ok(EngineResult::Uct(uct_search(game, eval, &self.mcts_config(), mcts))),
            EngineAlgorithm::Id | EngineAlgorithm::Random => {
                return Err(format!("'{self}' chooses moves, it is not a search"));
            }
        }))
    }

    /// A fresh iterative-deepening engine with a table of 2^`tt_bits` entries.
    pub fn id_engine<G: Game>(tt_bits: u32) -> IterativeDeepening<G> {
        IterativeDeepening::new(IdOptions { tt_bits, ..IdOptions::default() })
    }
}

/// What [`EngineSpec::search`] found.
pub enum EngineResult<M> {
    Tree(SearchResult<M>),
    Uct(MctsResult<M>),
}

/// A move to play, and the search that found it (none for a random move or a sampling level).
pub struct Choice<M> {
    pub mv: Option<M>,
    pub search: Option<EngineResult<M>>,
}

impl<M: Copy> Choice<M> {
    /// The best move of `search`.
    pub fn searched(search: EngineResult<M>) -> Self {
        let mv = match &search {
            EngineResult::Tree(result) => result.best_move,
            EngineResult::Uct(result) => result.best_move,
        };
        Self { mv, search: Some(search) }
    }
}

fn level_name(level: Difficulty) -> &'static str {
    match level {
        Difficulty::Easy => "easy",
        Difficulty::Medium => "medium",
        Difficulty::Hard => "hard",
    }
}

fn level_of(word: &str) -> Option<Difficulty> {
    [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard].into_iter().find(|&l| level_name(l) == word)
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        let mut millis = self.millis;
        let mut depth = self.depth;
        let mut iterations = self.iterations;
        // The first limit goes first, bare: `id:6`, `id:200ms`, `uct:500`, `uct:hard`.
        let name = match (self.algorithm, self.level) {
            (EngineAlgorithm::Id, Some(level)) => level_name(level),
            (EngineAlgorithm::Uct, Some(level)) => {
                items.push(level_name(level).to_string());
                "uct"
            }
            (algorithm, _) => {
                if let Some(d) = depth.take() {
                    items.push(d.to_string());
                } else if let Some(n) = iterations.take() {
                    items.push(n.to_string());
                } else if let Some(ms) = millis.take() {
                    items.push(format!("{ms}ms"));
                }
                algorithm.name()
            }
        };
        items.extend(depth.map(|d| format!("depth={d}")));
        items.extend(millis.map(|ms| format!("millis={ms}")));
        items.extend(self.nodes.map(|n| format!("nodes={n}")));
        items.extend(iterations.map(|n| format!("playouts={n}")));
        items.extend(self.uct.items_from(&MctsConfig::tuned()));
        if self.seed != 0 {
            items.push(format!("seed={}", self.seed));
        }
        crate::spec_text::write(f, name, &items)
    }
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage =
            "use minimax:D, negamax:D, alphabeta:D, id:D, id:<T>ms, uct:N, uct:<T>ms, random, easy, medium or hard";
        let quoted = quote(text);
        let mut spec = SpecText::parse(text).map_err(|_| format!("unknown engine '{quoted}': {usage}"))?;
        let algorithm = match spec.name {
            "minimax" => EngineAlgorithm::Minimax,
            "negamax" => EngineAlgorithm::Negamax,
            "alphabeta" => EngineAlgorithm::AlphaBeta,
            "id" => EngineAlgorithm::Id,
            "uct" => EngineAlgorithm::Uct,
            "random" => EngineAlgorithm::Random,
            name => match level_of(name) {
                Some(_) => EngineAlgorithm::Id,
                None => return Err(format!("unknown engine '{quoted}': {usage}")),
            },
        };
        let mut engine = EngineSpec { level: level_of(spec.name), ..EngineSpec::new(algorithm) };
        if let Some(first) = spec.bare() {
            let bad =
                || format!("engine '{quoted}': '{}' is not a positive whole number, <T>ms or a level", quote(first));
            if let Some(ms) = first.strip_suffix("ms") {
                engine.millis = Some(ms.parse().map_err(|_| bad())?);
            } else if let Some(level) = level_of(first).filter(|_| algorithm == EngineAlgorithm::Uct) {
                engine.level = Some(level);
            } else if algorithm == EngineAlgorithm::Uct {
                engine.iterations = Some(first.parse().map_err(|_| bad())?);
            } else {
                engine.depth = Some(first.parse().map_err(|_| bad())?);
            }
        }
        engine.depth = engine.depth.or(spec.value("depth")?);
        engine.millis = engine.millis.or(spec.value("millis")?);
        engine.nodes = spec.value("nodes")?;
        engine.iterations = engine.iterations.or(spec.value("playouts")?);
        if spec.flag("plain") {
            engine.uct.apply_item("plain")?;
        }
        for key in ["exploration", "playout-cutoff", "eval-scale", "bias", "minimax", "mast", "rave", "solver"] {
            if let Some(value) = spec.value::<String>(key)? {
                engine.uct.apply_item(&format!("{key}={value}"))?;
            }
        }
        engine.seed = spec.value("seed")?.unwrap_or(0);
        spec.done(engine, EngineSpec::validate)
    }
}

crate::serde_as_text!(EngineSpec);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse_with_clear_errors() {
        assert_eq!("alphabeta:3".parse(), Ok(EngineSpec::depth(EngineAlgorithm::AlphaBeta, 3)));
        assert_eq!("id:200ms".parse(), Ok(EngineSpec { millis: Some(200), ..EngineSpec::new(EngineAlgorithm::Id) }));
        assert_eq!("id:6".parse(), Ok(EngineSpec::depth(EngineAlgorithm::Id, 6)));
        assert_eq!("hard".parse(), Ok(EngineSpec::level(Difficulty::Hard)));
        let uct: EngineSpec = "uct:5000,exploration=0.7,seed=3".parse().unwrap();
        assert_eq!((uct.iterations, uct.uct.exploration, uct.seed), (Some(5000), 0.7, 3));
        let plain: EngineSpec = "uct:100ms,plain,playout-cutoff=4".parse().unwrap();
        assert_eq!(
            plain.mcts_config(),
            MctsConfig { millis: Some(100), iterations: None, playout_cutoff: Some(4), ..MctsConfig::plain() }
        );
        for text in [
            "minimax:2",
            "negamax:1",
            "alphabeta:3",
            "id:7",
            "id:150ms",
            "id:8,millis=500,nodes=1000",
            "uct:100",
            "uct:250ms",
            "uct:hard",
            "uct:300,playout-cutoff=16,seed=2",
            "uct:100ms,minimax=0.5",
            "uct:100ms,plain",
            "uct:300,plain,playout-cutoff=4,mast=0.1",
            "uct:50ms,playout-cutoff=none,eval-scale=100,bias=1,solver=off",
            "random",
            "easy",
            "medium",
            "hard",
        ] {
            assert_eq!(text.parse::<EngineSpec>().unwrap().to_string(), text);
        }
        for (bad, message) in [
            ("alphabeta", "needs a depth"),
            ("alphabeta:x", "is not a positive whole number"),
            ("alphabeta:0", "from 1 to 64"),
            ("id:0ms", "positive number of milliseconds"),
            ("id:fastms", "is not a positive whole number"),
            ("queen:3", "unknown engine"),
            ("random:2", "random takes no limits"),
            ("uct:0", "positive number of playouts"),
            ("uct:100,depth=3", "do not apply to uct"),
            ("alphabeta:3,nodes=5", "millis and nodes do not apply"),
            ("uct:10,exploration=-1", "exploration"),
            ("uct:100ms,minimax=2", "from 0 to 1"),
            ("uct:100ms,mast=yes", "mast=yes"),
            ("uct:100ms,cutoff=3", "cutoff"),
            ("", "unknown engine"),
        ] {
            let error = bad.parse::<EngineSpec>().unwrap_err();
            assert!(error.contains(message), "{bad}: {error}");
        }
    }

    #[test]
    fn uct_budget_follows_the_spec() {
        let config = |text: &str| text.parse::<EngineSpec>().unwrap().mcts_config();
        assert_eq!((config("uct").iterations, config("uct").millis), (Some(UCT_DEFAULT_ITERATIONS), None));
        assert_eq!((config("uct:50ms").iterations, config("uct:50ms").millis), (None, Some(50)));
        assert_eq!(config("uct:easy").iterations, Some(300));
        assert_eq!(config("uct:hard").millis, Some(1000));
    }
}
