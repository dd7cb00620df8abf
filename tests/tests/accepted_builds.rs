#![allow(clippy::unwrap_used)]
//! Whatever integer program the front end accepts, kiln builds in hardware or refuses with one
//! of the diagnostics the README lists for what it does not build yet: every kernel of every
//! valid corpus (`kernels/`, `valid/`, `checklist/`, `systems/`, `float/`) goes through
//! `kiln build` (with its run spec's macros and work-group size when it has a spec), and must
//! either produce Verilog or fail only with `E0502` (floating point in hardware, `double`,
//! `half` arithmetic). The mutation test in `robustness.rs` covers the programs in between.

use kiln_tests::{kiln, par_each, scratch, tests_dir};
use std::path::PathBuf;

/// Codes of "kiln does not build this yet" that a valid kernel may get from `kiln build`
/// (README, "What kiln builds today").
const NOT_YET: &[&str] = &["E0502"];

fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["kernels", "valid", "checklist", "systems", "float"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(tests_dir().join(dir))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cl"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// `-D` and `--local-size` options from the kernel's run spec, when it has one.
fn spec_options(source: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(source.with_extension("toml")) else { return vec![] };
    let spec: toml::Value = toml::from_str(&text).unwrap();
    let mut out = Vec::new();
    if let Some(defines) = spec.get("defines").and_then(|d| d.as_table()) {
        for (k, v) in defines {
            out.push("-D".to_string());
            out.push(format!("{k}={}", v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())));
        }
    }
    if let Some(l) = spec.get("local_size").and_then(|l| l.as_array()) {
        let dims: Vec<String> = l.iter().map(|x| x.to_string()).collect();
        out.push("--local-size".to_string());
        out.push(dims.join(","));
    }
    out
}

fn codes(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("error["))
        .filter_map(|l| l.split(']').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_accepted_kernel_builds_or_gets_a_listed_diagnostic() {
    let files = sources();
    assert!(files.len() > 150, "the valid corpora");
    let out = scratch("accepted-builds");
    let built = std::sync::atomic::AtomicUsize::new(0);
    par_each(&files, |source| {
        let src = source.display().to_string();
        let check = kiln(&["check", &src]);
        let options = spec_options(source);
        let dir = out.join(source.file_stem().unwrap());
        let mut args = vec!["build".to_string(), src.clone(), "-o".to_string(), dir.display().to_string()];
        args.extend(options.iter().cloned());
        if !options.iter().any(|o| o == "--local-size") {
            // NDRange kernels with barriers need a work-group size; any will do here.
            args.extend(["--local-size".to_string(), "4".to_string()]);
        }
        let r = kiln(&args);
        if r.code == 0 {
            built.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return;
        }
        let found = codes(&r.stderr);
        // A kernel that needs its spec's macros to be checked at all (`#error` without them)
        // is judged by the build with them.
        assert!(
            !found.is_empty() && found.iter().all(|c| NOT_YET.contains(&c.as_str())),
            "{src}: `kiln check` {} it, but `kiln build` fails with {found:?}:\n{}",
            if check.code == 0 { "accepts" } else { "needs the spec's macros for" },
            r.stderr
        );
    });
    let built = built.load(std::sync::atomic::Ordering::Relaxed);
    assert!(built > 120, "only {built} kernels built");
}
