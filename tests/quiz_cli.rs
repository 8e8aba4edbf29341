//! `searchlab quiz`: the formats the issue fixes, checked on the binary's output.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_searchlab")).args(args).output().expect("the binary runs");
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap())
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).expect("one JSON object a line")).collect()
}

#[test]
fn pruned_leaves_prints_fifty_trees_and_leaf_positions() {
    let (out, err, code) = run(&["quiz", "generate", "pruned-leaves", "--seed", "1", "--count", "50"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let questions = lines(&out);
    assert_eq!(questions.len(), 50);
    for (i, q) in questions.iter().enumerate() {
        assert_eq!(q["kind"], "pruned-leaves");
        assert_eq!(q["seed"], 1 + i as u64);
        let scene: toml::Table = q["scene"].as_str().unwrap().parse().unwrap();
        let tree = scene["tree"].as_str().unwrap();
        assert!(tree.starts_with("((") && tree.ends_with(')'), "{tree}");
        let leaf_count = tree.split(',').count();
        for leaf in q["answer"].as_array().unwrap() {
            assert!((leaf.as_u64().unwrap() as usize) < leaf_count, "a 0-based leaf position: {q}");
        }
        assert!(!q["question"].as_str().unwrap().is_empty());
    }
    let (again, _, _) = run(&["quiz", "generate", "pruned-leaves", "--seed", "1", "--count", "50"]);
    assert_eq!(out, again, "the same seed prints the same bytes");
}

#[test]
fn next_expansion_answers_are_cells() {
    let (out, _, code) = run(&["quiz", "generate", "next-expansion", "--seed", "1", "--count", "50"]);
    assert_eq!(code, 0);
    for q in lines(&out) {
        let scene: toml::Table = q["scene"].as_str().unwrap().parse().unwrap();
        let width = scene["map"]["inline"].as_str().unwrap().lines().find_map(|l| l.strip_prefix("width ")).unwrap();
        let width: u64 = width.parse().unwrap();
        let cells = q["answer"].as_array().unwrap();
        assert!(!cells.is_empty());
        for cell in cells {
            let [x, _y] = [cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap()];
            assert!(x < width, "{q}");
        }
    }
}

#[test]
fn bad_kinds_and_options_get_one_line() {
    let (_, err, code) = run(&["quiz", "generate", "next", "--seed", "1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown question kind 'next': use next-expansion,"), "{err}");
    let (_, err, code) = run(&["quiz", "generate", "node-value", "--seed", "1", "--size", "9"]);
    assert_eq!((code, err.lines().count()), (2, 1));
    assert!(err.contains("from 2 to 4, not 9"), "{err}");
}

#[test]
fn a_lectures_quiz_cells_print_their_questions() {
    let dir = std::env::temp_dir().join(format!("searchlab-quiz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("quiz.md");
    let cell = |kind: &str| format!("```searchlab\nversion = 1\nlab = \"quiz\"\nkind = \"{kind}\"\nseed = 4\n```\n");
    let text = format!("# Quiz\n\n## A\n\n{}\n## B\n\n{}", cell("node-bound"), cell("uct-next"));
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let (out, err, code) = run(&["quiz", "lecture", path, "--seed", "10"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let questions = lines(&out);
    let kinds: Vec<&str> = questions.iter().map(|q| q["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["node-bound", "uct-next"]);
    assert_eq!(questions[0]["seed"], 14, "the cell's seed plus --seed");
    assert_eq!(questions[0]["line"], 5);
    let (_, err, code) = run(&["lecture", "--check", path]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
