#![allow(clippy::unwrap_used)]
//! The legalization driver on real programs: every pass's output verifies, the result has every
//! invariant, and the verifier names what a program that breaks one breaks.

use kiln_frontend::{Options, check_source};
use kiln_hir::legalize::{Options as LegalizeOptions, legalize, passes};
use kiln_hir::verify::{Invariant, verify};
use kiln_hir::{ExprKind, Program, Stmt};

fn program(src: &str) -> Program {
    let out = check_source("t.cl", src, &Options::default());
    assert!(!out.has_errors(), "{:?}", out.diags);
    out.program.unwrap()
}

const ALL: &[Invariant] = &[
    Invariant::Resolved,
    Invariant::Typed,
    Invariant::NoReservations,
    Invariant::NoCollectives,
    Invariant::NoRecords,
    Invariant::NoVectors,
    Invariant::MathLinked,
];

#[test]
fn a_kernel_with_records_vectors_and_collectives_legalizes_to_every_invariant() {
    let p = program(
        "typedef struct { int a; short b; } S;\n\
         int4 twice(int4 v) { return v * 2; }\n\
         __attribute__((reqd_work_group_size(4, 1, 1)))\n\
         kernel void k(global int *out, global int4 *v) {\n\
             S s = { 1, 2 };\n\
             int4 x = twice(v[get_global_id(0)]);\n\
             int total = work_group_reduce_add(x.y + s.a + s.b);\n\
             out[get_global_id(0)] = total + x.w;\n\
         }\n",
    );
    let (id, _) = p.kernels().next().unwrap();
    assert!(verify(&p, id, &[Invariant::NoVectors]).is_err(), "the source has vector values");
    assert!(verify(&p, id, &[Invariant::NoRecords]).is_err(), "the source has a struct variable");
    assert!(verify(&p, id, &[Invariant::NoCollectives]).is_err(), "the source has a work-group function");
    let legal = legalize(&p, id, &LegalizeOptions::default()).unwrap();
    let checked = verify(&legal, id, ALL);
    assert!(checked.is_ok(), "{:?}", checked.err());
}

#[test]
fn each_pass_states_what_it_needs_before_it_runs() {
    let mut holds = Invariant::FRONT_END.to_vec();
    for pass in passes() {
        for needed in pass.requires() {
            assert!(holds.contains(needed), "`{}` needs {needed} before it runs", pass.name());
        }
        holds.extend(pass.ensures());
    }
    for i in ALL {
        assert!(holds.contains(i), "no pass establishes {i}");
    }
}

#[test]
fn the_verifier_names_the_function_and_the_broken_invariant() {
    let mut p = program("kernel void k(global int *out, int n) { out[0] = n + 1; }\n");
    let (id, _) = p.kernels().next().unwrap();
    assert!(verify(&p, id, ALL).is_ok());
    // An addition whose operand has another type than the operation.
    let body = p.functions[id.0 as usize].body.as_mut().unwrap();
    let Stmt::Expr(assign) = &mut body[0] else { panic!("an expression statement") };
    let ExprKind::Assign(_, value) = &mut assign.kind else { panic!("an assignment") };
    let ExprKind::Binary(_, lhs, _) = &mut value.kind else { panic!("an addition") };
    lhs.ty = kiln_hir::types::Type::Scalar(kiln_hir::types::Scalar::I16);
    let violations = verify(&p, id, ALL).unwrap_err();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].invariant, Invariant::Typed);
    assert!(violations[0].to_string().starts_with("in `k`"), "{}", violations[0]);
}

#[test]
fn relaxed_math_splits_a_loop_sum_into_rotating_partial_sums() {
    let src = "kernel void k(global const float *a, global float *out, int n) {\n\
                   float acc = 0.0f;\n\
                   for (int i = 0; i < n; i++) acc += a[i] * 2.0f;\n\
                   out[0] = acc;\n\
               }\n";
    let mut options = Options::default();
    options.math.fast_relaxed_math = true;
    let out = check_source("t.cl", src, &options);
    let p = out.program.unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let split = legalize(&p, id, &LegalizeOptions { float_partial_sums: 4, ..Default::default() }).unwrap();
    let f = &split.functions[id.0 as usize];
    let parts = f.locals.iter().find(|l| l.name.contains(".parts")).unwrap();
    assert_eq!(parts.dependence_distance, Some(4), "the scheduler keeps the slots 4 iterations apart");
    // Without relaxed math nothing changes.
    let plain = program(src);
    let (id, _) = plain.kernels().next().unwrap();
    let kept = legalize(&plain, id, &LegalizeOptions { float_partial_sums: 4, ..Default::default() }).unwrap();
    assert!(!kept.functions[id.0 as usize].locals.iter().any(|l| l.name.contains(".part")));
}

/// The fused multiply-adds in function `f`'s body.
fn fmas(f: &kiln_hir::Function) -> usize {
    let mut n = 0;
    if let Some(body) = &f.body {
        kiln_hir::walk::for_each_expr(body, &mut |e| {
            if let ExprKind::FloatBuiltin(kiln_hir::builtins::FloatBuiltin::Op(kiln_hir::builtins::FloatOp::Fma), _) =
                e.kind
            {
                n += 1;
            }
        });
    }
    n
}

#[test]
fn mad_enable_contracts_products_into_fma_outside_the_math_library() {
    let src = "kernel void k(global const float *a, global float *out, int n) {\n\
                   float acc = 0.0f;\n\
                   for (int i = 0; i < n; i++) acc += a[i] * a[i + 1];\n\
                   out[0] = acc;\n\
                   out[1] = a[0] * a[1] - a[2];\n\
                   out[2] = a[3] - a[4] * a[5];\n\
                   out[3] = mad(a[6], a[7], a[8]);\n\
                   out[4] = exp(a[9]);\n\
               }\n";
    let contracted = |mad: bool| {
        let mut options = Options::default();
        options.math.mad_enable = mad;
        let p = check_source("t.cl", src, &options).program.unwrap();
        let (id, _) = p.kernels().next().unwrap();
        let out = legalize(&p, id, &LegalizeOptions::default()).unwrap();
        let library = out.library_start.unwrap();
        let in_library: usize = out.functions[library..].iter().map(fmas).sum();
        (fmas(&out.functions[id.0 as usize]), in_library)
    };
    let (plain, plain_library) = contracted(false);
    let (fused, fused_library) = contracted(true);
    assert_eq!(plain, 0, "without the option nothing is contracted");
    assert_eq!(fused, 4, "the sum, both differences and mad become fma");
    assert_eq!(plain_library, fused_library, "the math library rounds as written either way");
}
