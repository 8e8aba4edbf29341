//! The polygon-map lesson driven through its labelled controls, as a student would.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use searchlab::app::replay_bar::ReplayCommand;
use searchlab::app::theme::Theme;
use searchlab::app::{Lesson, MAPS, MeshAlgorithm, MeshCommand, NavmeshLab, ReplayKind, SearchlabApp};
use searchlab::pathfinding::search_trace::{SearchEvent, SearchOutcome};

use common::navmesh_lab::canvas_colours;
use common::scratch::ScratchDir;
use common::ui::settle;

fn lab_harness() -> Harness<'static, NavmeshLab> {
    common::ui::lesson_harness([1400.0, 900.0], NavmeshLab::new())
}

/// Applies `command` and waits for the recordings it starts.
fn apply(harness: &mut Harness<'static, NavmeshLab>, command: MeshCommand) {
    harness.state_mut().apply(command);
    settle(harness);
}

fn step_label(harness: &Harness<'_, NavmeshLab>) -> String {
    let lab = harness.state();
    format!("Step {} / {}", lab.player().step(), lab.player().len())
}

#[test]
fn opens_on_a_bundled_map_with_a_recorded_search_and_funnel() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    assert!(lab.mesh().walkable_count() > 10);
    assert!(lab.player().len() > 3, "the search is recorded");
    assert!(lab.player().at_end(), "it opens on the outcome, the path drawn");
    assert!(!lab.funnel().is_empty(), "the funnel over the channel is recorded");
    harness.get_by_label(&step_label(&harness));
    harness.get_by_label_contains("Path found: length");
    harness.get_by_label_contains("Shortest path:");
    harness.get_by_label("|< Start").click();
    settle(&mut harness);
    harness.get_by_label("No result yet at this step");
}

#[test]
fn stepping_replays_the_search_to_the_shortest_path() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("|< Start").click();
    settle(&mut harness);
    harness.get_by_label("Step >").click();
    settle(&mut harness);
    harness.get_by_label("Step >").click();
    settle(&mut harness);
    assert_eq!(harness.state().player().step(), 2);
    harness.get_by_label("Expanded: 1");
    harness.get_by_label("< Step back").click();
    settle(&mut harness);
    assert_eq!(harness.state().player().step(), 1);
    harness.get_by_label("End >|").click();
    settle(&mut harness);
    let lab = harness.state();
    let best = lab.result().and_then(|r| r.path.as_ref()).expect("a path").length;
    assert!(
        matches!(&lab.player().view().outcome, Some(SearchOutcome::Found { cost, .. }) if (cost - best).abs() < 1e-12)
    );
    harness.get_by_label_contains("Shortest path:");
    harness.get_by_label("|< Start").click();
    settle(&mut harness);
    assert_eq!(harness.state().player().step(), 0);
}

#[test]
fn the_radius_closes_the_narrow_corridor_and_tra_agrees() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("narrow_corridor.json").click();
    settle(&mut harness);
    let length = |lab: &NavmeshLab| lab.result().and_then(|r| r.path.as_ref()).map(|p| p.length);
    apply(&mut harness, MeshCommand::SetStart([2.0, 10.0]));
    apply(&mut harness, MeshCommand::SetGoal([28.0, 10.0]));
    assert_eq!(length(harness.state()), Some(26.0));
    apply(&mut harness, MeshCommand::SetRadius(0.9));
    let detour = length(harness.state()).expect("the detour is wide enough");
    assert!(detour > 30.0, "{detour}");
    harness.get_by_label("TRA*").click();
    settle(&mut harness);
    assert!((length(harness.state()).unwrap() - detour).abs() < 1e-9);
    apply(&mut harness, MeshCommand::SetAlgorithm(MeshAlgorithm::Ta));
    apply(&mut harness, MeshCommand::SetRadius(1.2));
    assert_eq!(length(harness.state()), None);
    harness.get_by_label("End >|").click();
    settle(&mut harness);
    harness.get_by_label("No path: every channel is closed");
}

#[test]
fn refining_adds_triangles_and_a_bad_file_keeps_the_map() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let before = harness.state().mesh().walkable_count();
    harness.get_by_label("Refine (no angle under 25 degrees)").click();
    settle(&mut harness);
    assert!(harness.state().mesh().walkable_count() > before);
    let refined = harness.state().mesh().walkable_count();
    apply(&mut harness, MeshCommand::LoadMap("maps/missing.json".to_string()));
    settle(&mut harness);
    let error = harness.state().error().expect("an error is shown").to_string();
    assert!(error.contains("maps/missing.json: cannot read"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().mesh().walkable_count(), refined, "the map on screen is kept");
}

#[test]
fn a_weighted_grid_map_is_refused_and_the_map_kept() {
    let dir = ScratchDir::new("navmesh-lab");
    let mut harness = lab_harness();
    settle(&mut harness);
    let before = harness.state().mesh().walkable_count();
    let path =
        dir.write_arg("weighted.map", "type octile\nheight 3\nwidth 3\nmap\n...\n...\n...\nweights\n111\n191\n111\n");
    apply(&mut harness, MeshCommand::LoadMap(path));
    let error = harness.state().error().expect("the weights are not dropped silently").to_string();
    assert!(error.contains("weighted.map: ") && error.contains("weighted cells are refused"), "{error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().mesh().walkable_count(), before, "the map on screen is kept");
}

#[test]
fn a_grid_map_compares_grid_astar_with_the_any_angle_path() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("rooms128.map").click();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    let octile = lab.grid_length().expect("grid A* runs between the cells of start and goal");
    let any_angle = lab.result().and_then(|r| r.path.as_ref()).expect("TA* finds a path").length;
    // Both join the same cell centres; the any-angle path is never longer, here strictly shorter.
    assert!(any_angle < octile - 1e-9, "{any_angle} vs {octile}");
    harness.get_by_label_contains("Grid A* (octile, cell to cell):");
}

#[test]
fn the_app_lists_the_polygon_lesson() {
    let mut harness = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut SearchlabApp| app.show(ui), SearchlabApp::default());
    harness.run();
    harness.get_all_by_label("Polygon maps").next().expect("the lesson is listed");
}

/// Clicks the canvas where map point `p` is drawn.
fn click_map(harness: &mut Harness<'_, NavmeshLab>, p: [f64; 2]) {
    let pos = harness.state().point_on_screen(p).expect("the canvas was painted");
    harness.hover_at(pos);
    settle(harness);
    harness.drag_at(pos);
    settle(harness);
    harness.drop_at(pos);
    settle(harness);
}

/// Draws one ring by clicking its corners and then its first corner again.
fn draw_ring(harness: &mut Harness<'_, NavmeshLab>, ring: &[[f64; 2]]) {
    for &p in ring {
        click_map(harness, p);
    }
    click_map(harness, ring[0]);
}

#[test]
fn a_polygon_drawn_by_clicks_is_triangulated_and_saved() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let before = harness.state().mesh().triangles.len();
    harness.get_by_label("Draw a new map").click();
    settle(&mut harness);
    // A square room with a square pillar, drawn in the pillars map's frame (0..40 x 0..30).
    draw_ring(&mut harness, &[[2.0, 2.0], [38.0, 2.0], [38.0, 28.0], [2.0, 28.0]]);
    assert_eq!(harness.state().drawing().unwrap().rings.len(), 1, "clicking the first corner closes the ring");
    harness.get_by_label_contains("Click the corners of hole 0 (0 so far)");
    for p in [[15.0, 10.0], [25.0, 10.0], [25.0, 20.0], [15.0, 20.0]] {
        click_map(&mut harness, p);
    }
    harness.get_by_label("Close ring").click();
    settle(&mut harness);
    harness.get_by_label("Triangulate drawing").click();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    assert!(lab.drawing().is_none(), "drawing ends with the new map");
    // A square ring round a square hole: 8 walkable triangles, 2 inside the hole.
    assert_eq!((lab.mesh().triangles.len(), lab.mesh().walkable_count()), (10, 8));
    assert_ne!(lab.mesh().triangles.len(), before);
    harness.get_by_label("Walkable triangles: 8 (2 more fill obstacles: dropped)");
    let length = lab.result().and_then(|r| r.path.as_ref()).expect("a path round the pillar").length;

    let dir = ScratchDir::new("navmesh-lab");
    let file = dir.path("drawn.json").display().to_string();
    apply(&mut harness, MeshCommand::SaveMap(file.clone()));
    assert_eq!(harness.state().error(), None);
    apply(&mut harness, MeshCommand::LoadMap(MAPS[0].to_string()));
    apply(&mut harness, MeshCommand::LoadMap(file));
    let lab = harness.state();
    assert_eq!(lab.mesh().walkable_count(), 8, "the saved map loads back");
    assert_eq!(lab.result().and_then(|r| r.path.as_ref()).unwrap().length, length);
}

#[test]
fn a_self_crossing_drawing_shows_the_library_error_and_keeps_the_map() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let before = harness.state().mesh().triangles.clone();
    harness.get_by_label("Draw a new map").click();
    settle(&mut harness);
    // A symmetric bow tie: edges 0 and 2 cross, and its two halves' areas cancel out.
    draw_ring(&mut harness, &[[2.0, 2.0], [30.0, 26.0], [30.0, 2.0], [2.0, 26.0]]);
    harness.get_by_label("Triangulate drawing").click();
    settle(&mut harness);
    let error = harness.state().error().expect("the drawing is rejected").to_string();
    assert!(error.starts_with("drawn map: the boundary crosses itself"), "not 'zero area': {error}");
    harness.get_by_label(&error);
    assert_eq!(harness.state().mesh().triangles, before, "the map on screen is kept");
    assert_eq!(harness.state().drawing().unwrap().rings.len(), 1, "the drawing stays to be looked at");
    harness.get_by_label("Clear drawing").click();
    settle(&mut harness);
    assert!(harness.state().drawing().unwrap().rings.is_empty());
}

#[test]
fn holes_are_numbered_from_0_as_in_the_file_in_the_prompt_on_the_canvas_and_in_errors_also_after_a_failure() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("Draw a new map").click();
    settle(&mut harness);
    harness.get_by_label_contains("Click the corners of the boundary (0 so far)");
    draw_ring(&mut harness, &[[2.0, 2.0], [38.0, 2.0], [38.0, 28.0], [2.0, 28.0]]);
    harness.get_by_label_contains("Click the corners of hole 0 (0 so far)");
    // The first hole runs out of the boundary.
    for p in [[30.0, 10.0], [39.5, 10.0], [39.5, 20.0], [30.0, 20.0]] {
        click_map(&mut harness, p);
    }
    assert!(painted_texts(&harness).contains(&"hole 0: 0".to_string()), "{:?}", painted_texts(&harness));
    harness.get_by_label("Triangulate drawing").click();
    settle(&mut harness);
    let error = harness.state().error().expect("the drawing is rejected").to_string();
    assert!(error.starts_with("drawn map: the boundary (edge from vertex 1) touches or crosses hole 0"), "{error}");
    // The same hole keeps its number on the canvas; the next one is hole 1.
    assert!(painted_texts(&harness).contains(&"hole 0: 0".to_string()));
    harness.get_by_label_contains("Click the corners of hole 1 (0 so far)");
}

#[test]
fn the_funnel_and_the_walk_step_forward_and_back() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("Funnel").click();
    settle(&mut harness);
    for _ in 0..3 {
        harness.get_by_label("Step >").click();
        settle(&mut harness);
    }
    assert_eq!(harness.state().funnel().step(), 3);
    assert!(harness.state().player().at_end(), "only the selected recording moves");
    harness.get_by_label("< Step back").click();
    settle(&mut harness);
    let funnel = harness.state().funnel();
    assert_eq!(funnel.step(), 2);
    harness.get_by_label(&format!("Funnel step 2 / {}", funnel.len()));
    let step = funnel.view().step.as_ref().expect("the apex and both chains are shown");
    assert_eq!((step.left[0], step.right[0]), (step.apex, step.apex), "both chains start at the apex");
    harness.get_by_label("left chain");
    harness.get_by_label("right chain");
    harness.get_by_label_contains("narrow a side to the portal's end if it can");
    harness.get_by_label("End >|").click();
    settle(&mut harness);
    harness.get_by_label_contains("in sight of the apex: the path ends there.");

    harness.get_by_label("Point location").click();
    settle(&mut harness);
    harness.get_by_label("Step >").click();
    settle(&mut harness);
    assert_eq!(harness.state().walk().view().samples.len(), 1);
    harness.get_by_label("look at k triangles spread over the mesh");
    harness.get_by_label("End >|").click();
    settle(&mut harness);
    let lab = harness.state();
    let found = lab.walk().view().found.flatten().expect("the walk finds the goal's triangle");
    let [a, b, c] = lab.mesh().triangle_points(found);
    assert!(!lab.walk().view().walked.is_empty());
    // The goal lies in the triangle the walk stopped in (all three edges have it on their left).
    let goal = lab.result().and_then(|r| r.path.as_ref()).unwrap().waypoints.last().copied().unwrap();
    for (p, q) in [(a, b), (b, c), (c, a)] {
        assert!(searchlab::navmesh::orient(p, q, goal) >= 0.0);
    }
    harness.get_by_label_contains("the goal is in triangle");
    harness.get_by_label("|< Start").click();
    settle(&mut harness);
    assert_eq!(harness.state().walk().view(), &searchlab::navmesh::walk::WalkView::default());
}

#[test]
fn a_map_drawn_over_a_grid_map_comes_out_as_drawn() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("rooms128.map").click();
    settle(&mut harness);
    let ys = harness.state().mesh().vertices.iter().map(|p| p[1]);
    let (top, bottom) = (ys.clone().fold(f64::MAX, f64::min), ys.fold(f64::MIN, f64::max));
    harness.get_by_label("Draw a new map").click();
    settle(&mut harness);
    // An L, its foot at the top of the screen (grid rows grow downwards).
    let ring = [[10.0, 10.0], [110.0, 10.0], [110.0, 40.0], [40.0, 40.0], [40.0, 110.0], [10.0, 110.0]];
    let clicked: Vec<_> = ring.iter().map(|&p| harness.state().point_on_screen(p).unwrap()).collect();
    draw_ring(&mut harness, &ring);
    harness.get_by_label("Triangulate drawing").click();
    settle(&mut harness);
    let lab = harness.state();
    assert_eq!(lab.error(), None);
    // The polygon map is y-up: each corner is the clicked one turned over the grid's height ...
    let shown: Vec<_> = ring
        .iter()
        .map(|&[x, y]| {
            let want = [x, top + bottom - y];
            let vertex = lab.mesh().vertices.iter().copied().min_by(|a, b| {
                searchlab::navmesh::distance(*a, want).total_cmp(&searchlab::navmesh::distance(*b, want))
            });
            let vertex = vertex.unwrap();
            assert!(searchlab::navmesh::distance(vertex, want) < 0.05, "{vertex:?} vs {want:?}");
            lab.point_on_screen(vertex).unwrap()
        })
        .collect();
    // ... so on screen the new map is the drawing, only scaled and moved: never mirrored.
    let scale = (shown[1] - shown[0]).length() / (clicked[1] - clicked[0]).length();
    for (q, p) in shown.iter().zip(&clicked) {
        let (moved, drawn) = (*q - shown[0], *p - clicked[0]);
        assert!((moved - drawn * scale).length() < 1.5, "{moved:?} vs {drawn:?} * {scale}");
    }
}

#[test]
fn the_shared_replay_bar_seeks_and_plays_the_selected_recording() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.get_by_label("Funnel").click();
    settle(&mut harness);
    let len = harness.state().funnel().len();
    harness.get(By::new().role(egui::Role::Slider).label("Timeline")).set_value_accesskit((len / 2) as f64);
    settle(&mut harness);
    assert_eq!(harness.state().funnel().step(), len / 2, "the timeline moves the funnel");
    assert!(harness.state().player().at_end(), "and not the search");
    harness.get_by_label("|< Start").click();
    settle(&mut harness);
    harness.get_by_label("Play").click();
    // Each harness frame is a quarter second: at 20 steps/s three frames play about ten of them.
    for _ in 0..3 {
        harness.step();
    }
    let step = harness.state().funnel().step();
    assert!(step > 0 && step < len, "playing moves the funnel on: {step} of {len}");
    harness.get_by_label("Pause").click();
    harness.step();
    let paused = harness.state().funnel().step();
    for _ in 0..10 {
        harness.step();
    }
    assert_eq!(harness.state().funnel().step(), paused, "paused");
    harness.get_by_label("Play").click();
    for _ in 0..(4 * len + 10) {
        harness.step();
    }
    assert!(harness.state().funnel().at_end(), "it plays to the end and stops");
    harness.get_by_label("Play");
}

#[test]
fn a_new_query_is_recorded_on_the_worker_and_the_page_stays_live() {
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.state_mut().apply(MeshCommand::SetGoal([18.0, 18.0]));
    assert!(harness.state().is_busy(), "the recording runs off the UI thread");
    settle(&mut harness);
    assert!(!harness.state().is_busy());
    assert!(harness.state().player().at_end() && harness.state().result().is_some());
}

/// The "Agent radius" slider's value.
fn radius_shown(harness: &Harness<'_, NavmeshLab>) -> f64 {
    harness
        .query_all_by_label("Agent radius")
        .find_map(|node| node.accesskit_node().numeric_value())
        .expect("a slider has a value")
}

#[test]
fn loading_a_grid_map_while_drawing_ends_the_drawing_and_starts_over_with_a_point_agent() {
    let mut harness = lab_harness();
    settle(&mut harness);
    apply(&mut harness, MeshCommand::SetRadius(0.9));
    harness.get_by_label("Draw a new map").click();
    settle(&mut harness);
    draw_ring(&mut harness, &[[2.0, 2.0], [38.0, 2.0], [38.0, 28.0]]);
    apply(&mut harness, MeshCommand::LoadMap(MAPS[3].to_string()));
    harness.run();
    let lab = harness.state();
    assert!(lab.drawing().is_none(), "the old drawing does not belong to the new map");
    harness.get_by_label("Draw a new map");
    assert_eq!(lab.error(), None);
    assert!(lab.result().and_then(|r| r.path.as_ref()).is_some(), "a path on the new map");
    assert_eq!(radius_shown(&harness), 0.0, "the radius chosen for the old map does not carry over");
    assert!(harness.query_all_by_label_contains("Timeline").next().is_some(), "the new recording has a timeline");
}

/// Refining the triangulation rebuilds the same map: the agent keeps its radius.
#[test]
fn refining_keeps_the_radius_and_picking_another_map_resets_it() {
    let mut harness = lab_harness();
    settle(&mut harness);
    apply(&mut harness, MeshCommand::SetRadius(0.5));
    apply(&mut harness, MeshCommand::SetRefine(true));
    harness.run();
    assert_eq!(radius_shown(&harness), 0.5);
    harness.get_by_label(MAPS[1].trim_start_matches("maps/")).click();
    settle(&mut harness);
    assert_eq!(radius_shown(&harness), 0.0);
}

#[test]
fn a_refused_query_shows_no_timeline_and_says_why() {
    let mut harness = lab_harness();
    settle(&mut harness);
    // Far outside the pillars map.
    apply(&mut harness, MeshCommand::SetGoal([500.0, 500.0]));
    let error = harness.state().error().expect("the goal is refused").to_string();
    harness.get_by_label(&error);
    assert_eq!(harness.state().player().len(), 0);
    assert!(harness.query_by_label_contains("Timeline").is_none(), "no 0..0 slider with its handle mid-rail");
    assert!(harness.query_by_label("Press Step > to begin.").is_none());
    assert!(!harness.query_all_by_label_contains("the query was refused").collect::<Vec<_>>().is_empty());
}

#[test]
fn every_colour_on_the_canvas_is_in_the_legend_of_the_replay_shown() {
    for theme in all_themes() {
        let mut harness = lab_harness();
        theme.apply(&harness.ctx);
        let palette = theme.palette();
        settle(&mut harness);
        apply(&mut harness, MeshCommand::SetAlgorithm(MeshAlgorithm::Tra));
        for kind in [ReplayKind::Search, ReplayKind::Funnel, ReplayKind::Walk] {
            apply(&mut harness, MeshCommand::SetReplay(kind));
            for command in [
                ReplayCommand::ToStart,
                ReplayCommand::StepForward,
                ReplayCommand::StepForward,
                ReplayCommand::StepForward,
                ReplayCommand::ToEnd,
            ] {
                apply(&mut harness, MeshCommand::Replay(command));
                let legend: Vec<egui::Color32> =
                    harness.state().legend_entries(&palette).iter().map(|(colour, _)| *colour).collect();
                for colour in canvas_colours(&harness, false) {
                    assert!(
                        legend.contains(&colour),
                        "{theme:?} {kind:?}: {colour:?} is drawn but not in the legend {legend:?}"
                    );
                }
            }
        }
        // The goal and TRA*'s decision points are told apart.
        let entries = harness.state().legend_entries(&palette);
        apply(&mut harness, MeshCommand::SetReplay(ReplayKind::Search));
        let entries_search = harness.state().legend_entries(&palette);
        let colour = |name: &str| entries.iter().chain(&entries_search).find(|(_, n)| *n == name).unwrap().0;
        assert_ne!(colour("goal"), colour("TRA* decision point"), "{theme:?}");
    }
}

/// The dark and the light theme, each with the usual and the colour-blind-safe colours.
fn all_themes() -> Vec<Theme> {
    [false, true]
        .into_iter()
        .flat_map(|light| [false, true].map(|colour_blind_safe| Theme { light, colour_blind_safe }))
        .collect()
}

/// Texts painted on the canvas in the last frame.
fn painted_texts(harness: &Harness<'_, NavmeshLab>) -> Vec<String> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| {
            if let egui::Shape::Text(text) = &clipped.shape { Some(text.galley.text().to_string()) } else { None }
        })
        .collect()
}

#[test]
fn the_triangles_the_narration_names_are_numbered_on_the_map() {
    let mut harness = lab_harness();
    settle(&mut harness);
    apply(&mut harness, MeshCommand::Replay(ReplayCommand::ToStart));
    for _ in 0..3 {
        apply(&mut harness, MeshCommand::Replay(ReplayCommand::StepForward));
        let event = harness.state().player().current_event().cloned().unwrap();
        let named: Vec<u32> = match event {
            SearchEvent::Open { node, parent, .. } => {
                [node, parent].into_iter().filter(|&t| t != searchlab::trace::NO_NODE).collect()
            }
            SearchEvent::Expand { node } | SearchEvent::Relax { node, .. } => vec![node],
            _ => Vec::new(),
        };
        let texts = painted_texts(&harness);
        for t in named {
            assert!(texts.contains(&t.to_string()), "triangle {t} is numbered on the map: {texts:?}");
        }
    }
}

#[test]
fn the_statistics_name_the_algorithm_and_count_improvements_on_the_first_path() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let found = harness.state().result().unwrap().improvements;
    assert!(harness.query_by_label_contains("improvements)").is_none());
    let said = match found {
        1 => "the first path found was the shortest".to_string(),
        2 => "improved once".to_string(),
        n => format!("improved {} times", n - 1),
    };
    harness.get_by_label_contains(&said);
    apply(&mut harness, MeshCommand::LoadMap(MAPS[3].to_string()));
    apply(&mut harness, MeshCommand::SetAlgorithm(MeshAlgorithm::Tra));
    harness.get_by_label_contains("TRA* any-angle:");
    assert!(harness.query_by_label_contains("TA* any-angle:").is_none());
}

/// The scene of the `index`th cell of a bundled lecture.
fn lecture_scene(lecture: &str, index: usize) -> searchlab::scene::Scene {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(project.join("lectures").join(lecture)).unwrap();
    let lecture = searchlab::lecture::Lecture::parse(&text).unwrap();
    let cell = lecture.cells().nth(index).unwrap();
    searchlab::lecture::check_cell(cell, project).unwrap()
}

#[test]
fn a_path_found_scene_opens_on_the_first_path_of_an_anytime_search() {
    // Lecture 3's "TA*: searching triangles": TA* improves on its first path later.
    let scene = lecture_scene("3-triangulations.md", 2);
    assert_eq!(scene.step, searchlab::scene::Step::Moment(searchlab::scene::Moment::PathFound));
    let mut lab = NavmeshLab::new();
    lab.set_scene(&scene).unwrap();
    let mut harness = common::ui::lesson_harness([1400.0, 900.0], lab);
    settle(&mut harness);
    let events = &harness.state().player().trace().events;
    let founds: Vec<usize> = (0..events.len()).filter(|&i| matches!(events[i], SearchEvent::Found { .. })).collect();
    assert!(founds.len() >= 2, "the scene shows an anytime search improving its path");
    assert_eq!(harness.state().player().step(), founds[0] + 1, "opened just after the first path");
    match &harness.state().player().view().outcome {
        Some(SearchOutcome::Found { cost, .. }) => assert!((cost - 34.898).abs() < 5e-4, "the first path, not {cost}"),
        other => panic!("the first path is shown, not {other:?}"),
    }
    harness.get_by_label_contains("Path found: length 34.898");
}

/// The search's current line stays in view in a short side panel when the recording is in before
/// the page's first frame: the next frame the panel's scroll bar appears and its text rewraps, and
/// the line must be followed to where it moved (it was left under the panel's edge).
#[test]
fn the_current_pseudocode_line_stays_in_view_when_the_recording_is_in_before_the_first_frame() {
    let lab = common::ui::finished_unseen(NavmeshLab::new());
    assert!(lab.player().at_end(), "it opens on the outcome");
    let mut harness = common::ui::styled_lesson_harness([1000.0, 680.0], 1.3, lab);
    harness.run();
    // The search ends when no open channel can beat its path: on the loop's test.
    let line = harness.get_by_label("while some open channel has f < best:").rect();
    let bars: Vec<egui::Rect> =
        harness.query_all(By::new().role(egui::Role::ScrollBar)).map(|bar| bar.rect()).collect();
    let panel = bars.iter().find(|bar| bar.left() >= line.left()).expect("the side panel scrolls at this size");
    assert!(
        panel.y_range().contains(line.top()) && panel.y_range().contains(line.bottom()),
        "the line {line:?} is outside the panel's view {panel:?}"
    );
}

/// At the end of the search's replay the narration says what the whole search found, whatever its
/// last event was: lecture 3's query on the U hall (its prose gives the numbers), proven shortest,
/// or with `first-path` stopped at its first path.
#[test]
fn the_end_of_the_search_says_it_is_complete_with_its_numbers() {
    for (spec, expected) in [
        ("ta", "The search is complete: no open channel has f below 33.488, so the path of length 33.488 through"),
        ("ta", "is the shortest (20 expansions; the first path found was 34.898)."),
        ("tra", "The search is complete: no open channel has f below 33.488"),
        ("ta:first-path", "The search stops at its first path (first-path): length 34.898"),
        ("ta:first-path", "after 13 expansions, not proven the shortest."),
    ] {
        let scene = format!(
            "version = 1\nlab = \"polygon\"\nmap = {{ bundled = \"u_hall.json\" }}\nspec = \"{spec}\"\nstart = [27, 13]\ngoal = [1, 23]\nstep = \"end\""
        );
        let mut harness = lab_harness();
        settle(&mut harness);
        harness.state_mut().set_scene(&searchlab::scene::Scene::from_toml(&scene).unwrap()).unwrap();
        settle(&mut harness);
        assert!(harness.state().player().at_end());
        harness.get_by_label_contains(expected);
        assert!(harness.query_by_label_contains("The search goes on").is_none(), "{spec}");
        // The highlighted line says the same: the loop's test failed, or the first path was taken.
        let highlighted: Vec<String> = harness
            .output()
            .shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                egui::Shape::Text(text)
                    if text.galley.job.sections.iter().any(|s| s.format.background != egui::Color32::TRANSPARENT) =>
                {
                    Some(text.galley.job.text.clone())
                }
                _ => None,
            })
            .collect();
        let line = if spec.contains("first-path") {
            "if c reaches the goal: best = min(best, funnel(c))"
        } else {
            "while some open channel has f < best:"
        };
        assert_eq!(highlighted, [line], "{spec}");
    }
}

/// Triangles inside obstacles are dropped, as lecture 3 says: drawn as solid obstacle with no
/// edges of their own, and the statistics count the walkable ones.
#[test]
fn triangles_in_obstacles_are_drawn_solid_and_counted_apart() {
    let mut harness = lab_harness();
    settle(&mut harness);
    let (total, walkable) = (harness.state().mesh().triangles.len(), harness.state().mesh().walkable_count());
    assert!(walkable < total, "the map has obstacles");
    harness
        .get_by_label(&format!("Walkable triangles: {walkable} ({} more fill obstacles: dropped)", total - walkable));
    let wall = searchlab::app::theme::palette(&harness.ctx).wall;
    let obstacle_triangles: Vec<egui::epaint::ColorMode> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Path(path) if path.closed && path.points.len() == 3 && path.fill == wall => {
                Some(path.stroke.color.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(obstacle_triangles.len(), total - walkable);
    for edge in obstacle_triangles {
        assert_eq!(edge, egui::epaint::ColorMode::Solid(wall), "no edge drawn inside an obstacle");
    }
}

/// Lecture 3's U hall at `step = "path-found"`: the narration reports TA*'s first path (34.898)
/// while the search goes on, and the canvas draws that path, not only the final one at the end.
#[test]
fn a_path_the_narration_reports_before_the_end_is_drawn() {
    let scene = "version = 1\nlab = \"polygon\"\nmap = { bundled = \"u_hall.json\" }\nspec = \"ta\"\nstart = [27, 13]\ngoal = [1, 23]\nstep = \"path-found\"";
    let mut harness = lab_harness();
    settle(&mut harness);
    harness.state_mut().set_scene(&searchlab::scene::Scene::from_toml(scene).unwrap()).unwrap();
    settle(&mut harness);
    harness.run();
    assert!(!harness.state().player().at_end(), "the search goes on after its first path");
    assert!(harness.query_all_by_label_contains("34.898").next().is_some(), "the narration reports the first path");
    let path_colour = searchlab::app::theme::palette(&harness.ctx).mesh_path;
    let drawn = harness.output().shapes.iter().any(|clipped| match &clipped.shape {
        egui::Shape::Path(path) => !path.closed && path.stroke.color == egui::epaint::ColorMode::Solid(path_colour),
        _ => false,
    });
    assert!(drawn, "the first path is drawn while the narration reports it");
}
