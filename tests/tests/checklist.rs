#![allow(clippy::unwrap_used)]
//! The test kernels T01–T24 of the OpenCL C feature checklist for FPGA compilers, copied into
//! `tests/checklist/` (the product never reads the checklist itself):
//!
//! * `tests/checklist/*.cl`: the accepted parts of each test, with the values the checklist
//!   gives, as `// expect NAME = [v, ...]` lines (`_` where the checklist leaves a lane
//!   undefined), checked in every engine the `// engines:` line names (`emu`, `sim`, `cosim`);
//! * `tests/checklist/reject/*.cl`: each line the checklist marks `// REJECT`, alone in a
//!   valid file: kiln must give exactly the `// expect:` codes, every error on the marked line.

use kiln_tests::{kiln, par_each, require_tool, scratch, tests_dir};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn kernels_in(sub: &str) -> Vec<PathBuf> {
    let dir = tests_dir().join("checklist").join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("// {key}:");
    text.lines().find_map(|l| l.strip_prefix(&prefix)).map(str::trim)
}

/// An expected lane: a number, or `_` for a lane the checklist leaves undefined.
fn lane_matches(want: &str, got: &serde_json::Value) -> bool {
    if want == "_" {
        return true;
    }
    let want: f64 = want.parse().unwrap_or_else(|_| panic!("bad expected value `{want}`"));
    got.as_f64() == Some(want)
}

/// The `// expect NAME = [...]` lines of an accepted kernel.
fn expectations(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("// expect "))
        .map(|e| {
            let (name, list) = e.split_once('=').unwrap_or_else(|| panic!("bad expectation `{e}`"));
            let list = list.trim().trim_start_matches('[').trim_end_matches(']');
            (name.trim().to_string(), list.split(',').map(|v| v.trim().to_string()).collect())
        })
        .collect()
}

fn run_engine(engine: &str, source: &Path, dir: &Path) -> serde_json::Value {
    let stem = source.file_stem().unwrap().to_string_lossy();
    let json = dir.join(format!("{stem}-{engine}.json"));
    let src = source.display().to_string();
    let spec = source.with_extension("toml").display().to_string();
    let r = kiln(&[engine, &src, "--spec", &spec, "--json", &json.display().to_string()]);
    assert_eq!(r.code, 0, "{stem}: `kiln {engine}` failed\n{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // A system of kernels (`[[launch]]` spec) names its buffers; a single kernel its arguments.
    if v["buffers"].is_object() { v["buffers"].clone() } else { v["args"].clone() }
}

#[test]
fn accepted_kernels_compute_the_checklist_values() {
    require_tool("verilator");
    let dir = scratch("checklist");
    let files = kernels_in("");
    assert!(files.len() >= 18, "the checklist's accepted kernels are missing ({} found)", files.len());
    par_each(&files, |source| {
        let text = std::fs::read_to_string(source).unwrap();
        let name = source.file_stem().unwrap().to_string_lossy().into_owned();
        let engines = header(&text, "engines").unwrap_or_else(|| panic!("{name}: no `// engines:` line"));
        let expected = expectations(&text);
        assert!(!expected.is_empty(), "{name}: no `// expect NAME = [...]` line");
        for engine in engines.split_whitespace() {
            let args = run_engine(engine, source, &dir);
            for (buffer, want) in &expected {
                let got = args[buffer].as_array().unwrap_or_else(|| panic!("{name}: no buffer `{buffer}` in {args}"));
                assert_eq!(got.len(), want.len(), "{name} ({engine}): `{buffer}` has {} values", got.len());
                for (i, (w, g)) in want.iter().zip(got).enumerate() {
                    assert!(lane_matches(w, g), "{name} ({engine}): {buffer}[{i}] = {g}, the checklist says {w}");
                }
            }
        }
    });
}

/// The codes (errors and warnings) kiln gives for `file`, with the lines of its errors, and
/// its exit status.
fn diagnose(file: &Path, text: &str) -> (BTreeSet<String>, BTreeSet<u64>, i32) {
    let path = file.display().to_string();
    let mut args = vec!["check", &path, "--message-format", "json"];
    args.extend(header(text, "options").map(|o| o.split_whitespace().collect::<Vec<_>>()).unwrap_or_default());
    let r = kiln(&args);
    let diags: Vec<serde_json::Value> = r.stderr.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let codes = diags
        .iter()
        .filter(|d| d["severity"] == "error" || d["severity"] == "warning")
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect();
    let lines = diags
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["spans"][0]["line"].as_u64().unwrap_or(0))
        .collect();
    (codes, lines, r.code)
}

fn expected_codes(file: &Path, text: &str) -> BTreeSet<String> {
    header(text, "expect")
        .unwrap_or_else(|| panic!("{} has no `// expect:` line", file.display()))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn rejected_lines_get_their_diagnostics_on_that_line() {
    let files = kernels_in("reject");
    assert!(files.len() >= 70, "the checklist's REJECT lines are missing ({} found)", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let expected = expected_codes(f, &text);
        let marked = text.lines().position(|l| l.contains("// REJECT")).map(|i| i as u64 + 1);
        let marked = marked.unwrap_or_else(|| panic!("{}: no `// REJECT` line", f.display()));
        let (codes, lines, exit) = diagnose(f, &text);
        // A line the checklist rejects and kiln accepts with a warning is stated with that
        // warning's code alone (see the file's comment for why).
        let want_exit = if expected.iter().any(|c| c.starts_with('E')) { 1 } else { 0 };
        let on_line = lines.iter().all(|l| *l == marked);
        if codes != expected || exit != want_exit || !on_line {
            failures.push(format!(
                "{}: expected {expected:?} (exit {want_exit}) on line {marked}; got {codes:?} (exit {exit}) on lines {lines:?}",
                f.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every OpenCL C test kernel of the checklist, T01 to T24, is here in some form.
#[test]
fn every_checklist_kernel_is_covered() {
    let mut seen = BTreeSet::new();
    for sub in ["", "reject"] {
        for f in kernels_in(sub) {
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            seen.insert(name[1..3].parse::<u32>().unwrap_or_else(|_| panic!("{name}: not named tNN...")));
        }
    }
    let missing: Vec<u32> = (1..=24).filter(|t| !seen.contains(t)).collect();
    assert!(missing.is_empty(), "checklist kernels with no test: {missing:?}");
}

/// T21: the unroll hints reach the loop report: a factor of 2 on a `while` loop (which kiln
/// cannot unroll, and says so), full unrolling when no factor is given, and none for 1.
#[test]
fn unroll_hints_reach_the_loop_report() {
    let dir = scratch("checklist-t21");
    let source = tests_dir().join("checklist").join("t21_report.cl");
    let r = kiln(&["build", &source.display().to_string(), "-o", &dir.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let loops = report["kernels"][0]["loops"].as_array().unwrap();
    let at = |line: u32| {
        let prefix = format!("{}:{line}:", source.display());
        loops.iter().find(|l| l["location"].as_str().is_some_and(|s| s.starts_with(&prefix))).unwrap()
    };
    let notes = |l: &serde_json::Value| format!("{} {}", l["reason"], l["transformations"]);
    let text = std::fs::read_to_string(&source).unwrap();
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1;
    let copy = at(line_of("while (*s != 0)"));
    assert!(notes(copy).contains("unroll 2` not applied"), "{copy:#}");
    let full = at(line_of("i < 2;"));
    assert!(notes(full).contains("fully unrolled into 2 copies"), "{full:#}");
    let one = at(line_of("i < 32;"));
    assert!(notes(one).contains("not unrolled (unroll factor 1)"), "{one:#}");
}
