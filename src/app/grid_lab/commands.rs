//! The grid lab's commands that read, write or edit the map: loading a map or scenarios, saving,
//! painting cells.

use super::{Brush, GridCommand, GridLab, HierarchySettings, JobMap, MapOrigin};
use crate::grid::movingai;

impl GridLab {
    /// Opens the map at `path`; the map on screen stays when it cannot be read or has no free cell.
    pub(super) fn load_map(&mut self, path: String) {
        match movingai::load_map(path.as_ref()) {
            // No start could stand anywhere: the map on screen stays.
            Ok(grid) if grid.passable_count() == 0 => {
                self.error = Some(format!("{path}: the map has no free cell to search"))
            }
            Ok(grid) => {
                self.error = None;
                self.notice = None;
                self.spawn(JobMap::Replace(grid, MapOrigin::File(path)), false);
            }
            // The map on screen stays; only the message changes.
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Reads the queries of a `.scen` file for this map, leaving out those it cannot search.
    pub(super) fn load_scenarios(&mut self, path: String) {
        let loaded = movingai::load_scen(path.as_ref())
            .and_then(|scenarios| movingai::searchable_scenarios(&path, scenarios, &self.grid));
        match loaded {
            Ok((scenarios, left_out)) if scenarios.is_empty() => {
                self.error = Some(
                    left_out.first().map_or_else(|| format!("{path}: no queries in the file"), ToString::to_string),
                );
            }
            Ok((scenarios, left_out)) => {
                self.error = None;
                let skipped = match left_out.as_slice() {
                    [] => String::new(),
                    [only] => format!(" (1 query left out: {only})"),
                    [first, ..] => format!(" ({} queries left out, the first: {first})", left_out.len()),
                };
                self.notice = Some(format!(
                    "{}{skipped}; pick one under Query",
                    crate::text::counted(scenarios.len(), "query loaded", "queries loaded")
                ));
                self.settings.scen_path = path;
                self.scenarios = scenarios;
                self.scenario = None;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    pub(super) fn save_map(&mut self, path: String) {
        match crate::files::write(path.as_ref(), movingai::write_map(&self.grid)) {
            Ok(()) => {
                self.error = None;
                self.notice = Some(format!("Saved the {}x{} map to {path}", self.grid.width(), self.grid.height()));
                self.settings.save_path = path.clone();
                self.settings.map_path = path.clone();
                self.settings.map = MapOrigin::File(path);
            }
            Err(e) => self.error = Some(format!("{path}: cannot write: {e}")),
        }
    }

    /// Paints `cells` with `brush` (never the start or the goal), one undo step per stroke.
    pub(super) fn paint(&mut self, brush: Brush, cells: &[u32]) {
        if !self.painting {
            self.history.record(self.map_state());
            self.painting = true;
        }
        for &cell in cells {
            if cell == self.start || cell == self.goal || cell as usize >= self.grid.cell_count() {
                continue;
            }
            let (x, y) = self.grid.coords(cell);
            match brush {
                Brush::Wall => self.grid.set_passable(x, y, false),
                Brush::Erase => {
                    self.grid.set_passable(x, y, true);
                    self.grid.set_weight(x, y, 1);
                }
                Brush::Weight(weight) => {
                    self.grid.set_passable(x, y, true);
                    self.grid.set_weight(x, y, weight);
                }
            }
        }
        self.textures.iter_mut().for_each(|t| t.mark_edited(cells.iter().copied()));
        self.hierarchy.note_edits(&self.grid, cells);
    }

    /// Takes the planner's settings; plans again only when what the plan depends on changed.
    pub(super) fn set_hierarchy(&mut self, hierarchy: HierarchySettings) {
        let replan = hierarchy.plan_key() != self.settings.hierarchy.plan_key();
        let was_planner = self.plan_player().is_some();
        self.settings.hierarchy = hierarchy;
        self.bar.playing &= was_planner == self.plan_player().is_some();
        if replan {
            self.apply(GridCommand::Run);
        } else if was_planner != self.plan_player().is_some() {
            // Back to where the search was, or to the planner's start.
            self.seek(if was_planner { self.position } else { 0 });
        }
    }
}
