//! `searchlab barca merge FILES...`: the summary of a match played in shards (`barca match
//! --shard K/N`), from the shards' game lines, equal to the summary of the match played at once.

use std::path::PathBuf;

use clap::Args;
use serde_json::Value;

use super::tournament::MatchDescription;
use super::{CliError, CliResult, emit};
use crate::tournament::shard::{Shard, merge_games};
use crate::tournament::{GameRecord, GameResult, ReportScoring};

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The output of every shard of one match (`barca match --shard K/N > FILE`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// What one shard's file holds.
struct ShardFile {
    shard: Shard,
    description: MatchDescription,
    games: Vec<GameRecord>,
}

pub fn run_merge(args: MergeArgs) -> CliResult {
    let mut files = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = crate::files::read_text(path, crate::files::MAX_TEXT).map_err(|e| CliError(e.at(&name)))?;
        files.push(read_shard(&text).map_err(|e| CliError(format!("{name}: {e}")))?);
    }
    let first = &files[0];
    let mut seen = vec![None; first.shard.count as usize];
    for (file, path) in files.iter().zip(&args.files) {
        if file.description != first.description || file.shard.count != first.shard.count {
            return Err(CliError(format!(
                "{} is a shard of another match than {} (engines, seed, games, opening, SPRT or shard count differ)",
                path.display(),
                args.files[0].display()
            )));
        }
        if let Some(earlier) = seen[file.shard.index as usize].replace(path) {
            return Err(CliError(format!(
                "{} and {} are both shard {}",
                earlier.display(),
                path.display(),
                file.shard
            )));
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        let shard = Shard { index: missing as u32, count: first.shard.count };
        return Err(CliError(format!("shard {shard} is missing: give every shard's file")));
    }
    let description = &first.description;
    let games = files.iter().flat_map(|file| file.games.iter().copied()).collect();
    let report = merge_games(description.games, games, description.sprt.as_ref()).map_err(CliError)?;
    emit(&description.summary(&report, &ReportScoring::default())?);
    Ok(())
}

/// A shard's game lines and its closing description line.
fn read_shard(text: &str) -> Result<ShardFile, String> {
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let at = |e: String| format!("line {}: {e}", number + 1);
        let value: Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        if let Some(shard) = value.get("shard") {
            let shard: Shard = shard.as_str().ok_or("\"shard\" is not K/N text")?.parse().map_err(at)?;
            let description = serde_json::from_value(value["match"].clone()).map_err(|e| at(e.to_string()))?;
            return Ok(ShardFile { shard, description, games });
        }
        games.push(game_of(&value).map_err(at)?);
    }
    Err("no shard line at the end: not the whole output of barca match --shard K/N".to_string())
}

/// A game line back as the runner's record.
fn game_of(line: &Value) -> Result<GameRecord, String> {
    let field = |name: &str| line.get(name).ok_or_else(|| format!("a game line without \"{name}\""));
    let opening = field("opening")?.as_u64().filter(|&o| (1..=u64::from(u32::MAX)).contains(&o));
    let result = match field("first_engine_result")?.as_str() {
        Some("win") => GameResult::Win,
        Some("draw") => GameResult::Draw,
        Some("loss") => GameResult::Loss,
        _ => return Err("\"first_engine_result\" is not win, draw or loss".to_string()),
    };
    Ok(GameRecord {
        pair: opening.ok_or("\"opening\" is not a whole number from 1")? as u32 - 1,
        first_plays_white: field("first_engine_plays")?.as_str() == Some("white"),
        result,
        plies: field("plies")?.as_u64().ok_or("\"plies\" is not a whole number")? as usize,
        mean_eval: field("mean_eval")?.as_f64().ok_or("\"mean_eval\" is not a number")?,
    })
}
