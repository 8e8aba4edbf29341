//! The practice page: questions of every kind in turn with a running score; or an exam, whose
//! questions come from a student identifier and an exam code, graded only at the end and saved
//! as JSON and CSV.

use egui::RichText;
use serde::{Deserialize, Serialize};

use super::{Asked, QuizCell};
use crate::app::file_dialog::{FileRequest, NativeDialog};
use crate::app::{Lesson, settings_from, widgets};
use crate::quiz::exam::{Answered, EXAM_LENGTH, ExamResult, exam_item, exam_seed};
use crate::quiz::{Kind, Options};
use crate::scene::Scene;

/// The file formats a result is saved in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
}

impl Format {
    fn request(self) -> FileRequest {
        let (title, filter_name, extensions): (_, _, &'static [&'static str]) = match self {
            Format::Json => ("Save the exam's result as JSON", "JSON", &["json"]),
            Format::Csv => ("Save the exam's result as CSV", "CSV", &["csv"]),
        };
        FileRequest { title, filter_name, extensions, save: true, max_bytes: crate::files::MAX_TEXT }
    }

    fn extension(self) -> &'static str {
        self.request().extensions[0]
    }
}

/// Where an exam stands.
enum Exam {
    /// The identifier and code being typed.
    Signing,
    Running {
        student: String,
        code: String,
        answered: Vec<Answered>,
    },
    Done(ExamResult),
}

/// What the page keeps between runs: the next practice question, so a student does not see the
/// same ones again.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct Saved {
    next: u64,
}

pub struct Practice {
    cell: QuizCell,
    /// The practice question's number: its kind in turn and its seed.
    number: u64,
    right: usize,
    answered: usize,
    /// Whether the shown question's answer is in the score yet.
    counted: bool,
    exam: Option<Exam>,
    student: String,
    code: String,
    /// The result's file name without its extension.
    save_as: String,
    /// The height left for the question's picture: the page's less its text and buttons.
    picture_height: f32,
    dialog: NativeDialog<Format>,
    message: Option<Result<String, String>>,
}

/// The picture's height at most, and the room the question's text, grade and buttons take.
const PICTURE_HEIGHT: f32 = 360.0;
const AROUND_PICTURE: f32 = 250.0;

/// Practice question `number`: the kinds in turn.
fn practice_cell(number: u64) -> QuizCell {
    let mut cell = QuizCell::new(Kind::ALL[(number % Kind::ALL.len() as u64) as usize], number, Options::default());
    cell.keyboard = true;
    cell
}

impl Practice {
    pub fn from_saved(saved: Option<&str>) -> Self {
        let saved: Saved = settings_from(saved);
        Practice {
            cell: practice_cell(saved.next),
            number: saved.next,
            right: 0,
            answered: 0,
            counted: false,
            exam: None,
            student: String::new(),
            code: String::new(),
            save_as: "exam-result".to_string(),
            picture_height: PICTURE_HEIGHT,
            dialog: NativeDialog::default(),
            message: None,
        }
    }

    /// The question shown.
    pub fn cell(&self) -> &QuizCell {
        &self.cell
    }

    /// Right answers and answers given, in practice.
    pub fn score(&self) -> (usize, usize) {
        (self.right, self.answered)
    }

    /// The finished exam's result.
    pub fn result(&self) -> Option<&ExamResult> {
        match &self.exam {
            Some(Exam::Done(result)) => Some(result),
            _ => None,
        }
    }

    fn next_practice(&mut self) {
        self.number = self.number.wrapping_add(1);
        self.cell = practice_cell(self.number);
        self.counted = false;
    }

    /// Exam question `number` for the pair typed in.
    fn exam_cell(&mut self, number: usize) {
        let (kind, seed) = exam_item(exam_seed(&self.student, &self.code), number);
        self.cell = QuizCell::new(kind, seed, Options::default());
        self.cell.exam = true;
        self.cell.keyboard = true;
    }

    fn practice_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new(format!("Score: {} right of {} answered", self.right, self.answered)).strong());
        ui.weak("Answer by clicking the picture or typing, then Enter; N or \"Another one\" for the next question.");
        ui.separator();
        let (_, asked) = self.cell.show(ui, self.picture_height);
        if let Some(graded) = self.cell.graded().filter(|_| !self.counted) {
            self.right += usize::from(graded.right);
            self.answered += 1;
            self.counted = true;
        }
        if asked == Some(Asked::Another) {
            self.next_practice();
        }
    }

    fn signing_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(format!(
            "{EXAM_LENGTH} questions, one of each kind, with no grade until the end. The same identifier and \
             code give the same questions."
        ));
        egui::Grid::new("exam pair").show(ui, |ui| {
            let label = ui.label("Student identifier:");
            ui.add(egui::TextEdit::singleline(&mut self.student).desired_width(240.0)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Exam code:");
            ui.add(egui::TextEdit::singleline(&mut self.code).desired_width(240.0)).labelled_by(label.id);
            ui.end_row();
        });
        let ready = !self.student.trim().is_empty() && !self.code.trim().is_empty();
        if ui.add_enabled(ready, egui::Button::new("Start the exam")).clicked() {
            let (student, code) = (self.student.trim().to_string(), self.code.trim().to_string());
            self.save_as = format!("exam-{}", file_safe(&format!("{student}-{code}")));
            self.exam = Some(Exam::Running { student, code, answered: Vec::new() });
            self.exam_cell(0);
        }
    }

    fn running_ui(&mut self, ui: &mut egui::Ui) {
        let Some(Exam::Running { student, code, answered }) = &mut self.exam else { return };
        ui.label(RichText::new(format!("Question {} of {EXAM_LENGTH}", answered.len() + 1)).strong());
        ui.weak(format!("Exam {code} for {student}: no grade until the end."));
        ui.separator();
        self.cell.show(ui, self.picture_height);
        let (Some(graded), Some(question)) = (self.cell.graded(), self.cell.question()) else { return };
        answered.push(Answered::new(question, &graded.given));
        if answered.len() < EXAM_LENGTH {
            let number = answered.len();
            self.exam_cell(number);
        } else {
            let result = ExamResult::new(student, code, std::mem::take(answered));
            self.exam = Some(Exam::Done(result));
        }
    }

    fn done_ui(&mut self, ui: &mut egui::Ui) {
        let Some(Exam::Done(result)) = &self.exam else { return };
        let heading = format!("Exam finished: {} of {} right", result.score, result.questions.len());
        ui.label(RichText::new(heading).strong());
        egui::Grid::new("exam result").striped(true).show(ui, |ui| {
            for title in ["#", "Kind", "Seed", "Your answer", "Right answer", ""] {
                ui.strong(title);
            }
            ui.end_row();
            for (number, q) in result.questions.iter().enumerate() {
                ui.label((number + 1).to_string());
                ui.label(&q.kind);
                ui.label(q.seed.to_string());
                ui.label(&q.given);
                ui.label(&q.answer);
                ui.label(if q.right { "right" } else { "wrong" });
                ui.end_row();
            }
        });
        let mut save = None;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Save as:");
            ui.add(egui::TextEdit::singleline(&mut self.save_as).desired_width(220.0)).labelled_by(label.id);
            for format in [Format::Json, Format::Csv] {
                let extension = format.extension();
                if ui.button(format!("Save {}", extension.to_uppercase())).clicked() {
                    save = Some((format, format!("{}.{extension}", self.save_as.trim())));
                }
                let browse = egui::Button::new(format!("Save {} as…", extension.to_uppercase()));
                if ui.add_enabled(!self.dialog.is_open(), browse).clicked() {
                    let current = format!("{}.{extension}", self.save_as.trim());
                    self.dialog.open(format, format.request(), &current, Some(ui.ctx().clone()));
                }
            }
        });
        if let Some((format, path)) = save {
            self.save(format, &path);
        }
        if ui.button("New exam").clicked() {
            self.exam = Some(Exam::Signing);
        }
    }

    fn save(&mut self, format: Format, path: &str) {
        let Some(result) = self.result() else { return };
        let text = match format {
            Format::Json => result.to_json(),
            Format::Csv => result.to_csv(),
        };
        self.message = Some(match crate::files::write(std::path::Path::new(path), text) {
            Ok(()) => Ok(format!("Saved the result to {path}")),
            Err(e) => Err(format!("{path}: cannot write: {e}")),
        });
    }
}

/// `text` with only letters, digits, '-' and '_', for a file name.
fn file_safe(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

impl Lesson for Practice {
    fn ui(&mut self, ui: &mut egui::Ui) {
        if let Some((format, path)) = self.dialog.poll() {
            self.save(format, &path.display().to_string());
        }
        ui.horizontal_wrapped(|ui| {
            ui.heading("Quiz");
            ui.separator();
            if ui.selectable_label(self.exam.is_none(), "Practice").clicked() {
                self.exam = None;
            }
            let hint = "Questions from your identifier and the exam code; graded at the end, saved as JSON and CSV";
            if ui.selectable_label(self.exam.is_some(), "Exam").on_hover_text(hint).clicked() && self.exam.is_none() {
                self.exam = Some(Exam::Signing);
            }
        });
        match &self.message {
            Some(Ok(notice)) => widgets::notice(ui, notice),
            Some(Err(error)) => widgets::error(ui, error),
            None => {}
        }
        // The whole question on one screen, down to a projector's 720 lines at 130%.
        self.picture_height = (ui.available_height() - AROUND_PICTURE).clamp(160.0, PICTURE_HEIGHT);
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| match &self.exam {
            None => self.practice_ui(ui),
            Some(Exam::Signing) => self.signing_ui(ui),
            Some(Exam::Running { .. }) => self.running_ui(ui),
            Some(Exam::Done(_)) => self.done_ui(ui),
        });
    }

    fn save(&self) -> Option<String> {
        serde_json::to_string(&Saved { next: self.number.wrapping_add(1) }).ok()
    }

    fn scene(&self) -> Option<Scene> {
        self.exam.is_none().then(|| self.cell.scene()).flatten()
    }

    /// A lecture's quiz cell opened here: its question, to practise on.
    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        self.cell.set_scene(scene)?;
        self.cell.keyboard = true;
        self.exam = None;
        self.counted = false;
        Ok(())
    }
}
