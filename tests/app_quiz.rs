//! The quiz in the app, driven by its labels: the practice page grades a right and a wrong answer
//! (typed, or a move clicked) and asks another one; an exam's questions come back for the same
//! identifier and code, and its JSON and CSV hold what was asked, given and right; a lecture's
//! quiz cell asks on one slide and answers on the next.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use searchlab::app::{Notebook, NotebookCommand, Practice};
use searchlab::quiz::exam::{EXAM_LENGTH, exam_item, exam_seed};
use searchlab::quiz::{Answer, Kind, Options, Question, generate};

use common::scratch::ScratchDir;
use common::ui::{click, lesson_harness, settle, type_into};

type PracticeHarness = Harness<'static, Practice>;

fn practice(next: u64) -> PracticeHarness {
    let mut harness = lesson_harness([1280.0, 900.0], Practice::from_saved(Some(&format!("{{\"next\":{next}}}"))));
    harness.run();
    harness
}

fn shown(harness: &PracticeHarness) -> Question {
    harness.state().cell().question().expect("a question").clone()
}

/// A typed answer the question does not accept: its first number (or move) changed.
fn wrong_text(question: &Question) -> String {
    match &question.body.answer {
        Answer::Cells(_) => "999, 999".to_string(),
        Answer::Values { g, h, f } => format!("{}, {h}, {f}", g + 1.0),
        Answer::Number(value) => (value + 1.0).to_string(),
        Answer::Leaves(leaves) if leaves.is_empty() => "0".to_string(),
        Answer::Leaves(_) => "none".to_string(),
        Answer::Bound { relation, value } => format!("{} {}", relation.text(), value + 1),
        Answer::Moves(_) => "z9".to_string(),
    }
}

/// The first accepted answer, typed as a student would.
fn right_text(question: &Question) -> String {
    match &question.body.answer {
        Answer::Cells(cells) => format!("{}, {}", cells[0][0], cells[0][1]),
        Answer::Moves(moves) => moves[0].clone(),
        answer => answer.text(),
    }
}

fn answer(harness: &mut PracticeHarness, text: &str) {
    type_into(harness, "Your answer:", text);
    click(harness, "Check");
}

#[test]
fn practice_grades_a_right_and_a_wrong_answer_and_asks_another_one() {
    let mut harness = practice(0);
    let first = shown(&harness);
    assert_eq!(first.kind, "next-expansion");
    answer(&mut harness, &right_text(&first));
    assert!(harness.state().cell().graded().unwrap().right);
    harness
        .get_by_label(&format!("Right: {}.", Answer::parse(Kind::NextExpansion, &right_text(&first)).unwrap().text()));
    harness.get_by_label(&first.body.explanation);
    assert_eq!(harness.state().score(), (1, 1));

    click(&mut harness, "Another one");
    let second = shown(&harness);
    assert_eq!((second.kind.as_str(), second.seed), ("cell-values", 1), "the next kind, the next seed");
    assert!(harness.state().cell().graded().is_none());
    answer(&mut harness, &wrong_text(&second));
    assert!(!harness.state().cell().graded().unwrap().right);
    harness.get_by_label(&format!("Answer: {}", second.body.answer.text()));
    assert_eq!(harness.state().score(), (1, 2));
}

#[test]
fn a_typo_is_not_graded_but_said() {
    let mut harness = practice(0);
    answer(&mut harness, "3");
    harness.get_by_label("Not read: give two numbers: x, y");
    assert!(harness.state().cell().graded().is_none());
    assert_eq!(harness.state().score(), (0, 0));
}

#[test]
fn a_uct_move_is_answered_by_clicking_it() {
    // Question 6 is the seventh kind, uct-next.
    let mut harness = practice(6);
    let question = shown(&harness);
    let Answer::Moves(moves) = &question.body.answer else { panic!("a UCT question") };
    click(&mut harness, &moves[0]);
    assert!(harness.state().cell().graded().unwrap().right);
    assert_eq!(harness.state().score(), (1, 1));
}

/// Takes the exam of `student` and `code`, answering the even-numbered questions right and the
/// others wrong; returns the questions asked and what was typed.
fn take_exam(harness: &mut PracticeHarness, student: &str, code: &str) -> Vec<(Question, String)> {
    click(harness, "Exam");
    type_into(harness, "Student identifier:", student);
    type_into(harness, "Exam code:", code);
    click(harness, "Start the exam");
    let mut asked = Vec::new();
    for number in 0..EXAM_LENGTH {
        let question = shown(harness);
        harness.get_by_label(&format!("Question {} of {EXAM_LENGTH}", number + 1));
        let typed = if number % 2 == 0 { right_text(&question) } else { wrong_text(&question) };
        answer(harness, &typed);
        // No grade during the exam.
        assert!(harness.query_by_label_contains("Right:").is_none());
        assert!(harness.query_by_label_contains("Not right").is_none());
        asked.push((question, typed));
    }
    asked
}

/// RFC 4180 records: quoted fields may hold commas, doubled quotes and newlines.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (c, _) => field.push(c),
        }
    }
    records
}

#[test]
fn an_exam_is_reproduced_by_its_pair_and_saved_as_json_and_csv() {
    let dir = ScratchDir::new("quiz-exam");
    let mut harness = practice(0);
    let asked = take_exam(&mut harness, "s1234", "AI-2026");
    harness.get_by_label(&format!("Exam finished: {} of {EXAM_LENGTH} right", EXAM_LENGTH.div_ceil(2)));
    let seed = exam_seed("s1234", "AI-2026");
    for (number, (question, _)) in asked.iter().enumerate() {
        let (kind, item_seed) = exam_item(seed, number);
        assert_eq!(*question, generate(kind, item_seed, &Options::default()).unwrap());
    }
    assert_eq!(asked.iter().map(|(q, _)| q.kind.as_str()).collect::<Vec<_>>().len(), Kind::ALL.len());

    let stem = dir.path("result").display().to_string();
    type_into(&mut harness, "Save as:", &stem);
    click(&mut harness, "Save JSON");
    click(&mut harness, "Save CSV");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{stem}.json")).unwrap()).unwrap();
    assert_eq!(json["student"], "s1234");
    assert_eq!(json["exam_code"], "AI-2026");
    assert_eq!(json["seed"], seed);
    let csv = csv_records(&std::fs::read_to_string(format!("{stem}.csv")).unwrap());
    assert_eq!(csv[0].join(","), "student,exam_code,exam_seed,number,kind,seed,question,given,answer,right");
    assert_eq!(csv.len(), EXAM_LENGTH + 1);
    for (number, (question, typed)) in asked.iter().enumerate() {
        let saved = &json["questions"][number];
        let given = Answer::parse(question.kind.parse().unwrap(), typed).unwrap().text();
        let right = number % 2 == 0;
        assert_eq!(saved["question"], question.body.text.as_str());
        assert_eq!(saved["seed"], question.seed);
        assert_eq!(saved["given"], given.as_str());
        assert_eq!(saved["answer"], question.body.answer.text().as_str());
        assert_eq!(saved["right"], right);
        let row = &csv[number + 1];
        let expected = [&seed.to_string(), &(number + 1).to_string(), &question.kind, &question.seed.to_string()];
        assert_eq!(row[2..6].iter().collect::<Vec<_>>(), expected);
        let expected = [question.body.text.clone(), given, question.body.answer.text(), right.to_string()];
        assert_eq!(row[6..], expected);
    }

    // The same pair, on another page: the same questions; another code, others.
    let mut again = practice(40);
    let asked_again = take_exam(&mut again, " s1234 ", "AI-2026");
    let questions = |asked: &[(Question, String)]| asked.iter().map(|(q, _)| q.clone()).collect::<Vec<_>>();
    assert_eq!(questions(&asked_again), questions(&asked));
    let mut other = practice(0);
    let asked_other = take_exam(&mut other, "s1234", "AI-2027");
    assert_ne!(questions(&asked_other), questions(&asked));
}

#[test]
fn presenting_asks_on_one_slide_and_answers_on_the_next() {
    let dir = ScratchDir::new("quiz-present");
    let cell = "```searchlab\nversion = 1\nlab = \"quiz\"\nkind = \"node-value\"\nseed = 5\n```\n";
    let path = dir.write("talk.md", format!("# Quiz\n\nfirst\n\n## Your turn\n\n{cell}\n## After\n\nlast\n"));
    let mut harness = lesson_harness([1280.0, 900.0], Notebook::open(&path));
    settle(&mut harness);
    let question = generate(Kind::NodeValue, 5, &Options::default()).unwrap();
    let answer_line = format!("Answer: {}", question.body.answer.text());
    assert!(harness.query_by_label(&answer_line).is_none(), "no answer before one is given");
    harness.state_mut().apply(NotebookCommand::Present(true));
    harness.state_mut().apply(NotebookCommand::GoToSlide(1));
    settle(&mut harness);
    assert_eq!(harness.state().slide_count(), 4, "three sections, the quiz's twice");
    harness.get_by_label("Your answer:");
    assert!(harness.query_by_label(&answer_line).is_none(), "the question slide keeps the answer");
    harness.key_press(egui::Key::PageDown);
    settle(&mut harness);
    harness.get_by_label(&answer_line);
    harness.get_by_label(&question.body.explanation);
    assert!(harness.query_by_label("Your answer:").is_none());
    harness.key_press(egui::Key::PageDown);
    settle(&mut harness);
    harness.get_by_label("last");
}
