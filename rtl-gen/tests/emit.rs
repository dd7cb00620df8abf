#![allow(clippy::unwrap_used)]
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_device::Device;
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};
use kiln_scheduler::schedule;

pub fn verilog_of(src: &str, name: &str) -> kiln_rtl_gen::VerilogFile {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name(name).unwrap()).unwrap();
    optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
    let s = schedule(k, Device::by_name("generic").unwrap(), 100.0);
    let sm = &out.sources;
    kiln_rtl_gen::emit_kernel(&s, &|sp| sm.location(sp).to_string()).0
}

#[test]
fn dump() {
    let dir = std::env::var("KILN_DUMP_DIR").unwrap_or_else(|_| "/tmp/kiln_dump".into());
    std::fs::create_dir_all(&dir).unwrap();
    let vadd = verilog_of(
        "kernel void vadd(global const int *a, global const int *b, global int *c, int n) {
        for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }",
        "vadd",
    );
    std::fs::write(format!("{dir}/{}", vadd.name), &vadd.text).unwrap();
    let mixed = verilog_of("uint gcd(uint a, uint b) { while (b != 0) { uint t = a % b; a = b; b = t; } return a; }
        kernel void k(global uint *out, global const uint *x, global const uint *y, int n) {
            uint tab[8];
            for (int i = 0; i < 8; i++) tab[i] = i * i;
            for (int i = 0; i < n; i++) {
                uint g = gcd(x[i], y[i]);
                switch (g & 3) { case 0: out[i] = g + tab[i & 7]; break; case 1: out[i] = g * 3; break; default: out[i] = g / 3 - (int)y[i] % 5; }
            }
        }", "k");
    std::fs::write(format!("{dir}/{}", mixed.name), &mixed.text).unwrap();
}

/// Stages of every pipeline, from the `// Pipelined loop N @[..]: II i, depth d, s stage(s).` headers.
fn pipeline_stages(text: &str) -> Vec<(u32, u32)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("// Pipelined loop ")?;
            let (_, shape) = rest.split_once("]: II ")?;
            let (ii, rest) = shape.split_once(", depth ")?;
            let (_, rest) = rest.split_once(", ")?;
            let stages = rest.split_once(' ')?.0;
            Some((ii.parse().ok()?, stages.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_pipeline_holds_a_value_in_one_register_per_initiation_interval() {
    // Eight stores share `out`'s port, so the loop runs at II 8 and `x` waits up to seven cycles
    // for the last store; the next iteration's `x` comes eight cycles later, so one register
    // holds it (seven would copy it cycle by cycle).
    let v = verilog_of(
        "kernel void k(global const int *a, global int *out, int n) {
            for (int i = 0; i < n; i++) {
                int x = a[i];
                out[i] = x; out[i + n] = x ^ 1; out[i + 2 * n] = x ^ 2; out[i + 3 * n] = x ^ 3;
                out[i + 4 * n] = x ^ 4; out[i + 5 * n] = x ^ 5; out[i + 6 * n] = x ^ 6; out[i + 7 * n] = x ^ 7;
            }
        }",
        "k",
    );
    let pipelines = pipeline_stages(&v.text);
    assert_eq!(pipelines.len(), 1, "{}", v.text);
    let (ii, stages) = pipelines[0];
    assert_eq!(ii, 8, "{}", v.text);
    // A chain register `<value>_d<j>` holds a value j initiation intervals after it was made; no
    // value outlives its iteration's stages.
    let longest = v
        .text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("reg "))
        .filter_map(|l| l.rsplit_once("_d")?.1.trim_end_matches(';').parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(longest >= 1, "the stores read `x` from a chain register:\n{}", v.text);
    assert!(longest <= stages, "a chain of {longest} registers in a pipeline of {stages} stages:\n{}", v.text);
}
