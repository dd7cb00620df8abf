#![allow(clippy::unwrap_used)]
//! The kernel-wide range analysis on small kernels: what it proves of loop counters, coalesced
//! counters, constant tables and arguments. (`tests/tests/ranges.rs` checks it against the
//! emulator on every corpus and PolyBench kernel.)

use kiln_dataflow::ir::*;
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_dataflow::ranges::ValueRanges;
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};

/// The kernel as the e-graph phase receives it (the `-O1` passes, loop transformations on).
fn compile(src: &str) -> Kernel {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let (id, _) = prog.kernels().next().unwrap();
    let opts = kiln_dataflow::lower::LowerOptions { loop_transforms: true, ..Default::default() };
    let mut k = kiln_dataflow::lower::lower_kernel_with(&prog, id, &opts).unwrap();
    optimize(&mut k, &PipelineOptions { egraph: None, defer_divisions: true, ..PipelineOptions::default() }).unwrap();
    k
}

/// The comparison `x < c` of the kernel (signed or unsigned), with `x`.
fn compare_with(k: &Kernel, c: u64) -> (Op, Value) {
    k.ops
        .iter()
        .find_map(|(op, o)| match (&o.kind, o.args.as_slice()) {
            (OpKind::Cmp(CmpOp::Slt | CmpOp::Ult), [x, y]) if k.as_const(*y) == Some(c) => Some((op, *x)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no comparison with {c} in\n{k}"))
}

#[test]
fn a_counted_loop_bounds_its_counter() {
    let k = compile("kernel void t(global int *o) { for (int i = 0; i < 20; i++) o[i] = i * 3; }");
    let r = ValueRanges::compute(&k);
    let (test, i) = compare_with(&k, 20);
    let f = r.facts(&k, i);
    assert_eq!((f.lo, f.hi), (0, 20), "the counter takes 0..=20 (20 when the loop exits)\n{k}");
    // Where the test held, the counter is at most 19.
    let header = k.ops[test].block;
    let Terminator::Branch { then_to, .. } = &k.blocks[header].term else { panic!("the header branches\n{k}") };
    let f = r.facts_in(&k, then_to.block, i);
    assert_eq!((f.lo, f.hi), (0, 19), "in the body\n{k}");
}

#[test]
fn a_coalesced_nest_bounds_its_inner_counter() {
    let k = compile(
        "kernel void t(global int *o) {
            for (int i = 0; i < 20; i++)
                for (int j = 0; j < 25; j++)
                    o[i * 25 + j] = i + j;
        }",
    );
    let r = ValueRanges::compute(&k);
    // The coalesced loop: j' = j + 1 < 25 ? j + 1 : 0, and i steps when j wraps.
    let params: Vec<Value> = k.blocks.iter().flat_map(|(_, b)| b.params.clone()).collect();
    let his: Vec<u64> = params.iter().map(|p| r.facts(&k, *p).hi).collect();
    assert!(his.contains(&24), "the inner counter stays below 25: {his:?}\n{k}");
    assert!(his.contains(&20), "the outer counter reaches 20: {his:?}\n{k}");
}

/// A nest whose statements after the inner loop run in an iteration of their own steps its
/// inner counter as `j < 25 ? j + 1 : 0`: the select's arm is bounded through the add by the
/// condition on `j`.
#[test]
fn an_arm_computed_from_a_bounded_value_is_bounded() {
    let k = compile(
        "kernel void t(global int *o) {
            #pragma loop_coalesce
            for (int i = 0; i < 20; i++) {
                int s = 0;
                for (int j = 0; j < 25; j++)
                    s += j ^ i;
                o[i] = s;
            }
        }",
    );
    let r = ValueRanges::compute(&k);
    let params: Vec<Value> = k.blocks.iter().flat_map(|(_, b)| b.params.clone()).collect();
    let his: Vec<u64> = params.iter().map(|p| r.facts(&k, *p).hi).collect();
    assert!(his.contains(&25), "the inner counter stays at most 25: {his:?}\n{k}");
}

#[test]
fn a_constant_table_bounds_what_it_reads() {
    let k = compile(
        "constant int table[4] = {3, 9, 4, 7};
         kernel void t(global int *o, int n) { for (int i = 0; i < n; i++) o[i] = table[i & 3]; }",
    );
    let r = ValueRanges::compute(&k);
    let load = k.ops.iter().find(|(_, o)| matches!(o.kind, OpKind::Load(_))).map(|(_, o)| o.result.unwrap());
    let f = r.facts(&k, load.expect("a load of the table"));
    assert_eq!((f.lo, f.hi), (3, 9), "{k}");
}

#[test]
fn arguments_and_memory_are_unknown() {
    let k = compile("kernel void t(global int *o, int n) { o[0] = n + 1; o[1] = o[2] + 3; }");
    let r = ValueRanges::compute(&k);
    for (_, o) in k.ops.iter() {
        if let (OpKind::Binary(BinOp::Add), Some(v)) = (&o.kind, o.result) {
            let f = r.facts(&k, v);
            assert_eq!(f.hi, u32::MAX as u64, "{v} may be anything\n{k}");
        }
    }
}

#[test]
fn a_loop_with_an_unknown_bound_is_bounded_below() {
    // i counts up from 0: it never goes below 0, but the bound n is unknown.
    let k = compile("kernel void t(global int *o, int n) { for (int i = 0; i < n; i++) o[i] = i; }");
    let r = ValueRanges::compute(&k);
    let header_params: Vec<Value> = k.blocks.iter().flat_map(|(_, b)| b.params.clone()).collect();
    assert!(header_params.iter().all(|p| r.facts(&k, *p).lo == 0), "{k}");
}

#[test]
fn a_triangular_nest_bounds_both_counters() {
    let k = compile(
        "kernel void t(global int *o) {
            int m[28][28];
            for (int i = 0; i < 28; i++)
                for (int j = i; j < 28; j++)
                    m[i][j] = i + j;
            o[0] = m[3][5];
        }",
    );
    let r = ValueRanges::compute(&k);
    // The inner loop is entered only where `i < 28` held, and `i` does not change in it.
    let params: Vec<Value> = k.blocks.iter().flat_map(|(_, b)| b.params.clone()).collect();
    let his: Vec<u64> = params.iter().map(|p| r.facts(&k, *p).hi).collect();
    assert_eq!(his.len(), 2, "{k}");
    assert!(his.iter().all(|h| *h <= 28), "the counters stay within 0..=28: {his:?}\n{k}");
}

#[test]
fn a_loop_up_to_an_outer_counter_bounds_its_counter() {
    // `exit-test` has made the inner test `j != k - 1`, carried to the header: with `k` at
    // least 1, `j` enters at 0, at most `k - 1`, so it counts up to `k - 1` and stops.
    let k = compile(
        "kernel void t(global int *o) {
            int y[40];
            for (int i = 0; i < 40; i++) y[i] = i;
            int s = 0;
            for (int k = 1; k < 40; k++)
                for (int j = 0; j < k; j++)
                    s += y[j];
            o[0] = s;
        }",
    );
    let r = ValueRanges::compute(&k);
    let (j, stop) = counter_tested_against_a_value(&k);
    assert_eq!(r.facts(&k, stop).hi, 38, "k - 1 is at most 38\n{k}");
    let f = r.facts(&k, j);
    assert_eq!((f.lo, f.hi), (0, 39), "j takes 0..=39 at the header (39 when the loop exits)\n{k}");
}

#[test]
fn a_loop_up_to_an_outer_counter_from_zero_bounds_its_counter() {
    // With `i` from 0, the stop `i - 1` wraps to all ones for `i == 0`, where the inner loop's
    // entry test `0 != i` fails; where it passes, `i - 1` is at most 38.
    let k = compile(
        "kernel void t(global int *o) {
            int y[40];
            for (int i = 0; i < 40; i++) y[i] = i;
            int s = 0;
            for (int i = 0; i < 40; i++)
                for (int j = 0; j < i; j++)
                    s += y[j];
            o[0] = s;
        }",
    );
    let r = ValueRanges::compute(&k);
    let (j, _) = counter_tested_against_a_value(&k);
    let f = r.facts(&k, j);
    assert_eq!((f.lo, f.hi), (0, 39), "j takes 0..=39 at the header\n{k}");
}

/// The one comparison `j != stop` of the kernel between a block parameter and a computed value
/// (what `exit-test` leaves of `j < k`), as `(j, stop)`.
fn counter_tested_against_a_value(k: &Kernel) -> (Value, Value) {
    let tests: Vec<(Value, Value)> = k
        .ops
        .iter()
        .filter_map(|(_, o)| match (&o.kind, o.args.as_slice()) {
            (OpKind::Cmp(CmpOp::Ne), [x, y]) if k.as_const(*y).is_none() && k.def_op(*x).is_none() => Some((*x, *y)),
            _ => None,
        })
        .collect();
    let [test] = tests.as_slice() else { panic!("one test of a counter against a value: {tests:?}\n{k}") };
    *test
}

#[test]
fn a_loop_counting_down_to_zero_bounds_its_counter_in_the_body() {
    // i from 39 down to 0 (`i >= 0`): at the header i may be -1, in the body it is 0..=39.
    let k = compile("kernel void t(global int *o) { for (int i = 39; i >= 0; i--) o[i] = i + 1; }");
    let r = ValueRanges::compute(&k);
    let (test, i) = k
        .ops
        .iter()
        .find_map(|(op, o)| match (&o.kind, o.args.as_slice()) {
            (OpKind::Cmp(CmpOp::Sge), [x, y]) if k.as_const(*y) == Some(0) => Some((op, *x)),
            (OpKind::Cmp(CmpOp::Sle), [y, x]) if k.as_const(*y) == Some(0) => Some((op, *x)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no test i >= 0 in\n{k}"));
    let header = k.ops[test].block;
    let Terminator::Branch { then_to, else_to, .. } = &k.blocks[header].term else { panic!("a branch\n{k}") };
    let f = r.facts_in(&k, then_to.block, i);
    assert_eq!((f.lo, f.hi), (0, 39), "in the body\n{k}");
    let f = r.facts_in(&k, else_to.block, i);
    assert_eq!(f.hi, u32::MAX as u64, "after the loop i is -1\n{k}");
}

#[test]
fn a_loop_counting_down_from_an_unknown_start_is_not_bounded_above() {
    let k = compile("kernel void t(global int *o, int n) { for (int i = n; i >= 0; i--) o[i] = i + 1; }");
    let r = ValueRanges::compute(&k);
    let store = k.ops.iter().find(|(_, o)| matches!(o.kind, OpKind::Store(_))).map(|(_, o)| (o.block, o.args[0]));
    let (body, index) = store.expect("a store");
    let f = r.facts_in(&k, body, index);
    assert_eq!((f.lo, f.hi), (0, 0x7fff_ffff), "only non-negative in the body\n{k}");
}
