//! A question in the app: a lecture's quiz cell and the practice page's question. It draws the
//! instance, takes the answer by a click (a cell, a leaf, a move) or typed, grades it at once with
//! the question's explanation, opens the replay on the step the question is about ("Show me") and
//! asks another ("Another one": the next seed).

mod picture;
mod practice;

pub use practice::Practice;

use egui::{Key, Rect, RichText};

use self::picture::{Clicked, Picture};
use super::notebook::{LiveCell, request_open};
use super::{Lesson, widgets};
use crate::quiz::answer::hint;
use crate::quiz::{Answer, Kind, Options, Question, generate};
use crate::scene::{Lab, Scene, Step};

/// An answer given and whether it was right.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    pub given: Answer,
    pub right: bool,
}

/// What the reader asked of the question this frame, for its owner to act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    Another,
}

pub struct QuizCell {
    kind: Kind,
    options: Options,
    question: Result<Question, String>,
    picture: Option<Picture>,
    /// The answer field's text.
    typed: String,
    /// Why the typed answer could not be read.
    typo: Option<String>,
    /// Leaves clicked so far (pruned-leaves).
    picked: Vec<usize>,
    graded: Option<Graded>,
    /// In an exam: no grade, explanation or replay shown.
    pub exam: bool,
    /// Presenting the answer slide: the answer shown without one given.
    reveal: bool,
    /// The page's only question takes the keyboard: its answer field focused, N for another one.
    pub keyboard: bool,
    /// Put the keyboard in the answer field when next drawn.
    focus: bool,
}

impl QuizCell {
    pub fn new(kind: Kind, seed: u64, options: Options) -> Self {
        let mut cell = QuizCell {
            kind,
            options,
            question: Err(String::new()),
            picture: None,
            typed: String::new(),
            typo: None,
            picked: Vec::new(),
            graded: None,
            exam: false,
            reveal: false,
            keyboard: false,
            focus: false,
        };
        cell.ask(seed);
        cell
    }

    /// A fresh question of the same kind from `seed`.
    fn ask(&mut self, seed: u64) {
        self.question = generate(self.kind, seed, &self.options);
        self.picture = self.question.as_ref().ok().map(Picture::of).and_then(Result::ok);
        self.typed.clear();
        self.typo = None;
        self.picked.clear();
        self.graded = None;
        self.focus = true;
    }

    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref().ok()
    }

    pub fn graded(&self) -> Option<&Graded> {
        self.graded.as_ref()
    }

    /// Grades `given` (once: the next answer needs another question).
    pub fn answer(&mut self, given: Answer) {
        let Ok(question) = &self.question else { return };
        if self.graded.is_none() {
            let right = question.body.answer.accepts(&given);
            self.graded = Some(Graded { given, right });
        }
    }

    /// The next seed's question.
    pub fn another(&mut self) {
        let seed = self.question.as_ref().map_or(0, |q| q.seed.wrapping_add(1));
        self.ask(seed);
    }

    /// The replay of the question's instance at the step it is about.
    pub fn replay_scene(&self) -> Option<Scene> {
        let question = self.question()?;
        let mut scene = Scene::from_toml(&question.body.scene).ok()?;
        scene.step = Step::Index(question.body.show_step);
        Some(scene)
    }

    /// The question, its picture at most `height` tall, the answer field and the grade. Returns
    /// the picture's rect and what the reader asked for.
    pub fn show(&mut self, ui: &mut egui::Ui, height: f32) -> (Rect, Option<Asked>) {
        let question = match &self.question {
            Ok(question) => question,
            Err(error) => {
                widgets::error(ui, error);
                return (ui.min_rect(), None);
            }
        };
        let shown = (self.reveal || (self.graded.is_some() && !self.exam)).then_some(&question.body.answer);
        ui.label(prose(question, self.picture.is_some()));
        let (rect, clicked) = match &self.picture {
            Some(picture) => picture.ui(ui, question, height, &self.picked, shown),
            None => (ui.min_rect(), None),
        };
        match clicked {
            Some(Clicked::Cell(cell)) if self.kind == Kind::NextExpansion => self.answer(Answer::Cells(vec![cell])),
            Some(Clicked::Move(mv)) => self.answer(Answer::Moves(vec![mv])),
            Some(Clicked::Leaf(leaf)) if self.graded.is_none() => self.pick(leaf),
            _ => {}
        }
        if self.reveal {
            self.answer_text(ui);
            return (rect, None);
        }
        if self.graded.is_none() {
            self.answer_row(ui);
        }
        (rect, self.after(ui))
    }

    fn pick(&mut self, leaf: usize) {
        match self.picked.iter().position(|&l| l == leaf) {
            Some(at) => _ = self.picked.remove(at),
            None => self.picked.push(leaf),
        }
        self.picked.sort_unstable();
        let leaves: Vec<String> = self.picked.iter().map(usize::to_string).collect();
        self.typed = if leaves.is_empty() { String::new() } else { leaves.join(", ") };
    }

    fn answer_row(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Your answer:");
            let field = egui::TextEdit::singleline(&mut self.typed).hint_text(hint(self.kind)).desired_width(260.0);
            let response = ui.add(field).labelled_by(label.id);
            if std::mem::take(&mut self.focus) && self.keyboard {
                response.request_focus();
            }
            let entered = response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Check").clicked() || entered {
                match Answer::parse(self.kind, &self.typed) {
                    Ok(given) => {
                        self.typo = None;
                        self.answer(given);
                    }
                    Err(typo) => self.typo = Some(typo),
                }
            }
        });
        if let Some(typo) = &self.typo {
            widgets::error(ui, &format!("Not read: {typo}"));
        }
    }

    /// The grade and explanation, "Show me" and "Another one"; in an exam only that it was taken.
    fn after(&mut self, ui: &mut egui::Ui) -> Option<Asked> {
        let graded = self.graded.as_ref()?;
        if self.exam {
            widgets::notice(ui, &format!("Answer taken: {}", graded.given.text()));
            return None;
        }
        match graded.right {
            true => widgets::notice(ui, &format!("Right: {}.", graded.given.text())),
            false => widgets::error(ui, &format!("Not right: you gave {}.", graded.given.text())),
        }
        self.answer_text(ui);
        let mut asked = None;
        ui.horizontal_wrapped(|ui| {
            let hint = "The replay of this search, opened on the step the question is about";
            if ui.button("Show me").on_hover_text(hint).clicked()
                && let Some(scene) = self.replay_scene()
            {
                request_open(ui.ctx(), scene);
            }
            if ui.button("Another one").on_hover_text("A new instance: the next seed (N)").clicked()
                || self.keyboard && ui.input(|i| i.key_pressed(Key::N)) && !ui.ctx().egui_wants_keyboard_input()
            {
                asked = Some(Asked::Another);
            }
        });
        asked
    }

    fn answer_text(&self, ui: &mut egui::Ui) {
        let Ok(question) = &self.question else { return };
        ui.label(RichText::new(format!("Answer: {}", question.body.answer.text())).strong());
        ui.label(&question.body.explanation);
    }
}

/// The question's words; a grid's rows of characters left out where the picture shows them.
fn prose(question: &Question, drawn: bool) -> String {
    let lines: Vec<&str> = question.body.text.lines().collect();
    match (drawn, lines.as_slice()) {
        (true, [first, .., last]) if lines.len() > 2 => format!("{first}\n{last}"),
        _ => question.body.text.clone(),
    }
}

impl Lesson for QuizCell {
    fn ui(&mut self, ui: &mut egui::Ui) {
        if self.show(ui, 360.0).1 == Some(Asked::Another) {
            self.another();
        }
    }

    fn scene(&self) -> Option<Scene> {
        let question = self.question()?;
        let mut scene = Scene::new(Lab::Quiz);
        scene.kind = Some(self.kind.id().to_string());
        scene.algorithm = self.options.algorithm.clone();
        scene.size = self.options.size;
        scene.seed = Some(question.seed);
        Some(scene)
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        let kind: Kind = scene.kind.as_deref().unwrap_or_default().parse()?;
        let options = scene.quiz_options();
        generate(kind, scene.seed.unwrap_or(0), &options)?;
        *self = QuizCell::new(kind, scene.seed.unwrap_or(0), options);
        Ok(())
    }
}

impl LiveCell for QuizCell {
    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let (rect, asked) = self.show(ui, height);
        if asked == Some(Asked::Another) {
            self.another();
        }
        rect
    }

    fn present_answer(&mut self, shown: bool) {
        self.reveal = shown;
    }
}
