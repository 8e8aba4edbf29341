//! The game-tree lab as a [`Scene`]: the one it shows, and showing one.

use super::TreeLab;
use super::recording::Replay;
use crate::games::GameKind;
use crate::scene::{Lab, RunSpec, Scene, Step};

impl TreeLab {
    /// What the page shows: the position, the search and the replay's step.
    pub fn scene(&self) -> Scene {
        let mut scene = Scene::new(Lab::GameTree);
        let game = self.settings.game;
        let text = Some(self.settings.position_text().to_string());
        if game == GameKind::CustomTree {
            scene.tree = text;
        } else {
            scene.position = text;
        }
        scene.spec = Some(RunSpec::Engine(self.settings.spec.engine(game)));
        if let Some(recording) = &self.recording {
            scene.step = Step::at(recording.step(), recording.step_count());
        }
        scene
    }

    /// Why "Copy this cell" would copy a cell other than the one the page shows, if it would: the
    /// field holds a position or tree that does not parse (a lecture would refuse the cell), or one
    /// other than the one searched and shown (the cell would open it on the shown one's step), or
    /// the search is still being recorded.
    pub fn copy_refused(&self) -> Option<String> {
        let typed = match self.settings.typed_position() {
            Ok(typed) => typed,
            Err(e) => return Some(format!("Not copied: {e}")),
        };
        if self.job.is_some() {
            return Some(crate::app::STILL_RECORDING.to_string());
        }
        let shown = self.recording.as_ref().map(|recording| &recording.position);
        let is_shown = shown.is_some_and(|shown| shown.kind() == typed.kind() && shown.text() == typed.text());
        let name = self.settings.position_name();
        let search = super::search_button(name);
        (!is_shown).then(|| {
            format!("Not copied: the {} typed is not the one shown; press \"{search}\" first", name.to_lowercase())
        })
    }

    /// Shows `scene`: its position (tic-tac-toe or a Barca FEN) or typed-in tree, and search,
    /// recorded; the replay opens on the scene's step once it is in. Nothing changes when the
    /// scene does not fit (the rules are [`Scene::validate`]'s and [`GameKind::check_engine`]'s).
    pub fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        if scene.lab != Lab::GameTree {
            return Err(format!("the game-tree lab cannot show a {:?} scene", scene.lab));
        }
        let shown = (self.settings.game, self.settings.position_text());
        let (position, spec) = crate::scene::game_tree_request(scene, shown, self.settings.spec)?;
        let game = position.kind();
        let text = match (&scene.tree, &scene.position) {
            (Some(text), _) | (None, Some(text)) => text.clone(),
            (None, None) => self.settings.position_text().to_string(),
        };
        self.settings.game = game;
        *self.settings.position_text_mut() = text;
        self.settings.spec = spec;
        self.scene_step = Some(scene.step);
        self.spawn();
        Ok(())
    }

    /// Opens the replay on the step a scene asked for.
    pub(super) fn open_scene_step(&mut self, step: Step) {
        let Some(recording) = &mut self.recording else { return };
        let resolved = match &recording.replay {
            Replay::Tree(replay) => {
                step.in_tree(replay.player.trace()).map(|position| (position, step.warning(replay.player.trace())))
            }
            Replay::Mcts(replay) => {
                step.in_mcts(replay.player.trace()).map(|position| (position, step.warning(replay.player.trace())))
            }
        };
        match resolved {
            Ok((position, warning)) => {
                self.error = warning;
                recording.seek(position.min(recording.step_count()));
            }
            Err(e) => self.error = Some(e),
        }
    }
}
