//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

/// `../shared/<sub>` next to the project, where fetched benchmark data lives (never committed).
/// Under `CI=true` missing data fails the test; elsewhere the test is skipped with a message.
pub fn shared_data(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{} is missing: CI must provide the shared MovingAI data", dir.display());
    }
    eprintln!("skipping: {} not found (fetched data lives outside the project)", dir.display());
    None
}

/// A bundled map of the project.
pub fn project_map(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("maps").join(name)
}
