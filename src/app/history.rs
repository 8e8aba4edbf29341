//! Undo and redo for a page's edits: the states before each edit, a bounded number of them.

use std::collections::VecDeque;

/// Earlier states to go back to, and the states undone to go forward to again.
#[derive(Debug, Clone)]
pub struct History<T> {
    undo: VecDeque<T>,
    redo: Vec<T>,
    limit: usize,
}

impl<T> History<T> {
    /// Keeps the last `limit` states; older edits can no longer be undone.
    pub fn new(limit: usize) -> Self {
        Self { undo: VecDeque::new(), redo: Vec::new(), limit: limit.max(1) }
    }

    /// `before` is the state an edit is about to change; a new edit drops what was undone.
    pub fn record(&mut self, before: T) {
        if self.undo.len() == self.limit {
            self.undo.pop_front();
        }
        self.undo.push_back(before);
        self.redo.clear();
    }

    /// The state before the last edit, if any; `current` can be gone back to by `redo`.
    pub fn undo(&mut self, current: T) -> Option<T> {
        let before = self.undo.pop_back()?;
        self.redo.push(current);
        Some(before)
    }

    /// The state the last undo left, if any; `current` can be gone back to by `undo`.
    pub fn redo(&mut self, current: T) -> Option<T> {
        let after = self.redo.pop()?;
        self.undo.push_back(current);
        Some(after)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// Which way to go in a history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Undo,
    Redo,
}

impl<T> History<T> {
    /// Undoes or redoes, from `current`.
    pub fn step(&mut self, step: Step, current: T) -> Option<T> {
        match step {
            Step::Undo => self.undo(current),
            Step::Redo => self.redo(current),
        }
    }
}

/// Undo and Redo buttons, enabled when there is something to undo or redo; the one clicked.
pub fn buttons<T>(ui: &mut egui::Ui, history: &History<T>) -> Option<Step> {
    let undo = ui.add_enabled(history.can_undo(), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked();
    let redo = ui.add_enabled(history.can_redo(), egui::Button::new("Redo")).on_hover_text("Ctrl+Shift+Z").clicked();
    (undo || redo).then_some(if undo { Step::Undo } else { Step::Redo })
}

/// Ctrl+Z (undo) or Ctrl+Shift+Z / Ctrl+Y (redo) pressed this frame, unless a text field has the keys.
pub fn keys(ui: &egui::Ui) -> Option<Step> {
    if ui.ctx().egui_wants_keyboard_input() {
        return None;
    }
    use egui::{Key, Modifiers};
    ui.input_mut(|i| {
        // The longer shortcut first: Ctrl+Z alone would also match Ctrl+Shift+Z.
        if i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z) || i.consume_key(Modifiers::COMMAND, Key::Y) {
            Some(Step::Redo)
        } else {
            i.consume_key(Modifiers::COMMAND, Key::Z).then_some(Step::Undo)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_edits_both_ways_and_a_new_edit_drops_the_redo() {
        let mut history = History::new(10);
        history.record(0);
        history.record(1);
        assert_eq!(history.undo(2), Some(1));
        assert_eq!(history.undo(1), Some(0));
        assert_eq!(history.undo(0), None);
        assert_eq!(history.redo(0), Some(1));
        history.record(1);
        assert!(!history.can_redo(), "a new edit starts a new line");
        assert_eq!(history.undo(5), Some(1));
    }

    #[test]
    fn only_the_last_edits_are_kept() {
        let mut history = History::new(3);
        for state in 0..5 {
            history.record(state);
        }
        let mut undone = Vec::new();
        let mut current = 5;
        while let Some(before) = history.undo(current) {
            undone.push(before);
            current = before;
        }
        assert_eq!(undone, [4, 3, 2]);
    }
}
