//! Grid questions: a small random map with walls and heavier cells, searched 4-connected by the
//! registry's BFS, Dijkstra, A* or greedy best-first with the search recorded as the grid lab
//! records it; the answer is read from that trace.

use rand::Rng;
use rand::rngs::StdRng;

use super::{Answer, Given, Kind, Made, Options, refuse_algorithm, show_number};
use crate::grid::movingai::write_map;
use crate::grid::{Grid, MoveRules};
use crate::pathfinding::planner::Planner;
use crate::pathfinding::registry::Key;
use crate::pathfinding::search_trace::{NodeStatus, SearchEvent, SearchSnapshot};
use crate::pathfinding::{Algorithm, COST_EPSILON, GridSearch, Heuristic, SearchSpace};
use crate::scene::{Lab, MapSource, RunSpec, Scene, Step};
use crate::trace::{NO_NODE, NoTrace, Player, Recorder, Trace};

/// Default and allowed widths; the height is 4/5 of the width.
const DEFAULT_WIDTH: u32 = 10;
const WIDTHS: std::ops::RangeInclusive<u32> = 5..=16;
/// Share of walls and of heavier cells (cost 2 or 3 to enter).
const WALLS: f64 = 0.2;
const HEAVY: f64 = 0.15;
/// Searches with fewer expansions than this make no question.
const MIN_EXPANSIONS: usize = 5;
/// Next-expansion asks after at most this many expansions, so the state fits on paper.
const MAX_SHOWN: usize = 8;
const TRIES: usize = 200;

/// A map, a query and the search that runs on it, recorded.
struct Instance {
    grid: Grid,
    start: u32,
    goal: u32,
    search: GridSearch,
    trace: Trace<SearchEvent>,
}

pub(crate) fn generate(kind: Kind, rng: &mut StdRng, options: &Options) -> Result<Made, String> {
    let allowed: &[&str] = match kind {
        Kind::NextExpansion => &["bfs", "dijkstra", "astar", "greedy"],
        // Only these hold each expanded cell's cheapest g; BFS's and greedy's depend on the order.
        Kind::CellValues => &["dijkstra", "astar"],
        // Greedy's path depends on how it breaks ties.
        _ => &["bfs", "dijkstra", "astar"],
    };
    refuse_algorithm(options, allowed, kind.id())?;
    let width = options.size.unwrap_or(DEFAULT_WIDTH);
    if !WIDTHS.contains(&width) {
        return Err(format!(
            "grid questions take a size (width) from {} to {}, not {width}",
            WIDTHS.start(),
            WIDTHS.end()
        ));
    }
    let algorithm = match &options.algorithm {
        Some(name) => Algorithm::from_id(name).expect("an allowed name"),
        None => Algorithm::from_id(allowed[rng.random_range(0..allowed.len() as u32) as usize]).expect("a name"),
    };
    let search =
        GridSearch { algorithm, heuristic: Heuristic::Manhattan, weight: 1.0, rules: MoveRules::FOUR, reopen: None };
    let instance = instance(rng, width, search)?;
    Ok(match kind {
        Kind::NextExpansion => next_expansion(&instance, rng),
        Kind::CellValues => cell_values(&instance, rng),
        _ => path_cost(&instance),
    })
}

/// A random map and query whose search reaches the goal after enough expansions.
fn instance(rng: &mut StdRng, width: u32, search: GridSearch) -> Result<Instance, String> {
    let height = (width * 4 / 5).max(4);
    for _ in 0..TRIES {
        let mut grid = Grid::new(width, height);
        for y in 0..height {
            for x in 0..width {
                if rng.random_bool(WALLS) {
                    grid.set_passable(x, y, false);
                } else if rng.random_bool(HEAVY) {
                    grid.set_weight(x, y, rng.random_range(2..=3u32) as u8);
                }
            }
        }
        let free = grid.passable_cells();
        if free.len() < 2 {
            continue;
        }
        let pick = |rng: &mut StdRng| free[rng.random_range(0..free.len() as u32) as usize];
        let (start, goal) = (pick(rng), pick(rng));
        if start == goal {
            continue;
        }
        let mut recorder = Recorder::default();
        let result = search.run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
        if result.path.is_some() && result.expanded >= MIN_EXPANSIONS {
            return Ok(Instance { grid, start, goal, search, trace: recorder.finish() });
        }
    }
    Err("no map with a path found: try another seed".to_string())
}

impl Instance {
    fn xy(&self, cell: u32) -> [u32; 2] {
        let (x, y) = self.grid.coords(cell);
        [x, y]
    }

    fn cell_text(&self, cell: u32) -> String {
        let [x, y] = self.xy(cell);
        format!("({x},{y})")
    }

    /// The search's name as the question says it.
    fn search_name(&self) -> String {
        match self.search.algorithm.uses_heuristic() {
            true => format!("{} with the Manhattan heuristic", self.search.algorithm.name()),
            false => self.search.algorithm.name().to_string(),
        }
    }

    /// The map as text: S, G, walls '@', heavier cells by their cost, '.' costs 1.
    fn drawing(&self) -> String {
        let mut rows = Vec::new();
        for y in 0..self.grid.height() {
            let row: String = (0..self.grid.width())
                .map(|x| {
                    let cell = self.grid.cell(x, y);
                    match cell {
                        _ if cell == self.start => 'S',
                        _ if cell == self.goal => 'G',
                        _ if !self.grid.is_cell_passable(cell) => '@',
                        _ if self.grid.weight(cell) > 1 => char::from(b'0' + self.grid.weight(cell)),
                        _ => '.',
                    }
                })
                .collect();
            rows.push(row);
        }
        rows.join("\n")
    }

    /// What every grid question says first.
    fn setting(&self) -> String {
        format!(
            "{} searches this map 4-connected from S {} to G {}. x counts columns from 0 at the left, y rows \
             from 0 at the top; '@' is a wall, a digit the cost of entering that cell, '.' costs 1.\n{}\n",
            self.search_name(),
            self.cell_text(self.start),
            self.cell_text(self.goal),
            self.drawing()
        )
    }

    /// The grid-lab scene of this instance, opened at `step`.
    fn scene(&self, step: Step) -> String {
        let mut scene = Scene::new(Lab::Grid);
        scene.map = Some(MapSource::Inline(write_map(&self.grid)));
        scene.spec = Some(RunSpec::Planner(Planner::flat(self.search)));
        let point = |cell| self.xy(cell).map(f64::from);
        scene.start = Some(point(self.start));
        scene.goal = Some(point(self.goal));
        scene.step = step;
        scene.to_toml()
    }

    /// Each expansion: its event's index and the cell.
    fn expansions(&self) -> Vec<(usize, u32)> {
        let expand = |(i, event): (usize, &SearchEvent)| match event {
            SearchEvent::Expand { node } => Some((i, *node)),
            _ => None,
        };
        self.trace.events.iter().enumerate().filter_map(expand).collect()
    }

    /// The search's state after the first `events` events.
    fn snapshot(&self, events: usize) -> SearchSnapshot {
        let mut player = Player::new(self.trace.clone(), SearchSnapshot::new(self.grid.cell_count()));
        player.seek(events);
        player.view().clone()
    }
}

/// Which open cell comes next, by the search's own order of its open list.
fn next_expansion(instance: &Instance, rng: &mut StdRng) -> Made {
    let expansions = instance.expansions();
    let shown = rng.random_range(1..=(expansions.len() - 1).min(MAX_SHOWN) as u32) as usize;
    let (event, expanded) = expansions[shown];
    let snapshot = instance.snapshot(event);
    let order = instance.search.order();
    let key = |cell: u32| {
        let record = snapshot.node(cell);
        match order.key {
            Key::Arrival => depth(&snapshot, cell) as f64,
            _ => order.priority(record.g, record.h).expect("a best-first key"),
        }
    };
    let open: Vec<u32> =
        (0..instance.grid.cell_count() as u32).filter(|&c| snapshot.node(c).status == NodeStatus::Open).collect();
    let best = open.iter().map(|&c| key(c)).fold(f64::INFINITY, f64::min);
    let tied: Vec<u32> = open.iter().copied().filter(|&c| key(c) <= best + COST_EPSILON).collect();
    let done: Vec<String> = expansions[..shown].iter().map(|&(_, c)| instance.cell_text(c)).collect();
    let text = format!(
        "{}It has expanded {} so far, in that order. Which cell does it expand next? Give [x, y].",
        instance.setting(),
        done.join(", ")
    );
    let (rule, tie_rule) = match order.key {
        Key::Arrival => (
            "BFS takes the oldest cell of its queue: one of the fewest steps from S".to_string(),
            "cells of the same layer (as many steps from S) tie: their order in the queue follows the order \
             neighbours are generated",
        ),
        _ => {
            let name = order.priority_name().expect("a best-first key");
            (
                format!("{} takes the open cell with the lowest {name}, here {}", order.label, show_number(best)),
                match order.key {
                    Key::F { .. } => "cells with the same f tie; searchlab's A* then prefers the larger g",
                    _ => "cells with the same key tie; which one comes first depends on the open list",
                },
            )
        }
    };
    let mut explanation = format!("{rule}.");
    if tied.len() > 1 {
        let names: Vec<String> = tied.iter().map(|&c| instance.cell_text(c)).collect();
        explanation += &format!(" {} tie ({tie_rule}), so any of them is right.", names.join(", "));
    }
    explanation += &format!(" searchlab expanded {}.", instance.cell_text(expanded));
    Made {
        text,
        scene: instance.scene(Step::Index(event)),
        answer: Answer::Cells(tied.iter().map(|&c| instance.xy(c)).collect()),
        explanation,
        show_step: event + 1,
        given: Given::Expanded(expansions[..shown].iter().map(|&(_, c)| instance.xy(c)).collect()),
    }
}

/// Steps from the start along parent links.
fn depth(snapshot: &SearchSnapshot, mut cell: u32) -> usize {
    let mut steps = 0;
    while snapshot.node(cell).parent != NO_NODE {
        cell = snapshot.node(cell).parent;
        steps += 1;
    }
    steps
}

/// g, h and f of a cell when it is expanded: its last opening before its expansion.
fn cell_values(instance: &Instance, rng: &mut StdRng) -> Made {
    let expansions = instance.expansions();
    let (event, cell) = expansions[rng.random_range(1..expansions.len() as u32) as usize];
    let (g, h) = instance.trace.events[..event]
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Open { node, g, h, .. } if *node == cell => Some((*g, *h)),
            _ => None,
        })
        .expect("a cell is opened before it is expanded");
    let text = format!(
        "{}When {} expands cell {}, what are its g, h and f?",
        instance.setting(),
        instance.search.algorithm.name(),
        instance.cell_text(cell)
    );
    let [x, y] = instance.xy(cell);
    let [gx, gy] = instance.xy(instance.goal);
    let h_why = match instance.search.algorithm.uses_heuristic() {
        true => format!("the Manhattan distance to G, |{x}-{gx}| + |{y}-{gy}| = {}", show_number(h)),
        false => "0: Dijkstra uses no heuristic".to_string(),
    };
    let explanation = format!(
        "g = {}: the cheapest cost from S, which a cell holds once it is expanded; h = {h_why}; f = g + h = {}.",
        show_number(g),
        show_number(g + h)
    );
    Made {
        text,
        scene: instance.scene(Step::Index(0)),
        answer: Answer::Values { g, h, f: g + h },
        explanation,
        show_step: event + 1,
        given: Given::Cell(instance.xy(cell)),
    }
}

/// The cost of the path the search returns.
fn path_cost(instance: &Instance) -> Made {
    let (cost, path) = instance
        .trace
        .events
        .iter()
        .find_map(|e| match e {
            SearchEvent::Found { cost, path } => Some((*cost, path.clone())),
            _ => None,
        })
        .expect("the instance's search reaches the goal");
    let text =
        format!("{}What is the cost of the path {} returns?", instance.setting(), instance.search.algorithm.name());
    let steps = path.len() - 1;
    let mut explanation =
        format!("{} returns a path of {steps} steps costing {}", instance.search.algorithm.name(), show_number(cost));
    let cheapest = GridSearch { algorithm: Algorithm::Dijkstra, ..instance.search }
        .run(&instance.grid, instance.start, instance.goal, &mut SearchSpace::new(), &mut NoTrace)
        .cost()
        .expect("the goal is reachable");
    if cost > cheapest + COST_EPSILON {
        explanation += &format!(
            "; it counts steps, not costs: the cheapest path costs {}, over heavier cells' detours",
            show_number(cheapest)
        );
    }
    explanation += ".";
    Made {
        text,
        scene: instance.scene(Step::Index(0)),
        answer: Answer::Number(cost),
        explanation,
        show_step: instance.trace.events.len(),
        given: Given::Nothing,
    }
}
