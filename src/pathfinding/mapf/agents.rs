//! The agents of a multi-agent problem: where each starts and where it goes, in priority order.
//!
//! **Agents file.** Either a MovingAI `.scen` file (first line `version 1`; each query line is an
//! agent, as in the MAPF benchmarks of Stern et al. 2019), or one agent per line as four whole
//! numbers `sx sy gx gy` separated by spaces or commas; blank lines and text after `#` are
//! skipped. Inline, on the command line: `sx,sy,gx,gy;sx,sy,gx,gy;...`, where an error names the
//! agent's number as its line. Every start and goal must be a free cell of the map, no two
//! agents may share a start, and no two a goal.

use std::collections::HashMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::grid::movingai::{self, ParseError, whole_number};
use crate::grid::{Grid, MoveRules};
use crate::text::quote;

/// One agent: start and goal cells as `(x, y)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Agent {
    pub start: (u32, u32),
    pub goal: (u32, u32),
}

impl Agent {
    pub fn start_cell(&self, grid: &Grid) -> u32 {
        grid.cell(self.start.0, self.start.1)
    }

    pub fn goal_cell(&self, grid: &Grid) -> u32 {
        grid.cell(self.goal.0, self.goal.1)
    }
}

/// An agent and the line it came from, for errors.
type Lined = (Agent, usize);

/// Reads an agents file (see the module) for `grid`.
pub fn load_agents(path: &Path, grid: &Grid) -> Result<Vec<Agent>, ParseError> {
    let text = movingai::read_text(path)?;
    parse_agents(&path.display().to_string(), &text, grid)
}

/// Parses the text of an agents file; `file` names it in errors.
pub fn parse_agents(file: &str, text: &str, grid: &Grid) -> Result<Vec<Agent>, ParseError> {
    let text = crate::text::without_bom(text);
    let lined = if text.trim_start().starts_with("version") {
        let scenarios = movingai::parse_scen(file, text)?;
        movingai::check_map_size(file, &scenarios, grid)?;
        scenarios.iter().map(|s| (Agent { start: s.start, goal: s.goal }, s.line)).collect()
    } else {
        let lines = text.lines().enumerate().map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("")));
        parse_lines(file, lines)?
    };
    check(file, lined, grid)
}

/// Parses the inline form `sx,sy,gx,gy;...`; errors name `option` as the file and the agent's
/// number as the line.
pub fn parse_inline(option: &str, text: &str, grid: &Grid) -> Result<Vec<Agent>, ParseError> {
    let lined = parse_lines(option, text.split(';').enumerate().map(|(i, agent)| (i + 1, agent)))?;
    if lined.is_empty() {
        return Err(error(option, 0, "no agents (expected sx,sy,gx,gy;...)"));
    }
    check(option, lined, grid)
}

/// A scene's agents, `[sx, sy, gx, gy]` each, checked as a file's are; an error names the
/// agent by its number from 1.
pub fn from_corners(corners: &[[u32; 4]], grid: &Grid) -> Result<Vec<Agent>, String> {
    let lined =
        corners.iter().zip(1..).map(|(&[sx, sy, gx, gy], line)| (Agent { start: (sx, sy), goal: (gx, gy) }, line));
    check("agents", lined.collect(), grid).map_err(|e| format!("agent {}: {}", e.line, e.message))
}

/// Agents from `(line number, text)` pairs of four numbers; blank texts are skipped.
fn parse_lines<'a>(file: &str, lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Vec<Lined>, ParseError> {
    let mut agents = Vec::new();
    for (line, text) in lines.filter(|(_, text)| !text.trim().is_empty()) {
        let fields: Vec<&str> = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|f| !f.is_empty()).collect();
        let [sx, sy, gx, gy] = fields[..] else {
            let message = format!("expected 4 whole numbers sx sy gx gy, found '{}'", quote(text.trim()));
            return Err(error(file, line, &message));
        };
        let number = |name: &str, value: &str| whole_number(name, value).map_err(|message| error(file, line, &message));
        let agent = Agent {
            start: (number("start x", sx)?, number("start y", sy)?),
            goal: (number("goal x", gx)?, number("goal y", gy)?),
        };
        agents.push((agent, line));
    }
    Ok(agents)
}

/// The agents if every start and goal is a free cell of `grid` and none is shared.
fn check(file: &str, lined: Vec<Lined>, grid: &Grid) -> Result<Vec<Agent>, ParseError> {
    let mut starts = HashMap::new();
    let mut goals = HashMap::new();
    for &(agent, line) in &lined {
        for (name, (x, y), taken) in [("start", agent.start, &mut starts), ("goal", agent.goal, &mut goals)] {
            if !grid.contains(x as i64, y as i64) {
                let message = format!("{name} ({x},{y}) is outside the {}x{} map", grid.width(), grid.height());
                return Err(error(file, line, &message));
            }
            if !grid.is_passable(x as i64, y as i64) {
                return Err(error(file, line, &format!("{name} ({x},{y}) is a blocked cell")));
            }
            if let Some(first) = taken.insert((x, y), line) {
                let message = format!("{name} ({x},{y}) is also the {name} of the agent on line {first}");
                return Err(error(file, line, &message));
            }
        }
    }
    Ok(lined.into_iter().map(|(agent, _)| agent).collect())
}

fn error(file: &str, line: usize, message: &str) -> ParseError {
    ParseError { file: file.to_string(), line, message: message.to_string() }
}

/// Up to `count` agents on distinct free starts and distinct free goals, each goal reachable
/// from its start (4-connected), chosen from `seed`; fewer when the map has too few free cells.
pub fn random_agents(grid: &Grid, count: usize, seed: u64) -> Vec<Agent> {
    let components = grid.components(MoveRules::FOUR);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut starts = grid.passable_cells();
    starts.shuffle(&mut rng);
    let mut goal_taken = vec![false; grid.cell_count()];
    let mut agents = Vec::with_capacity(count);
    for start in starts {
        if agents.len() == count {
            break;
        }
        // The free cells of the start's component not yet a goal, one picked at random.
        let label = components[start as usize];
        let goals: Vec<u32> = (0..grid.cell_count() as u32)
            .filter(|&cell| components[cell as usize] == label && !goal_taken[cell as usize])
            .collect();
        if goals.is_empty() {
            continue;
        }
        let goal = goals[rng.random_range(0..goals.len())];
        goal_taken[goal as usize] = true;
        agents.push(Agent { start: grid.coords(start), goal: grid.coords(goal) });
    }
    agents
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_file_forms_agree_and_errors_name_the_line() {
        let grid = Grid::new(5, 5);
        let inline = parse_inline("--agents", "0,0,4,4; 1,0,3,4", &grid).unwrap();
        let file = parse_agents("a.txt", "# two agents\n0 0 4 4\n\n1,0 3 4 # second\n", &grid).unwrap();
        assert_eq!(inline, file);
        assert_eq!(inline[1], Agent { start: (1, 0), goal: (3, 4) });
        let shared = parse_agents("a.txt", "0 0 4 4\n1 1 4 4\n", &grid).unwrap_err();
        assert_eq!(shared.to_string(), "a.txt:2: goal (4,4) is also the goal of the agent on line 1");
        let outside = parse_inline("--agents", "0,0,1,1;0,9,1,2", &grid).unwrap_err();
        assert_eq!(outside.to_string(), "--agents:2: start (0,9) is outside the 5x5 map");
        assert!(parse_inline("--agents", "1,2,3", &grid).unwrap_err().to_string().contains("expected 4"));
        let scen = "version 1\n0\tm.map\t5\t5\t0\t1\t2\t3\t4\n";
        assert_eq!(parse_agents("s.scen", scen, &grid).unwrap(), [Agent { start: (0, 1), goal: (2, 3) }]);
    }

    #[test]
    fn random_agents_are_distinct_and_connected() {
        let grid = crate::grid::generate::random(12, 12, 0.3, 5);
        let agents = random_agents(&grid, 20, 9);
        assert_eq!(agents.len(), 20);
        let text: Vec<String> =
            agents.iter().map(|a| format!("{},{},{},{}", a.start.0, a.start.1, a.goal.0, a.goal.1)).collect();
        assert_eq!(parse_inline("--agents", &text.join(";"), &grid).unwrap(), agents, "valid input");
        let components = grid.components(MoveRules::FOUR);
        assert!(
            agents.iter().all(|a| components[a.start_cell(&grid) as usize] == components[a.goal_cell(&grid) as usize])
        );
    }
}
