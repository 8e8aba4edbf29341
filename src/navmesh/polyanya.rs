//! Polyanya `.mesh` files (version 2): `mesh`, `2`, `V P`, then V vertex lines
//! `x y n p1..pn` (the n polygons around the vertex, -1 for an obstacle) and P polygon lines
//! `n v1..vn p1..pn` (the vertices and the polygons across the edges, -1 for an obstacle).
//! A polygon edge that no other polygon shares outlines the free space.

use std::collections::HashMap;

use super::polygon::MAX_COORDINATE;
use super::{Outline, ParseError};
use crate::grid::movingai::read_text;
use crate::text::{quote, without_bom};

/// Largest vertex or polygon count accepted, so a bad header cannot exhaust memory.
const LIMIT: usize = 10_000_000;

/// Whitespace-separated words with their line numbers.
struct Words<'a> {
    file: &'a str,
    words: Box<dyn Iterator<Item = (usize, &'a str)> + 'a>,
    line: usize,
}

impl<'a> Words<'a> {
    fn error(&self, message: String) -> ParseError {
        ParseError { file: self.file.to_string(), line: self.line, message }
    }

    fn next(&mut self, what: &str) -> Result<&'a str, ParseError> {
        let (line, word) =
            self.words.next().ok_or_else(|| self.error(format!("unexpected end of file, expected {what}")))?;
        self.line = line;
        Ok(word)
    }

    fn parse<N: std::str::FromStr>(&mut self, what: &str) -> Result<N, ParseError> {
        let word = self.next(what)?;
        word.parse().map_err(|_| self.error(format!("{what} '{}' is not a number of the right kind", quote(word))))
    }

    fn count(&mut self, what: &str) -> Result<usize, ParseError> {
        let n: usize = self.parse(what)?;
        if n > LIMIT {
            return Err(self.error(format!("{what} {n} is more than {LIMIT}")));
        }
        Ok(n)
    }
}

/// Parses the text of a `.mesh` file; `file` names it in errors.
pub fn parse_mesh(file: &str, text: &str) -> Result<Outline, ParseError> {
    let words = without_bom(text).lines().enumerate().flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)));
    let mut words = Words { file, words: Box::new(words), line: 1 };
    let magic = words.next("'mesh'")?;
    if magic != "mesh" {
        return Err(words.error(format!("expected 'mesh', found '{}'", quote(magic))));
    }
    let version = words.next("the version")?;
    if version != "2" {
        return Err(words.error(format!("unsupported mesh version '{}' (only 2 is read)", quote(version))));
    }
    let vertex_count = words.count("the vertex count")?;
    let polygon_count = words.count("the polygon count")?;
    // Grown as vertices are read: the header alone must not reserve memory.
    let mut points = Vec::new();
    for v in 0..vertex_count {
        let mut coordinate = |axis: &str| -> Result<f64, ParseError> {
            let x: f64 = words.parse(&format!("vertex {v}: {axis}"))?;
            if !(x.is_finite() && x.abs() <= MAX_COORDINATE) {
                return Err(
                    words.error(format!("vertex {v}: {axis} {x:e} is not a finite number within ±{MAX_COORDINATE}"))
                );
            }
            Ok(x)
        };
        points.push([coordinate("x")?, coordinate("y")?]);
        let neighbours = words.count(&format!("vertex {v}: the neighbour count"))?;
        for _ in 0..neighbours {
            words.parse::<i64>(&format!("vertex {v}: a neighbour"))?;
        }
    }
    // Undirected edge -> how many polygons have it.
    let mut edges: HashMap<[u32; 2], u32> = HashMap::new();
    let mut order = Vec::new();
    for p in 0..polygon_count {
        let sides = words.count(&format!("polygon {p}: the vertex count"))?;
        if sides < 3 {
            return Err(words.error(format!("polygon {p} has {sides} vertices, at least 3 needed")));
        }
        let mut vertices = Vec::new();
        for _ in 0..sides {
            let v: usize = words.parse(&format!("polygon {p}: a vertex"))?;
            if v >= vertex_count {
                return Err(words.error(format!("polygon {p}: vertex {v} is not one of the {vertex_count} vertices")));
            }
            vertices.push(v as u32);
        }
        for _ in 0..sides {
            let neighbour: i64 = words.parse(&format!("polygon {p}: a neighbour"))?;
            if neighbour < -1 || neighbour >= polygon_count as i64 {
                return Err(words.error(format!("polygon {p}: neighbour {neighbour} is neither -1 nor a polygon")));
            }
        }
        for i in 0..sides {
            let (a, b) = (vertices[i], vertices[(i + 1) % sides]);
            let key = [a.min(b), a.max(b)];
            let seen = edges.entry(key).or_insert(0);
            if *seen == 0 {
                order.push(key);
            }
            *seen += 1;
        }
    }
    if let Ok(word) = words.next("nothing") {
        return Err(words.error(format!("unexpected '{}' after the last polygon", quote(word))));
    }
    let segments = order.into_iter().filter(|key| edges[key] == 1).collect();
    Ok(Outline { points, segments })
}

pub fn load_mesh(path: &std::path::Path) -> Result<Outline, ParseError> {
    parse_mesh(&path.display().to_string(), &read_text(path)?)
}
