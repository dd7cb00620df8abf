#![allow(clippy::unwrap_used)]
//! Systems of kernels connected by pipes (`tests/systems/`), run with `[[launch]]` run specs:
//! the emulator's outputs are checked against references computed here from the inputs; the
//! simulator and Verilator (on the system's top level with its FIFOs) must agree with it under
//! memory latency and random stalls; the chain streams one element per cycle; a system that
//! deadlocks by construction is reported, naming its kernels and pipes, by every engine.

use kiln_tests::{kiln, par_each, require_tool, scratch, tests_dir, write_kernel_and_spec};
use serde_json::Value;

fn system(name: &str) -> (String, String) {
    let d = tests_dir().join("systems");
    (d.join(format!("{name}.cl")).display().to_string(), d.join(format!("{name}.toml")).display().to_string())
}

/// Runs a system with `kiln CMD` and returns its results JSON.
fn run(cmd: &str, name: &str, extra: &[&str]) -> Value {
    let (cl, toml) = system(name);
    let out = scratch(&format!("system-{cmd}-{name}-{}", extra.join("_").replace(['-', ' '], ""))).join("out.json");
    let mut args = vec![cmd, &cl, "--spec", &toml];
    let out_s = out.display().to_string();
    args.extend(["--json", &out_s]);
    args.extend(extra);
    let r = kiln(&args);
    assert_eq!(r.code, 0, "{cmd} {name} {extra:?}: {}", r.stderr);
    serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
}

/// Runs a system in the emulator and returns its `buffers` object.
fn emu(name: &str) -> Value {
    run("emu", name, &[])["buffers"].clone()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}")).iter().map(|x| x.as_i64().unwrap()).collect()
}

/// What each system must compute, from its inputs.
fn check(name: &str, b: &Value) {
    match name {
        "chain_intel" | "chain_xilinx" | "chain_std" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            assert_eq!(input.len(), 1024);
            let want: Vec<i64> = input.iter().map(|x| x * 3 + 1).collect();
            assert_eq!(out, want, "{name}");
        }
        "int4_channel" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            for q in 0..16 {
                for l in 0..4 {
                    // `pack` sends `v.wzyx`; `unpack` adds (1, 2, 3, 4).
                    let want = (input[4 * q + 3 - l] + l as i64 + 1) as i32 as i64;
                    assert_eq!(out[4 * q + l], want, "packet {q} lane {l}");
                }
            }
        }
        "bool_channel" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            let want: Vec<i64> = input.iter().map(|&x| if x > 50 { x - 50 } else { -x }).collect();
            assert_eq!(out, want, "{name}");
        }
        "feedback" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            let mut sum: u32 = 0;
            for (i, x) in input.iter().enumerate() {
                let x = *x as u32;
                sum = sum.wrapping_add(x.wrapping_mul(x).wrapping_add(i as u32 + 1));
                assert_eq!(out[i] as u32, sum, "answer {i}");
            }
        }
        "polling" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            let want: Vec<i64> = input.iter().map(|x| (*x as i32).wrapping_sub(7) as i64).collect();
            assert_eq!(out, want);
            assert_eq!(ints(&b["flag"]), vec![1]);
        }
        "backpressure" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            let mut h: u32 = 1;
            for (i, x) in input.iter().enumerate() {
                let v = *x as u32;
                h = (h.wrapping_add(v)) / ((v & 7) + 1) + v;
                assert_eq!(out[i] as u32, h, "element {i}");
            }
        }
        "reservation" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            for (i, x) in out.iter().enumerate() {
                assert_eq!(*x, input[i / 4 * 4 + 3 - i % 4], "element {i}");
            }
            // invalid id; a read outside the reservation: -1, its target unchanged; the depth;
            // nothing left in the FIFO.
            assert_eq!(ints(&b["facts"]), vec![0, -1, 7, 6, 0]);
        }
        "queries" => {
            assert_eq!(ints(&b["out"]), ints(&b["in"]));
            assert_eq!(ints(&b["facts"]), vec![1, 3]);
        }
        "struct_channel" => {
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            for (i, x) in input.iter().enumerate() {
                let v = *x as i32;
                let bytes: i32 = (0..4).map(|k| (v >> (8 * k)) & 0xff).sum();
                let (x, y) = (i as i16 as i32, -(i as i16) as i32);
                let want = bytes
                    .wrapping_add(x.wrapping_mul(1000))
                    .wrapping_add(y)
                    .wrapping_add(v.wrapping_mul(3))
                    .wrapping_sub(v ^ 0x55);
                assert_eq!(out[i] as i32, want, "element {i}");
            }
        }
        "struct_pipe" => {
            // struct { int key; short tag; uchar flags[2]; }: 8 bytes, key at 0, tag at 4.
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            for r in 0..16 {
                let at = |v: &[i64], k: usize| v[8 * r + k] as u8;
                let key = i32::from_le_bytes([0, 1, 2, 3].map(|k| at(&input, k)));
                let tag = i16::from_le_bytes([at(&input, 4), at(&input, 5)]);
                let want_key = key.wrapping_add(i32::from(tag)).to_le_bytes();
                let got: Vec<u8> = (0..8).map(|k| at(&out, k)).collect();
                let want = [
                    want_key[0],
                    want_key[1],
                    want_key[2],
                    want_key[3],
                    at(&input, 4),
                    at(&input, 5),
                    at(&input, 6),
                    at(&input, 7) ^ 0xff,
                ];
                assert_eq!(got, want, "record {r}");
            }
        }
        "helpers" => {
            // out = (x + 1) + 2 * -(x + 1) = -(x + 1)
            let (input, out) = (ints(&b["in"]), ints(&b["out"]));
            let want: Vec<i64> = input.iter().map(|x| -(x + 1)).collect();
            assert_eq!(out, want);
            assert_eq!(ints(&b["depth"]), vec![2]);
        }
        "float_channels" => {
            // Rust's f32, in the kernel's order: acc += x * 0.75; out = sqrt(|acc|) - x.
            let floats =
                |v: &Value| v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect::<Vec<_>>();
            let (input, out) = (floats(&b["in"]), floats(&b["out"]));
            assert_eq!(input.len(), 200);
            let mut acc = 0.0f32;
            for (i, x) in input.iter().enumerate() {
                acc += x * 0.75;
                let want = acc.abs().sqrt() - x;
                assert_eq!(out[i].to_bits(), want.to_bits(), "element {i}: {} != {want}", out[i]);
            }
        }
        other => panic!("no reference for system `{other}`"),
    }
}

const SYSTEMS: [&str; 14] = [
    "bool_channel",
    "chain_intel",
    "chain_xilinx",
    "chain_std",
    "int4_channel",
    "feedback",
    "polling",
    "backpressure",
    "reservation",
    "queries",
    "struct_channel",
    "struct_pipe",
    "helpers",
    "float_channels",
];

#[test]
fn three_stage_chain_is_the_same_in_all_three_dialects() {
    let outs: Vec<Value> = ["chain_intel", "chain_xilinx", "chain_std"]
        .iter()
        .map(|name| {
            let b = emu(name);
            check(name, &b);
            b["out"].clone()
        })
        .collect();
    assert!(outs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn every_system_computes_its_reference_in_the_emulator() {
    for name in SYSTEMS {
        check(name, &emu(name));
    }
}

/// `kiln cosim` checks emulator == simulator == Verilator (outputs and cycle counts) itself;
/// the outputs must also be the reference, under latency and random stalls.
#[test]
fn every_system_agrees_in_emulator_simulator_and_verilator() {
    require_tool("verilator");
    let configs: [&[&str]; 3] = [&[], &["--mem-latency", "3", "--stall-seed", "3"], &["--stall-seed", "11"]];
    let jobs: Vec<(&str, &[&str])> = SYSTEMS.iter().flat_map(|s| configs.iter().map(move |c| (*s, *c))).collect();
    par_each(&jobs, |(name, extra)| {
        let v = run("cosim", name, extra);
        assert_eq!(v["engine"], "verilator");
        assert!(v["cycles"].as_u64().unwrap() > 0);
        check(name, &v["buffers"]);
        for phase in ["emulator_s", "simulator_s", "verilator_build_s", "verilator_run_s"] {
            assert!(v["timing"][phase].as_f64().is_some_and(|t| t >= 0.0), "{name}: no `timing.{phase}`: {v}");
        }
    });
}

/// `--fast-model` builds Verilator's model for run speed (a separate cache entry): the three
/// engines still agree, on the same cycle count as the default model.
#[test]
fn the_fast_verilator_model_agrees_with_the_default_one() {
    require_tool("verilator");
    let default = run("cosim", "chain_intel", &[]);
    let fast = run("cosim", "chain_intel", &["--fast-model"]);
    assert_eq!(fast["cycles"], default["cycles"]);
    assert_eq!(fast["buffers"], default["buffers"]);
    check("chain_intel", &fast["buffers"]);
}

/// Each stage of the chain is a pipelined loop at II = 1, and 1,024 elements flow through the
/// three kernels in 1,024 cycles plus the pipelines' fill.
#[test]
fn chain_streams_one_element_per_cycle() {
    require_tool("verilator");
    for name in ["chain_intel", "chain_xilinx", "chain_std"] {
        let (cl, _) = system(name);
        let out = scratch(&format!("system-ii-{name}"));
        let r = kiln(&["build", &cl, "-o", &out.display().to_string()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let report: Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        for k in report["kernels"].as_array().unwrap() {
            let loops = k["loops"].as_array().unwrap();
            assert_eq!(loops.len(), 1, "{}", k["name"]);
            assert_eq!(loops[0]["achieved_ii"], 1, "{name}: kernel {} loop: {}", k["name"], loops[0]);
        }
        let v = run("cosim", name, &[]);
        let cycles = v["cycles"].as_u64().unwrap();
        assert!(cycles <= 1024 + 16, "{name}: {cycles} cycles for 1,024 elements");
        check(name, &v["buffers"]);
    }
}

/// A producer at II = 1 feeding a consumer whose loop needs 34 cycles per packet through a
/// two-deep FIFO cannot run ahead: it finishes only when the consumer has taken all but the
/// last few packets, and every packet arrives in order (checked by `check`, and in Verilator
/// by `every_system_agrees_in_emulator_simulator_and_verilator`).
#[test]
fn a_fast_producer_is_held_back_by_a_slow_consumer() {
    let (cl, _) = system("backpressure");
    let out = scratch("system-backpressure-build");
    let r = kiln(&["build", &cl, "-o", &out.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let ii = |kernel: &str| {
        let k = report["kernels"].as_array().unwrap().iter().find(|k| k["name"] == kernel).unwrap();
        k["loops"][0]["achieved_ii"].as_u64().unwrap()
    };
    let (fast, slow) = (ii("producer"), ii("consumer"));
    assert_eq!(fast, 1);
    assert!(slow > 8, "consumer II {slow}");
    let v = run("sim", "backpressure", &[]);
    check("backpressure", &v["buffers"]);
    let n = 64;
    let depth = 2;
    let producer_done = v["done"]["producer"].as_u64().unwrap();
    let consumer_done = v["done"]["consumer"].as_u64().unwrap();
    assert!(consumer_done >= n * slow, "consumer done in cycle {consumer_done}");
    // Without back-pressure the producer would finish after about n cycles.
    assert!(
        producer_done >= (n - depth - 2) * slow,
        "producer done in cycle {producer_done}, consumer II {slow}: not held back by the full FIFO"
    );
}

/// The fill level a VCD gives a signal over a run: (signal's id code, every value it took).
fn vcd_values(vcd: &str, signal: &str) -> Vec<u64> {
    let id = vcd
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 5 && f[0] == "$var" && f[4] == signal).then(|| f[3].to_string())
        })
        .unwrap_or_else(|| panic!("no signal `{signal}` in the waveform"));
    vcd.lines()
        .filter_map(|l| l.strip_prefix('b').and_then(|r| r.split_once(' ')))
        .filter(|(_, code)| *code == id)
        .map(|(bits, _)| u64::from_str_radix(bits, 2).unwrap())
        .collect()
}

/// `kiln sim --vcd` of a system traces every kernel in its own scope and each FIFO's fill
/// level; a run that deadlocks still writes its waveform, up to where it stopped.
#[test]
fn system_waveforms_show_every_kernel_and_fifo_fill_levels() {
    let dir = scratch("system-vcd");
    let (cl, toml) = system("chain_intel");
    let vcd = dir.join("chain.vcd");
    let r = kiln(&["sim", &cl, "--spec", &toml, "--vcd", &vcd.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&vcd).unwrap();
    for scope in ["producer", "compute", "consumer", "fifos"] {
        assert!(text.contains(&format!("$scope module {scope} $end")), "no scope `{scope}`");
    }
    // `c0` (depth 8 in the source) fills while the chain starts and never exceeds its depth.
    let fill = vcd_values(&text, "c0_fill");
    assert!(fill.iter().any(|x| *x > 0) && fill.iter().all(|x| *x <= 8), "{fill:?}");
    let (cl, toml) = system("deadlock");
    let vcd = dir.join("deadlock.vcd");
    let r = kiln(&["sim", &cl, "--spec", &toml, "--deadlock-cycles", "50", "--vcd", &vcd.display().to_string()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("E0906"), "{}", r.stderr);
    let text = std::fs::read_to_string(&vcd).unwrap();
    let last: u64 = text.lines().filter_map(|l| l.strip_prefix('#')).filter_map(|t| t.parse().ok()).max().unwrap();
    // Nothing moves from the first cycles on, so the run stops after about 50 cycles.
    assert!(last >= 49 * 10, "the waveform stops at {last} ns, before the deadlock window");
}

/// `kiln build` of a file whose kernels share program-scope pipes writes every kernel, the FIFO
/// modules and the top level; the Verilog is lint-clean and deterministic, and a deep FIFO is
/// built for block RAM (Yosys maps it to SB_RAM40_4K) while a shallow one stays in registers.
#[test]
fn build_writes_a_lint_clean_system_top_level_with_register_and_block_ram_fifos() {
    require_tool("verilator");
    require_tool("yosys");
    let (cl, _) = system("chain_xilinx");
    let dir = scratch("system-build");
    let deep = dir.join("deep.cl");
    let text = std::fs::read_to_string(&cl).unwrap();
    let text = text.replacen("xcl_reqd_pipe_depth(32)", "xcl_reqd_pipe_depth(512)", 1);
    let text = text.replacen("xcl_reqd_pipe_depth(32)", "xcl_reqd_pipe_depth(8)", 1);
    std::fs::write(&deep, text).unwrap();
    let mut outputs = Vec::new();
    for run_no in 0..2 {
        let out = dir.join(format!("out{run_no}"));
        let r = kiln(&["build", &deep.display().to_string(), "-o", &out.display().to_string()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("system: 3 kernel(s), 2 FIFO(s)"), "{}", r.stdout);
        outputs.push(out);
    }
    let files =
        ["kiln_system.v", "kiln_fifo_w32_d512.v", "kiln_fifo_w32_d8.v", "producer.v", "compute.v", "consumer.v"];
    for f in files {
        let a = std::fs::read(outputs[0].join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(a, std::fs::read(outputs[1].join(f)).unwrap(), "{f} differs between runs");
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(outputs[0].join("report.json")).unwrap()).unwrap();
    let fifos = report["system"]["fifos"].as_array().unwrap();
    let storage: Vec<(&str, &str)> =
        fifos.iter().map(|f| (f["pipe"].as_str().unwrap(), f["storage"].as_str().unwrap())).collect();
    assert_eq!(storage, vec![("p0", "block RAM"), ("p1", "registers")]);
    let lint = std::process::Command::new("verilator")
        .current_dir(&outputs[0])
        .args(["--lint-only", "-Wall", "--top-module", "kiln_system"])
        .args(files)
        .output()
        .unwrap();
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stderr));
    for (module, want_bram) in [("kiln_fifo_w32_d512", true), ("kiln_fifo_w32_d8", false)] {
        let stat = outputs[0].join(format!("{module}.stat.txt"));
        let script = format!("read_verilog {module}.v; synth_ice40 -top {module}; tee -q -o {} stat", stat.display());
        let y =
            std::process::Command::new("yosys").current_dir(&outputs[0]).args(["-q", "-p", &script]).output().unwrap();
        assert!(y.status.success(), "{}", String::from_utf8_lossy(&y.stderr));
        let text = std::fs::read_to_string(&stat).unwrap();
        assert_eq!(text.contains("SB_RAM40_4K"), want_bram, "{module}:\n{text}");
    }
    // The deep FIFO behaves like any other: the system still computes its reference.
    let spec = system("chain_xilinx").1;
    let json = dir.join("deep.json");
    let r = kiln(&[
        "cosim",
        &deep.display().to_string(),
        "--spec",
        &spec,
        "--stall-seed",
        "5",
        "--json",
        &json.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    check("chain_xilinx", &v["buffers"]);
}

#[test]
fn deadlock_names_both_kernels_and_their_pipes() {
    let (cl, toml) = system("deadlock");
    let r = kiln(&["emu", &cl, "--spec", &toml]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("E0906"), "{}", r.stderr);
    for needle in
        ["kernel `left` waits here to read from pipe `pong`", "kernel `right` waits here to read from pipe `ping`"]
    {
        assert!(r.stderr.contains(needle), "missing `{needle}` in:\n{}", r.stderr);
    }
    assert!(r.stderr.contains("pipe `ping` holds 0 of 4 packet(s)"), "{}", r.stderr);
    assert!(r.stderr.contains("deadlock.cl:8:"), "the report points at the source line: {}", r.stderr);
}

#[test]
fn unconnected_pipe_is_a_spec_error() {
    let (cl, _) = system("chain_intel");
    let dir = scratch("system-unconnected");
    let spec = dir.join("spec.toml");
    // `compute` reads `c0`, but no launched kernel writes it.
    std::fs::write(&spec, "[[launch]]\nkernel = \"compute\"\nargs = { n = 4 }\n\n[[launch]]\nkernel = \"consumer\"\nargs = { out = \"@out\", n = 4 }\n\n[buffers]\nout = { len = 4 }\n").unwrap();
    let r = kiln(&["emu", &cl, "--spec", &spec.display().to_string()]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("E0807")
            && r.stderr.contains("pipe `c0` is read by `compute` but no launched kernel writes it"),
        "{}",
        r.stderr
    );
}

#[test]
fn deadlock_is_found_by_the_simulator_after_the_configured_window_and_by_verilator() {
    require_tool("verilator");
    let (cl, toml) = system("deadlock");
    let r = kiln(&["sim", &cl, "--spec", &toml, "--deadlock-cycles", "50"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("E0906") && r.stderr.contains("(50 without a transfer)"), "{}", r.stderr);
    for needle in [
        "kernel `left` waits here to read from pipe `pong`",
        "kernel `right` waits here to read from pipe `ping`",
        "pipe `pong` holds 0 of 4 packet(s)",
        "deadlock.cl:8:",
    ] {
        assert!(r.stderr.contains(needle), "missing `{needle}` in:\n{}", r.stderr);
    }
    let r = kiln(&["cosim", &cl, "--spec", &toml]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("E0906") && r.stderr.contains("the emulator, the simulator and Verilator all deadlock"),
        "{}",
        r.stderr
    );
}

/// A kernel that keeps polling a pipe nobody writes is starving, not deadlocked in the
/// blocking sense; the simulator (after the window in cycles) and the emulator (after that
/// many failed polls in a row) still stop and say where it polls.
#[test]
fn starvation_of_a_polling_kernel_is_reported() {
    let dir = scratch("system-starve");
    let (cl, spec) = write_kernel_and_spec(
        &dir,
        "starve",
        "#pragma OPENCL EXTENSION cl_intel_channels : enable\nchannel int c __attribute__((depth(2)));\n\
         kernel void idle(int n) { if (n > 100) write_channel_intel(c, n); }\n\
         kernel void poll(global int *out) {\n    bool ok = false;\n    int v = 0, polls = 0;\n    \
         while (!ok) { v = read_channel_nb_intel(c, &ok); polls++; }\n    out[0] = v + polls;\n}\n",
        "[[launch]]\nkernel = \"idle\"\nargs = { n = 1 }\n\n[[launch]]\nkernel = \"poll\"\nargs = { out = \"@out\" }\n\n[buffers]\nout = { len = 1 }\n",
    );
    for engine in ["sim", "emu"] {
        let r = kiln(&[
            engine,
            &cl.display().to_string(),
            "--spec",
            &spec.display().to_string(),
            "--deadlock-cycles",
            "200",
        ]);
        assert_eq!(r.code, 1, "{engine}: {}", r.stderr);
        assert!(
            r.stderr.contains("E0906")
                && r.stderr.contains("kernel `poll` keeps polling here to read from pipe `c`, which stays empty")
                && r.stderr.contains("pipe `c` holds 0 of 2 packet(s)"),
            "{engine}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_buffer_written_by_one_launch_cannot_be_shared_with_another() {
    let (cl, _) = system("chain_intel");
    let dir = scratch("system-shared-buffer");
    let spec = dir.join("spec.toml");
    // `consumer` writes `data`, which `producer` reads: each launch would see its own copy.
    std::fs::write(
        &spec,
        "[[launch]]\nkernel = \"producer\"\nargs = { in = \"@data\", n = 4 }\n\n[[launch]]\nkernel = \"compute\"\nargs = { n = 4 }\n\n[[launch]]\nkernel = \"consumer\"\nargs = { out = \"@data\", n = 4 }\n\n[buffers]\ndata = { len = 4 }\n",
    )
    .unwrap();
    let r = kiln(&["emu", &cl, "--spec", &spec.display().to_string()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("E0807")
            && r.stderr.contains("buffer `data` is written by `consumer` and also used by `producer`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("spec.toml:"), "located in the spec: {}", r.stderr);
}

#[test]
fn boards_refuse_kernels_with_pipes_with_a_located_diagnostic() {
    let (cl, _) = system("chain_intel");
    let out = scratch("system-board");
    let r = kiln(&[
        "bitstream",
        &cl,
        "--board",
        "icebreaker",
        "--kernel",
        "compute",
        "--rtl-only",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("E0506") && r.stderr.contains("chain_intel.cl:12:"), "{}", r.stderr);
    assert!(!out.join("kiln_board_top.v").exists(), "nothing is written");
}
