use proptest::prelude::*;

use super::*;

fn prose(block: &Block) -> &str {
    match block {
        Block::Prose { text, .. } => text,
        other => panic!("{other:?} where prose was expected"),
    }
}

fn cell(block: &Block) -> &Cell {
    match block {
        Block::Cell(cell) => cell,
        other => panic!("{other:?} where a cell was expected"),
    }
}

#[test]
fn prose_and_cells_keep_their_lines() {
    let text = "# Title\n\nSome prose.\n\n```searchlab\nlab = \"grid\"\nstep = \"end\"\n```\nMore prose.\n";
    let lecture = Lecture::parse(text).unwrap();
    assert_eq!(lecture.title.as_deref(), Some("Title"));
    assert_eq!(lecture.sections.len(), 1);
    let blocks = &lecture.sections[0].blocks;
    assert_eq!(blocks.len(), 3);
    assert_eq!(prose(&blocks[0]), "# Title\n\nSome prose.");
    let cell = cell(&blocks[1]);
    assert_eq!((cell.line, cell.body_line(1)), (5, 7));
    assert_eq!(cell.source, "lab = \"grid\"\nstep = \"end\"\n");
    assert!(!cell.unclosed);
    assert_eq!(blocks[2], Block::Prose { line: 9, text: "More prose.".into() });
}

#[test]
fn sections_split_on_headings_and_breaks_but_not_inside_code() {
    let text = "\
# One
intro

## Two
```toml
# not a heading

---
```

---

three
### still three
Setext heading
---
";
    let lecture = Lecture::parse(text).unwrap();
    let titles: Vec<_> = lecture.sections.iter().map(|s| s.title.as_deref()).collect();
    assert_eq!(titles, [Some("One"), Some("Two"), None]);
    let lines: Vec<_> = lecture.sections.iter().map(|s| s.line).collect();
    assert_eq!(lines, [1, 4, 12]);
    assert_eq!(lecture.sections[1].blocks[1], Block::Code { line: 5, text: "# not a heading\n\n---\n".into() });
    assert_eq!(prose(&lecture.sections[2].blocks[0]), "three\n### still three\nSetext heading\n---");
    assert_eq!(lecture.section_at_line(7), 1);
    assert_eq!(lecture.section_at_line(100), 2);
}

#[test]
fn a_break_after_a_heading_makes_no_empty_section() {
    let lecture = Lecture::parse("---\n\n# A\n\n---\n\n---\n\n## B\ntext\n").unwrap();
    assert_eq!(lecture.sections.len(), 2);
    assert_eq!(lecture.sections[1].title.as_deref(), Some("B"));
}

#[test]
fn front_matter_declares_the_version_and_title() {
    let lecture = Lecture::parse("---\nsearchlab: 1\ntitle: \"Search\"\nmarp: true\n---\n# Heading\n").unwrap();
    assert_eq!((lecture.version, lecture.title.as_deref()), (1, Some("Search")));
    assert_eq!(lecture.sections[0].line, 6);
    assert_eq!(Lecture::parse("no front matter").unwrap().version, FORMAT_VERSION);
}

#[test]
fn an_unknown_version_is_refused_with_its_line() {
    let problem = Lecture::parse("---\ntitle: x\nsearchlab: 2\n---\n").unwrap_err();
    assert_eq!(problem.line, 3);
    assert!(problem.message.contains("version 2 is unknown"), "{problem}");
    assert!(problem.at("talk.md").starts_with("talk.md:3: lecture format version 2"));
    let problem = Lecture::parse("---\nsearchlab: one\n---\n").unwrap_err();
    assert_eq!(problem.line, 2);
    assert!(problem.message.contains("'one' is not a whole number"), "{problem}");
}

#[test]
fn a_leading_break_without_keys_is_not_front_matter() {
    let lecture = Lecture::parse("---\nJust prose: a colon.\nand more\n---\n").unwrap();
    assert_eq!(prose(&lecture.sections[0].blocks[0]), "Just prose: a colon.\nand more\n---");
}

#[test]
fn fences_follow_commonmark() {
    // Longer and tilde fences, an indented fence whose body loses that indent, and a fence of
    // three backticks that does not close a four-backtick cell.
    let text = "````searchlab extra words\nlab = \"grid\"\n```\n````\n  ~~~searchlab\n  a = 1\n   b = 2\n  ~~~\n";
    let lecture = Lecture::parse(text).unwrap();
    let cells: Vec<_> = lecture.cells().collect();
    assert_eq!(cells.len(), 2);
    assert_eq!(cells[0].source, "lab = \"grid\"\n```\n");
    assert_eq!((cells[1].line, cells[1].source.as_str()), (5, "a = 1\n b = 2\n"));
    // Not cells: inline code, a four-space indent, another language.
    let none = "```searchlab` x\n\n    ```searchlab\n    ```\n\n```toml\nx = 1\n```\n";
    assert_eq!(Lecture::parse(none).unwrap().cells().count(), 0);
}

#[test]
fn an_unclosed_cell_runs_to_the_end_and_says_so() {
    let lecture = Lecture::parse("text\n\n```searchlab\nlab = \"grid\"\n").unwrap();
    let cell = lecture.cells().next().unwrap();
    assert!(cell.unclosed);
    assert_eq!((cell.line, cell.source.as_str()), (3, "lab = \"grid\"\n"));
}

#[test]
fn empty_files_have_one_empty_section() {
    for text in ["", "\n\n", "---\n", "---\nsearchlab: 1\n---\n"] {
        let lecture = Lecture::parse(text).unwrap();
        assert_eq!(lecture.sections.len(), 1, "{text:?}");
        assert!(lecture.sections[0].blocks.is_empty(), "{text:?}");
    }
}

#[test]
fn windows_line_endings_read_the_same() {
    let unix = "# A\n\n```searchlab\nlab = \"grid\"\n```\n\n---\n\nB\n";
    assert_eq!(Lecture::parse(&unix.replace('\n', "\r\n")).unwrap(), Lecture::parse(unix).unwrap());
}

proptest! {
    /// Arbitrary text, heavy in the characters the parser looks at, never panics and keeps every
    /// line number within the file.
    #[test]
    fn arbitrary_text_never_panics(text in "([-#`~ \t:\r\nsearchlab=1é]|---\n|```searchlab\n|~~~~\n){0,60}") {
        let line_count = text.lines().count().max(1);
        if let Ok(lecture) = Lecture::parse(&text) {
            prop_assert!(!lecture.sections.is_empty());
            for section in &lecture.sections {
                prop_assert!(section.line >= 1);
                for block in &section.blocks {
                    let line = match block {
                        Block::Prose { line, .. } | Block::Code { line, .. } => *line,
                        Block::Cell(cell) => cell.line,
                    };
                    prop_assert!((1..=line_count).contains(&line), "line {} of {}", line, line_count);
                }
            }
        }
    }

    #[test]
    fn any_unicode_never_panics(text in any::<String>()) {
        let _ = Lecture::parse(&text);
    }
}

#[test]
fn the_same_section_is_found_by_its_heading_else_by_its_place() {
    let lecture = Lecture::parse("# A\n\na\n\n# New\n\nn\n\n# B\n\nb\n\n# B\n\nb again\n\n---\n\nuntitled\n").unwrap();
    let titles: Vec<Option<&str>> = lecture.sections.iter().map(|s| s.title.as_deref()).collect();
    assert_eq!(titles, [Some("A"), Some("New"), Some("B"), Some("B"), None]);
    assert_eq!(lecture.same_section(Some("A"), 0), 0);
    // Moved down by the inserted section; of two with its heading, the nearer.
    assert_eq!(lecture.same_section(Some("B"), 1), 2);
    assert_eq!(lecture.same_section(Some("B"), 4), 3);
    // A heading that is gone, or none: the nearest index that exists.
    assert_eq!(lecture.same_section(Some("Gone"), 1), 1);
    assert_eq!(lecture.same_section(None, 9), 4);
}
