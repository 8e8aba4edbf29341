//! A cell's `expect`: the figures its prose states, compared with what its recording measures.
//! Numbers compare at the precision they are written with (`cost = 36.799` holds for 36.7994).

use std::collections::BTreeMap;

use serde_json::Value;

use super::values::Values;
use super::{Cell, Problem};
use crate::scene::field_index;

/// Every `expect` entry of `cell` that its recording's `values` do not show, as a problem at the
/// line that writes it: `expected expanded = 684, got 690`.
pub fn mismatches(cell: &Cell, expect: &BTreeMap<String, Value>, values: &Values) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (key, expected) in expect {
        let (line, literal) = written(cell, key);
        let measured = values.iter().find(|(name, _)| name == key).map(|(_, value)| value);
        let message = match measured {
            None => {
                let names: Vec<&str> = values.iter().map(|(name, _)| name.as_str()).collect();
                let names = if names.is_empty() { "nothing".to_string() } else { names.join(", ") };
                Some(format!("expect: this cell measures no `{key}`; it measures {names}"))
            }
            Some(measured) if !agrees(expected, literal.as_deref(), measured) => {
                let shown = literal.unwrap_or_else(|| expected.to_string());
                Some(format!("expected {key} = {shown}, got {}", shown_like(measured, &shown)))
            }
            Some(_) => None,
        };
        problems.extend(message.map(|message| Problem::new(line, message)));
    }
    problems
}

/// Whether `measured` reads as `expected`, written `literal` in the cell.
fn agrees(expected: &Value, literal: Option<&str>, measured: &Value) -> bool {
    match (expected, measured) {
        (Value::Number(expected), Value::Number(measured)) => {
            let (expected, measured) = (expected.as_f64().unwrap_or(f64::NAN), measured.as_f64().unwrap_or(f64::NAN));
            match literal.and_then(decimals) {
                Some(places) => format!("{expected:.places$}") == format!("{measured:.places$}"),
                None => (expected - measured).abs() <= 1e-9 * expected.abs().max(1.0),
            }
        }
        (Value::String(expected), Value::String(measured)) => expected == measured,
        (expected, measured) => expected == measured,
    }
}

/// The digits after the decimal point of a number written plainly (none for `1e3`).
fn decimals(literal: &str) -> Option<usize> {
    let literal = literal.replace('_', "");
    if literal.contains(['e', 'E']) || literal.parse::<f64>().is_err() {
        return None;
    }
    Some(literal.split_once('.').map_or(0, |(_, fraction)| fraction.len()))
}

/// `measured` at the precision `expected` is written with, so the two read alike.
fn shown_like(measured: &Value, expected: &str) -> String {
    match (measured.as_f64(), decimals(expected)) {
        (Some(number), Some(places)) if measured.is_f64() => format!("{number:.places$}"),
        _ => match measured {
            Value::String(text) => format!("\"{text}\""),
            other => other.to_string(),
        },
    }
}

/// The file line that writes `key` in the cell's `expect` (the `expect` line itself when not found)
/// and the literal written there.
fn written(cell: &Cell, key: &str) -> (usize, Option<String>) {
    let Some(from) = field_index(&cell.source, "expect").or_else(|| table_index(&cell.source)) else {
        return (cell.line, None);
    };
    for (index, line) in cell.source.lines().enumerate().skip(from) {
        if let Some(literal) = literal_after(line, key) {
            return (cell.body_line(index), Some(literal));
        }
    }
    (cell.body_line(from), None)
}

/// The line of an `[expect]` table header.
fn table_index(source: &str) -> Option<usize> {
    source.lines().position(|line| line.trim() == "[expect]")
}

/// The value literal after `key =` in `line`, with `key` a whole word.
fn literal_after(line: &str, key: &str) -> Option<String> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut start = 0;
    while let Some(found) = line[start..].find(key) {
        let at = start + found;
        let end = at + key.len();
        start = end;
        let before = line[..at].chars().next_back();
        if before.is_some_and(is_word) || line[end..].chars().next().is_some_and(is_word) {
            continue;
        }
        let Some(rest) = line[end..].trim_start().strip_prefix('=') else { continue };
        let rest = rest.trim_start();
        let literal = match rest.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().map(|text| format!("\"{text}\""))?,
            None => rest.split([',', '}', ' ', '#']).next()?.trim().to_string(),
        };
        return Some(literal);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(source: &str) -> Cell {
        Cell { line: 10, source: source.to_string(), unclosed: false }
    }

    #[test]
    fn numbers_compare_at_the_precision_written() {
        let cell = cell("version = 1\nexpect = { expanded = 684, cost = 36.80, best_move = \"c2\" }\n");
        let expect: BTreeMap<String, Value> = [
            ("expanded".to_string(), Value::from(684)),
            ("cost".to_string(), Value::from(36.8)),
            ("best_move".to_string(), Value::from("c2")),
        ]
        .into();
        let measured = |expanded: u64, cost: f64, best: &str| -> Values {
            vec![
                ("expanded".to_string(), Value::from(expanded)),
                ("cost".to_string(), Value::from(cost)),
                ("best_move".to_string(), Value::from(best)),
            ]
        };
        assert!(mismatches(&cell, &expect, &measured(684, 36.7994, "c2")).is_empty());
        let problems = mismatches(&cell, &expect, &measured(690, 36.8061, "a1"));
        let messages: Vec<String> = problems.iter().map(|problem| problem.to_string()).collect();
        assert_eq!(
            messages,
            [
                "line 12: expected best_move = \"c2\", got \"a1\"",
                "line 12: expected cost = 36.80, got 36.81",
                "line 12: expected expanded = 684, got 690",
            ]
        );
    }

    #[test]
    fn a_key_the_cell_does_not_measure_names_those_it_does() {
        let cell = cell("version = 1\n[expect]\nexpandd = 3\n");
        let expect: BTreeMap<String, Value> = [("expandd".to_string(), Value::from(3))].into();
        let problems = mismatches(&cell, &expect, &vec![("expanded".to_string(), Value::from(3))]);
        assert_eq!(problems[0].line, 13);
        assert!(problems[0].message.contains("measures no `expandd`; it measures expanded"), "{problems:?}");
    }
}
