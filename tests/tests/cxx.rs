#![allow(clippy::unwrap_used)]
//! C++ kernels (`tests/cxx/`): every kernel through every engine, equal to its references.
//!
//! - every kernel: the emulator, the simulator and Verilator agree, without and with stalls;
//! - a kernel with an OpenCL C twin (`NAME.cl`, the same program written in OpenCL C, or the
//!   porting guide's OpenCL C form of its example) computes the twin's results, and both build
//!   the same hardware: the same loops in the report (initiation intervals, depths, trip
//!   counts) and the same cycle count;
//! - a kernel marked `// reference: g++` computes what g++ computes for it as C++17 (with
//!   `tests/c_reference/kiln_cxx_shim.hpp`): an independent reference for C++'s rules;
//! - clang (`-cl-std=clc++1.0 -fsyntax-only`) accepts every C++ for OpenCL kernel (those that
//!   do not use the `cl::` library, which clang lacks) and rejects every negative kernel
//!   (`tests/cxx/negative/`), which kiln refuses with the codes its first line names;
//! - the OpenCL C that `kiln check --emit-opencl` prints is a kernel kiln builds with the same
//!   results;
//! - a C++ kernel runs on the simulated board and becomes an iCE40 bitstream that meets its clock.

use kiln_tests::{
    Case, agrees_without_and_with_stalls, check_refused, cosim, cxx_corpus, emu_args, expected_codes, kiln,
    negative_kernels, par_each, require_tool, result_args, result_json, scratch, tests_dir,
};
use std::fmt::Write as _;

/// The OpenCL C twin of a C++ kernel, as a corpus case with the same run spec.
fn twin(case: &Case) -> Option<Case> {
    let source = case.source.with_extension("cl");
    source.exists().then(|| Case {
        name: format!("{}-twin", case.name),
        text: std::fs::read_to_string(&source).unwrap(),
        source,
        spec: case.spec.clone(),
    })
}

#[test]
fn cxx_corpus_covers_the_language() {
    let cases = cxx_corpus();
    assert!(cases.len() >= 20, "the C++ corpus has {} kernels", cases.len());
    let twins = cases.iter().filter(|c| twin(c).is_some()).count();
    assert!(twins >= 10, "{twins} C++ kernels have an OpenCL C twin");
    let text: String = cases.iter().map(|c| c.text.as_str()).collect();
    for feature in [
        "template",
        "namespace",
        "operator",
        "constexpr",
        "static_assert",
        "auto",
        "using",
        "enum class",
        "[&",
        "[=",
        "class",
        "cl::array",
        "cl::local",
        "work_group_barrier",
        "global_ptr",
        "private:",
        "explicit",
    ] {
        assert!(text.contains(feature), "no C++ corpus kernel uses `{feature}`");
    }
}

#[test]
fn cxx_corpus_agrees_in_all_engines_without_and_with_stalls() {
    require_tool("verilator");
    let dir = scratch("cxx-cosim");
    let cases = cxx_corpus();
    par_each(&cases, |case| agrees_without_and_with_stalls(case, &dir, "3", "2"));
}

/// The loops of a build's report, as comparable values (no source locations or names).
fn loop_shapes(report: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for k in report["kernels"].as_array().unwrap() {
        for l in k["loops"].as_array().unwrap() {
            out.push(format!(
                "pipelined={} ii={} mii={} depth={} trip={}",
                l["pipelined"], l["achieved_ii"], l["mii"], l["depth"], l["trip_count"]
            ));
        }
    }
    // Loops are listed in source order, which differs when a C++ helper defines its loops
    // above the kernel.
    out.sort();
    out
}

fn build_report(source: &std::path::Path, dir: &std::path::Path, tag: &str, flags: &[String]) -> serde_json::Value {
    let out = dir.join(tag);
    let mut args = vec!["build".to_string(), source.display().to_string(), "-o".into(), out.display().to_string()];
    args.extend(flags.iter().cloned());
    let r = kiln(&args);
    assert_eq!(r.code, 0, "{tag}: build failed\n{}", r.stderr);
    serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap()
}

#[test]
fn cxx_kernels_equal_their_opencl_c_twins_and_build_the_same_hardware() {
    require_tool("verilator");
    let dir = scratch("cxx-twins");
    let cases: Vec<Case> = cxx_corpus().into_iter().filter(|c| twin(c).is_some()).collect();
    par_each(&cases, |case| {
        let t = twin(case).unwrap();
        assert_eq!(emu_args(case, &dir), emu_args(&t, &dir), "{}: results differ from the OpenCL C twin", case.name);
        let a = build_report(&case.source, &dir, &case.name, &case.flags());
        let b = build_report(&t.source, &dir, &t.name, &case.flags());
        assert_eq!(loop_shapes(&a), loop_shapes(&b), "{}: the loop reports differ from the twin's", case.name);
        let ca = cosim(case, &dir, &[], "twin-cycles");
        let cb = cosim(&t, &dir, &[], "twin-cycles");
        assert_eq!(ca["cycles"], cb["cycles"], "{}: cycles differ from the OpenCL C twin", case.name);
    });
}

/// A C++ program that runs `case` on the inputs of its run spec and prints every global buffer.
fn gpp_program(case: &Case, inputs: &[kiln_tests::Inputs], kernel: &str) -> String {
    let mut c = String::new();
    let _ = writeln!(c, "#include \"{}\"", case.source.display());
    c.push_str("#include <cstdio>\nint main() {\n");
    let mut call = Vec::new();
    let mut prints = Vec::new();
    for inp in inputs {
        match &inp.kind {
            kiln_tests::InputKind::Buffer { width, signed, float, values } => {
                assert!(!float, "{}: the g++ reference covers integer kernels", case.name);
                let ty = match (width, signed) {
                    (8, true) => "signed char",
                    (8, false) => "unsigned char",
                    (16, true) => "short",
                    (16, false) => "unsigned short",
                    (32, true) => "int",
                    (32, false) => "unsigned int",
                    (64, true) => "long",
                    _ => "unsigned long",
                };
                let items: Vec<String> = values.iter().map(|v| format!("({ty}){v}LL")).collect();
                let _ =
                    writeln!(c, "  static {ty} buf_{}[{}] = {{{}}};", inp.name, items.len().max(1), items.join(", "));
                call.push(format!("buf_{}", inp.name));
                prints.push((inp.name.clone(), items.len(), *signed));
            }
            kiln_tests::InputKind::Scalar { value, .. } => call.push(format!("{value}LL")),
            _ => panic!("{}: the g++ reference covers buffers and scalars", case.name),
        }
    }
    let _ = writeln!(c, "  {kernel}({});", call.join(", "));
    for (name, len, signed) in prints {
        let (fmt, cast) = if signed { ("%lld", "long long") } else { ("%llu", "unsigned long long") };
        let _ = writeln!(
            c,
            "  printf(\"{name}\");\n  for (int i = 0; i < {len}; i++) printf(\" {fmt}\", ({cast})buf_{name}[i]);\n  printf(\"\\n\");"
        );
    }
    c.push_str("  return 0;\n}\n");
    c
}

#[test]
fn cxx_kernels_match_the_gpp_reference() {
    require_tool("g++");
    let dir = scratch("cxx-gpp");
    let shim = tests_dir().join("c_reference").join("kiln_cxx_shim.hpp");
    let cases: Vec<Case> =
        cxx_corpus().into_iter().filter(|c| c.directive("reference").as_deref() == Some("g++")).collect();
    assert!(cases.len() >= 8, "{} C++ kernels are checked against g++", cases.len());
    par_each(&cases, |case| {
        let spec: toml::Table = toml::from_str(&std::fs::read_to_string(&case.spec).unwrap()).unwrap();
        let kernel = spec["kernel"].as_str().unwrap().to_string();
        let (_, inputs) = kiln_tests::materialized_inputs(case);
        let file = dir.join(format!("{}.cpp", case.name));
        std::fs::write(&file, gpp_program(case, &inputs, &kernel)).unwrap();
        let exe = dir.join(&case.name);
        let out = std::process::Command::new("g++")
            .args(["-std=c++17", "-O1", "-w", "-fwrapv", "-include"])
            .arg(&shim)
            .arg(&file)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: g++ failed:\n{}", case.name, String::from_utf8_lossy(&out.stderr));
        let run = std::process::Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{}: the g++ reference crashed", case.name);
        let got = emu_args(case, &dir);
        for line in String::from_utf8_lossy(&run.stdout).lines() {
            let mut w = line.split_whitespace();
            let name = w.next().unwrap();
            let expect: Vec<serde_json::Value> = w.map(|x| serde_json::from_str(x).unwrap()).collect();
            assert_eq!(got[name], serde_json::Value::Array(expect), "{}: buffer `{name}` differs from g++", case.name);
        }
    });
}

fn clang_cxx(file: &std::path::Path) -> std::process::Output {
    std::process::Command::new("clang")
        .args([
            "-x",
            "clcpp",
            "-cl-std=clc++1.0",
            "-fsyntax-only",
            "-target",
            "spir",
            "-Xclang",
            "-finclude-default-header",
        ])
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn clang_accepts_every_cxx_for_opencl_kernel() {
    require_tool("clang");
    let cases: Vec<Case> = cxx_corpus().into_iter().filter(|c| !c.text.contains("#include <opencl_")).collect();
    assert!(cases.len() >= 10, "{} C++ for OpenCL kernels are checked by clang", cases.len());
    par_each(&cases, |case| {
        let out = clang_cxx(&case.source);
        assert!(out.status.success(), "{}: clang rejects it:\n{}", case.name, String::from_utf8_lossy(&out.stderr));
    });
}

#[test]
fn cxx_negative_kernels_give_their_codes_and_clang_rejects_them() {
    require_tool("clang");
    let dir = tests_dir().join("cxx").join("negative");
    let files = negative_kernels(&dir);
    assert!(files.len() >= 12, "{} C++ negative kernels", files.len());
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expected = expected_codes(&f, &text);
        failures.extend(check_refused(&f, &[], &expected));
        // clang is the oracle of validity, except for what kiln does not build yet (E1106),
        // and for the library kernels clang cannot read.
        // A line `// clang: accepts (why)` marks a rule clang checks only when generating code.
        let kiln_only = expected.iter().all(|c| c == "E1106" || c.starts_with("E05"))
            || text.contains("#include <opencl_")
            || text.lines().any(|l| l.starts_with("// clang: accepts ("));
        if !kiln_only && clang_cxx(&f).status.success() {
            failures.push(format!("{}: clang accepts it, but it breaks a rule of the language", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn emitted_opencl_c_builds_with_the_same_results() {
    let dir = scratch("cxx-emit");
    let cases = cxx_corpus();
    par_each(&cases, |case| {
        let r = kiln(&["check", "--emit-opencl", &case.source.display().to_string()]);
        assert_eq!(r.code, 0, "{}: {}", case.name, r.stderr);
        let cl = dir.join(format!("{}.cl", case.name));
        std::fs::write(&cl, &r.stdout).unwrap();
        let lowered = Case {
            name: format!("{}-lowered", case.name),
            source: cl.clone(),
            spec: case.spec.clone(),
            text: r.stdout.clone(),
        };
        let mut args = vec![
            "emu".to_string(),
            cl.display().to_string(),
            "--spec".into(),
            case.spec.display().to_string(),
            "-cl-std=CL2.0".into(),
        ];
        let json = dir.join(format!("{}-lowered.json", case.name));
        args.extend(["--json".into(), json.display().to_string()]);
        let run = kiln(&args);
        assert_eq!(run.code, 0, "{}: the emitted OpenCL C does not run:\n{}\n{}", case.name, run.stderr, r.stdout);
        assert_eq!(
            result_args(&json),
            emu_args(case, &dir),
            "{}: the emitted OpenCL C computes something else",
            lowered.name
        );
    });
}

/// A C++ kernel on a board: `kiln run-board --simulate` runs the board top level (the host
/// bridge and the kernel) in Verilator and reads back what the emulator computes.
#[test]
fn a_cxx_kernel_runs_on_the_simulated_board() {
    require_tool("verilator");
    let dir = scratch("cxx-board");
    let case = cxx_corpus().into_iter().find(|c| c.name == "fir_filter").unwrap();
    let json = dir.join("board.json");
    let r = kiln(&[
        "run-board",
        &case.source.display().to_string(),
        "--spec",
        &case.spec.display().to_string(),
        "--board",
        "icebreaker",
        "--simulate",
        "--json",
        &json.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(result_args(&json), emu_args(&case, &dir), "the board's results differ from the emulator's");
}

/// The same C++ kernel through synthesis, place and route to an iCE40 configuration image that
/// meets the board's clock.
#[test]
fn a_cxx_kernel_becomes_an_ice40_bitstream() {
    // (icepack has no version flag: without it the command itself fails.)
    for tool in ["yosys", "nextpnr-ice40"] {
        require_tool(tool);
    }
    let dir = scratch("cxx-bitstream");
    let case = cxx_corpus().into_iter().find(|c| c.name == "fir_filter").unwrap();
    let out = dir.join("fir_filter");
    let r = kiln(&[
        "bitstream",
        &case.source.display().to_string(),
        "--board",
        "icebreaker",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let summary = result_json(&out.join("summary.json"));
    assert_eq!(summary["board"], "icebreaker");
    assert_eq!(summary["timing_met"], true, "{summary}");
    assert!(summary["fmax_mhz"].as_f64().is_some_and(|f| f > 12.0), "{summary}");
    // The kernel half of the netlist holds the filter's logic, not a black box.
    let netlist = result_json(&out.join("top.json"));
    let kernel = &netlist["modules"]["kiln_board_kernel"];
    assert!(kernel["attributes"].get("blackbox").is_none(), "the kernel is still a black box");
    let luts = kernel["cells"].as_object().map_or(0, |c| c.values().filter(|c| c["type"] == "SB_LUT4").count());
    assert!(luts > 100, "the kernel half has {luts} LUTs");
    // An UP5K configuration image is 104090 bytes.
    assert_eq!(std::fs::metadata(out.join("kiln.bin")).map(|m| m.len()).unwrap_or(0), 104090);
}
