//! The simultaneous-move games the CLI and the game-tree lab offer, beside the turn-based
//! registry (whose searches assume one side to move): each described once here, by id, name,
//! sides and position text; code that needs the game's own type visits it with a [`SimVisitor`].

use super::Side;
use super::goofspiel::Goofspiel;
use super::ropasci::RoPaSci;
use super::simultaneous::{MatrixGame, SimultaneousGame};
use crate::text::quote;

/// Which simultaneous-move game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimKind {
    /// A zero-sum matrix game, rock-paper-scissors unless a matrix is given.
    Matrix,
    Goofspiel,
    RoPaSci,
}

/// A position of one of them. One is held at a time, so the largest's size costs nothing worth a box.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum SimPosition {
    Matrix(MatrixGame),
    Goofspiel(Goofspiel),
    RoPaSci(RoPaSci),
}

/// Something done with a position of whichever simultaneous game it is.
pub trait SimVisitor {
    type Output;
    fn visit<G: SimultaneousGame>(self, game: &G) -> Self::Output;
}

impl SimKind {
    pub const ALL: [SimKind; 3] = [SimKind::Matrix, SimKind::Goofspiel, SimKind::RoPaSci];

    pub fn id(self) -> &'static str {
        match self {
            SimKind::Matrix => "matrix",
            SimKind::Goofspiel => "goofspiel",
            SimKind::RoPaSci => "ropasci",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SimKind::Matrix => "Matrix game",
            SimKind::Goofspiel => "Goofspiel",
            SimKind::RoPaSci => "RoPaSci 360",
        }
    }

    pub fn side_name(self, side: Side) -> &'static str {
        let names = match self {
            SimKind::Matrix => ["Row", "Column"],
            SimKind::Goofspiel => ["Player 1", "Player 2"],
            SimKind::RoPaSci => ["Upper", "Lower"],
        };
        names[usize::from(side == Side::Second)]
    }

    /// The start: rock-paper-scissors, Goofspiel with 4 cards, RoPaSci 360's empty board.
    pub fn default_position(self) -> &'static str {
        match self {
            SimKind::Matrix => "0 -1 1; 1 0 -1; -1 1 0",
            SimKind::Goofspiel => "4",
            SimKind::RoPaSci => "- / 0 0 / 0",
        }
    }

    /// How a position is written, for help texts.
    pub fn position_help(self) -> &'static str {
        match self {
            SimKind::Matrix => {
                "the row player's payoffs in [-1, 1], rows separated by ';' (e.g. '0 -1 1; 1 0 -1; -1 1 0')"
            }
            SimKind::Goofspiel => "the number of cards, 1 to 15",
            SimKind::RoPaSci => {
                "tokens / throws made by Upper and Lower / turns played (e.g. 'R@4,-2 s@-3,1 / 1 1 / 1')"
            }
        }
    }

    /// Reads a position in the game's text.
    pub fn parse(self, text: &str) -> Result<SimPosition, String> {
        match self {
            SimKind::Matrix => parse_matrix(text).map(SimPosition::Matrix),
            SimKind::Goofspiel => {
                let cards = text.trim().parse().map_err(|_| format!("'{}' is not a number of cards", quote(text)))?;
                Goofspiel::new(cards).map(SimPosition::Goofspiel)
            }
            SimKind::RoPaSci => RoPaSci::from_position(text).map(SimPosition::RoPaSci),
        }
    }
}

impl std::str::FromStr for SimKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let names = Self::ALL.map(SimKind::id).join(", ");
        Self::ALL
            .into_iter()
            .find(|kind| kind.id() == text)
            .ok_or_else(|| format!("unknown simultaneous-move game '{}': use {names}", quote(text)))
    }
}

impl SimPosition {
    pub fn visit<V: SimVisitor>(&self, visitor: V) -> V::Output {
        match self {
            SimPosition::Matrix(game) => visitor.visit(game),
            SimPosition::Goofspiel(game) => visitor.visit(game),
            SimPosition::RoPaSci(game) => visitor.visit(game),
        }
    }
}

/// Rows separated by ';', entries by blanks or commas; rock-paper-scissors is named as such.
fn parse_matrix(text: &str) -> Result<MatrixGame, String> {
    let rows = text
        .split(';')
        .map(|row| {
            row.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|entry| !entry.is_empty())
                .map(|entry| entry.parse::<f64>().map_err(|_| format!("'{}' is not a number", quote(entry))))
                .collect::<Result<Vec<f64>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    let rps = MatrixGame::rock_paper_scissors();
    if rows == rps.matrix() { Ok(rps) } else { MatrixGame::new(rows) }
}
