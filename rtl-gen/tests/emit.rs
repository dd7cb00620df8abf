#![allow(clippy::unwrap_used)]
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_frontend::{Options, check_source, diag};
use kiln_scheduler::{Target, schedule};

pub fn verilog_of(src: &str, name: &str) -> kiln_rtl_gen::VerilogFile {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let mut k = kiln_dataflow::lower::lower_kernel(&prog, prog.kernel_by_name(name).unwrap()).unwrap();
    optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
    let s = schedule(k, Target::by_name("generic").unwrap(), 100.0);
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
