#![allow(clippy::unwrap_used)]
//! Every invalid or not-yet-supported construct in `tests/negative/` gives exactly the error
//! codes its first line expects (`// expect: E0401`), a non-zero exit, and no panic. A line
//! `// options: -cl-std=CL1.2` gives the options to check it with.

use kiln_tests::{kiln, tests_dir};
use std::collections::BTreeSet;

#[test]
fn negative_kernels_give_their_codes() {
    let dir = tests_dir().join("negative");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    assert!(files.len() >= 150, "the negative corpus must have at least 150 kernels, found {}", files.len());
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expected: BTreeSet<String> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect:"))
            .unwrap_or_else(|| panic!("{} has no `// expect:` line", f.display()))
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let options: Vec<&str> = text
            .lines()
            .find_map(|l| l.strip_prefix("// options:"))
            .map(|o| o.split_whitespace().collect())
            .unwrap_or_default();
        let path = f.display().to_string();
        let mut args = vec!["check", &path, "--message-format", "json"];
        args.extend(options);
        let r = kiln(&args);
        let got: BTreeSet<String> = r
            .stderr
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|d| d["severity"] == "error")
            .map(|d| d["code"].as_str().unwrap_or("").to_string())
            .collect();
        let located = r.stderr.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).all(|d| {
            d["spans"].as_array().is_some_and(|s| !s.is_empty() && s[0]["line"].as_u64().is_some_and(|x| x > 0))
        });
        if r.code != 1 || got != expected || !located {
            failures.push(format!(
                "{}: exit {}, expected {expected:?}, got {got:?}, all located: {located}\n{}",
                f.display(),
                r.code,
                r.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
