//! The headless command line: `searchlab <subcommand>`, JSON on stdout, exit code 2 with a
//! one-line error for bad arguments or files, 1 when some of many queries failed.

mod agents;
mod barca;
mod game;
mod game_match;
mod game_search;
mod game_simultaneous;
mod gen_map;
mod lecture;
mod merge;
mod mesh;
mod path;
mod quiz;
mod tictactoe;
mod tournament;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::games::barca::Barca;

#[derive(Debug, Parser)]
#[command(name = "searchlab", version, about = "A teaching playground for pathfinding and game-tree search")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// Parsed once per run: boxing the large variants' arguments would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
enum Command {
    /// Shortest paths on a grid map: one query (--from/--to) or every query of a .scen file.
    Path(path::PathArgs),
    /// Generate a map (maze, rooms, random obstacles, caves) and a scenario file for it.
    Gen(gen_map::GenArgs),
    /// Tic-tac-toe: search a position with minimax, negamax, alpha-beta or iterative deepening.
    Tictactoe(tictactoe::TicTacToeArgs),
    /// The Barca engine: perft, search, engine-vs-engine matches, weight tuning.
    Barca(barca::BarcaArgs),
    /// Any game of the registry (--game tictactoe, barca, othello, hus, ropasci, ...): perft, search, match.
    Game(game::GameArgs),
    /// Shortest any-angle paths on polygon maps (TA*, TRA*), or on a triangulated grid map.
    Mesh(mesh::MeshArgs),
    /// Open a lecture notebook (a Markdown file with live cells), or check its cells with --check.
    Lecture(lecture::LectureArgs),
    /// Multi-agent paths on a grid map: independent A*, cooperative A* or WHCA*.
    Agents(agents::AgentsArgs),
    /// Questions generated from a seed and answered from the algorithm's own trace.
    Quiz(quiz::QuizArgs),
}

/// A failure to report to the user in one line.
#[derive(Debug)]
pub struct CliError(pub String);

impl CliError {
    /// A library spec's validation message as one naming the flag: spec options and `flags`
    /// share their names, and the messages start with the option's name.
    pub fn of_option(message: String, flags: &[&str]) -> CliError {
        let named = message.split_whitespace().next().is_some_and(|word| flags.contains(&word));
        CliError(if named { format!("--{message}") } else { message })
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(error: E) -> Self {
        CliError(error.to_string())
    }
}

pub type CliResult = Result<(), CliError>;

/// For commands answering many queries: how many failed (each has its own JSON line and makes
/// the exit code 1), or why the command could not run at all (exit code 2).
pub type QueriesResult = Result<usize, CliError>;

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> i32 {
    let parsed = command().try_get_matches().and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version
            let _ = error.print();
            return 0;
        }
        Err(error) => {
            let message = value_error(&error).unwrap_or_else(|| one_line(&error.render().to_string()));
            eprintln!("{}", crate::text::one_line(&message));
            return 2;
        }
    };
    let no_failures = |result: CliResult| result.map(|()| 0);
    let result = match cli.command {
        Some(Command::Path(args)) => path::run(args),
        Some(Command::Gen(args)) => no_failures(gen_map::run(args)),
        Some(Command::Tictactoe(args)) => no_failures(tictactoe::run(args)),
        Some(Command::Barca(args)) => no_failures(barca::run(args)),
        Some(Command::Game(args)) => no_failures(game::run(args)),
        Some(Command::Mesh(args)) => mesh::run(args),
        Some(Command::Lecture(args)) => no_failures(lecture::run(args)),
        Some(Command::Agents(args)) => agents::run(args),
        Some(Command::Quiz(args)) => no_failures(quiz::run(args)),
        None => no_failures(open_playground()),
    };
    match result {
        Ok(0) => 0,
        Ok(_failed) => 1,
        Err(CliError(message)) => {
            eprintln!("error: {}", crate::text::one_line(&message));
            2
        }
    }
}

#[cfg(feature = "app")]
fn open_playground() -> CliResult {
    crate::app::run().map_err(window_error)
}

/// Why no window opened, without winit's source location (a path into the cargo registry).
#[cfg(feature = "app")]
pub fn window_error(error: impl std::fmt::Display) -> CliError {
    let text = error.to_string();
    let text = match (text.find(" at /"), text.find(".rs:")) {
        (Some(at), Some(rs)) if rs > at => {
            let rest = text[rs + 4..].trim_start_matches(|c: char| c.is_ascii_digit() || c == ':').trim_start();
            format!("{}: {rest}", &text[..at])
        }
        _ => text,
    };
    CliError(format!("cannot open the window: {text}"))
}

#[cfg(not(feature = "app"))]
fn open_playground() -> CliResult {
    Err(CliError("this build has no playground (feature `app`): give a subcommand (see searchlab --help)".to_string()))
}

/// The command line with every option's value allowed to be a negative number: `--weight -3` is
/// then refused for its value, naming the option and its range, not read as an unknown option `-3`.
fn command() -> clap::Command {
    fn negatives(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| if arg.get_action().takes_values() { arg.allow_negative_numbers(true) } else { arg })
            .mut_subcommands(negatives)
    }
    negatives(Cli::command())
}

/// Clap's message for a value that did not parse, in words naming the range: "invalid digit found in
/// string" and "-4 is not in 0..=4294967295" both mean a whole number of 0 or more is wanted.
fn value_error(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) =
        (error.get(ContextKind::InvalidArg), error.get(ContextKind::InvalidValue))
    else {
        return None;
    };
    let cause = std::error::Error::source(error)?.to_string();
    // "-3 is not in 2..=256", or "-1 is not in 1..9223372036854775807" whose end is only the type's.
    let range = cause.split_once(" is not in ").and_then(|(_, range)| {
        let (low, high) = range.split_once("..")?;
        let (inclusive, end) = match high.strip_prefix('=') {
            Some(end) => (true, end.parse::<u64>().ok()?),
            None => (false, high.parse::<u64>().ok()?),
        };
        let open = [u8::MAX as u64, u16::MAX as u64, u32::MAX as u64, i64::MAX as u64, u64::MAX].contains(&end);
        Some((low.to_string(), if inclusive { end } else { end.saturating_sub(1) }, open))
    });
    let reason = match (cause.as_str(), range) {
        ("invalid float literal", _) => "is not a number".to_string(),
        ("number too large to fit in target type", _) => "is too large".to_string(),
        (_, Some((low, high, false))) => format!("is not a whole number from {low} to {high}"),
        (_, Some((low, high, true))) if value.parse::<u64>().is_ok_and(|v| v > high) => {
            format!("is too large (a whole number from {low} to {high})")
        }
        (_, Some((low, _, true))) => format!("is not a whole number of {low} or more"),
        ("invalid digit found in string", _) => "is not a whole number of 0 or more".to_string(),
        _ => return None,
    };
    Some(format!("error: invalid value for '{arg}': '{value}' {reason} (see searchlab --help)"))
}

/// Folds clap's multi-line message (details, blank lines, usage hints) into one line.
fn one_line(message: &str) -> String {
    let kept: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .collect();
    format!("{} (see searchlab --help)", kept.join(" "))
}

/// A warning when a scenario file names another map than the one searched: a map of the same
/// size passes the size check, and its optimal lengths would be the other map's.
fn other_map_warning(
    scen: &std::path::Path,
    scenarios: &[crate::grid::movingai::Scenario],
    map: &std::path::Path,
) -> Option<String> {
    let name = |path: &std::path::Path| path.file_name().map(|name| name.to_os_string());
    let other = scenarios.iter().find(|s| name(s.map.as_ref()) != name(map))?;
    Some(format!(
        "warning: {}:{}: the scenario is for map '{}', not {}",
        scen.display(),
        other.line,
        crate::text::quote(&other.map),
        map.display()
    ))
}

/// Says on stderr how many of a batch's queries failed, if any: the exit code says that some did,
/// and stderr says what, as it does for a lone query.
fn report_failed(failed: usize, queries: usize) {
    if failed > 0 {
        eprintln!("{failed} of {queries} queries failed: their lines on stdout carry the \"error\"");
    }
}

/// Prints one JSON value as a line. A reader that has gone (`| head -1`) ends the command quietly,
/// as it would end `cat`: the lines it did not want are not an error.
fn emit(value: &serde_json::Value) {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{value}") {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(error) => {
            eprintln!("error: cannot write the output: {error}");
            std::process::exit(2);
        }
    }
}

/// Parses `--fen`, naming the option in the error.
fn read_fen(text: &str) -> Result<Barca, CliError> {
    Barca::from_fen(text).map_err(|error| CliError(format!("--fen '{}': {error}", crate::text::quote(text))))
}

/// Parses `x,y`.
fn parse_point(text: &str) -> Result<(u32, u32), String> {
    let [x, y] = text.split(',').collect::<Vec<_>>()[..] else {
        return Err(format!("'{}' is not x,y (two whole numbers, e.g. 3,4)", crate::text::quote(text)));
    };
    let coordinate = |name: &str, s: &str| crate::grid::movingai::whole_number(name, s.trim());
    Ok((coordinate("x", x)?, coordinate("y", y)?))
}

#[cfg(all(test, feature = "app"))]
mod tests {
    #[test]
    fn a_window_error_loses_winits_source_location() {
        let winit = "winit EventLoopError: os error at /root/.cargo/registry/src/x/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor DISPLAY is set.";
        assert_eq!(
            super::window_error(winit).0,
            "cannot open the window: winit EventLoopError: os error: neither WAYLAND_DISPLAY nor DISPLAY is set."
        );
        assert_eq!(super::window_error("no GPU").0, "cannot open the window: no GPU");
    }
}
