//! Every file the CLI reads is refused with one line when it is not text or is larger than the
//! format can need, instead of being loaded whole (a picked /dev/zero or disk image must not hang).

mod common;

use common::cli::{assert_fails, searchlab};
use common::scratch::ScratchDir;

/// A sparse file of `size` NUL bytes: it takes no disk space and nothing reads it whole.
fn sparse(dir: &ScratchDir, name: &str, size: u64) -> String {
    let path = dir.path(name);
    std::fs::File::create(&path).unwrap().set_len(size).unwrap();
    path.display().to_string()
}

/// `lecture --check` exits 2 and its first line on stderr starts with `problem`.
fn assert_check_fails(lecture: &str, problem: &str) {
    let output = searchlab(&["lecture", "--check", lecture]);
    assert_eq!(output.status.code(), Some(2), "{lecture}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with(problem), "'{stderr}' should start with '{problem}'");
}

#[test]
fn a_lecture_with_a_nul_or_control_byte_is_not_text() {
    let dir = ScratchDir::new("cli-files");
    let nul = dir.write_arg("nul.md", b"# Talk\nhello\x00 world\n");
    assert_check_fails(&nul, &format!("{nul}:2: not a text file (NUL byte)\n"));
    let control = dir.write_arg("control.md", b"hello\x01\x02 world");
    assert_check_fails(&control, &format!("{control}:1: not a text file (control byte)\n"));
}

#[test]
fn a_huge_lecture_is_too_big() {
    let dir = ScratchDir::new("cli-files");
    let huge = sparse(&dir, "huge.md", 1 << 30);
    assert_check_fails(&huge, &format!("{huge}: too big (1 GB, max 16 MB)\n"));
}

#[test]
fn a_map_larger_than_the_largest_map_text_is_too_big() {
    let dir = ScratchDir::new("cli-files");
    // 8192x8192 cells with weights, each row ending in CRLF, is about 134 MB; 1 GiB cannot be a map.
    let huge = sparse(&dir, "huge.map", 1 << 30);
    assert_fails(&["path", "--map", &huge, "--from", "0,0", "--to", "1,1"], &format!("{huge}: too big (1 GB, max "));
    assert_fails(&["mesh", "--map", &huge, "--from", "0,0", "--to", "1,1"], &format!("{huge}: too big (1 GB, max "));
    let scen = sparse(&dir, "huge.map.scen", 1 << 30);
    assert_fails(&["path", "--map", "maps/maze64.map", "--scen", &scen], &format!("{scen}: too big (1 GB, max "));
}

#[test]
fn binary_maps_weights_queries_and_logs_are_not_text() {
    let dir = ScratchDir::new("cli-files");
    let nul = dir.write_arg("nul.bin", &[0; 100]);
    let at_line_1 = format!("{nul}:1: not a text file (NUL byte)");
    assert_fails(&["path", "--map", &nul, "--from", "0,0", "--to", "1,1"], &at_line_1);
    assert_fails(&["mesh", "--map", &nul, "--from", "0,0", "--to", "1,1"], &at_line_1);
    assert_fails(&["mesh", "--map", "maps/u_hall.json", "--queries", &nul], &at_line_1);
    assert_fails(&["barca", "search", "--algo", "id", "--depth", "1", "--weights", &nul], &at_line_1);
    let svg = dir.path("plot.svg").display().to_string();
    assert_fails(&["barca", "plot", "--log", &nul, "--out", &svg], &at_line_1);
}
