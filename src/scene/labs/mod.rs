//! The labs a scene can open, each described once by a [`LabKind`]: its name, the fields and
//! layers its page reads, the kind of spec it runs and the rules its page adds. [`labs!`] lists
//! them; adding a lab is its own file here plus one line in that list (and its page in the app).

use super::{FieldError, Moment, RunSpec, Scene, Step};
use crate::text::quote;

/// One lab, as scenes see it.
pub trait LabKind {
    /// Its name in scenes (`lab = "game-tree"`).
    const ID: &'static str;
    /// The optional scene fields its page reads (besides `step` and `layers`).
    const FIELDS: &'static [&'static str];
    /// What its page shows, to say why it reads no other field.
    const SHOWS: &'static str;
    /// The layers its page can show.
    const LAYERS: &'static [&'static str] = &[];
    /// The named moments its replay can open on (`step = "first-expansion"`); besides these, any
    /// lab's step can be `end`, and a replaying lab's an event index.
    const MOMENTS: &'static [Moment] = &[];

    /// Reads `text` as the kind of spec the lab runs, so a bad one gets that kind's message.
    fn parse_spec(text: &str) -> Result<RunSpec, String> {
        Err(format!("the {} lab runs no spec, not '{}'", Self::ID, quote(text)))
    }

    /// Whether `spec` fits the lab as its first spec or, when `second`, as `compare`; else why, as
    /// the end of "spec '…' does not fit…".
    fn check_fit(_second: bool, _spec: RunSpec) -> Result<(), String> {
        Err(format!(" the {} lab", Self::ID))
    }

    /// The rules of its page beyond the spec's kind; `tree_height` is a typed-in tree's.
    fn check_page(_scene: &Scene, _tree_height: Option<usize>) -> Result<(), FieldError> {
        Ok(())
    }
}

/// Lists the labs, `module: Type` each, in the order pages offer them; declares the modules and
/// the [`Lab`] enum naming them (its variant is the type's name).
macro_rules! labs {
    ($($module:ident: $kind:ident),+ $(,)?) => {
        $(mod $module;)+

        /// Which page shows a scene, one per [`LabKind`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Lab {
            $($kind),+
        }

        impl Lab {
            pub const ALL: &'static [Lab] = &[$(Lab::$kind),+];

            /// The name in scenes.
            pub fn id(self) -> &'static str {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::ID),+ }
            }

            /// The layers a page of this lab can show.
            pub fn layers(self) -> &'static [&'static str] {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::LAYERS),+ }
            }

            /// The optional fields the lab's page reads, and what it shows.
            pub fn fields(self) -> (&'static [&'static str], &'static str) {
                match self { $(Lab::$kind => (<$module::$kind as LabKind>::FIELDS, <$module::$kind as LabKind>::SHOWS)),+ }
            }

            pub fn moments(self) -> &'static [Moment] {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::MOMENTS),+ }
            }

            pub fn parse_spec(self, text: &str) -> Result<RunSpec, String> {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::parse_spec(text)),+ }
            }

            pub fn check_fit(self, second: bool, spec: RunSpec) -> Result<(), String> {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::check_fit(second, spec)),+ }
            }

            pub fn check_page(self, scene: &Scene, tree_height: Option<usize>) -> Result<(), FieldError> {
                match self { $(Lab::$kind => <$module::$kind as LabKind>::check_page(scene, tree_height)),+ }
            }
        }
    };
}

pub use game_tree::{recorded_spec, request as game_tree_request};

labs! {
    grid: Grid,
    hierarchical: Hierarchical,
    polygon: Polygon,
    game_tree: GameTree,
    barca: Barca,
    tuning: Tuning,
    agents: Agents,
    quiz: Quiz,
}

impl Lab {
    /// The first of the `given` fields the lab's page does not read, with why.
    pub(super) fn unused_field(self, given: [(&'static str, bool); 14]) -> Result<(), FieldError> {
        let (fields, shows) = self.fields();
        match given.into_iter().find(|&(field, present)| present && !fields.contains(&field)) {
            Some((field, _)) => {
                Err(FieldError::new(field, format!("the {} lab does not use `{field}`: it shows {shows}", self.id())))
            }
            None => Ok(()),
        }
    }
}

impl std::fmt::Display for Lab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Lab {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Lab::ALL.iter().copied().find(|lab| lab.id() == text).ok_or_else(|| {
            let ids: Vec<&str> = Lab::ALL.iter().map(|lab| lab.id()).collect();
            format!("unknown lab '{}': use {}", quote(text), crate::text::or_list(&ids))
        })
    }
}

crate::serde_as_text!(Lab);

impl Lab {
    /// Whether `step` is one the lab's replay can open on; else why, listing those it can.
    pub(super) fn check_step(self, step: Step) -> Result<(), FieldError> {
        let moments = self.moments();
        match step {
            // A page without a replay refuses every step but the end itself.
            Step::Moment(moment) if !moments.is_empty() && !moments.contains(&moment) => {
                let names: Vec<&str> = moments.iter().map(|moment| moment.name()).chain(["end"]).collect();
                let message = format!(
                    "step '{}' is not a moment of the {} lab's replay: use an event index or {}",
                    moment.name(),
                    self.id(),
                    crate::text::or_list(&names)
                );
                Err(FieldError::new("step", message))
            }
            _ => Ok(()),
        }
    }
}

/// A step other than the end refused by a page that shows no replay.
fn no_replay(scene: &Scene, shows: &str, fix: &str) -> Result<(), FieldError> {
    if scene.step == Step::End {
        return Ok(());
    }
    Err(FieldError::new("step", format!("{shows}, not step '{}': {fix}", scene.step)))
}
