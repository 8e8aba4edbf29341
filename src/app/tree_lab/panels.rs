//! The game-tree lab's side panels: the search's controls, its statistics, pseudocode and plot,
//! and the selected node.

use super::*;

impl TreeLab {
    pub(super) fn search_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<TreeCommand>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Game:");
            for &game in GameKind::ALL {
                if ui.selectable_label(self.settings.game == game, game.name()).clicked() && self.settings.game != game
                {
                    commands.push(TreeCommand::SetGame(game));
                }
            }
        });
        let custom = self.settings.game == GameKind::CustomTree;
        let name = self.settings.position_name();
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("{name}:"));
            let text = self.settings.position_text_mut();
            let edit = ui.add(egui::TextEdit::singleline(text).desired_width(260.0)).labelled_by(label.id);
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button(search_button(name)).clicked() || entered {
                commands.push(TreeCommand::SetPosition(text.clone()));
            }
        });
        ui.weak(self.settings.game.position_help());
        ui.horizontal_wrapped(|ui| {
            ui.label("Algorithm:");
            for &algorithm in self.settings.game.algorithms() {
                if ui.radio(self.settings.spec.algorithm == algorithm, algorithm.label()).clicked()
                    && self.settings.spec.algorithm != algorithm
                {
                    commands.push(TreeCommand::SetAlgorithm(algorithm));
                }
            }
        });
        let spec = self.settings.spec;
        if spec.algorithm == EngineAlgorithm::Uct {
            // Edited in place while dragging; recorded once the drag ends.
            let slider = egui::Slider::new(&mut self.settings.spec.iterations, 10..=100_000)
                .logarithmic(true)
                .text("Iterations");
            let response = ui.add(slider);
            if response.drag_stopped() || (response.changed() && !response.dragged()) {
                commands.push(TreeCommand::SetIterations(self.settings.spec.iterations));
            }
        } else if custom {
            ui.label(format!("Depth: the whole tree ({} plies)", spec.depth));
        } else {
            let mut depth = spec.depth;
            let max = self.settings.game.max_depth(spec.algorithm);
            let slider = egui::Slider::new(&mut depth, 1..=max).text("Depth (plies)");
            if crate::app::replay_bar::slider_in_row(ui, slider, "Depth (plies)").changed() {
                commands.push(TreeCommand::SetDepth(depth));
            }
        }
        ui.horizontal(|ui| {
            if ui.button("Record again").clicked() {
                commands.push(TreeCommand::Run);
            }
            if ui
                .button("Full tic-tac-toe tree")
                .on_hover_text("Minimax over all 549,946 nodes from the empty board")
                .clicked()
            {
                commands.push(TreeCommand::FullTicTacToeTree);
            }
        });
    }

    pub(super) fn progress(&self, ui: &mut egui::Ui, commands: &mut Vec<TreeCommand>) {
        let Some(job) = &self.job else { return };
        let text = format!("{}: {} nodes", job.label, job.progress().done());
        if widgets::progress(ui, &text, job.progress().fraction(), job.elapsed()) {
            commands.push(TreeCommand::Cancel);
        }
    }

    pub(super) fn stats(&self, ui: &mut egui::Ui) {
        let Some(recording) = &self.recording else { return };
        let kind = recording.position.kind();
        ui.label(format!("Step {} / {}", recording.step(), recording.step_count()));
        if recording.truncated {
            widgets::warning(ui, "The trace hit the recording cap: the replay ends early.");
        }
        match &recording.replay {
            Replay::Tree(replay) => {
                let view = replay.player.view();
                ui.label(format!("Nodes: {}", view.nodes.len()));
                ui.label(format!("Leaves: {}", view.leaf_count));
                ui.label(format!("Cutoffs: {}", view.cutoff_count));
                if let Some(id) = view.current.filter(|_| !canvas::full_width(recording.spec.algorithm)) {
                    let (alpha, beta) = view.window(id);
                    let (alpha, beta) = window_for_first(alpha, beta, view.node(id).side, view.perspective);
                    ui.label(format!(
                        "Current node window: {} (for {})",
                        window_text(alpha, beta),
                        kind.side_name(Side::First)
                    ));
                }
                if let Some(root) = replay.root()
                    && let Some(value) = view.node(root).value()
                {
                    let node = view.node(root);
                    let exact = replay.exhaustive && node.state == NodeState::Done;
                    let text = value_text(kind, value_for_first(value, node.side, view.perspective), exact);
                    let so_far = if node.state == NodeState::Done { "" } else { " (so far)" };
                    ui.strong(format!("Root value: {text}{so_far}"));
                }
                if let Some((moves, _)) = &view.pv {
                    ui.label(format!("Principal variation: {}", moves.join(" ")));
                }
                ui.separator();
                let stats = &replay.stats;
                ui.label(format!(
                    "Whole search: {} nodes, {} leaves, {} cutoffs",
                    stats.nodes, stats.leaves, stats.cutoffs
                ));
                if stats.cutoffs > 0 {
                    ui.label(match stats.first_move_cutoff_rate() {
                        Some(rate) => format!("First-move cutoffs: {:.1}%", 100.0 * rate),
                        None => "First-move cutoffs: none (no cutoffs)".to_string(),
                    });
                }
                let last_iteration = stats.nodes_per_depth.last().copied().unwrap_or(stats.nodes);
                let depth = stats.depth_reached.min(stats.max_ply).max(1);
                ui.label(format!(
                    "Effective branching factor: {:.2}",
                    recording::effective_branching_factor(last_iteration, depth)
                ));
                if stats.tt_probes > 0 {
                    ui.label(format!("TT hits: {} of {} probes", stats.tt_hits, stats.tt_probes));
                }
            }
            Replay::Mcts(replay) => {
                let view = replay.player.view();
                ui.label(format!("Iterations: {} / {}", view.iterations, replay.stats.iterations));
                if replay.stats.iterations < recording.spec.iterations && view.node(0).proven.is_some() {
                    ui.weak(format!(
                        "The solver proved the root's value, so the search stopped before the {} iterations asked for.",
                        recording.spec.iterations
                    ));
                }
                ui.label(format!("Tree nodes: {}", view.nodes().len()));
                ui.label(format!("Root visits: {}", view.node(0).visits));
                if let Some(playout) = view.playout {
                    ui.label(playout_text(kind, view, playout));
                }
                if view.iterations == replay.stats.iterations && !replay.pv.is_empty() {
                    ui.label(format!("Most visited line: {}", replay.pv.join(" ")));
                }
                let node = self.selected.filter(|&id| (id as usize) < view.nodes().len()).unwrap_or(0);
                ui.separator();
                let chooser = kind.side_name(view.node(node).mover.other());
                ui.strong(if node == 0 {
                    format!("Root moves, {chooser} to choose")
                } else {
                    format!("Moves after {}, {chooser} to choose", view.node(node).mv)
                });
                ui.weak(format!("Means and UCB for {chooser}, in the order UCT would play them"));
                let children = view.children_to_play(node);
                // The engine's order for the move to play, so the top line is the most visited line's.
                for &child in children.iter().take(12) {
                    ui.monospace(move_line(view, child));
                }
                if children.len() > 12 {
                    ui.weak(format!("…and {} more", children.len() - 12));
                }
            }
        }
        ui.weak(format!("Recorded in {:.0} ms", recording.record_time.as_secs_f64() * 1e3));
    }

    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let Some(recording) = &self.recording else { return };
        let algorithm = recording.spec.algorithm;
        let line = match &recording.replay {
            Replay::Tree(r) => r.player.current_event().map(|e| pseudocode::tree_line(algorithm, e)),
            Replay::Mcts(r) => r.player.current_event().map(pseudocode::uct_line),
        };
        widgets::pseudocode(ui, pseudocode::lines(algorithm).iter().copied(), &[line]);
    }

    /// Nodes per ply so far against the full-width tree and the Knuth–Moore minimum (log scale).
    pub(super) fn plot(&self, ui: &mut egui::Ui) {
        let Some(Recording { replay: Replay::Tree(replay), .. }) = &self.recording else { return };
        ui.separator();
        ui.strong("Nodes per ply (log scale)");
        let log = |values: &mut dyn Iterator<Item = (usize, f64)>| -> PlotPoints<'static> {
            values.filter(|&(_, n)| n > 0.0).map(|(ply, n)| [ply as f64, n.log10()]).collect()
        };
        let visited = log(&mut replay.player.view().nodes_per_ply.iter().map(|&n| n as f64).enumerate());
        let minimal = log(&mut replay.minimal.iter().copied().enumerate());
        let full: Vec<f64> = std::iter::once(1.0)
            .chain(replay.branching.iter().scan(1.0, |product, &b| {
                *product *= b;
                Some(*product)
            }))
            .collect();
        let full = log(&mut full.into_iter().enumerate());
        let palette = crate::app::theme::palette(ui.ctx());
        Plot::new("nodes per ply")
            .height(200.0)
            .legend(Legend::default().position(Corner::LeftTop))
            .x_axis_label("ply")
            .y_axis_label("nodes")
            .y_axis_formatter(|mark, _| format!("1e{}", mark.value.round()))
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(Line::new("full width", full).color(palette.restart));
                plot.line(Line::new("Knuth–Moore minimum", minimal).color(palette.notice));
                plot.line(Line::new("visited so far", visited).color(palette.best_iteration));
            });
        ui.weak(
            "Full width and the Knuth–Moore minimum are for a uniform tree with the branching this tree has \
             at each ply; a game whose lines end early can dip below them.",
        );
    }

    /// The selected node: its position, and what the search knows about it.
    pub(super) fn selected_node(&self, ui: &mut egui::Ui) {
        let Some(recording) = &self.recording else { return };
        let kind = recording.position.kind();
        let (moves, details) = match &recording.replay {
            Replay::Tree(replay) => {
                let view = replay.player.view();
                let Some(id) = self.selected.filter(|&id| (id as usize) < view.nodes.len()) else {
                    ui.weak("Click a node to see its position.");
                    return;
                };
                let mut moves = Vec::new();
                let mut at = id;
                while at != NO_NODE && view.node(at).parent != NO_NODE {
                    moves.push(view.node(at).mv.to_string());
                    at = view.node(at).parent;
                }
                moves.reverse();
                let (alpha, beta) = view.window(id);
                let (alpha, beta) = window_for_first(alpha, beta, view.node(id).side, view.perspective);
                let full_width = canvas::full_width(recording.spec.algorithm);
                let shown = ShownSearch::new(replay, kind, full_width);
                let value = shown.value(id).unwrap_or_else(|| "not known yet".into());
                let mut details = format!("Value for {}: {value}", kind.side_name(Side::First));
                if !full_width {
                    details += &format!("\nWindow: {}", window_text(alpha, beta));
                }
                if let Some((cut, pruned)) = view.cutoff(id) {
                    details += &format!("\n{}: pruned {}", canvas::cutoff_name(*cut), pruned.join(" "));
                }
                (moves, details)
            }
            Replay::Mcts(replay) => {
                let view = replay.player.view();
                let Some(id) = self.selected.filter(|&id| (id as usize) < view.nodes().len()) else {
                    ui.weak("Click a node to see its position.");
                    return;
                };
                let mut moves = Vec::new();
                let mut at = id;
                while at != 0 && at != NO_NODE {
                    moves.push(view.node(at).mv.clone());
                    at = view.node(at).parent;
                }
                moves.reverse();
                let numbers = UctNumbers::of(view, id);
                let mut details = format!(
                    "{} {}, mean reward {} for {}",
                    numbers.visits,
                    plural(numbers.visits as usize, "visit", "visits"),
                    numbers.mean_text(3),
                    kind.side_name(numbers.chooser)
                );
                if id != 0 || numbers.proven.is_some() {
                    details += &format!(", {}", numbers.selection_text("UCB", 3));
                }
                (moves, details)
            }
        };
        let line = if moves.is_empty() { "the root".to_string() } else { moves.join(" ") };
        ui.label(format!("After: {line}"));
        match recording.position.after(moves.iter().map(String::as_str)) {
            Ok(position) => {
                ui.label(format!("{} to move", kind.side_name(position.side_to_move())));
                board::paint(ui, &position, moves.last().map(String::as_str));
                ui.monospace(position.text());
            }
            Err(e) => {
                widgets::error(ui, &e);
            }
        }
        ui.label(details);
    }
}
