//! The collisions of a plan. Agent `a` is at `path[t]` at time `t` and at its last cell from its
//! arrival on; agents without a path take no part. A vertex conflict is two agents in one cell
//! at one time `t` (once per time step they share it); an edge conflict is two agents swapping
//! cells between `t` and `t + 1`. After the last arrival nothing moves, so times run up to it.

use std::collections::HashMap;

use crate::grid::Grid;

/// One collision between agents `a < b`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Conflict {
    /// Both at `cell` at time `t`.
    Vertex { a: usize, b: usize, cell: (u32, u32), t: u32 },
    /// `a` moves `from -> to` and `b` moves `to -> from` between `t` and `t + 1`.
    Edge { a: usize, b: usize, from: (u32, u32), to: (u32, u32), t: u32 },
}

impl Conflict {
    /// As `searchlab agents` prints it: `{"kind": "vertex", "a": 0, ...}`.
    pub fn to_json(&self) -> serde_json::Value {
        match *self {
            Conflict::Vertex { a, b, cell, t } => {
                serde_json::json!({ "kind": "vertex", "a": a, "b": b, "cell": [cell.0, cell.1], "t": t })
            }
            Conflict::Edge { a, b, from, to, t } => serde_json::json!({
                "kind": "edge", "a": a, "b": b, "from": [from.0, from.1], "to": [to.0, to.1], "t": t
            }),
        }
    }

    /// The two agents, the first before the second in priority.
    pub fn agents(&self) -> (usize, usize) {
        match *self {
            Conflict::Vertex { a, b, .. } | Conflict::Edge { a, b, .. } => (a, b),
        }
    }
}

/// Every conflict of `paths` (one per agent, `None` for an agent left out), by time, vertex
/// conflicts before edge conflicts, then by agents.
pub fn conflicts(grid: &Grid, paths: &[Option<&[u32]>]) -> Vec<Conflict> {
    let at = |path: &[u32], t: u32| path[(t as usize).min(path.len() - 1)];
    let planned: Vec<(usize, &[u32])> =
        paths.iter().enumerate().filter_map(|(i, path)| path.filter(|p| !p.is_empty()).map(|p| (i, p))).collect();
    let end = planned.iter().map(|(_, path)| path.len() as u32 - 1).max().unwrap_or(0);
    let mut found = Vec::new();
    let mut occupants: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut moves: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for t in 0..=end {
        occupants.clear();
        for &(i, path) in &planned {
            occupants.entry(at(path, t)).or_default().push(i);
        }
        let mut vertex: Vec<Conflict> = occupants
            .iter()
            .flat_map(|(&cell, agents)| {
                let cell = grid.coords(cell);
                agents
                    .iter()
                    .enumerate()
                    .flat_map(move |(k, &a)| agents[k + 1..].iter().map(move |&b| Conflict::Vertex { a, b, cell, t }))
            })
            .collect();
        vertex.sort_by_key(Conflict::agents);
        found.extend(vertex);
        if t == end {
            break;
        }
        moves.clear();
        for &(i, path) in &planned {
            let (from, to) = (at(path, t), at(path, t + 1));
            if from != to {
                moves.entry((from, to)).or_default().push(i);
            }
        }
        let mut edge = Vec::new();
        for (&(from, to), agents) in &moves {
            let Some(back) = moves.get(&(to, from)) else { continue };
            for &a in agents {
                for &b in back.iter().filter(|&&b| a < b) {
                    edge.push(Conflict::Edge { a, b, from: grid.coords(from), to: grid.coords(to), t });
                }
            }
        }
        edge.sort_by_key(Conflict::agents);
        found.extend(edge);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_and_a_parked_agent_are_conflicts() {
        let grid = Grid::new(4, 1);
        // Agent 0 walks 0 -> 3; agent 1 walks 1 -> 0, swapping with it; agent 2 sits at 2, where
        // agent 0 passes at t = 2.
        let (a, b, c) = ([0, 1, 2, 3], [1, 0], [2]);
        let found = conflicts(&grid, &[Some(&a[..]), Some(&b[..]), Some(&c[..]), None]);
        assert_eq!(
            found,
            [
                Conflict::Edge { a: 0, b: 1, from: (0, 0), to: (1, 0), t: 0 },
                Conflict::Vertex { a: 0, b: 2, cell: (2, 0), t: 2 },
            ]
        );
    }
}
