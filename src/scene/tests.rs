use proptest::prelude::*;

use super::*;
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::Trace;

const EXAMPLE: &str = r#"
version = 1
lab = "grid"
map = { bundled = "maze64.map" }
spec = "astar:octile,weight=1.5"
compare = "dijkstra"
start = [1, 1]
goal = [62, 62]
step = "first-expansion"
layers = ["values"]
"#;

#[test]
fn the_documented_example_reads() {
    let scene = Scene::from_toml(EXAMPLE).unwrap();
    assert_eq!(scene.map, Some(MapSource::Bundled("maze64.map".to_string())));
    assert_eq!(scene.planner().unwrap().to_string(), "astar:octile,weight=1.5");
    assert_eq!(scene.cells(), Ok(Some([(1, 1), (62, 62)])));
    assert_eq!(scene.step, Step::Moment(Moment::FirstExpansion));
    assert_eq!(Scene::from_toml(&scene.to_toml()), Ok(scene.clone()));
    assert_eq!(Scene::from_json(&scene.to_json()), Ok(scene));
}

#[test]
fn bad_scenes_are_refused_in_one_line() {
    let with = |from: &str, to: &str| EXAMPLE.replace(from, to);
    for (text, message) in [
        (
            with("version = 1", "version = 7"),
            "scene line 2: scene version 7 is not supported: this searchlab reads version 1",
        ),
        (with("version = 1", ""), "scene has no version"),
        // The key starts its line: the line is its own, not the one before.
        (with("layers", "layer"), "scene line 10: unknown field `layer`"),
        (
            with("\"dijkstra\"", "\"hpa\""),
            "scene line 6: compare 'hpa' does not fit the grid lab: HPA* is shown by lab = \"hierarchical\"",
        ),
        (
            with("\"dijkstra\"", "\" pra:k=4\""),
            "compare 'pra:k=4' does not fit the grid lab: PRA* is shown by lab = \"hierarchical\"",
        ),
        (with("weight=1.5", "weight=0.5"), "weight must be a number >= 1"),
        (with("\"values\"", "\"clusters\""), "scene line 10: unknown layer 'clusters' for the grid lab"),
        (
            with("\"astar:octile,weight=1.5\"", "\"foo\""),
            "scene line 5: unknown planner 'foo': use bfs, dijkstra, astar, greedy, jps, hpa or pra",
        ),
        (with("\"dijkstra\"", "\"astar,4conn\""), "scene line 6: unknown planner 'astar,4conn'"),
        (with("first-expansion", "halfway"), "step 'halfway' is not an event index"),
        (with("goal = [62, 62]", ""), "give both start and goal"),
        (with("bundled", "online"), "scene line 4: unknown field `online`"),
        (with("}", ", path = \"x.map\" }"), "scene line 4: give one map source: bundled, path, inline or generated"),
        (with("{ bundled = \"maze64.map\" }", "{}"), "scene line 4: give one map source"),
        (with("[1, 1]", "[1, 1, 7]"), "scene line 7: a cell or point is [x, y]: two numbers, not 3"),
        (with("[62, 62]", "[62]"), "scene line 8: a cell or point is [x, y]: two numbers, not 1"),
        (with("[62, 62]", "[62, nan]"), "scene line 8: goal must be finite numbers"),
        (
            with("compare = \"dijkstra\"", "compare = \"dijkstra\"\ncompare = \"bfs\""),
            "scene line 7: duplicate key `compare` (first on scene line 6)",
        ),
    ] {
        let error = Scene::from_toml(&text).unwrap_err();
        assert!(error.contains(message) && !error.contains('\n'), "{message}: {error}");
    }
    let half = Scene::from_toml(&with("[62, 62]", "[62, 62.5]")).unwrap().cells();
    assert_eq!(half, Err(FieldError::new("goal", "goal 62,62.5 is not a grid cell")));
    let error = Scene::from_json(r#"{"version": 2, "lab": "grid"}"#).unwrap_err();
    assert!(error.contains("scene version 2 is not supported"), "{error}");
    assert!(
        Scene::from_json(r#"{"version": 1, "lab": "grid", "colour": 3}"#)
            .unwrap_err()
            .contains("unknown field `colour`")
    );
}

#[test]
fn specs_are_read_as_the_labs_kind() {
    let read = |lab: &str, spec: &str| Scene::from_toml(&format!("version = 1\nlab = \"{lab}\"\nspec = \"{spec}\""));
    assert_eq!(read("grid", "jps").unwrap().planner(), Some("jps".parse().unwrap()));
    let flat = "scene line 3: spec 'jps' does not fit: the hierarchical lab takes hpa or pra as spec; put a flat search in compare";
    assert_eq!(read("hierarchical", "jps").unwrap_err(), flat);
    let planner =
        Scene::from_toml("version = 1\nlab = \"hierarchical\"\nspec = \"pra\"\ncompare = \"hpa\"").unwrap_err();
    assert!(
        planner.contains("compare 'hpa' does not fit: the hierarchical lab compares its planner with a flat search"),
        "{planner}"
    );
    assert!(read("game-tree", "jps").unwrap_err().starts_with("scene line 3: unknown engine 'jps': use minimax:D"));
    assert!(read("polygon", "bfs").unwrap_err().contains("scene line 3:"));
    assert!(read("tuning", "bfs").unwrap_err().contains("the tuning lab does not use `spec`"));
}

/// Each lab refuses the fields its page does not read, naming the field and the lab; the ones
/// it reads are taken.
#[test]
fn fields_a_lab_does_not_read_are_refused() {
    let values = [
        ("map", "map = { bundled = \"maze64.map\" }"),
        ("compare", "compare = \"dijkstra\""),
        ("start", "start = [1, 1]\ngoal = [2, 2]"),
        ("position", "position = \"x../.o./...\""),
        ("tree", "tree = \"((1,2),(3,4))\""),
    ];
    let reads: [(Lab, &[&str]); 7] = [
        (Lab::Grid, &["map", "compare", "start"]),
        (Lab::Hierarchical, &["map", "compare", "start"]),
        (Lab::Polygon, &["map", "start"]),
        (Lab::GameTree, &["position", "tree"]),
        (Lab::Barca, &["position"]),
        (Lab::Tuning, &["map"]),
        (Lab::Agents, &["map"]),
    ];
    for (lab, read) in reads {
        for (field, line) in values {
            let text = format!("version = 1\nlab = \"{}\"\n{line}", lab.id());
            let scene = Scene::from_toml(&text);
            if read.contains(&field) {
                // A game-tree scene needs nothing else; a bundled map is not a tuning log, which is checked later.
                assert!(scene.is_ok() || field == "compare", "{lab:?} reads {field}: {scene:?}");
            } else {
                let expected = format!("scene line 3: the {} lab does not use `{field}`: it shows ", lab.id());
                assert!(scene.as_ref().unwrap_err().starts_with(&expected), "{lab:?}, {field}: {scene:?}");
            }
        }
    }
    let step = Scene::from_toml("version = 1\nlab = \"tuning\"\nstep = 3").unwrap_err();
    assert_eq!(step, "scene line 3: the tuning lab shows a log, not step '3': remove `step`");
}

/// A typed-in tree is read before the spec that takes its height: a typo in it is named at its
/// column, not taken for a spec without a depth.
#[test]
fn a_typed_in_tree_is_read_before_its_spec() {
    let read = |spec: &str, tree: &str| {
        Scene::from_toml(&format!("version = 1\nlab = \"game-tree\"\nspec = \"{spec}\"\ntree = \"{tree}\""))
    };
    for spec in ["alphabeta", "minimax", "negamax:2", "alphabeta:9"] {
        let error = read(spec, "((3,12,8),(2,4,6),(14,5,2)").unwrap_err();
        assert_eq!(error, "scene line 4: tree: column 27: expected ',' or ')', found the end of the text", "{spec}");
        assert!(
            read(spec, "((3,12,8),(2,4,,6),(14,5,2))").unwrap_err().starts_with("scene line 4: tree: column 16: "),
            "{spec}"
        );
        assert_eq!(read(spec, "7").unwrap_err(), "scene line 4: tree: a tree needs at least one move", "{spec}");
    }
    assert_eq!(read("alphabeta", "((3,12,8),(2,4,6),(14,5,2))").unwrap().engine().unwrap().to_string(), "alphabeta:2");
}

/// A scene made in the app (the game-tree page's, copied or opened in the lab) is checked as
/// one read from a lecture: its typed-in tree too, before its spec.
#[test]
fn a_scene_made_in_the_app_has_its_tree_checked_as_a_read_one() {
    let minimax = Some(RunSpec::Engine("minimax:1".parse().unwrap()));
    let with_tree = |tree: &str| Scene { tree: Some(tree.to_string()), spec: minimax, ..Scene::new(Lab::GameTree) };
    assert_eq!(with_tree("7").validate(), Err(FieldError::new("tree", "tree: a tree needs at least one move")));
    assert!(with_tree("((1,2)").validate().unwrap_err().message.starts_with("tree: column 7: "));
    let deep = with_tree("((1,2),3)").validate().unwrap_err();
    assert_eq!(deep.message, "the tree is 2 plies high and only its leaves have values: write minimax or minimax:2");
    assert_eq!(with_tree("(1,2)").validate(), Ok(()));
}

/// Past the end of a recording that stopped early, the step's error says so; its end is allowed
/// with a warning, since it shows no result.
#[test]
fn steps_in_a_truncated_recording_say_that_the_recording_stopped() {
    let whole = Trace { events: vec![SearchEvent::Found { cost: 1.0, path: vec![0] }], truncated: false };
    let cut = Trace { events: Vec::new(), truncated: true };
    assert_eq!(Step::Index(5).in_search(&whole), Err("step 5 is past the end (the search has 1 events)".to_string()));
    assert_eq!(Step::Moment(Moment::PathFound).in_search(&whole), Ok(1));
    assert_eq!(Step::End.warning(&whole), None);
    assert_eq!(
        Step::Index(5).in_search(&cut),
        Err("step 5 is past the end of the recording (the recording stops at event 0 of a longer search)".to_string())
    );
    assert_eq!(
        Step::Moment(Moment::PathFound).in_search(&cut),
        Err("this replay has no 'path-found' moment (the recording stops at event 0 of a longer search)".to_string())
    );
    assert_eq!(Step::End.in_search(&cut), Ok(usize::MAX));
    assert!(Step::End.warning(&cut).unwrap().contains("the recording stops at event 0 of a longer search"));
    assert_eq!(Step::Index(0).warning(&cut), None);
}

#[test]
fn tuning_scenes_name_their_log_as_their_map() {
    let with = |map: MapSource| Scene { map: Some(map), ..Scene::new(Lab::Tuning) };
    assert_eq!(with(MapSource::Bundled(BUNDLED_TUNING_LOG.to_string())).tuning_log(), Ok(Some(LogSource::Bundled)));
    assert_eq!(with(MapSource::Path("run.json".to_string())).tuning_log(), Ok(Some(LogSource::Path("run.json"))));
    assert!(
        with(MapSource::Bundled("old.json".to_string()))
            .tuning_log()
            .unwrap_err()
            .contains("no bundled tuning log 'old.json'")
    );
    assert!(with(MapSource::Generated("maze:8x8".parse().unwrap())).tuning_log().is_err());
    assert_eq!(Scene::new(Lab::Tuning).tuning_log(), Ok(None));
}

fn planner() -> impl Strategy<Value = Planner> {
    let texts = prop_oneof![
        Just("bfs".to_string()),
        Just("dijkstra:4conn".to_string()),
        (0..5usize, 10..40u32, any::<bool>(), any::<bool>()).prop_map(|(h, w, four, cut)| {
            let heuristic = crate::pathfinding::Heuristic::ALL[h].name();
            let rules = match (four, cut) {
                (true, true) => ",4conn,corner-cut",
                (true, false) => ",4conn",
                (false, true) => ",corner-cut",
                (false, false) => "",
            };
            format!("astar:{heuristic},weight={}{rules}", f64::from(w) / 10.0)
        }),
        (2..64u32, 1..3usize, any::<bool>())
            .prop_map(|(c, l, s)| format!("hpa:cluster={c},levels={l}{}", if s { "" } else { ",no-smooth" })),
        (proptest::option::of(0..6usize), proptest::option::of(1..9usize)).prop_map(|(level, k)| {
            let items: Vec<String> =
                level.map(|l| format!("level={l}")).into_iter().chain(k.map(|k| format!("k={k}"))).collect();
            if items.is_empty() { "pra".to_string() } else { format!("pra:{}", items.join(",")) }
        }),
    ];
    texts.prop_map(|text| text.parse::<Planner>().unwrap())
}

/// An engine a game page shows, from (algorithm, depth, playouts, level) numbers: what the
/// game-tree lab records on the scene's game, or one of the Barca page's levels.
fn page_engine(scene: &Scene, (a, d, n, level): (usize, u32, u64, usize)) -> EngineSpec {
    if scene.lab == Lab::Barca {
        return ["easy", "medium", "hard", "uct:easy", "uct:medium", "uct:hard"][level].parse().unwrap();
    }
    let game = scene.game();
    let algorithm = game.algorithms()[a % game.algorithms().len()];
    let max = game.max_depth(algorithm);
    // Only a typed-in tree's height is searched: any depth up to the most covers it.
    let depth = if game == GameKind::CustomTree { max } else { 1 + d % max };
    game.recorded_engine(algorithm, depth, n)
}

fn mesh() -> impl Strategy<Value = MeshSearch> {
    (any::<bool>(), 0..20u32, any::<bool>(), proptest::option::of(0..30u32)).prop_map(|(tra, r, first, angle)| {
        MeshSearch {
            algorithm: if tra {
                crate::navmesh::search::MeshAlgorithm::Tra
            } else {
                crate::navmesh::search::MeshAlgorithm::Ta
            },
            radius: f64::from(r) / 10.0,
            first_path_only: first,
            min_angle: angle.map(f64::from),
            ..MeshSearch::default()
        }
    })
}

fn generator() -> impl Strategy<Value = Spec> {
    (0..4usize, 3..300u32, 3..300u32, any::<u64>(), 1..5u32, 2..20u32, 0..=10u32).prop_map(
        |(kind, w, h, seed, c, r, p)| {
            let kind = crate::grid::generate::Kind::ALL[kind];
            let text = match kind {
                crate::grid::generate::Kind::Maze => format!("maze:{w}x{h},corridor={c},seed={seed}"),
                crate::grid::generate::Kind::Rooms => {
                    format!("rooms:{w}x{h},room={r},doors={},seed={seed}", f64::from(p) / 10.0)
                }
                crate::grid::generate::Kind::Random => {
                    format!("random:{w}x{h},density={},seed={seed}", f64::from(p) / 10.0)
                }
                crate::grid::generate::Kind::Cave => {
                    format!("cave:{w}x{h},fill={},seed={seed}", f64::from(p) / 10.0)
                }
            };
            text.parse().unwrap()
        },
    )
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::End),
        any::<u32>().prop_map(|i| Step::Index(i as usize)),
        (0..4usize).prop_map(|m| Step::Moment(Moment::ALL[m]))
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    let map = proptest::option::of(prop_oneof![
        "[a-z/._]{1,20}".prop_map(MapSource::Path),
        "[a-z0-9]{1,10}\\.map".prop_map(MapSource::Bundled),
        "type octile\nheight 1\nwidth 2\nmap\n[.@]{2}\n".prop_map(MapSource::Inline),
        generator().prop_map(MapSource::Generated),
    ]);
    let lab = (0..Lab::ALL.len()).prop_map(|i| Lab::ALL[i]);
    let query = proptest::option::of((0..500u32, 0..500u32, 0..500u32, 0..500u32));
    let position = proptest::option::of("[ -~]{0,30}");
    // A typed-in tree is read with the scene: trees with one level and with several.
    let tree = proptest::option::of(prop_oneof![
        Just("(1,-2)".to_string()),
        Just(GameKind::CustomTree.default_position().to_string())
    ]);
    let engine = (0..5usize, 0..64u32, 1..5000u64, 0..6usize);
    (lab, map, query, position, tree, step(), planner(), engine, mesh(), any::<bool>()).prop_map(
        |(lab, map, query, position, tree, step, planner, engine, mesh, compare)| {
            let mut scene = Scene { map, step, position, tree, ..Scene::new(lab) };
            // Only the fields the lab reads: a game page shows a typed-in tree or a position, the
            // Barca page its position at the end, the tuning page its log.
            let game = matches!(lab, Lab::GameTree | Lab::Barca);
            if game {
                scene.map = None;
            } else {
                scene.position = None;
            }
            if lab != Lab::GameTree || scene.position.is_some() {
                scene.tree = None;
            }
            // Only a step the lab's replay has.
            let fits = |step| !matches!(step, Step::Moment(moment) if !lab.moments().contains(&moment));
            if lab == Lab::Quiz {
                (scene.map, scene.kind, scene.seed) = (None, Some("node-value".to_string()), Some(3));
            }
            if matches!(lab, Lab::Barca | Lab::Tuning | Lab::Quiz) || !fits(scene.step) {
                scene.step = Step::End;
            }
            let engine = page_engine(&scene, engine);
            let spec = match lab {
                Lab::Grid => planner.grid_search().map(|_| RunSpec::Planner(planner)),
                Lab::Hierarchical => Some(RunSpec::Planner(planner)).filter(|_| planner.is_hierarchical()),
                Lab::Polygon => Some(RunSpec::Mesh(mesh)),
                Lab::GameTree | Lab::Barca => Some(RunSpec::Engine(engine)),
                Lab::Tuning | Lab::Quiz => None,
                Lab::Agents => Some(RunSpec::Agents(crate::pathfinding::mapf::MapfSpec::Whca { window: 4 })),
            };
            scene.spec = spec;
            scene.compare = match lab {
                Lab::Hierarchical => Some(RunSpec::Planner(Planner::default())),
                Lab::Grid => spec,
                _ => None,
            }
            .filter(|_| compare && spec.is_some());
            if let Some((sx, sy, gx, gy)) =
                query.filter(|_| matches!(lab, Lab::Grid | Lab::Hierarchical | Lab::Polygon))
            {
                (scene.start, scene.goal) = (Some([sx.into(), sy.into()]), Some([gx.into(), gy.into()]));
            }
            if let Some((sx, sy, gx, gy)) = query.filter(|_| lab == Lab::Agents && scene.map.is_some()) {
                scene.agents = vec![[sx, sy, gx, gy], [gx, gy, sx, sy]];
            }
            scene.layers = lab.layers().iter().take(2).map(|s| s.to_string()).collect();
            scene
        },
    )
}

proptest! {
    #[test]
    fn scenes_round_trip_through_toml_and_json(scene in scene()) {
        prop_assert_eq!(Scene::from_toml(&scene.to_toml()), Ok(scene.clone()));
        prop_assert_eq!(Scene::from_json(&scene.to_json()), Ok(scene));
    }
}

#[test]
fn agents_are_four_numbers_each_on_a_map_and_refused_by_line_otherwise() {
    let scene = |agents: &str| {
        Scene::from_toml(&format!("version = 1\nlab = \"agents\"\nmap = {{ bundled = \"rooms128.map\" }}\n{agents}"))
    };
    let read = scene("agents = [[5, 8, 27, 8], [27, 8, 5, 8]]\nspec = \"whca:window=4\"").unwrap();
    assert_eq!(read.agents, [[5, 8, 27, 8], [27, 8, 5, 8]]);
    assert_eq!(read.mapf_spec(), Some(crate::pathfinding::mapf::MapfSpec::Whca { window: 4 }));
    let five = scene("agents = [[5, 8, 27, 8], [1, 2, 3, 4, 5]]").unwrap_err();
    assert!(
        five.contains("scene line 4") && five.contains("agent 2 is [sx, sy, gx, gy]: four numbers, not 5"),
        "{five}"
    );
    let unmapped = Scene::from_toml("version = 1\nlab = \"agents\"\nagents = [[1, 2, 3, 4]]").unwrap_err();
    assert_eq!(unmapped, "scene line 3: agents are cells of a map: give the map too");
    let grid = Scene::from_toml("version = 1\nlab = \"grid\"\nagents = [[1, 2, 3, 4]]").unwrap_err();
    assert!(grid.contains("the grid lab does not use `agents`"), "{grid}");
}
