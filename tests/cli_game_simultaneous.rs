//! `searchlab game perft|search|match` on simultaneous-move games: RoPaSci 360's perft against a
//! plain count written here, SM-MCTS's JSON on rock-paper-scissors against the equilibrium, and a
//! RoPaSci match whose lines add up to its summary.

use std::process::{Command, Output};

use serde_json::Value;

fn searchlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab")).args(args).output().expect("the binary runs")
}

fn lines(output: &Output) -> Vec<Value> {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

type Hex = (i32, i32);

fn on_board((r, q): Hex) -> bool {
    r.abs() <= 4 && q.abs() <= 4 && (r + q).abs() <= 4
}

fn neighbours((r, q): Hex) -> Vec<Hex> {
    [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
        .iter()
        .map(|(dr, dq)| (r + dr, q + dq))
        .filter(|&h| on_board(h))
        .collect()
}

/// Upper's n-th throw lands on rows r >= 5 - n, Lower's on rows r <= n - 5.
fn throw_zone(upper: bool, n: i32) -> Vec<Hex> {
    let hexes = (-4..=4).flat_map(|r| (-4..=4).map(move |q| (r, q))).filter(|&h| on_board(h));
    hexes.filter(|&(r, _)| if upper { r >= 5 - n } else { r <= n - 5 }).collect()
}

/// A player's actions with `tokens` on the board after `throws` throws: three symbols per throw
/// hex, then each token's slides and swings (swings need a second own token as pivot). Returns
/// where each action puts a token, with the token set after it.
fn plain_actions(upper: bool, tokens: &[Hex], throws: i32) -> Vec<Vec<Hex>> {
    let mut out = Vec::new();
    for _symbol in 0..3 {
        for hex in throw_zone(upper, throws + 1) {
            out.push([tokens, &[hex]].concat());
        }
    }
    for (i, &from) in tokens.iter().enumerate() {
        let mut targets = neighbours(from);
        for &pivot in tokens.iter().filter(|&&p| neighbours(from).contains(&p)) {
            let swings = neighbours(pivot).into_iter().filter(|&h| h != from && !neighbours(from).contains(&h));
            for h in swings {
                if !targets.contains(&h) {
                    targets.push(h);
                }
            }
        }
        for to in targets {
            let mut moved = tokens.to_vec();
            moved[i] = to;
            out.push(moved);
        }
    }
    out
}

/// Joint-action leaves from the empty board, depth 1 or 2: the tokens of the two sides stay in
/// rows 3-4 and -3..-4, so no battle can happen and each side's count is independent.
fn plain_perft(depth: u32) -> u64 {
    let after_one = [true, false].map(|upper| plain_actions(upper, &[], 0));
    if depth == 1 {
        return (after_one[0].len() * after_one[1].len()) as u64;
    }
    let per_side = after_one.map(|list| {
        for tokens in &list {
            assert!(tokens.iter().all(|&(r, _)| r.abs() >= 3), "no battle before turn 3");
        }
        list.iter().map(|tokens| plain_actions(tokens[0].0 > 0, tokens, 1).len() as u64).sum::<u64>()
    });
    per_side[0] * per_side[1]
}

#[test]
fn ropasci_perft_counts_joint_actions_as_a_plain_count_does() {
    for depth in 1..=2 {
        let depth_text = depth.to_string();
        let out = lines(&searchlab(&["game", "perft", "--game", "ropasci", "--depth", &depth_text]));
        assert_eq!(out[0]["game"], "ropasci");
        assert_eq!(out[0]["nodes"].as_u64(), Some(plain_perft(depth)), "depth {depth}");
    }
    let out = lines(&searchlab(&["game", "perft", "--game", "goofspiel", "--position", "3", "--depth", "3"]));
    assert_eq!(out[0]["nodes"], 36, "3! x 3! complete games");
}

#[test]
fn regret_matching_search_on_rock_paper_scissors_reports_the_equilibrium() {
    let args = ["game", "search", "--game", "matrix", "--algo", "regret", "--iterations", "50000", "--seed", "3"];
    let out = &lines(&searchlab(&args))[0];
    for side in ["Row", "Column"] {
        let listed = out["strategies"][side].as_array().unwrap();
        let names: Vec<&str> = listed.iter().map(|a| a["action"].as_str().unwrap()).collect();
        assert_eq!(names, ["rock", "paper", "scissors"]);
        for (a, eq) in listed.iter().zip(out["equilibrium"][side].as_array().unwrap()) {
            assert!((eq.as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
            assert!((a["p"].as_f64().unwrap() - 1.0 / 3.0).abs() < 0.05, "{out}");
        }
    }
    // NashConv of RPS strategies x, y: max_i (Ay)_i - min_j (xA)_j, recomputed here.
    let p = |side: &str| -> Vec<f64> {
        out["strategies"][side].as_array().unwrap().iter().map(|a| a["p"].as_f64().unwrap()).collect()
    };
    let (x, y) = (p("Row"), p("Column"));
    let gain = |s: &[f64], i: usize| s[(i + 2) % 3] - s[(i + 1) % 3];
    let best_row = (0..3).map(|i| gain(&y, i)).fold(f64::MIN, f64::max);
    let best_column = (0..3).map(|j| -gain(&x, j)).fold(f64::MAX, f64::min);
    assert!((out["exploitability"].as_f64().unwrap() - (best_row - best_column)).abs() < 1e-9, "{out}");
}

#[test]
fn ropasci_search_names_both_actions() {
    let args = ["game", "search", "--game", "ropasci", "--algo", "uct", "--iterations", "300"];
    let out = &lines(&searchlab(&args))[0];
    assert_eq!(out["iterations"], 300);
    assert!(out["actions"]["Upper"].as_str().unwrap().starts_with("THROW "), "{out}");
    assert!(out["actions"]["Lower"].as_str().unwrap().starts_with("THROW "), "{out}");
    assert_eq!(out["strategies"]["Upper"].as_array().unwrap().len(), 10, "the ten likeliest of 15");
}

#[test]
fn a_ropasci_match_adds_up() {
    let args = ["game", "match", "--game", "ropasci", "--white", "uct:100", "--black", "random", "--games", "4"];
    let out = lines(&searchlab(&args));
    let (games, summary) = out.split_at(4);
    let count = |result: &str| games.iter().filter(|g| g["first_engine_result"] == result).count() as u64;
    assert_eq!(summary[0]["wins"], count("win"));
    assert_eq!(summary[0]["draws"], count("draw"));
    assert_eq!(summary[0]["losses"], count("loss"));
    let plays: Vec<&str> = games.iter().map(|g| g["first_engine_plays"].as_str().unwrap()).collect();
    assert_eq!(plays, ["Upper", "Lower", "Upper", "Lower"]);
}

#[test]
fn turn_based_only_options_get_one_line() {
    for (args, expected) in [
        (&["game", "search", "--game", "ropasci", "--algo", "alphabeta"][..], "simultaneous-move game"),
        (&["game", "match", "--game", "ropasci", "--white", "id:2", "--black", "random"], "uct:N"),
        (&["game", "search", "--game", "tictactoe", "--algo", "regret"], "simultaneous-move games only"),
        (&["game", "perft", "--game", "ropasci", "--position", "R@9,9 / 1 0 / 1", "--depth", "1"], "--position"),
        (&["game", "search", "--game", "matrix", "--position", "1 2; 0", "--algo", "uct"], "--position"),
    ] {
        let out = searchlab(args);
        assert!(!out.status.success(), "{args:?}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains(expected) && error.lines().count() == 1, "{args:?}: {error}");
    }
}
