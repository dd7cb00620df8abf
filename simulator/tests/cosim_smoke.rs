#![allow(clippy::unwrap_used)]
use kiln_dataflow::emu::{Arg, emulate};
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_device::Device;
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};
use kiln_scheduler::schedule;
use kiln_simulator::cosim::{ModelSpeed, build_model, run_model};
use kiln_simulator::{MemConfig, SimConfig, simulate};

/// Two kernels through Verilator from an empty cache: the first build keeps the Verilator
/// runtime's objects, the second builds with them, and both models compute what the emulator
/// and the simulator do.
#[test]
fn cosim_vadd_and_mixed() {
    let cache = std::env::temp_dir().join(format!("kiln-test-cosim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let cases: Vec<(&str, &str, Vec<Arg>)> = vec![
        ("kernel void vadd(global const int *a, global const int *b, global int *c, int n) {
            for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }", "vadd",
         vec![Arg::Buffer((0..20).map(|i| i * 7).collect()), Arg::Buffer((0..20).map(|i| 3000 - i).collect()), Arg::Buffer(vec![0; 20]), Arg::Scalar(20)]),
        ("uint gcd(uint a, uint b) { while (b != 0) { uint t = a % b; a = b; b = t; } return a; }
        kernel void k(global uint *out, global const uint *x, global const uint *y, int n) {
            uint tab[8];
            for (int i = 0; i < 8; i++) tab[i] = i * i;
            for (int i = 0; i < n; i++) {
                uint g = gcd(x[i], y[i]);
                switch (g & 3) { case 0: out[i] = g + tab[i & 7]; break; case 1: out[i] = g * 3; break; default: out[i] = g / 3 - (int)y[i] % 5; }
            }
        }", "k", vec![Arg::Buffer(vec![0; 6]), Arg::Buffer(vec![12, 17, 100, 81, 64, 0]), Arg::Buffer(vec![18, 5, 75, 27, 48, 7]), Arg::Scalar(6)]),
    ];
    for (src, name, args) in cases {
        let out = check_source("t.cl", src, &Options::default());
        let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
        let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name(name).unwrap()).unwrap();
        optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
        let golden = emulate(&k, &args, 1 << 30).unwrap();
        let s = schedule(k, Device::by_name("generic").unwrap(), 100.0);
        let sm = &out.sources;
        let (v, iface) = kiln_rtl_gen::emit_kernel(&s, &|sp| sm.location(sp).to_string());
        let t0 = std::time::Instant::now();
        let model = build_model(&v, &iface, ModelSpeed::CompileFast, &cache).unwrap_or_else(|e| panic!("{e}"));
        println!("{name}: model built in {:?}", t0.elapsed());
        for (latency, seed) in [(1, None), (1, Some(5)), (3, Some(11))] {
            let mem = MemConfig { latency, stall_seed: seed };
            let sim =
                simulate(&s, &args, &SimConfig { mem, max_cycles: 1 << 22, ..SimConfig::default() }, None).unwrap();
            let vl = run_model(&model, &args, &mem, 1 << 22, &cache).unwrap().unwrap();
            assert_eq!(sim.buffers, golden.buffers);
            assert_eq!(vl.buffers, golden.buffers, "{name} latency {latency} seed {seed:?}");
            assert_eq!(vl.cycles, sim.cycles, "{name} latency {latency} seed {seed:?}");
            println!("{name}: latency {latency} seed {seed:?}: {} cycles", sim.cycles);
        }
        let runtimes: Vec<std::path::PathBuf> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("verilator-runtime-")))
            .collect();
        assert_eq!(runtimes.len(), 1, "one kept runtime for one set of flags: {runtimes:?}");
        assert!(["verilated.o", "verilated_threads.o"].iter().all(|o| runtimes[0].join(o).exists()));
    }
    let _ = std::fs::remove_dir_all(&cache);
}
