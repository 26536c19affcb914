//! The repository stands on its own: code comments, help texts, docs, chart
//! notes and committed reports cite the project's own docs (docs/cortex.md and
//! so on) and the rules texts by title, never a contract section number or a
//! figures file that is not in the repository.

use std::path::Path;

/// Every file under `dir` (recursively) whose text names an outside document.
fn citations_in(dir: &Path, found: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            citations_in(&path, found);
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // PNGs and other binary files
        };
        for (number, line) in text.lines().enumerate() {
            if line.contains("SPEC") || line.contains("REFERENCE.md") {
                found.push(format!(
                    "{}:{}: {}",
                    path.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
}

#[test]
fn no_outside_document_is_cited() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src", "docs", "reports", "scenarios"] {
        citations_in(&root.join(dir), &mut found);
    }
    let readme = root.join("README.md");
    let text = std::fs::read_to_string(&readme).expect("README.md");
    for (number, line) in text.lines().enumerate() {
        if line.contains("SPEC") || line.contains("REFERENCE.md") {
            found.push(format!("README.md:{}: {}", number + 1, line.trim()));
        }
    }
    assert!(
        found.is_empty(),
        "cite the project's own docs instead:\n{}",
        found.join("\n")
    );
}
