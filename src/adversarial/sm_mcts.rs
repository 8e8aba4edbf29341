//! Simultaneous-move MCTS (SM-MCTS; Lanctot, Lisý and Winands 2013, Bošanský et al. 2016) for
//! [`SimultaneousGame`]s.
//!
//! A node's children are joint actions. Selection is decoupled: each player picks its own action
//! from its own statistics, which pool every joint action it took part in, and the pair chosen
//! leads to the child. Two rules:
//! - **Decoupled UCT**: each player maximises UCB1 over its own mean rewards. Deterministic, so an
//!   opponent can steer it; the final move is the most visited action.
//! - **Regret matching**: each player keeps a regret per action, updated from importance-weighted
//!   rewards, plays in proportion to the positive regrets mixed with γ of uniform exploration, and
//!   the final strategy is the mixed strategy from the visit counts with the exploration taken out
//!   (n(a) − γN/|A|, clamped at 0, normalised); its average converges to an equilibrium in
//!   zero-sum matrix games.
//!
//! One iteration selects down to a node never visited, expands it (its actions), plays random joint
//! actions out from it (up to the cut-off, then the game's estimate), and backs the payoffs up.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::sm_mcts_trace::{PlayoutEnd, SmMctsEvent};
use crate::games::Side;
use crate::games::simultaneous::{SIDES, SimultaneousGame};
use crate::trace::{Control, Tracer};

/// How each player picks its action at a node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum SelectionRule {
    /// UCB1 on the player's own mean reward (rescaled to [0, 1]) with exploration constant C.
    DecoupledUct { exploration: f64 },
    /// Regret matching mixed with `exploration` (γ) of uniform play.
    RegretMatching { exploration: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SmMctsConfig {
    pub rule: SelectionRule,
    pub iterations: u64,
    /// Random turns a playout plays before the game's estimate is taken; `None` plays to the end.
    pub playout_cutoff: Option<u32>,
    pub seed: u64,
}

impl Default for SmMctsConfig {
    fn default() -> Self {
        Self {
            rule: SelectionRule::RegretMatching { exploration: 0.05 },
            iterations: 10_000,
            playout_cutoff: None,
            seed: 0,
        }
    }
}

/// One player's statistics for one of its actions at a node.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionStats {
    pub visits: u32,
    /// Sum of the player's payoffs over those visits.
    pub reward_sum: f64,
    /// Cumulative regret (regret matching only).
    pub regret: f64,
}

/// The statistics of one joint action at a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    pub visits: u32,
    /// Sums of the payoffs of `[First, Second]`.
    pub reward_sum: [f64; 2],
    /// The node the pair leads to.
    pub child: u32,
}

/// A node's statistics: per player and action, and per joint action tried.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointStats {
    pub visits: u32,
    /// `sides[p][a]`: player p's action a.
    pub sides: [Vec<ActionStats>; 2],
    /// Joint actions tried, keyed by `row * columns + column`.
    pairs: HashMap<u32, PairStats>,
}

impl JointStats {
    pub fn new(rows: usize, columns: usize) -> Self {
        Self {
            visits: 0,
            sides: [vec![ActionStats::default(); rows], vec![ActionStats::default(); columns]],
            pairs: HashMap::new(),
        }
    }

    fn key(&self, row: usize, column: usize) -> u32 {
        (row * self.sides[1].len() + column) as u32
    }

    /// The statistics of the joint action `(row, column)`, if it was tried.
    pub fn pair(&self, row: usize, column: usize) -> Option<&PairStats> {
        self.pairs.get(&self.key(row, column))
    }

    /// Records the child a newly tried pair leads to.
    pub(crate) fn link(&mut self, row: usize, column: usize, child: u32) {
        let key = self.key(row, column);
        self.pairs.insert(key, PairStats { visits: 0, reward_sum: [0.0; 2], child });
    }

    /// Takes back [`JointStats::link`] (a replay stepping back).
    pub(crate) fn unlink(&mut self, row: usize, column: usize) {
        let key = self.key(row, column);
        self.pairs.remove(&key);
    }

    /// Roughly the bytes held on the heap.
    pub fn footprint(&self) -> usize {
        let actions = self.sides.iter().map(Vec::len).sum::<usize>() * std::mem::size_of::<ActionStats>();
        actions + self.pairs.len() * (std::mem::size_of::<PairStats>() + 8)
    }

    /// The rule's current strategy for `side` (the probabilities it samples from; for UCT, which
    /// picks deterministically, the visit shares).
    pub fn current_strategy(&self, side: Side, rule: SelectionRule) -> Vec<f64> {
        let stats = &self.sides[side_slot(side)];
        match rule {
            SelectionRule::RegretMatching { exploration } => regret_matching(stats, exploration),
            SelectionRule::DecoupledUct { .. } => visit_shares(stats, 0.0),
        }
    }

    /// The strategy the search plays at this node: visit shares, without regret matching's
    /// exploration.
    pub fn final_strategy(&self, side: Side, rule: SelectionRule) -> Vec<f64> {
        let gamma = match rule {
            SelectionRule::RegretMatching { exploration } => exploration,
            SelectionRule::DecoupledUct { .. } => 0.0,
        };
        visit_shares(&self.sides[side_slot(side)], gamma)
    }

    /// Backs up the payoffs of one iteration that took the pair `(row, column)` here.
    pub fn update(&mut self, row: usize, column: usize, payoffs: [f64; 2], rule: SelectionRule) {
        self.visits += 1;
        let key = self.key(row, column);
        let pair = self.pairs.get_mut(&key).expect("a pair is linked before it is backed up");
        pair.visits += 1;
        pair.reward_sum[0] += payoffs[0];
        pair.reward_sum[1] += payoffs[1];
        for (slot, chosen) in [row, column].into_iter().enumerate() {
            let reward = payoffs[slot];
            if let SelectionRule::RegretMatching { exploration } = rule {
                // The chosen action's reward, importance-weighted by its sampling probability,
                // estimates each action's value (0 for the others); regret is that minus the reward got.
                let played = regret_matching(&self.sides[slot], exploration)[chosen];
                for (a, stats) in self.sides[slot].iter_mut().enumerate() {
                    let estimate = if a == chosen { reward / played } else { 0.0 };
                    stats.regret += estimate - reward;
                }
            }
            let stats = &mut self.sides[slot][chosen];
            stats.visits += 1;
            stats.reward_sum += reward;
        }
    }
}

fn side_slot(side: Side) -> usize {
    crate::games::simultaneous::side_index(side)
}

/// Regret matching's sampling distribution: positive regrets normalised (uniform when none is
/// positive), mixed with `gamma` of uniform.
fn regret_matching(stats: &[ActionStats], gamma: f64) -> Vec<f64> {
    let uniform = 1.0 / stats.len() as f64;
    let positive: f64 = stats.iter().map(|s| s.regret.max(0.0)).sum();
    stats
        .iter()
        .map(|s| {
            let matched = if positive > 0.0 { s.regret.max(0.0) / positive } else { uniform };
            (1.0 - gamma) * matched + gamma * uniform
        })
        .collect()
}

/// Visit shares with `gamma` of uniform exploration taken out: n(a) − γN/|A|, clamped at 0 and
/// normalised (plain shares when nothing is left, uniform before any visit).
fn visit_shares(stats: &[ActionStats], gamma: f64) -> Vec<f64> {
    let total: f64 = stats.iter().map(|s| f64::from(s.visits)).sum();
    if total == 0.0 {
        return vec![1.0 / stats.len() as f64; stats.len()];
    }
    let floor = gamma * total / stats.len() as f64;
    let kept: Vec<f64> = stats.iter().map(|s| (f64::from(s.visits) - floor).max(0.0)).collect();
    let sum: f64 = kept.iter().sum();
    if sum > 0.0 {
        kept.iter().map(|k| k / sum).collect()
    } else {
        stats.iter().map(|s| f64::from(s.visits) / total).collect()
    }
}

/// Decoupled UCT's pick for one player: an untried action at random, else the best UCB1 score.
fn ucb_pick(stats: &[ActionStats], node_visits: u32, exploration: f64, rng: &mut StdRng) -> usize {
    let untried: Vec<usize> = (0..stats.len()).filter(|&a| stats[a].visits == 0).collect();
    if !untried.is_empty() {
        return untried[rng.random_range(0..untried.len())];
    }
    let log_n = f64::from(node_visits.max(1)).ln();
    let score = |s: &ActionStats| {
        let mean01 = (s.reward_sum / f64::from(s.visits) + 1.0) / 2.0;
        mean01 + exploration * (log_n / f64::from(s.visits)).sqrt()
    };
    (0..stats.len()).max_by(|&a, &b| score(&stats[a]).total_cmp(&score(&stats[b])).then(b.cmp(&a))).unwrap_or(0)
}

fn sample(probabilities: &[f64], rng: &mut StdRng) -> usize {
    let mut left = rng.random::<f64>();
    for (i, &p) in probabilities.iter().enumerate() {
        if left < p {
            return i;
        }
        left -= p;
    }
    probabilities.len() - 1
}

struct Node<A> {
    stats: JointStats,
    /// `None` until the node's first visit.
    actions: Option<[Vec<A>; 2]>,
}

/// What a search found at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct SmMctsResult<A> {
    /// Each player's legal actions at the root, in the game's order.
    pub actions: [Vec<A>; 2],
    /// Each player's final strategy over those actions.
    pub strategies: [Vec<f64>; 2],
    /// The action each player plays: the most visited (UCT) or one drawn from the strategy
    /// (regret matching); `None` when the game is over.
    pub chosen: [Option<A>; 2],
    pub root: JointStats,
    pub iterations: u64,
    pub nodes: usize,
}

/// Runs SM-MCTS from `game` for the configured iterations (or until the tracer says stop).
pub fn search<G: SimultaneousGame, T: Tracer<SmMctsEvent>>(
    game: &G,
    config: &SmMctsConfig,
    tracer: &mut T,
) -> SmMctsResult<G::Action> {
    let mut search = Search {
        nodes: vec![Node { stats: JointStats::default(), actions: None }],
        config,
        rng: StdRng::seed_from_u64(config.seed),
        lists: Default::default(),
    };
    let mut iterations = 0;
    if !game.is_terminal() {
        while iterations < config.iterations && tracer.control() == Control::Continue {
            search.iterate(game, tracer);
            iterations += 1;
        }
    }
    search.finish(game, iterations)
}

struct Search<'a, A> {
    nodes: Vec<Node<A>>,
    config: &'a SmMctsConfig,
    rng: StdRng,
    /// Reused action lists for playouts.
    lists: [Vec<A>; 2],
}

impl<A: Copy> Search<'_, A> {
    fn iterate<G: SimultaneousGame<Action = A>, T: Tracer<SmMctsEvent>>(&mut self, root: &G, tracer: &mut T) {
        let mut state = root.clone();
        let (mut path, mut pairs) = (vec![0u32], Vec::new());
        let mut node = 0;
        while !state.is_terminal() && self.nodes[node].actions.is_some() {
            let (row, column) = self.select(node);
            let actions = self.nodes[node].actions.as_ref().expect("the loop checked");
            let (first, second) = (actions[0][row], actions[1][column]);
            pairs.push((row as u16, column as u16));
            state.apply(first, second);
            let child = match self.nodes[node].stats.pair(row, column) {
                Some(pair) => pair.child,
                None => {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(Node { stats: JointStats::default(), actions: None });
                    self.nodes[node].stats.link(row, column, child);
                    child
                }
            };
            path.push(child);
            node = child as usize;
        }
        tracer.record(|| SmMctsEvent::Select { path: path.clone(), pairs: pairs.clone() });
        let payoffs = if state.is_terminal() {
            let payoffs = state.payoffs();
            let end = PlayoutEnd::GameOver;
            tracer.record(|| SmMctsEvent::Playout { node: node as u32, turns: 0, payoffs, end });
            payoffs
        } else {
            self.expand(node, &state, tracer);
            self.playout(node as u32, &mut state, tracer)
        };
        let rule = self.config.rule;
        for (&node, &(row, column)) in path.iter().zip(&pairs) {
            self.nodes[node as usize].stats.update(row.into(), column.into(), payoffs, rule);
        }
        self.nodes[node].stats.visits += 1;
        tracer.record(|| SmMctsEvent::Backpropagate { path, pairs, payoffs });
    }

    fn expand<G: SimultaneousGame<Action = A>, T: Tracer<SmMctsEvent>>(
        &mut self,
        node: usize,
        state: &G,
        tracer: &mut T,
    ) {
        let lists = SIDES.map(|side| {
            let mut list = Vec::new();
            state.legal_actions(side, &mut list);
            list
        });
        let n = &mut self.nodes[node];
        n.stats = JointStats::new(lists[0].len(), lists[1].len());
        tracer.record(|| SmMctsEvent::Expand {
            node: node as u32,
            actions: [0, 1].map(|p| lists[p].iter().map(|&a| state.action_text(SIDES[p], a)).collect()),
        });
        n.actions = Some(lists);
    }

    fn select(&mut self, node: usize) -> (usize, usize) {
        let stats = &self.nodes[node].stats;
        let mut pick = |slot: usize| match self.config.rule {
            SelectionRule::DecoupledUct { exploration } => {
                ucb_pick(&stats.sides[slot], stats.visits, exploration, &mut self.rng)
            }
            SelectionRule::RegretMatching { exploration } => {
                sample(&regret_matching(&stats.sides[slot], exploration), &mut self.rng)
            }
        };
        (pick(0), pick(1))
    }

    /// Random joint actions from `state` to the end or the cut-off; the payoffs reached.
    fn playout<G: SimultaneousGame<Action = A>, T: Tracer<SmMctsEvent>>(
        &mut self,
        node: u32,
        state: &mut G,
        tracer: &mut T,
    ) -> [f64; 2] {
        let mut turns = 0;
        while !state.is_terminal() && self.config.playout_cutoff.is_none_or(|cut| turns < cut) {
            let [first, second] = [0, 1].map(|p| {
                let list = &mut self.lists[p];
                list.clear();
                state.legal_actions(SIDES[p], list);
                list[self.rng.random_range(0..list.len())]
            });
            state.apply(first, second);
            turns += 1;
        }
        let (payoffs, end) = if state.is_terminal() {
            (state.payoffs(), PlayoutEnd::GameOver)
        } else {
            (state.estimate(), PlayoutEnd::CutOff)
        };
        tracer.record(|| SmMctsEvent::Playout { node, turns, payoffs, end });
        payoffs
    }

    fn finish<G: SimultaneousGame<Action = A>>(mut self, game: &G, iterations: u64) -> SmMctsResult<A> {
        let nodes = self.nodes.len();
        let rule = self.config.rule;
        let root = std::mem::replace(&mut self.nodes[0], Node { stats: JointStats::default(), actions: None });
        let (actions, stats) = match root.actions {
            Some(actions) => (actions, root.stats),
            None => {
                let actions = SIDES.map(|side| {
                    let mut list = Vec::new();
                    game.legal_actions(side, &mut list);
                    list
                });
                let stats = JointStats::new(actions[0].len(), actions[1].len());
                (actions, stats)
            }
        };
        let strategies = SIDES.map(|side| stats.final_strategy(side, rule));
        let chosen = [0, 1].map(|p| {
            if actions[p].is_empty() {
                return None;
            }
            let index = match rule {
                SelectionRule::DecoupledUct { .. } => most_visited(&stats.sides[p]),
                SelectionRule::RegretMatching { .. } => sample(&strategies[p], &mut self.rng),
            };
            Some(actions[p][index])
        });
        SmMctsResult { actions, strategies, chosen, root: stats, iterations, nodes }
    }
}

/// The most visited action, ties to the better mean.
fn most_visited(stats: &[ActionStats]) -> usize {
    let mean = |s: &ActionStats| if s.visits == 0 { f64::NEG_INFINITY } else { s.reward_sum / f64::from(s.visits) };
    (0..stats.len())
        .max_by(|&a, &b| stats[a].visits.cmp(&stats[b].visits).then(mean(&stats[a]).total_cmp(&mean(&stats[b]))))
        .unwrap_or(0)
}
