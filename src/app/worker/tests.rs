use std::path::Path;

use super::*;
use crate::adversarial::engine::EngineAlgorithm;
use crate::app::grid_lab::GridJob;
use crate::grid::{generate, movingai};
use crate::pathfinding::{Algorithm, GridSearch};
use crate::tournament::{TuneConfig, tune};

fn wait(job: &Job) -> Response {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(response) = job.poll().transpose().unwrap() {
            return response;
        }
        assert!(Instant::now() < deadline, "the worker never answered");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A* on maze64's last (longest) MovingAI scenario, with the optimal length the `.scen` gives.
fn maze_query() -> (GridJob, f64) {
    let grid = movingai::load_map(Path::new("maps/maze64.map")).unwrap();
    let last = movingai::load_scen(Path::new("maps/maze64.map.scen")).unwrap().pop().unwrap();
    let cell = |(x, y)| grid.cell(x, y);
    let (start, goal) = (cell(last.start), cell(last.goal));
    (GridJob::new(grid, vec![GridSearch::default()], start, goal), last.optimal)
}

/// Dijkstra across a generated 512x512 map: long enough to watch (and to stop).
fn long_query() -> GridJob {
    let grid = generate::random(512, 512, 0.25, 3);
    let cells = grid.passable_cells();
    let search = GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() };
    GridJob::new(grid, vec![search], cells[0], *cells.last().unwrap())
}

/// Runs `request` the browser's way, through bytes: [`serve`] on the worker's side, a [`Reply`]
/// on the page's; the messages the worker posted, in order.
fn through_bytes(request: &Request) -> (Job, Vec<Vec<u8>>) {
    let (sender, result) = mpsc::channel();
    let posted = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = std::rc::Rc::clone(&posted);
    serve(&encode(request).unwrap(), Place::Worker, move |bytes| sink.borrow_mut().push(bytes));
    let job = Job {
        result,
        progress: Arc::default(),
        discarded: Arc::default(),
        started: Instant::now(),
        ran_in: Default::default(),
        label: "through bytes".into(),
    };
    let reply = Reply { progress: Arc::clone(&job.progress), sender, repaint: None };
    let messages = posted.take();
    for message in &messages {
        reply.receive(message).unwrap();
    }
    (job, messages)
}

#[test]
fn a_grid_search_finds_the_scen_optimum_on_a_thread_and_through_bytes() {
    let (query, optimal) = maze_query();
    let (job, _) = through_bytes(&Request::Grid(query));
    let Some(Response::Grid(Some(crossed))) = job.poll().transpose().unwrap() else { panic!("no recording came back") };
    assert_eq!(job.ran_in(), Some(Place::Worker));
    let (query, _) = maze_query();
    let job = Job::start("A*", None, Request::Grid(query));
    let Response::Grid(Some(local)) = wait(&job) else { panic!("no recording") };
    assert_eq!(job.ran_in(), Some(Place::Thread));
    for recorded in [&crossed, &local] {
        let replay = &recorded.replays()[0];
        assert!((replay.result.cost().unwrap() - optimal).abs() < 1e-6, "{:?} vs {optimal}", replay.result.cost());
    }
    let (a, b) = (&crossed.replays()[0], &local.replays()[0]);
    assert_eq!((a.player.trace(), &a.result), (b.player.trace(), &b.result), "the recording crossed intact");
}

#[test]
fn a_tuning_run_crosses_intact() {
    let config = TuneConfig::new(1, 2, 1);
    let (job, _) = through_bytes(&Request::Tune(config.clone()));
    let Some(Response::Tune(Ok(crossed))) = job.poll().transpose().unwrap() else { panic!("no tuning log came back") };
    assert_eq!(crossed.iterations.len(), 2, "the start and one iteration");
    assert_eq!(Ok(crossed), tune(&config, &Progress::default()), "the same log as a run here");
}

#[test]
fn requests_round_trip_through_bytes() {
    let (query, _) = maze_query();
    let request = Request::Grid(query);
    let bytes = encode(&request).unwrap();
    assert_eq!(encode(&decode::<Request>(&bytes).unwrap()).unwrap(), bytes);
}

#[test]
fn game_tree_recordings_cross_intact() {
    use crate::app::tree_lab::{EngineAlgorithm, GameKind, Position, Replay, SearchSpec};
    let cases = [
        (
            GameKind::TicTacToe,
            "x.o/.o./x..",
            SearchSpec { algorithm: EngineAlgorithm::AlphaBeta, depth: 9, iterations: 0 },
        ),
        (GameKind::TicTacToe, "x.o/.o./x..", SearchSpec { algorithm: EngineAlgorithm::Uct, depth: 0, iterations: 300 }),
        (
            GameKind::CustomTree,
            "((3,12,8),(2,4,6),(14,5,2))",
            SearchSpec { algorithm: EngineAlgorithm::Id, depth: 2, iterations: 0 },
        ),
    ];
    for (game, text, spec) in cases {
        let request = || Request::Tree(Position::parse(game, text).unwrap(), spec);
        let (job, _) = through_bytes(&request());
        let Some(Response::Tree(Some(crossed))) = job.poll().transpose().unwrap() else {
            panic!("{text}: no recording came back")
        };
        let Response::Tree(Some(here)) = wait(&Job::start("tree", None, request())) else { panic!("no recording") };
        // The same events and position (the times differ from run to run).
        let events = |recording: &crate::app::tree_lab::Recording| match &recording.replay {
            Replay::Tree(r) => encode(r.player.trace()).unwrap(),
            Replay::Mcts(r) => encode(r.player.trace()).unwrap(),
        };
        assert!(crossed.step_count() > 0, "{text} {spec:?}");
        assert_eq!(events(&crossed), events(&here), "{text} {spec:?}: the same recording");
        assert_eq!(crossed.position.text(), Position::parse(game, text).unwrap().text());
    }
}

#[test]
fn a_worker_reports_progress_while_it_runs() {
    let (job, messages) = through_bytes(&Request::Grid(long_query()));
    let reports: Vec<_> = messages
        .iter()
        .filter_map(|m| match decode::<FromWorker>(m) {
            Ok(FromWorker::Progress(report)) => Some(report),
            _ => None,
        })
        .collect();
    assert!(!reports.is_empty(), "no progress before the answer");
    assert!(reports.windows(2).all(|w| w[0].done <= w[1].done), "progress only grows");
    let last = reports.last().unwrap();
    assert!(last.total > 0 && last.done <= last.total, "{last:?}");
    assert!(matches!(job.poll().transpose().unwrap(), Some(Response::Grid(Some(_)))));
    assert_eq!(job.progress().done(), last.done, "the page shows the last report");
}

#[test]
fn a_stopped_recording_answers_nothing() {
    let progress = Progress::default();
    progress.stop();
    assert!(matches!(Request::Grid(long_query()).run(&progress), Response::Grid(None)));
}

#[test]
fn dropping_a_job_stops_its_thread_early() {
    let job = Job::start("Dijkstra", None, Request::Grid(long_query()));
    let progress = Arc::clone(&job.progress);
    while progress.done() == 0 {
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(job);
    assert!(progress.is_stopped());
    // Stopped at its next unit of work: the count stays far below a whole search's.
    std::thread::sleep(Duration::from_millis(200));
    let done = progress.done();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(progress.done(), done, "the thread went on after the drop");
    assert!(progress.fraction().unwrap() < 1.0);
}

#[test]
fn the_computer_player_chooses_the_same_move_through_bytes() {
    use crate::adversarial::choice::Difficulty;
    use crate::app::barca_lab::ai::{MoveJob, ai_engine};
    use crate::games::Game;
    use crate::games::barca::{Barca, Weights};
    use crate::tournament::Engine;
    // Two moves in, so the game's history crosses too.
    let mut game = Barca::start();
    for _ in 0..2 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.make_move(moves[moves.len() / 2]);
    }
    let job =
        || MoveJob::new(&game, &Weights::default(), Engine::new(ai_engine(EngineAlgorithm::Id, Difficulty::Easy)), 7);
    let request = Request::BarcaMove(job());
    let bytes = encode(&request).unwrap();
    assert_eq!(encode(&decode::<Request>(&bytes).unwrap()).unwrap(), bytes, "the game, engine and table cross intact");
    let (crossed, _) = through_bytes(&request);
    let Some(Response::BarcaMove(crossed)) = crossed.poll().transpose().unwrap() else { panic!("no move came back") };
    let Response::BarcaMove(here) = wait(&Job::start("Barca", None, Request::BarcaMove(job()))) else {
        panic!("no move")
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(crossed.mv.is_some_and(|mv| moves.contains(&mv)), "a legal move");
    assert_eq!(crossed.mv, here.mv, "the same seeded choice");
}

#[test]
fn navmesh_recordings_cross_intact() {
    use crate::app::navmesh_lab::{MAPS, MeshCommand, NavmeshLab};
    // A polygon map, and a grid map (its grid crosses too, for grid A*'s path beside TA*'s).
    for map in [MAPS[0], MAPS[3]] {
        let mut lab = NavmeshLab::new();
        lab.apply(MeshCommand::LoadMap(map.to_string()));
        let request = || Request::Mesh(lab.query());
        let bytes = encode(&request()).unwrap();
        assert_eq!(encode(&decode::<Request>(&bytes).unwrap()).unwrap(), bytes, "{map}: the mesh crosses intact");
        let (crossed, _) = through_bytes(&request());
        let Some(Response::Mesh(crossed)) = crossed.poll().transpose().unwrap() else {
            panic!("{map}: no recording came back")
        };
        let Response::Mesh(here) = wait(&Job::start("mesh", None, request())) else { panic!("no recording") };
        let path = crossed.path().expect("the lesson's query has a path");
        assert!(path.length + 1e-9 >= crate::navmesh::distance(path.waypoints[0], *path.waypoints.last().unwrap()));
        assert_eq!(map.ends_with(".map"), crossed.grid_path().is_some(), "{map}");
        // A located start and goal, the same search: the triangulation itself crossed.
        assert_eq!(encode(&crossed).unwrap(), encode(&here).unwrap(), "{map}: the same recordings as on a thread");
    }
}

#[test]
fn a_failed_job_ends_with_its_message() {
    // A worker's panic, posted back as its hook does: the job ends, the page shows one line.
    let (sender, result) = mpsc::channel();
    let mut job = Some(Job {
        result,
        progress: Arc::default(),
        discarded: Arc::default(),
        started: Instant::now(),
        ran_in: Default::default(),
        label: "failing".into(),
    });
    let reply = Reply { progress: Arc::clone(&job.as_ref().unwrap().progress), sender, repaint: None };
    let panic = encode(&FromWorker::Failed("index out of bounds (src/grid/mod.rs:10:5)".into())).unwrap();
    let shown = reply.receive(&panic).unwrap_err();
    assert_eq!(shown, "The job failed, please report it: index out of bounds (src/grid/mod.rs:10:5)");
    let mut error = None;
    assert!(Job::finish(&mut job, &mut error).is_none());
    assert!(job.is_none(), "the job (and its progress bar) ended");
    assert_eq!(error.as_deref(), Some(shown.as_str()));
    // A thread's panic ends its job the same way.
    // (A start cell off the map: nothing the page sends, so it can stand for a bug.)
    let broken = GridJob::new(generate::random(4, 4, 0.0, 1), vec![GridSearch::default()], u32::MAX, 0);
    let mut job = Some(Job::start("broken", None, Request::Grid(broken)));
    let mut error = None;
    let deadline = Instant::now() + Duration::from_secs(60);
    while job.is_some() {
        assert!(Instant::now() < deadline, "the failed thread never answered");
        assert!(Job::finish(&mut job, &mut error).is_none());
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(error.is_some_and(|e| e.starts_with("The job failed, please report it: ")));
}

#[test]
fn a_planner_too_big_for_memory_is_refused_in_one_line() {
    use crate::app::grid_lab::{HierarchySettings, PlannerChoice};
    // PRA*'s pyramid on an open 4096x4096 map: about 2.2 GB by the estimate, refused unbuilt.
    let grid = crate::grid::Grid::new(4096, 4096);
    let (start, goal) = (grid.cell(0, 0), grid.cell(4095, 4000));
    let settings = HierarchySettings { planner: PlannerChoice::Pra, ..HierarchySettings::default() };
    let job = GridJob::new(grid, Vec::new(), start, goal).planned(&settings);
    let Response::Grid(Some(recorded)) = wait(&Job::start("plan", None, Request::Grid(job))) else {
        panic!("no recording")
    };
    let refusal = recorded.refusal().expect("refused").to_string();
    assert!(refusal.starts_with("PRA* on this 4096x4096 map would take about 2."), "{refusal}");
    assert!(!refusal.contains('\n'));
    assert!(recorded.plan().is_none(), "nothing planned");
}

#[test]
fn hierarchical_plans_cross_intact() {
    use crate::app::grid_lab::{HierarchySettings, PlannerChoice};
    for planner in [PlannerChoice::Hpa, PlannerChoice::Pra] {
        let settings = HierarchySettings { planner, ..HierarchySettings::default() };
        let request = || {
            let (query, _) = maze_query();
            Request::Grid(query.planned(&settings))
        };
        let (crossed, _) = through_bytes(&request());
        let Some(Response::Grid(Some(crossed))) = crossed.poll().transpose().unwrap() else {
            panic!("no recording came back")
        };
        let Response::Grid(Some(here)) = wait(&Job::start("plan", None, request())) else { panic!("no recording") };
        let (_, optimal) = maze_query();
        // Wall times differ from run to run; everything else is the same.
        let untimed = |(summary, bytes): (Option<crate::app::grid_lab::PlanSummary>, Vec<u8>)| {
            (
                summary.map(|s| crate::app::grid_lab::PlanSummary {
                    query_time: Default::default(),
                    astar_time: Default::default(),
                    ..s
                }),
                bytes,
            )
        };
        let (crossed, here) =
            (untimed(crossed.plan().expect("a plan came back").shown()), untimed(here.plan().expect("a plan").shown()));
        let summary = crossed.0.as_ref().expect("HPA* and PRA* have figures");
        assert!(
            (summary.astar_cost.unwrap() - optimal).abs() < 1e-6,
            "{planner:?}: A* beside it finds the scen optimum"
        );
        assert!(summary.cost.unwrap() >= optimal - 1e-6, "{planner:?}: no shorter than the optimum");
        assert_eq!(crossed, here, "{planner:?}: the same abstraction, replay and figures as on a thread");
    }
}
