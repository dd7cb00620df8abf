#![allow(clippy::unwrap_used)]
use kiln_dataflow::emu::{Arg, emulate};
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_frontend::{Options, check_source, diag};
use kiln_scheduler::{Target, schedule, verify::verify_schedule};
use kiln_simulator::{MemConfig, SimConfig, simulate};

fn check(src: &str, name: &str, args: Vec<Arg>) -> Vec<u64> {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name(name).unwrap()).unwrap();
    optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
    let golden = emulate(&k, &args, 1 << 30).unwrap();
    let s = schedule(k, Target::by_name("generic").unwrap(), 100.0);
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
