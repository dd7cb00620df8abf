//! Memory dependences between the accesses of a loop, within an iteration and across
//! iterations.
//!
//! Indices are analysed as affine functions `α·iv + c + Σ symbols` of one induction variable
//! (a header parameter that the back edge advances by a constant step) and loop-invariant
//! symbols. Two accesses to the same memory whose indices differ by a constant collide exactly
//! `Δ / (α·step)` iterations apart (or never, when that is not an integer). Anything else is
//! assumed to collide in every iteration (distance 1 both ways): conservative, never wrong.
//!
//! `#pragma ivdep` removes the loop-carried dependences (the user promises there are none);
//! `safelen(N)` turns them into dependences of distance `N` — except for memories updated by
//! atomic built-ins, whose elements iterations share on purpose. Accesses to `volatile` memories
//! keep their program order within and across iterations. Distinct memories never alias (each pointer
//! argument is its own port; each private array its own memory).

use super::shape::LoopShape;
use kiln_dataflow::ir::op::sext;
use kiln_dataflow::ir::{BinOp, CastOp, Kernel, Mem, Op, OpKind, Value, ValueDef};
use kiln_dataflow::ranges::ValueRanges;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// `α·iv + konst + Σ coeff·sym`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    pub iv: Option<(Value, i64)>,
    pub konst: i64,
    pub syms: BTreeMap<Value, i64>,
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine { iv: None, konst: c, syms: BTreeMap::new() }
    }

    fn sym(v: Value) -> Affine {
        Affine { iv: None, konst: 0, syms: BTreeMap::from([(v, 1)]) }
    }

    fn add(&self, o: &Affine, sign: i64) -> Option<Affine> {
        let iv = match (self.iv, o.iv) {
            (None, None) => None,
            (Some(a), None) => Some(a),
            (None, Some((v, c))) => Some((v, c * sign)),
            (Some((va, ca)), Some((vb, cb))) if va == vb => Some((va, ca + sign * cb)),
            _ => return None,
        };
        let mut syms = self.syms.clone();
        for (v, c) in &o.syms {
            *syms.entry(*v).or_insert(0) += sign * c;
        }
        syms.retain(|_, c| *c != 0);
        Some(Affine {
            iv: iv.filter(|(_, c)| *c != 0),
            konst: self.konst.wrapping_add(sign.wrapping_mul(o.konst)),
            syms,
        })
    }

    fn scale(&self, f: i64) -> Affine {
        Affine {
            iv: self.iv.map(|(v, c)| (v, c.wrapping_mul(f))).filter(|(_, c)| *c != 0),
            konst: self.konst.wrapping_mul(f),
            syms: self.syms.iter().map(|(v, c)| (*v, c.wrapping_mul(f))).filter(|(_, c)| *c != 0).collect(),
        }
    }
}

/// Induction variables of a loop: header parameter → step per iteration.
pub fn induction_variables(k: &Kernel, shape: &LoopShape) -> HashMap<Value, i64> {
    let mut ivs = HashMap::new();
    let params = &k.blocks[shape.header].params;
    for (p, arg) in params.iter().zip(&shape.back_args) {
        let Some(op) = k.def_op(*arg) else { continue };
        let o = &k.ops[op];
        let step = match (&o.kind, o.args.as_slice()) {
            (OpKind::Binary(BinOp::Add), [a, b]) if a == p => k.as_const(*b).map(|c| sext(c, k.width(*b))),
            (OpKind::Binary(BinOp::Add), [a, b]) if b == p => k.as_const(*a).map(|c| sext(c, k.width(*a))),
            // `i - c` with `c` the most negative 64-bit value has no step as an `i64`.
            (OpKind::Binary(BinOp::Sub), [a, b]) if a == p => {
                k.as_const(*b).and_then(|c| sext(c, k.width(*b)).checked_neg())
            }
            _ => None,
        };
        if let Some(s) = step.filter(|s| *s != 0) {
            ivs.insert(*p, s);
        }
    }
    ivs
}

/// Affine analysis of values inside one loop.
///
/// Index arithmetic on 32 bits is assumed not to overflow (indices fit the 32-bit space). Index
/// arithmetic on fewer bits is what the e-graph phase makes of it when the value ranges allow:
/// there the bits wrap on purpose (`j - 1` on 6 bits may be `j + 63`), so the form computed
/// with constants read as signed numbers equals the value only modulo `2^n`. Where such a
/// value is extended back, the ranges of the induction variable and of the symbols bound the
/// form; when that bound lies in one window of `2^n` values, the value is the form moved into
/// the window the extension reads (`[0, 2^n)`, or `[-2^(n-1), 2^(n-1))` for a sign extension);
/// otherwise the index is unknown.
pub struct AffineAnalysis<'k> {
    k: &'k Kernel,
    in_loop: BTreeSet<kiln_dataflow::ir::Block>,
    ivs: HashMap<Value, i64>,
    ranges: &'k ValueRanges,
    memo: HashMap<Value, Option<Affine>>,
}

impl<'k> AffineAnalysis<'k> {
    pub fn new(k: &'k Kernel, shape: &LoopShape, ranges: &'k ValueRanges) -> Self {
        AffineAnalysis {
            k,
            in_loop: shape.blocks().into_iter().collect(),
            ivs: induction_variables(k, shape),
            ranges,
            memo: HashMap::new(),
        }
    }

    pub fn step(&self, iv: Value) -> Option<i64> {
        self.ivs.get(&iv).copied()
    }

    fn defined_in_loop(&self, v: Value) -> bool {
        match self.k.values[v].def {
            ValueDef::Param(b, _) => self.in_loop.contains(&b),
            ValueDef::Op(op) => self.in_loop.contains(&self.k.ops[op].block),
        }
    }

    pub fn of(&mut self, v: Value) -> Option<Affine> {
        if let Some(r) = self.memo.get(&v) {
            return r.clone();
        }
        let r = self.compute(v);
        self.memo.insert(v, r.clone());
        r
    }

    fn compute(&mut self, v: Value) -> Option<Affine> {
        let k = self.k;
        if let Some(c) = k.as_const(v) {
            return Some(Affine::constant(sext(c, k.width(v))));
        }
        if !self.defined_in_loop(v) {
            return Some(Affine::sym(v));
        }
        match k.values[v].def {
            ValueDef::Param(..) => {
                self.ivs.contains_key(&v).then(|| Affine { iv: Some((v, 1)), konst: 0, syms: BTreeMap::new() })
            }
            ValueDef::Op(op) => {
                let o = &k.ops[op];
                let a = |s: &mut Self, i: usize| s.of(o.args[i]);
                let cst = |i: usize| k.as_const(o.args[i]).map(|c| sext(c, k.width(o.args[i])));
                match &o.kind {
                    OpKind::Binary(BinOp::Add) => a(self, 0)?.add(&a(self, 1)?, 1),
                    OpKind::Binary(BinOp::Sub) => a(self, 0)?.add(&a(self, 1)?, -1),
                    OpKind::Binary(BinOp::Mul) => match (cst(0), cst(1)) {
                        (_, Some(c)) => Some(a(self, 0)?.scale(c)),
                        (Some(c), _) => Some(a(self, 1)?.scale(c)),
                        _ => None,
                    },
                    OpKind::Binary(BinOp::Shl) => {
                        // The count is taken modulo the width.
                        let w = u64::from(k.width(v));
                        let count =
                            k.as_const(o.args[1]).map(|c| (c & kiln_dataflow::ir::op::mask(k.width(o.args[1]))) % w);
                        count.filter(|c| *c < 32).and_then(|c| Some(a(self, 0)?.scale(1 << c)))
                    }
                    OpKind::Unary(kiln_dataflow::ir::UnOp::Neg) => Some(a(self, 0)?.scale(-1)),
                    OpKind::Cast(cast @ (CastOp::Zext | CastOp::Sext)) if k.width(o.args[0]) < 32 => {
                        let inner = a(self, 0)?;
                        self.moved_into_window(inner, k.width(o.args[0]), *cast == CastOp::Sext)
                    }
                    OpKind::Cast(_) => a(self, 0),
                    _ => None,
                }
            }
        }
    }

    /// The `n`-bit value whose form is `a` modulo `2^n`, read as unsigned (or signed) by an
    /// extension: `a` moved by a multiple of `2^n` into the window the extension reads, when
    /// the ranges keep it in one window (see the type's documentation).
    fn moved_into_window(&self, a: Affine, n: u32, signed: bool) -> Option<Affine> {
        let (lo, hi) = self.bounds(&a)?;
        let size = 1i128 << n;
        let base = if signed { -(size / 2) } else { 0 };
        let window = (lo - base).div_euclid(size);
        if (hi - base).div_euclid(size) != window {
            return None;
        }
        let konst = i64::try_from(i128::from(a.konst) - window * size).ok()?;
        Some(Affine { konst, ..a })
    }

    /// The least and greatest value of `a` over the values its induction variable and symbols
    /// can take (their ranges, as unsigned numbers).
    fn bounds(&self, a: &Affine) -> Option<(i128, i128)> {
        let (mut lo, mut hi) = (i128::from(a.konst), i128::from(a.konst));
        let terms = a.iv.iter().copied().chain(a.syms.iter().map(|(v, c)| (*v, *c)));
        for (v, c) in terms {
            let f = self.ranges.facts(self.k, v);
            // A bound this loose says nothing a window could use.
            if f.hi >= 1 << 40 {
                return None;
            }
            let (x, y) = (i128::from(c) * f.lo as i128, i128::from(c) * f.hi as i128);
            lo += x.min(y);
            hi += x.max(y);
        }
        Some((lo, hi))
    }
}

/// A dependence from `from` to `to` (both memory ops of the loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemDep {
    pub from: Op,
    pub to: Op,
    /// Iterations between them: 0 within one iteration, `d` when `to` runs `d` iterations later.
    pub distance: u32,
    pub mem: Mem,
    pub kind: DepKind,
    /// The fewest cycles from `from`'s start to `to`'s (in `to`'s iteration): 1, or 2 for a
    /// read after a write that lands a cycle after its store (`Timing::registers_writes`).
    pub cycles: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// Write then read.
    Raw,
    /// Read then write.
    War,
    /// Write then write.
    Waw,
    /// Order kept for `volatile`.
    Ordered,
}

impl DepKind {
    fn of(from_store: bool, to_store: bool) -> Option<DepKind> {
        match (from_store, to_store) {
            (true, false) => Some(DepKind::Raw),
            (false, true) => Some(DepKind::War),
            (true, true) => Some(DepKind::Waw),
            (false, false) => None,
        }
    }
}

/// How far apart two accesses collide.
enum Collision {
    Never,
    /// `to` collides with `from` from `n` iterations earlier (`n` may be 0 or negative).
    At(i64),
    Unknown,
}

/// All memory dependences among `ops` (the loop's ops in iteration order).
pub fn memory_dependences(
    k: &Kernel,
    shape: &LoopShape,
    ops: &[Op],
    ivdep: Option<Option<u32>>,
    ranges: &ValueRanges,
) -> Vec<MemDep> {
    let mut aa = AffineAnalysis::new(k, shape, ranges);
    let mem_ops: Vec<Op> = ops.iter().copied().filter(|op| k.ops[*op].kind.is_memory()).collect();
    let mut deps = Vec::new();
    for (i, &a) in mem_ops.iter().enumerate() {
        for &b in &mem_ops[i..] {
            let (oa, ob) = (&k.ops[a], &k.ops[b]);
            let (Some(ma), Some(mb)) = (oa.kind.mem(), ob.kind.mem()) else { continue };
            if ma != mb {
                continue;
            }
            let volatile = k.mems[ma].volatile;
            // Elements of an atomic memory are shared between iterations on purpose.
            let shared = volatile || k.mems[ma].atomic;
            let (sa, sb) = (oa.kind.has_side_effect(), ob.kind.has_side_effect());
            let kind_ab = if volatile { Some(DepKind::Ordered) } else { DepKind::of(sa, sb) };
            let kind_ba = if volatile { Some(DepKind::Ordered) } else { DepKind::of(sb, sa) };
            if kind_ab.is_none() && kind_ba.is_none() {
                continue;
            }
            // A port of `N`-lane words is accessed a word at a time: two accesses collide when
            // their elements share a word, which element indices that are multiples of `N` tell
            // exactly (the `widen` pass gives whole-word accesses such indices); others might.
            let lanes = i64::from(k.mems[ma].lanes.max(1));
            let aligned = |f: &Affine| {
                f.konst % lanes == 0
                    && f.iv.is_none_or(|(_, a)| a % lanes == 0)
                    && f.syms.values().all(|c| c % lanes == 0)
            };
            let collision = if volatile {
                Collision::Unknown
            } else {
                match (aa.of(oa.args[0]), aa.of(ob.args[0])) {
                    (Some(fa), Some(fb)) if lanes > 1 && !(aligned(&fa) && aligned(&fb)) => Collision::Unknown,
                    // The same induction variable with the same coefficient: two counters of one loop
                    // step apart even where their coefficients agree.
                    (Some(fa), Some(fb)) if fa.syms == fb.syms && fa.iv == fb.iv => {
                        let delta = fa.konst - fb.konst;
                        match fa.iv.or(fb.iv) {
                            None if delta == 0 => Collision::Unknown, // same address every iteration
                            None => Collision::Never,
                            Some((iv, alpha)) => {
                                let step = aa.step(iv).unwrap_or(1);
                                let per_iter = alpha * step;
                                if per_iter == 0 || delta % per_iter != 0 {
                                    Collision::Never
                                } else {
                                    Collision::At(delta / per_iter)
                                }
                            }
                        }
                    }
                    _ => Collision::Unknown,
                }
            };
            let least = k.mems[ma].carried_distance.unwrap_or(0);
            let carried = |d: i64| -> Option<u32> {
                match ivdep {
                    Some(None) if !shared => None,
                    Some(Some(n)) if !shared => Some((d as u32).max(n).max(least)),
                    _ if !shared => Some((d as u32).max(least)),
                    _ => Some(d as u32),
                }
            };
            let mut push = |from: Op, to: Op, d: u32, kind: Option<DepKind>| {
                if let Some(kind) = kind
                    && (from != to || d > 0)
                {
                    deps.push(MemDep { from, to, distance: d, mem: ma, kind, cycles: 1 });
                }
            };
            match collision {
                Collision::Never => {}
                Collision::At(0) => push(a, b, 0, kind_ab),
                Collision::At(n) if n > 0 => {
                    if let Some(d) = carried(n) {
                        push(a, b, d, kind_ab);
                    }
                }
                Collision::At(n) => {
                    if let Some(d) = carried(-n) {
                        push(b, a, d, kind_ba);
                    }
                }
                Collision::Unknown => {
                    push(a, b, 0, kind_ab);
                    if let Some(d) = carried(1) {
                        push(a, b, d, kind_ab);
                        push(b, a, d, kind_ba);
                    }
                }
            }
        }
    }
    deps
}
