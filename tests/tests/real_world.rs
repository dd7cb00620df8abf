#![allow(clippy::unwrap_used)]
//! What kernels written for other FPGA tools need beyond the corpus runs (`tests/real/` goes
//! through every engine and PoCL in `corpus.rs` and `pocl.rs`): one build of an NDRange kernel
//! without a required work-group size serving launches of different sizes, and `printf` in
//! each engine.

use kiln_tests::{kiln, require_tool, scratch, tests_dir, write_kernel_and_spec};
use serde_json::Value;

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

/// The partial sums of `in` per work-group of `local` work-items.
fn group_sums(input: &[i64], local: usize) -> Vec<i64> {
    input.chunks(local).map(|c| c.iter().sum()).collect()
}

#[test]
fn one_build_serves_work_groups_of_every_size_up_to_its_maximum() {
    require_tool("verilator");
    let dir = scratch("run-time-local-size");
    let source = tests_dir().join("real").join("reduce_any_group.cl");
    let text = std::fs::read_to_string(&source).unwrap();
    for local in [8usize, 16, 32, 64] {
        let groups = 128 / local;
        let spec = format!(
            "kernel = \"reduce_any_group\"\nglobal_size = [128]\nlocal_size = [{local}]\n[args]\n\
             in = {{ len = 128, fill = \"random\", seed = 3, min = -500, max = 500 }}\n\
             partial = {{ len = {groups} }}\nspread = {{ len = 128 }}\nscratch = {{ local = 64 }}\n"
        );
        let (k, s) = write_kernel_and_spec(&dir, &format!("reduce{local}"), &text, &spec);
        let json = dir.join(format!("reduce{local}.json"));
        let r = kiln(&["cosim", k.to_str().unwrap(), "--spec", s.to_str().unwrap(), "--json", json.to_str().unwrap()]);
        assert_eq!(r.code, 0, "local size {local}: {}{}", r.stdout, r.stderr);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let input = ints(&v["args"]["in"]);
        assert_eq!(ints(&v["args"]["partial"]), group_sums(&input, local), "local size {local}");
        let spread = ints(&v["args"]["spread"]);
        for (i, x) in input.iter().enumerate() {
            assert_eq!(spread[i], x * x - group_sums(&input, local)[i / local], "work-item {i}, local size {local}");
        }
    }
    // The hardware is the same for every launch: the work-group size is one of its inputs.
    let out = dir.join("build");
    let r = kiln(&["build", source.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = std::fs::read_to_string(out.join("reduce_any_group.v")).unwrap();
    assert!(v.contains("launch_local_size0"), "the work-group size is an input of the hardware");
    assert!(r.stdout.contains("its size an input at run time, at most 64 work-items"), "{}", r.stdout);
}

#[test]
fn a_launch_larger_than_the_maximum_work_group_is_refused() {
    let dir = scratch("run-time-local-size-too-large");
    let text = std::fs::read_to_string(tests_dir().join("real").join("reduce_any_group.cl")).unwrap();
    let spec = "kernel = \"reduce_any_group\"\nglobal_size = [256]\nlocal_size = [128]\n[args]\n\
                in = { len = 256 }\npartial = { len = 2 }\nspread = { len = 256 }\nscratch = { local = 128 }\n";
    let (k, s) = write_kernel_and_spec(&dir, "too_large", &text, spec);
    let r = kiln(&["sim", k.to_str().unwrap(), "--spec", s.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("E0607") && r.stderr.contains("at most 64"), "{}", r.stderr);
}

#[test]
fn a_kernel_without_any_work_group_size_builds_for_the_default_maximum() {
    let dir = scratch("no-work-group-size");
    let text = "__kernel void sums(__global const int *in, __global int *out, __local int *t) {\n\
                int l = get_local_id(0);\n t[l] = in[get_global_id(0)];\n barrier(CLK_LOCAL_MEM_FENCE);\n\
                if (l == 0) { int s = 0; for (int i = 0; i < get_local_size(0); i++) s += t[i]; out[get_group_id(0)] = s; }\n}\n";
    let (k, _) = write_kernel_and_spec(&dir, "sums", text, "kernel = \"sums\"\n");
    let out = dir.join("build");
    let r = kiln(&["build", k.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("at most 256 work-items"), "{}", r.stdout);
    let r = kiln(&["build", k.to_str().unwrap(), "-o", out.to_str().unwrap(), "--max-work-group-size", "32"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("at most 32 work-items"), "{}", r.stdout);
}

#[test]
fn printf_prints_in_the_emulator_and_with_its_cycle_in_the_simulator() {
    let dir = scratch("printf-engines");
    let text = "__kernel void p(__global const int *a, __global int *o) {\n\
                int s = 0;\n for (int i = 0; i < 4; i++) { s += a[i]; printf(\"i=%d s=%04x\\n\", i, s); }\n o[0] = s;\n}\n";
    let spec = "kernel = \"p\"\n[args]\na = { data = [10, 20, 30, 40] }\no = { len = 1 }\n";
    let (k, s) = write_kernel_and_spec(&dir, "p", text, spec);
    let r = kiln(&["emu", k.to_str().unwrap(), "--spec", s.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("i=0 s=000a\ni=1 s=001e\ni=2 s=003c\ni=3 s=0064\n"), "{}", r.stdout);
    let json = dir.join("sim.json");
    let r = kiln(&["sim", k.to_str().unwrap(), "--spec", s.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let printed = v["printed"].as_array().unwrap();
    assert_eq!(printed.len(), 4);
    let cycles: Vec<u64> = printed.iter().map(|p| p["cycle"].as_u64().unwrap()).collect();
    assert!(cycles.windows(2).all(|w| w[0] < w[1]), "the prints run in later and later cycles: {cycles:?}");
    assert!(cycles.iter().all(|c| *c < v["cycles"].as_u64().unwrap()));
    assert_eq!(printed[3]["text"], "i=3 s=0064\n");
    assert!(r.stdout.contains(&format!("[cycle {}] i=0 s=000a\n", cycles[0])), "{}", r.stdout);
    // Hardware drops it, and says so.
    let out = dir.join("build");
    let r = kiln(&["build", k.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("W0608"), "{}", r.stderr);
}

/// `to_global`, `to_local` and `to_private` on generic pointers (PoCL here has no generic
/// address space, so the expected results are computed here).
#[test]
fn generic_pointers_know_their_address_space() {
    let dir = scratch("generic-pointers");
    let case = kiln_tests::real_corpus().into_iter().find(|c| c.name == "generic_pointers").unwrap();
    let json = dir.join("emu.json");
    let r = kiln(&[
        "emu",
        case.source.to_str().unwrap(),
        "--spec",
        case.spec.to_str().unwrap(),
        "-cl-std=CL2.0",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let kinds = ints(&v["args"]["kinds"]);
    for item in 0..8 {
        let l = (item % 4) as i64;
        // A global pointer; a local one after `bump` added 2 * 7 to it; a private one (20 + 2 * 5).
        assert_eq!(kinds[item * 3..item * 3 + 3], [1, 2 + (l + 14) * 8, 4 + 30 * 8], "work-item {item}");
    }
}

/// Intel's memory attributes, `__fpga_reg` and loop pragmas (`speculated_iterations 0`) are
/// accepted and change nothing the kernel computes (PoCL has no `__fpga_reg`).
#[test]
fn intel_attributes_compute_the_plain_result() {
    let dir = scratch("intel-attributes");
    let case = kiln_tests::real_corpus().into_iter().find(|c| c.name == "intel_attributes").unwrap();
    let v = kiln_tests::emu_results(&case, &dir);
    let a = ints(&v["args"]["a"]);
    let mut acc = [0i64; 4];
    for (i, x) in a.iter().enumerate() {
        acc[i & 3] += 2 * x + 4 * i as i64;
    }
    assert_eq!(ints(&v["args"]["b"]), acc);
    assert_eq!(ints(&v["args"]["c"]), [1]);
}

/// The loop report names a labelled loop by its label (as Vitis users know their loops), also
/// when its annotations come before the label, and `report.json` carries it.
#[test]
fn the_loop_report_names_labelled_loops() {
    let dir = scratch("labelled-loops");
    let source = tests_dir().join("real").join("vadd_labelled.cl");
    let out = dir.join("build");
    let r = kiln(&["build", source.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for label in ["readA", "readB", "vadd_loop", "writeC"] {
        assert!(r.stdout.contains(&format!("loop `{label}` at ")), "{label}: {}", r.stdout);
    }
    let pipelined_at_ii_1 = r.stdout.matches("pipelined: II 1 ").count();
    assert!(pipelined_at_ii_1 >= 3, "the read and add loops run at II 1 ({}):\n{}", pipelined_at_ii_1, r.stdout);
    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(report.contains("\"label\": \"vadd_loop\""), "{report}");
}

/// Xilinx's `xcl_dependence(type="inter", dependent=false)` says the loop's iterations do not
/// depend on each other through memory, as `ivdep` does: the histogram-style update then runs
/// at II 1, and without it at the II of its read-modify-write.
#[test]
fn xcl_dependence_false_lifts_the_memory_recurrence() {
    let dir = scratch("xcl-dependence");
    let kernel = |attr: &str| {
        format!(
            "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n\
             void k(__global const int *idx, __global int *o) {{\n int h[64];\n\
             for (int i = 0; i < 64; i++) h[i] = 0;\n {attr}\n\
             for (int i = 0; i < 64; i++) h[idx[i] & 63] += 1;\n\
             for (int i = 0; i < 64; i++) o[i] = h[i];\n}}\n"
        )
    };
    let ii = |attr: &str, name: &str| {
        let (k, _) = write_kernel_and_spec(&dir, name, &kernel(attr), "kernel = \"k\"\n");
        let r = kiln(&["build", k.to_str().unwrap(), "-o", dir.join(name).to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let line = r.stdout.lines().filter(|l| l.contains("pipelined: II")).nth(1).unwrap_or_default().to_string();
        line.split("II ").nth(1).and_then(|t| t.split_whitespace().next()).and_then(|n| n.parse::<u32>().ok()).unwrap()
    };
    let free = ii("__attribute__((xcl_dependence(type=\"inter\", dependent=false)))", "free");
    let kept = ii("", "kept");
    assert_eq!(free, 1);
    assert!(kept > 1, "without the attribute the update waits for the one before (II {kept})");
}

/// Two kernels built together cannot share a program-scope `__global` variable (each would
/// get its own on-chip copy), and `kiln build` says so; one of them alone builds.
#[test]
fn kernels_built_together_cannot_share_a_program_scope_global() {
    let dir = scratch("shared-program-global");
    let text = "__global int shared_count;\nvoid bump(void) { shared_count++; }\n\
                __kernel void a(__global int *o) { bump(); o[0] = shared_count; }\n\
                __kernel void b(__global int *o) { o[0] = shared_count; }\n";
    let (k, _) = write_kernel_and_spec(&dir, "shared", text, "kernel = \"a\"\n");
    let out = dir.join("build");
    let r = kiln(&["build", k.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("E0411") && r.stderr.contains("`a` and `b`"), "{}", r.stderr);
    assert!(!out.join("a.v").exists(), "nothing is written when the build fails");
    let r = kiln(&["build", k.to_str().unwrap(), "--kernel", "a", "-o", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("W0427"), "{}", r.stderr);
}
