//! HPA* and PRA* in the grid lab: chosen, drawn and tabulated against A* through the labelled
//! controls, on the bundled 64x64 maze.

mod common;

use std::collections::HashSet;

use common::grid_lab::{LabHarness, drag_cells, lab_harness, settle};
use common::ui::click;
use egui_kittest::kittest::{By, Queryable};
use searchlab::app::grid_lab::{Planner, recomputed_text};
use searchlab::grid::MoveRules;
use searchlab::pathfinding::hpa::Hpa;
use searchlab::pathfinding::pra::Pyramid;
use searchlab::trace::{NO_NODE, SearchEvent};

/// The A* replay's path cost (the left search is A* by default).
fn astar_cost(harness: &LabHarness) -> f64 {
    let events = &harness.state().player().trace().events;
    events.iter().find_map(|e| if let SearchEvent::Found { cost, .. } = e { Some(*cost) } else { None }).unwrap()
}

/// Vertices of every mesh drawn in the last frame (HPA*'s borders, entrances and graph are meshes).
fn mesh_vertices(harness: &LabHarness) -> usize {
    harness
        .output()
        .shapes
        .iter()
        .map(|clipped| if let egui::Shape::Mesh(mesh) = &clipped.shape { mesh.vertices.len() } else { 0 })
        .sum()
}

fn select(harness: &mut LabHarness, label: &str) {
    click(harness, label);
    settle(harness);
}

#[test]
fn hpa_beside_astar_tabulates_expansions_per_level_and_suboptimality() {
    let mut harness = lab_harness();
    assert_eq!(harness.state().hierarchy(), None, "no planner until one is picked");
    select(&mut harness, "HPA*");
    let summary = harness.state().hierarchy().expect("planned with the A* search");
    assert_eq!(summary.planner, Planner::Hpa);
    assert_eq!(summary.astar_cost, Some(astar_cost(&harness)), "the A* column is the replayed query");
    let (cost, optimal) = (summary.cost.unwrap(), summary.astar_cost.unwrap());
    assert!(cost >= optimal - 1e-9 && cost <= optimal * 1.1, "{cost} vs {optimal}");
    // The grid (linking + refinement) and level 1 (the abstract search) both did work.
    assert_eq!(summary.expanded_per_level.len(), 2);
    assert!(summary.expanded_per_level.iter().all(|&n| n > 0), "{:?}", summary.expanded_per_level);
    for label in ["HPA* (hierarchical)", "A* (flat)", "Pre-processing", "Query time", "Expanded on the grid", "Expanded on level 1", "Path cost", "Suboptimality"] {
        harness.get_by_label(label);
    }
    harness.get_by_label(&format!("{:.2} %", summary.suboptimality().unwrap()));
    harness.get(By::new().label_contains("(built)"));
    assert!(harness.query_by_label("Expanded on level 2").is_none());

    select(&mut harness, "2 levels");
    let two = harness.state().hierarchy().unwrap();
    assert_eq!(two.expanded_per_level.len(), 3);
    harness.get_by_label("Expanded on level 2");
    assert!(two.expanded_per_level[2] > 0, "the top search runs on level 2");
}

#[test]
fn layer_checkboxes_switch_what_is_drawn() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    let grid = harness.state().grid().clone();
    // Each drawn segment or entrance square is one quad of 4 vertices; the whole map is in view.
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
    let undirected_edges = hpa.abstract_edges(1).filter(|e| e.0 < e.1).count();
    let before = mesh_vertices(&harness);
    assert!(!harness.state().settings().hierarchy.layers.graph, "the graph starts hidden");
    click(&mut harness, "Abstract graph");
    assert!(harness.state().settings().hierarchy.layers.graph);
    assert_eq!(mesh_vertices(&harness) - before, 4 * undirected_edges);
    // Six inner borders each way on a 64-cell map in clusters of 10.
    let before = mesh_vertices(&harness);
    click(&mut harness, "Cluster borders");
    assert_eq!(before - mesh_vertices(&harness), 4 * 12);
    let before = mesh_vertices(&harness);
    click(&mut harness, "Entrances (transitions)");
    assert_eq!(before - mesh_vertices(&harness), 4 * 2 * hpa.transitions(1).count());
}

#[test]
fn a_wall_edit_recomputes_the_clusters_around_it() {
    let mut harness = lab_harness();
    select(&mut harness, "HPA*");
    let before = harness.state().grid().clone();
    let (_, path) = harness.state().player().trace().events.iter().find_map(|e| match e {
        SearchEvent::Found { cost, path } => Some((*cost, path.clone())),
        _ => None,
    }).unwrap();
    click(&mut harness, "Wall");
    let (a, b) = (path[path.len() / 2], path[path.len() / 2 + 1]);
    drag_cells(&mut harness, a, b);
    settle(&mut harness);
    let lab = harness.state();
    let walled: Vec<u32> =
        (0..before.cell_count() as u32).filter(|&c| before.is_cell_passable(c) && !lab.grid().is_cell_passable(c)).collect();
    assert!(!walled.is_empty() && walled.len() <= 2, "{walled:?}");
    // Each edited cell's 10x10 cluster and its four neighbours on the 7x7 cluster grid.
    let mut expected = HashSet::new();
    for &cell in &walled {
        let (x, y) = before.coords(cell);
        let (cx, cy) = ((x / 10) as i32, (y / 10) as i32);
        for (dx, dy) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            if (0..7).contains(&(cx + dx)) && (0..7).contains(&(cy + dy)) {
                expected.insert((cx + dx, cy + dy));
            }
        }
    }
    let summary = lab.hierarchy().unwrap();
    assert_eq!(summary.recomputed, Some(vec![expected.len()]));
    harness.get_by_label(&recomputed_text(&[expected.len()]));
    harness.get(By::new().label_contains("(updated)"));
    assert_eq!(summary.astar_cost, Some(astar_cost(&harness)), "both re-planned around the wall");
    assert!(summary.cost.unwrap() >= summary.astar_cost.unwrap() - 1e-9);
}

/// Whether the last frame drew the PRA* region texture over the map.
fn regions_drawn(harness: &LabHarness) -> bool {
    let textures = harness.ctx.tex_manager();
    let textures = textures.read();
    harness.output().shapes.iter().any(|clipped| match &clipped.shape {
        egui::Shape::Mesh(mesh) => textures.meta(mesh.texture_id).is_some_and(|meta| meta.name == "pra-regions"),
        _ => false,
    })
}

#[test]
fn pra_level_slider_recolours_the_regions() {
    let mut harness = lab_harness();
    select(&mut harness, "PRA*");
    assert_eq!(harness.state().hierarchy().unwrap().planner, Planner::Pra);
    let grid = harness.state().grid().clone();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let regions = |level| pyramid.region_map(&grid, level).into_iter().filter(|&r| r != NO_NODE).collect::<HashSet<u32>>().len();
    assert!(regions_drawn(&harness));
    assert_eq!(harness.state().region_count(), regions(1));
    harness.get(By::new().role(egui::Role::Slider).label("Level shown")).set_value_accesskit(4.0);
    harness.run();
    assert_eq!(harness.state().settings().hierarchy.shown_level, 4);
    assert!(regions_drawn(&harness));
    assert_eq!(harness.state().region_count(), regions(4));
    assert!(regions(4) * 8 < regions(1), "each level groups up to 4 nodes");
    click(&mut harness, "Abstract regions");
    assert!(!regions_drawn(&harness), "the checkbox hides the layer");
    harness.get(By::new().label_contains("Level 4"));
}
