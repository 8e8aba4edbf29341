//! The replay controls a lesson puts above its view: start, step back, play/pause, step, end, a
//! speed slider and a timeline, with the same labels and keys as the grid lab. The bar only turns
//! clicks and keys into [`ReplayCommand`]s and says where the timeline should go; the page owns
//! its player and seeks it.

use egui::Key;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReplayCommand {
    ToStart,
    StepBack,
    TogglePlay,
    StepForward,
    ToEnd,
    /// Jump to a position of the timeline.
    Seek(usize),
    /// Steps per second while playing.
    SetSpeed(f32),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReplayBar {
    pub playing: bool,
    pub speed: f32,
    /// Steps owed from earlier frames (fractions of a step).
    pending: f32,
}

impl ReplayBar {
    pub const MAX_SPEED: f32 = 100_000.0;

    pub fn new(speed: f32) -> Self {
        Self { playing: false, speed, pending: 0.0 }
    }

    /// Buttons, speed slider and the "Timeline" slider at `position` of `len` steps; `step_name` names
    /// what a step is ("event"), for the speed's unit.
    pub fn ui(&self, ui: &mut egui::Ui, position: usize, len: usize, step_name: &str, commands: &mut Vec<ReplayCommand>) {
        // Wrapped: a row wider than the panel would widen it.
        ui.horizontal_wrapped(|ui| {
            self.buttons(ui, commands);
            ui.separator();
            let mut speed = self.speed;
            let slider =
                egui::Slider::new(&mut speed, 1.0..=Self::MAX_SPEED).logarithmic(true).text(format!("{step_name}s/s"));
            if ui.add(slider).changed() {
                commands.push(ReplayCommand::SetSpeed(speed));
            }
        });
        ui.horizontal(|ui| {
            // Room for the value box and the "Timeline" label beside the slider.
            ui.spacing_mut().slider_width = (ui.available_width() - 160.0).max(120.0);
            let mut at = position;
            if ui.add(egui::Slider::new(&mut at, 0..=len).text("Timeline")).changed() {
                commands.push(ReplayCommand::Seek(at));
            }
        });
    }

    /// One row for a lecture cell: the same buttons and "Timeline" slider, no speed slider.
    pub fn compact_ui(&self, ui: &mut egui::Ui, position: usize, len: usize, commands: &mut Vec<ReplayCommand>) {
        ui.horizontal(|ui| {
            self.buttons(ui, commands);
            ui.spacing_mut().slider_width = (ui.available_width() - 140.0).max(80.0);
            let mut at = position;
            if ui.add(egui::Slider::new(&mut at, 0..=len).text("Timeline")).changed() {
                commands.push(ReplayCommand::Seek(at));
            }
        });
    }

    fn buttons(&self, ui: &mut egui::Ui, commands: &mut Vec<ReplayCommand>) {
        let buttons = [
            ("|< Start", ReplayCommand::ToStart),
            ("< Step back", ReplayCommand::StepBack),
            (if self.playing { "Pause" } else { "Play" }, ReplayCommand::TogglePlay),
            ("Step >", ReplayCommand::StepForward),
            ("End >|", ReplayCommand::ToEnd),
        ];
        for (label, command) in buttons {
            if ui.button(label).clicked() {
                commands.push(command);
            }
        }
    }

    /// Space plays or pauses, arrows step, Home and End jump (unless a text field has the keyboard).
    pub fn keys(ui: &egui::Ui, commands: &mut Vec<ReplayCommand>) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let keys = [
            (Key::Space, ReplayCommand::TogglePlay),
            (Key::ArrowRight, ReplayCommand::StepForward),
            (Key::ArrowLeft, ReplayCommand::StepBack),
            (Key::Home, ReplayCommand::ToStart),
            (Key::End, ReplayCommand::ToEnd),
        ];
        for (key, command) in keys {
            if ui.input(|i| i.key_pressed(key)) {
                commands.push(command);
            }
        }
    }

    /// Applies `command` at `position` of `len`; returns the position to seek to, if it moves.
    pub fn apply(&mut self, command: ReplayCommand, position: usize, len: usize) -> Option<usize> {
        match command {
            ReplayCommand::ToStart => Some(0),
            ReplayCommand::StepBack => Some(position.saturating_sub(1)),
            ReplayCommand::StepForward => Some((position + 1).min(len)),
            ReplayCommand::ToEnd => Some(len),
            ReplayCommand::Seek(at) => Some(at.min(len)),
            ReplayCommand::TogglePlay => {
                self.playing = !self.playing;
                self.pending = 0.0;
                // Play at the end starts over.
                (self.playing && position >= len).then_some(0)
            }
            ReplayCommand::SetSpeed(speed) => {
                self.speed = speed.clamp(1.0, Self::MAX_SPEED);
                None
            }
        }
    }

    /// While playing: the position this frame reaches after `dt` seconds; stops at the end.
    pub fn advance(&mut self, dt: f32, position: usize, len: usize) -> Option<usize> {
        if !self.playing {
            return None;
        }
        self.pending += self.speed * dt.min(0.1);
        let steps = self.pending as usize;
        self.pending -= steps as f32;
        let target = (position + steps).min(len);
        if target >= len {
            self.playing = false;
        }
        Some(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_move_within_the_timeline() {
        let mut bar = ReplayBar::new(10.0);
        assert_eq!(bar.apply(ReplayCommand::StepBack, 0, 5), Some(0));
        assert_eq!(bar.apply(ReplayCommand::StepForward, 5, 5), Some(5));
        assert_eq!(bar.apply(ReplayCommand::Seek(99), 2, 5), Some(5));
        assert_eq!(bar.apply(ReplayCommand::TogglePlay, 5, 5), Some(0), "play at the end starts over");
        assert!(bar.playing);
    }

    #[test]
    fn playing_advances_by_speed_and_stops_at_the_end() {
        let mut bar = ReplayBar::new(10.0);
        assert_eq!(bar.advance(0.05, 0, 100), None, "paused");
        bar.apply(ReplayCommand::TogglePlay, 0, 100);
        assert_eq!(bar.advance(0.05, 0, 100), Some(0), "half a step is owed");
        assert_eq!(bar.advance(0.05, 0, 100), Some(1));
        bar.apply(ReplayCommand::SetSpeed(1000.0), 1, 100);
        assert_eq!(bar.advance(0.1, 1, 100), Some(100));
        assert!(!bar.playing);
    }
}
