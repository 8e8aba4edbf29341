//! `searchlab lecture`: open a lecture notebook in the app, or check its cells without a window.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::{CliError, CliResult, emit};
use crate::lecture::{self, Lecture};

#[derive(Debug, Args)]
pub struct LectureArgs {
    /// Check every cell of every file without opening a window: `FILE:LINE: problem` on stderr for
    /// each bad cell (`FILE:LINE: warning: ...` for what is likely a mistake but opens), a JSON
    /// summary per file on stdout, exit code 2 if any cell is bad.
    #[arg(long)]
    check: bool,
    /// With --check: also print, per cell, a JSON line with the file, the line of its opening fence
    /// and every value its recording measures (`{"file": ..., "line": 12, "values": {"expanded":
    /// 684, ...}}`), the names a cell's `expect` takes; before the file's summary line.
    #[arg(long, requires = "check")]
    values: bool,
    /// The lecture (a Markdown file with ```searchlab cells); with --check, any number of them.
    #[arg(required = true, value_name = "FILE.md")]
    files: Vec<PathBuf>,
}

pub fn run(args: LectureArgs) -> CliResult {
    if args.check {
        return check(&args.files, args.values);
    }
    let [file] = args.files.as_slice() else {
        return Err(CliError("give one lecture to open (several only with --check)".into()));
    };
    // Refused here, before a window opens, like every other bad file.
    read(file)?;
    open(file)
}

#[cfg(feature = "app")]
fn open(file: &Path) -> CliResult {
    crate::app::run_lecture(file).map_err(super::window_error)
}

#[cfg(not(feature = "app"))]
fn open(_file: &Path) -> CliResult {
    Err(CliError("this build has no playground (feature `app`): only --check works".to_string()))
}

pub(super) fn read(file: &Path) -> Result<Lecture, CliError> {
    let name = file.display().to_string();
    let text = crate::files::read_text(file, crate::files::MAX_TEXT).map_err(|e| CliError(e.at(&name)))?;
    Lecture::parse(&text).map_err(|problem| CliError(problem.at(&name)))
}

fn check(files: &[PathBuf], print_values: bool) -> CliResult {
    let mut bad_files = 0;
    let mut total = 0;
    for file in files {
        let name = file.display().to_string();
        let (cells, lines, warnings) = match read(file) {
            Ok(lecture) => {
                let base = file.parent().unwrap_or(Path::new("."));
                let mut reported: Vec<lecture::Problem> = lecture::check_lecture(&lecture);
                for cell in lecture::cell_values(&lecture, base) {
                    if print_values {
                        let values: serde_json::Map<String, serde_json::Value> = cell.values.into_iter().collect();
                        emit(&json!({ "file": name, "line": cell.line, "values": values }));
                    }
                    reported.extend(cell.problems);
                }
                reported.sort_by_key(|problem| problem.line);
                let warnings = reported.iter().filter(|problem| problem.warning).count();
                (lecture.cells().count(), reported.iter().map(|problem| problem.at(&name)).collect(), warnings)
            }
            Err(CliError(message)) => (0, vec![message], 0),
        };
        for line in &lines {
            eprintln!("{line}");
        }
        let problems = lines.len() - warnings;
        emit(&json!({ "file": name, "cells": cells, "problems": problems, "warnings": warnings }));
        total += problems;
        bad_files += usize::from(problems > 0);
    }
    match total {
        0 => Ok(()),
        _ => Err(CliError(format!("{total} problem(s) in {bad_files} of {} lecture(s)", files.len()))),
    }
}
