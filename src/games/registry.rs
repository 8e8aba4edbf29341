//! The games the labs, scenes and the CLI offer, each described once by a [`RegisteredGame`]: its
//! name, its position text, its sides and how deep the labs search it. [`games!`] lists them and
//! makes [`GameKind`] (which game) and [`Position`] (a position of any of them); code that needs
//! the game's own type visits the position with a [`GameVisitor`].

use serde::{Deserialize, Serialize};

use super::{Game, GameKind, Outcome, Position};

/// A game as the labs and scenes see it.
/// Sync, so that a match can play games from one start on many threads.
pub trait RegisteredGame: Game + Sync {
    /// Its name in scenes (`game = "barca"`), on the command line and in saved settings.
    const ID: &'static str;
    /// Its name on the page.
    const NAME: &'static str;
    /// The players' names, the side moving first first.
    const SIDES: [&'static str; 2];
    /// The position a page opens with: one with a small, instructive tree.
    const DEFAULT_POSITION: &'static str;
    /// Where a game played from the beginning starts (matches, the play page).
    const START_POSITION: &'static str = Self::DEFAULT_POSITION;
    /// How its position text is written, for the page.
    const POSITION_HELP: &'static str;
    /// The depth a newly chosen game is searched to: the whole game, or what takes a moment.
    const DEFAULT_DEPTH: u32;
    /// The deepest search the game-tree lab offers with a pruning search, and with minimax or
    /// negamax, which look at every node.
    const MAX_DEPTH: u32;
    const MAX_FULL_WIDTH_DEPTH: u32 = Self::MAX_DEPTH;
    /// UCT's playouts in the lab stop after this many plies, where random games rarely end.
    const PLAYOUT_CUTOFF: Option<u32> = None;

    /// Reads a position in the game's own text (surrounding blanks allowed).
    fn parse_position(text: &str) -> Result<Self, String>;

    /// The position in the game's own text.
    fn position_text(&self) -> String;

    /// Whether `text` is written as this game's positions are: how a scene that does not name its
    /// game finds it.
    fn looks_like(text: &str) -> bool;

    /// The position with whatever a search of it reads (a history that decides repetitions), as
    /// text that crosses to a Web Worker.
    fn record(&self) -> String {
        self.position_text()
    }

    fn from_record(text: &str) -> Result<Self, String> {
        Self::parse_position(text)
    }

    /// perft: the number of legal move sequences of length `depth` from here, a sequence that
    /// reaches the game's end early not counted (a game may count its own way, as its published
    /// figures do).
    fn perft(&mut self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome().is_some() {
            return 0;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                self.make_move(mv);
                let nodes = self.perft(depth - 1);
                self.unmake_move();
                nodes
            })
            .sum()
    }
}

/// Something done with a position of whichever game it is.
pub trait GameVisitor {
    type Output;
    fn visit<G: RegisteredGame>(self, game: &G) -> Self::Output;
}

/// Lists the games, `module: Type` each, in the order pages offer them; declares the modules and
/// makes [`GameKind`] and [`Position`] (their variants are the types' names).
macro_rules! games {
    ($($module:ident: $kind:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// Which game, one per [`RegisteredGame`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($kind),+
        }

        /// A position of one of the games. A page or a job holds one at a time, so the size of
        /// the largest (a game with its history) costs nothing worth a box.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)]
        pub enum Position {
            $($kind($module::$kind)),+
        }

        impl GameKind {
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind),+];

            pub fn id(self) -> &'static str {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::ID),+ }
            }

            pub fn name(self) -> &'static str {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::NAME),+ }
            }

            pub fn side_name(self, side: Side) -> &'static str {
                let sides = match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::SIDES),+ };
                sides[usize::from(side == Side::Second)]
            }

            pub fn default_position(self) -> &'static str {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::DEFAULT_POSITION),+ }
            }

            pub fn start_position(self) -> &'static str {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::START_POSITION),+ }
            }

            pub fn position_help(self) -> &'static str {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::POSITION_HELP),+ }
            }

            pub fn default_depth(self) -> u32 {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::DEFAULT_DEPTH),+ }
            }

            /// The deepest search offered: with `full_width` (minimax, negamax) or pruning.
            pub fn max_depth_of(self, full_width: bool) -> u32 {
                match (self, full_width) {
                    $((GameKind::$kind, false) => <$module::$kind as RegisteredGame>::MAX_DEPTH,
                      (GameKind::$kind, true) => <$module::$kind as RegisteredGame>::MAX_FULL_WIDTH_DEPTH,)+
                }
            }

            pub fn playout_cutoff(self) -> Option<u32> {
                match self { $(GameKind::$kind => <$module::$kind as RegisteredGame>::PLAYOUT_CUTOFF),+ }
            }

            /// The first game whose positions are written as `text` is.
            pub fn of_position(text: &str) -> Option<GameKind> {
                let text = text.trim();
                [$((GameKind::$kind, <$module::$kind as RegisteredGame>::looks_like(text))),+]
                    .into_iter()
                    .find_map(|(kind, looks)| looks.then_some(kind))
            }

            /// Reads a position of this game.
            pub fn parse(self, text: &str) -> Result<Position, String> {
                match self {
                    $(GameKind::$kind => {
                        <$module::$kind as RegisteredGame>::parse_position(text).map(Position::$kind)
                    }),+
                }
            }

            pub fn from_record(self, text: &str) -> Result<Position, String> {
                match self {
                    $(GameKind::$kind => <$module::$kind as RegisteredGame>::from_record(text).map(Position::$kind)),+
                }
            }
        }

        impl Position {
            pub fn kind(&self) -> GameKind {
                match self { $(Position::$kind(_) => GameKind::$kind),+ }
            }

            /// Runs `visitor` on the game's own type.
            pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
                match self { $(Position::$kind(game) => visitor.visit(game)),+ }
            }

            /// The position after `moves`, given as move texts.
            pub fn after<'m>(&self, moves: impl IntoIterator<Item = &'m str>) -> Result<Position, String> {
                fn play<'a, G: Game>(game: &G, moves: impl IntoIterator<Item = &'a str>) -> Result<G, String> {
                    let mut game = game.clone();
                    for text in moves {
                        let mv = game.parse_move(text)?;
                        game.make_move(mv);
                    }
                    Ok(game)
                }
                Ok(match self { $(Position::$kind(game) => Position::$kind(play(game, moves)?)),+ })
            }

            fn record(&self) -> String {
                match self { $(Position::$kind(game) => game.record()),+ }
            }

            pub fn text(&self) -> String {
                match self { $(Position::$kind(game) => game.position_text()),+ }
            }

            pub fn side_to_move(&self) -> Side {
                match self { $(Position::$kind(game) => game.side_to_move()),+ }
            }

            /// The result, when the game is already over in this position.
            pub fn outcome(&self) -> Option<Outcome> {
                match self { $(Position::$kind(game) => game.outcome()),+ }
            }
        }
    };
}

pub(crate) use games;

impl GameKind {
    /// Whether there is anything to search after `outcome`; else a one-line reason.
    pub fn searchable(self, outcome: Option<Outcome>) -> Result<(), String> {
        match outcome {
            None => Ok(()),
            Some(Outcome::Win(side)) => {
                Err(format!("the game is over ({} has won): nothing to search", self.side_name(side)))
            }
            Some(Outcome::Draw) => Err("the game is over (a draw): nothing to search".to_string()),
        }
    }
}

impl Position {
    /// Reads a position in the game's own notation.
    pub fn parse(kind: GameKind, text: &str) -> Result<Position, String> {
        kind.parse(text)
    }

    /// The position, or a one-line reason when there is nothing to search: the game is over.
    pub fn searchable(self) -> Result<Position, String> {
        self.kind().searchable(self.outcome()).map(|()| self)
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        GameKind::ALL.iter().copied().find(|kind| kind.id() == text).ok_or_else(|| {
            let ids: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.id()).collect();
            format!("unknown game '{}': use {}", crate::text::quote(text), crate::text::or_list(&ids))
        })
    }
}

/// Saved and sent as its id; the names of the enum's first version ("TicTacToe", "Barca",
/// "CustomTree") still read.
impl Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let old = GameKind::ALL.iter().copied().find(|kind| format!("{kind:?}") == text);
        old.map_or_else(|| text.parse().map_err(serde::de::Error::custom), Ok)
    }
}

/// A position crosses to a Web Worker as its game and its record.
impl Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.kind(), self.record()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (kind, record) = <(GameKind, String)>::deserialize(deserializer)?;
        kind.from_record(&record).map_err(serde::de::Error::custom)
    }
}
