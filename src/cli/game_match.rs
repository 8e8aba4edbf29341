//! Engine-vs-engine matches on any game: `--white SPEC --black SPEC --games N`, colours swapped
//! each pair, each pair opening with the same few seeded random moves so the games differ.

use std::str::FromStr;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use super::CliError;
use crate::adversarial::choice::{Difficulty, choose_move};
use crate::adversarial::iterative::{IdOptions, IterativeDeepening};
use crate::adversarial::mcts::{MctsConfig, uct_search};
use crate::adversarial::{SearchLimits, alphabeta, minimax, negamax};
use crate::cli::game_search::UCT_PLAYOUT_CUTOFF;
use crate::games::{Evaluator, Game, Outcome, Side, random_move};
use crate::trace::NoTrace;

/// An engine: `minimax:D`, `negamax:D`, `alphabeta:D`, `id:D` (depth), `id:200ms` (time),
/// `uct:N` (N playouts a move), `random`, or a difficulty `easy` / `medium` / `hard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineSpec {
    Minimax(u32),
    Negamax(u32),
    AlphaBeta(u32),
    IdDepth(u32),
    IdMillis(u64),
    Uct(u64),
    Random,
    Level(Difficulty),
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage = "use minimax:D, negamax:D, alphabeta:D, id:D, id:<T>ms, uct:N, random, easy, medium or hard";
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
            ("uct", _) => match arg.map(str::parse::<u64>) {
                Some(Ok(iterations)) if iterations > 0 => Ok(EngineSpec::Uct(iterations)),
                _ => Err(format!("engine '{text}' needs a positive number of playouts, e.g. uct:5000")),
            },
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
            EngineSpec::Uct(iterations) => write!(f, "uct:{iterations}"),
            EngineSpec::Random => write!(f, "random"),
            EngineSpec::Level(level) => write!(f, "{}", format!("{level:?}").to_lowercase()),
        }
    }
}

/// An engine ready to play: its spec and the search state it keeps between moves.
struct Engine<G: Game> {
    spec: EngineSpec,
    id: IterativeDeepening<G>,
}

impl<G: Game> Engine<G> {
    fn new(spec: EngineSpec) -> Self {
        Self { spec, id: IterativeDeepening::new(IdOptions { tt_bits: 18, ..IdOptions::default() }) }
    }

    fn choose<E: Evaluator<G>>(&mut self, game: &G, eval: &E, rng: &mut StdRng) -> Option<G::Move> {
        match self.spec {
            EngineSpec::Minimax(depth) => minimax::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::Negamax(depth) => negamax::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::AlphaBeta(depth) => alphabeta::search(game, eval, depth, &mut NoTrace).best_move,
            EngineSpec::IdDepth(depth) => self.id.search(game, eval, &SearchLimits::depth(depth), &mut NoTrace).best_move,
            EngineSpec::IdMillis(millis) => self.id.search(game, eval, &SearchLimits::millis(millis), &mut NoTrace).best_move,
            EngineSpec::Uct(iterations) => {
                let config = MctsConfig {
                    iterations: Some(iterations),
                    playout_cutoff: Some(UCT_PLAYOUT_CUTOFF),
                    seed: rng.random(),
                    ..MctsConfig::default()
                };
                uct_search(game, eval, &config, &mut NoTrace).best_move
            }
            EngineSpec::Random => random_move(game, rng),
            EngineSpec::Level(level) => choose_move(game, eval, level, &mut self.id, rng),
        }
    }
}


pub struct MatchOptions {
    pub games: u32,
    pub seed: u64,
    /// Random moves that open each pair of games.
    pub opening_plies: usize,
}

/// Plays the match from `start`, printing one JSON line per game through `emit`, and returns the
/// summary from the first (`--white`) engine's point of view.
pub fn play_match<G: Game, E: Evaluator<G>>(
    start: &G,
    eval: &E,
    first: EngineSpec,
    second: EngineSpec,
    options: &MatchOptions,
    emit: impl Fn(&Value),
) -> Result<Value, CliError> {
    if options.games == 0 {
        return Err(CliError("--games must be at least 1".to_string()));
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut engines = [Engine::new(first), Engine::new(second)];
    let (mut wins, mut draws, mut losses, mut total_plies) = (0u32, 0u32, 0u32, 0usize);
    let mut opening = start.clone();
    for game_index in 0..options.games {
        let first_plays_white = game_index % 2 == 0;
        if first_plays_white {
            opening = start.clone();
            for _ in 0..options.opening_plies {
                match random_move(&opening, &mut rng) {
                    Some(mv) if opening.outcome().is_none() => opening.make_move(mv),
                    _ => break,
                }
            }
        }
        for engine in &mut engines {
            engine.id.clear();
        }
        let mut game = opening.clone();
        let plies_before = game.ply();
        let white = if first_plays_white { 0 } else { 1 };
        let outcome = loop {
            if let Some(outcome) = game.outcome() {
                break outcome;
            }
            let mover = if game.side_to_move() == Side::First { white } else { 1 - white };
            match engines[mover].choose(&game, eval, &mut rng) {
                Some(mv) => game.make_move(mv),
                None => break Outcome::Draw,
            }
        };
        let plies = game.ply() - plies_before;
        total_plies += plies;
        let first_side = if first_plays_white { Side::First } else { Side::Second };
        let result = match outcome {
            Outcome::Win(side) if side == first_side => {
                wins += 1;
                "win"
            }
            Outcome::Win(_) => {
                losses += 1;
                "loss"
            }
            Outcome::Draw => {
                draws += 1;
                "draw"
            }
        };
        let winner = match outcome {
            Outcome::Win(Side::First) => "white",
            Outcome::Win(Side::Second) => "black",
            Outcome::Draw => "draw",
        };
        emit(&json!({"game": game_index + 1, "first_engine_plays": if first_plays_white { "white" } else { "black" },
            "winner": winner, "first_engine_result": result, "plies": plies}));
    }
    let games = f64::from(options.games);
    Ok(json!({
        "games": options.games, "wins": wins, "draws": draws, "losses": losses,
        "score": (f64::from(wins) + 0.5 * f64::from(draws)) / games,
        "average_plies": total_plies as f64 / games,
    }))
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
        for text in ["minimax:2", "negamax:1", "alphabeta:3", "id:7", "id:150ms", "random", "easy", "medium", "hard"] {
            assert_eq!(text.parse::<EngineSpec>().unwrap().to_string(), text);
        }
        for bad in ["alphabeta", "alphabeta:x", "alphabeta:0", "id:0ms", "id:fastms", "queen:3", "random:2", ""] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }
}
