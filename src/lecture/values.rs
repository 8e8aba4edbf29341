//! What a cell's recording measures, by name: what `lecture --check --values` prints and what a
//! cell's `expect` is compared with. The names follow the CLI's JSON where the CLI prints the
//! same figure; a cell's second search (`compare`) gives the same names prefixed `compare_`.

use serde_json::{Value, json};

use crate::adversarial::recording::{Recording, Replay};
use crate::adversarial::tree::value_for_first;
use crate::navmesh::merge::ConvexMesh;
use crate::navmesh::tastar::MeshSearchResult;
use crate::pathfinding::PathResult;
use crate::pathfinding::mapf::Plan;
use crate::pathfinding::planner::Answer;

/// A cell's measured values, in the order they are printed.
pub type Values = Vec<(String, Value)>;

/// Fields left out: paths (lists of cells), and times, which differ from run to run.
const LEFT_OUT: [&str; 9] =
    ["path", "refined_path", "abstract_paths", "paths", "corridors", "line_stop", "micros", "millis", "children"];

/// Adds the numbers, flags and texts of `object` (a result as JSON) under `prefix`; a list of
/// numbers gives one value per entry, `name_0`, `name_1`, ...
fn flatten(prefix: &str, object: Value, values: &mut Values) {
    let Value::Object(fields) = object else { return };
    for (name, value) in fields {
        if LEFT_OUT.contains(&name.as_str()) {
            continue;
        }
        match value {
            Value::Array(items) => {
                for (index, item) in items.into_iter().enumerate().filter(|(_, item)| item.is_number()) {
                    values.push((format!("{prefix}{name}_{index}"), item));
                }
            }
            Value::Object(_) | Value::Null => {}
            scalar => values.push((format!("{prefix}{name}"), scalar)),
        }
    }
}

/// A path's cost and length in nodes, when there is one.
fn path_values(prefix: &str, path: Option<&(f64, Vec<u32>)>, values: &mut Values) {
    if let Some((cost, nodes)) = path {
        values.push((format!("{prefix}cost"), json!(cost)));
        values.push((format!("{prefix}length"), json!(nodes.len())));
    }
}

/// A flat grid search: its expansions, pushes, cost and path length in cells.
pub fn search_values(prefix: &str, result: &PathResult, values: &mut Values) {
    values.push((format!("{prefix}expanded"), json!(result.expanded)));
    values.push((format!("{prefix}pushed"), json!(result.pushed)));
    path_values(prefix, result.path.as_ref(), values);
}

/// A grid planner's answer: a flat search's values, or a hierarchical planner's figures (as
/// `searchlab path` prints them) with its expansions on every level together.
pub fn answer_values(prefix: &str, answer: &Answer, values: &mut Values) {
    let result = match answer {
        Answer::Flat(result) => return search_values(prefix, result, values),
        Answer::Hpa(result) => serde_json::to_value(result),
        Answer::Pra(result) => serde_json::to_value(result),
    };
    values.push((format!("{prefix}expanded"), json!(answer.expanded())));
    path_values(prefix, answer.path(), values);
    flatten(prefix, result.expect("a result is plain data"), values);
}

/// A polygon search: expansions, improvements, the first and the final path's length, and the
/// triangles the final path runs through (TA*, TRA*) or the polygons searched (Polyanya).
pub fn mesh_values(result: &MeshSearchResult, polygons: Option<&ConvexMesh>, values: &mut Values) {
    values.push(("expanded".to_string(), json!(result.expanded)));
    if let Some(polygons) = polygons {
        values.push(("polygons".to_string(), json!(polygons.len())));
    }
    values.push(("improvements".to_string(), json!(result.improvements)));
    if let Some(first) = result.first_length {
        values.push(("first_length".to_string(), json!(first)));
    }
    if let Some(path) = &result.path {
        values.push(("length".to_string(), json!(path.length)));
        if polygons.is_none() {
            values.push(("triangles".to_string(), json!(path.channel.len())));
        }
    }
}

/// A multi-agent plan's totals, as `searchlab agents` prints them.
pub fn agents_values(plan: &Plan, values: &mut Values) {
    values.push(("agents".to_string(), json!(plan.agents.len())));
    values.push(("sum_of_costs".to_string(), json!(plan.sum_of_costs())));
    values.push(("makespan".to_string(), json!(plan.makespan())));
    values.push(("expanded".to_string(), json!(plan.expanded())));
    values.push(("conflicts".to_string(), json!(plan.conflicts.len())));
    values.push(("failed".to_string(), json!(plan.failed().len())));
}

/// A game-tree recording at its end: the search's counters, the root's value for the side moving
/// first (MAX) and the best move; UCT's counters and each root move's visits (`visits_c3`).
pub fn game_tree_values(recording: &mut Recording, values: &mut Values) {
    recording.seek(usize::MAX);
    match &recording.replay {
        Replay::Tree(replay) => {
            let stats = &replay.stats;
            flatten("", serde_json::to_value(stats).expect("plain data"), values);
            if let Some(rate) = stats.first_move_cutoff_rate() {
                values.push(("first_move_cutoffs_percent".to_string(), json!(100.0 * rate)));
            }
            let view = replay.player.view();
            if let Some(root) = replay.root()
                && let Some(value) = view.node(root).value()
            {
                let node = view.node(root);
                values.push(("value".to_string(), json!(value_for_first(value, node.side, view.perspective))));
            }
            if let Some((moves, _)) = &view.pv {
                values.extend(moves.first().map(|mv| ("best_move".to_string(), json!(mv))));
                values.push(("pv".to_string(), json!(moves.join(" "))));
            }
        }
        Replay::Mcts(replay) => {
            flatten("", serde_json::to_value(&replay.stats).expect("plain data"), values);
            values.extend(replay.pv.first().map(|mv| ("best_move".to_string(), json!(mv))));
            for child in &replay.stats.children {
                values.push((format!("visits_{}", child.mv), json!(child.visits)));
            }
        }
    }
}
