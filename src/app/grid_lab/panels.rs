//! The side panels and the toolbar over the canvas: map, scenario, search and replay controls,
//! progress, statistics and the legend.

use egui::RichText;

use super::{FileField, GridCommand, GridLab, SearchReplay, StepUnit, Tool, describe, millis};
use crate::app::{history, theme, widgets};
use crate::grid::movingai::Scenario;
use crate::grid::{Connectivity, MAX_WEIGHT, generate};
use crate::pathfinding::search_trace::SearchOutcome;
use crate::pathfinding::{Algorithm, GridSearch, Heuristic};
use crate::text::counted;

impl GridLab {
    pub(super) fn map_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Map file:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.map_path).desired_width(230.0)).labelled_by(label.id);
            if ui.button("Load map").clicked() {
                commands.push(GridCommand::LoadMap(self.settings.map_path.clone()));
            }
            self.browse_button(ui, "Open map…", FileField::Map, commands);
        });
        ui.weak("…or drop a .map or .scen file onto the window.");
        let spec = &mut self.settings.generator;
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Generator").selected_text(spec.kind.name()).show_ui(ui, |ui| {
                for kind in generate::Kind::ALL {
                    ui.selectable_value(&mut spec.kind, kind, kind.name());
                }
            });
            match spec.kind {
                generate::Kind::Maze => {
                    ui.add(egui::DragValue::new(&mut spec.corridor).range(1..=16).prefix("corridor "))
                }
                generate::Kind::Rooms => {
                    ui.add(egui::DragValue::new(&mut spec.room).range(3..=64).prefix("room "));
                    ui.add(egui::DragValue::new(&mut spec.doors).range(0.0..=1.0).speed(0.01).prefix("doors "))
                }
                generate::Kind::Random => {
                    ui.add(egui::DragValue::new(&mut spec.density).range(0.0..=0.9).speed(0.01).prefix("walls "))
                }
                generate::Kind::Cave => {
                    ui.add(egui::DragValue::new(&mut spec.fill).range(0.0..=0.9).speed(0.01).prefix("rock "))
                }
            };
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut spec.width).range(4..=2048).prefix("width "));
            ui.add(egui::DragValue::new(&mut spec.height).range(4..=2048).prefix("height "));
            ui.add(egui::DragValue::new(&mut spec.seed).prefix("seed "));
            if ui.button("Generate").clicked() {
                commands.push(GridCommand::Generate(*spec));
            }
        });
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Save as:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.save_path).desired_width(230.0)).labelled_by(label.id);
            if ui.button("Save map").clicked() {
                commands.push(GridCommand::SaveMap(self.settings.save_path.clone()));
            }
            self.browse_button(ui, "Save map as…", FileField::SaveMap, commands);
        });
    }

    /// A "Browse" button; disabled while a dialog is open, since one answer is awaited at a time.
    pub(super) fn browse_button(
        &self,
        ui: &mut egui::Ui,
        label: &str,
        field: FileField,
        commands: &mut Vec<GridCommand>,
    ) {
        let hint = "The system's file dialog. If none appears, your desktop has no file-dialog service: \
                    type the path or drop the file onto the window.";
        if ui.add_enabled(!self.dialog.is_open(), egui::Button::new(label)).on_hover_text(hint).clicked() {
            commands.push(GridCommand::Browse(field));
        }
    }

    /// A file chosen in the native dialog goes into its field and is loaded (or saved) at once.
    pub(super) fn dialog_answer(&mut self, commands: &mut Vec<GridCommand>) {
        let Some((field, path)) = self.dialog.poll() else { return };
        let path = path.display().to_string();
        commands.push(match field {
            FileField::Map => {
                self.settings.map_path = path.clone();
                GridCommand::LoadMap(path)
            }
            FileField::Scenarios => {
                self.settings.scen_path = path.clone();
                GridCommand::LoadScenarios(path)
            }
            FileField::SaveMap => GridCommand::SaveMap(path),
        });
    }

    pub(super) fn scenario_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        // Wrapped: the dialog button would otherwise widen the side panel over the canvas.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Scenario file:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.scen_path).desired_width(200.0)).labelled_by(label.id);
            if ui.button("Load scenarios").clicked() {
                commands.push(GridCommand::LoadScenarios(self.settings.scen_path.clone()));
            }
            self.browse_button(ui, "Open scenarios…", FileField::Scenarios, commands);
        });
        if self.scenarios.is_empty() {
            return;
        }
        let query_text = |i: usize, s: &Scenario| {
            format!(
                "#{i}: ({}, {}) -> ({}, {}), optimal {}",
                s.start.0,
                s.start.1,
                s.goal.0,
                s.goal.1,
                s.optimal_text()
            )
        };
        let selected = match self.scenario {
            Some(i) => query_text(i, &self.scenarios[i]),
            None => format!("{} queries", self.scenarios.len()),
        };
        // Narrower than its 300 points in a narrow panel, so the label beside it keeps its line.
        let label_room = widgets::text_width(ui, "Query", egui::TextStyle::Body) + 3.0 * ui.spacing().item_spacing.x;
        let width = (ui.available_width() - label_room - ui.spacing().icon_width).clamp(120.0, 300.0);
        egui::ComboBox::from_label("Query").selected_text(selected).width(width).show_ui(ui, |ui| {
            for (i, scenario) in self.scenarios.iter().enumerate() {
                if ui.selectable_label(self.scenario == Some(i), query_text(i, scenario)).clicked() {
                    commands.push(GridCommand::PickQuery(i));
                }
            }
        });
    }

    /// Algorithm, heuristic and weight of one side.
    pub(super) fn search_options(ui: &mut egui::Ui, side: usize, search: &GridSearch, commands: &mut Vec<GridCommand>) {
        let mut edited = *search;
        let salt = ["left", "right"][side];
        ui.horizontal(|ui| {
            ui.label(if side == 0 { "Algorithm:" } else { "Right:" });
            for &algorithm in Algorithm::ALL {
                ui.radio_value(&mut edited.algorithm, algorithm, algorithm.name());
            }
        });
        ui.add_enabled_ui(edited.algorithm.uses_heuristic(), |ui| {
            ui.horizontal(|ui| {
                egui::ComboBox::new(("heuristic", salt), if side == 0 { "Heuristic" } else { "Right heuristic" })
                    .selected_text(edited.heuristic.name())
                    .show_ui(ui, |ui| {
                        for heuristic in Heuristic::ALL {
                            ui.selectable_value(&mut edited.heuristic, heuristic, heuristic.name());
                        }
                    });
            });
        });
        ui.add_enabled_ui(edited.algorithm.uses_weight(), |ui| {
            let text = if side == 0 { "Weight w" } else { "Right weight w" };
            ui.add(egui::Slider::new(&mut edited.weight, 1.0..=5.0).step_by(0.1).text(text));
        });
        if edited != *search {
            commands.push(GridCommand::SetSearch(side, edited));
        }
    }

    pub(super) fn search_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        Self::search_options(ui, 0, &self.settings.searches[0], commands);
        let mut rules = self.settings.searches[0].rules;
        ui.horizontal(|ui| {
            ui.label("Moves:");
            ui.radio_value(&mut rules.connectivity, Connectivity::Four, "4-connected");
            ui.radio_value(&mut rules.connectivity, Connectivity::Eight, "8-connected");
        });
        ui.add_enabled(
            rules.connectivity == Connectivity::Eight,
            egui::Checkbox::new(&mut rules.corner_cutting, "Cut corners (diagonal past one wall)"),
        );
        if rules != self.settings.searches[0].rules {
            commands.push(GridCommand::SetRules(rules));
        }
        let mut compare = self.settings.compare;
        if ui.checkbox(&mut compare, "Compare side by side").changed() {
            commands.push(GridCommand::SetCompare(compare));
        }
        if self.settings.compare {
            Self::search_options(ui, 1, &self.settings.searches[1], commands);
        }
        if let Some(reason) = self.settings.searches[0].suboptimality_reason(self.grid.has_weights()) {
            ui.label(RichText::new(format!("Not always optimal: {reason}.")).italics());
        }
        if ui.button("Run search").clicked() {
            commands.push(GridCommand::Run);
        }
    }

    pub(super) fn replay_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        let mut replay = Vec::new();
        let unit = if self.plan_player().is_some() { "event" } else { self.settings.unit.name() };
        self.bar.ui(ui, self.timeline_position(), self.timeline_len(), unit, &mut replay);
        commands.extend(replay.into_iter().map(GridCommand::Replay));
    }

    pub(super) fn canvas_toolbar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        ui.horizontal_wrapped(|ui| {
            // A label that does not fit the row moves down whole: wrapped at the row's end, "Step by"
            // had one letter on each line.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            ui.label("Tool:");
            for tool in Tool::ALL {
                if ui.selectable_label(self.settings.tool == tool, tool.name()).clicked() {
                    commands.push(GridCommand::SetTool(tool));
                }
            }
            if self.settings.tool == Tool::Weight {
                let mut weight = self.settings.paint_weight;
                if ui.add(egui::DragValue::new(&mut weight).range(1..=MAX_WEIGHT).prefix("weight ")).changed() {
                    commands.push(GridCommand::SetPaintWeight(weight));
                }
            }
            commands.extend(history::buttons(ui, &self.history).map(GridCommand::History));
            // Buttons like the tools' (no box in a nested ui, which would wrap to its own left edge
            // and run under the side panel), moved down with their label when the row cannot hold
            // all three. The planner's timeline is in events.
            let units = [StepUnit::Event, StepUnit::Expansion];
            let text_width = |text: &str| widgets::text_width(ui, text, egui::TextStyle::Button);
            let spacing = ui.spacing();
            let button = 2.0 * spacing.button_padding.x + spacing.item_spacing.x;
            let group = text_width("Step by:") + units.iter().map(|unit| text_width(unit.name()) + button).sum::<f32>();
            // A separator from the row before, none at the start of a row.
            if ui.available_size_before_wrap().x < group + spacing.item_spacing.x + 2.0 {
                ui.end_row();
            } else {
                ui.separator();
            }
            ui.label("Step by:");
            for unit in units {
                let button = egui::Button::selectable(self.settings.unit == unit, unit.name());
                if ui.add_enabled(self.plan_player().is_none(), button).clicked() && self.settings.unit != unit {
                    commands.push(GridCommand::SetStepUnit(unit));
                }
            }
            ui.separator();
            let mut show = self.settings.show_values;
            if ui.checkbox(&mut show, "Show g/h/f in cells").changed() {
                commands.push(GridCommand::ShowValues(show));
            }
            if ui.button("Fit").clicked() {
                commands.push(GridCommand::Fit);
            }
            ui.weak(format!("{:.1} px/cell", self.map_view.zoom * ui.ctx().pixels_per_point()))
                .on_hover_text("Zoom: screen pixels per map cell");
        });
    }

    pub(super) fn progress(&self, ui: &mut egui::Ui, commands: &mut Vec<GridCommand>) {
        let Some(job) = &self.job else { return };
        let text = format!("{}: {} expansions", job.label, job.progress().done());
        if widgets::progress(ui, &text, Some(job.progress().fraction().unwrap_or(0.0)), job.elapsed()) {
            commands.push(GridCommand::Cancel);
        }
    }

    pub(super) fn outcome_text(replay: &SearchReplay) -> String {
        match &replay.player.view().outcome {
            Some(SearchOutcome::Found { cost, path }) => {
                format!("Path found: cost {cost:.3}, {}", counted(path.len(), "cell", "cells"))
            }
            Some(SearchOutcome::Exhausted) => "No path: the open list ran empty".to_string(),
            None => "No result yet at this step".to_string(),
        }
    }

    pub(super) fn stats(&self, ui: &mut egui::Ui) {
        // The timeline moves the planner: its figures, not those of the search waiting at its start.
        if let Some(player) = self.plan_player() {
            let view = player.view();
            ui.label(format!("Planner step {} / {}", player.step(), player.len()));
            // At the end, as the label under the canvas and the highlighted line: the path is returned.
            ui.label(match view.stage {
                _ if player.at_end() => format!("Level {}: the path is returned", view.level),
                Some(stage) => format!("Level {}: {}", view.level, stage.name()),
                None => "Not started".to_string(),
            });
            ui.label(format!("Expanded in this stage: {}", view.search.expanded));
            ui.label(format!("Open: {}   Closed: {}", view.search.open_count, view.search.closed_count));
            ui.label(format!("Paths found so far: {}", view.found.len()));
            ui.weak("The flat search waits at its start: step through \"the search\" to replay it.");
            return;
        }
        let optimal = self.current_scenario().map(Scenario::optimal_text);
        if let [replay] = self.replays.as_slice() {
            let view = replay.player.view();
            ui.label(format!("Step {} / {}", replay.player.step(), replay.player.len()));
            if replay.player.trace().truncated {
                ui.label("Trace truncated: the search went on past the recording limit.");
            }
            ui.label(format!("Expanded: {}", view.expanded));
            ui.label(format!("Open: {}   Closed: {}", view.open_count, view.closed_count));
            ui.label(Self::outcome_text(replay));
            // The values the cells print only when zoomed in, always readable here.
            if let Some((cell, whose)) =
                self.hovered.map(|c| (c, "Under the mouse")).or(view.current.map(|c| (c, "Current")))
            {
                ui.label(format!("{whose}: {}", self.cell_info(0, cell).replace('\n', ", ")));
            }
            ui.weak(format!(
                "Whole search: {} expanded, {} pushed, {} without recording",
                replay.result.expanded,
                replay.result.pushed,
                millis(replay.time)
            ));
            if let Some(optimal) = optimal {
                ui.label(format!("Optimal (scenario): {optimal}"));
            }
            return;
        }
        let row = |ui: &mut egui::Ui, name: &str, values: [String; 2]| {
            ui.label(name);
            for value in values {
                ui.label(value);
            }
            ui.end_row();
        };
        let both = |f: &dyn Fn(&SearchReplay) -> String| [f(&self.replays[0]), f(&self.replays[1])];
        let path = |r: &SearchReplay| {
            r.result.path.as_ref().map_or("no path".to_string(), |(cost, cells)| format!("{cost:.3} ({})", cells.len()))
        };
        // Few rows, each saying whether it is the step's ("now") or the whole search's: in a presented
        // cell at 720p the table shares a column with the pseudocode.
        egui::Grid::new("comparison").striped(true).num_columns(3).show(ui, |ui| {
            // Each search's name on the colour of its line in the pseudocode.
            ui.label("");
            for (replay, colour) in self.replays.iter().zip([widgets::HIGHLIGHT, widgets::SECOND_HIGHLIGHT]) {
                ui.label(RichText::new(describe(&replay.search)).background_color(colour).color(egui::Color32::BLACK));
            }
            ui.end_row();
            row(ui, "Step", both(&|r| format!("{} / {}", r.player.step(), r.player.len())));
            row(
                ui,
                "Now: expanded / open",
                both(&|r| format!("{} / {}", r.player.view().expanded, r.player.view().open_count)),
            );
            row(ui, "Total: expanded / pushed", both(&|r| format!("{} / {}", r.result.expanded, r.result.pushed)));
            row(ui, "Total: path cost (cells)", both(&path));
            row(ui, "Total: time, no recording", both(&|r| millis(r.time)));
            if let Some(optimal) = optimal {
                row(ui, "Optimal (scenario)", [optimal.clone(), optimal.clone()]);
            }
        });
    }

    pub(super) fn legend(ui: &mut egui::Ui) {
        let p = theme::palette(ui.ctx());
        widgets::legend(
            ui,
            &[
                (p.unseen, "not reached"),
                (p.open, "open"),
                (p.closed, "closed"),
                (p.current, "expanding"),
                (p.relaxing, "neighbour examined"),
                (p.path, "path"),
                (p.start, "start"),
                (p.goal, "goal"),
                (p.wall, "wall"),
                (p.hovered, "under the mouse"),
            ],
        );
        ui.weak("Darker ground costs more (weights 1–9; zoomed in, the weight is printed). Zoom in for parent arrows.");
    }
}
