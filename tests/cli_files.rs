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
    let nul = dir.write_arg("nul.bin", [0; 100]);
    let at_line_1 = format!("{nul}:1: not a text file (NUL byte)");
    assert_fails(&["path", "--map", &nul, "--from", "0,0", "--to", "1,1"], &at_line_1);
    assert_fails(&["mesh", "--map", &nul, "--from", "0,0", "--to", "1,1"], &at_line_1);
    assert_fails(&["mesh", "--map", "maps/u_hall.json", "--queries", &nul], &at_line_1);
    assert_fails(&["barca", "search", "--algo", "id", "--depth", "1", "--weights", &nul], &at_line_1);
    let svg = dir.path("plot.svg").display().to_string();
    assert_fails(&["barca", "plot", "--log", &nul, "--out", &svg], &at_line_1);
}

/// Runs `args` with `head` on stdin, then `endless` repeated without end; the output, and how many
/// bytes went into the pipe before the command closed it.
fn run_on_endless_stdin(args: &[&str], head: &'static str, endless: &'static str) -> (std::process::Output, usize) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let rows = endless.repeat(4096);
        let mut written = 0;
        // Writing fails once the command has closed its end of the pipe.
        for chunk in std::iter::once(head).chain(std::iter::repeat(rows.as_str())) {
            match stdin.write(chunk.as_bytes()) {
                Ok(count) => written += count,
                Err(_) => return written,
            }
        }
        unreachable!("the input never ends")
    });
    let output = child.wait_with_output().expect("the binary finishes");
    (output, writer.join().expect("the writer ends"))
}

/// A map or scenario file whose header is wrong is refused on reading its header, not after
/// reading up to the size cap (hundreds of MB from a pipe such as /dev/stdin); so is a header
/// line without end, and a map with more rows than its height once it is past where its rows end.
#[test]
fn a_piped_file_with_a_wrong_header_is_refused_before_the_rest_is_read() {
    let map = ["path", "--map", "/dev/stdin", "--from", "0,0", "--to", "1,1"].as_slice();
    let rows = "@@@@\n";
    let cases: [(&[&str], &str, &str, &str); 6] = [
        (map, "type hexagon\n", rows, "/dev/stdin:1: unsupported map type 'hexagon'"),
        (
            map,
            "type octile\nheight 100000\nwidth 100000\nmap\n",
            rows,
            "/dev/stdin:3: map of 100000x100000 cells is larger than the limit of 67108864 cells",
        ),
        (
            &["path", "--map", "maps/maze64.map", "--scen", "/dev/stdin"],
            "version 2\n",
            rows,
            "/dev/stdin:1: unsupported scenario version '2'",
        ),
        // 4 rows of 4 cells and a CRLF, weights as long, all that again in padding and a KB: 1138
        // bytes after the 33 of the header reach into line 232 (the 228th row).
        (
            map,
            "type octile\nheight 4\nwidth 4\nmap\n",
            rows,
            "/dev/stdin:232: more rows than its height 4: a 4x4 map, with weights and padding, ends before this line",
        ),
        (map, "", "type octile ", "/dev/stdin:1: header line longer than 4 KB"),
        (
            &["path", "--map", "maps/maze64.map", "--scen", "/dev/stdin"],
            "",
            "v",
            "/dev/stdin:1: header line longer than 4 KB",
        ),
    ];
    for (args, head, endless, error) in cases {
        let (output, written) = run_on_endless_stdin(args, head, endless);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        let one_line = stderr.starts_with(&format!("error: {error}")) && stderr.lines().count() == 1;
        assert!(one_line, "{args:?}: '{stderr}' should be 'error: {error}'");
        // The header, the first read's chunk and the pipe's buffer: well under a megabyte.
        assert!(written < 1 << 20, "{args:?}: {written} bytes were read before the header was refused");
    }
}
