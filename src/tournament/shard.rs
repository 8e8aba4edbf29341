//! Matches split across machines: shard K of N plays the opening pairs whose number is K − 1
//! modulo N, and a merge folds every shard's games back in pair order, so that it reaches the
//! summary (and the SPRT's stop) the match played in one run reaches.

use std::fmt;
use std::str::FromStr;

use super::runner::{MatchReport, PairFold};
use super::scoring::GameRecord;
use super::sprt::Sprt;

/// One of `count` disjoint slices of a match's pairs; `index` counts from 0 (the text form from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// This shard's pairs of a match of `games` games.
    pub fn pairs(&self, games: u32) -> Vec<u32> {
        (self.index..games.div_ceil(2)).step_by(self.count as usize).collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 <= K <= N, as Slurm's `$SLURM_ARRAY_TASK_ID/N` or GNU parallel's `{}/N` give it.
    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = || format!("'{}' is not K/N (shard K of N, 1 <= K <= N, e.g. 2/8)", crate::text::quote(text));
        let (k, n) = text.split_once('/').ok_or_else(wrong)?;
        let (k, n) = (k.trim().parse::<u32>().map_err(|_| wrong())?, n.trim().parse::<u32>().map_err(|_| wrong())?);
        if !(1..=n).contains(&k) {
            return Err(wrong());
        }
        Ok(Shard { index: k - 1, count: n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// A game's number in the match, from 0: the first engine plays White in the first game of a pair.
pub fn game_index(game: &GameRecord) -> u64 {
    2 * u64::from(game.pair) + u64::from(!game.first_plays_white)
}

/// The report of a match of `games` games from all of its games in any order, ended where the
/// SPRT, checked after each pair, decides; refuses a game missing, repeated or beyond the match.
pub fn merge_games(games: u32, mut records: Vec<GameRecord>, sprt: Option<&Sprt>) -> Result<MatchReport, String> {
    records.sort_by_key(game_index);
    for (expected, record) in records.iter().enumerate() {
        let index = game_index(record);
        if index >= u64::from(games) {
            return Err(format!("game {} is beyond the match's {games} games", index + 1));
        }
        if index < expected as u64 {
            return Err(format!("game {} appears twice (is one shard's file given twice?)", index + 1));
        }
        if index > expected as u64 {
            return Err(missing(expected as u64, games));
        }
    }
    if records.len() < games as usize {
        return Err(missing(records.len() as u64, games));
    }
    let mut fold = PairFold::new(sprt);
    for pair_games in records.chunks(2) {
        if fold.add(pair_games.to_vec()) {
            break;
        }
    }
    Ok(fold.report)
}

fn missing(index: u64, games: u32) -> String {
    format!("game {} of {games} is missing (is a shard's file left out, or did a shard stop early?)", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_pairs_disjointly_and_completely() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        let mut all: Vec<u32> = shards.iter().flat_map(|shard| shard.pairs(13)).collect();
        all.sort();
        assert_eq!(all, (0..7).collect::<Vec<_>>(), "13 games are 7 pairs, each played by one shard");
        assert_eq!(shards[1].pairs(13), [1, 4]);
        assert_eq!(shards[2].to_string(), "3/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().unwrap_err().contains("is not K/N"), "{bad}");
        }
    }
}
