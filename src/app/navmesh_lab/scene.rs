//! The polygon lab as a [`Scene`]: the one it shows, and showing one.

use super::{NavmeshLab, ReplayKind, build};
use crate::grid::Grid;
use crate::navmesh::grid_outline::grid_outline;
use crate::navmesh::{MapFile as Loaded, load_map_file};
use crate::scene::{Lab, MapSource, RunSpec, Scene, Step, bundled_file, bundled_name};

impl NavmeshLab {
    /// What the page shows: the map, the search, the query and the search's step.
    pub fn scene(&self) -> Scene {
        let mut scene = Scene::new(Lab::Polygon);
        scene.map = match (bundled_name(&self.map_path), &self.polygons) {
            (Some(name), _) => Some(MapSource::Bundled(name.to_string())),
            _ if !self.map_path.is_empty() => Some(MapSource::Path(self.map_path.clone())),
            (_, Some(map)) => Some(MapSource::Inline(serde_json::to_string(map).expect("a polygon map is plain data"))),
            _ => None,
        };
        scene.spec = Some(RunSpec::Mesh(self.search));
        (scene.start, scene.goal) = (Some(self.start), Some(self.goal));
        let (step, len) = match self.polyanya() {
            true => (self.intervals.step(), self.intervals.len()),
            false => (self.player.step(), self.player.len()),
        };
        scene.step = Step::at(step, len);
        scene
    }

    /// Shows `scene`: its map (the current one if it names none), search and query, the search's
    /// replay at the scene's step. Nothing changes when the scene does not fit.
    pub fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        if scene.lab != Lab::Polygon {
            return Err(format!("the polygon lab cannot show a {:?} scene", scene.lab));
        }
        let search = scene.mesh_search().unwrap_or(self.search);
        let loaded = scene.load_polygon_map()?;
        // The file the page then names: none for a map written in the scene or generated.
        let path = match &scene.map {
            None => self.map_path.clone(),
            Some(MapSource::Path(path)) => path.clone(),
            Some(MapSource::Bundled(name)) => bundled_file(name)?,
            Some(MapSource::Inline(_) | MapSource::Generated(_)) => String::new(),
        };
        let refined = search.min_angle != self.search.min_angle;
        // The mesh is built again for a new map or another refinement.
        let rebuilt = match loaded {
            Some(loaded) => Some((build(&loaded.outline, &search)?, loaded.grid, loaded.polygons)),
            None if refined => match (&self.grid, &self.polygons) {
                (Some(grid), _) => Some((build(&grid_outline(grid), &search)?, Some(Grid::clone(grid)), None)),
                (None, Some(map)) => Some((build(&map.outline(), &search)?, None, self.polygons.clone())),
                (None, None) => Some((build(&load(&self.map_path)?.outline, &search)?, None, None)),
            },
            None => None,
        };
        self.search = search;
        if let Some((mesh, grid, polygons)) = rebuilt {
            self.map_path = path;
            self.show_map(mesh, grid, polygons);
        }
        if let (Some(start), Some(goal)) = (scene.start, scene.goal) {
            (self.start, self.goal) = (self.snap(start), self.snap(goal));
        }
        self.replay = ReplayKind::Search;
        self.run();
        // The recording arrives from the worker; its step is found then.
        self.scene_step = Some(scene.step);
        Ok(())
    }

    /// Opens the search's replay at a scene's step, once its recording is in.
    pub(super) fn open_scene_step(&mut self, step: Step) {
        let (position, warning) = match self.polyanya() {
            true => (step.in_polyanya(self.intervals.trace()), step.warning(self.intervals.trace())),
            false => (step.in_search(self.player.trace()), step.warning(self.player.trace())),
        };
        match position {
            Ok(position) => {
                self.error = warning;
                self.seek(position);
            }
            Err(e) => self.error = Some(e),
        }
    }
}

/// Reads a map file for the page ("Load map" and scenes).
pub(super) fn load(path: &str) -> Result<Loaded, String> {
    load_map_file(path.as_ref()).map_err(|e| e.to_string())
}
