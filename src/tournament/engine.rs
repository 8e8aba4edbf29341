//! The engines a match can pit against each other, named by a short spec (`id:3`, `uct:500`, `hard`).

use std::str::FromStr;

use rand::Rng;
use rand::rngs::StdRng;

use crate::adversarial::choice::{Difficulty, choose_move};
use crate::adversarial::iterative::{IdOptions, IterativeDeepening};
use crate::adversarial::mcts::{MctsConfig, uct_search};
use crate::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use crate::games::{Evaluator, Game, random_move};
use crate::trace::NoTrace;

/// Random plies before a UCT playout is scored by the evaluation (CLI searches): random Barca
/// games rarely end.
pub const UCT_PLAYOUT_CUTOFF: u32 = crate::adversarial::mcts::PLAIN_PLAYOUT_CUTOFF;

/// An engine: `minimax:D`, `negamax:D`, `alphabeta:D`, `id:D` (depth), `id:200ms` (time),
/// `uct:N` (N playouts a move) or `uct:200ms` (time) with options (`uct:100ms,minimax=0,bias=0`,
/// see [`MctsConfig::apply_item`]), `random`, or a difficulty `easy` / `medium` / `hard`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EngineSpec {
    Minimax(u32),
    Negamax(u32),
    AlphaBeta(u32),
    IdDepth(u32),
    IdMillis(u64),
    /// UCT with its budget (playouts or milliseconds) and settings, from [`MctsConfig::tuned`].
    Uct(MctsConfig),
    Random,
    Level(Difficulty),
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage = "use minimax:D, negamax:D, alphabeta:D, id:D, id:<T>ms, uct:N, uct:<T>ms, random, easy, medium or hard";
        let (name, arg) = text.split_once(':').map_or((text, None), |(n, a)| (n, Some(a)));
        let depth = |arg: Option<&str>| -> Result<u32, String> {
            let arg = arg.ok_or_else(|| format!("engine '{text}' needs a depth, e.g. {name}:3"))?;
            match arg.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => Ok(d),
                _ => Err(format!("engine '{text}': depth '{arg}' is not a whole number from 1 to 64")),
            }
        };
        match (name, arg) {
            ("minimax", _) => Ok(EngineSpec::Minimax(depth(arg)?)),
            ("negamax", _) => Ok(EngineSpec::Negamax(depth(arg)?)),
            ("alphabeta", _) => Ok(EngineSpec::AlphaBeta(depth(arg)?)),
            ("id", Some(ms)) if ms.ends_with("ms") => match ms.trim_end_matches("ms").parse::<u64>() {
                Ok(millis) if millis > 0 => Ok(EngineSpec::IdMillis(millis)),
                _ => Err(format!("engine '{text}': '{ms}' is not a positive number of milliseconds")),
            },
            ("id", _) => Ok(EngineSpec::IdDepth(depth(arg)?)),
            ("random", None) => Ok(EngineSpec::Random),
            ("easy", None) => Ok(EngineSpec::Level(Difficulty::Easy)),
            ("medium", None) => Ok(EngineSpec::Level(Difficulty::Medium)),
            ("hard", None) => Ok(EngineSpec::Level(Difficulty::Hard)),
            ("uct", _) => {
                let mut items = arg.unwrap_or("").split(',');
                let budget = items.next().unwrap_or("");
                let mut config = MctsConfig::tuned();
                (config.iterations, config.millis) = match budget.strip_suffix("ms").map(str::parse::<u64>) {
                    Some(Ok(millis)) if millis > 0 => (None, Some(millis)),
                    Some(_) => return Err(format!("engine '{text}': '{budget}' is not a positive number of milliseconds")),
                    None => match budget.parse::<u64>() {
                        Ok(iterations) if iterations > 0 => (Some(iterations), None),
                        _ => return Err(format!("engine '{text}' needs a positive number of playouts or <T>ms, e.g. uct:5000 or uct:100ms")),
                    },
                };
                for item in items {
                    config.apply_item(item).map_err(|error| format!("engine '{text}': {error}"))?;
                }
                Ok(EngineSpec::Uct(config))
            }
            _ => Err(format!("unknown engine '{text}': {usage}")),
        }
    }
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineSpec::Minimax(d) => write!(f, "minimax:{d}"),
            EngineSpec::Negamax(d) => write!(f, "negamax:{d}"),
            EngineSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            EngineSpec::IdDepth(d) => write!(f, "id:{d}"),
            EngineSpec::IdMillis(ms) => write!(f, "id:{ms}ms"),
            EngineSpec::Uct(config) => {
                match (config.iterations, config.millis) {
                    (Some(iterations), _) => write!(f, "uct:{iterations}")?,
                    (None, millis) => write!(f, "uct:{}ms", millis.unwrap_or(0))?,
                }
                config.items_from(&MctsConfig::tuned()).iter().try_for_each(|item| write!(f, ",{item}"))
            }
            EngineSpec::Random => write!(f, "random"),
            EngineSpec::Level(level) => write!(f, "{}", format!("{level:?}").to_lowercase()),
        }
    }
}

/// An engine ready to play: its spec and the search state it keeps between moves.
pub struct Engine<G: Game> {
    spec: EngineSpec,
    id: IterativeDeepening<G>,
}

impl<G: Game> Engine<G> {
    pub fn new(spec: EngineSpec) -> Self {
        Self { spec, id: IterativeDeepening::new(IdOptions { tt_bits: 18, ..IdOptions::default() }) }
    }

    pub fn choose<E: Evaluator<G>>(&mut self, game: &G, eval: &E, rng: &mut StdRng) -> Option<G::Move> {
        match self.spec {
            EngineSpec::Minimax(depth) => minimax::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::Negamax(depth) => negamax::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::AlphaBeta(depth) => alphabeta::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::IdDepth(depth) => self.id.search(game, eval, &SearchLimits::depth(depth), &mut NoTrace).best_move,
            EngineSpec::IdMillis(millis) => self.id.search(game, eval, &SearchLimits::millis(millis), &mut NoTrace).best_move,
            EngineSpec::Uct(config) => {
                let config = MctsConfig { seed: config.seed ^ rng.random::<u64>(), ..config };
                uct_search(game, eval, &config, &mut NoTrace).best_move
            }
            EngineSpec::Random => random_move(game, rng),
            EngineSpec::Level(level) => choose_move(game, eval, level, &mut self.id, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse_with_clear_errors() {
        assert_eq!("alphabeta:3".parse(), Ok(EngineSpec::AlphaBeta(3)));
        assert_eq!("id:200ms".parse(), Ok(EngineSpec::IdMillis(200)));
        assert_eq!("id:6".parse(), Ok(EngineSpec::IdDepth(6)));
        assert_eq!("hard".parse(), Ok(EngineSpec::Level(Difficulty::Hard)));
        for text in [
            "minimax:2",
            "negamax:1",
            "alphabeta:3",
            "id:7",
            "id:150ms",
            "uct:500",
            "uct:100ms",
            "uct:100ms,minimax=0",
            "uct:300,plain",
            "uct:300,plain,playout-cutoff=4,mast=0.1",
            "uct:50ms,bias=0,exploration=1.2,playout-cutoff=none,solver=off",
            "random",
            "easy",
            "medium",
            "hard",
        ] {
            assert_eq!(text.parse::<EngineSpec>().unwrap().to_string(), text);
        }
        for bad in [
            "alphabeta",
            "alphabeta:x",
            "alphabeta:0",
            "id:0ms",
            "id:fastms",
            "queen:3",
            "random:2",
            "",
            "uct:0",
            "uct:0ms",
            "uct:100ms,minimax=2",
            "uct:100ms,mast=yes",
            "uct:100ms,cutoff=3",
            "uct:100ms,playout-cutoff=-1",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }
}
