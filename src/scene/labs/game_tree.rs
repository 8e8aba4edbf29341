//! The game-tree lab: a search of a game position or of a typed-in tree, replayed node by node.

use super::LabKind;
use crate::scene::Moment;
use crate::adversarial::recording::SearchSpec;
use crate::games::{GameKind, Position};
use crate::scene::{FieldError, RunSpec, Scene};

pub struct GameTree;

impl LabKind for GameTree {
    const ID: &'static str = "game-tree";
    const FIELDS: &'static [&'static str] = &["spec", "position", "tree", "game"];
    const SHOWS: &'static str = "a search of a position or a typed-in tree";
    const MOMENTS: &'static [Moment] = &[Moment::Start, Moment::FirstExpansion, Moment::Cutoff];

    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        text.parse().map(RunSpec::Engine)
    }

    fn check_fit(_second: bool, spec: RunSpec) -> Result<(), String> {
        match spec {
            RunSpec::Engine(_) => Ok(()),
            _ => Err(" the game-tree lab".to_string()),
        }
    }

    /// What the lab records on the scene's game; a typed-in tree is searched to its height.
    fn check_page(scene: &Scene, tree_height: Option<usize>) -> Result<(), FieldError> {
        let Some(engine) = scene.engine() else { return Ok(()) };
        let spec = |message: String| FieldError::new("spec", message);
        scene.game().check_engine(&engine).map_err(spec)?;
        if let Some(height) = tree_height.map(|height| height as u32).filter(|&height| engine.depth < Some(height)) {
            let name = engine.algorithm.name();
            let message =
                format!("the tree is {height} plies high and only its leaves have values: write {name} or {name}:{height}");
            return Err(spec(message));
        }
        Ok(())
    }
}

/// What the game-tree lab records for `scene`: its game and position (or typed-in tree) and its
/// search; where the scene gives no position, the `shown` game and text (the page's; another game's
/// default position when the scene names another game), and `spec` the
/// page's search, whose algorithm and budget the scene's engine replaces.
pub fn request(scene: &Scene, shown: (GameKind, &str), spec: SearchSpec) -> Result<(Position, SearchSpec), String> {
    let (game, text) = match (&scene.tree, &scene.position) {
        (Some(tree), _) => (GameKind::CustomTree, tree.as_str()),
        (None, Some(text)) => (scene.game(), text.as_str()),
        (None, None) => match scene.game {
            Some(game) if game != shown.0 => (game, game.default_position()),
            _ => shown,
        },
    };
    let position = game.parse(text).map_err(|e| match game {
        GameKind::CustomTree => format!("tree: {e}"),
        _ => format!("'{}': {e}", crate::text::quote(text)),
    })?;
    let position = position.searchable()?;
    // Validated on the scene's game; a scene naming no engine is searched with the page's.
    let engine = scene.engine().unwrap_or_else(|| spec.engine(game));
    game.check_engine(&engine)?;
    let mut spec = spec;
    spec.set_engine(&engine);
    Ok((position.clone(), recorded_spec(&position, spec)))
}

/// `spec` as the lab records it on `position`: a typed-in tree to its deepest leaf, as only leaves
/// have values.
pub fn recorded_spec(position: &Position, spec: SearchSpec) -> SearchSpec {
    match position {
        Position::CustomTree(tree) => SearchSpec { depth: tree.root().height() as u32, ..spec },
        _ => spec,
    }
}
