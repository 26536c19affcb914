//! Nothing silent (docs/reports.md): a fallback from exact to Monte Carlo, a
//! capped conflict that leaves many fights unresolved and a chart that leaves
//! something out each say one line on stderr, also under `--quiet` (which
//! hides progress only), and the report's page lists them under "Warnings".
//! Also: a comma list over a key the case does not read is not "one value
//! written two ways".

use crate::common;

use common::scenario;

/// `oddsmith ARGS`: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = common::oddsmith().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_fallback_to_monte_carlo_is_said_under_quiet() {
    // A pool far past the exact engine (refused before the work).
    let (code, out, err) = run(&[
        "cortex", "1000d12", "--vs", "5d12", "--keep", "5", "--trials", "2000", "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("monte carlo"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: case \"1000d12 vs 5d12\" (monte-carlo): fell back to Monte Carlo (2,000 trials): "),
        "{err}"
    );
    // Asked for Monte Carlo, nothing fell back.
    let (_, _, err) = run(&[
        "cortex", "1000d12", "--vs", "5d12", "--keep", "5", "--trials", "2000", "--quiet",
        "--method", "mc",
    ]);
    assert_eq!(err, "");
}

#[test]
fn the_page_lists_the_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(
        dir.path(),
        r#"
name = "capped"
[[case]]
system = "cortex-conflict"
hero = "d10 2d8 d6"
foe = "d10 d8 d6"
exchanges = 5
[[case]]
system = "cortex-conflict"
hero = "d10 2d8 d6"
foe = "d8 d6"
"#,
    );
    let out = dir.path().join("out");
    let (code, _, err) = run(&["run", &path, "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("capped at 5 exchanges"), "{err}");
    let page = std::fs::read_to_string(out.join("report.md")).unwrap();
    let at = page.find("## Warnings").expect("a Warnings section");
    let section = &page[at..page[at..].find("## Results").map_or(page.len(), |e| at + e)];
    assert!(
        section.contains("**d10 2d8 d6 vs d10 d8 d6** (exact): capped at 5 exchanges: 27.1 %"),
        "{section}"
    );
    assert!(!section.contains("vs d8 d6**"), "{section}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("<h2>Warnings</h2>"),
        "no warnings in the HTML page"
    );
}

#[test]
fn a_key_the_case_does_not_read_may_take_several_values() {
    // Under policy "never" the die is never spent (docs/advantage.md): the
    // three cases are one answer, not one value written two ways.
    let (code, out, err) = run(&["advantage", "--die", "d4,d6,d8", "--policy", "never"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("die=d4") && out.contains("die=d8"), "{out}");
    // A value truly written twice is still refused.
    let (code, _, err) = run(&["advantage", "--die", "d8,D8"]);
    assert_eq!(code, 2);
    assert!(err.contains("one value written two ways"), "{err}");
}
