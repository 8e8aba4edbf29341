//! Self-play tournaments: scoring, Elo, SPRT, the match runner's determinism and a tiny tuning run.

mod common;

use common::cli::{assert_fails, json_lines, searchlab};
use common::scratch::ScratchDir;
use searchlab::games::barca::Barca;
use searchlab::games::barca::eval::Weights;
use searchlab::tournament::elo::{elo_from_score, expected_score};
use searchlab::tournament::scoring::{DRAW_SHARE, tally};
use searchlab::tournament::tune::{TUNED_NAMES, tunable, with_tunable};
use searchlab::tournament::{
    Contestant, Decision, EngineSpec, GameRecord, GameResult, MatchConfig, Objective, ReportScoring, Sprt, TuneConfig,
    TuneLog, Wdl, elo_estimate, plain_score, run_match, tune,
};

fn record(result: GameResult, plies: usize, mean_eval: f64) -> GameRecord {
    GameRecord { pair: 0, first_plays_white: true, result, plies, mean_eval }
}

#[test]
fn report_scoring_rewards_quick_wins_and_the_better_side_of_a_draw() {
    let scoring = ReportScoring::default();
    assert_eq!(scoring.score(&record(GameResult::Win, 12, 0.0)), 1.0, "a quick win earns the full point");
    assert_eq!(scoring.score(&record(GameResult::Win, 40, 0.0)), 0.75, "twice the quick length: half the bonus");
    assert_eq!(scoring.score(&record(GameResult::Win, 200, 0.0)), 0.55);
    assert_eq!(scoring.score(&record(GameResult::Loss, 40, 0.0)), -0.75, "losses mirror wins");
    assert_eq!(scoring.score(&record(GameResult::Draw, 300, 0.0)), 0.0);
    let better_draw = scoring.score(&record(GameResult::Draw, 300, 100.0));
    assert!((better_draw - DRAW_SHARE * 1f64.tanh()).abs() < 1e-12);
    assert_eq!(scoring.score(&record(GameResult::Draw, 300, -100.0)), -better_draw);
    assert!(
        scoring.score(&record(GameResult::Draw, 300, 1e9)) < scoring.score(&record(GameResult::Win, 10_000, 0.0)),
        "no draw outscores a win"
    );

    // The same W/D/L, so the same plain score, but quicker wins and better draws: a higher report score.
    let sharp =
        [record(GameResult::Win, 15, 0.0), record(GameResult::Draw, 300, 80.0), record(GameResult::Loss, 150, 0.0)];
    let slow =
        [record(GameResult::Win, 150, 0.0), record(GameResult::Draw, 300, -80.0), record(GameResult::Loss, 15, 0.0)];
    let plain = |games: &[GameRecord]| games.iter().map(plain_score).sum::<f64>() / games.len() as f64;
    assert_eq!(plain(&sharp), 0.5);
    assert_eq!(plain(&slow), 0.5);
    assert_eq!(tally(&sharp), Wdl { wins: 1, draws: 1, losses: 1 });
    assert!(
        scoring.mean(&sharp) > 0.15 && scoring.mean(&slow) < -0.15,
        "{} {}",
        scoring.mean(&sharp),
        scoring.mean(&slow)
    );
}

#[test]
fn elo_and_its_interval_match_hand_computed_values() {
    assert_eq!(expected_score(0.0), 0.5);
    assert!((elo_from_score(0.75) - 400.0 * 3f64.log10()).abs() < 1e-9);
    assert!((elo_from_score(expected_score(123.0)) - 123.0).abs() < 1e-9);
    // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16; Wilson with z = 1.96 and
    // n = 100: centre (0.7 + 0.019208) / 1.038416 = 0.692601, half-width 1.887490 · √(0.0016 +
    // 0.00009604) = 0.077732, so the interval is Elo(0.614869) to Elo(0.770333).
    let estimate = elo_estimate(&Wdl { wins: 60, draws: 20, losses: 20 });
    assert!((estimate.elo - 147.19).abs() < 0.01, "{estimate:?}");
    assert!((estimate.low - 81.27).abs() < 0.01, "{estimate:?}");
    assert!((estimate.high - 210.23).abs() < 0.01, "{estimate:?}");
    // A clean sweep of 4 games: no finite point estimate or upper end, but a lower end of Elo(0.5101).
    let sweep = elo_estimate(&Wdl { wins: 4, draws: 0, losses: 0 });
    assert_eq!((sweep.elo, sweep.high), (f64::INFINITY, f64::INFINITY));
    assert!((sweep.low - 7.02).abs() < 0.01, "{sweep:?}");
    let even = elo_estimate(&Wdl { wins: 10, draws: 0, losses: 10 });
    assert_eq!(even.elo, 0.0);
    assert!((even.low + even.high).abs() < 1e-9, "an even score has a symmetric interval");
    assert_eq!(
        elo_estimate(&Wdl { wins: 0, draws: 0, losses: 5 }).elo,
        f64::NEG_INFINITY,
        "no finite difference predicts a score of 0"
    );
}

#[test]
fn sprt_accepts_rejects_and_continues_on_synthetic_results() {
    let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
    let (lower, upper) = sprt.bounds();
    assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
    let strong = Wdl { wins: 600, draws: 200, losses: 200 };
    // n (s1 − s0)(2x̄ − s0 − s1) / 2σ², with σ² from the counts plus half a game each (1201/401/401 halves).
    let (s0, s1) = (0.5, expected_score(10.0));
    let (w, d, l) = (1201.0, 401.0, 401.0);
    let mean = (w + 0.5 * d) / (w + d + l);
    let variance = (w * (1.0 - mean) * (1.0 - mean) + d * (0.5 - mean) * (0.5 - mean) + l * mean * mean) / (w + d + l);
    let expected_llr = 1000.0 * (s1 - s0) * (2.0 * 0.7 - s0 - s1) / (2.0 * variance);
    assert!((sprt.llr(&strong) - expected_llr).abs() < 1e-9);
    assert_eq!(sprt.status(&strong).decision, Decision::AcceptH1);
    assert_eq!(sprt.status(&Wdl { wins: 200, draws: 200, losses: 600 }).decision, Decision::AcceptH0);
    assert_eq!(sprt.status(&Wdl { wins: 10, draws: 10, losses: 10 }).decision, Decision::Continue);
    assert_eq!(
        sprt.status(&Wdl { wins: 3, draws: 0, losses: 0 }).decision,
        Decision::Continue,
        "three wins prove little"
    );
    assert_eq!(sprt.llr(&Wdl::default()), 0.0);
    assert!(Sprt { elo0: 5.0, elo1: 0.0, ..sprt }.validate().is_err());
    assert!(Sprt { alpha: 0.0, ..sprt }.validate().is_err());
}

fn start() -> Barca {
    let mut game = Barca::start();
    game.set_ply_limit(Some(120));
    game
}

fn config(games: u32, sprt: Option<Sprt>) -> MatchConfig {
    MatchConfig { games, seed: 7, opening_plies: 4, sprt, scoring: ReportScoring::default() }
}

#[test]
fn match_runner_is_deterministic_for_a_seed_on_any_number_of_threads() {
    let other = Weights { centre: 8, ..Weights::default() };
    // `easy` samples its moves: the engines' own randomness must be seeded per game too.
    let contestants = [
        Contestant {
            engine: EngineSpec::level(searchlab::adversarial::choice::Difficulty::Easy),
            eval: Weights::default(),
        },
        Contestant { engine: EngineSpec::depth(searchlab::adversarial::engine::EngineAlgorithm::Id, 1), eval: other },
    ];
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| run_match(&start(), &contestants, &config(11, None), &()).unwrap())
    };
    let (one, two) = (on(1), on(2));
    assert_eq!(one.games, two.games);
    assert_eq!(one.games.len(), 11, "an odd count leaves the last opening with one game");
    let colours: Vec<bool> = one.games.iter().map(|g| g.first_plays_white).collect();
    assert_eq!(&colours[..4], [true, false, true, false]);
    assert_eq!(one.games.iter().map(|g| g.pair).max(), Some(5));
    assert!(one.games.iter().any(|g| g.plies > 0));
    let mut reseeded = config(11, None);
    reseeded.seed = 8;
    let elsewhere = run_match(&start(), &contestants, &reseeded, &()).unwrap();
    assert_ne!(elsewhere.games, one.games, "another seed, another opening suite");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let contestants = [
        Contestant {
            engine: EngineSpec::new(searchlab::adversarial::engine::EngineAlgorithm::Random),
            eval: Weights::default(),
        },
        Contestant {
            engine: EngineSpec::depth(searchlab::adversarial::engine::EngineAlgorithm::Id, 1),
            eval: Weights::default(),
        },
    ];
    let sprt = Sprt { elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05 };
    let report = run_match(&start(), &contestants, &config(400, Some(sprt)), &()).unwrap();
    let status = report.sprt.expect("the test ran");
    assert_eq!(status.decision, Decision::AcceptH0, "random moves are no stronger");
    assert!(
        report.games.len() < 400 && report.games.len() % 2 == 0,
        "stopped after a whole pair: {}",
        report.games.len()
    );
    let summary = report.summary(&ReportScoring::default());
    assert!(summary.score < 0.2 && summary.elo.high < 0.0, "{summary:?}");
}

#[test]
fn tuning_keeps_the_win_term_pinned_and_holes_in_order() {
    let mut values = tunable(&Weights::default());
    values[2] = 5_000; // two holes above the win
    values[0] = 90; // no hole better than one
    values[4] = -7;
    let guarded = with_tunable(&Weights::default(), values);
    assert_eq!(guarded.holes_held[3], 2_000);
    assert!(guarded.holes_held.windows(2).all(|pair| pair[0] <= pair[1]), "{:?}", guarded.holes_held);
    assert_eq!(guarded.holes_next_turn[1], 0);
    assert_eq!(with_tunable(&Weights::default(), tunable(&Weights::default())), Weights::default());
    // However far a step goes, the weights stay loadable (no evaluation near a proven win).
    for extreme in [i32::MAX, i32::MIN, 1_000_000, -1_000_000] {
        let guarded = with_tunable(&Weights::default(), [extreme; 10]);
        assert_eq!(guarded.check(), Ok(()), "{guarded:?}");
        assert_eq!(Weights::from_json(&guarded.to_json()), Ok(guarded));
    }
}

#[test]
fn a_tiny_tuning_run_completes_and_its_weights_load_back() {
    let mut config = TuneConfig::new(2, 4, 1);
    config.ply_limit = 80;
    let log = tune(&config, &()).unwrap();
    assert_eq!(log.iterations.len(), 3, "the start and two iterations");
    assert_eq!(log.iterations[0].weights, Weights::default());
    assert_eq!(log.iterations[0].plain_score, 0.5, "the start vs itself: each pair's games mirror");
    for row in &log.iterations {
        assert_eq!(row.weights.holes_held[3], 2_000, "the win term stays pinned");
        assert!((0.0..=1.0).contains(&row.plain_score) && (-1.0..=1.0).contains(&row.report_score));
    }
    let best = &log.iterations[log.best_iteration as usize];
    assert!(
        log.iterations.iter().all(|row| row.report_score <= best.report_score),
        "best is the best vs the reference"
    );
    assert_eq!(best.weights, log.best);
    let reloaded = TuneLog::from_json(&log.to_json()).unwrap();
    assert_eq!(reloaded.best, log.best);
    let weights = |log: &TuneLog| log.iterations.iter().map(|row| row.weights.clone()).collect::<Vec<_>>();
    assert_eq!(weights(&reloaded), weights(&log));
    assert_eq!(Weights::from_json(&log.best.to_json()).unwrap(), log.best);
    assert_eq!(log.to_csv().lines().count(), 4, "header and a line per row");

    let mut plain = config.clone();
    plain.objective = Objective::Plain;
    let plain_log = tune(&plain, &()).unwrap();
    for row in &plain_log.iterations {
        assert!(
            (row.objective_score - (2.0 * row.plain_score - 1.0)).abs() < 1e-12,
            "the plain objective is W/D/L on −1..1"
        );
    }
    assert_eq!(plain_log.iterations[0].weights, Weights::default());
}

#[test]
fn cli_tune_writes_weights_and_a_log_that_the_match_command_reads() {
    let dir = ScratchDir::new("tune");
    let (out, log) = (dir.path("weights.json"), dir.path("log.json"));
    let (out_text, log_text) = (out.to_str().unwrap(), log.to_str().unwrap());
    let args = [
        "barca",
        "tune",
        "--iterations",
        "1",
        "--games-per-eval",
        "2",
        "--depth",
        "1",
        "--ply-limit",
        "60",
        "--out",
        out_text,
        "--log",
        log_text,
    ];
    let lines = json_lines(&searchlab(&args));
    assert_eq!(lines[0]["iterations"], 1);
    let weights = Weights::load(&out).expect("valid weights");
    assert_eq!(serde_json::to_value(&weights).unwrap(), lines[0]["best"]);
    let log = TuneLog::from_json(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(log.iterations.len(), 2);

    let play = [
        "barca",
        "match",
        "--depth",
        "1",
        "--white-weights",
        out_text,
        "--games",
        "4",
        "--ply-limit",
        "60",
        "--sprt",
        "0,10",
        "--summary-only",
    ];
    let summary = &json_lines(&searchlab(&play))[0];
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["white"], "id:1");
    assert!(summary["elo"]["low"].as_f64().unwrap() <= summary["elo"]["high"].as_f64().unwrap());
    assert_eq!(summary["sprt"]["decision"], "continue");

    // The plot: two score lines, one line per tuned weight, each named in its legend.
    let svg_path = dir.path("log.svg");
    let plotted = json_lines(&searchlab(&["barca", "plot", "--log", log_text, "--out", svg_path.to_str().unwrap()]));
    assert_eq!(plotted[0]["iterations"], 2);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2 + TUNED_NAMES.len());
    assert!(TUNED_NAMES.iter().chain(&["report score"]).all(|name| svg.contains(&format!(">{name}</text>"))));
    assert_fails(&["barca", "plot", "--log", out_text, "--out", svg_path.to_str().unwrap()], "tuning log");
    let csv = dir.write("log.csv", log.to_csv());
    assert_fails(
        &["barca", "plot", "--log", csv.to_str().unwrap(), "--out", svg_path.to_str().unwrap()],
        "plots read the JSON log",
    );

    assert_fails(&["barca", "match", "--sprt", "5,0"], "elo0 < elo1");
    assert_fails(&["barca", "match", "--depth", "0"], "--depth");
    assert_fails(&["barca", "tune", "--depth", "65", "--out", "/tmp/x.json"], "--depth");
    assert_fails(&["barca", "match", "--sprt", "five"], "elo0,elo1");
    assert_fails(&["barca", "match", "--white-weights", "/nonexistent/w.json"], "--white-weights");
    // Black already holds three holes: no game can be played from there.
    let black_won = "4ee4/3l6/10/3m2m3/10/10/3l6/10/3LMML3/4EE4 w";
    assert_fails(
        &["barca", "match", "--fen", black_won, "--opening-plies", "0"],
        "--fen: the game is over (Black has won)",
    );
    assert_fails(&["barca", "tune", "--games-per-eval", "1", "--out", "/tmp/x.json"], "--games-per-eval");
    // A path that cannot be written is refused before any game is played.
    let started = std::time::Instant::now();
    assert_fails(
        &["barca", "tune", "--iterations", "50", "--out", "/nonexistent/dir/t.json"],
        "/nonexistent/dir/t.json: cannot write",
    );
    assert!(started.elapsed().as_secs() < 20, "refused at once, not after the run");
}
