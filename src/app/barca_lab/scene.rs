//! The Barca page as a [`Scene`]: the one it shows, and showing one.

use super::BarcaLab;
use super::ai::ai_engine;
use crate::games::barca::Barca;
use crate::scene::{Lab, RunSpec, Scene};

impl BarcaLab {
    /// What the page shows: the position (FEN) and the computer player.
    pub fn scene(&self) -> Scene {
        let mut scene = Scene::new(Lab::Barca);
        scene.position = Some(self.game.to_fen());
        scene.spec = Some(RunSpec::Engine(ai_engine(self.settings.algorithm, self.settings.difficulty)));
        scene
    }

    /// Shows `scene`: its position (a FEN; the game's moves are kept when it is the position on
    /// the board) and its computer player, which must be a level (`easy`, `medium`, `hard`, or
    /// `uct:LEVEL`). Nothing changes when the scene does not fit.
    pub fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        scene.validate()?;
        if scene.lab != Lab::Barca {
            return Err(format!("the Barca page cannot show a {:?} scene", scene.lab));
        }
        // Validated: the computer player is a level.
        let player = scene.engine().and_then(|engine| Some((engine.algorithm, engine.level?)));
        let game = match &scene.position {
            Some(fen) if *fen != self.game.to_fen() => {
                Some(Barca::from_fen(fen.trim()).map_err(|e| format!("position: {e}"))?)
            }
            _ => None,
        };
        if let Some((algorithm, difficulty)) = player {
            (self.settings.algorithm, self.settings.difficulty) = (algorithm, difficulty);
            self.cancel_thinking();
        }
        if let Some(game) = game {
            self.game = game;
            self.new_game_loaded("Position loaded");
        }
        Ok(())
    }
}
