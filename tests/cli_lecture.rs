//! `searchlab lecture --check` as an author or CI sees it: `FILE:LINE: problem` on stderr for each
//! bad cell, a JSON summary per file, exit code 2 when anything is wrong.

mod common;

use common::cli::{assert_fails, json_lines, searchlab};
use common::scratch::ScratchDir;

const GOOD_CELL: &str = "```searchlab\nversion = 1\nlab = \"grid\"\nmap = { bundled = \"maze64.map\" }\nspec = \"astar:octile\"\nstart = [1, 1]\ngoal = [62, 62]\nstep = \"path-found\"\n```\n";

#[test]
fn the_bundled_lectures_check_clean() {
    let output = searchlab(&["lecture", "--check", "lectures/welcome.md"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty());
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["file"], "lectures/welcome.md");
    assert_eq!(lines[0]["problems"], 0);
    assert!(lines[0]["cells"].as_u64().unwrap() >= 3);
}

/// `searchlab ARGS` started from an empty folder, as a lecturer who installed it might.
fn searchlab_elsewhere(args: &[&str]) -> std::process::Output {
    let dir = ScratchDir::new("cli-elsewhere");
    std::process::Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .current_dir(dir.dir())
        .output()
        .expect("the binary runs")
}

#[test]
fn the_bundled_lectures_check_clean_from_any_folder() {
    let lectures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lectures");
    let mut files: Vec<String> = std::fs::read_dir(&lectures)
        .unwrap()
        .map(|entry| entry.unwrap().path().display().to_string())
        .filter(|path| path.ends_with(".md"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "the welcome lecture, six chapters and the authoring guide: {files:?}");
    // Named by their absolute path, and as the app's menu names them (built in).
    files.push("lectures/2-hierarchical-search.md".to_string());
    let args: Vec<&str> = ["lecture", "--check"].into_iter().chain(files.iter().map(String::as_str)).collect();
    let output = searchlab_elsewhere(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), files.len());
    for line in &lines {
        assert_eq!(line["problems"], 0, "{line}");
        assert!(line["cells"].as_u64().unwrap() >= 1, "{line}");
    }
}

#[test]
fn an_unknown_bundled_map_is_named_with_the_bundled_ones() {
    let dir = ScratchDir::new("cli-lecture");
    let file = dir.write_arg("unknown.md", GOOD_CELL.replace("maze64.map", "maze65.map"));
    let output = searchlab_elsewhere(&["lecture", "--check", &file]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let bundled = "lecture-u.map, maze64.map, narrow_corridor.json, pillars.json, random512.map, rooms128.map, rooms512.map, u_hall.json";
    assert!(stderr.contains(&format!("{file}:4: no bundled map 'maze65.map' (bundled: {bundled})")), "{stderr}");
}

/// Checks `text` as the lecture `name`: it fails, and stderr has one `FILE:LINE: problem` per
/// expected (line, fragment), then a summary. The output and its stderr lines.
fn assert_problems(name: &str, text: &str, expected: &[(usize, &str)]) -> (std::process::Output, Vec<String>) {
    let dir = ScratchDir::new("cli-lecture");
    let file = dir.write_arg(name, text);
    let output = searchlab(&["lecture", "--check", &file]);
    assert_eq!(output.status.code(), Some(2));
    let lines: Vec<String> = String::from_utf8_lossy(&output.stderr).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), expected.len() + 1, "one line per bad cell and a summary: {lines:?}");
    for (line, (number, fragment)) in lines.iter().zip(expected) {
        let prefix = format!("{file}:{number}: ");
        assert!(
            line.starts_with(&prefix) && line.contains(fragment),
            "'{line}' should start '{prefix}' and mention '{fragment}'"
        );
    }
    (output, lines)
}

#[test]
fn each_bad_cell_is_reported_at_its_line_and_the_good_ones_are_not() {
    let text = format!(
        "# Talk\n\n{GOOD_CELL}\n```searchlab\nversion = 1\nlab = \"grid\"\nspec = = \"astar\"\n```\n\n\
         ```searchlab\nversion = 1\nlab = \"gird\"\n```\n\n\
         ```searchlab\nversion = 1\nlab = \"grid\"\nmap = {{ bundled = \"maze64.map\" }}\nstart = [1, 1]\ngoal = [90, 3]\n```\n\n\
         ```searchlab\nversion = 1\nlab = \"grid\"\nmap = {{ path = \"missing.map\" }}\n```\n\n\
         {GOOD_CELL}\n```searchlab\nversion = 1\nlab = \"grid\"\n"
    );
    let expected = [
        (16, "expected"),                                   // the TOML syntax error, on its own line
        (21, "unknown lab 'gird': use grid, hierarchical"), // the lab line
        (29, "goal 90,3 is outside the 64x64 map"),         // the goal line
        (35, "missing.map"),                                // the map line: cannot be read
        (48, "never closed"),                               // the fence that opens the unclosed cell
    ];
    let (output, lines) = assert_problems("broken.md", &text, &expected);
    assert!(lines[5].contains("5 problem(s)"), "{}", lines[5]);
    let summary = json_lines(&output);
    assert_eq!((summary[0]["cells"].as_u64(), summary[0]["problems"].as_u64()), (Some(7), Some(5)));
}

#[test]
fn maps_are_read_from_the_lectures_folder() {
    let dir = ScratchDir::new("cli-lecture");
    let map = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";
    let file = dir.write_arg("beside.md", "```searchlab\nversion = 1\nlab = \"grid\"\nmap = { path = \"beside.map\" }\nstart = [0, 0]\ngoal = [3, 2]\n```\n");
    dir.write("beside.map", map);
    let output = searchlab(&["lecture", "--check", &file]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_step_the_search_never_reaches_is_reported() {
    let dir = ScratchDir::new("cli-lecture");
    let cell = GOOD_CELL.replace("step = \"path-found\"", "step = 100000");
    let file = dir.write_arg("late.md", format!("intro\n\n{cell}"));
    let output = searchlab(&["lecture", "--check", &file]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with(&format!("{file}:10: step 100000 is past the end")), "{stderr}");
}

#[test]
fn several_files_are_checked_in_one_run() {
    let dir = ScratchDir::new("cli-lecture");
    let good = dir.write_arg("good.md", GOOD_CELL);
    let bad = dir.write_arg("bad.md", "```searchlab\nversion = 2\nlab = \"grid\"\n```\n");
    let output = searchlab(&["lecture", "--check", &good, &bad]);
    assert_eq!(output.status.code(), Some(2));
    let summary = json_lines(&output);
    assert_eq!(summary.len(), 2);
    assert_eq!((summary[0]["problems"].as_u64(), summary[1]["problems"].as_u64()), (Some(0), Some(1)));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Named at the line that sets the version, the fence's next.
    assert!(stderr.starts_with(&format!("{bad}:2: scene version 2 is not supported")), "{stderr}");
}

#[test]
fn whole_file_problems_are_one_line() {
    let dir = ScratchDir::new("cli-lecture");
    let newer = dir.write_arg("newer.md", "---\nsearchlab: 9\n---\n# Later\n");
    assert_fails(&["lecture", &newer], &format!("{newer}:2: lecture format version 9 is unknown"));
    assert_fails(&["lecture", "no/such/talk.md"], "no/such/talk.md: cannot read");
    assert_fails(&["lecture", "a.md", "b.md"], "give one lecture to open");
    let output = searchlab(&["lecture", "--check", &newer]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with(&format!("{newer}:2: lecture format version 9")));
    // Windows editors may open the file with a byte-order mark; the front matter is still read.
    let marked = dir.write_arg("marked.md", "\u{feff}---\nsearchlab: 2\n---\n# Later\n");
    let output = searchlab(&["lecture", "--check", &marked]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .starts_with(&format!("{marked}:2: lecture format version 2 is unknown"))
    );
}

#[test]
fn game_tree_steps_are_checked_against_the_recorded_search() {
    let tree_cell = |spec: &str, step: &str| {
        format!(
            "```searchlab\nversion = 1\nlab = \"game-tree\"\ntree = \"((3,12,8),(2,4,6),(14,5,2))\"\nspec = \"{spec}\"\nstep = {step}\n```\n\n"
        )
    };
    let text = [
        tree_cell("alphabeta:2", "\"cutoff\""),  // lines 1-7: fine, alpha-beta cuts 4 and 6
        tree_cell("minimax:2", "\"cutoff\""),    // lines 9-15: minimax never cuts
        tree_cell("alphabeta:2", "100000"),      // lines 17-23: past the end
        "```searchlab\nversion = 1\nlab = \"game-tree\"\ntree = \"((3,12,8),(2,4 6))\"\n```\n\n".to_string(), // 25-29
        "```searchlab\nversion = 1\nlab = \"game-tree\"\nposition = \"x.o/.x./..o\"\nspec = \"negamax:9\"\nstep = \"cutoff\"\n```\n\n".to_string(), // 31-37
        tree_cell("uct:100", "\"end\""),      // lines 39-45: UCT is not offered on a typed-in tree
    ]
    .concat();
    let expected = [
        (14, "this replay has no 'cutoff' moment"),
        (22, "step 100000 is past the end"),
        (28, "tree: column 16: expected ',' or ')', found '6'"),
        (36, "this replay has no 'cutoff' moment"),
        (43, "searched with minimax, negamax or alphabeta, not 'uct:100'"),
    ];
    assert_problems("trees.md", &text, &expected);
}

#[test]
fn problems_keep_the_parsers_reason_and_the_files_line() {
    let position_cell = |lab: &str, position: &str| {
        format!("```searchlab\nversion = 1\nlab = \"{lab}\"\nposition = \"{position}\"\n```\n\n")
    };
    let text = [
        position_cell("game-tree", "xxx/ooo/..."),            // lines 1-6
        position_cell("barca", "4ee4/3lmml3/10/10/10 w"),     // lines 7-12
        position_cell("game-tree", "4ee4/3lmml3/10/10/10 w"), // lines 13-18
        // lines 19-32; the inline map's row 2 (its line 6) is the file's line 28
        "```searchlab\nversion = 1\nlab = \"grid\"\nmap = { inline = \"\"\"\ntype octile\nheight 3\nwidth 4\nmap\n....\n..\n....\n\"\"\" }\n```\n\n"
            .to_string(),
    ]
    .concat();
    let expected = [
        (4, "position 'xxx/ooo/...' cannot arise: play continued after a win"),
        (10, "has 5 rows"),
        (16, "has 5 rows"),
        (28, "the scene's map: row"),
    ];
    assert_problems("reasons.md", &text, &expected);
}

/// Lecture 2's summary quotes PRA*(k)'s first stretch as `path --algo pra --k 4` measures it on the
/// cell's query (re-measure after a change to PRA*: this fails until the sentence follows).
#[test]
fn lecture_two_summary_quotes_pra_k_as_the_command_line_measures_it() {
    let args = ["path", "--map", "maps/rooms128.map", "--from", "1,1", "--to", "120,120", "--algo", "pra", "--k", "4"];
    let output = searchlab(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let line = &json_lines(&output)[0];
    let expanded = line["expanded"].as_u64().expect("an expanded count");
    let cells = line["path"].as_array().expect("a path").len();
    let lecture = std::fs::read_to_string("lectures/2-hierarchical-search.md").unwrap();
    let sentence =
        format!("With k = 4 this query returns a first stretch of {cells} cells after {expanded} expansions.");
    assert!(lecture.contains(&sentence), "lecture 2 should say: {sentence}");
}

/// A grid cell's spec is read as a planner: JPS is one, and a bad one gets the planners' list (not
/// the game engines'); a bad field is reported at its own line, not at the fence.
#[test]
fn grid_cells_read_their_spec_as_a_planner_and_errors_name_the_fields_line() {
    let dir = ScratchDir::new("cli-lecture");
    let cell = |spec: &str, extra: &str| {
        format!(
            "```searchlab\nversion = 1\nlab = \"grid\"\nmap = {{ bundled = \"maze64.map\" }}\nspec = \"{spec}\"\nstart = [1, 1]\ngoal = [62, 62]\n{extra}```\n\n"
        )
    };
    let jps = dir.write_arg("jps.md", cell("jps", "step = \"path-found\"\n"));
    let output = searchlab(&["lecture", "--check", &jps]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = [cell("foo", ""), cell("astar,4conn", ""), cell("bfs", "layers = [\"bogus\"]\n")].concat();
    let planners = "use bfs, dijkstra, astar, greedy, jps, hpa or pra";
    let expected = [
        (5, &*format!("unknown planner 'foo': {planners}")),
        (14, "unknown planner 'astar,4conn'"),
        (26, "unknown layer 'bogus' for the grid lab (known: values)"),
    ];
    assert_problems("planners.md", &text, &expected);
}

/// A cell of `lab` with `body` after its first lines (fence, version, lab), and a blank line.
fn cell(lab: &str, body: &str) -> String {
    format!("```searchlab\nversion = 1\nlab = \"{lab}\"\n{body}\n```\n\n")
}

/// Dijkstra across a 2048x2048 random map: a search longer than the app records (4,000,000 events).
fn long_search_cell(step: &str) -> String {
    let body = "map = { generated = \"random:2048x2048,density=0.2,seed=3\" }\nspec = \"dijkstra\"\nstart = [1, 1]\ngoal = [2045, 2045]";
    cell("grid", &format!("{body}\nstep = {step}"))
}

/// `--check` records under the app's cap on events, so a step or a moment past a truncated recording
/// is refused as the app refuses it, saying the recording (not the search) stops there; `end` there
/// opens on no result, which is a warning.
#[test]
fn steps_of_a_recording_that_stops_early_are_checked_as_the_app_records_it() {
    let text = [
        long_search_cell("\"path-found\""),
        long_search_cell("5000000"),
        long_search_cell("\"end\""),
        long_search_cell("3999999"),
    ]
    .concat();
    let stops = "(the recording stops at event 4000000 of a longer search)";
    let expected = [
        (8, &*format!("this replay has no 'path-found' moment {stops}")),
        (18, &*format!("step 5000000 is past the end of the recording {stops}")),
        (
            28,
            "warning: step end opens where the recording stops, before the search's result: the recording stops at event 4000000",
        ),
    ];
    let (output, lines) = assert_problems("long.md", &text, &expected);
    assert!(lines.iter().all(|line| !line.contains("the search has")), "{lines:?}");
    let summary = &json_lines(&output)[0];
    assert_eq!((summary["problems"].as_u64(), summary["warnings"].as_u64()), (Some(2), Some(1)), "{summary}");
}

/// UCT cells of the game-tree lab are seeded, so `--check` records them as the page does and checks
/// their step: UCT's replay names no moment but its start.
#[test]
fn uct_cells_have_their_step_checked() {
    let uct =
        |step: &str| cell("game-tree", &format!("spec = \"uct:100,plain\"\nposition = \"x../.o./...\"\nstep = {step}"));
    let text = [uct("99999"), uct("\"first-expansion\""), uct("100"), uct("\"start\""), uct("\"end\"")].concat();
    let expected =
        [(6, "step 99999 is past the end (the search has "), (14, "this replay has no 'first-expansion' moment")];
    assert_problems("uct.md", &text, &expected);
}

/// A typed-in tree is read before anything about depth: its typo is named at its column whatever
/// the spec, and a lone leaf is no tree to search; each error is at the tree's line.
#[test]
fn a_typo_in_a_typed_in_tree_is_named_at_its_column_whatever_the_spec() {
    let tree = |spec: &str, tree: &str| cell("game-tree", &format!("spec = \"{spec}\"\ntree = \"{tree}\""));
    let text = [
        tree("alphabeta", "((3,12,8),(2,4,6),(14,5,2)"),
        tree("minimax", "((3,12,8),(2,4,,6),(14,5,2))"),
        tree("alphabeta:3", "((3,12,8),(2,4,6),(14,5,x))"),
        tree("minimax", "7"),
        tree("minimax", "((3,12,8),(2,4,6),(14,5,2))"),
    ]
    .concat();
    let expected = [
        (5, "tree: column 27: expected ',' or ')', found the end of the text"),
        (12, "tree: column 16: expected a number or '(', found ','"),
        (19, "tree: column 25: expected a number or '(', found 'x'"),
        (26, "tree: a tree needs at least one move"),
    ];
    let (_, lines) = assert_problems("trees.md", &text, &expected);
    assert!(lines.iter().all(|line| !line.contains("depth")), "{lines:?}");
}

/// Each field's error is at that field's line; a key set twice is named at its second line with the
/// first; two map sources are named as such; a third coordinate is refused like a missing one.
#[test]
fn field_errors_are_at_the_fields_own_line() {
    let grid = |body: &str| cell("grid", body);
    let maze = "map = { bundled = \"maze64.map\" }";
    let text = [
        grid(&format!("{maze}\nstart = [1, 1]\ngoal = [62, 99999999999]")), // 1-7
        cell("polygon", "map = { bundled = \"pillars.json\" }\nstart = [1, 1]\ngoal = [1e300, 3]"), // 9-15
        grid(&format!("spec = \"bfs\"\nspec = \"dijkstra\"\n{maze}")),      // 17-23
        grid("map = { bundled = \"maze64.map\", path = \"x.map\" }"),       // 25-29
        grid(&format!("{maze}\nstart = [1, 1, 7]\ngoal = [62, 62]")),       // 31-37
        grid(&format!("{maze}\nstart = [1, 1]\ngoal = [62, 62, 5]")),       // 39-45
    ]
    .concat();
    let expected = [
        (6, "goal 62,99999999999 is not a grid cell"),
        (14, "goal [1e300, 3.0] is beyond"),
        (21, "duplicate key `spec` (first on line 20)"),
        (28, "give one map source: bundled, path, inline or generated"),
        (35, "a cell or point is [x, y]: two numbers, not 3"),
        (44, "a cell or point is [x, y]: two numbers, not 3"),
    ];
    assert_problems("fields.md", &text, &expected);
}

/// Fields a lab's page does not read are refused with the field and the lab, and a spec that fits
/// another lab is quoted as written with the lab that shows it.
#[test]
fn fields_and_specs_for_another_lab_are_refused_with_where_they_go() {
    let text = [
        cell("game-tree", "position = \"x../.o./...\"\nmap = { bundled = \"maze64.map\" }"), // 1-6
        cell("polygon", "map = { bundled = \"pillars.json\" }\nspec = \"tra\"\ncompare = \"tra\""), // 8-14
        cell("grid", "map = { bundled = \"maze64.map\" }\nspec = \"hpa\""),                  // 16-21
        cell("hierarchical", "map = { bundled = \"maze64.map\" }\nspec = \"astar\""),        // 23-28
    ]
    .concat();
    let expected = [
        (5, "the game-tree lab does not use `map`"),
        (13, "the polygon lab does not use `compare`"),
        (20, "spec 'hpa' does not fit the grid lab: HPA* is shown by lab = \"hierarchical\""),
        (27, "spec 'astar' does not fit: the hierarchical lab takes hpa or pra as spec; put a flat search in compare"),
    ];
    assert_problems("labs.md", &text, &expected);
}

/// A fence tagged nearly `searchlab` is shown as code, so `--check` warns at its line; a lecture
/// without cells gets a warning too. Warnings leave the exit code at 0.
#[test]
fn a_misspelt_cell_tag_and_a_lecture_without_cells_are_warned_about() {
    let dir = ScratchDir::new("cli-lecture");
    let body = "version = 1\nlab = \"gird\"\n```\n\n";
    let tags = ["Searchlab", "search-lab", "searchlabs", "{searchlab}", "SEARCH_LAB"];
    let text: String =
        tags.iter().map(|tag| format!("```{tag}\n{body}")).chain(["```toml\nlab = 1\n```\n".into()]).collect();
    let file = dir.write_arg("tags.md", &text);
    let output = searchlab(&["lecture", "--check", &file]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        format!("{file}:1: warning: the lecture has no live cells: a cell is a fenced block tagged ```searchlab")
    );
    for (n, tag) in tags.iter().enumerate() {
        let expected =
            format!("{file}:{}: warning: this block is shown as code: its tag '{tag}' is not ```searchlab", 1 + 5 * n);
        assert_eq!(lines[n + 1], expected);
    }
    assert_eq!(lines.len(), tags.len() + 1, "no warning for a toml block: {stderr}");
    assert_eq!(json_lines(&output)[0]["warnings"].as_u64(), Some(tags.len() as u64 + 1));
    let empty = dir.write_arg("empty.md", "");
    let output = searchlab(&["lecture", "--check", &empty]);
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim_end(),
        format!("{empty}:1: warning: the lecture has no live cells: a cell is a fenced block tagged ```searchlab")
    );
}

/// A hierarchical cell with `replay = "planner"` steps through the planner's recording, which is
/// far shorter than the flat search's: `--check` resolves its step there. The grid lab has no
/// planner to replay, so it refuses the field.
#[test]
fn a_cell_replaying_the_planner_has_its_step_checked_in_the_planners_recording() {
    let hierarchical = |replay: &str, step: &str| {
        let body = format!(
            "map = {{ bundled = \"rooms128.map\" }}\nspec = \"hpa:cluster=10\"\ncompare = \"astar:octile\"\nstart = [1, 1]\ngoal = [120, 120]\n{replay}step = {step}"
        );
        cell("hierarchical", &body)
    };
    let planner = "replay = \"planner\"\n";
    let text = [
        hierarchical(planner, "20000"),          // 1-11: past the planner's end
        hierarchical("", "20000"),               // 13-22: the flat search goes on far longer
        hierarchical(planner, "\"path-found\""), // 24-34
        hierarchical("replay = \"search\"\n", "\"first-expansion\""), // 36-46
        cell("grid", "map = { bundled = \"maze64.map\" }\nreplay = \"planner\""), // 48-53
    ]
    .concat();
    let expected = [(10, "step 20000 is past the end (the search has "), (52, "the grid lab does not use `replay`")];
    assert_problems("replay.md", &text, &expected);
}
