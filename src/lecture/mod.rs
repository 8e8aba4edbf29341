//! Lecture notebooks, free of any GUI: a lecture is one Markdown file whose fenced ```` ```searchlab ````
//! blocks are live cells, each a [`Scene`](crate::scene::Scene) in TOML. This module splits the file into
//! prose and cells (with their line numbers) and into sections for presenting; [`check`] validates the
//! cells the way the app would open them.
//!
//! The format, version 1:
//! - An optional front matter first: a line `---`, lines `key: value`, a line `---`. `searchlab: 1`
//!   declares the format version (a lecture without it is read as version 1); `title:` names the
//!   lecture. Other keys are left to other tools (slide makers use front matter too).
//! - A fenced block whose info string starts with `searchlab` is a cell; any other fenced block is
//!   shown as code, and headings or `---` inside fenced blocks split nothing.
//! - A section (one screen when presenting) starts at every `#` or `##` heading and after every
//!   `---` line that is not directly under a line of text (there it underlines a heading, as in
//!   CommonMark); the `---` itself is not shown.

mod check;
mod expect;
pub mod values;

pub use check::{CellValues, cell_values, check, check_cell, check_lecture, check_position, measure_cell};

use std::fmt;

use crate::scene::Scene;
use crate::text::{quote, without_bom};

/// The newest lecture format this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// What a fenced block's info string starts with to make it a live cell.
pub const CELL_TAG: &str = "searchlab";

/// The `expect` entries of `cell` that `values` (what its recording measures, see [`cell_values`])
/// do not show, each at the line that writes it; a cell whose scene does not read gives none.
pub fn check_expect(cell: &Cell, values: &values::Values) -> Vec<Problem> {
    match Scene::from_toml(&cell.source) {
        Ok(scene) => expect::mismatches(cell, &scene.expect, values),
        Err(_) => Vec::new(),
    }
}

/// `scene` as a cell, ready to paste into a lecture.
pub fn cell_block(scene: &Scene) -> String {
    format!("```{CELL_TAG}\n{}```\n", scene.to_toml())
}

/// Something wrong, or likely not what the author meant, at a line of a lecture file (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
    /// The lecture still opens as written: a warning, not an error.
    pub warning: bool,
}

impl Problem {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        Self { line, message: message.into(), warning: false }
    }

    pub fn warning(line: usize, message: impl Into<String>) -> Self {
        Self { warning: true, ..Self::new(line, message) }
    }

    /// `FILE:LINE: problem` (`FILE:LINE: warning: ...` for a warning), the form compilers use, so
    /// editors can jump to it.
    pub fn at(&self, file: &str) -> String {
        format!("{file}:{}: {self:#}", self.line)
    }
}

/// `line N: problem`; the alternate form `{:#}` is the message alone, marked when it is a warning.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            write!(f, "line {}: ", self.line)?;
        }
        if self.warning {
            f.write_str("warning: ")?;
        }
        f.write_str(&self.message)
    }
}

/// One live cell as written: the TOML between the fences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The line of the opening fence.
    pub line: usize,
    /// The TOML body; its first line is line `line + 1` of the file.
    pub source: String,
    /// Set when the closing fence is missing (the cell then runs to the end of the file).
    pub unclosed: bool,
}

impl Cell {
    /// The file line of line `index` (0-based) of the body.
    pub fn body_line(&self, index: usize) -> usize {
        self.line + 1 + index
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Markdown to render as it is; `line` is its first line in the file.
    Prose {
        line: usize,
        text: String,
    },
    Cell(Cell),
    /// A fenced block of another language, shown as code: its body without the fences.
    Code {
        line: usize,
        text: String,
    },
}

/// One screen when presenting.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section {
    /// The first line of the section's content.
    pub line: usize,
    /// The text of its first heading, if it has one.
    pub title: Option<String>,
    pub blocks: Vec<Block>,
    /// The speaker notes: the text of its `<!-- notes: ... -->` comments, which the reading view
    /// and plain Markdown viewers hide and the presenter view shows (several are joined by a
    /// blank line).
    pub notes: String,
}

/// A parsed lecture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lecture {
    pub version: u32,
    pub title: Option<String>,
    /// Never empty: a file without content has one empty section.
    pub sections: Vec<Section>,
    /// Fenced blocks that are shown as code but were likely meant as cells (a tag nearly
    /// `searchlab`), in file order.
    pub warnings: Vec<Problem>,
}

impl Lecture {
    /// Splits `text` into sections of prose and cells. Only the front matter can refuse the whole file
    /// (an unknown format version); problems inside a cell are the cell's own (see [`check_cell`]).
    pub fn parse(text: &str) -> Result<Self, Problem> {
        let lines: Vec<&str> = without_bom(text).lines().collect();
        let (front, body_start) = front_matter(&lines)?;
        let mut splitter = Splitter::default();
        for (index, &line) in lines.iter().enumerate().skip(body_start) {
            splitter.line(index + 1, line);
        }
        let mut warnings = std::mem::take(&mut splitter.warnings);
        if let Some((line, _)) = &splitter.notes {
            warnings.push(Problem::warning(*line, "this notes comment is never closed: end it with -->"));
        }
        let sections = splitter.finish();
        Ok(Self {
            version: front.version,
            title: front.title.or_else(|| sections[0].title.clone()),
            sections,
            warnings,
        })
    }

    pub fn cells(&self) -> impl Iterator<Item = &Cell> {
        self.sections.iter().flat_map(|s| &s.blocks).filter_map(|block| match block {
            Block::Cell(cell) => Some(cell),
            Block::Prose { .. } | Block::Code { .. } => None,
        })
    }

    /// The section showing what section `index` showed, titled `title`, in an earlier version of the
    /// file: the one with the same heading (the nearest to `index` if several have it), else the one
    /// at the nearest index. A reload keeps the lecturer on their slide when sections move.
    pub fn same_section(&self, title: Option<&str>, index: usize) -> usize {
        let titled =
            (0..self.sections.len()).filter(|&i| title.is_some() && self.sections[i].title.as_deref() == title);
        titled.min_by_key(|&i| i.abs_diff(index)).unwrap_or(index.min(self.sections.len() - 1))
    }

    /// The section that holds file line `line` (the last one starting at or before it).
    pub fn section_at_line(&self, line: usize) -> usize {
        self.sections.iter().rposition(|s| s.line <= line).unwrap_or(0)
    }
}

struct FrontMatter {
    version: u32,
    title: Option<String>,
}

/// Reads the front matter, if the file opens with one; returns it and the index of the first body line.
fn front_matter(lines: &[&str]) -> Result<(FrontMatter, usize), Problem> {
    let mut front = FrontMatter { version: FORMAT_VERSION, title: None };
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Ok((front, 0));
    }
    let Some(close) = lines.iter().skip(1).position(|l| l.trim_end() == "---").map(|i| i + 1) else {
        return Ok((front, 0));
    };
    let entries: Vec<(usize, &str, &str)> = lines[1..close]
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .filter_map(|(i, l)| {
            let (key, value) = l.split_once(':')?;
            let key = key.trim();
            key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-').then(|| (i + 2, key, value.trim()))
        })
        .collect();
    let filled = lines[1..close].iter().filter(|l| !l.trim().is_empty()).count();
    if entries.len() != filled || filled == 0 {
        // Not `key: value` lines: a `---` break opening the first slide, not front matter.
        return Ok((front, 0));
    }
    for (line, key, value) in entries {
        match key {
            CELL_TAG => {
                let version: u32 = value.parse().map_err(|_| {
                    Problem::new(line, format!("the lecture format version '{value}' is not a whole number"))
                })?;
                if version == 0 || version > FORMAT_VERSION {
                    return Err(Problem::new(
                        line,
                        format!(
                            "lecture format version {version} is unknown to this searchlab (it reads version \
                             {FORMAT_VERSION}); a newer searchlab may open it"
                        ),
                    ));
                }
                front.version = version;
            }
            "title" => front.title = Some(value.trim_matches(['"', '\'']).to_string()).filter(|t| !t.is_empty()),
            _ => {}
        }
    }
    Ok((front, close + 1))
}

/// An opening code fence: its character, length and indentation.
#[derive(Debug, Clone, Copy)]
struct Fence {
    mark: char,
    len: usize,
    indent: usize,
}

/// `line` as an opening fence, with its info string.
fn opening_fence(line: &str) -> Option<(Fence, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let mark = rest.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = rest.len() - rest.trim_start_matches(mark).len();
    let info = rest[len..].trim();
    // A backtick in a backtick fence's info string makes the line inline code instead.
    (len >= 3 && !(mark == '`' && info.contains('`'))).then_some((Fence { mark, len, indent }, info))
}

fn closes(fence: Fence, line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line[indent..].trim_end();
    indent <= 3 && rest.len() >= fence.len && rest.chars().all(|c| c == fence.mark)
}

/// A `#` or `##` heading's text.
fn section_heading(line: &str) -> Option<&str> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let level = rest.len() - rest.trim_start_matches('#').len();
    let text = &rest[level..];
    ((1..=2).contains(&level) && (text.is_empty() || text.starts_with([' ', '\t'])))
        .then(|| text.trim().trim_end_matches('#').trim_end())
}

/// A line of three or more `-` (spaces allowed between), indented at most three spaces.
fn is_break(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line[indent..].trim_end();
    indent <= 3 && rest.chars().all(|c| c == '-' || c == ' ' || c == '\t') && rest.matches('-').count() >= 3
}

/// Removes up to `indent` leading spaces, as CommonMark does inside an indented fence.
fn dedent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

/// Whether a fence's info string is nearly the cell tag, as typed by mistake: another case, a dash
/// or underscore, a plural, braces (`Searchlab`, `search-lab`, `searchlabs`, `{searchlab}`).
fn nearly_cell_tag(info: &str) -> bool {
    let word = info.split_whitespace().next().unwrap_or_default();
    let bare = word.trim_start_matches(['{', '.']).trim_end_matches('}').to_ascii_lowercase().replace(['-', '_'], "");
    word != CELL_TAG && (bare == CELL_TAG || bare == format!("{CELL_TAG}s"))
}

/// Walks the body line by line, keeping track of fences.
#[derive(Default)]
struct Splitter {
    warnings: Vec<Problem>,
    sections: Vec<Section>,
    current: Option<Section>,
    prose: Vec<(usize, String)>,
    /// Inside a fenced block of another language: its fence, first line and body so far.
    code: Option<(Fence, usize, String)>,
    /// Inside a cell: its fence and what was read so far.
    cell: Option<(Fence, Cell)>,
    /// The line before was paragraph text, so a `---` under it underlines a heading instead.
    after_text: bool,
    /// Inside a `<!-- notes: ... -->` comment: its first line and its text so far.
    notes: Option<(usize, String)>,
}

impl Splitter {
    fn line(&mut self, number: usize, line: &str) {
        if let Some((fence, cell)) = &mut self.cell {
            if closes(*fence, line) {
                let (_, cell) = self.cell.take().expect("inside a cell");
                self.push(Block::Cell(cell));
            } else {
                cell.source.push_str(dedent(line, fence.indent));
                cell.source.push('\n');
            }
            self.after_text = false;
            return;
        }
        if self.notes_line(number, line) {
            return;
        }
        let mut text = false;
        if let Some((fence, _, body)) = &mut self.code {
            if closes(*fence, line) {
                let (_, line, text) = self.code.take().expect("inside code");
                self.push(Block::Code { line, text });
            } else {
                body.push_str(dedent(line, fence.indent));
                body.push('\n');
            }
        } else if let Some((fence, info)) = opening_fence(line) {
            if info.split_whitespace().next() == Some(CELL_TAG) {
                self.flush_prose();
                self.cell = Some((fence, Cell { line: number, source: String::new(), unclosed: false }));
            } else {
                if nearly_cell_tag(info) {
                    let message =
                        format!("this block is shown as code: its tag '{}' is not ```{CELL_TAG}", quote(info));
                    self.warnings.push(Problem::warning(number, message));
                }
                self.flush_prose();
                self.code = Some((fence, number, String::new()));
            }
        } else if let Some(title) = section_heading(line) {
            self.new_section(number);
            let section = self.current.as_mut().expect("just started");
            section.title.get_or_insert_with(|| title.to_string());
            self.prose.push((number, line.to_string()));
        } else if is_break(line) && !self.after_text {
            self.new_section(number + 1);
        } else if !line.trim().is_empty() {
            text = true;
            self.prose.push((number, line.to_string()));
        } else if !self.prose.is_empty() {
            self.prose.push((number, line.to_string()));
        }
        self.after_text = text;
    }

    /// Takes `line` into the speaker notes if it opens, continues or closes a notes comment
    /// (outside code); the notes go to the section they stand in.
    fn notes_line(&mut self, number: usize, line: &str) -> bool {
        let rest = match self.notes.as_mut() {
            Some(_) => line,
            None if self.code.is_none() => {
                let Some(comment) = line.trim_start().strip_prefix("<!--") else { return false };
                let Some(rest) = comment.trim_start().strip_prefix("notes") else { return false };
                if !rest.starts_with([':', ' ', '\t']) && !rest.trim().is_empty() && !rest.starts_with("-->") {
                    return false;
                }
                self.notes = Some((number, String::new()));
                rest.strip_prefix(':').unwrap_or(rest)
            }
            None => return false,
        };
        let (text, closed) = match rest.split_once("-->") {
            Some((text, _)) => (text, true),
            None => (rest, false),
        };
        let (_, notes) = self.notes.as_mut().expect("inside notes");
        if !notes.is_empty() || !text.trim().is_empty() {
            notes.push_str(text.trim());
            notes.push('\n');
        }
        if closed {
            let (_, notes) = self.notes.take().expect("inside notes");
            let section = self.current.get_or_insert_with(|| Section { line: number, ..Section::default() });
            if !section.notes.is_empty() {
                section.notes.push('\n');
            }
            section.notes.push_str(notes.trim_end());
            section.notes.push('\n');
        }
        true
    }

    /// Ends the current section unless it is still empty; the next one starts at `line`.
    fn new_section(&mut self, line: usize) {
        self.flush_prose();
        match &mut self.current {
            Some(section) if section.blocks.is_empty() => section.line = line,
            _ => {
                let ended = self.current.replace(Section { line, ..Section::default() });
                self.sections.extend(ended);
            }
        }
    }

    fn flush_prose(&mut self) {
        while self.prose.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            self.prose.pop();
        }
        let Some(&(line, _)) = self.prose.first() else { return };
        let text = self.prose.drain(..).map(|(_, l)| l).collect::<Vec<_>>().join("\n");
        self.push(Block::Prose { line, text });
    }

    fn push(&mut self, block: Block) {
        let line = match &block {
            Block::Prose { line, .. } | Block::Code { line, .. } => *line,
            Block::Cell(cell) => cell.line,
        };
        self.current.get_or_insert_with(|| Section { line, ..Section::default() }).blocks.push(block);
    }

    fn finish(mut self) -> Vec<Section> {
        if let Some((_, mut cell)) = self.cell.take() {
            cell.unclosed = true;
            self.push(Block::Cell(cell));
        }
        if let Some((_, line, text)) = self.code.take() {
            self.push(Block::Code { line, text });
        }
        self.flush_prose();
        self.sections.extend(self.current.take().filter(|s| !s.blocks.is_empty()));
        if self.sections.is_empty() {
            self.sections.push(Section { line: 1, ..Section::default() });
        }
        self.sections
    }
}

#[cfg(test)]
mod tests;
