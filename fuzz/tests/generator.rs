#![allow(clippy::unwrap_used)]
//! The generator is deterministic and covers what it promises; the reducer shrinks while the
//! failure holds and never loses it.

use kiln_fuzz::ast::{Expr, Program, Stmt};
use kiln_fuzz::{Config, generate, print, reduce, spec, walk};

#[test]
fn a_seed_gives_the_same_program_every_time() {
    for seed in 0..50 {
        let a = generate(seed, &Config::default());
        let b = generate(seed, &Config::default());
        assert_eq!(print::opencl(&a), print::opencl(&b));
        assert_eq!(spec::run_spec(&a), spec::run_spec(&b));
    }
    assert_ne!(print::opencl(&generate(1, &Config::default())), print::opencl(&generate(2, &Config::default())));
}

#[test]
fn the_seeds_cover_every_feature() {
    let programs: Vec<String> = (0..300).map(|s| print::opencl(&generate(s, &Config::default()))).collect();
    for needle in [
        "barrier(CLK_LOCAL_MEM_FENCE)",
        "write_channel_intel",
        "read_channel_intel",
        "reqd_work_group_size",
        "#pragma unroll",
        "opencl_unroll_hint",
        "switch (",
        "struct R",
        "union R",
        "static ",
        "float",
        "int4",
        ".s",
        "convert_",
        "popcount(",
        "rotate(",
        "mul_hi(",
        "add_sat(",
        "kiln_div_",
        "get_local_id",
        " && (",
        ") goto L",
    ] {
        assert!(programs.iter().any(|p| p.contains(needle)), "no generated program has `{needle}`");
    }
    let plain_c = (0..300).filter(|s| generate(*s, &Config::default()).runs_as_c()).count();
    assert!(plain_c >= 30, "only {plain_c} of 300 programs run as C");
}

#[test]
fn without_a_feature_no_program_uses_it() {
    let cfg = Config { vectors: false, float: false, systems: false, gotos: false, ..Config::default() };
    for s in 0..200 {
        let p = generate(s, &cfg);
        assert!(!p.is_system());
        let text = print::opencl(&p);
        assert!(!text.contains("float") && !text.contains("channel") && !text.contains("goto"), "seed {s}:\n{text}");
    }
}

fn divisions(p: &Program) -> usize {
    let mut n = 0;
    walk::program_exprs(p, &mut |e| {
        if let Expr::Binary(kiln_fuzz::ast::BinOp::Div, ..) = e {
            n += 1;
        }
    });
    n
}

fn statements(b: &[Stmt]) -> usize {
    b.iter().map(|s| 1 + s.blocks().iter().map(|b| statements(b)).sum::<usize>()).sum()
}

#[test]
fn the_reducer_keeps_the_failure_and_shrinks() {
    // A stand-in failure: "the program divides". Reduced, it still does, and is much smaller.
    let seed = (0..500).find(|s| divisions(&generate(*s, &Config::default())) > 0).unwrap();
    let p = generate(seed, &Config::default());
    let before = print::opencl(&p).len();
    let r = reduce::reduce(&p, &mut |q| divisions(q) > 0, 5000);
    assert!(divisions(&r) > 0);
    let after = print::opencl(&r).len();
    assert!(after * 3 < before, "reduced from {before} to only {after} bytes:\n{}", print::opencl(&r));
    assert!(r.kernels.iter().map(|k| statements(&k.body)).sum::<usize>() <= 3, "{}", print::opencl(&r));
}
