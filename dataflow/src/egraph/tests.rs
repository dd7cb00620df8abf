//! The phase's correctness property: on random expression DAGs, the optimized block computes
//! bit for bit what the original computed, on random inputs and on edge values (0, 1, -1, MIN,
//! MAX, shift counts at and beyond the width).

use super::*;
use crate::ir::op::{eval, mask};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// A random straight-line datapath: `steps` pick an operation and operands from the values made
/// so far; `constants` seed the constant pool (small numbers, powers of two and edge values
/// all occur).
#[derive(Clone, Debug)]
struct Recipe {
    width: u32,
    narrow_params: u8,
    steps: Vec<(u8, u8, u8, u8)>,
    constants: Vec<u64>,
}

impl Arbitrary for Recipe {
    fn arbitrary(g: &mut Gen) -> Recipe {
        let width = *g.choose(&[8u32, 13, 32, 64]).unwrap_or(&32);
        let n = usize::arbitrary(g) % 24 + 2;
        let constants = (0..4)
            .map(|_| match u8::arbitrary(g) % 6 {
                0 => u64::arbitrary(g) % 20,
                1 => 1 << (u32::arbitrary(g) % width),
                2 => u64::MAX,
                3 => 1 << (width - 1),
                4 => (1u64 << (u32::arbitrary(g) % width)).wrapping_sub(1),
                _ => u64::arbitrary(g),
            })
            .collect();
        Recipe {
            width,
            narrow_params: u8::arbitrary(g) % 3,
            steps: (0..n).map(|_| <(u8, u8, u8, u8)>::arbitrary(g)).collect(),
            constants,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Recipe>> {
        let me = self.clone();
        Box::new((0..self.steps.len()).rev().map(move |i| {
            let mut r = me.clone();
            r.steps.truncate(i);
            r
        }))
    }
}

/// Builds the recipe as a kernel: an entry block whose parameters are the inputs and whose
/// jump passes the last values to a returning block (so they are the region's roots).
fn build(r: &Recipe) -> Kernel {
    let w = r.width;
    let span = kiln_diagnostics::Span::default();
    let mut k = Kernel::new("prop".into(), span);
    let entry = k.entry;
    let mut wide: Vec<Value> = (0..3).map(|_| k.add_param(entry, w, None)).collect();
    let mut bits: Vec<Value> = vec![k.add_param(entry, 1, None)];
    for i in 0..r.narrow_params {
        let p = k.add_param(entry, 4 + 2 * i as u32, None);
        wide.push(k.push_value(entry, OpKind::Cast(CastOp::Zext), vec![p], w, span));
    }
    for c in &r.constants {
        wide.push(k.push_value(entry, OpKind::Const(c & mask(w)), vec![], w, span));
    }
    let pick = |pool: &Vec<Value>, i: u8| pool[i as usize % pool.len()];
    for &(op, a, b, c) in &r.steps {
        let (x, y) = (pick(&wide, a), pick(&wide, b));
        use BinOp::*;
        let binary = [Add, Sub, Mul, UDiv, SDiv, URem, SRem, And, Or, Xor, Shl, LShr, AShr];
        match op % 20 {
            o @ 0..=12 => wide.push(k.push_value(entry, OpKind::Binary(binary[o as usize]), vec![x, y], w, span)),
            13 => {
                let cmp = [
                    CmpOp::Eq,
                    CmpOp::Ne,
                    CmpOp::Ult,
                    CmpOp::Ule,
                    CmpOp::Ugt,
                    CmpOp::Uge,
                    CmpOp::Slt,
                    CmpOp::Sle,
                    CmpOp::Sgt,
                    CmpOp::Sge,
                ];
                bits.push(k.push_value(entry, OpKind::Cmp(cmp[c as usize % cmp.len()]), vec![x, y], 1, span));
            }
            14 => {
                let cond = pick(&bits, c);
                wide.push(k.push_value(entry, OpKind::Select, vec![cond, x, y], w, span));
            }
            15 => wide.push(k.push_value(entry, OpKind::Unary(UnOp::Neg), vec![x], w, span)),
            16 => wide.push(k.push_value(entry, OpKind::Unary(UnOp::Not), vec![x], w, span)),
            17 | 18 => {
                let n = 1 + c as u32 % (w - 1);
                let t = k.push_value(entry, OpKind::Cast(CastOp::Trunc), vec![x], n, span);
                let back = if op % 20 == 17 { CastOp::Zext } else { CastOp::Sext };
                wide.push(k.push_value(entry, OpKind::Cast(back), vec![t], w, span));
            }
            _ => {
                let cond = pick(&bits, c);
                bits.push(k.push_value(entry, OpKind::Unary(UnOp::Not), vec![cond], 1, span));
            }
        }
    }
    let exit = k.new_block(span);
    let mut args: Vec<Value> = wide.iter().rev().take(3).copied().collect();
    args.push(*bits.last().unwrap_or(&bits[0]));
    for a in &args {
        let pw = k.width(*a);
        k.add_param(exit, pw, None);
    }
    k.blocks[entry].term = Terminator::Jump(Target { block: exit, args });
    k.blocks[exit].term = Terminator::Return;
    k
}

/// The values the entry block passes on, for the given parameter values.
fn run(k: &Kernel, inputs: &[u64]) -> Vec<u64> {
    let mut env: HashMap<Value, u64> = HashMap::new();
    for (i, p) in k.blocks[k.entry].params.iter().enumerate() {
        env.insert(*p, inputs[i % inputs.len()] & mask(k.width(*p)));
    }
    for &op in &k.blocks[k.entry].ops {
        let o = &k.ops[op];
        let args: Vec<u64> = o.args.iter().map(|a| env[a]).collect();
        let widths: Vec<u32> = o.args.iter().map(|a| k.width(*a)).collect();
        if let Some(r) = o.result {
            env.insert(r, eval(&o.kind, &args, &widths, k.width(r)));
        }
    }
    match &k.blocks[k.entry].term {
        Terminator::Jump(t) => t.args.iter().map(|a| env[a]).collect(),
        _ => vec![],
    }
}

fn agrees(r: Recipe, seed: u64) -> TestResult {
    let original = build(&r);
    let mut optimized = original.clone();
    let opts =
        EgraphOptions { node_limit: 3_000, iter_limit: 6, ..EgraphOptions::for_device(kiln_device::Device::generic()) };
    if optimize_kernel(&mut optimized, &opts).changed() {
        REWRITTEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    if let Err(e) = crate::verify::verify(&optimized) {
        return TestResult::error(format!("invalid IR after the e-graph phase: {e:?}\n{optimized}"));
    }
    let w = r.width;
    let edges = [0, 1, mask(w), 1 << (w - 1), mask(w) >> 1, w as u64, w as u64 + 1, 2 * w as u64 - 1];
    let mut inputs: Vec<Vec<u64>> = Vec::new();
    for i in 0..edges.len() {
        inputs.push((0..8).map(|j| edges[(i + j * 3) % edges.len()]).collect());
    }
    let mut state = seed | 1;
    for _ in 0..24 {
        inputs.push(
            (0..8)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                })
                .collect(),
        );
    }
    for input in inputs {
        let (a, b) = (run(&original, &input), run(&optimized, &input));
        if a != b {
            return TestResult::error(format!(
                "inputs {input:x?}: original {a:x?}, optimized {b:x?}\n{original}\n{optimized}"
            ));
        }
    }
    TestResult::passed()
}

/// How many random datapaths the phase rewrote (the property means little if it rewrites none).
static REWRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn optimized_datapaths_compute_what_the_originals_did() {
    QuickCheck::new().tests(400).quickcheck(agrees as fn(Recipe, u64) -> TestResult);
    let rewritten = REWRITTEN.load(std::sync::atomic::Ordering::Relaxed);
    assert!(rewritten >= 100, "only {rewritten} of 400 random datapaths were rewritten");
}

#[test]
fn multiply_by_constant_becomes_shifts_and_adds() {
    let r = Recipe { width: 32, narrow_params: 0, steps: vec![(2, 0, 3, 0)], constants: vec![7] };
    let mut k = build(&r);
    let report = optimize_kernel(&mut k, &EgraphOptions::for_device(kiln_device::Device::generic()));
    assert!(report.changed(), "{report:?}");
    let kinds: Vec<&OpKind> = k.blocks[k.entry].ops.iter().map(|op| &k.ops[*op].kind).collect();
    assert!(!kinds.contains(&&OpKind::Binary(BinOp::Mul)), "{k}");
    assert!(kinds.contains(&&OpKind::Binary(BinOp::Sub)), "{k}");
}

#[test]
fn a_recurrence_is_added_last() {
    // acc' = ((acc + a) + b) + c in a loop: the loop-carried acc should pass one adder.
    let span = kiln_diagnostics::Span::default();
    let mut k = Kernel::new("rec".into(), span);
    let entry = k.entry;
    let header = k.new_block(span);
    let exit = k.new_block(span);
    // a, b and c come from the kernel's arguments: nothing is known of them.
    let inputs: Vec<Value> = (0..3).map(|_| k.add_param(entry, 32, None)).collect();
    let zero = k.push_value(entry, OpKind::Const(0), vec![], 32, span);
    k.blocks[entry].term =
        Terminator::Jump(Target { block: header, args: vec![zero, inputs[0], inputs[1], inputs[2]] });
    let acc = k.add_param(header, 32, None);
    let a = k.add_param(header, 32, None);
    let b = k.add_param(header, 32, None);
    let c = k.add_param(header, 32, None);
    let s1 = k.push_value(header, OpKind::Binary(BinOp::Add), vec![acc, a], 32, span);
    let s2 = k.push_value(header, OpKind::Binary(BinOp::Add), vec![s1, b], 32, span);
    let s3 = k.push_value(header, OpKind::Binary(BinOp::Add), vec![s2, c], 32, span);
    let done = k.push_value(header, OpKind::Cmp(CmpOp::Eq), vec![s3, a], 1, span);
    k.blocks[header].term = Terminator::Branch {
        cond: done,
        then_to: Target { block: exit, args: vec![] },
        else_to: Target { block: header, args: vec![s3, a, b, c] },
    };
    k.blocks[exit].term = Terminator::Return;
    let report = optimize_kernel(&mut k, &EgraphOptions::for_device(kiln_device::Device::generic()));
    let region = report.regions.iter().find(|r| r.block == header).expect("the loop body is a region");
    assert!(region.kept && region.depth_after < region.depth_before, "{region:?}\n{k}");
    // The value passed back adds acc to something computed without it.
    let Terminator::Branch { else_to, .. } = &k.blocks[header].term else { panic!("branch") };
    let last = k.def_op(else_to.args[0]).expect("an add");
    assert_eq!(k.ops[last].kind, OpKind::Binary(BinOp::Add));
    assert!(k.ops[last].args.contains(&acc), "{k}");
}

#[test]
fn values_from_other_blocks_are_combined_before_a_load() {
    // `(3 * b) * mem[i]` in a loop body, b from before the loop: `3 * b` can be computed while
    // the load is outstanding, so the extraction must not move the 3 onto the loaded value.
    let span = kiln_diagnostics::Span::default();
    let mut k = Kernel::new("load".into(), span);
    let mem = k.mems.push(MemData::new("m".into(), MemKind::Private, 32, Some(16), span));
    let entry = k.entry;
    let body = k.new_block(span);
    let exit = k.new_block(span);
    let b = k.add_param(entry, 32, None);
    let index = k.add_param(entry, 32, None);
    k.blocks[entry].term = Terminator::Jump(Target { block: body, args: vec![] });
    let three = k.push_value(body, OpKind::Const(3), vec![], 32, span);
    let scaled = k.push_value(body, OpKind::Binary(BinOp::Mul), vec![three, b], 32, span);
    let loaded = k.push_value(body, OpKind::Load(mem), vec![index], 32, span);
    let product = k.push_value(body, OpKind::Binary(BinOp::Mul), vec![scaled, loaded], 32, span);
    k.add_param(exit, 32, None);
    k.blocks[exit].term = Terminator::Return;
    k.blocks[body].term = Terminator::Jump(Target { block: exit, args: vec![product] });
    optimize_kernel(&mut k, &EgraphOptions::for_device(kiln_device::Device::generic()));
    let Terminator::Jump(to_exit) = &k.blocks[body].term else { panic!("jump") };
    let last = k.def_op(to_exit.args[0]).expect("a multiply");
    assert_eq!(k.ops[last].kind, OpKind::Binary(BinOp::Mul), "{k}");
    assert!(k.ops[last].args.contains(&loaded), "the loaded value should enter last:\n{k}");
}

#[test]
fn a_subtraction_of_a_constant_costs_an_adder() {
    // `x - 1` is the adder `x + 0xffffffff`: rewriting one into the other saves no area (the
    // false saving of pricing it as a subtractor rewrote every kernel's loop-bound block, and
    // such rewrites made kernels larger after synthesis). The region may still be rewritten for
    // depth, which the scheduler's delay model prices (`crate::delay`).
    let span = kiln_diagnostics::Span::default();
    let mut k = Kernel::new("sub_const".into(), span);
    let entry = k.entry;
    let exit = k.new_block(span);
    let x = k.add_param(entry, 32, None);
    let one = k.push_value(entry, OpKind::Const(1), vec![], 32, span);
    let less = k.push_value(entry, OpKind::Binary(BinOp::Sub), vec![x, one], 32, span);
    k.blocks[entry].term = Terminator::Jump(Target { block: exit, args: vec![less] });
    k.add_param(exit, 32, None);
    k.blocks[exit].term = Terminator::Return;
    let device = kiln_device::Device::by_name("ice40-up5k").expect("a device model");
    let report = optimize_kernel(&mut k, &EgraphOptions::for_device(device));
    let region = report.regions.iter().find(|r| r.block == entry).expect("the entry block is a region");
    assert_eq!(region.area_after, region.area_before, "{region:?}\n{k}");
}
