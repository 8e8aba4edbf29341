//! Multi-agent pathfinding checked by a collision checker and a space-time BFS written here,
//! sharing no code with the planners, on random small instances; and `searchlab agents`.

mod common;

use std::collections::{HashSet, VecDeque};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use searchlab::grid::Grid;
use searchlab::pathfinding::mapf::{Agent, Conflict, MapfEvent, MapfSpec, Plan};
use searchlab::trace::{NoTrace, Recorder};

/// A cell as `(x, y)`; a path as the cell at each time step.
type Xy = (u32, u32);

/// A random grid of 3 to 7 cells a side with up to 35% walls, and 2 to 6 agents on distinct
/// free starts and distinct free goals (not always joined: some agents must fail).
fn random_instance(rng: &mut StdRng) -> (Grid, Vec<Agent>) {
    let (width, height) = (rng.random_range(3..=7), rng.random_range(3..=7));
    let density = rng.random_range(0.0..0.35);
    let mut grid = Grid::new(width, height);
    let mut free = Vec::new();
    for y in 0..height {
        for x in 0..width {
            if rng.random_bool(density) {
                grid.set_passable(x, y, false);
            } else {
                free.push((x, y));
            }
        }
    }
    let count = rng.random_range(2..=6).min(free.len());
    free.shuffle(rng);
    let starts = free[..count].to_vec();
    free.shuffle(rng);
    let agents = starts.iter().zip(&free).map(|(&start, &goal)| Agent { start, goal }).collect();
    (grid, agents)
}

/// The paths as coordinates; `None` for failed agents.
fn xy_paths(grid: &Grid, plan: &Plan) -> Vec<Option<Vec<Xy>>> {
    plan.agents.iter().map(|a| a.path.as_ref().map(|p| p.iter().map(|&c| grid.coords(c)).collect())).collect()
}

fn position(path: &[Xy], t: usize) -> Xy {
    path[t.min(path.len() - 1)]
}

/// Every collision, pair by pair and time by time: `(kind, a, b, t)` with kind 0 for two agents in
/// one cell at `t`, 1 for a swap between `t` and `t + 1`.
fn collisions(paths: &[Option<Vec<Xy>>]) -> Vec<(u8, usize, usize, usize)> {
    let end = paths.iter().flatten().map(|p| p.len() - 1).max().unwrap_or(0);
    let mut found = Vec::new();
    for (a, pa) in paths.iter().enumerate() {
        for (b, pb) in paths.iter().enumerate().skip(a + 1) {
            let (Some(pa), Some(pb)) = (pa, pb) else { continue };
            for t in 0..=end {
                if position(pa, t) == position(pb, t) {
                    found.push((0, a, b, t));
                }
                let moved = position(pa, t) != position(pa, t + 1);
                if t < end && moved && position(pa, t) == position(pb, t + 1) && position(pa, t + 1) == position(pb, t)
                {
                    found.push((1, a, b, t));
                }
            }
        }
    }
    found.sort();
    found
}

/// A path starts at the start, ends at the goal, and each step waits or moves to a free neighbour.
fn assert_walks(grid: &Grid, agent: &Agent, path: &[Xy]) {
    assert_eq!((path[0], *path.last().unwrap()), (agent.start, agent.goal));
    for step in path.windows(2) {
        let ((x0, y0), (x1, y1)) = (step[0], step[1]);
        assert!(x0.abs_diff(x1) + y0.abs_diff(y1) <= 1, "{step:?}");
        assert!(grid.is_passable(x1 as i64, y1 as i64));
    }
}

/// The earliest time `agent` can arrive at its goal and stay, moving around `others` (the paths
/// planned before it), by breadth-first search over `(cell, t)` up to the last arrival of the
/// others plus the free cells: after that the others stand still, and a shortest path through
/// the free cells is shorter than that.
fn earliest_arrival(grid: &Grid, agent: &Agent, others: &[Vec<Xy>]) -> Option<usize> {
    let settled = others.iter().map(|p| p.len() - 1).max().unwrap_or(0);
    let horizon = settled + grid.passable_count();
    let taken = |cell: Xy, t: usize| others.iter().any(|p| position(p, t) == cell);
    let swaps = |from: Xy, to: Xy, t: usize| others.iter().any(|p| position(p, t) == to && position(p, t + 1) == from);
    let stays = |t: usize| (t..=settled.max(t)).all(|later| !taken(agent.goal, later));
    let mut seen = HashSet::from([(agent.start, 0)]);
    let mut queue = VecDeque::from([(agent.start, 0)]);
    while let Some((cell, t)) = queue.pop_front() {
        if cell == agent.goal && stays(t) {
            return Some(t);
        }
        if t == horizon {
            continue;
        }
        let (x, y) = (cell.0 as i64, cell.1 as i64);
        for (nx, ny) in [(x, y), (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if !grid.is_passable(nx, ny) {
                continue;
            }
            let next = (nx as u32, ny as u32);
            if !taken(next, t + 1) && (next == cell || !swaps(cell, next, t)) && seen.insert((next, t + 1)) {
                queue.push_back((next, t + 1));
            }
        }
    }
    None
}

fn conflict_key(conflict: &Conflict) -> (u8, usize, usize, usize) {
    match *conflict {
        Conflict::Vertex { a, b, t, .. } => (0, a, b, t as usize),
        Conflict::Edge { a, b, t, .. } => (1, a, b, t as usize),
    }
}

#[test]
fn plans_on_random_instances_match_the_checker_and_the_space_time_bfs() {
    let mut rng = StdRng::seed_from_u64(51);
    let (mut independent_conflicts, mut cooperative_failures, mut whca_failures, mut waits) = (0, 0, 0, 0);
    for instance in 0..1_200 {
        let (grid, agents) = random_instance(&mut rng);
        let context = format!("instance {instance}: {agents:?} on\n{}", searchlab::grid::movingai::write_map(&grid));

        let independent = MapfSpec::Independent.plan(&grid, &agents, &mut NoTrace);
        let paths = xy_paths(&grid, &independent);
        let mut reported: Vec<_> = independent.conflicts.iter().map(conflict_key).collect();
        reported.sort();
        assert_eq!(reported, collisions(&paths), "{context}");
        independent_conflicts += reported.len();
        for (agent, path) in agents.iter().zip(&paths) {
            // Alone on the map, the earliest arrival is the shortest path's length.
            let alone = earliest_arrival(&grid, agent, &[]);
            assert_eq!(path.as_ref().map(|p| p.len() - 1), alone, "{context}");
        }

        let cooperative = MapfSpec::Cooperative.plan(&grid, &agents, &mut NoTrace);
        let paths = xy_paths(&grid, &cooperative);
        assert_eq!(collisions(&paths), [], "{context}");
        assert!(cooperative.conflicts.is_empty());
        let mut before: Vec<Vec<Xy>> = Vec::new();
        for (i, (agent, path)) in agents.iter().zip(&paths).enumerate() {
            let earliest = earliest_arrival(&grid, agent, &before);
            assert_eq!(path.as_ref().map(|p| p.len() - 1), earliest, "agent {i}, {context}");
            if let Some(path) = path {
                assert_walks(&grid, agent, path);
                waits += path.windows(2).filter(|s| s[0] == s[1]).count();
                before.push(path.clone());
            } else {
                cooperative_failures += 1;
                assert!(cooperative.agents[i].failure.is_some());
            }
        }

        let window = rng.random_range(1..=8);
        let whca = MapfSpec::Whca { window }.plan(&grid, &agents, &mut NoTrace);
        let paths = xy_paths(&grid, &whca);
        assert_eq!(collisions(&paths), [], "window {window}, {context}");
        for (i, (agent, path)) in agents.iter().zip(&paths).enumerate() {
            match path {
                Some(path) => assert_walks(&grid, agent, path),
                None => {
                    whca_failures += 1;
                    assert!(whca.agents[i].failure.is_some());
                }
            }
        }
    }
    // The instances exercise what they check.
    assert!(independent_conflicts > 300, "{independent_conflicts} conflicts");
    assert!(cooperative_failures > 20 && whca_failures > 20, "{cooperative_failures} / {whca_failures} failures");
    assert!(waits > 100, "{waits} waits");
}

#[test]
fn a_recorded_plan_is_the_plan_and_replays_each_search() {
    let grid = Grid::new(5, 3);
    // Head-on in the middle row: agent 1 must step aside.
    let agents = [Agent { start: (0, 1), goal: (4, 1) }, Agent { start: (4, 1), goal: (0, 1) }];
    for spec in [MapfSpec::Independent, MapfSpec::Cooperative, MapfSpec::Whca { window: 4 }] {
        let mut recorder = Recorder::default();
        let plan = spec.plan(&grid, &agents, &mut recorder);
        assert_eq!(plan, spec.plan(&grid, &agents, &mut NoTrace), "{spec}");
        let events = recorder.finish().events;
        let expansions = events.iter().filter(|e| matches!(e, MapfEvent::Expand { .. })).count();
        assert_eq!(expansions, plan.agents.iter().map(|a| a.expanded).sum::<usize>(), "{spec}");
        let found: Vec<&MapfEvent> = events.iter().filter(|e| matches!(e, MapfEvent::Found { .. })).collect();
        assert!(found.len() >= 2, "{spec}: one search per agent at least");
        let parks = events.iter().filter(|e| matches!(e, MapfEvent::Park { .. })).count();
        assert_eq!(parks > 0, spec != MapfSpec::Independent, "{spec}");
    }
    let independent = MapfSpec::Independent.plan(&grid, &agents, &mut NoTrace);
    assert!(!independent.conflicts.is_empty());
    let cooperative = MapfSpec::Cooperative.plan(&grid, &agents, &mut NoTrace);
    assert_eq!((cooperative.sum_of_costs(), cooperative.makespan()), (4 + 6, 6), "agent 1 steps aside twice");
}

/// The lecture's pair on rooms128: two agents swap the ends of row 8 through the door at x = 16.
#[cfg(all(feature = "app", feature = "cli"))]
mod cli {
    use super::*;
    use crate::common::cli::{assert_fails, json_lines, searchlab};
    use crate::common::scratch::ScratchDir;
    use serde_json::Value;

    const ROOMS: &str = "maps/rooms128.map";
    const HEAD_ON: &str = "5,8,27,8;27,8,5,8";

    fn run(agents: &str, spec: &str) -> Value {
        let output = searchlab(&["agents", "--map", ROOMS, "--agents", agents, "--spec", spec]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let mut lines = json_lines(&output);
        assert_eq!(lines.len(), 1);
        lines.remove(0)
    }

    fn json_paths(plan: &Value) -> Vec<Option<Vec<Xy>>> {
        let agents = plan["agents"].as_array().unwrap();
        let paths = agents.iter().map(|agent| {
            let steps = agent["path"].as_array()?;
            let path: Vec<Xy> = steps
                .iter()
                .enumerate()
                .map(|(t, step)| {
                    assert_eq!(step[2], t, "one step per time");
                    (step[0].as_u64().unwrap() as u32, step[1].as_u64().unwrap() as u32)
                })
                .collect();
            assert_eq!(agent["cost"], path.len() - 1);
            Some(path)
        });
        paths.collect()
    }

    #[test]
    fn two_agents_collide_independently_and_not_cooperatively() {
        let grid = searchlab::grid::movingai::load_map(&common::project_map("rooms128.map")).unwrap();
        let agents = [Agent { start: (5, 8), goal: (27, 8) }, Agent { start: (27, 8), goal: (5, 8) }];

        let independent = run(HEAD_ON, "independent");
        let paths = json_paths(&independent);
        let found = collisions(&paths);
        assert!(!found.is_empty());
        assert_eq!(independent["totals"]["conflicts"], found.len());
        assert_eq!(independent["totals"]["sum_of_costs"], 44, "both go straight: 22 steps each");

        for spec in ["cooperative", "whca:window=8"] {
            let plan = run(HEAD_ON, spec);
            let paths = json_paths(&plan);
            assert_eq!(collisions(&paths), [], "{spec}");
            assert_eq!(plan["totals"]["failed"], serde_json::json!([]), "{spec}");
            assert_eq!(plan["totals"]["conflicts"], 0);
            for (agent, path) in agents.iter().zip(&paths) {
                assert_walks(&grid, agent, path.as_ref().unwrap());
            }
            if spec == "cooperative" {
                let first = paths[0].clone().unwrap();
                assert_eq!(first.len() - 1, 22, "the first agent goes straight");
                let second = earliest_arrival(&grid, &agents[1], &[first]);
                assert_eq!(plan["agents"][1]["cost"], second.unwrap());
                assert_eq!(plan["totals"]["makespan"], second.unwrap());
            }
        }
    }

    #[test]
    fn agents_files_random_agents_and_bad_input() {
        let dir = ScratchDir::new("agents");
        let file = dir.write("two.agents", "# sx sy gx gy\n5 8 27 8\n27 8 5 8\n");
        let from_file = run(file.to_str().unwrap(), "cooperative");
        assert_eq!(from_file, run(HEAD_ON, "cooperative"));
        // The first queries of the bundled scenario file as agents (its line 45 repeats a start).
        let bundled = std::fs::read_to_string(common::project_map("rooms128.map.scen")).unwrap();
        let head: Vec<&str> = bundled.lines().take(11).collect();
        let scen_file = dir.write("ten.scen", head.join("\n"));
        let scen = run(scen_file.to_str().unwrap(), "whca:window=16");
        assert_eq!(scen["agents"].as_array().unwrap().len(), 10);
        assert_eq!(scen["agents"][0]["start"], serde_json::json!([124, 61]));
        assert_eq!(collisions(&json_paths(&scen)), []);
        let repeated = dir.write("repeated.scen", bundled);
        assert_fails(
            &["agents", "--map", ROOMS, "--agents", repeated.to_str().unwrap()],
            "repeated.scen:45: start (85,65) is also the start of the agent on line 13",
        );

        let output = searchlab(&["agents", "--map", ROOMS, "--random", "30", "--seed", "7", "--spec", "cooperative"]);
        let plan = &json_lines(&output)[0];
        assert_eq!(plan["agents"].as_array().unwrap().len(), 30);
        assert_eq!(collisions(&json_paths(plan)), []);

        let blocked = dir.write("blocked.agents", "5 8 27 8\n0 0 3 3\n");
        assert_fails(
            &["agents", "--map", ROOMS, "--agents", blocked.to_str().unwrap()],
            "blocked.agents:2: start (0,0)",
        );
        assert_fails(&["agents", "--map", ROOMS, "--agents", "5,8,27,8;5,8,3,3"], "--agents:2: start (5,8) is also");
        assert_fails(&["agents", "--map", ROOMS, "--agents", HEAD_ON, "--spec", "whca:window=0"], "window 0");
        assert_fails(&["agents", "--map", ROOMS, "--agents", "missing.agents"], "missing.agents");
    }
}
