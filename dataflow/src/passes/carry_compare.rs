//! `carry-compare`: an equality test of a loop's counter against a constant, `j != c`, is
//! computed an iteration ahead and carried into the loop header as a parameter, like
//! `exit-test` carries the loop's own test.
//!
//! The case it is for is the inner test of a coalesced loop nest (`lower/coalesce.rs`, made an
//! equality by `bounded-compare`): `j' = j != c ? j + 1 : 0` and `i' = j != c ? i : i + 1`.
//! The test decides whether the outer counter keeps its value, which synthesis makes that
//! register's clock enable, merged with the pipeline's own enable and the state that
//! initializes the counter: the test's LUTs on the counter's bits sat in front of the enable
//! as one more LUT level and route (syrk's, syr2k's and fdtd-2d's critical paths on the iCE40).
//! Carried, the test is a register.
//!
//! The next iteration's test is built from the value the latch hands the counter, through the
//! selects and constant steps it is made of: `j + s != c` is `j != c - s` (exact modulo
//! `2^w`), a constant is folded, a select tests each of its sides (the test itself, used as a
//! select's condition, is the carried parameter), and a value from outside the loop is compared
//! as it is. A latch value of any other form leaves the test as it is, so that the carried test
//! never lengthens the loop's recurrences by more than the comparison of a register.
//!
//! Runs at the end of optimization ([`super::finish_for_hardware`]), after `bounded-compare`.
//! Tested in `dataflow/tests/emu.rs` (`carried_compares_keep_results`).

use super::Pass;
use crate::analysis::{NaturalLoop, source_loops};
use crate::ir::op::mask;
use crate::ir::*;
use kiln_diagnostics::Span;

pub struct CarryCompare;

impl Pass for CarryCompare {
    fn name(&self) -> &'static str {
        "carry-compare"
    }
    fn description(&self) -> &'static str {
        "computes equality tests of loop counters against constants an iteration ahead"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let loops: Vec<NaturalLoop> = source_loops(k);
        let mut changed = false;
        for l in &loops {
            // The tests are chosen before any is carried: carrying one builds tests of the
            // counter in the latches, which are not to be carried in turn.
            let tests: Vec<Test> = l
                .blocks
                .iter()
                .flat_map(|b| k.blocks[*b].ops.iter())
                .filter_map(|op| counter_test(k, l, *op))
                .filter(|t| read_by_an_op_of(k, l, t.result))
                .collect();
            for t in &tests {
                changed |= carry(k, l, t).is_some();
            }
        }
        changed
    }
}

/// A test `j == c` or `j != c` of a header parameter `j` of loop `l` against a constant.
struct Test {
    op: Op,
    result: Value,
    counter: Value,
    ne: bool,
    constant: u64,
}

fn counter_test(k: &Kernel, l: &NaturalLoop, op: Op) -> Option<Test> {
    let o = &k.ops[op];
    let ne = match o.kind {
        OpKind::Cmp(CmpOp::Eq) => false,
        OpKind::Cmp(CmpOp::Ne) => true,
        _ => return None,
    };
    let [a, b] = o.args.as_slice() else { return None };
    let (counter, constant) = match (k.as_const(*a), k.as_const(*b)) {
        (None, Some(c)) => (*a, c),
        (Some(c), None) => (*b, c),
        _ => return None,
    };
    matches!(k.values[counter].def, ValueDef::Param(h, _) if h == l.header).then_some(())?;
    Some(Test { op, result: o.result?, counter, ne, constant })
}

/// Whether an operation of loop `l` reads `v` (a select, a predicate): a test that only a
/// branch or a jump reads is a loop test, `exit-test`'s to carry, or one it already computes
/// ahead.
fn read_by_an_op_of(k: &Kernel, l: &NaturalLoop, v: Value) -> bool {
    l.blocks.iter().flat_map(|b| k.blocks[*b].ops.iter()).any(|op| k.ops[*op].args.contains(&v))
}

/// Carries `test` of loop `l` in a new header parameter, when every latch's value of the
/// counter has a form the test can be computed ahead on.
fn carry(k: &mut Kernel, l: &NaturalLoop, test: &Test) -> Option<()> {
    let h = l.header;
    let ValueDef::Param(_, idx) = k.values[test.counter].def else { return None };
    let preds = k.predecessors()[h].clone();
    // Check every latch first, so that nothing is built for a test that is not carried.
    for p in &preds {
        if l.latches.contains(p) {
            for t in k.blocks[*p].term.targets() {
                if t.block == h && !computable_ahead(k, l, test, t.args[idx as usize], 4) {
                    return None;
                }
            }
        }
    }
    let span = k.ops[test.op].span;
    let carried = k.add_param(h, 1, None);
    for p in preds {
        let latch = l.latches.contains(&p);
        let n = k.blocks[p].term.targets().iter().filter(|t| t.block == h).count();
        for i in 0..n {
            let arg = k.blocks[p].term.targets().into_iter().filter(|t| t.block == h).nth(i)?.args[idx as usize];
            let next = if latch {
                ahead(k, l, test, carried, p, arg, span)?
            } else {
                let c = k.push_value(p, OpKind::Const(test.constant), vec![], k.width(test.counter), span);
                k.push_value(p, k.ops[test.op].kind.clone(), vec![arg, c], 1, span)
            };
            let t = k.blocks[p].term.targets_mut().into_iter().filter(|t| t.block == h).nth(i)?;
            t.args.push(next);
        }
    }
    // The parameter equals the test wherever the test is defined (the header dominates it).
    k.replace_uses(test.result, carried);
    Some(())
}

/// Whether the test of latch value `v` can be built from `v`'s definition (see the module
/// documentation), within `depth` selects.
fn computable_ahead(k: &Kernel, l: &NaturalLoop, test: &Test, v: Value, depth: u32) -> bool {
    if v == test.counter || k.as_const(v).is_some() || is_invariant(k, l, v) {
        return true;
    }
    let Some(op) = k.def_op(v) else { return false };
    match (&k.ops[op].kind, k.ops[op].args.as_slice()) {
        (OpKind::Binary(BinOp::Add), [a, b]) => {
            let stepped =
                |x: &Value, s: &Value| k.as_const(*s).is_some() && (*x == test.counter || is_invariant(k, l, *x));
            stepped(a, b) || stepped(b, a)
        }
        (OpKind::Binary(BinOp::Sub), [x, s]) => {
            k.as_const(*s).is_some() && (*x == test.counter || is_invariant(k, l, *x))
        }
        (OpKind::Select, [_, x, y]) => {
            depth > 0 && computable_ahead(k, l, test, *x, depth - 1) && computable_ahead(k, l, test, *y, depth - 1)
        }
        _ => false,
    }
}

/// Whether `v` is defined outside loop `l`.
fn is_invariant(k: &Kernel, l: &NaturalLoop, v: Value) -> bool {
    let b = match k.values[v].def {
        ValueDef::Param(b, _) => b,
        ValueDef::Op(op) => k.ops[op].block,
    };
    !l.blocks.contains(&b)
}

/// The test of latch value `v`, built in block `at` (where `v` is available).
fn ahead(
    k: &mut Kernel,
    l: &NaturalLoop,
    test: &Test,
    carried: Value,
    at: Block,
    v: Value,
    span: Span,
) -> Option<Value> {
    let w = k.width(test.counter);
    let compare = |k: &mut Kernel, x: Value, c: u64| {
        let c = k.push_value(at, OpKind::Const(c & mask(w)), vec![], w, span);
        k.push_value(at, k.ops[test.op].kind.clone(), vec![x, c], 1, span)
    };
    if v == test.counter {
        return Some(carried);
    }
    if let Some(x) = k.as_const(v) {
        let equal = x & mask(w) == test.constant & mask(w);
        return Some(k.push_value(at, OpKind::Const((equal != test.ne) as u64), vec![], 1, span));
    }
    if is_invariant(k, l, v) {
        return Some(compare(k, v, test.constant));
    }
    let op = k.def_op(v)?;
    let (kind, args) = (k.ops[op].kind.clone(), k.ops[op].args.clone());
    match (kind, args.as_slice()) {
        // `x + s == c` is `x == c - s`, `x - s == c` is `x == c + s` (modulo 2^w).
        (OpKind::Binary(BinOp::Add), [x, s]) if k.as_const(*s).is_some() => {
            Some(compare(k, *x, test.constant.wrapping_sub(k.as_const(*s)?)))
        }
        (OpKind::Binary(BinOp::Add), [s, x]) if k.as_const(*s).is_some() => {
            Some(compare(k, *x, test.constant.wrapping_sub(k.as_const(*s)?)))
        }
        (OpKind::Binary(BinOp::Sub), [x, s]) if k.as_const(*s).is_some() => {
            Some(compare(k, *x, test.constant.wrapping_add(k.as_const(*s)?)))
        }
        (OpKind::Select, [c, x, y]) => {
            let c = if *c == test.result { carried } else { *c };
            let x = ahead(k, l, test, carried, at, *x, span)?;
            let y = ahead(k, l, test, carried, at, *y, span)?;
            Some(k.push_value(at, OpKind::Select, vec![c, x, y], 1, span))
        }
        _ => None,
    }
}
