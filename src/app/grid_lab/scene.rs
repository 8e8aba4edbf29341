//! The grid lab as a [`Scene`]: the one it shows, and showing one.

use super::layers::{Layers, PlannerChoice};
use super::{GridLab, JobMap, MapOrigin, StepUnit};
use crate::pathfinding::planner::{Method, Planner};
use crate::pathfinding::pra::PraOptions;
use crate::scene::{Lab, MapSource as SceneMap, Replayed, RunSpec, Scene, Step, bundled_file, bundled_name};

/// The hierarchical layers in [`Lab::layers`] order, with their switches.
fn layer_switches(layers: &mut Layers) -> [(&'static str, &mut bool); 8] {
    [
        ("clusters", &mut layers.clusters),
        ("transitions", &mut layers.transitions),
        ("graph", &mut layers.graph),
        ("abstract-path", &mut layers.abstract_path),
        ("refined", &mut layers.refined),
        ("smoothed", &mut layers.smoothed),
        ("regions", &mut layers.regions),
        ("corridor", &mut layers.corridor),
    ]
}

impl GridLab {
    /// What the page shows: the map, the search (and the second one or the planner), the query,
    /// the step and the layers.
    pub fn scene(&self) -> Scene {
        let settings = &self.settings;
        let [left, mut right] = settings.searches;
        right.rules = left.rules;
        let planner = settings.hierarchy.planner(left.rules);
        let mut scene = Scene::new(if planner.is_some() { Lab::Hierarchical } else { Lab::Grid });
        scene.map = Some(match &settings.map {
            MapOrigin::File(path) => match bundled_name(path) {
                Some(name) => SceneMap::Bundled(name.to_string()),
                _ => SceneMap::Path(path.clone()),
            },
            MapOrigin::Inline(text) => SceneMap::Inline(text.clone()),
            MapOrigin::Generated(spec) => SceneMap::Generated(*spec),
        });
        match planner {
            Some(planner) => {
                scene.spec = Some(RunSpec::Planner(planner));
                scene.compare = Some(RunSpec::Planner(Planner::flat(left)));
            }
            None => {
                scene.spec = Some(RunSpec::Planner(Planner::flat(left)));
                scene.compare = settings.compare.then_some(RunSpec::Planner(Planner::flat(right)));
            }
        }
        let cell = |cell: u32| {
            let (x, y) = self.grid.coords(cell);
            [f64::from(x), f64::from(y)]
        };
        (scene.start, scene.goal) = (Some(cell(self.start)), Some(cell(self.goal)));
        scene.step = match self.plan_player() {
            Some(player) => {
                scene.replay = Some(Replayed::Planner);
                Step::at(player.step(), player.len())
            }
            None => Step::at(self.replays[0].position(StepUnit::Event), self.replays[0].len(StepUnit::Event)),
        };
        if settings.show_values {
            scene.layers.push("values".to_string());
        }
        if scene.lab == Lab::Hierarchical {
            let mut layers = settings.hierarchy.layers;
            scene.layers.extend(
                layer_switches(&mut layers).into_iter().filter(|(_, on)| **on).map(|(name, _)| name.to_string()),
            );
        }
        scene
    }

    /// Shows `scene`: loads its map (the current one if it names none), sets the searches and
    /// the query, and records; the replay opens on the scene's step once it is in. Nothing
    /// changes when the scene does not fit.
    pub fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        let planners = |spec: Option<RunSpec>| match spec {
            Some(RunSpec::Planner(planner)) => Some(planner),
            _ => None,
        };
        let (first, second) = (planners(scene.spec), planners(scene.compare));
        let mut settings = self.settings.clone();
        let mut hierarchy = settings.hierarchy;
        let (left, right, planner) = match scene.lab {
            Lab::Grid => (first, second, None),
            Lab::Hierarchical => (second, None, first),
            other => return Err(format!("the grid lab cannot show a {other:?} scene")),
        };
        hierarchy.planner = PlannerChoice::Off;
        hierarchy.stepping = scene.replay.unwrap_or_default();
        if let Some(planner) = planner {
            match planner.method {
                Method::Hpa { cluster, levels, smooth } => {
                    (hierarchy.planner, hierarchy.cluster, hierarchy.levels, hierarchy.smooth) =
                        (PlannerChoice::Hpa, cluster, levels, smooth);
                }
                Method::Pra(PraOptions { level, k, width }) => {
                    (hierarchy.planner, hierarchy.pra_level, hierarchy.pra_k, hierarchy.pra_width) =
                        (PlannerChoice::Pra, level, k, width);
                }
                _ => unreachable!("validated: the hierarchical lab's spec is a hierarchical planner"),
            }
            settings.searches[0].rules = planner.rules;
        }
        if let Some(search) = left.and_then(|left| left.grid_search()) {
            settings.searches[0] = search;
        }
        settings.compare = right.is_some();
        if let Some(search) = right.and_then(|right| right.grid_search()) {
            settings.searches[1] = search;
        }
        settings.show_values = scene.layers.iter().any(|layer| layer == "values");
        if scene.lab == Lab::Hierarchical {
            for (name, on) in layer_switches(&mut hierarchy.layers) {
                *on = scene.layers.iter().any(|layer| layer == name);
            }
        }
        settings.hierarchy = hierarchy;
        let origin = match &scene.map {
            None => None,
            Some(SceneMap::Path(path)) => Some(MapOrigin::File(path.clone())),
            Some(SceneMap::Bundled(name)) => Some(MapOrigin::File(bundled_file(name)?)),
            Some(SceneMap::Inline(text)) => Some(MapOrigin::Inline(text.clone())),
            Some(SceneMap::Generated(spec)) => Some(MapOrigin::Generated(*spec)),
        };
        let map = scene.load_grid()?.zip(origin);
        let grid = map.as_ref().map_or(&self.grid, |(grid, _)| grid);
        let endpoints = match scene.cells()? {
            Some([start, goal]) => Some((grid.endpoint(start, "start")?, grid.endpoint(goal, "goal")?)),
            None => None,
        };
        self.settings = settings;
        self.settings.unit = StepUnit::Event;
        self.scene_endpoints = endpoints;
        self.scene_step = Some(scene.step);
        self.error = None;
        match map {
            Some((grid, source)) => self.spawn(JobMap::Replace(grid, source), false),
            None => self.spawn(JobMap::Current, false),
        }
        Ok(())
    }

    /// Opens the replay on the step a scene asked for.
    pub(super) fn open_scene_step(&mut self, step: Step) {
        let (found, warning) = match self.plan_player() {
            Some(player) => (step.in_plan(player.trace()), step.warning(player.trace())),
            None => (step.in_search(self.replays[0].player.trace()), step.warning(self.replays[0].player.trace())),
        };
        match found {
            Ok(position) => {
                self.error = warning;
                self.seek(position);
            }
            Err(e) => self.error = Some(e),
        }
    }
}
