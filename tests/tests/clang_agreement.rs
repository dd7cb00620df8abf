#![allow(clippy::unwrap_used)]
//! clang is the oracle of the OpenCL C language: for every kernel of the corpus and of the
//! negative corpus, kiln and clang (`-fsyntax-only`, OpenCL C 3.0, the `spir` target whose
//! `size_t` is 32 bits like kiln's) agree on whether the file is valid OpenCL C.
//!
//! - every corpus kernel (`tests/kernels/`) and every check-only conformance kernel
//!   (`tests/valid/`, which `kiln check` must accept) is valid: clang accepts it;
//! - a negative kernel whose codes are all "kiln does not build this (yet)" (`E05xx`) or
//!   hardware limits (`E06xx`) is valid OpenCL C that kiln rejects on purpose: clang accepts it;
//! - any other negative kernel breaks a language rule: clang rejects it.
//!
//! The deliberate differences are listed in [`DIFFERENCES`], each with the reason.

use kiln_tests::{corpus, kiln, par_each, require_tool, tests_dir};
use std::path::Path;

/// Negative kernels on which kiln and clang disagree on purpose.
const DIFFERENCES: &[(&str, &str)] = &[
    (
        "array_partition.cl",
        "clang ignores the Xilinx `xcl_array_partition` attribute, so it cannot see invalid arguments",
    ),
    ("enable_unsupported_ext.cl", "clang's `spir` target supports `cl_khr_fp64`; kiln's device does not"),
    ("float_increment.cl", "OpenCL C forbids `++` and `--` on floats (§6.5.3 of OpenCL C 1.2); clang accepts them"),
    ("long_long.cl", "OpenCL C reserves `long long` (§6.1.4); clang accepts it"),
    ("recursion.cl", "OpenCL C forbids recursion (§6.11); clang checks it only when generating code"),
    ("mutual_recursion.cl", "as recursion.cl"),
    (
        "program_scope_global.cl",
        "a program-scope `__global` pointer variable: clang's `spir` target allows it; kiln builds scalars and arrays of scalars only",
    ),
    (
        "printf_float_for_d.cl",
        "a `printf` argument that does not match its conversion is undefined (OpenCL C §6.15.14); clang warns (-Wformat), kiln refuses it",
    ),
    ("printf_missing_argument.cl", "too few `printf` arguments are undefined; clang warns, kiln refuses"),
    (
        "printf_format_not_literal.cl",
        "OpenCL C requires `printf`'s format to be a literal string (§6.15.14); clang accepts a `__constant char *`",
    ),
    ("reserved_vector_name.cl", "OpenCL C reserves `float5`-style names (§6.1.6); clang accepts them as identifiers"),
    (
        "pointer_from_int.cl",
        "initializing a pointer from an integer breaks a C99 constraint; clang 14 only warns (-Wint-conversion)",
    ),
    ("too_many_initializers.cl", "excess initializers break a C99 constraint; clang only warns"),
    ("bad_opencl_pragma.cl", "a malformed `#pragma OPENCL EXTENSION`: clang warns and ignores it, kiln rejects it"),
    (
        "variadic_macro_cl12.cl",
        "OpenCL C 1.2 does not support variadic macros (they came with 3.0); clang accepts them in 1.2",
    ),
    (
        "undefined_function.cl",
        "a function declared, called and never defined: clang leaves it to the linker, kiln builds one file",
    ),
];

fn clang_accepts(file: &Path, defines: &[String]) -> (bool, String) {
    let text = std::fs::read_to_string(file).unwrap();
    let std = text
        .lines()
        .find_map(|l| l.strip_prefix("// options:"))
        .and_then(|o| o.split_whitespace().find(|w| w.starts_with("-cl-std=")))
        .unwrap_or("-cl-std=CL3.0")
        .to_string();
    let mut cmd = std::process::Command::new("clang");
    cmd.args(["-x", "cl", &std, "-fsyntax-only", "-target", "spir", "-Xclang", "-finclude-default-header"]);
    if let Some(dir) = file.parent() {
        cmd.arg("-I").arg(dir);
    }
    cmd.args(defines).arg(file);
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run clang: {e}"));
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The check-only conformance kernels: valid OpenCL C that `kiln check` must accept.
fn valid_kernels() -> Vec<std::path::PathBuf> {
    let dir = tests_dir().join("valid");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

#[test]
fn kiln_accepts_the_valid_conformance_kernels() {
    let files = valid_kernels();
    let corpus = corpus().len() + kiln_tests::float_corpus().len();
    assert!(files.len() + corpus >= 100, "at least 100 valid kernels, found {} + {corpus}", files.len());
    let mut failures = Vec::new();
    for f in files {
        let r = kiln(&["check", &f.display().to_string()]);
        if r.code != 0 {
            failures.push(format!("{}: exit {}\n{}", f.display(), r.code, r.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `-D` options from a run spec's `defines` table.
fn spec_defines(spec: &Path) -> Vec<String> {
    let spec: toml::Table = toml::from_str(&std::fs::read_to_string(spec).unwrap()).unwrap();
    let Some(toml::Value::Table(d)) = spec.get("defines") else { return vec![] };
    d.iter()
        .map(|(k, v)| format!("-D{k}={}", v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
        .collect()
}

/// Whether every code is one kiln gives to valid OpenCL C (not built yet, or a hardware limit).
fn only_kiln_limits(codes: &[&str]) -> bool {
    codes.iter().all(|c| c.starts_with("E05") || c.starts_with("E06"))
}

#[test]
fn kiln_and_clang_agree_on_what_is_opencl_c() {
    require_tool("clang");
    let mut jobs: Vec<(String, std::path::PathBuf, Vec<String>, bool)> = Vec::new();
    for case in corpus() {
        let defines = spec_defines(&case.spec);
        jobs.push((format!("kernels/{}.cl", case.name), case.source.clone(), defines, true));
    }
    for case in kiln_tests::float_corpus() {
        let defines = spec_defines(&case.spec);
        jobs.push((format!("float/{}.cl", case.name), case.source.clone(), defines, true));
    }
    for f in valid_kernels() {
        let name = format!("valid/{}", f.file_name().unwrap().to_string_lossy());
        jobs.push((name, f, vec![], true));
    }
    let neg = tests_dir().join("negative");
    let mut files: Vec<_> = std::fs::read_dir(&neg).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let codes: Vec<&str> =
            text.lines().next().and_then(|l| l.strip_prefix("// expect:")).unwrap().split_whitespace().collect();
        let name = format!("negative/{}", f.file_name().unwrap().to_string_lossy());
        let valid = only_kiln_limits(&codes);
        jobs.push((name, f.clone(), vec![], valid));
    }
    assert!(jobs.len() >= 200, "the agreement test must cover the corpora, found {}", jobs.len());
    let failures = std::sync::Mutex::new(Vec::new());
    par_each(&jobs, |(name, file, defines, valid)| {
        let (accepted, log) = clang_accepts(file, defines);
        let expected = match DIFFERENCES.iter().find(|(n, _)| name.ends_with(n)) {
            Some(_) => !*valid,
            None => *valid,
        };
        if accepted != expected {
            let what = if expected { "clang rejects a kernel kiln" } else { "clang accepts a kernel kiln rejects as" };
            let kind = if *valid { "considers valid OpenCL C" } else { "invalid OpenCL C" };
            failures.lock().unwrap().push(format!("{name}: {what} {kind}\n{log}"));
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} disagreement(s) with clang:\n{}", failures.len(), failures.join("\n"));
}
