//! Simultaneous-move games: both players choose an action at once, neither seeing the other's, and
//! the pair (the joint action) is applied together. Separate from the turn-based [`super::Game`],
//! whose searches assume one side to move.
//!
//! Payoffs lie in [-1, 1] for each player (a win 1, a draw 0, a loss -1 in the board games), so one
//! search works for every game. The first instances are small matrix games (rock-paper-scissors)
//! and Goofspiel; RoPaSci 360 is in [`super::ropasci`].

use std::fmt::Debug;
use std::hash::Hash;

use rand::Rng;

use super::Side;
use crate::text::quote;

/// A two-player game where both players act at once.
pub trait SimultaneousGame: Clone + Send + 'static {
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Appends `side`'s legal actions to `actions` (which the caller has cleared); none once the
    /// game is over.
    fn legal_actions(&self, side: Side, actions: &mut Vec<Self::Action>);

    /// Plays the joint action: `first`'s and `second`'s actions, both legal here, applied together.
    fn apply(&mut self, first: Self::Action, second: Self::Action);

    fn is_terminal(&self) -> bool;

    /// The payoffs of `[First, Second]` in [-1, 1]; meaningful once the game is over.
    fn payoffs(&self) -> [f64; 2];

    /// Payoffs a search may assume when it stops a playout before the end; a draw unless the game
    /// knows better.
    fn estimate(&self) -> [f64; 2] {
        [0.0; 2]
    }

    fn action_text(&self, side: Side, action: Self::Action) -> String;

    /// Parses an action in the game's notation and checks that it is legal for `side` here.
    fn parse_action(&self, side: Side, text: &str) -> Result<Self::Action, String>;
}

/// Index of a side in `[First, Second]` arrays.
pub fn side_index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// Both sides, in array order.
pub const SIDES: [Side; 2] = [Side::First, Side::Second];

/// A uniformly random legal action of `side`, `None` when it has none.
pub fn random_action<G: SimultaneousGame>(game: &G, side: Side, rng: &mut impl Rng) -> Option<G::Action> {
    let mut actions = Vec::new();
    game.legal_actions(side, &mut actions);
    (!actions.is_empty()).then(|| actions[rng.random_range(0..actions.len())])
}

/// Counts sequences of `depth` joint actions: a node's children are all pairs of legal actions
/// (`|A_first| × |A_second|`, even when two pairs lead to the same state); a finished game has none.
pub fn perft<G: SimultaneousGame>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_terminal() {
        return 0;
    }
    let (mut first, mut second) = (Vec::new(), Vec::new());
    game.legal_actions(Side::First, &mut first);
    game.legal_actions(Side::Second, &mut second);
    if depth == 1 {
        return (first.len() * second.len()) as u64;
    }
    let mut count = 0;
    for &a in &first {
        for &b in &second {
            let mut child = game.clone();
            child.apply(a, b);
            count += perft(&child, depth - 1);
        }
    }
    count
}

/// A one-shot zero-sum matrix game: the row player (`First`) picks a row, the column player a
/// column, and the row player gains `payoff[row][column]` (the column player its negation).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixGame {
    payoff: Vec<Vec<f64>>,
    row_names: Vec<String>,
    column_names: Vec<String>,
    played: Option<(usize, usize)>,
}

impl MatrixGame {
    /// A game with the given payoffs (rows of equal, non-zero length, entries in [-1, 1]).
    pub fn new(payoff: Vec<Vec<f64>>) -> Result<Self, String> {
        let columns = payoff.first().map_or(0, Vec::len);
        if columns == 0 || payoff.iter().any(|row| row.len() != columns) {
            return Err("a matrix game needs rows of one non-zero length".to_string());
        }
        if payoff.iter().flatten().any(|v| !(-1.0..=1.0).contains(v)) {
            return Err("matrix game payoffs must lie in [-1, 1]".to_string());
        }
        let row_names = (0..payoff.len()).map(|i| format!("r{i}")).collect();
        let column_names = (0..columns).map(|j| format!("c{j}")).collect();
        Ok(Self { payoff, row_names, column_names, played: None })
    }

    /// Rock-paper-scissors: win 1, draw 0, loss -1; its only equilibrium plays each third of the time.
    pub fn rock_paper_scissors() -> Self {
        let payoff = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
        let names: Vec<String> = ["rock", "paper", "scissors"].map(String::from).to_vec();
        Self { payoff, row_names: names.clone(), column_names: names, played: None }
    }

    /// The row player's payoffs.
    pub fn matrix(&self) -> &[Vec<f64>] {
        &self.payoff
    }

    fn names(&self, side: Side) -> &[String] {
        match side {
            Side::First => &self.row_names,
            Side::Second => &self.column_names,
        }
    }
}

impl SimultaneousGame for MatrixGame {
    type Action = usize;

    fn legal_actions(&self, side: Side, actions: &mut Vec<usize>) {
        if self.played.is_none() {
            actions.extend(0..self.names(side).len());
        }
    }

    fn apply(&mut self, row: usize, column: usize) {
        self.played = Some((row, column));
    }

    fn is_terminal(&self) -> bool {
        self.played.is_some()
    }

    fn payoffs(&self) -> [f64; 2] {
        let value = self.played.map_or(0.0, |(i, j)| self.payoff[i][j]);
        [value, -value]
    }

    fn action_text(&self, side: Side, action: usize) -> String {
        self.names(side)[action].clone()
    }

    fn parse_action(&self, side: Side, text: &str) -> Result<usize, String> {
        let names = self.names(side);
        names
            .iter()
            .position(|name| name.eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("'{}' is not one of {}", quote(text), names.join(", ")))
    }
}
