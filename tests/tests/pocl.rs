#![allow(clippy::unwrap_used)]
//! kiln's emulator against PoCL, a real OpenCL implementation: every corpus kernel runs on both
//! with the inputs its run spec describes, and every buffer must be equal afterwards (integers
//! exactly; floats within the ULP limit the kernel states with `// ulp: N`, 0 when it states
//! none, a NaN matching any NaN). `tests/pocl/pocl_host.c` is the OpenCL host; kernels PoCL
//! cannot run say so with a `// pocl: no (why)` line. The floating-point corpus
//! (`tests/float/`) runs here too: PoCL is its reference.

use kiln_tests::{Case, InputKind, corpus, emu_results, float_corpus, par_each, real_corpus, require_tool, scratch};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Builds the OpenCL host once; fails (never skips) when the OpenCL library or PoCL is missing.
fn build_host(dir: &Path) -> PathBuf {
    require_tool("gcc");
    let src = kiln_tests::tests_dir().join("pocl").join("pocl_host.c");
    let exe = dir.join("pocl_host");
    let out = std::process::Command::new("gcc")
        .args(["-O1", "-Wall", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lOpenCL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "building the OpenCL host failed (install ocl-icd-opencl-dev and pocl-opencl-icd; scripts/test.sh does):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        Path::new("/etc/OpenCL/vendors/pocl.icd").exists(),
        "PoCL is not installed (pocl-opencl-icd); scripts/test.sh installs it"
    );
    exe
}

/// The host's input for one corpus kernel.
fn host_input(case: &Case) -> String {
    let spec: toml::Table = toml::from_str(&std::fs::read_to_string(&case.spec).unwrap()).unwrap();
    let dir = case.source.parent().unwrap();
    // The kernel's language version when it states one (`// flags: -cl-std=CL2.0`).
    let std = case.flags().into_iter().find(|f| f.starts_with("-cl-std=")).unwrap_or_else(|| "-cl-std=CL3.0".into());
    let mut options = format!("{std} -I {}", dir.display());
    if let Some(toml::Value::Table(d)) = spec.get("defines") {
        for (k, v) in d {
            let _ = write!(options, " -D{k}={}", v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()));
        }
    }
    let sizes = |key: &str, default: u64| -> Vec<u64> {
        let mut v: Vec<u64> = spec
            .get(key)
            .and_then(|g| g.as_array())
            .map(|g| g.iter().map(|x| x.as_integer().unwrap() as u64).collect())
            .unwrap_or_else(|| vec![default]);
        v.resize(3, if default == 0 { 0 } else { 1 });
        v
    };
    let (global, local) = (sizes("global_size", 1), sizes("local_size", 0));
    let mut s = String::new();
    let _ = writeln!(s, "source {}", case.source.display());
    let _ = writeln!(s, "options {options}");
    let _ = writeln!(s, "kernel {}", spec["kernel"].as_str().unwrap());
    let _ = writeln!(s, "global {} {} {}", global[0], global[1], global[2]);
    let _ = writeln!(s, "local {} {} {}", local[0], local[1], local[2]);
    for input in kiln_tests::materialized_inputs(case).1 {
        match input.kind {
            InputKind::Buffer { width, signed, values, .. } => {
                let vals: Vec<String> = values.iter().map(i64::to_string).collect();
                let bytes = width.div_ceil(8);
                let _ =
                    writeln!(s, "buffer {} {bytes} {} {} {}", input.name, signed as u8, values.len(), vals.join(" "));
            }
            InputKind::Scalar { width, value } => {
                let _ = writeln!(s, "scalar {} {} {value}", input.name, width.div_ceil(8));
            }
            InputKind::Local { bytes } => {
                let _ = writeln!(s, "localmem {} {bytes}", input.name);
            }
            InputKind::Vector { width, values } => {
                let vals: Vec<String> = values.iter().map(i64::to_string).collect();
                let _ = writeln!(s, "vector {} {} {} {}", input.name, width.div_ceil(8), values.len(), vals.join(" "));
            }
        }
    }
    s
}

#[test]
fn corpus_matches_pocl() {
    let dir = scratch("corpus-pocl");
    let host = build_host(&dir);
    let mut cases: Vec<Case> = corpus()
        .into_iter()
        .chain(float_corpus())
        .chain(real_corpus())
        .filter(|c| !c.directive("pocl").is_some_and(|v| v.starts_with("no")))
        .collect();
    assert!(cases.len() >= 60, "PoCL must check at least 60 corpus kernels, found {}", cases.len());
    let floats = cases.iter().filter(|c| c.source.parent().is_some_and(|d| d.ends_with("float"))).count();
    assert!(floats >= 10, "PoCL must check the floating-point corpus, found {floats} kernels");
    // `KILN_ONLY=name` checks one kernel while it is being written.
    if let Ok(only) = std::env::var("KILN_ONLY") {
        cases.retain(|c| c.name == only);
        assert!(!cases.is_empty(), "no corpus kernel is named `{only}`");
    }
    let failures = std::sync::Mutex::new(Vec::new());
    par_each(&cases, |case| {
        if let Err(why) = std::panic::catch_unwind(|| check(case, &dir, &host)) {
            let msg = why.downcast_ref::<String>().cloned().unwrap_or_else(|| "panic".into());
            failures.lock().unwrap().push(msg);
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} kernel(s) differ from PoCL:\n{}", failures.len(), failures.join("\n"));
}

/// The distance in units in the last place between two binary32 values (0 for two NaNs).
fn ulps(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() { 0 } else { u64::MAX };
    }
    // Map the bit patterns onto a line where adjacent floats are adjacent integers.
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 { i64::from(i32::MIN) - i64::from(i) } else { i64::from(i) }
    };
    key(a).abs_diff(key(b))
}

fn kiln_float(v: &serde_json::Value) -> f32 {
    match v {
        serde_json::Value::String(s) if s == "nan" => f32::NAN,
        serde_json::Value::String(s) if s == "inf" => f32::INFINITY,
        serde_json::Value::String(s) if s == "-inf" => f32::NEG_INFINITY,
        other => other.as_f64().unwrap_or_else(|| panic!("not a float: {other}")) as f32,
    }
}

/// A `half` from kiln's results (a decimal that reads back as the value) and from PoCL's (its
/// bits), as `float`s: every `half` is exactly a `float`, so the ulp distance in `float`
/// between two halves is 0 exactly when they are equal.
fn kiln_half(v: &serde_json::Value) -> f32 {
    half::f16::from_f32(kiln_float(v)).to_f32()
}

fn check(case: &Case, dir: &Path, host: &Path) {
    let float_buffers: Vec<(String, u32)> = kiln_tests::materialized_inputs(case)
        .1
        .into_iter()
        .filter_map(|i| match i.kind {
            InputKind::Buffer { float: true, width, .. } => Some((i.name, width)),
            _ => None,
        })
        .collect();
    let limit: u64 = case.directive("ulp").map(|v| v.parse().unwrap()).unwrap_or(0);
    {
        let kiln = emu_results(case, dir);
        let kiln_args = &kiln["args"];
        let mut child = std::process::Command::new(host)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(host_input(case).as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}: PoCL failed:\n{}", case.name, String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let mut buffers = 0;
        // The kernel's `printf` output: the same lines as kiln's emulator prints, in any order
        // (the work-items of an NDRange run in an order each implementation chooses).
        let mut pocl_printed: Vec<&str> = text.lines().filter(|l| !l.starts_with('=')).collect();
        let kiln_text: String = kiln["printed"]
            .as_array()
            .map(|p| p.iter().filter_map(|x| x["text"].as_str()).collect())
            .unwrap_or_default();
        let mut kiln_printed: Vec<&str> = kiln_text.lines().collect();
        pocl_printed.sort_unstable();
        kiln_printed.sort_unstable();
        assert_eq!(kiln_printed, pocl_printed, "{}: `printf` printed other lines than in PoCL", case.name);
        for line in text.lines().filter_map(|l| l.strip_prefix('=')) {
            let mut w = line.split_whitespace();
            let name = w.next().unwrap();
            let expect: Vec<serde_json::Value> = w.map(|x| serde_json::from_str(x).unwrap()).collect();
            if kiln_args.get(name).is_none() {
                continue; // a `__constant` buffer: an input only, not in kiln's results
            }
            if let Some((_, width)) = float_buffers.iter().find(|(f, _)| f == name) {
                let got = kiln_args[name].as_array().unwrap();
                assert_eq!(got.len(), expect.len(), "{}: buffer `{name}` has another length", case.name);
                for (i, (k, p)) in got.iter().zip(&expect).enumerate() {
                    let bits = p.as_i64().unwrap();
                    let (k, p) = if *width == 16 {
                        (kiln_half(k), half::f16::from_bits(bits as u16).to_f32())
                    } else {
                        (kiln_float(k), f32::from_bits(bits as u32))
                    };
                    let d = ulps(k, p);
                    assert!(
                        d <= limit,
                        "{}: `{name}[{i}]` is {k:e} in kiln and {p:e} in PoCL: {d} ulp apart, the limit is {limit}",
                        case.name
                    );
                }
                buffers += 1;
                continue;
            }
            assert_eq!(
                kiln_args[name],
                serde_json::Value::Array(expect),
                "{}: buffer `{name}` differs from PoCL",
                case.name
            );
            buffers += 1;
        }
        assert!(buffers > 0, "{}: PoCL printed no buffers", case.name);
    }
}
