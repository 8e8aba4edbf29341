//! Every question kind's answers against solvers written here (plain BFS/Dijkstra/A*/greedy with
//! their own open lists, plain minimax and alpha-beta over the tree read from the scene, UCB1 by
//! hand), over 1,000 seeds a kind; and the same seed giving the same bytes.

use std::collections::BTreeSet;

use searchlab::quiz::{Kind, Options, generate};
use serde_json::Value;

const SEEDS: u64 = 1000;

fn question(kind: Kind, seed: u64) -> Value {
    let question = generate(kind, seed, &Options::default()).unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
    serde_json::to_value(&question).unwrap()
}

fn scene(question: &Value) -> toml::Table {
    question["scene"].as_str().unwrap().parse().expect("the scene is TOML")
}

// ---------- grids ----------

/// The map and query as read from the scene's own text.
struct Map {
    width: i64,
    height: i64,
    /// 0 for a wall, else the cost of entering the cell.
    cost: Vec<u32>,
    start: (i64, i64),
    goal: (i64, i64),
    algorithm: String,
}

impl Map {
    fn read(question: &Value) -> Map {
        let scene = scene(question);
        let text = scene["map"]["inline"].as_str().unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let number = |key: &str| lines.iter().find_map(|l| l.strip_prefix(key)).unwrap().trim().parse::<i64>().unwrap();
        let (width, height) = (number("width "), number("height "));
        let map_at = lines.iter().position(|l| *l == "map").unwrap() + 1;
        let weights_at = lines.iter().position(|l| *l == "weights").map(|i| i + 1);
        let mut cost = Vec::new();
        for y in 0..height as usize {
            for (x, ch) in lines[map_at + y].chars().enumerate() {
                let weight = weights_at.map_or(1, |at| lines[at + y].as_bytes()[x] - b'0') as u32;
                cost.push(if ch == '@' { 0 } else { weight });
            }
        }
        let point = |key: &str| {
            let p = scene[key].as_array().unwrap();
            (p[0].as_float().unwrap() as i64, p[1].as_float().unwrap() as i64)
        };
        let spec = scene["spec"].as_str().unwrap();
        let algorithm = spec.split(':').next().unwrap().to_string();
        Map { width, height, cost, start: point("start"), goal: point("goal"), algorithm }
    }

    fn index(&self, (x, y): (i64, i64)) -> usize {
        (y * self.width + x) as usize
    }

    fn neighbours(&self, (x, y): (i64, i64)) -> Vec<((i64, i64), f64)> {
        [(0, -1), (1, 0), (0, 1), (-1, 0)]
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < self.width && ny < self.height)
            .filter(|&p| self.cost[self.index(p)] > 0)
            .map(|p| (p, self.cost[self.index(p)] as f64))
            .collect()
    }

    fn manhattan(&self, (x, y): (i64, i64)) -> f64 {
        ((x - self.goal.0).abs() + (y - self.goal.1).abs()) as f64
    }

    /// Cheapest costs from the start: Dijkstra by scanning for the least open cell.
    fn distances(&self) -> Vec<f64> {
        let n = (self.width * self.height) as usize;
        let mut dist = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        dist[self.index(self.start)] = 0.0;
        while let Some(u) =
            (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        {
            done[u] = true;
            let p = (u as i64 % self.width, u as i64 / self.width);
            for (q, c) in self.neighbours(p) {
                let v = self.index(q);
                dist[v] = dist[v].min(dist[u] + c);
            }
        }
        dist
    }
}

/// The search's own open list: g, depth, and whether a cheaper route updates a cell.
struct Search<'a> {
    map: &'a Map,
    g: Vec<f64>,
    depth: Vec<usize>,
    open: BTreeSet<usize>,
    closed: Vec<bool>,
}

impl<'a> Search<'a> {
    fn new(map: &'a Map) -> Self {
        let n = (map.width * map.height) as usize;
        let mut search =
            Search { map, g: vec![f64::INFINITY; n], depth: vec![0; n], open: BTreeSet::new(), closed: vec![false; n] };
        let start = map.index(map.start);
        search.g[start] = 0.0;
        search.open.insert(start);
        search
    }

    fn key(&self, cell: usize) -> f64 {
        let p = (cell as i64 % self.map.width, cell as i64 / self.map.width);
        match self.map.algorithm.as_str() {
            "bfs" => self.depth[cell] as f64,
            "dijkstra" => self.g[cell],
            "astar" => self.g[cell] + self.map.manhattan(p),
            "greedy" => self.map.manhattan(p),
            other => panic!("unexpected algorithm {other}"),
        }
    }

    fn best(&self) -> BTreeSet<usize> {
        let low = self.open.iter().map(|&c| self.key(c)).fold(f64::INFINITY, f64::min);
        self.open.iter().copied().filter(|&c| self.key(c) <= low + 1e-9).collect()
    }

    fn expand(&mut self, cell: usize) {
        assert!(self.best().contains(&cell), "the expansion order shown is one the algorithm can take");
        self.open.remove(&cell);
        self.closed[cell] = true;
        let first_route_only = matches!(self.map.algorithm.as_str(), "bfs" | "greedy");
        let p = (cell as i64 % self.map.width, cell as i64 / self.map.width);
        for (q, c) in self.map.neighbours(p) {
            let v = self.map.index(q);
            let seen = self.g[v].is_finite();
            let better = self.g[cell] + c < self.g[v] - 1e-9;
            if (first_route_only && !seen) || (!first_route_only && better && !self.closed[v]) {
                self.g[v] = self.g[cell] + c;
                self.depth[v] = self.depth[cell] + 1;
                self.open.insert(v);
            }
        }
    }
}

fn cells(value: &Value) -> Vec<(i64, i64)> {
    value.as_array().unwrap().iter().map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap())).collect()
}

#[test]
fn next_expansion_accepts_exactly_the_open_cells_with_the_least_key() {
    let mut ties = 0;
    let mut algorithms = BTreeSet::new();
    for seed in 0..SEEDS {
        let q = question(Kind::NextExpansion, seed);
        let map = Map::read(&q);
        algorithms.insert(map.algorithm.clone());
        let mut search = Search::new(&map);
        for cell in cells(&q["given"]["expanded"]) {
            search.expand(map.index(cell));
        }
        let expected: BTreeSet<usize> = search.best();
        let answer: BTreeSet<usize> = cells(&q["answer"]).into_iter().map(|c| map.index(c)).collect();
        assert_eq!(answer, expected, "seed {seed}: {}", q["question"]);
        ties += usize::from(answer.len() > 1);
    }
    assert_eq!(algorithms.len(), 4, "BFS, Dijkstra, A* and greedy are all asked: {algorithms:?}");
    assert!(ties > 0, "some questions have tied cells");
}

#[test]
fn cell_values_are_the_cheapest_g_and_the_manhattan_h() {
    for seed in 0..SEEDS {
        let q = question(Kind::CellValues, seed);
        let map = Map::read(&q);
        let cell = cells(&serde_json::json!([q["given"]["cell"]]))[0];
        let g = map.distances()[map.index(cell)];
        let h = if map.algorithm == "astar" { map.manhattan(cell) } else { 0.0 };
        let answer = &q["answer"];
        let read = |k: &str| answer[k].as_f64().unwrap();
        assert_eq!((read("g"), read("h"), read("f")), (g, h, g + h), "seed {seed}");
    }
}

#[test]
fn path_costs_are_the_cheapest_or_for_bfs_those_of_a_fewest_step_path() {
    let mut bfs_dearer = 0;
    for seed in 0..SEEDS {
        let q = question(Kind::PathCost, seed);
        let map = Map::read(&q);
        let answer = q["answer"].as_f64().unwrap();
        let cheapest = map.distances()[map.index(map.goal)];
        if map.algorithm != "bfs" {
            assert_eq!(answer, cheapest, "seed {seed}");
            continue;
        }
        // Fewest steps, then the least and most such a path can cost, layer by layer.
        let n = (map.width * map.height) as usize;
        let mut steps = vec![usize::MAX; n];
        let (mut low, mut high) = (vec![f64::INFINITY; n], vec![f64::NEG_INFINITY; n]);
        let start = map.index(map.start);
        (steps[start], low[start], high[start]) = (0, 0.0, 0.0);
        let mut layer = vec![map.start];
        while !layer.is_empty() {
            let mut next = Vec::new();
            for &p in &layer {
                let u = map.index(p);
                for (q, c) in map.neighbours(p) {
                    let v = map.index(q);
                    if steps[v] == usize::MAX {
                        steps[v] = steps[u] + 1;
                        next.push(q);
                    }
                    if steps[v] == steps[u] + 1 {
                        low[v] = low[v].min(low[u] + c);
                        high[v] = high[v].max(high[u] + c);
                    }
                }
            }
            layer = next;
        }
        let goal = map.index(map.goal);
        assert!(
            low[goal] <= answer && answer <= high[goal],
            "seed {seed}: {answer} not in {}..{}",
            low[goal],
            high[goal]
        );
        bfs_dearer += usize::from(answer > cheapest);
    }
    assert!(bfs_dearer > 0, "some BFS paths cost more than the cheapest");
}

// ---------- game trees ----------

#[derive(Debug)]
enum Tree {
    Leaf(i32),
    Inner(Vec<Tree>),
}

fn parse_tree(text: &str) -> Tree {
    fn node(bytes: &[u8], at: &mut usize) -> Tree {
        if bytes[*at] == b'(' {
            *at += 1;
            let mut children = vec![node(bytes, at)];
            while bytes[*at] == b',' {
                *at += 1;
                children.push(node(bytes, at));
            }
            assert_eq!(bytes[*at], b')');
            *at += 1;
            Tree::Inner(children)
        } else {
            let begin = *at;
            while *at < bytes.len() && (bytes[*at] == b'-' || bytes[*at].is_ascii_digit()) {
                *at += 1;
            }
            Tree::Leaf(std::str::from_utf8(&bytes[begin..*at]).unwrap().parse().unwrap())
        }
    }
    node(text.as_bytes(), &mut 0)
}

fn minimax(tree: &Tree, max: bool) -> i32 {
    match tree {
        Tree::Leaf(v) => *v,
        Tree::Inner(children) => {
            let values = children.iter().map(|c| minimax(c, !max));
            if max { values.max().unwrap() } else { values.min().unwrap() }
        }
    }
}

fn leaves(tree: &Tree) -> usize {
    match tree {
        Tree::Leaf(_) => 1,
        Tree::Inner(children) => children.iter().map(leaves).sum(),
    }
}

fn at<'t>(tree: &'t Tree, path: &[u32]) -> &'t Tree {
    path.iter().fold(tree, |node, &i| match node {
        Tree::Inner(children) => &children[i as usize - 1],
        Tree::Leaf(_) => panic!("a path into a leaf"),
    })
}

const BIG: i32 = 1_000_000;

/// Fail-soft alpha-beta in MAX/MIN form: the leaves evaluated (by position) and each node's entry
/// window and returned value, by path.
struct AlphaBeta {
    next_leaf: usize,
    evaluated: Vec<usize>,
    nodes: Vec<(Vec<u32>, i32, i32, i32)>,
}

impl AlphaBeta {
    fn run(tree: &Tree) -> AlphaBeta {
        let mut search = AlphaBeta { next_leaf: 0, evaluated: Vec::new(), nodes: Vec::new() };
        search.node(tree, true, -BIG, BIG, &mut Vec::new());
        search
    }

    fn node(&mut self, tree: &Tree, max: bool, alpha: i32, beta: i32, path: &mut Vec<u32>) -> i32 {
        let children = match tree {
            Tree::Leaf(v) => {
                self.evaluated.push(self.next_leaf);
                self.next_leaf += 1;
                return *v;
            }
            Tree::Inner(children) => children,
        };
        let (mut a, mut b) = (alpha, beta);
        let mut best = if max { -BIG } else { BIG };
        for (i, child) in children.iter().enumerate() {
            path.push(i as u32 + 1);
            let v = self.node(child, !max, a, b, path);
            path.pop();
            if max {
                best = best.max(v);
                a = a.max(v);
            } else {
                best = best.min(v);
                b = b.min(v);
            }
            if a >= b {
                self.next_leaf += children[i + 1..].iter().map(leaves).sum::<usize>();
                break;
            }
        }
        self.nodes.push((path.clone(), alpha, beta, best));
        best
    }
}

fn tree_of(q: &Value) -> Tree {
    parse_tree(scene(q)["tree"].as_str().unwrap())
}

fn path_of(q: &Value) -> Vec<u32> {
    q["given"]["node"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap() as u32).collect()
}

#[test]
fn node_values_are_minimax_values() {
    for seed in 0..SEEDS {
        let q = question(Kind::NodeValue, seed);
        let tree = tree_of(&q);
        let path = path_of(&q);
        let expected = minimax(at(&tree, &path), path.len().is_multiple_of(2));
        assert_eq!(q["answer"].as_f64().unwrap(), expected as f64, "seed {seed}: {}", q["question"]);
    }
}

#[test]
fn pruned_leaves_are_the_ones_plain_alpha_beta_skips() {
    let mut some_pruned = 0;
    for seed in 0..SEEDS {
        let q = question(Kind::PrunedLeaves, seed);
        let tree = tree_of(&q);
        let search = AlphaBeta::run(&tree);
        let expected: Vec<usize> = (0..leaves(&tree)).filter(|i| !search.evaluated.contains(i)).collect();
        let answer: Vec<usize> = q["answer"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        assert_eq!(answer, expected, "seed {seed}: {}", q["question"]);
        some_pruned += usize::from(!answer.is_empty());
    }
    assert!(some_pruned > SEEDS as usize / 2, "most questions prune something: {some_pruned}");
}

#[test]
fn node_bounds_match_plain_fail_soft_alpha_beta_and_hold() {
    let mut relations = BTreeSet::new();
    for seed in 0..SEEDS {
        let q = question(Kind::NodeBound, seed);
        let tree = tree_of(&q);
        let path = path_of(&q);
        let search = AlphaBeta::run(&tree);
        let (_, alpha, beta, value) =
            search.nodes.iter().find(|n| n.0 == path).expect("the node asked about is searched");
        let relation = if value <= alpha {
            "<="
        } else if value >= beta {
            ">="
        } else {
            "exact"
        };
        assert_eq!(q["answer"]["relation"], relation, "seed {seed}: {}", q["question"]);
        assert_eq!(q["answer"]["value"], *value, "seed {seed}");
        let truth = minimax(at(&tree, &path), path.len().is_multiple_of(2));
        match relation {
            "exact" => assert_eq!(truth, *value),
            "<=" => assert!(truth <= *value),
            _ => assert!(truth >= *value),
        }
        relations.insert(relation);
    }
    assert_eq!(relations.len(), 3, "exact values and both bounds are asked");
}

// ---------- UCT ----------

#[test]
fn uct_next_is_the_highest_ucb1_by_hand() {
    let mut ties = 0;
    for seed in 0..SEEDS {
        let q = question(Kind::UctNext, seed);
        let uct = &q["given"]["uct"];
        let c = uct["exploration"].as_f64().unwrap();
        assert_eq!(c, std::f64::consts::SQRT_2, "plain UCT's C");
        let n = uct["root_visits"].as_f64().unwrap();
        let children = uct["children"].as_array().unwrap();
        let visits: f64 = children.iter().map(|c| c["visits"].as_f64().unwrap()).sum();
        assert!(visits <= n, "seed {seed}: children visited {visits} times, the root {n}");
        let scores: Vec<(String, f64)> = children
            .iter()
            .filter(|child| !child["proven_loss"].as_bool().unwrap())
            .map(|child| {
                let (visits, reward) = (child["visits"].as_f64().unwrap(), child["reward"].as_f64().unwrap());
                (child["move"].as_str().unwrap().to_string(), reward / visits + c * (n.ln() / visits).sqrt())
            })
            .collect();
        let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let expected: BTreeSet<String> = scores.iter().filter(|s| s.1 >= best - 1e-9).map(|s| s.0.clone()).collect();
        let answer: BTreeSet<String> =
            q["answer"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(answer, expected, "seed {seed}: {}", q["question"]);
        ties += usize::from(answer.len() > 1);
    }
    assert!(ties > 0, "some questions have tied moves");
}

// ---------- seeds ----------

#[test]
fn the_same_seed_gives_the_same_bytes_and_other_seeds_other_instances() {
    for &kind in Kind::ALL {
        let mut seen = BTreeSet::new();
        for seed in 0..20 {
            let first = generate(kind, seed, &Options::default()).unwrap().to_json();
            assert_eq!(first, generate(kind, seed, &Options::default()).unwrap().to_json(), "{kind} seed {seed}");
            let q: Value = serde_json::from_str(&first).unwrap();
            seen.insert((q["scene"].as_str().unwrap().to_string(), q["question"].as_str().unwrap().to_string()));
        }
        assert_eq!(seen.len(), 20, "{kind}: 20 seeds, 20 different questions");
    }
}

#[test]
fn options_choose_the_algorithm_and_size_and_bad_ones_are_refused() {
    let astar = Options { algorithm: Some("astar".into()), size: Some(12) };
    let q = question_with(Kind::NextExpansion, &astar);
    assert!(q.body.scene.contains("spec = \"astar:manhattan,4conn\""), "{}", q.body.scene);
    assert!(q.body.scene.contains("width 12"), "{}", q.body.scene);
    let deep = Options { algorithm: None, size: Some(4) };
    assert_eq!(at_depth(&question_with(Kind::NodeValue, &deep)), 4);
    let greedy = Options { algorithm: Some("greedy".into()), size: None };
    let refused = generate(Kind::PathCost, 1, &greedy).unwrap_err();
    assert_eq!(refused, "path-cost questions use bfs, dijkstra or astar, not 'greedy'");
    let wide = Options { algorithm: None, size: Some(40) };
    assert!(generate(Kind::CellValues, 1, &wide).unwrap_err().contains("from 5 to 16, not 40"));
    assert!("next".parse::<Kind>().unwrap_err().starts_with("unknown question kind 'next': use next-expansion"));
}

fn question_with(kind: Kind, options: &Options) -> searchlab::quiz::Question {
    generate(kind, 7, options).unwrap()
}

fn at_depth(q: &searchlab::quiz::Question) -> usize {
    let scene: toml::Table = q.body.scene.parse().unwrap();
    let tree = parse_tree(scene["tree"].as_str().unwrap());
    fn height(tree: &Tree) -> usize {
        match tree {
            Tree::Leaf(_) => 0,
            Tree::Inner(children) => 1 + children.iter().map(height).max().unwrap(),
        }
    }
    height(&tree)
}
