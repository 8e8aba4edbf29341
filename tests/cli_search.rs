//! `searchlab tictactoe search`, `searchlab barca search` and `searchlab barca play` as a user sees
//! them: one JSON line per answer, the facts of the game in it, one-line errors with exit code 2.

use std::process::{Command, Output};

use serde_json::Value;

fn searchlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab")).args(args).output().expect("the binary runs")
}

fn json_lines(output: &Output) -> Vec<Value> {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

fn fails_with(args: &[&str], needle: &str) {
    let output = searchlab(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
}

#[test]
fn tictactoe_search_prints_the_whole_tree_and_the_win() {
    let lines = json_lines(&searchlab(&["tictactoe", "search", "--algo", "minimax"]));
    let line = &lines[0];
    assert_eq!((line["score"].as_i64(), line["stats"]["nodes"].as_u64()), (Some(0), Some(549_946)));
    assert_eq!(line["pv"].as_array().map(Vec::len), Some(9));
    for algo in ["negamax", "alphabeta", "id"] {
        let lines = json_lines(&searchlab(&["tictactoe", "search", "--algo", algo, "--position", "xx./oo./..."]));
        assert_eq!(lines[0]["best_move"], "c3", "{algo}");
        assert_eq!(lines[0]["score"], 999_999, "{algo}");
        assert_eq!(lines[0]["position"], "xx./oo./...", "{algo}: the position as it was given");
    }
}

#[test]
fn barca_search_reports_move_pv_and_stats() {
    let lines = json_lines(&searchlab(&["barca", "search", "--algo", "id", "--depth", "3"]));
    let line = &lines[0];
    assert_eq!(line["stats"]["depth_reached"], 3);
    assert_eq!(line["pv"][0], line["best_move"]);
    assert!(line["stats"]["first_move_cutoff_rate"].as_f64().is_some());
    let ab = json_lines(&searchlab(&["barca", "search", "--algo", "alphabeta", "--depth", "3"]));
    assert_eq!(ab[0]["score"], line["score"], "the same value at the same depth");
}

/// White's elephants hold two holes and the lion on d7 the third: the game is over, and it reads
/// in White and Black like every other output, not in the engine's First and Second.
#[test]
fn barca_search_names_the_winner_by_colour() {
    let won = "4ee4/3lmml3/10/3L6/10/10/3E2E3/10/4MML3/10 b";
    let line = &json_lines(&searchlab(&["barca", "search", "--algo", "id", "--depth", "1", "--fen", won]))[0];
    assert_eq!(line["outcome"], "white wins", "{line}");
    let start = &json_lines(&searchlab(&["barca", "search", "--algo", "id", "--depth", "1"]))[0];
    assert!(start["outcome"].is_null(), "{start}");
}

/// Only iterative deepening counts nodes depth by depth: its counts add up to the node count, and
/// the one-pass searches leave the key out rather than print an empty list.
#[test]
fn nodes_per_depth_is_given_only_where_it_is_counted() {
    for game in ["tictactoe", "barca"] {
        for algo in ["minimax", "negamax", "alphabeta"] {
            let line = &json_lines(&searchlab(&[game, "search", "--algo", algo, "--depth", "2"]))[0];
            assert!(line["stats"].get("nodes_per_depth").is_none(), "{game} {algo}: {line}");
        }
        let line = &json_lines(&searchlab(&[game, "search", "--algo", "id", "--depth", "2"]))[0];
        let per_depth: Vec<u64> =
            line["stats"]["nodes_per_depth"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
        assert_eq!(per_depth.len(), 2, "{line}");
        assert_eq!(per_depth.iter().sum::<u64>(), line["stats"]["nodes"].as_u64().unwrap(), "{line}");
    }
}

/// Squares may be typed in either case: D2C3 is d2c3, the white lion stepping to c3.
#[test]
fn barca_moves_take_upper_case_squares() {
    let search = |moves: &str| {
        json_lines(&searchlab(&["barca", "search", "--algo", "id", "--depth", "1", "--moves", moves]))[0].clone()
    };
    let (upper, lower) = (search("D2C3"), search("d2c3"));
    assert_eq!(upper["fen"], "4ee4/3lmml3/10/10/10/10/10/2L7/4MML3/4EE4 b", "{upper}");
    assert_eq!(upper["fen"], lower["fen"]);
}

#[test]
fn barca_play_swaps_colours_and_adds_up() {
    let args = [
        "barca",
        "play",
        "--white",
        "alphabeta:1",
        "--black",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--ply-limit",
        "120",
    ];
    let lines = json_lines(&searchlab(&args));
    assert_eq!(lines.len(), 5, "four games and the summary");
    let colours: Vec<&str> = lines[..4].iter().map(|l| l["first_engine_plays"].as_str().unwrap()).collect();
    assert_eq!(colours, ["white", "black", "white", "black"]);
    let summary = &lines[4];
    let total = ["wins", "draws", "losses"].iter().map(|k| summary[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(total, 4);
    assert_eq!(summary["white"], "alphabeta:1");
    assert_eq!(json_lines(&searchlab(&args)), lines, "the same seed replays the same match");
}

#[test]
fn uct_takes_the_win_and_plays_barca() {
    let lines = json_lines(&searchlab(&[
        "tictactoe",
        "search",
        "--algo",
        "uct",
        "--position",
        "xx./oo./...",
        "--iterations",
        "2000",
    ]));
    assert_eq!(lines[0]["best_move"], "c3");
    assert_eq!(lines[0]["score"], 999_999, "the solver proves the win in one ply");
    let barca = json_lines(&searchlab(&["barca", "search", "--algo", "uct", "--iterations", "300", "--seed", "3"]));
    let best = barca[0]["best_move"].as_str().expect("a move from the start");
    let children = barca[0]["stats"]["children"].as_array().expect("per-child statistics");
    assert_eq!(children.len(), 38, "every legal first move is a root child");
    assert!(children.iter().any(|c| c["move"] == best));
    let play = json_lines(&searchlab(&[
        "barca",
        "play",
        "--white",
        "uct:100",
        "--black",
        "random",
        "--games",
        "2",
        "--ply-limit",
        "40",
    ]));
    assert_eq!(play[2]["white"], "uct:100");
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    fails_with(&["tictactoe", "search", "--algo", "minimax", "--position", "xxx"], "position");
    fails_with(&["tictactoe", "search", "--algo", "uct", "--depth", "3"], "do not apply to --algo uct");
    fails_with(&["tictactoe", "search", "--algo", "uct", "--exploration=-1"], "--exploration");
    fails_with(&["tictactoe", "search", "--algo", "alphabeta", "--nodes", "5"], "--nodes to id only");
    fails_with(&["barca", "play", "--white", "uct:0", "--black", "random"], "positive number of playouts");
    fails_with(&["barca", "search", "--algo", "id", "--fen", "bogus"], "--fen");
    fails_with(&["barca", "play", "--white", "alphabeta", "--black", "random"], "needs a depth");
    fails_with(&["barca", "play", "--white", "random", "--black", "random", "--games", "0"], "--games");
}

#[test]
fn depth_reached_is_the_depth_searched_for_every_algorithm() {
    // Five empty squares: no search reaches deeper than 5 plies, whatever depth it was given.
    for (position, plies) in [("x.o/.x./..o", 5), ("xox/xox/oxo", 0)] {
        for algo in ["minimax", "negamax", "alphabeta", "id"] {
            let lines = json_lines(&searchlab(&["tictactoe", "search", "--algo", algo, "--position", position]));
            assert_eq!(lines[0]["stats"]["depth_reached"], plies, "{algo} on {position}");
        }
    }
    let deep = json_lines(&searchlab(&["tictactoe", "search", "--algo", "alphabeta", "--depth", "3"]));
    assert_eq!(deep[0]["stats"]["depth_reached"], 3, "a horizon before the end of the game is the depth reached");
}

#[test]
fn every_algorithm_stops_by_default() {
    for algo in ["minimax", "negamax", "alphabeta", "id", "uct"] {
        assert_eq!(json_lines(&searchlab(&["tictactoe", "search", "--algo", algo])).len(), 1, "{algo}");
    }
    // Without --depth, --millis or --nodes, id searches Barca as deep as the fixed-depth searches do.
    let id = json_lines(&searchlab(&["barca", "search", "--algo", "id"]));
    assert_eq!(id[0]["stats"]["depth_reached"], 4);
    let timed = json_lines(&searchlab(&["barca", "search", "--algo", "id", "--nodes", "2000"]));
    assert!(timed[0]["stats"]["nodes"].as_u64().unwrap() <= 2001, "a node limit alone is not capped at depth 4");
    let bare = json_lines(&searchlab(&[
        "barca",
        "match",
        "--white",
        "id",
        "--black",
        "random",
        "--depth",
        "1",
        "--ply-limit",
        "20",
    ]));
    assert_eq!(bare.last().unwrap()["white"], "id:1", "a match's bare id searches --depth plies");
    let help = String::from_utf8_lossy(&searchlab(&["barca", "search", "--help"]).stdout).into_owned();
    assert!(help.contains("4 on Barca, 9 (the whole game) on tic-tac-toe, and for id too"), "{help}");
}

#[test]
fn uct_gives_a_score_only_in_units_the_game_has() {
    // Tic-tac-toe has no evaluation scale: an unproven UCT value is not turned into "points".
    let open = json_lines(&searchlab(&["tictactoe", "search", "--algo", "uct"]));
    assert!(open[0].get("score").is_none(), "{}", open[0]);
    let value = open[0]["value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&value), "a mean reward: {value}");
    let barca = json_lines(&searchlab(&["barca", "search", "--algo", "uct", "--iterations", "200"]));
    assert!(barca[0]["score"].is_i64(), "Barca's evaluation units: {}", barca[0]);
    for game in ["tictactoe", "barca"] {
        let help = String::from_utf8_lossy(&searchlab(&[game, "search", "--help"]).stdout).into_owned();
        assert!(
            help.contains("`score` is for the side to move")
                && help.contains("`value` is the best move's mean playout reward"),
            "{help}"
        );
    }
}

#[test]
fn limits_that_leave_nothing_to_do_are_refused() {
    fails_with(
        &["barca", "search", "--algo", "id", "--nodes", "0"],
        "invalid value for '--nodes <NODES>': '0' is not a whole number of 1 or more",
    );
    fails_with(
        &["barca", "match", "--white", "random", "--black", "random", "--opening-plies", "1000"],
        "--opening-plies 1000 must be below --ply-limit 300",
    );
    fails_with(
        &["barca", "match", "--white", "random", "--black", "random", "--ply-limit", "4"],
        "--opening-plies 4 must be below --ply-limit 4",
    );
    fails_with(
        &["barca", "tune", "--out", "/tmp/never-written.json", "--opening-plies", "9", "--ply-limit", "8"],
        "--opening-plies 9 must be below --ply-limit 8",
    );
}

/// `searchlab game` works for every registered game: Othello's published perft count, Hus's from
/// the reference in tests/hus_reference.rs, and a search with a game's default depth.
#[test]
fn game_perft_and_search_run_any_registered_game() {
    for (game, depth, nodes) in [("othello", "7", 55_092), ("hus", "3", 11_040), ("barca", "2", 0)] {
        let output = searchlab(&["game", "perft", "--game", game, "--depth", depth]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let line = &json_lines(&output)[0];
        assert_eq!(line["game"], game);
        if nodes > 0 {
            assert_eq!(line["nodes"], nodes, "{game}");
        }
    }
    let search =
        searchlab(&["game", "search", "--game", "tictactoe", "--algo", "alphabeta", "--position", "xx./oo./..."]);
    assert_eq!(json_lines(&search)[0]["best_move"], "c3");
    let error = searchlab(&["game", "perft", "--game", "chess", "--depth", "1"]);
    assert_eq!(error.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&error.stderr).contains("unknown game 'chess': use tictactoe, barca"));
}
