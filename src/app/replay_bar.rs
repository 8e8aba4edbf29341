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
    pending: f64,
    /// Clock reading (seconds) of the last frame that played; `None` until play starts.
    last_time: Option<f64>,
}

impl ReplayBar {
    pub const MAX_SPEED: f32 = 100_000.0;

    pub fn new(speed: f32) -> Self {
        Self { playing: false, speed, pending: 0.0, last_time: None }
    }

    /// Buttons, speed slider and the "Timeline" slider at `position` of `len` steps; `step_name` names
    /// what a step is ("event"), for the speed's unit.
    pub fn ui(
        &self,
        ui: &mut egui::Ui,
        position: usize,
        len: usize,
        step_name: &str,
        commands: &mut Vec<ReplayCommand>,
    ) {
        // Wrapped: a row wider than the panel would widen it.
        ui.horizontal_wrapped(|ui| self.buttons(ui, commands));
        let text = format!("{step_name}s/s");
        let speed_width = Self::SPEED_WIDTH + beside_slider(ui, &text) + ui.spacing().item_spacing.x * 2.0 + 6.0;
        let timeline_width = ui.available_width() - beside_slider(ui, "Timeline");
        // The speed beside the timeline where both fit, under it in a narrow side panel.
        let one_row = timeline_width - speed_width >= Self::SHORTEST_TIMELINE;
        ui.horizontal(|ui| {
            ui.spacing_mut().slider_width =
                if one_row { timeline_width - speed_width } else { timeline_width.max(60.0) };
            timeline(ui, position, len, commands);
            if one_row {
                ui.separator();
                self.speed_slider(ui, &text, commands);
            }
        });
        if !one_row {
            ui.horizontal(|ui| self.speed_slider(ui, &text, commands));
        }
    }

    /// Slider widths: the speed's, and the timeline's at the least.
    const SPEED_WIDTH: f32 = 90.0;
    const SHORTEST_TIMELINE: f32 = 160.0;

    fn speed_slider(&self, ui: &mut egui::Ui, text: &str, commands: &mut Vec<ReplayCommand>) {
        ui.spacing_mut().slider_width = Self::SPEED_WIDTH;
        let mut speed = self.speed;
        let slider = egui::Slider::new(&mut speed, 1.0..=Self::MAX_SPEED).logarithmic(true).text(text);
        if ui.add(slider).changed() {
            commands.push(ReplayCommand::SetSpeed(speed));
        }
    }

    /// One row for a lecture cell: the same buttons and "Timeline" slider, no speed slider. In a
    /// narrow column the slider goes under the buttons rather than shrink to a stub.
    pub fn compact_ui(&self, ui: &mut egui::Ui, position: usize, len: usize, commands: &mut Vec<ReplayCommand>) {
        const LEAST_SLIDER: f32 = 120.0;
        // Room for the value box and the slider's name, measured in the text size shown.
        let font = egui::TextStyle::Body.resolve(ui.style());
        let text = |text: String| ui.painter().layout_no_wrap(text, font.clone(), egui::Color32::WHITE).size().x;
        let value = (text(len.to_string()) + 2.0 * ui.spacing().button_padding.x).max(ui.spacing().interact_size.x);
        let reserve = value + text("Timeline".into()) + 3.0 * ui.spacing().item_spacing.x + 4.0;
        let sized_timeline = |ui: &mut egui::Ui, commands: &mut Vec<ReplayCommand>| {
            ui.spacing_mut().slider_width = (ui.available_width() - reserve).max(80.0);
            timeline(ui, position, len, commands);
        };
        let beside = ui
            .horizontal(|ui| {
                self.buttons(ui, commands);
                let fits = ui.available_width() - reserve >= LEAST_SLIDER;
                if fits {
                    sized_timeline(ui, commands);
                }
                fits
            })
            .inner;
        if !beside {
            ui.horizontal(|ui| sized_timeline(ui, commands));
        }
    }

    /// The replay's buttons, named as they are shown now.
    fn button_labels(&self) -> [(&'static str, ReplayCommand); 5] {
        [
            ("|< Start", ReplayCommand::ToStart),
            ("< Step back", ReplayCommand::StepBack),
            (if self.playing { "Pause" } else { "Play" }, ReplayCommand::TogglePlay),
            ("Step >", ReplayCommand::StepForward),
            ("End >|", ReplayCommand::ToEnd),
        ]
    }

    /// How wide the row of buttons is in `ui`'s text size: the least a column holding
    /// [`Self::compact_ui`] needs.
    pub fn buttons_width(&self, ui: &egui::Ui) -> f32 {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let spacing = ui.spacing();
        self.button_labels()
            .iter()
            .map(|(label, _)| {
                ui.painter().layout_no_wrap(label.to_string(), font.clone(), egui::Color32::WHITE).size().x
                    + 2.0 * spacing.button_padding.x
            })
            .sum::<f32>()
            + 4.0 * spacing.item_spacing.x
    }

    fn buttons(&self, ui: &mut egui::Ui, commands: &mut Vec<ReplayCommand>) {
        for (label, command) in self.button_labels() {
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
        // Every press in the order made: on a slow frame several arrive at once, and none is lost.
        ui.input(|i| {
            for event in &i.events {
                if let egui::Event::Key { key: pressed_key, pressed: true, .. } = event
                    && let Some((_, command)) = keys.iter().find(|(key, _)| key == pressed_key)
                {
                    commands.push(*command);
                }
            }
        });
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
                self.last_time = None;
                // Play at the end starts over.
                (self.playing && position >= len).then_some(0)
            }
            ReplayCommand::SetSpeed(speed) => {
                self.speed = speed.clamp(1.0, Self::MAX_SPEED);
                None
            }
        }
    }

    /// While playing: the position this frame reaches; stops at the end. Reads egui's clock.
    pub fn advance(&mut self, ui: &egui::Ui, position: usize, len: usize) -> Option<usize> {
        self.advance_to(ui.input(|i| i.time), position, len)
    }

    /// While playing: the position reached at clock reading `now` (seconds). Measured from the
    /// previous frame's clock rather than egui's `stable_dt`, which is capped or predicted: a
    /// slow frame must not slow the replay below the slider's speed.
    fn advance_to(&mut self, now: f64, position: usize, len: usize) -> Option<usize> {
        if !self.playing {
            self.last_time = None;
            return None;
        }
        // A gap longer than this is a stall (suspended laptop, hidden window), not a frame.
        const LONGEST_FRAME: f64 = 1.0;
        let elapsed = self.last_time.map_or(0.0, |last| (now - last).clamp(0.0, LONGEST_FRAME));
        self.last_time = Some(now);
        self.pending += f64::from(self.speed) * elapsed;
        let steps = self.pending as usize;
        self.pending -= steps as f64;
        let target = (position + steps).min(len);
        if target >= len {
            self.playing = false;
        }
        Some(target)
    }
}

/// The "Timeline" slider at `position` of `len`. An empty replay's is greyed with its thumb at the
/// start (egui puts the thumb of a 0..=0 slider in the middle, as if half a replay had played).
fn timeline(ui: &mut egui::Ui, position: usize, len: usize, commands: &mut Vec<ReplayCommand>) {
    let mut at = position;
    if ui.add_enabled(len > 0, egui::Slider::new(&mut at, 0..=len.max(1)).text("Timeline")).changed() {
        commands.push(ReplayCommand::Seek(at));
    }
}

/// The width a slider's value box and its label `text` take beside it.
fn beside_slider(ui: &egui::Ui, text: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let text_width = ui.painter().layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE).size().x;
    // The value box grows past its least width with the digits (a timeline of 10,000 events).
    let spacing = ui.spacing();
    spacing.interact_size.x + 24.0 + text_width + 3.0 * spacing.item_spacing.x
}

/// Adds `slider` (labelled `text`) to a wrapped row: shortened to the rest of the row, or, when
/// even a short one would not fit, on a new row, shortened to that row if need be. A slider with
/// its value and text is several widgets, which a wrapped row cannot split, so it would run on
/// under whatever is beside the row.
pub fn slider_in_row(ui: &mut egui::Ui, slider: egui::Slider<'_>, text: &str) -> egui::Response {
    /// Shorter than this, a slider is hard to drag.
    const SHORTEST: f32 = 80.0;
    let full = ui.spacing().slider_width;
    let mut room = ui.available_size_before_wrap().x - beside_slider(ui, text);
    if room < SHORTEST.min(full) {
        ui.end_row();
        // A new row (or, in a column, the same width): shortened to it all the same.
        room = ui.available_size_before_wrap().x - beside_slider(ui, text);
    }
    ui.spacing_mut().slider_width = full.min(room).max(SHORTEST / 2.0);
    let response = ui.add(slider);
    ui.spacing_mut().slider_width = full;
    response
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
        assert_eq!(bar.advance_to(0.0, 0, 100), None, "paused");
        bar.apply(ReplayCommand::TogglePlay, 0, 100);
        assert_eq!(bar.advance_to(1.0, 0, 100), Some(0), "the first frame starts the clock");
        assert_eq!(bar.advance_to(1.05, 0, 100), Some(0), "half a step is owed");
        assert_eq!(bar.advance_to(1.1, 0, 100), Some(1));
        bar.apply(ReplayCommand::SetSpeed(1000.0), 1, 100);
        assert_eq!(bar.advance_to(1.2, 1, 100), Some(100));
        assert!(!bar.playing);
    }

    /// Plays `seconds` of wall time at `fps` frames a second; returns the position reached.
    fn play_for(speed: f32, fps: f64, seconds: f64) -> usize {
        let mut bar = ReplayBar::new(speed);
        let len = 1_000_000;
        bar.apply(ReplayCommand::TogglePlay, 0, len);
        let mut position = 0;
        let frames = (seconds * fps).round() as usize;
        for frame in 0..=frames {
            position = bar.advance_to(frame as f64 / fps, position, len).unwrap();
        }
        position
    }

    #[test]
    fn play_speed_is_the_sliders_whatever_the_frame_rate() {
        // 200 events/s for 10 s is 2,000 events at 60, 15, 3 and 1.5 frames per second.
        for fps in [60.0, 15.0, 3.0, 1.5] {
            let reached = play_for(200.0, fps, 10.0);
            assert!(reached.abs_diff(2000) <= 1, "{fps} fps reached {reached}");
        }
    }
}
