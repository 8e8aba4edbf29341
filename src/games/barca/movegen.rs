//! Legal moves: slides, fear, and the spec's three cases (nobody scared / a scared animal can
//! escape / every scared animal is trapped).

use super::board::{Bitboard, bit, slide, squares_of};
use super::{Animal, Barca, BarcaMove, index, square_name};

/// One animal of the side to move and its destinations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimalMoves {
    pub from: u8,
    pub animal: Animal,
    /// Is it scared where it stands?
    pub scared: bool,
    /// Every empty square it can slide to.
    pub reachable: Bitboard,
    /// The reachable squares where it would not be scared.
    pub safe: Bitboard,
    /// The squares it may legally move to in this position.
    pub legal: Bitboard,
}

impl AnimalMoves {
    /// The squares it could slide to but may not because it would be scared there (the UI's
    /// red dots; the legal ones are its green dots).
    pub fn scared_destinations(&self) -> Bitboard {
        self.reachable & !self.safe & !self.legal
    }
}

impl Barca {
    /// The six animals of the side to move with their destinations, the legality rule applied.
    #[inline]
    pub fn moves_by_animal(&self) -> [AnimalMoves; 6] {
        let us = index(self.side);
        let empty = !self.occupied;
        let mut moves =
            [AnimalMoves { from: 0, animal: Animal::Elephant, scared: false, reachable: 0, safe: 0, legal: 0 }; 6];
        let mut count = 0;
        for animal in Animal::ALL {
            let zone = self.fear_zone(self.side, animal);
            for from in squares_of(self.pieces[us][animal as usize]) {
                let reachable = slide(from as usize, animal.directions(), self.occupied) & empty;
                let scared = zone & bit(from as usize) != 0;
                moves[count] = AnimalMoves { from, animal, scared, reachable, safe: reachable & !zone, legal: 0 };
                count += 1;
            }
        }
        debug_assert_eq!(count, 6, "every side has six animals");
        let any_scared = moves.iter().any(|m| m.scared);
        let scared_can_escape = moves.iter().any(|m| m.scared && m.safe != 0);
        for m in &mut moves {
            m.legal = match (any_scared, scared_can_escape, m.scared) {
                // Case 1: nobody is scared, every safe move.
                (false, _, _) => m.safe,
                // Case 2: the scared animals that can escape must; the others wait.
                (true, true, true) => m.safe,
                (true, true, false) => 0,
                // Case 3: all scared animals are trapped: they may go anywhere, the others safely.
                (true, false, true) => m.reachable,
                (true, false, false) => m.safe,
            };
        }
        moves
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        self.moves_by_animal().iter().map(|m| m.legal.count_ones() as u64).sum()
    }

    /// The destinations of the side to move's animal on `from`, or `None` if it has none there.
    pub fn animal_moves(&self, from: u8) -> Option<AnimalMoves> {
        self.moves_by_animal().into_iter().find(|m| m.from == from)
    }

    /// Ok if `mv` is legal here, else why not, in words.
    pub fn check_legal(&self, mv: BarcaMove) -> Result<(), String> {
        let (from, to) = (square_name(mv.from), square_name(mv.to));
        let Some(moves) = self.animal_moves(mv.from) else {
            let whose = if self.piece_at(mv.from).is_some() { "the opponent's animal" } else { "no animal" };
            return Err(format!("{mv}: {from} holds {whose}, not one of the side to move's"));
        };
        let name = moves.animal.name();
        let target = bit(mv.to as usize);
        if moves.legal & target != 0 {
            return Ok(());
        }
        Err(if moves.reachable & target == 0 {
            format!("{mv}: the {name} on {from} cannot reach {to}")
        } else if moves.safe & target == 0 && !moves.scared {
            format!("{mv}: the {name} would be scared on {to}")
        } else if moves.safe & target == 0 {
            format!("{mv}: the scared {name} would still be scared on {to}, and a scared animal can reach safety")
        } else {
            let scared: Vec<String> = squares_of(self.scared_animals(self.side)).map(square_name).collect();
            format!("{mv}: a scared animal must move first ({})", scared.join(", "))
        })
    }
}
