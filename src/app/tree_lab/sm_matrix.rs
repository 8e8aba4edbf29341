//! The simultaneous-move mode's page: its controls, replay bar, narration, pseudocode and the
//! joint-action matrix of the node shown.

use egui::{Color32, RichText};

use super::simultaneous::{GAMES, MAX_ITERATIONS, PSEUDOCODE, SHOWN_ACTIONS, SmMode, SmSettings};
use crate::adversarial::matrix_nash::exploitability;
use crate::adversarial::sm_mcts_trace::JointMatrix;
use crate::app::replay_bar::ReplayCommand;
use crate::app::widgets;
use crate::games::Side;

/// The switch between the lab's turn-based searches and SM-MCTS, beside the page's heading: with
/// SM-MCTS on, draws its page and returns true (the turn-based page is not drawn).
pub fn mode_switch(ui: &mut egui::Ui, mode: &mut Option<SmMode>, heading: &str) -> bool {
    ui.horizontal_wrapped(|ui| {
        ui.heading(if mode.is_some() { "Simultaneous moves: SM-MCTS and the joint-action matrix" } else { heading });
        if ui.selectable_label(mode.is_none(), "Turn-based games").clicked() {
            *mode = None;
        }
        if ui.selectable_label(mode.is_some(), "Simultaneous moves (SM-MCTS)").clicked() && mode.is_none() {
            *mode = Some(SmMode::new(SmSettings::default()));
        }
    });
    let Some(sm) = mode else { return false };
    page(ui, sm);
    true
}

fn page(ui: &mut egui::Ui, sm: &mut SmMode) {
    let mut replay = Vec::new();
    crate::app::replay_bar::ReplayBar::keys(ui, &mut replay);
    if let Some(step) = sm.advance(ui) {
        replay.push(ReplayCommand::Seek(step));
        ui.ctx().request_repaint();
    }
    let sentence = sm.narration();
    let mut settings = sm.settings;
    widgets::side_panel(ui, "sm-lab-side", 0.34, |ui| {
        controls(ui, &mut settings);
        ui.separator();
        ui.strong("Pseudocode (the line of the current event is highlighted)");
        widgets::pseudocode(ui, PSEUDOCODE, &[sm.pseudocode_line()]);
    });
    egui::CentralPanel::default().show(ui, |ui| {
        sm.bar_ui(ui, &mut replay);
        ui.label(&sentence);
        ui.separator();
        egui::ScrollArea::both().auto_shrink(false).show(ui, |ui| node_panel(ui, sm));
    });
    for command in replay {
        sm.replay(command);
    }
    if settings != sm.settings {
        *sm = SmMode::new(settings);
    }
}

fn controls(ui: &mut egui::Ui, settings: &mut SmSettings) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Game:");
        for (index, (name, ..)) in GAMES.iter().enumerate() {
            if ui.selectable_label(settings.game == index, *name).clicked() {
                settings.game = index;
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Selection:");
        if ui.radio(!settings.regret_matching, "Decoupled UCT").clicked() {
            settings.regret_matching = false;
        }
        if ui.radio(settings.regret_matching, "Regret matching").clicked() {
            settings.regret_matching = true;
        }
    });
    let mut iterations = settings.iterations;
    let slider = egui::Slider::new(&mut iterations, 1..=MAX_ITERATIONS).logarithmic(true).text("iterations");
    // Recorded when the drag ends, not at every value passed.
    let response = ui.add(slider);
    if (response.changed() && !response.dragged()) || response.drag_stopped() {
        settings.iterations = iterations;
    }
    ui.weak(
        "Decoupled UCT: each player maximises UCB1 over its own mean payoffs, so an opponent can steer it. \
         Regret matching plays each action in proportion to its positive regret: its average strategy \
         approaches a Nash equilibrium of a zero-sum matrix game.",
    );
}

fn node_panel(ui: &mut egui::Ui, sm: &mut SmMode) {
    let node = sm.shown_node();
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!("Node {node}"));
        let parent = sm.view().node(node).parent;
        if node != 0 && ui.button("Parent").clicked() {
            sm.pin(Some(parent));
        }
        if ui.button("Root").clicked() {
            sm.pin(Some(0));
        }
        if ui.button("Follow the search").clicked() {
            sm.pin(None);
        }
        ui.weak(format!("{} iterations, {} nodes", sm.view().iterations, sm.view().nodes().len()));
    });
    if let Some(position) = sm.position_text(node) {
        ui.monospace(position);
    }
    let Some(matrix) = sm.view().matrix(node) else {
        ui.weak("Not visited yet: its actions are listed at its first visit.");
        return;
    };
    let sides = [sm.side_name(Side::First), sm.side_name(Side::Second)];
    ui.label(format!(
        "Rows: {}'s actions, columns: {}'s. A cell: visits n and the mean payoff for {}; \
         the pair selected now is highlighted.",
        sides[0], sides[1], sides[0]
    ));
    if let Some(child) = matrix_grid(ui, &matrix, sides) {
        sm.pin(Some(child_of(sm, node, child)));
    }
    if node == 0
        && let Some((payoff, eq)) = sm.equilibrium()
    {
        ui.separator();
        ui.strong("Exact Nash equilibrium (linear program) beside SM-MCTS's strategy");
        egui::Grid::new("sm-equilibrium").striped(true).show(ui, |ui| {
            ui.label("");
            for name in &matrix.rows {
                ui.label(name);
            }
            ui.end_row();
            for (side, (search, exact)) in
                [(&matrix.marginals[0], &eq.row), (&matrix.marginals[1], &eq.column)].into_iter().enumerate()
            {
                ui.label(format!("{} SM-MCTS", sides[side]));
                search.iter().for_each(|p| drop(ui.label(format!("{p:.3}"))));
                ui.end_row();
                ui.label(format!("{} Nash", sides[side]));
                exact.iter().for_each(|p| drop(ui.label(format!("{p:.3}"))));
                ui.end_row();
            }
        });
        let gap = exploitability(payoff, &matrix.marginals[0], &matrix.marginals[1]);
        ui.label(format!(
            "Game value {:+.3}. Exploitability of SM-MCTS's strategies (what best replies gain): {gap:.3}",
            eq.value
        ));
    }
}

/// The pair's child, when the pair was tried.
fn child_of(sm: &SmMode, node: u32, (i, j): (usize, usize)) -> u32 {
    sm.view().node(node).stats.pair(i, j).map_or(node, |pair| pair.child)
}

/// The most visited `SHOWN_ACTIONS` of a side, in the game's order.
fn shown(marginal: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..marginal.len()).collect();
    order.sort_by(|&a, &b| marginal[b].total_cmp(&marginal[a]));
    order.truncate(SHOWN_ACTIONS);
    order.sort_unstable();
    order
}

/// The matrix as a grid; returns the pair clicked.
fn matrix_grid(ui: &mut egui::Ui, matrix: &JointMatrix, sides: [&str; 2]) -> Option<(usize, usize)> {
    let (rows, columns) = (shown(&matrix.marginals[0]), shown(&matrix.marginals[1]));
    if rows.len() < matrix.rows.len() || columns.len() < matrix.columns.len() {
        ui.weak(format!(
            "The {} and {} likeliest of {} x {} actions shown.",
            rows.len(),
            columns.len(),
            matrix.rows.len(),
            matrix.columns.len()
        ));
    }
    let selected = matrix.selected.map(|(i, j)| (usize::from(i), usize::from(j)));
    let mut clicked = None;
    egui::Grid::new("sm-joint-matrix").striped(true).show(ui, |ui| {
        ui.strong(format!("{} \\ {}", sides[0], sides[1]));
        for &j in &columns {
            ui.strong(&matrix.columns[j]);
        }
        ui.strong("strategy");
        ui.end_row();
        for &i in &rows {
            ui.strong(&matrix.rows[i]);
            for &j in &columns {
                let text = match matrix.cells[i][j] {
                    Some((visits, mean)) => format!("n {visits}, {mean:+.2}"),
                    None => "-".to_string(),
                };
                let mut rich = RichText::new(text).monospace();
                if selected == Some((i, j)) {
                    rich = rich.background_color(widgets::HIGHLIGHT).color(Color32::BLACK);
                }
                if ui.add(egui::Label::new(rich).sense(egui::Sense::click())).clicked() && matrix.cells[i][j].is_some()
                {
                    clicked = Some((i, j));
                }
            }
            ui.label(format!("{:.3}", matrix.marginals[0][i]));
            ui.end_row();
        }
        ui.strong("strategy");
        for &j in &columns {
            ui.label(format!("{:.3}", matrix.marginals[1][j]));
        }
        ui.end_row();
    });
    clicked
}
