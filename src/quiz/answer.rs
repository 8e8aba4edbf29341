//! Answers as a student types them and as a page or a result file writes them.

use super::{Answer, Kind, Relation, show_number};

/// What the answer field says to type, by kind.
pub fn hint(kind: Kind) -> &'static str {
    match kind {
        Kind::NextExpansion => "x, y (or click the cell)",
        Kind::CellValues => "g, h, f",
        Kind::PathCost | Kind::NodeValue => "a number",
        Kind::PrunedLeaves => "leaf numbers, or none (or click the leaves)",
        Kind::NodeBound => "exact 7, <= 7 or >= 7",
        Kind::UctNext => "a move (or click it)",
    }
}

/// The numbers in `text`, whatever separates them (commas, brackets, spaces).
fn numbers(text: &str) -> Result<Vec<f64>, String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|token| !token.is_empty())
        .map(|token| token.parse().map_err(|_| format!("'{token}' is not a number")))
        .collect()
}

/// `count` numbers, or what is wrong.
fn exactly(text: &str, count: usize, what: &str) -> Result<Vec<f64>, String> {
    let found = numbers(text)?;
    match found.len() == count {
        true => Ok(found),
        false => Err(format!("give {what}")),
    }
}

/// A whole number at least 0.
fn index(value: f64) -> Result<u32, String> {
    match value.fract() == 0.0 && (0.0..1e9).contains(&value) {
        true => Ok(value as u32),
        false => Err(format!("{} is not a whole number from 0", show_number(value))),
    }
}

impl Answer {
    /// A typed answer to a question of `kind`, or what is wrong with it (one line).
    pub fn parse(kind: Kind, text: &str) -> Result<Answer, String> {
        let text = text.trim();
        Ok(match kind {
            Kind::NextExpansion => {
                let xy = exactly(text, 2, "two numbers: x, y")?;
                Answer::Cells(vec![[index(xy[0])?, index(xy[1])?]])
            }
            Kind::CellValues => {
                let v = exactly(text, 3, "three numbers: g, h, f")?;
                Answer::Values { g: v[0], h: v[1], f: v[2] }
            }
            Kind::PathCost | Kind::NodeValue => Answer::Number(exactly(text, 1, "one number")?[0]),
            Kind::PrunedLeaves if text.eq_ignore_ascii_case("none") => Answer::Leaves(Vec::new()),
            Kind::PrunedLeaves => {
                let leaves = numbers(text)?.into_iter().map(|v| index(v).map(|i| i as usize));
                let leaves = leaves.collect::<Result<Vec<usize>, String>>()?;
                if leaves.is_empty() {
                    return Err("give leaf numbers, or none".to_string());
                }
                Answer::Leaves(leaves)
            }
            Kind::NodeBound => {
                let relation = [("<=", Relation::AtMost), (">=", Relation::AtLeast), ("exact", Relation::Exact)]
                    .into_iter()
                    .find(|(word, _)| text.to_ascii_lowercase().starts_with(word))
                    .map(|(_, relation)| relation)
                    .ok_or("start with exact, <= or >=")?;
                let value = exactly(text, 1, "one number after the relation")?[0];
                if value.fract() != 0.0 {
                    return Err(format!("{value} is not a whole number"));
                }
                Answer::Bound { relation, value: value as i32 }
            }
            Kind::UctNext if text.is_empty() => return Err("give a move".to_string()),
            Kind::UctNext => Answer::Moves(vec![text.to_ascii_lowercase()]),
        })
    }

    /// The answer as a class reads it; several accepted ones joined by "or".
    pub fn text(&self) -> String {
        match self {
            Answer::Cells(cells) => {
                let cells: Vec<String> = cells.iter().map(|[x, y]| format!("({x},{y})")).collect();
                cells.join(" or ")
            }
            Answer::Values { g, h, f } => {
                format!("g = {}, h = {}, f = {}", show_number(*g), show_number(*h), show_number(*f))
            }
            Answer::Number(value) => show_number(*value),
            Answer::Leaves(leaves) if leaves.is_empty() => "none".to_string(),
            Answer::Leaves(leaves) => {
                let leaves: Vec<String> = leaves.iter().map(usize::to_string).collect();
                leaves.join(", ")
            }
            Answer::Bound { relation, value } => format!("{} {value}", relation.text()),
            Answer::Moves(moves) => moves.join(" or "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_answers_parse_as_written_and_read_back() {
        let cases = [
            (Kind::NextExpansion, "[3, 4]", "(3,4)"),
            (Kind::CellValues, "2 5 7", "g = 2, h = 5, f = 7"),
            (Kind::PathCost, " 12.5 ", "12.500"),
            (Kind::PrunedLeaves, "4, 1", "4, 1"),
            (Kind::PrunedLeaves, "None", "none"),
            (Kind::NodeBound, "<= -3", "<= -3"),
            (Kind::NodeBound, "Exact 8", "exact 8"),
            (Kind::UctNext, "B2", "b2"),
        ];
        for (kind, typed, read) in cases {
            assert_eq!(Answer::parse(kind, typed).unwrap().text(), read, "{kind} {typed}");
        }
    }

    #[test]
    fn malformed_answers_say_what_to_give() {
        let cases = [
            (Kind::NextExpansion, "3", "give two numbers: x, y"),
            (Kind::NextExpansion, "3, -1", "-1 is not a whole number from 0"),
            (Kind::CellValues, "1 2", "give three numbers: g, h, f"),
            (Kind::PathCost, "1..2", "'1..2' is not a number"),
            (Kind::PrunedLeaves, "", "give leaf numbers, or none"),
            (Kind::NodeBound, "7", "start with exact, <= or >="),
            (Kind::NodeBound, ">= 1.5", "1.5 is not a whole number"),
            (Kind::UctNext, " ", "give a move"),
        ];
        for (kind, typed, error) in cases {
            assert_eq!(Answer::parse(kind, typed).unwrap_err(), error, "{kind} {typed:?}");
        }
    }
}
