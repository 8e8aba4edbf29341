//! MovingAI benchmark formats: `.map` grids and `.scen` scenario lists.
//!
//! `.map`: `type octile`, `height H`, `width W`, `map`, then H rows of W characters (`.` `G` `S`
//! passable; `@` `O` `T` `W` blocked). searchlab adds one optional section after the rows, ignored
//! by other readers: a line `weights` and H rows of digits `1`-`9`, the cost multiplier of each cell.
//! A file read on past where a map of its size can end is refused there, and so is a header line
//! of kilobytes: the rest is not read (a pipe may never end).
//!
//! `.scen`: `version 1`, then one query per line: bucket, map, width, height, start x, start y,
//! goal x, goal y, optimal length (tab-separated; plain whitespace is accepted too).

use std::fmt;
use std::path::Path;

use super::{Grid, MAX_WEIGHT};
use crate::files::{HeadCheck, Longest};
use crate::text::{one_line, plural, quote, without_bom};

/// Largest grid accepted from a file, in cells, so a bad header cannot exhaust memory.
pub const MAX_CELLS: usize = 64 * 1024 * 1024;

/// A problem in an input file: which file, which line (1-based; 0 = the file as a whole), what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if self.line == 0 {
            format!("{}: {}", self.file, self.message)
        } else {
            format!("{}:{}: {}", self.file, self.line, self.message)
        };
        f.write_str(&one_line(&text))
    }
}

impl std::error::Error for ParseError {}

/// Reads lines and turns problems into [`ParseError`]s that point at the current line.
struct Lines<'a> {
    file: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    line: usize,
}

impl<'a> Lines<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        Self { file, lines: without_bom(text).lines().enumerate(), line: 0 }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError { file: self.file.to_string(), line: self.line, message: message.into() }
    }

    /// The next line with any `\r` removed, or an error naming what was expected.
    fn next(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        match self.lines.next() {
            Some((index, text)) => {
                self.line = index + 1;
                Ok(text.trim_end_matches('\r'))
            }
            None => {
                self.line += 1;
                Err(self.error(format!("unexpected end of file, expected {expected}")))
            }
        }
    }

    /// The next non-blank line, or `None` at the end.
    fn next_content(&mut self) -> Option<&'a str> {
        for (index, text) in self.lines.by_ref() {
            self.line = index + 1;
            let text = text.trim();
            if !text.is_empty() {
                return Some(text);
            }
        }
        None
    }

    /// The number in a `keyword value` line such as `height 49` (the line just read).
    fn keyword_value(&self, text: &str, keyword: &str) -> Result<u32, ParseError> {
        let mut words = text.split_whitespace().skip(1);
        let value = words.next().ok_or_else(|| self.error(format!("'{keyword}' needs a number")))?;
        let number = whole_number(keyword, value).map_err(|message| self.error(message))?;
        if number == 0 {
            return Err(self.error(format!("{keyword} must be at least 1")));
        }
        if let Some(extra) = words.next() {
            return Err(self.error(format!("unexpected '{}' after {keyword}", quote(extra))));
        }
        Ok(number)
    }
}

/// `value` as a whole number, or why not in words naming `what`: too big is not "not a number".
pub fn whole_number(what: &str, value: &str) -> Result<u32, String> {
    value.parse().map_err(|error: std::num::ParseIntError| match error.kind() {
        std::num::IntErrorKind::PosOverflow => format!("{what} '{}' is too big (max {})", quote(value), u32::MAX),
        _ => format!("{what} '{}' is not a whole number", quote(value)),
    })
}

fn terrain(symbol: char) -> Option<bool> {
    match symbol {
        '.' | 'G' | 'S' => Some(true),
        '@' | 'O' | 'T' | 'W' => Some(false),
        _ => None,
    }
}

/// Lines in a `.map` file's header: type, height, width, `map`.
const MAP_HEADER_LINES: usize = 4;

/// Parses the text of a `.map` file; `file` names it in errors.
pub fn parse_map(file: &str, text: &str) -> Result<Grid, ParseError> {
    let mut lines = Lines::new(file, text);
    let (width, height) = map_header(&mut lines)?;
    // The rows are checked before the grid is made, so a short file cannot claim a huge map.
    let mut rows = Vec::new();
    for y in 0..height {
        // Spaces are no terrain, so trailing ones (hand edits, spreadsheet exports) are only padding.
        let row = lines.next(&format!("{height} map rows, found {y}"))?.trim_end_matches([' ', '\t']);
        let mut count = 0usize;
        for symbol in row.chars() {
            count += 1;
            if terrain(symbol).is_none() {
                return Err(lines.error(format!("unknown terrain '{}' in column {count}", quote(&symbol.to_string()))));
            }
        }
        if count != width as usize {
            return Err(
                lines.error(format!("row has {count} {}, expected width {width}", plural(count, "cell", "cells")))
            );
        }
        rows.push(row);
    }
    let mut grid = Grid::new(width, height);
    for (y, row) in rows.iter().enumerate() {
        for (x, symbol) in row.chars().enumerate() {
            grid.set_passable(x as u32, y as u32, terrain(symbol) == Some(true));
        }
    }
    match lines.next_content() {
        None => Ok(grid),
        Some("weights") => {
            parse_weights(&mut lines, &mut grid)?;
            match lines.next_content() {
                None => Ok(grid),
                Some(extra) => Err(lines.error(format!("unexpected '{}' after the weights", quote(extra)))),
            }
        }
        Some(extra) => Err(lines.error(format!("unexpected '{}' after {height} map rows", quote(extra)))),
    }
}

/// The width and height in a `.map` file's header, its first [`MAP_HEADER_LINES`] lines.
fn map_header(lines: &mut Lines) -> Result<(u32, u32), ParseError> {
    let first = lines.next("'type octile'")?;
    match first.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["type", "octile"] => {}
        ["type", other] => return Err(lines.error(format!("unsupported map type '{}'", quote(other)))),
        _ => return Err(lines.error(format!("expected 'type octile', found '{}'", quote(first)))),
    }
    // MovingAI writes height first, but some tools swap the two lines.
    let (mut height, mut width) = (None, None);
    for _ in 0..2 {
        let text = lines.next("'height <number>' or 'width <number>'")?;
        let keyword = text.split_whitespace().next().unwrap_or("");
        let slot = match keyword {
            "height" if height.is_none() => &mut height,
            "width" if width.is_none() => &mut width,
            _ => {
                return Err(
                    lines.error(format!("expected 'height <number>' or 'width <number>', found '{}'", quote(text)))
                );
            }
        };
        *slot = Some(lines.keyword_value(text, keyword)?);
    }
    let (height, width) = (height.unwrap_or(1), width.unwrap_or(1));
    if width as usize * height as usize > MAX_CELLS {
        return Err(lines.error(format!("map of {width}x{height} cells is larger than the limit of {MAX_CELLS} cells")));
    }
    let header = lines.next("'map'")?;
    if header.trim() != "map" {
        return Err(lines.error(format!("expected 'map', found '{}'", quote(header))));
    }
    Ok((width, height))
}

fn parse_weights(lines: &mut Lines, grid: &mut Grid) -> Result<(), ParseError> {
    for y in 0..grid.height() {
        let row = lines.next(&format!("{} weight rows, found {y}", grid.height()))?;
        let count = row.chars().count();
        if count != grid.width() as usize {
            return Err(lines.error(format!(
                "weight row has {count} {}, expected width {}",
                plural(count, "cell", "cells"),
                grid.width()
            )));
        }
        for (x, digit) in row.chars().enumerate() {
            let weight = digit.to_digit(10).filter(|&d| (1..=MAX_WEIGHT as u32).contains(&d)).ok_or_else(|| {
                lines.error(format!(
                    "weight '{}' in column {} is not a digit 1-{MAX_WEIGHT}",
                    quote(&digit.to_string()),
                    x + 1
                ))
            })?;
            grid.set_weight(x as u32, y, weight as u8);
        }
    }
    Ok(())
}

/// The text of a `.map` file for `grid` (with a `weights` section only if some weight is not 1).
pub fn write_map(grid: &Grid) -> String {
    let (width, height) = (grid.width(), grid.height());
    let mut out = format!("type octile\nheight {height}\nwidth {width}\nmap\n");
    for y in 0..height {
        out.extend((0..width).map(|x| if grid.is_cell_passable(grid.cell(x, y)) { '.' } else { '@' }));
        out.push('\n');
    }
    if grid.has_weights() {
        out.push_str("weights\n");
        for y in 0..height {
            out.extend((0..width).map(|x| char::from(b'0' + grid.weight(grid.cell(x, y)))));
            out.push('\n');
        }
    }
    out
}

/// One query of a `.scen` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub bucket: u32,
    pub map: String,
    pub map_width: u32,
    pub map_height: u32,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    pub optimal: f64,
    /// Digits after the decimal point of `optimal` as the file prints it: MovingAI's sets print
    /// 8 (dao), 2 (bg512, wc3maps512: 176.72 for 176.7228...) or six significant digits (1001.84).
    pub optimal_decimals: u32,
    /// Line in the file it came from (0 when made in memory).
    pub line: usize,
}

/// How far two computations of one optimal length may differ at most when the file prints all
/// 8 decimals: the sums of √2 steps in another order, and older sets' rounded √2.
const LENGTH_SLACK: f64 = 1e-3;

impl Scenario {
    /// Whether `cost` is the optimal length the file gives, as far as the file prints it (half a
    /// unit of its last digit, at least [`LENGTH_SLACK`]).
    pub fn is_optimal(&self, cost: f64) -> bool {
        (cost - self.optimal).abs() <= LENGTH_SLACK.max(0.5 * 10f64.powi(-(self.optimal_decimals.min(15) as i32)))
    }

    /// How much more `cost` is than the optimum, as a fraction: 0 for a cost the file's
    /// precision cannot tell from the optimum (a 2-decimal length is no cause for "-0.003%").
    pub fn suboptimality(&self, cost: f64) -> f64 {
        if self.is_optimal(cost) || self.optimal <= 0.0 { 0.0 } else { cost / self.optimal - 1.0 }
    }

    /// The optimal length to the digits the file printed (at most 3), for a reader.
    pub fn optimal_text(&self) -> String {
        format!("{:.*}", self.optimal_decimals.min(3) as usize, self.optimal)
    }
}

/// Parses the text of a `.scen` file; `file` names it in errors.
pub fn parse_scen(file: &str, text: &str) -> Result<Vec<Scenario>, ParseError> {
    let mut lines = Lines::new(file, text);
    scen_header(&mut lines)?;
    let mut scenarios = Vec::new();
    while let Some(text) = lines.next_content() {
        let fields: Vec<&str> = if text.contains('\t') {
            text.split('\t').map(str::trim).collect()
        } else {
            text.split_whitespace().collect()
        };
        if fields.len() != 9 {
            return Err(lines.error(format!(
                "expected 9 fields (bucket, map, width, height, sx, sy, gx, gy, optimal), found {}",
                fields.len()
            )));
        }
        let number =
            |index: usize, name: &str| whole_number(name, fields[index]).map_err(|message| lines.error(message));
        let scenario = Scenario {
            bucket: number(0, "bucket")?,
            map: fields[1].to_string(),
            map_width: number(2, "map width")?,
            map_height: number(3, "map height")?,
            start: (number(4, "start x")?, number(5, "start y")?),
            goal: (number(6, "goal x")?, number(7, "goal y")?),
            optimal: fields[8].parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(|| {
                lines.error(format!("optimal length '{}' is not a non-negative number", quote(fields[8])))
            })?,
            optimal_decimals: fields[8]
                .split_once('.')
                .map_or(0, |(_, decimals)| decimals.bytes().take_while(u8::is_ascii_digit).count() as u32),
            line: lines.line,
        };
        for (name, (x, y)) in [("start", scenario.start), ("goal", scenario.goal)] {
            if x >= scenario.map_width || y >= scenario.map_height {
                return Err(lines.error(format!(
                    "{name} ({x},{y}) is outside the {}x{} map",
                    scenario.map_width, scenario.map_height
                )));
            }
        }
        scenarios.push(scenario);
    }
    Ok(scenarios)
}

/// Checks a `.scen` file's header, its first line: `version 1`.
fn scen_header(lines: &mut Lines) -> Result<(), ParseError> {
    let first = lines.next("'version 1'")?;
    match first.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["version", "1" | "1.0"] => Ok(()),
        ["version", other] => {
            Err(lines.error(format!("unsupported scenario version '{}' (version 1 files are read)", quote(other))))
        }
        _ => Err(lines.error(format!(
            "expected 'version 1' (the first line of a MovingAI scenario file), found '{}'",
            quote(first)
        ))),
    }
}

/// The scenarios of a file for `grid`'s size (another size is refused whole) that can be searched
/// there, and the queries left out, whose start or goal is blocked: MovingAI's wc3maps512 sets
/// start a few queries in water, which their water units may cross.
pub fn searchable_scenarios(
    file: &str,
    scenarios: Vec<Scenario>,
    grid: &Grid,
) -> Result<(Vec<Scenario>, Vec<ParseError>), ParseError> {
    check_map_size(file, &scenarios, grid)?;
    let (mut kept, mut left_out) = (Vec::with_capacity(scenarios.len()), Vec::new());
    for s in scenarios {
        match blocked_endpoint(&s, grid) {
            Some(message) => left_out.push(ParseError { file: file.to_string(), line: s.line, message }),
            None => kept.push(s),
        }
    }
    Ok((kept, left_out))
}

/// Checks that scenarios were written for a map of `grid`'s size: a file for another map is
/// refused whole.
pub fn check_map_size(file: &str, scenarios: &[Scenario], grid: &Grid) -> Result<(), ParseError> {
    match scenarios.iter().find(|s| (s.map_width, s.map_height) != (grid.width(), grid.height())) {
        Some(s) => Err(ParseError {
            file: file.to_string(),
            line: s.line,
            message: format!(
                "scenario is for a {}x{} map, but the map is {}x{}",
                s.map_width,
                s.map_height,
                grid.width(),
                grid.height()
            ),
        }),
        None => Ok(()),
    }
}

/// Why scenario `s` (of `grid`'s size) cannot be searched, if its start or goal is blocked.
pub fn blocked_endpoint(s: &Scenario, grid: &Grid) -> Option<String> {
    [("start", s.start), ("goal", s.goal)].into_iter().find(|&(_, (x, y))| !grid.is_cell_passable(grid.cell(x, y))).map(
        |(name, (x, y))| format!("{name} ({x},{y}) is a blocked cell (searchlab blocks '@', 'O', 'T' and water 'W')"),
    )
}

/// The text of a `.scen` file.
pub fn write_scen(scenarios: &[Scenario]) -> String {
    let mut out = String::from("version 1\n");
    for s in scenarios {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.*}\n",
            s.bucket,
            s.map,
            s.map_width,
            s.map_height,
            s.start.0,
            s.start.1,
            s.goal.0,
            s.goal.1,
            s.optimal_decimals as usize,
            s.optimal
        ));
    }
    out
}

/// Largest `.map` text read: each cell takes at most 3 bytes (itself and a CRLF when the map is
/// one cell wide), in the rows and again in the weights, plus the header.
pub const MAX_MAP_TEXT: u64 = 2 * 3 * MAX_CELLS as u64 + 4096;

/// Largest `.scen` text read: [`MAX_SCENARIOS`] lines of up to 256 bytes.
pub const MAX_SCEN_TEXT: u64 = MAX_SCENARIOS as u64 * 256;

/// Most queries `searchlab gen` writes to a `.scen` file.
pub const MAX_SCENARIOS: usize = 100_000;

/// A small text file (a polygon map or mesh), up to [`crate::files::MAX_TEXT`] bytes, or an error
/// naming the file (and the line of a byte no text has) when it cannot be read, is larger or is
/// not text.
pub(crate) fn read_text(path: &Path) -> Result<String, ParseError> {
    read_checked(path, crate::files::MAX_TEXT, 0, |_, _| Ok(None))
}

/// The file as text, up to `max` bytes (errors as [`read_text`]'s), refused as soon as its first
/// `header_lines` lines (the text, and as lines) fail `header`, or it runs longer than `header`
/// says it can be, before the rest is read: a pipe may never end.
fn read_checked(
    path: &Path,
    max: u64,
    header_lines: usize,
    header: impl FnOnce(&str, &mut Lines) -> HeadCheck<ParseError>,
) -> Result<String, ParseError> {
    let file = path.display().to_string();
    let read =
        crate::files::read_text_checked(path, max, header_lines, |head| header(head, &mut Lines::new(&file, head)));
    read.map_err(|e| ParseError { file: file.clone(), line: e.line().unwrap_or(0), message: e.to_string() })?
}

/// Whether `path` is named as a MovingAI map (`.map` in any case). What reads a file by its kind,
/// and the size cap it is fetched with in the browser, both go by this.
pub fn is_map_file(path: &Path) -> bool {
    crate::files::has_extension(path, "map")
}

pub fn load_map(path: &Path) -> Result<Grid, ParseError> {
    let text = read_checked(path, MAX_MAP_TEXT, MAP_HEADER_LINES, |head, lines| {
        let (width, height) = map_header(lines)?;
        let why = format!(
            "more rows than its height {height}: a {width}x{height} map, with weights and padding, ends before this line"
        );
        Ok(Some(Longest { bytes: head.len() as u64 + longest_map_rows(width, height), why }))
    })?;
    parse_map(&path.display().to_string(), &text)
}

/// The most bytes that can follow a `.map` header of `width`x`height` cells when reading: the
/// rows and the weight rows, each `width` cells and a CRLF, and the `weights` line between, and as
/// much again for padding (trailing blanks, blank lines; the parser takes any), plus a KB.
fn longest_map_rows(width: u32, height: u32) -> u64 {
    let rows = u64::from(height) * (u64::from(width) + 2);
    2 * (2 * rows + "weights\r\n".len() as u64) + 1024
}

pub fn load_scen(path: &Path) -> Result<Vec<Scenario>, ParseError> {
    let text = read_checked(path, MAX_SCEN_TEXT, 1, |_, lines| scen_header(lines).map(|()| None))?;
    parse_scen(&path.display().to_string(), &text)
}
