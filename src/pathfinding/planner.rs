//! What to run on a grid, as one value: a flat search (BFS, Dijkstra, A*) or a hierarchical
//! planner (HPA*, PRA*) with the move rules. The CLI, the grid lab and scenes all use it.

use std::fmt;
use std::str::FromStr;

use super::astar::AstarOptions;
use super::hpa::{Hpa, HpaQuery, HpaResult};
use super::plan_trace::{PlanEvent, straight_line};
use super::pra::{PraOptions, PraResult, Pyramid};
use super::{Algorithm, GridSearch, Heuristic, PathResult, SearchSpace};
use crate::grid::{Connectivity, Grid, LineStop, MoveRules};
use crate::spec_text::SpecText;
use crate::text::quote;
use crate::trace::{Mapped, Tracer};

/// The HPA* cluster side when none is given. Measured on 512x512 maps (examples/bench_hierarchy,
/// smoothed, one level), 32 beat 10, 16, 24 and 48: 3.9x A* on random512 (10: 2.3x), 21x on
/// rooms512 (10: 13x), 160x on maze512-32-9 (10: 32x), mean suboptimality at most 0.7% (10:
/// up to 1.2%), measured before wide entrances got a middle transition (which costs up to a third
/// of the speed-up and brings every map tried under 1%). A smaller map simply has fewer clusters.
pub const DEFAULT_CLUSTER: u32 = 32;

/// The most an abstraction may take: HPA*'s and PRA*'s are estimated before they are built and
/// refused above this, in one line, instead of the process running out of memory part way.
pub const ABSTRACTION_LIMIT_BYTES: usize = 2_000_000_000;

/// A grid planner and its move rules.
///
/// Text form: `NAME[:ITEM,...]` with NAME `bfs`, `dijkstra`, `astar`, `hpa` or `pra`. Items:
/// - move rules (any planner): `8conn` (default) or `4conn`; `no-corner-cut` (default, MovingAI)
///   or `corner-cut`;
/// - `astar`: a heuristic `zero|manhattan|octile|euclidean|chebyshev` (default octile, manhattan
///   with `4conn`), `weight=W` (W >= 1, default 1: f = g + W·h) and `reopen=true|false` (default:
///   true for W = 1, false above);
/// - `hpa`: `cluster=C` (2..256 cells, default [`DEFAULT_CLUSTER`]), `levels=L` (1 or 2, default 1), `no-smooth`;
/// - `pra`: `level=L` (the level to plan on, default 1, with `k` half way up to where start and
///   goal share an ancestor), `k=K` (PRA*(k), K >= 1), `width=W` (rings of neighbours around the
///   path above that each corridor takes in, default 2; 0 = the path's own regions; PRA*(k)
///   takes none).
///
/// Examples: `astar`, `astar:octile,weight=1.5,4conn,corner-cut`, `hpa:cluster=16,levels=2`,
/// `pra:k=4`. `Display` writes the canonical form: the heuristic always, other items only when
/// they differ from the default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planner {
    pub method: Method,
    pub rules: MoveRules,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// A flat search of the registry ([`Algorithm`]); the heuristic, weight and reopening are read
    /// only by searches that use them (BFS and Dijkstra keep the defaults).
    Flat {
        algorithm: Algorithm,
        heuristic: Heuristic,
        weight: f64,
        /// `None`: the default for the weight ([`AstarOptions::weighted`]), left out of the text form.
        reopen: Option<bool>,
    },
    Hpa {
        cluster: u32,
        levels: usize,
        smooth: bool,
    },
    Pra(PraOptions),
}

impl Method {
    pub fn name(&self) -> &'static str {
        match self {
            Method::Flat { algorithm, .. } => algorithm.id(),
            Method::Hpa { .. } => "hpa",
            Method::Pra(_) => "pra",
        }
    }
}

impl Default for Planner {
    fn default() -> Self {
        Planner::flat(GridSearch::default())
    }
}

impl Planner {
    /// The planner of a flat search (BFS and Dijkstra drop the heuristic and weight).
    pub fn flat(search: GridSearch) -> Self {
        let GridSearch { algorithm, heuristic, weight, reopen, rules } = search;
        let plain = GridSearch { rules, ..GridSearch::default() };
        let heuristic = if algorithm.uses_heuristic() { heuristic } else { plain.heuristic };
        let weight = if algorithm.uses_weight() { weight } else { plain.weight };
        let reopen = if algorithm.uses_reopen() { canonical_reopen(reopen, weight) } else { None };
        Planner { method: Method::Flat { algorithm, heuristic, weight, reopen }, rules }
    }

    /// Planner `name` with its default options under `rules` (the heuristic follows the rules).
    pub fn named(name: &str, rules: MoveRules) -> Result<Planner, String> {
        let mut planner: Planner = name.parse()?;
        if let Method::Flat { algorithm, heuristic, .. } = &mut planner.method
            && algorithm.uses_heuristic()
        {
            *heuristic = Planner::default_heuristic(rules);
        }
        Ok(Planner { rules, ..planner })
    }

    /// The flat search this is, if it is one.
    pub fn grid_search(&self) -> Option<GridSearch> {
        match self.method {
            Method::Flat { algorithm, heuristic, weight, reopen } => {
                Some(GridSearch { algorithm, heuristic, weight, reopen, rules: self.rules })
            }
            Method::Hpa { .. } | Method::Pra(_) => None,
        }
    }

    pub fn is_hierarchical(&self) -> bool {
        matches!(self.method, Method::Hpa { .. } | Method::Pra(_))
    }

    /// The default heuristic under `rules`: octile, or Manhattan on a 4-connected grid.
    pub fn default_heuristic(rules: MoveRules) -> Heuristic {
        if rules.connectivity == Connectivity::Four { Heuristic::Manhattan } else { Heuristic::Octile }
    }

    /// Checks the values; the message starts with the option's name (also the CLI flag's).
    pub fn validate(&self) -> Result<(), String> {
        match self.method {
            Method::Flat { weight, .. } if !(weight.is_finite() && weight >= 1.0) => {
                Err(format!("weight must be a number >= 1, got {}", crate::text::number(weight)))
            }
            Method::Hpa { cluster, .. } if !(2..=256).contains(&cluster) => {
                Err(format!("cluster must be 2..256 cells, got {cluster}"))
            }
            Method::Hpa { levels, .. } if !(1..=2).contains(&levels) => {
                Err(format!("levels must be 1 or 2, got {levels}"))
            }
            Method::Pra(PraOptions { k: Some(0), .. }) => Err("k must be at least 1".to_string()),
            _ => Ok(()),
        }
    }

    /// Builds what the planner needs on `grid`: nothing for a flat search, the abstraction
    /// otherwise; refuses a PRA* level above the pyramid, and JPS where it cannot search.
    pub fn prepare(&self, grid: &Grid) -> Result<Prepared, String> {
        self.check_rules(grid)?;
        let prepared = self.build(grid);
        if let (Method::Pra(PraOptions { level: Some(level), .. }), Prepared::Pra(pyramid)) = (self.method, &prepared)
            && level >= pyramid.height()
        {
            return Err(format!("level {level} is above the pyramid's top level {}", pyramid.height() - 1));
        }
        Ok(prepared)
    }

    /// Whether the planner can plan on `grid`, else why: what [`Planner::prepare`] refuses, without
    /// building HPA*'s abstraction (PRA*'s pyramid is built only to check a level given).
    pub fn check(&self, grid: &Grid) -> Result<(), String> {
        match self.method {
            Method::Pra(PraOptions { level: Some(_), .. }) => self.prepare(grid).map(drop),
            _ => self.check_rules(grid),
        }
    }

    /// The values, JPS's move rules and ground, and the abstraction's memory (estimated, nothing built).
    pub fn check_rules(&self, grid: &Grid) -> Result<(), String> {
        self.validate()?;
        let (name, bytes, instead) = match self.method {
            Method::Hpa { cluster, .. } => {
                ("HPA*", Hpa::estimate_bytes(grid, self.rules, cluster), "use a larger cluster, or astar or jps")
            }
            Method::Pra(_) => ("PRA*", Pyramid::estimate_bytes(grid), "use hpa with a large cluster, or astar or jps"),
            Method::Flat { .. } => ("", 0, ""),
        };
        if bytes > ABSTRACTION_LIMIT_BYTES {
            return Err(format!(
                "{name} on this {}x{} map would take about {} for its abstraction, over the limit of {}: {instead} (16 bytes a cell)",
                grid.width(),
                grid.height(),
                crate::text::bytes(bytes),
                crate::text::bytes(ABSTRACTION_LIMIT_BYTES)
            ));
        }
        match self.grid_search().and_then(|search| search.refusal(grid)) {
            Some(reason) => Err(reason.to_string()),
            None => Ok(()),
        }
    }

    /// [`Planner::prepare`] without the checks: values out of range are clamped, and a PRA* level
    /// above the pyramid plans on its top.
    pub fn build(&self, grid: &Grid) -> Prepared {
        match self.method {
            Method::Hpa { cluster, levels, .. } => {
                Prepared::Hpa(Hpa::build_levels(grid, self.rules, cluster, levels.clamp(1, 2)))
            }
            Method::Pra(_) => Prepared::Pra(Pyramid::build(grid, self.rules)),
            Method::Flat { .. } => {
                self.grid_search().expect("a flat search").prepare(grid);
                Prepared::Flat
            }
        }
    }

    /// Whether `prepared` was built for this planner (query options such as smoothing may differ).
    pub fn fits(&self, prepared: &Prepared) -> bool {
        match (self.method, prepared) {
            (Method::Hpa { cluster, levels, .. }, Prepared::Hpa(hpa)) => {
                (hpa.cluster_size(), hpa.levels(), hpa.rules()) == (cluster.max(2), levels.clamp(1, 2), self.rules)
            }
            (Method::Pra(_), Prepared::Pra(pyramid)) => pyramid.rules() == self.rules,
            (method, Prepared::Flat) => !matches!(method, Method::Hpa { .. } | Method::Pra(_)),
            _ => false,
        }
    }

    /// The answer a hierarchical planner gives without its abstraction, if it has one: the free
    /// straight line, which HPA* and PRA* try first anyway. Asked before [`Planner::prepare`], so a
    /// query the line answers never waits for a build (71 s on an open 8192x8192 map) or runs out
    /// of memory in it. `None` for a flat search or a blocked line.
    pub fn answer_without_abstraction<T: Tracer<PlanEvent>>(
        &self,
        grid: &Grid,
        start: u32,
        goal: u32,
        tracer: &mut T,
    ) -> Option<Answer> {
        if !self.is_hierarchical() {
            return None;
        }
        let (cost, path) = straight_line(grid, self.rules, start, goal, tracer).ok()?;
        Some(match self.method {
            Method::Hpa { levels, .. } => Answer::Hpa(HpaResult::straight(levels.clamp(1, 2), cost, path)),
            _ => Answer::Pra(PraResult::straight(cost, path)),
        })
    }

    /// Plans from `start` to `goal` on what [`Planner::prepare`] built for this planner; a flat
    /// search's events arrive as [`PlanEvent::Search`].
    pub fn query<T: Tracer<PlanEvent>>(
        &self,
        prepared: &Prepared,
        grid: &Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> Answer {
        assert!(self.fits(prepared), "{self} queried on an abstraction built for another planner");
        match (self.method, prepared) {
            (Method::Hpa { smooth, .. }, Prepared::Hpa(hpa)) => {
                Answer::Hpa(hpa.query(grid, start, goal, HpaQuery { smooth }, space, tracer))
            }
            (Method::Pra(options), Prepared::Pra(pyramid)) => {
                Answer::Pra(pyramid.query(grid, start, goal, options, space, tracer))
            }
            _ => {
                let search = self.grid_search().expect("a flat planner fits only Prepared::Flat");
                Answer::Flat(search.run(grid, start, goal, space, &mut Mapped::new(tracer, PlanEvent::Search)))
            }
        }
    }

    /// Why the planner may miss the optimum, if it may.
    pub fn suboptimality_reason(&self, grid: &Grid) -> Option<String> {
        match self.method {
            Method::Hpa { .. } => Some("HPA* paths are near-optimal, not optimal".to_string()),
            Method::Pra(PraOptions { k: Some(_), .. }) => {
                Some("PRA*(k) returns the first steps of a path, not a whole path".to_string())
            }
            Method::Pra(_) => Some("PRA* paths are near-optimal, not optimal".to_string()),
            _ => self.grid_search().and_then(|search| search.suboptimality_reason(grid.has_weights())),
        }
    }
}

/// What a planner built for one map: HPA*'s or PRA*'s abstraction, nothing for a flat search.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum Prepared {
    Flat,
    Hpa(Hpa),
    Pra(Pyramid),
}

/// One answered query, with each planner's own figures.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum Answer {
    Flat(PathResult),
    Hpa(HpaResult),
    Pra(PraResult),
}

impl Answer {
    pub fn path(&self) -> Option<&(f64, Vec<u32>)> {
        match self {
            Answer::Flat(result) => result.path.as_ref(),
            Answer::Hpa(result) => result.path.as_ref(),
            Answer::Pra(result) => result.path.as_ref(),
        }
    }

    pub fn cost(&self) -> Option<f64> {
        self.path().map(|(cost, _)| *cost)
    }

    /// Nodes expanded on every level together.
    pub fn expanded(&self) -> usize {
        match self {
            Answer::Flat(result) => result.expanded,
            Answer::Hpa(result) => result.insertion_expanded + result.abstract_expanded,
            Answer::Pra(result) => result.expanded_per_level.iter().sum(),
        }
    }

    /// Whether a hierarchical planner returned the free straight line without planning; `None`
    /// for a flat search, which never tries it.
    pub fn straight_line(&self) -> Option<bool> {
        match self {
            Answer::Flat(_) => None,
            Answer::Hpa(result) => Some(result.straight_line),
            Answer::Pra(result) => Some(result.straight_line),
        }
    }

    /// Where a hierarchical planner's straight line stopped, when it was tried and not taken.
    pub fn line_stop(&self) -> Option<&LineStop> {
        match self {
            Answer::Flat(_) => None,
            Answer::Hpa(result) => result.line_stop.as_ref(),
            Answer::Pra(result) => result.line_stop.as_ref(),
        }
    }

    /// False when only the first part of a path was planned (PRA*(k)).
    pub fn complete(&self) -> bool {
        match self {
            Answer::Pra(result) => result.complete,
            _ => true,
        }
    }
}

impl fmt::Display for Planner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        match self.method {
            Method::Flat { algorithm, heuristic, weight, reopen } => {
                if algorithm.uses_heuristic() {
                    items.push(heuristic.name().to_string());
                }
                if weight != 1.0 {
                    items.push(format!("weight={}", crate::text::number(weight)));
                }
                items.extend(reopen.map(|reopen| format!("reopen={reopen}")));
            }
            Method::Hpa { cluster, levels, smooth } => {
                items.push(format!("cluster={cluster}"));
                if levels != 1 {
                    items.push(format!("levels={levels}"));
                }
                if !smooth {
                    items.push("no-smooth".to_string());
                }
            }
            Method::Pra(PraOptions { level, k, width }) => {
                items.extend(level.map(|level| format!("level={level}")));
                items.extend(k.map(|k| format!("k={k}")));
                if width != PraOptions::DEFAULT_WIDTH {
                    items.push(format!("width={width}"));
                }
            }
        }
        if self.rules.connectivity == Connectivity::Four {
            items.push("4conn".to_string());
        }
        if self.rules.corner_cutting {
            items.push("corner-cut".to_string());
        }
        crate::spec_text::write(f, self.method.name(), &items)
    }
}

impl FromStr for Planner {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut spec = SpecText::parse(text)?;
        let connectivity = match spec.one_of(["4conn", "8conn"]) {
            Some("4conn") => Connectivity::Four,
            _ => Connectivity::Eight,
        };
        let corner_cutting = spec.one_of(["corner-cut", "no-corner-cut"]) == Some("corner-cut");
        let rules = MoveRules { connectivity, corner_cutting };
        let method = match spec.name {
            "hpa" => {
                let no_smooth = spec.one_of(["smooth", "no-smooth"]) == Some("no-smooth");
                Method::Hpa {
                    cluster: spec.value("cluster")?.unwrap_or(DEFAULT_CLUSTER),
                    levels: spec.value("levels")?.unwrap_or(1),
                    smooth: !no_smooth,
                }
            }
            "pra" => Method::Pra(PraOptions {
                level: spec.value("level")?,
                k: spec.value("k")?,
                width: spec.value("width")?.unwrap_or(PraOptions::DEFAULT_WIDTH),
            }),
            name => match Algorithm::from_id(name) {
                Some(algorithm) => {
                    let heuristic = if algorithm.uses_heuristic() {
                        let names = Heuristic::ALL.map(Heuristic::name);
                        spec.one_of(names).map_or(Planner::default_heuristic(rules), |name| {
                            Heuristic::ALL.into_iter().find(|h| h.name() == name).expect("one of the names")
                        })
                    } else {
                        Heuristic::Octile
                    };
                    let weight = if algorithm.uses_weight() { spec.value("weight")?.unwrap_or(1.0) } else { 1.0 };
                    let reopen = if algorithm.uses_reopen() { spec.value("reopen")? } else { None };
                    Method::Flat { algorithm, heuristic, weight, reopen: canonical_reopen(reopen, weight) }
                }
                None => return Err(unknown_planner(name)),
            },
        };
        spec.done(Planner { method, rules }, Planner::validate)
    }
}

crate::serde_as_text!(Planner);

/// `reopen` as the text form keeps it: `None` when it is the default for `weight`.
pub fn canonical_reopen(reopen: Option<bool>, weight: f64) -> Option<bool> {
    reopen.filter(|&reopen| reopen != AstarOptions::weighted(weight).reopen)
}

/// The names a planner spec can start with: the registry's flat searches, then HPA* and PRA*.
pub fn planner_names() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|algorithm| algorithm.id()).chain(["hpa", "pra"]).collect()
}

/// Says that `name` names no planner, and how to write a known one given with a comma for its colon.
fn unknown_planner(name: &str) -> String {
    let names = planner_names();
    // "jps,4conn": a known planner with its options after a comma instead of a colon.
    let hint = match name.split_once(',') {
        Some((head, options)) if names.contains(&head) => {
            format!("options follow a colon, as in {head}:{}", quote(options))
        }
        _ => format!("use {}", crate::text::or_list(&names)),
    };
    format!("unknown planner '{}': {hint}", quote(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_reads_defaults_and_writes_the_canonical_form() {
        let planner: Planner = "astar:weight=1.5,4conn,corner-cut".parse().unwrap();
        let four_cutting = MoveRules { connectivity: Connectivity::Four, corner_cutting: true };
        assert_eq!(
            planner,
            Planner {
                method: Method::Flat {
                    algorithm: Algorithm::Astar,
                    heuristic: Heuristic::Manhattan,
                    weight: 1.5,
                    reopen: None
                },
                rules: four_cutting
            }
        );
        assert_eq!(planner.to_string(), "astar:manhattan,weight=1.5,4conn,corner-cut");
        assert_eq!("astar".parse::<Planner>().unwrap(), Planner::default());
        assert_eq!(Planner::default().to_string(), "astar:octile");
        let hpa: Planner = "hpa:levels=2,no-smooth".parse().unwrap();
        assert_eq!(hpa.method, Method::Hpa { cluster: 32, levels: 2, smooth: false });
        assert_eq!(hpa.to_string(), "hpa:cluster=32,levels=2,no-smooth");
        assert_eq!(
            "pra:k=4".parse::<Planner>().unwrap().method,
            Method::Pra(PraOptions { k: Some(4), ..PraOptions::default() })
        );
        for text in
            ["bfs", "dijkstra:4conn", "astar:zero", "hpa:cluster=16", "pra:level=2,k=1,corner-cut", "pra:width=2"]
        {
            assert_eq!(text.parse::<Planner>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn bad_text_is_one_clear_line() {
        for (text, message) in [
            ("dfs", "unknown planner 'dfs'"),
            ("jps,4conn", "unknown planner 'jps,4conn': options follow a colon, as in jps:4conn"),
            ("astar:weight=0.5", "weight must be a number >= 1, got 0.5"),
            ("astar:weight=x", "'weight=x' in 'astar:weight=x' is not a valid value"),
            ("hpa:levels=3", "levels must be 1 or 2"),
            ("hpa:cluster=1", "cluster must be 2..256"),
            ("pra:k=0", "k must be at least 1"),
            ("bfs:octile", "unknown option 'octile' in 'bfs:octile'"),
            ("", "empty spec"),
        ] {
            let error = text.parse::<Planner>().unwrap_err();
            assert!(error.contains(message) && !error.contains('\n'), "{text}: {error}");
        }
    }

    #[test]
    fn each_planner_finds_the_cost_of_a_hand_counted_detour() {
        // A wall across x = 2 with a gap at y = 4: (0,0) to (4,0) goes down through the gap.
        let mut grid = Grid::new(5, 5);
        for y in 0..4 {
            grid.set_passable(2, y, false);
        }
        let (start, goal) = (grid.cell(0, 0), grid.cell(4, 0));
        // (0,0)-(1,4): 3 + sqrt 2; the corner rule forces straight steps (1,4)-(2,4)-(3,4); then
        // (3,4)-(4,0): 3 + sqrt 2.
        let optimal = 8.0 + 2.0 * std::f64::consts::SQRT_2;
        for text in ["dijkstra", "astar", "hpa:cluster=2", "pra"] {
            let prepared = text.parse::<Planner>().unwrap().prepare(&grid).unwrap();
            let planner = text.parse::<Planner>().unwrap();
            let answer =
                planner.query(&prepared, &grid, start, goal, &mut SearchSpace::new(), &mut crate::trace::NoTrace);
            let cost = answer.cost().expect("a path");
            assert!(cost >= optimal - 1e-9, "{text}: {cost}");
            if !text.starts_with("hpa") && !text.starts_with("pra") {
                assert!((cost - optimal).abs() < 1e-9, "{text}: {cost}");
            }
        }
    }
}
