//! `searchlab game perft|search|match` on the simultaneous-move games (`--game ropasci`,
//! `goofspiel`, `matrix`): perft counts joint actions, search runs SM-MCTS, and a match asks both
//! engines for an action before applying the two together.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use serde_json::{Map, Value, json};

use super::CliError;
use super::game_search::{Algo, SearchArgs};
use crate::adversarial::engine::{EngineAlgorithm, EngineSpec};
use crate::adversarial::matrix_nash::{exploitability, solve_zero_sum};
use crate::adversarial::sm_mcts::{SelectionRule, SmMctsConfig, SmMctsResult, search};
use crate::adversarial::sm_mcts_trace::SmMctsEvent;
use crate::games::sim_games::{SimKind, SimPosition, SimVisitor};
use crate::games::simultaneous::{SIDES, SimultaneousGame, perft, random_action, side_index};
use crate::games::{GameKind, Side};
use crate::tournament::Wdl;
use crate::trace::{Control, Tracer};

/// A game of either registry, as `--game` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameChoice {
    TurnBased(GameKind),
    Simultaneous(SimKind),
}

pub fn parse_game_choice(text: &str) -> Result<GameChoice, String> {
    if let Ok(kind) = text.parse() {
        return Ok(GameChoice::TurnBased(kind));
    }
    text.parse().map(GameChoice::Simultaneous).map_err(|_| {
        let ids: Vec<&str> = GameKind::ALL.iter().map(|k| k.id()).chain(SimKind::ALL.iter().map(|k| k.id())).collect();
        format!("unknown game '{}': use {}", crate::text::quote(text), crate::text::or_list(&ids))
    })
}

/// Decoupled UCT's exploration constant when a match engine or `--algo uct` gives none (rewards
/// rescaled to [0, 1]); the RoPaSci engine test plays with it.
const UCT_EXPLORATION: f64 = 0.5;
/// Regret matching's share of uniform exploration (γ) when `--exploration` is not given.
const REGRET_EXPLORATION: f64 = 0.05;
/// Random turns a match engine's playout plays before RoPaSci's material estimate.
const MATCH_PLAYOUT_CUTOFF: u32 = 4;
/// A match engine's iterations when its spec gives no budget.
const MATCH_ITERATIONS: u64 = 1_000;

fn position(kind: SimKind, text: Option<&str>) -> Result<SimPosition, CliError> {
    kind.parse(text.unwrap_or(kind.default_position())).map_err(|e| CliError(format!("--position: {e}")))
}

/// `game perft`: sequences of `depth` joint actions (every pair of legal actions is a child).
pub fn run_perft(kind: SimKind, text: Option<&str>, depth: u32) -> Result<Value, CliError> {
    struct Perft(u32);
    impl SimVisitor for Perft {
        type Output = u64;
        fn visit<G: SimultaneousGame>(self, game: &G) -> u64 {
            perft(game, self.0)
        }
    }
    let start = position(kind, text)?;
    let clock = Instant::now();
    let nodes = start.visit(Perft(depth));
    Ok(json!({ "game": kind.id(), "depth": depth, "nodes": nodes, "micros": super::path::micros_since(clock) }))
}

/// Stops a search at a deadline.
struct Deadline(Option<Instant>);

impl Tracer<SmMctsEvent> for Deadline {
    const ENABLED: bool = false;

    fn record(&mut self, _make: impl FnOnce() -> SmMctsEvent) {}

    fn control(&mut self) -> Control {
        match self.0 {
            Some(end) if Instant::now() >= end => Control::Stop,
            _ => Control::Continue,
        }
    }
}

/// `game search`: SM-MCTS from the position, `--algo uct` (decoupled UCT) or `regret`.
pub fn run_search(kind: SimKind, text: Option<&str>, args: &SearchArgs) -> Result<Value, CliError> {
    let rule = match args.algo {
        Algo::Uct => SelectionRule::DecoupledUct { exploration: args.exploration.unwrap_or(UCT_EXPLORATION) },
        Algo::Regret => SelectionRule::RegretMatching { exploration: args.exploration.unwrap_or(REGRET_EXPLORATION) },
        other => {
            let name = format!("{other:?}").to_lowercase();
            return Err(CliError(format!(
                "--algo {name} needs one side to move; {} is a simultaneous-move game: use uct or regret",
                kind.name()
            )));
        }
    };
    match rule {
        SelectionRule::DecoupledUct { exploration } if !(exploration.is_finite() && exploration >= 0.0) => {
            return Err(CliError("--exploration must be a number >= 0".to_string()));
        }
        SelectionRule::RegretMatching { exploration } if !(exploration > 0.0 && exploration <= 1.0) => {
            return Err(CliError("--exploration (regret matching's γ) must lie in (0, 1]".to_string()));
        }
        _ => {}
    }
    if args.depth.is_some() || args.nodes.is_some() {
        return Err(CliError("--depth and --nodes do not apply to SM-MCTS (use --iterations or --millis)".to_string()));
    }
    let iterations = args.iterations.unwrap_or(if args.millis.is_some() { u64::MAX } else { 10_000 });
    let config = SmMctsConfig { rule, iterations, playout_cutoff: Some(args.playout_cutoff), seed: args.seed };
    let deadline = Deadline(args.millis.map(|ms| Instant::now() + Duration::from_millis(ms)));
    let start = position(kind, text)?;
    let (mut out, strategies) = start.visit(Search { kind, config, deadline })?;
    if let SimPosition::Matrix(game) = &start {
        let eq = solve_zero_sum(game.matrix()).map_err(CliError)?;
        out["exploitability"] = json!(exploitability(game.matrix(), &strategies[0], &strategies[1]));
        out["equilibrium"] = json!({ "value": eq.value, "Row": eq.row, "Column": eq.column });
    }
    Ok(out)
}

struct Search {
    kind: SimKind,
    config: SmMctsConfig,
    deadline: Deadline,
}

impl SimVisitor for Search {
    /// The JSON and both final strategies.
    type Output = Result<(Value, [Vec<f64>; 2]), CliError>;

    fn visit<G: SimultaneousGame>(mut self, game: &G) -> Self::Output {
        if game.is_terminal() {
            return Err(CliError("--position: the game is over".to_string()));
        }
        let clock = Instant::now();
        let result = search(game, &self.config, &mut self.deadline);
        let micros = super::path::micros_since(clock);
        let algo = match self.config.rule {
            SelectionRule::DecoupledUct { .. } => "sm-mcts decoupled uct",
            SelectionRule::RegretMatching { .. } => "sm-mcts regret matching",
        };
        let mut actions = Map::new();
        let mut strategies = Map::new();
        for side in SIDES {
            let name = self.kind.side_name(side).to_string();
            let chosen = result.chosen[side_index(side)].map(|a| game.action_text(side, a));
            actions.insert(name.clone(), json!(chosen));
            strategies.insert(name, strategy_json(game, side, &result));
        }
        let out = json!({ "game": self.kind.id(), "algo": algo, "actions": actions, "strategies": strategies,
            "iterations": result.iterations, "nodes": result.nodes, "micros": micros });
        Ok((out, result.strategies))
    }
}

/// Most actions a strategy lists (RoPaSci offers over a hundred); small games list all, in order.
const LISTED_ACTIONS: usize = 10;

/// A side's final strategy: each action's probability, visits and mean payoff at the root.
fn strategy_json<G: SimultaneousGame>(game: &G, side: Side, result: &SmMctsResult<G::Action>) -> Value {
    let p = side_index(side);
    let mut order: Vec<usize> = (0..result.actions[p].len()).collect();
    if order.len() > LISTED_ACTIONS {
        order.sort_by(|&a, &b| result.strategies[p][b].total_cmp(&result.strategies[p][a]));
        order.truncate(LISTED_ACTIONS);
    }
    let listed = order.into_iter().map(|a| {
        let stats = &result.root.sides[p][a];
        let mean = (stats.visits > 0).then(|| stats.reward_sum / f64::from(stats.visits));
        json!({ "action": game.action_text(side, result.actions[p][a]), "p": result.strategies[p][a],
            "visits": stats.visits, "mean": mean })
    });
    Value::Array(listed.collect())
}

/// A match engine: SM-MCTS with decoupled UCT (`uct:N`, `uct:<T>ms`) or a random player.
#[derive(Debug, Clone, Copy)]
enum SimEngine {
    Random,
    Uct { iterations: u64, millis: Option<u64> },
}

fn sim_engine(spec: &EngineSpec) -> Result<SimEngine, CliError> {
    match spec.algorithm {
        EngineAlgorithm::Random => Ok(SimEngine::Random),
        EngineAlgorithm::Uct if spec.level.is_none() => Ok(SimEngine::Uct {
            iterations: spec.iterations.unwrap_or(if spec.millis.is_some() { u64::MAX } else { MATCH_ITERATIONS }),
            millis: spec.millis,
        }),
        _ => Err(CliError(format!(
            "engine '{spec}' needs one side to move; simultaneous-move games play uct:N, uct:<T>ms or random"
        ))),
    }
}

/// What `game match` asks of a simultaneous-move game.
pub struct SimMatch<'a> {
    pub kind: SimKind,
    pub position: Option<&'a str>,
    pub engines: [EngineSpec; 2],
    pub games: u32,
    pub seed: u64,
    pub opening_plies: usize,
}

/// Plays the match: pairs of games from one random opening, engines swapped; the game lines and
/// the summary.
pub fn run_match(args: &SimMatch) -> Result<Vec<Value>, CliError> {
    let engines = [sim_engine(&args.engines[0])?, sim_engine(&args.engines[1])?];
    let start = position(args.kind, args.position)?;
    let mut lines: Vec<Value> =
        (0..args.games).into_par_iter().map(|game| start.visit(PlayGame { args, engines, game })).collect();
    let mut wdl = Wdl::default();
    for line in &lines {
        match line["first_engine_result"].as_str() {
            Some("win") => wdl.wins += 1,
            Some("loss") => wdl.losses += 1,
            _ => wdl.draws += 1,
        }
    }
    let (low, high) = wdl.score_interval();
    lines.push(json!({ "game": args.kind.id(), "games": args.games, "wins": wdl.wins, "draws": wdl.draws,
        "losses": wdl.losses, "score": wdl.score(), "score_interval": [low, high],
        "white": args.engines[0].to_string(), "black": args.engines[1].to_string(), "seed": args.seed }));
    Ok(lines)
}

/// One game of a match, numbered from 0: pair `game / 2` opens with the same random joint
/// actions, and the first engine plays the first side in even games.
struct PlayGame<'a> {
    args: &'a SimMatch<'a>,
    engines: [SimEngine; 2],
    game: u32,
}

impl SimVisitor for PlayGame<'_> {
    type Output = Value;

    fn visit<G: SimultaneousGame>(self, start: &G) -> Value {
        let pair = u64::from(self.game / 2);
        let mut opening_rng = StdRng::seed_from_u64(self.args.seed.wrapping_mul(1_000_003).wrapping_add(pair));
        let mut state = start.clone();
        for _ in 0..self.args.opening_plies {
            match SIDES.map(|side| random_action(&state, side, &mut opening_rng)) {
                [Some(a), Some(b)] => state.apply(a, b),
                _ => break,
            }
        }
        let first_plays_first = self.game.is_multiple_of(2);
        // engines[k] plays side k of the board.
        let seated = if first_plays_first { self.engines } else { [self.engines[1], self.engines[0]] };
        let mut rng = StdRng::seed_from_u64(self.args.seed ^ (u64::from(self.game) << 32));
        let mut turns = 0;
        while !state.is_terminal() {
            let [a, b] = [0, 1].map(|k| choose(&state, SIDES[k], seated[k], &mut rng));
            let (Some(a), Some(b)) = (a, b) else { break };
            state.apply(a, b);
            turns += 1;
        }
        let payoff = state.payoffs()[usize::from(!first_plays_first)];
        let result = if payoff > 0.0 {
            "win"
        } else if payoff < 0.0 {
            "loss"
        } else {
            "draw"
        };
        let first_side = if first_plays_first { Side::First } else { Side::Second };
        let winner = match state.payoffs()[0] {
            v if v > 0.0 => self.args.kind.side_name(Side::First),
            v if v < 0.0 => self.args.kind.side_name(Side::Second),
            _ => "draw",
        };
        json!({ "game": self.game + 1, "opening": pair + 1, "first_engine_plays": self.args.kind.side_name(first_side),
            "winner": winner, "first_engine_result": result, "turns": turns })
    }
}

/// `engine`'s action for `side`, asked without knowing the other's.
fn choose<G: SimultaneousGame>(state: &G, side: Side, engine: SimEngine, rng: &mut StdRng) -> Option<G::Action> {
    match engine {
        SimEngine::Random => random_action(state, side, rng),
        SimEngine::Uct { iterations, millis } => {
            let rule = SelectionRule::DecoupledUct { exploration: UCT_EXPLORATION };
            let seed = rand::Rng::random(rng);
            let config = SmMctsConfig { rule, iterations, playout_cutoff: Some(MATCH_PLAYOUT_CUTOFF), seed };
            let mut deadline = Deadline(millis.map(|ms| Instant::now() + Duration::from_millis(ms)));
            search(state, &config, &mut deadline).chosen[side_index(side)]
        }
    }
}
