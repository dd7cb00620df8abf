#![allow(clippy::unwrap_used)]
use kiln_dataflow::emu::{Arg, emulate};
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_device::Device;
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};
use kiln_scheduler::{schedule, verify::verify_schedule};
use kiln_simulator::{MemConfig, SimConfig, simulate};

fn check(src: &str, name: &str, args: Vec<Arg>) -> Vec<u64> {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name(name).unwrap()).unwrap();
    optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
    let golden = emulate(&k, &args, 1 << 30).unwrap();
    let s = schedule(k, Device::by_name("generic").unwrap(), 100.0);
    verify_schedule(&s).unwrap_or_else(|e| panic!("{e:?}\n{s}"));
    let mut cycles = vec![];
    for (latency, seed) in [(1, None), (1, Some(1)), (3, None), (4, Some(99))] {
        let cfg =
            SimConfig { mem: MemConfig { latency, stall_seed: seed }, max_cycles: 1 << 24, ..SimConfig::default() };
        let r = simulate(&s, &args, &cfg, None).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(r.buffers, golden.buffers, "latency {latency} seed {seed:?}\n{s}");
        cycles.push(r.cycles);
    }
    cycles
}

#[test]
fn vadd_sim_matches_emu() {
    let src = "kernel void vadd(global const int *a, global const int *b, global int *c, int n) {
        for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }";
    let n = 20u64;
    let a: Vec<u64> = (0..n).map(|i| i * 3).collect();
    let b: Vec<u64> = (0..n).map(|i| 1000 - i).collect();
    let cycles =
        check(src, "vadd", vec![Arg::Buffer(a), Arg::Buffer(b), Arg::Buffer(vec![0; n as usize]), Arg::Scalar(n)]);
    println!("vadd cycles: {cycles:?}");
    assert!(cycles[1] > cycles[0] && cycles[2] > cycles[0]);
}

#[test]
fn mixed_kernel_sim_matches_emu() {
    let src = "uint gcd(uint a, uint b) { while (b != 0) { uint t = a % b; a = b; b = t; } return a; }
        kernel void k(global uint *out, global const uint *x, global const uint *y, int n) {
            uint tab[8];
            for (int i = 0; i < 8; i++) tab[i] = i * i;
            for (int i = 0; i < n; i++) {
                uint g = gcd(x[i], y[i]);
                switch (g & 3) { case 0: out[i] = g + tab[i & 7]; break; case 1: out[i] = g * 3; break; default: out[i] = g / 3 - (int)y[i] % 5; }
            }
        }";
    let cycles = check(
        src,
        "k",
        vec![
            Arg::Buffer(vec![0; 6]),
            Arg::Buffer(vec![12, 17, 100, 81, 64, 0]),
            Arg::Buffer(vec![18, 5, 75, 27, 48, 7]),
            Arg::Scalar(6),
        ],
    );
    println!("gcd cycles: {cycles:?}");
}

/// The simulator refuses a schedule that stores to an element of an on-chip memory in the
/// cycle a load reads it (what such a read returns differs between block RAMs, and rtl-gen
/// builds memories for schedules without it): moving a store into its load's step is caught.
#[test]
fn a_store_in_the_cycle_of_a_load_of_its_element_is_an_error() {
    let src = "kernel void war(global int *out, int i, int j) {
        int a[64];
        for (int n = 0; n < 64; n++) a[n] = n * 3;
        int x = a[i & 63];
        a[j & 63] = 7;
        out[0] = x + a[i & 63]; }";
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name("war").unwrap()).unwrap();
    optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
    let mut s = schedule(k, Device::by_name("ice40-up5k").unwrap(), 60.0);
    let args = |j: u64| vec![Arg::Buffer(vec![0]), Arg::Scalar(5), Arg::Scalar(j)];
    let cfg = SimConfig { max_cycles: 1 << 20, ..SimConfig::default() };
    // As scheduled, the store comes after the load: 15 + 7.
    let r = simulate(&s, &args(5), &cfg, None).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(r.buffers[0], Some(vec![22]));
    use kiln_dataflow::ir::OpKind;
    let ops: Vec<_> = s.kernel.ops.keys().collect();
    let first = |f: &dyn Fn(&OpKind) -> bool| ops.iter().copied().find(|op| f(&s.kernel.ops[*op].kind));
    let load = first(&|k| matches!(k, OpKind::Load(_))).unwrap();
    let store = ops
        .iter()
        .copied()
        .find(|op| {
            matches!(s.kernel.ops[*op].kind, OpKind::Store(_))
                && s.kernel.ops[*op].block == s.kernel.ops[load].block
                && s.time[*op].start > s.time[load].start
        })
        .unwrap_or_else(|| panic!("a store after the load in its block\n{s}"));
    let at = s.time[load].start;
    s.time[store].start = at;
    s.time[store].end = at;
    match simulate(&s, &args(5), &cfg, None) {
        Err(kiln_dataflow::emu::RunError::ReadWriteCollision { index: 5, .. }) => {}
        other => panic!("expected a read-write collision, got {:?}", other.map(|r| r.buffers)),
    }
    // Another element in the same cycle is fine.
    let r = simulate(&s, &args(6), &cfg, None).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(r.buffers[0], Some(vec![30]));
}
