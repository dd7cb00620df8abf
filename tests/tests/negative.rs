#![allow(clippy::unwrap_used)]
//! Every invalid or not-yet-supported construct in `tests/negative/` gives exactly the error
//! codes its first line expects (`// expect: E0401`), a non-zero exit, and no panic. A line
//! `// options: -cl-std=CL1.2` gives the options to check it with.

use kiln_tests::{check_refused, expected_codes, negative_kernels, tests_dir};

#[test]
fn negative_kernels_give_their_codes() {
    let dir = tests_dir().join("negative");
    let files = negative_kernels(&dir);
    assert!(files.len() >= 150, "the negative corpus must have at least 150 kernels, found {}", files.len());
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expected = expected_codes(&f, &text);
        let options: Vec<&str> = text
            .lines()
            .find_map(|l| l.strip_prefix("// options:"))
            .map(|o| o.split_whitespace().collect())
            .unwrap_or_default();
        failures.extend(check_refused(&f, &options, &expected));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
