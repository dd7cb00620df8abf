//! Parse and type-check time of a generated 5,000-line OpenCL C file (the front end's budget is
//! 50 ms on one core). `cargo bench -p kiln-frontend` prints the time per file and its ratio to
//! the budget.

use criterion::{Criterion, criterion_group, criterion_main};
use kiln_frontend::options::Options;
use std::fmt::Write;
use std::time::Duration;

/// A kernel file of `lines` lines: helper functions with loops, branches, vectors and built-ins,
/// and kernels calling them — the constructs real kernels are made of.
fn generate(lines: usize) -> String {
    let mut s = String::from("#define SCALE(x) ((x) * 3 + 1)\ntypedef uint word_t;\n");
    let mut i = 0;
    while s.lines().count() < lines {
        let _ = write!(
            s,
            "int helper{i}(int a, int b) {{
    int acc = 0;
    for (int k = 0; k < 8; k++) {{
        if ((a ^ k) & 1)
            acc += SCALE(a) * b - k;
        else
            acc -= min(a, b) >> (k & 3);
    }}
    return acc + clamp(a, -100, 100);
}}

__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void kernel{i}(global const int4 *in, global int *out, int n) {{
    size_t gid = get_global_id(0);
    int4 v = in[gid];
    int4 w = v.wzyx + (int4)(1, 2, 3, 4);
    word_t bits = popcount((word_t)w.x) + rotate((word_t)w.y, 3u);
    int s = 0;
    #pragma unroll 4
    for (int j = 0; j < n; j++) {{
        s += helper{i}(w.z, j) + (int)bits;
        switch (j & 3) {{
        case 0: s ^= w.w; break;
        case 1: s += add_sat(s, w.x); break;
        default: s -= 1;
        }}
    }}
    out[gid] = s + any(w > (int4)0);
}}

"
        );
        i += 1;
    }
    s
}

fn check(c: &mut Criterion) {
    let src = generate(5000);
    let lines = src.lines().count();
    let opts = Options::default();
    let out = kiln_frontend::check_source("bench.cl", &src, &opts);
    assert!(!out.has_errors(), "the generated file must be valid OpenCL C");
    let mut group = c.benchmark_group("frontend");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(format!("check {lines} lines"), |b| {
        b.iter(|| kiln_frontend::check_source("bench.cl", &src, &opts))
    });
    group.finish();
    // The ratio to the budget, measured in this run.
    let runs = 20;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(kiln_frontend::check_source("bench.cl", &src, &opts));
    }
    let per_file = start.elapsed() / runs;
    println!(
        "check of {lines} lines: {:.2} ms per file = {:.3}x the 50 ms budget",
        per_file.as_secs_f64() * 1e3,
        per_file.as_secs_f64() / 0.050
    );
}

criterion_group!(benches, check);
criterion_main!(benches);
