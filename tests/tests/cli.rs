#![allow(clippy::unwrap_used)]
//! Bad input to the `kiln` command: clear diagnostics, non-zero exits, nothing written, no panic.

use kiln_tests::{kiln, scratch, tests_dir};

fn vadd() -> String {
    tests_dir().join("kernels").join("vadd.cl").display().to_string()
}

fn spec(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn expect_error(args: &[&str], code: &str) -> String {
    let r = kiln(args);
    assert_eq!(r.code, 1, "{args:?} should fail:\n{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(&format!("[{code}]")), "{args:?}: expected {code}:\n{}", r.stderr);
    r.stderr
}

#[test]
fn missing_file() {
    expect_error(&["check", "/nonexistent/k.cl"], "E0001");
    expect_error(&["build", "/nonexistent/k.cl"], "E0001");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kiln(&["frobnicate"]).code, 2);
    assert_eq!(kiln(&["sim", &vadd()]).code, 2, "--spec is required");
    assert_eq!(kiln(&["--version"]).code, 0);
}

#[test]
fn unknown_kernel_points_into_the_spec() {
    let d = scratch("cli-unknown-kernel");
    let s = spec(&d, "s.toml", "kernel = \"vsub\"\n[args]\n");
    let err = expect_error(&["emu", &vadd(), "--spec", &s], "E0002");
    assert!(err.contains("s.toml:1:10") && err.contains("kernels in the file: vadd"), "{err}");
}

#[test]
fn spec_argument_problems() {
    let d = scratch("cli-spec-args");
    let ok_args = "a = { len = 4 }\nb = { len = 4 }\nc = { len = 4 }\nn = 4\n";
    let missing = spec(&d, "missing.toml", "kernel = \"vadd\"\n[args]\na = { len = 4 }\nb = { len = 4 }\nn = 4\n");
    expect_error(&["emu", &vadd(), "--spec", &missing], "E0802");
    let extra = spec(&d, "extra.toml", &format!("kernel = \"vadd\"\n[args]\n{ok_args}m = 3\n"));
    expect_error(&["emu", &vadd(), "--spec", &extra], "E0803");
    let shape =
        spec(&d, "shape.toml", "kernel = \"vadd\"\n[args]\na = 4\nb = { len = 4 }\nc = { len = 4 }\nn = { len = 1 }\n");
    let err = expect_error(&["sim", &vadd(), "--spec", &shape], "E0804");
    assert!(err.matches("E0804").count() == 2, "both bad arguments are reported:\n{err}");
    let range = spec(
        &d,
        "range.toml",
        "kernel = \"vadd\"\n[args]\na = { data = [1, 2, 3000000000] }\nb = { len = 4 }\nc = { len = 4 }\nn = 4\n",
    );
    expect_error(&["emu", &vadd(), "--spec", &range], "E0804");
    let fill = spec(
        &d,
        "fill.toml",
        "kernel = \"vadd\"\n[args]\na = { len = 4, fill = \"random\", min = 5, max = 1 }\nb = { len = 4 }\nc = { len = 4 }\nn = 4\n",
    );
    expect_error(&["emu", &vadd(), "--spec", &fill], "E0805");
    let launch = spec(&d, "launch.toml", &format!("kernel = \"vadd\"\nglobal_size = [64]\n[args]\n{ok_args}"));
    expect_error(&["emu", &vadd(), "--spec", &launch], "E0806");
    let toml_err = spec(&d, "syntax.toml", "kernel = \"vadd\"\n[args\n");
    expect_error(&["emu", &vadd(), "--spec", &toml_err], "E0801");
    let unknown = spec(&d, "unknown.toml", "kernel = \"vadd\"\nglobal = 1\n");
    expect_error(&["emu", &vadd(), "--spec", &unknown], "E0801");
}

/// A `__local` pointer argument takes its size, and no more than its `local_mem_size` allows.
#[test]
fn local_pointer_arguments_need_a_size_that_fits() {
    let d = scratch("cli-local-args");
    let k = tests_dir().join("kernels").join("local_args.cl").display().to_string();
    let base = "kernel = \"local_args\"\nglobal_size = [8]\n[args]\nin = { len = 8 }\nout = { len = 24 }\n";
    let too_big = spec(
        &d,
        "big.toml",
        &format!("{base}tile = {{ local = 8 }}\nrev = {{ local = 8 }}\ncount = {{ local = 17 }}\n"),
    );
    let err = expect_error(&["emu", &k, "--spec", &too_big], "E0804");
    assert!(
        err.contains("asks for 17 elements") && err.contains("gives it 16") && err.contains("big.toml:8:9"),
        "{err}"
    );
    let data =
        spec(&d, "data.toml", &format!("{base}tile = {{ len = 8 }}\nrev = {{ local = 8 }}\ncount = {{ local = 1 }}\n"));
    let err = expect_error(&["sim", &k, "--spec", &data], "E0804");
    assert!(err.contains("give its size in elements: `{ local = N }`"), "{err}");
    let buffer = spec(
        &d,
        "buffer.toml",
        &format!("{base}tile = {{ local = 8 }}\nrev = {{ local = 8 }}\ncount = {{ local = 1 }}\n")
            .replace("in = { len = 8 }", "in = { local = 8 }"),
    );
    expect_error(&["emu", &k, "--spec", &buffer], "E0804");
}

#[test]
fn buffer_too_small_is_reported_with_the_source_line_in_every_engine() {
    let d = scratch("cli-oob");
    let s =
        spec(&d, "small.toml", "kernel = \"vadd\"\n[args]\na = { len = 8 }\nb = { len = 8 }\nc = { len = 5 }\nn = 8\n");
    for cmd in ["emu", "sim", "cosim"] {
        let err = expect_error(&[cmd, &vadd(), "--spec", &s], "E0901");
        assert!(err.contains("`c[5]`") && err.contains("vadd.cl:4:9"), "{cmd}: {err}");
    }
}

#[test]
fn cycle_limit() {
    let d = scratch("cli-cycles");
    let s = spec(
        &d,
        "limit.toml",
        "kernel = \"vadd\"\nmax_cycles = 50\n[args]\na = { len = 64 }\nb = { len = 64 }\nc = { len = 64 }\nn = 64\n",
    );
    expect_error(&["sim", &vadd(), "--spec", &s], "E0902");
}

#[test]
fn build_writes_nothing_on_error() {
    let d = scratch("cli-build-error");
    let bad = d.join("bad.cl");
    std::fs::write(&bad, "kernel void k(global float *x) {\n    x[0] = tgamma(x[1]);\n}\n").unwrap();
    let out = d.join("out");
    let stderr = expect_error(&["build", &bad.display().to_string(), "-o", &out.display().to_string()], "E0502");
    assert!(!out.exists(), "no output directory after a failed build");
    // The diagnostic points at the float function kiln has no hardware for and says what runs it.
    assert!(stderr.contains("bad.cl:2:12"), "{stderr}");
    assert!(stderr.contains("ftgamma") && stderr.contains("kiln emu"), "{stderr}");
    // The emulator runs the same kernel.
    let spec = d.join("bad.toml");
    std::fs::write(&spec, "kernel = \"k\"\n[args]\nx = { data = [0, 1.5] }\n").unwrap();
    let r = kiln(&["emu", &bad.display().to_string(), "--spec", &spec.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("x = [0.88622695, 1.5]"), "{}", r.stdout);
}

#[test]
fn bad_options() {
    expect_error(&["build", &vadd(), "--target", "fpga9000"], "E0004");
    expect_error(&["check", &vadd(), "-cl-std=CL9.9"], "E0004");
    // C++ for OpenCL 1.0 is accepted (the vector addition is C++ too); 2021 is not.
    for cxx in ["-cl-std=CLC++", "-cl-std=clc++1.0", "-cl-std=c++"] {
        let r = kiln(&["check", &vadd(), cxx]);
        assert_eq!(r.code, 0, "{cxx}: {}", r.stderr);
    }
    expect_error(&["check", &vadd(), "-cl-std=clc++2021"], "E0004");
    // `--emit-opencl` prints what a C++ file lowers to; an OpenCL C file has nothing to print.
    expect_error(&["check", "--emit-opencl", &vadd()], "E0004");
    let cxx = tests_dir().join("cxx").join("lambdas.clcpp").display().to_string();
    let r = kiln(&["check", "--emit-opencl", &cxx]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("__kernel void lambdas("), "{}", r.stdout);
    let r = kiln(&["check", &vadd(), "-cl-std=CL1.2", "-DFOO=1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn explain_codes() {
    let r = kiln(&["explain", "E0401"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("recursion"));
    assert_eq!(kiln(&["explain", "E9999"]).code, 1);
}

/// `report.json` has the fields `docs/report.md` documents, at its schema version, and the
/// e-graph phase's decision on a kernel it rewrites; a system's report names its FIFOs.
#[test]
fn the_build_report_follows_its_documented_schema() {
    let d = scratch("cli-report-schema");
    let r = kiln(&[
        "build",
        &tests_dir().join("kernels").join("fir.cl").display().to_string(),
        "-o",
        &d.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["schema_version"], 1);
    for field in ["kiln_version", "source", "target", "clock_mhz", "kernels", "system"] {
        assert!(report.get(field).is_some(), "no `{field}`: {report:#}");
    }
    let k = &report["kernels"][0];
    for field in [
        "name",
        "target",
        "clock_mhz",
        "scalar_args",
        "ports",
        "states",
        "blocks",
        "loops",
        "transformations",
        "on_chip_memories",
        "resources",
        "timing",
        "decisions",
    ] {
        assert!(k.get(field).is_some(), "kernel has no `{field}`: {k:#}");
    }
    let decision = &k["decisions"][0];
    assert_eq!(decision["kind"], "egraph", "{k:#}");
    assert_eq!(decision["kept"], true, "{decision:#}");
    assert!(decision["estimated_area_after"].as_f64() < decision["estimated_area_before"].as_f64(), "{decision:#}");
    let chain = tests_dir().join("systems").join("chain_intel.cl");
    let d = scratch("cli-report-schema-system");
    let r = kiln(&["build", &chain.display().to_string(), "-o", &d.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap();
    let fifo = &report["system"]["fifos"][0];
    for field in ["pipe", "width", "depth", "storage", "writer", "reader"] {
        assert!(fifo.get(field).is_some(), "FIFO has no `{field}`: {report:#}");
    }
    assert_eq!(report["system"]["top"], "kiln_system");
}
