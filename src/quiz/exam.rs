//! Exam mode: the questions a student identifier and an exam code give (the same pair, the same
//! questions), and the result as JSON and CSV.

use serde::Serialize;

use super::{Answer, Kind, Question};

/// One question of each kind.
pub const EXAM_LENGTH: usize = Kind::ALL.len();

/// The exam's seed: FNV-1a of the trimmed identifier and code, so it never changes between
/// versions or platforms (std's hasher may).
pub fn exam_seed(student: &str, code: &str) -> u64 {
    fnv1a(format!("{}\n{}", student.trim(), code.trim()).as_bytes())
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// The kind and seed of question `number` (from 0) of the exam with `seed`: the kinds in turn,
/// each from its own seed; asked with the default options.
pub fn exam_item(seed: u64, number: usize) -> (Kind, u64) {
    (Kind::ALL[number % Kind::ALL.len()], seed.wrapping_add(number as u64))
}

/// One answered question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answered {
    pub kind: String,
    pub seed: u64,
    pub question: String,
    pub given: String,
    pub answer: String,
    pub right: bool,
}

impl Answered {
    pub fn new(question: &Question, given: &Answer) -> Self {
        Answered {
            kind: question.kind.clone(),
            seed: question.seed,
            question: question.body.text.clone(),
            given: given.text(),
            answer: question.body.answer.text(),
            right: question.body.answer.accepts(given),
        }
    }
}

/// A finished (or partly answered) exam.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExamResult {
    pub student: String,
    pub exam_code: String,
    pub seed: u64,
    pub score: usize,
    pub questions: Vec<Answered>,
}

impl ExamResult {
    pub fn new(student: &str, code: &str, questions: Vec<Answered>) -> Self {
        ExamResult {
            student: student.trim().to_string(),
            exam_code: code.trim().to_string(),
            seed: exam_seed(student, code),
            score: questions.iter().filter(|q| q.right).count(),
            questions,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a result is plain data") + "\n"
    }

    /// One row per question after a header; every row names the student, code and exam seed.
    pub fn to_csv(&self) -> String {
        let mut csv = String::from("student,exam_code,exam_seed,number,kind,seed,question,given,answer,right\n");
        for (number, q) in self.questions.iter().enumerate() {
            let fields = [
                csv_field(&self.student),
                csv_field(&self.exam_code),
                self.seed.to_string(),
                (number + 1).to_string(),
                q.kind.clone(),
                q.seed.to_string(),
                csv_field(&q.question),
                csv_field(&q.given),
                csv_field(&q.answer),
                q.right.to_string(),
            ];
            csv += &(fields.join(",") + "\n");
        }
        csv
    }
}

/// A CSV field (RFC 4180): quoted, with its quotes doubled, when it holds a comma, quote or newline.
fn csv_field(text: &str) -> String {
    match text.contains([',', '"', '\n', '\r']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_fnv1a_of_the_pair() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(exam_seed(" s1 ", "A"), exam_seed("s1", "A"));
        assert_ne!(exam_seed("s1", "A"), exam_seed("s2", "A"));
        assert_ne!(exam_seed("s1", "A"), exam_seed("s1", "B"));
    }

    #[test]
    fn csv_fields_with_commas_quotes_or_lines_are_quoted() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\"\nthen"), "\"say \"\"hi\"\"\nthen\"");
    }
}
