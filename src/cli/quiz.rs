//! `searchlab quiz`: questions generated from a seed and answered from the algorithms' traces,
//! one JSON object per line.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{CliError, CliResult};
use crate::quiz::{self, Kind, Options};
use crate::scene::{Lab, Scene};

#[derive(Debug, Args)]
pub struct QuizArgs {
    #[command(subcommand)]
    command: QuizCommand,
}

#[derive(Debug, Subcommand)]
enum QuizCommand {
    /// Questions of one kind: seeds N, N+1, ... (kinds: next-expansion, cell-values, path-cost,
    /// node-value, pruned-leaves, node-bound, uct-next).
    Generate(GenerateArgs),
    /// The questions of a lecture's quiz cells (`lab = "quiz"`), in file order, each with the
    /// line of its cell; a cell's seed is its `seed` (0 if not given) plus --seed.
    Lecture(LectureArgs),
}

#[derive(Debug, Args)]
struct LectureArgs {
    #[arg(value_name = "FILE.md")]
    file: PathBuf,
    /// Added to every cell's seed: another number, another set of questions.
    #[arg(long)]
    seed: u64,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// The kind of question.
    #[arg(value_name = "KIND")]
    kind: String,
    /// The first question's seed; the same seed prints the same question.
    #[arg(long)]
    seed: u64,
    /// How many questions, with seeds seed, seed + 1, ...
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    count: u64,
    /// The algorithm (grid: bfs, dijkstra, astar, greedy); drawn from the seed if not given.
    #[arg(long)]
    algorithm: Option<String>,
    /// The grid's width (5 to 16) or the tree's depth (2 to 4).
    #[arg(long)]
    size: Option<u32>,
}

pub fn run(args: QuizArgs) -> CliResult {
    match args.command {
        QuizCommand::Generate(args) => generate(args),
        QuizCommand::Lecture(args) => lecture(args),
    }
}

fn generate(args: GenerateArgs) -> CliResult {
    let kind: Kind = args.kind.parse().map_err(CliError)?;
    let options = Options { algorithm: args.algorithm, size: args.size };
    for i in 0..args.count {
        let seed = args.seed.checked_add(i).ok_or_else(|| CliError("--seed + --count passes 2^64".to_string()))?;
        let question = quiz::generate(kind, seed, &options).map_err(CliError)?;
        super::emit(&serde_json::to_value(&question).expect("a question is plain data"));
    }
    Ok(())
}

fn lecture(args: LectureArgs) -> CliResult {
    let lecture = super::lecture::read(&args.file)?;
    let name = args.file.display();
    for cell in lecture.cells() {
        let at = |message: String| CliError(format!("{name}:{}: {message}", cell.line));
        let scene = Scene::from_toml(&cell.source).map_err(at)?;
        if scene.lab != Lab::Quiz {
            continue;
        }
        // The quiz lab's rules made sure the kind is there and known.
        let kind: Kind = scene.kind.as_deref().unwrap_or_default().parse().map_err(at)?;
        let seed = scene.seed.unwrap_or(0).wrapping_add(args.seed);
        let question = quiz::generate(kind, seed, &scene.quiz_options()).map_err(at)?;
        let mut value = serde_json::to_value(&question).expect("a question is plain data");
        value["line"] = cell.line.into();
        super::emit(&value);
    }
    Ok(())
}
