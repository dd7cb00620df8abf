#![allow(clippy::unwrap_used)]
//! The kernel corpus through every engine: the emulator, the cycle-accurate simulator and
//! Verilator must produce the same buffers, and the simulator and Verilator the same cycle
//! count, without and with random memory stalls, and with and without the e-graph phase (which
//! must never cost cycles). gcc, compiling the same kernels as C, is an
//! independent reference for the results.

use kiln_tests::{
    Case, agrees_without_and_with_stalls, corpus, cosim, emu_args, float_corpus, kiln, par_each, real_corpus,
    require_tool, result_args, scratch,
};
use std::fmt::Write as _;

#[test]
fn corpus_has_at_least_twenty_kernels() {
    assert!(corpus().len() >= 20, "the corpus must hold at least 20 kernels");
}

#[test]
fn corpus_agrees_in_all_engines_without_and_with_stalls() {
    require_tool("verilator");
    let dir = scratch("corpus-cosim");
    let cases = corpus();
    par_each(&cases, |case| {
        let emu = emu_args(case, &dir);
        let plain = cosim(case, &dir, &[], "plain");
        let stalled = cosim(case, &dir, &["--stall-seed", "7", "--mem-latency", "3"], "stall");
        let without_egraph = cosim(case, &dir, &["--no-egraph"], "no-egraph");
        assert_eq!(plain["args"], emu, "{}: Verilator outputs differ from the emulator", case.name);
        assert_eq!(stalled["args"], emu, "{}: outputs changed under stalls", case.name);
        assert_eq!(without_egraph["args"], emu, "{}: outputs without the e-graph phase differ", case.name);
        let (c0, c1) = (plain["cycles"].as_u64().unwrap_or(0), stalled["cycles"].as_u64().unwrap_or(0));
        assert!(c1 >= c0, "{}: stalls cannot make a kernel faster ({c1} < {c0})", case.name);
        let c2 = without_egraph["cycles"].as_u64().unwrap_or(0);
        assert!(c0 <= c2, "{}: the e-graph phase made the kernel slower ({c0} > {c2} cycles)", case.name);
    });
}

/// The floating-point corpus in hardware: the soft-float datapaths and kiln's math library
/// give the emulator's bits in the simulator and in Verilator, without and with stalls.
#[test]
fn float_corpus_agrees_in_all_engines_without_and_with_stalls() {
    require_tool("verilator");
    let dir = scratch("float-cosim");
    let cases = float_corpus();
    assert!(cases.len() >= 15, "the floating-point corpus has {} kernels", cases.len());
    par_each(&cases, |case| {
        let plain = cosim(case, &dir, &[], "plain");
        let stalled = cosim(case, &dir, &["--stall-seed", "11", "--mem-latency", "2"], "stall");
        // Under relaxed math the build chooses how many partial sums a float sum is split into
        // (from the adder's latency on the device), and `kiln cosim` runs its emulator on that
        // split; `kiln emu` alone sums in source order.
        let relaxed = case.flags().iter().any(|f| f == "-cl-fast-relaxed-math" || f == "-cl-unsafe-math-optimizations");
        let emu = if relaxed { plain["args"].clone() } else { emu_args(case, &dir) };
        assert_eq!(plain["args"], emu, "{}: Verilator outputs differ from the emulator", case.name);
        assert_eq!(stalled["args"], emu, "{}: outputs under stalls differ from the emulator", case.name);
        let (c0, c1) = (plain["cycles"].as_u64().unwrap_or(0), stalled["cycles"].as_u64().unwrap_or(0));
        assert!(c1 >= c0, "{}: stalls cannot make a kernel faster ({c1} < {c0})", case.name);
    });
}

/// The real-world corpus in hardware: kernels as vendor examples write them give the emulator's
/// results in the simulator and in Verilator, without and with stalls.
#[test]
fn real_corpus_agrees_in_all_engines_without_and_with_stalls() {
    require_tool("verilator");
    let dir = scratch("real-cosim");
    let cases = real_corpus();
    par_each(&cases, |case| agrees_without_and_with_stalls(case, &dir, "5", "3"));
}

/// `-cl-denorms-are-zero` in the emulator, the reference that the hardware is checked against
/// above: subnormal operands and results are zeros of their sign, and without the option they
/// are kept.
#[test]
fn denorms_are_zero_flushes_subnormal_operands_and_results() {
    let case = float_corpus().into_iter().find(|c| c.name == "flush_to_zero").expect("tests/float/flush_to_zero.cl");
    assert!(case.flags().contains(&"-cl-denorms-are-zero".to_string()));
    let dir = scratch("flush-to-zero");
    let bits = |v: &serde_json::Value, i: usize| (v["o"][i].as_f64().unwrap() as f32).to_bits();
    let flushed = emu_args(&case, &dir);
    let json = dir.join("kept.json");
    let r = kiln(&[
        "emu",
        &case.source.display().to_string(),
        "--spec",
        &case.spec.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let kept: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let kept = &kept["args"];
    // x[0] = 1e-40 (subnormal): times one, its square root, and a compare with 2^-130.
    assert_eq!(bits(&flushed, 0), 0, "a subnormal operand is +0");
    assert_eq!(bits(kept, 0), 1e-40f32.to_bits());
    assert_eq!(bits(&flushed, 3), 0);
    assert_ne!(bits(kept, 3), 0);
    assert_eq!((bits(&flushed, 4), bits(kept, 4)), (0, 1.0f32.to_bits()), "the constant 2^-130 is flushed too");
    // x[1] = -1e-40: the zero keeps the sign.
    assert_eq!(bits(&flushed, 5), 0x8000_0000, "a negative subnormal is -0");
    // x[2] = 2^-20: 2^-20 * 2^-110 is a subnormal result.
    assert_eq!(bits(&flushed, 11), 0, "a subnormal result is +0");
    assert_eq!(bits(kept, 11), 0x0008_0000, "2^-130 is kept without the option");
    assert_eq!(bits(&flushed, 10), 0x3580_0000, "normal values are unchanged");
}

/// Relaxed math in the loop report: a float sum is limited by the adder's recurrence without the
/// option, and the report names the float and the option; with it, the sum is split into
/// partial sums and the loop starts an iteration every cycle.
#[test]
fn relaxed_math_splits_a_float_sum_and_the_report_says_so() {
    let case = float_corpus().into_iter().find(|c| c.name == "relaxed_sum").expect("tests/float/relaxed_sum.cl");
    assert!(case.flags().contains(&"-cl-fast-relaxed-math".to_string()));
    let dir = scratch("relaxed-sum");
    let build = |flags: &[&str], tag: &str| {
        let out = dir.join(tag);
        let mut args =
            vec!["build".to_string(), case.source.display().to_string(), "-o".into(), out.display().to_string()];
        args.extend(flags.iter().map(|f| f.to_string()));
        let r = kiln(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        (r.stdout, report["kernels"][0].clone())
    };
    let (text, strict) = build(&[], "strict");
    let l = &strict["loops"][0];
    assert!(l["achieved_ii"].as_u64().unwrap() > 2, "the adder's latency limits the strict sum: {l:#}");
    assert_eq!(l["limited_by"]["kind"], "recurrence");
    assert!(text.contains("loop-carried float `acc`"), "{text}");
    assert!(l["suggestion"].as_str().unwrap().contains("-cl-fast-relaxed-math"), "{l:#}");
    let (text, relaxed) = build(&["-cl-fast-relaxed-math"], "relaxed");
    assert_eq!(relaxed["loops"][0]["achieved_ii"], 1, "{:#}", relaxed["loops"][0]);
    let applied = relaxed["loops"][0]["transformations"].as_array().unwrap();
    assert!(
        applied
            .iter()
            .any(|t| t.as_str().unwrap().contains("split into") && t.as_str().unwrap().contains("partial sums")),
        "the loop report lists the split: {applied:?}"
    );
    let split = relaxed["decisions"].as_array().unwrap().iter().find(|d| d["kind"] == "partial-sums").unwrap();
    assert_eq!(split["kept"], true, "{split}");
    assert!(text.contains("float sums split into"), "{text}");
}

/// Generates a C program that runs `case` on the inputs kiln materializes from its run spec.
fn c_program(case: &Case, emu_inputs: &serde_json::Value) -> String {
    let spec_text = std::fs::read_to_string(&case.spec).unwrap();
    let spec: toml::Table = toml::from_str(&spec_text).unwrap();
    let kernel = spec["kernel"].as_str().unwrap().to_string();
    // Parameter list from the kernel source, via kiln's front end.
    let mut opts = kiln_frontend::Options::default();
    if let Some(toml::Value::Table(d)) = spec.get("defines") {
        for (k, v) in d {
            opts.defines.push((k.clone(), Some(v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))));
        }
    }
    let mut sm = kiln_diagnostics::SourceMap::new();
    let file = sm.add(case.source.display().to_string(), Some(case.source.clone()), case.text.clone());
    let fe = kiln_frontend::check(sm, file, &kiln_frontend::pp::FsLoader, &opts);
    let prog = fe.program.expect("corpus kernels compile");
    let f = prog.func(prog.kernel_by_name(&kernel).unwrap());
    let mut c = String::new();
    for (n, v) in &opts.defines {
        let _ = writeln!(c, "#define {n} {}", v.as_deref().unwrap_or("1"));
    }
    let _ = writeln!(c, "#include \"{}\"", case.source.display());
    c.push_str("int printf(const char *, ...);\nint main(void) {\n");
    let mut call = Vec::new();
    let mut prints = Vec::new();
    for pid in &f.params {
        let p = f.local(*pid);
        let name = &p.name;
        match &p.ty {
            kiln_hir::types::Type::Pointer(pt) => {
                let s = pt.ty.scalar().unwrap();
                let cty = c_type(s);
                let vals = &emu_inputs[&**name];
                let items: Vec<String> = vals.as_array().unwrap().iter().map(|x| format!("({cty}){x}LL")).collect();
                let _ = writeln!(c, "  static {cty} buf_{name}[{}] = {{{}}};", items.len().max(1), items.join(", "));
                call.push(format!("buf_{name}"));
                if pt.space == kiln_hir::types::AddrSpace::Global {
                    prints.push((name.to_string(), items.len(), s.is_signed()));
                }
            }
            kiln_hir::types::Type::Scalar(s) => {
                let v = spec["args"][&**name].as_integer().unwrap();
                call.push(format!("({}){v}LL", c_type(*s)));
            }
            other => panic!("unexpected parameter type {other:?}"),
        }
    }
    // NDRange kernels without barriers: the work-items one after another (the shim's
    // work-item functions read these counters).
    let dims: Vec<i64> = spec
        .get("global_size")
        .and_then(|g| g.as_array())
        .map(|g| g.iter().map(|x| x.as_integer().unwrap()).collect())
        .unwrap_or_else(|| vec![1]);
    for (d, g) in dims.iter().enumerate() {
        let _ = writeln!(c, "  kiln_global_size[{d}] = {g};");
    }
    for (d, g) in dims.iter().enumerate() {
        let _ = writeln!(c, "  for (kiln_global_id[{d}] = 0; kiln_global_id[{d}] < {g}; kiln_global_id[{d}]++)");
    }
    let _ = writeln!(c, "  {kernel}({});", call.join(", "));
    for (name, len, signed) in prints {
        let fmt = if signed { "%lld" } else { "%llu" };
        let cast = if signed { "long long" } else { "unsigned long long" };
        let _ = writeln!(
            c,
            "  printf(\"{name}\");\n  for (int i = 0; i < {len}; i++) printf(\" {fmt}\", ({cast})buf_{name}[i]);\n  printf(\"\\n\");"
        );
    }
    c.push_str("  return 0;\n}\n");
    c
}

fn c_type(s: kiln_hir::types::Scalar) -> &'static str {
    use kiln_hir::types::Scalar::*;
    match s {
        Bool => "bool",
        I8 => "signed char",
        U8 => "unsigned char",
        I16 => "short",
        U16 => "unsigned short",
        I32 => "int",
        U32 => "unsigned int",
        I64 => "long",
        U64 => "unsigned long",
        _ => panic!("integer corpus only"),
    }
}

/// kiln's emulator against gcc compiling the same kernel as C (the inputs are the spec's
/// materialized buffers, which the emulator reports unchanged for read-only buffers).
#[test]
fn corpus_matches_gcc_reference() {
    require_tool("gcc");
    let dir = scratch("corpus-gcc");
    let shim = kiln_tests::tests_dir().join("c_reference").join("kiln_shim.h");
    let cases: Vec<Case> =
        corpus().into_iter().filter(|c| !c.directive("c-reference").is_some_and(|v| v.starts_with("no"))).collect();
    assert!(cases.len() >= 20, "the gcc reference must cover most of the corpus");
    par_each(&cases, |case| {
        // Inputs: run the emulator on a spec whose outputs are the inputs (kernel not run yet),
        // i.e. take the materialized buffers from a run with the kernel's own spec, then compare
        // results buffer by buffer.
        let inputs_json = dir.join(format!("{}-inputs.json", case.name));
        let r = kiln(&[
            "emu",
            &case.source.display().to_string(),
            "--spec",
            &case.spec.display().to_string(),
            "--json",
            &inputs_json.display().to_string(),
        ]);
        assert_eq!(r.code, 0, "{}: {}", case.name, r.stderr);
        let inputs = kiln_tests::materialized_inputs(case).0;
        let program = c_program(case, &inputs);
        let c_file = dir.join(format!("{}.c", case.name));
        std::fs::write(&c_file, program).unwrap();
        let exe = dir.join(&case.name);
        let out = std::process::Command::new("gcc")
            .args(["-std=gnu99", "-O1", "-w", "-include"])
            .arg(&shim)
            .arg(&c_file)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: gcc failed:\n{}", case.name, String::from_utf8_lossy(&out.stderr));
        let run = std::process::Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{}: the C reference crashed", case.name);
        let kiln_args = result_args(&inputs_json);
        for line in String::from_utf8_lossy(&run.stdout).lines() {
            let mut w = line.split_whitespace();
            let name = w.next().unwrap();
            let expect: Vec<serde_json::Value> = w.map(|x| serde_json::from_str(x).unwrap()).collect();
            assert_eq!(
                kiln_args[name],
                serde_json::Value::Array(expect),
                "{}: buffer `{name}` differs from gcc",
                case.name
            );
        }
    });
}

/// Every loop marked `// expect-loop: key=value ...` has that entry in the loop report of
/// `report.json` (e.g. `achieved_ii=1 rec_mii=2 pipelined=true`), and every pipelined loop of
/// the corpus reaches its MII unless its `ii_note` says why not.
#[test]
fn corpus_loop_reports_meet_expectations() {
    let dir = scratch("corpus-loops");
    let cases = corpus();
    let marked = cases.iter().filter(|c| !c.loop_expectations().is_empty()).count();
    assert!(marked >= 5, "the corpus must pin the loop report of its pipelining kernels");
    par_each(&cases, |case| {
        let out = dir.join(&case.name);
        let mut args =
            vec!["build".to_string(), case.source.display().to_string(), "-o".into(), out.display().to_string()];
        let spec: toml::Table = toml::from_str(&std::fs::read_to_string(&case.spec).unwrap()).unwrap();
        if let Some(toml::Value::Table(d)) = spec.get("defines") {
            for (k, v) in d {
                args.push(format!("-D{k}={}", v.as_str().unwrap_or("1")));
            }
        }
        args.extend(case.flags());
        let r = kiln(&args);
        assert_eq!(r.code, 0, "{}: build failed\n{}", case.name, r.stderr);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        let kernel = spec["kernel"].as_str().unwrap();
        let k = report["kernels"].as_array().unwrap().iter().find(|k| k["name"] == kernel).unwrap();
        let loops = k["loops"].as_array().unwrap();
        for l in loops {
            if l["pipelined"] == true && l["ii_note"].is_null() {
                assert_eq!(l["achieved_ii"], l["mii"], "{}: loop at {} misses its MII", case.name, l["location"]);
            }
        }
        for (line, kv) in case.loop_expectations() {
            let at = format!("{}:{line}:", case.source.display());
            let found: Vec<&serde_json::Value> =
                loops.iter().filter(|l| l["location"].as_str().is_some_and(|s| s.starts_with(&at))).collect();
            assert!(!found.is_empty(), "{}: no loop reported at line {line}; loops: {loops:#?}", case.name);
            // Several loops may come from one source loop (an unrolled loop and its remainder):
            // the first is the main one.
            let l = found[0];
            for (key, want) in kv {
                let got = match &l[&key] {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                assert_eq!(got, want, "{}: loop at line {line}: `{key}`; report: {l:#}", case.name);
            }
        }
    });
}
