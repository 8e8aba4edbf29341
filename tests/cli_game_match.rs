//! `searchlab game match`: any registered game, engines by spec, a line per game and a summary.

use std::process::{Command, Output};

use serde_json::Value;

fn searchlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab")).args(args).output().expect("the binary runs")
}

fn lines(output: &Output) -> Vec<Value> {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

#[test]
fn every_game_plays_a_match_and_sums_its_games() {
    for (game, sides) in [("othello", ["Black", "White"]), ("hus", ["Player 0", "Player 1"]), ("tictactoe", ["X", "O"])]
    {
        let args = ["game", "match", "--game", game, "--white", "alphabeta:1", "--black", "random", "--games", "4"];
        let out = lines(&searchlab(&args));
        let (games, summary) = out.split_at(4);
        let summary = &summary[0];
        assert_eq!(summary["game"], game);
        assert_eq!(summary["games"], 4);
        let count = |result: &str| games.iter().filter(|g| g["first_engine_result"] == result).count();
        assert_eq!(summary["wins"], count("win") as u64, "{game}");
        assert_eq!(summary["losses"], count("loss") as u64, "{game}");
        for g in games {
            assert!(sides.contains(&g["first_engine_plays"].as_str().unwrap()), "{game}: {g}");
        }
        let score = summary["score"].as_f64().unwrap();
        let interval = summary["score_interval"].as_array().unwrap();
        assert!(interval[0].as_f64().unwrap() <= score && score <= interval[1].as_f64().unwrap(), "{summary}");
    }
}

#[test]
fn an_unknown_game_or_a_finished_position_gets_one_line() {
    let out = searchlab(&["game", "match", "--game", "chess"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game 'chess'"));
    let out = searchlab(&["game", "match", "--game", "tictactoe", "--position", "xxx/oo./..."]);
    assert!(!out.status.success());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("--position") && error.contains("over"), "{error}");
}
