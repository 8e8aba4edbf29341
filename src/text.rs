//! Error messages stay one readable line whatever the user fed in: input quoted in a message is
//! escaped (newlines, control and direction-changing characters) and cut when long.

/// Longest piece of input quoted in a message, in characters.
const QUOTE_CHARS: usize = 40;
/// Longest message, in characters; longer ones lose their middle, so the start (what is wrong)
/// and the end (where, as in serde's "at line 3 column 9") both stay.
const MESSAGE_CHARS: usize = 300;

/// A piece of user input for an error message: escaped, and cut after 40 characters.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_CHARS {
            out.push_str("...");
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// A whole message made one line: escaped like [`quote`], and cut in the middle when long.
pub fn one_line(message: &str) -> String {
    let count = message.chars().count();
    if count <= MESSAGE_CHARS {
        let mut out = String::with_capacity(message.len());
        message.chars().for_each(|c| push_escaped(&mut out, c));
        return out;
    }
    let (head, tail) = (MESSAGE_CHARS * 2 / 3, MESSAGE_CHARS / 3);
    let mut out = String::new();
    message.chars().take(head).for_each(|c| push_escaped(&mut out, c));
    out.push_str(" ... ");
    message.chars().skip(count - tail).for_each(|c| push_escaped(&mut out, c));
    out
}

/// A number for a message: plain when of everyday size, in exponent form when it would run to
/// hundreds of digits (1e308) or be mostly zeros (1e-300).
pub fn number(value: f64) -> String {
    if value == 0.0 || !value.is_finite() || (1e-4..1e9).contains(&value.abs()) {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

/// A size in bytes as a reader says it: "4.7 GB", "310 MB", "12 kB" (powers of 1000).
pub fn bytes(count: usize) -> String {
    match count as f64 {
        b if b >= 1e9 => format!("{:.1} GB", b / 1e9),
        b if b >= 1e6 => format!("{:.0} MB", b / 1e6),
        b => format!("{:.0} kB", b / 1e3),
    }
}

/// The word for `count` things: `one` for 1, else `many` ("ply"/"plies", "is"/"are").
pub fn plural(count: usize, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

/// `count` and its noun: "1 cell", "3 cells".
pub fn counted(count: usize, one: &'static str, many: &'static str) -> String {
    format!("{count} {}", plural(count, one, many))
}

/// The items as a sentence's list: "a, b or c".
pub fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `text` without a leading UTF-8 byte-order mark, which some Windows editors write.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn push_escaped(out: &mut String, c: char) {
    if needs_escape(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// Characters that break a line, move the cursor or reorder text on a terminal.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_escaped_and_cut() {
        assert_eq!(quote("a\nb\r\tc\u{1b}[2J"), "a\\nb\\r\\tc\\u{1b}[2J");
        assert_eq!(quote("\u{202e}evil\u{2028}"), "\\u{202e}evil\\u{2028}");
        assert_eq!(quote("e2e4 é ✓"), "e2e4 é ✓", "printable unicode is kept");
        let long = "x".repeat(80_000);
        assert_eq!(quote(&long), format!("{}...", "x".repeat(40)));
        assert_eq!(quote(&"x".repeat(40)), "x".repeat(40), "exactly 40 characters are not cut");
    }

    #[test]
    fn numbers_stay_short() {
        assert_eq!(number(1e308), "1e308");
        assert_eq!(number(-5e-324), "-5e-324");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(-0.0), "-0");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(10000000.0), "10000000");
    }

    #[test]
    fn messages_keep_their_start_and_end() {
        let message = format!("unknown field `{}` at line 3 column 9", "y\n".repeat(5_000));
        let line = one_line(&message);
        assert!(!line.contains('\n'));
        assert!(line.starts_with("unknown field `y\\ny"));
        assert!(line.ends_with("at line 3 column 9"));
        assert!(line.chars().count() < 2 * MESSAGE_CHARS, "{} characters", line.chars().count());
        assert_eq!(one_line("short: fine"), "short: fine");
    }
}
