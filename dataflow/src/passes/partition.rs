//! `partition`: splits an on-chip array into `B` cyclic banks (element `i` in bank `i mod B` at
//! offset `i / B`) when an innermost loop reads or writes it more often per iteration than one
//! memory's ports allow and banking spreads those accesses; or exactly as the user asked with
//! `xcl_array_partition` ([`Banking::Requested`]): the array seen as `outer × extent × stride`
//! elements is split along `extent`, cyclically (index `j` of that dimension in bank `j mod B`)
//! or in blocks of `ceil(extent / B)`, and every bank holds `outer × stride × ceil(extent / B)`
//! elements. `complete` is the cyclic split with `B = extent`; banks of one element get the
//! constant offset 0, so `scalarize` turns private ones into registers.
//!
//! An access whose bank is known at compile time goes to that bank. Any other access goes to
//! every bank, predicated on `i mod B == b`: a load ORs the banks' results (a predicated-off load
//! yields 0), a store writes the one bank it selects. Such an access uses one port of every bank,
//! so it never needs more ports per bank than it needed before.
//!
//! The bank of an access comes from a congruence analysis: each integer value is known modulo a
//! power of two (`v ≡ r mod 2^k`), through constants, additions, multiplications and shifts by
//! constants, selects and loop parameters (a fixed point over the block parameters). An
//! induction variable that starts at 0 and steps by 4 is `≡ 0 mod 4`, so after unrolling by 4
//! the accesses `a[i]`, `a[i+1]`, `a[i+2]`, `a[i+3]` fall in four different banks.

use super::Pass;
use crate::analysis::natural_loops;
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// The largest modulus the analysis tracks, and the most banks an array is split into.
const MAX_MODULUS: u64 = 1 << 16;
const MAX_BANKS: u64 = 16;

pub struct Partition;

impl Pass for Partition {
    fn name(&self) -> &'static str {
        "partition"
    }
    fn description(&self) -> &'static str {
        "splits on-chip arrays into cyclic banks when a loop needs more ports than one memory has"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let cong = congruences(k);
        let mut changed = false;
        let mems: Vec<Mem> = k.mems.keys().collect();
        for m in mems {
            let layout = match &k.mems[m].banking {
                Banking::Requested(l) => l.clone(),
                Banking::Automatic => match banks_needed(k, m, &cong) {
                    Some(banks) => BankLayout {
                        cyclic: true,
                        banks: banks as u32,
                        stride: 1,
                        extent: k.mems[m].len.unwrap_or(1),
                        spelled: "".into(),
                    },
                    None => continue,
                },
                Banking::Fixed => continue,
            };
            let accessed = k
                .rpo()
                .iter()
                .flat_map(|b| &k.blocks[*b].ops)
                .any(|op| matches!(k.ops[*op].kind, OpKind::Load(x) | OpKind::Store(x) if x == m));
            if !accessed {
                // Already in registers (`scalarize`), or never used.
                k.mems[m].banking = Banking::Fixed;
                continue;
            }
            split(k, m, &layout, &cong);
            // The original is now unused (compaction drops it); it must not be split again.
            k.mems[m].banking = Banking::Fixed;
            changed = true;
        }
        changed
    }
}

/// `value ≡ residue (mod modulus)`; `modulus == 1` says nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Congruence {
    pub modulus: u64,
    pub residue: u64,
}

impl Congruence {
    const UNKNOWN: Congruence = Congruence { modulus: 1, residue: 0 };

    fn of_const(c: u64) -> Congruence {
        Congruence { modulus: MAX_MODULUS, residue: c % MAX_MODULUS }
    }

    fn new(modulus: u64, residue: u64) -> Congruence {
        let modulus = modulus.clamp(1, MAX_MODULUS);
        Congruence { modulus, residue: residue % modulus }
    }

    /// The strongest congruence both satisfy.
    fn meet(self, o: Congruence) -> Congruence {
        let mut m = self.modulus.min(o.modulus);
        let diff = self.residue.wrapping_sub(o.residue);
        if diff != 0 {
            m = m.min(1 << diff.trailing_zeros().min(63));
        }
        Congruence::new(m, self.residue)
    }

    fn add(self, o: Congruence, sign: bool) -> Congruence {
        let m = self.modulus.min(o.modulus);
        let r = if sign { self.residue.wrapping_add(o.residue) } else { self.residue.wrapping_sub(o.residue) };
        // Wrapping arithmetic is exact modulo every power of two.
        Congruence::new(m, r)
    }

    fn mul_const(self, c: u64) -> Congruence {
        if c == 0 {
            return Congruence::of_const(0);
        }
        let shift = c.trailing_zeros().min(16);
        Congruence::new(self.modulus.saturating_mul(1 << shift), self.residue.wrapping_mul(c))
    }
}

/// The congruence of every integer value of the kernel.
pub fn congruences(k: &Kernel) -> HashMap<Value, Congruence> {
    let rpo = k.rpo();
    // Optimistic start: block parameters are "no information yet" (absent) and are met with
    // every incoming value until nothing changes.
    let mut c: HashMap<Value, Congruence> = HashMap::new();
    for p in &k.blocks[k.entry].params {
        c.insert(*p, Congruence::UNKNOWN);
    }
    for _ in 0..64 {
        let mut changed = false;
        for &b in &rpo {
            for &op in &k.blocks[b].ops {
                let o = &k.ops[op];
                let Some(r) = o.result else { continue };
                let get = |v: Value| c.get(&v).copied();
                let konst = |v: Value| k.as_const(v);
                let new = match &o.kind {
                    OpKind::Const(v) => Some(Congruence::of_const(*v)),
                    OpKind::Binary(BinOp::Add) => get(o.args[0]).zip(get(o.args[1])).map(|(a, b)| a.add(b, true)),
                    OpKind::Binary(BinOp::Sub) => get(o.args[0]).zip(get(o.args[1])).map(|(a, b)| a.add(b, false)),
                    OpKind::Binary(BinOp::Mul) => match (konst(o.args[0]), konst(o.args[1])) {
                        (_, Some(x)) => get(o.args[0]).map(|a| a.mul_const(x)),
                        (Some(x), _) => get(o.args[1]).map(|a| a.mul_const(x)),
                        _ => Some(Congruence::UNKNOWN),
                    },
                    OpKind::Binary(BinOp::Shl) => match konst(o.args[1]) {
                        Some(s) if s < 16 => get(o.args[0]).map(|a| a.mul_const(1 << s)),
                        _ => Some(Congruence::UNKNOWN),
                    },
                    // `x & (2^s - 1)` is `x` modulo 2^s.
                    OpKind::Binary(BinOp::And) => match (konst(o.args[0]), konst(o.args[1])) {
                        (_, Some(m)) if m.wrapping_add(1).is_power_of_two() => {
                            get(o.args[0]).map(|a| Congruence::new(a.modulus.min(m.wrapping_add(1)), a.residue))
                        }
                        (Some(m), _) if m.wrapping_add(1).is_power_of_two() => {
                            get(o.args[1]).map(|a| Congruence::new(a.modulus.min(m.wrapping_add(1)), a.residue))
                        }
                        _ => Some(Congruence::UNKNOWN),
                    },
                    OpKind::Select => get(o.args[1]).zip(get(o.args[2])).map(|(a, b)| a.meet(b)),
                    OpKind::Cast(CastOp::Zext | CastOp::Sext) => get(o.args[0]),
                    OpKind::Cast(CastOp::Trunc) => {
                        let w = k.width(r);
                        get(o.args[0]).map(|a| Congruence::new(a.modulus.min(1u64 << w.min(16)), a.residue))
                    }
                    _ => Some(Congruence::UNKNOWN),
                };
                if let Some(n) = new
                    && c.get(&r) != Some(&n)
                {
                    c.insert(r, n);
                    changed = true;
                }
            }
            for t in k.blocks[b].term.targets() {
                for (p, a) in k.blocks[t.block].params.iter().zip(&t.args) {
                    let Some(ac) = c.get(a).copied() else { continue };
                    let n = match c.get(p) {
                        Some(pc) => pc.meet(ac),
                        None => ac,
                    };
                    if c.get(p) != Some(&n) {
                        c.insert(*p, n);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Kernel arguments and anything never reached say nothing.
    for b in rpo {
        for p in &k.blocks[b].params {
            c.entry(*p).or_insert(Congruence::UNKNOWN);
        }
    }
    c
}

fn congruence_of(k: &Kernel, cong: &HashMap<Value, Congruence>, v: Value) -> Congruence {
    k.as_const(v).map(Congruence::of_const).or_else(|| cong.get(&v).copied()).unwrap_or(Congruence::UNKNOWN)
}

/// The number of banks `m` needs, if splitting helps and every access's bank is known.
fn banks_needed(k: &Kernel, m: Mem, cong: &HashMap<Value, Congruence>) -> Option<u64> {
    let d = &k.mems[m];
    let len = d.len? as u64;
    if !matches!(d.kind, MemKind::Private | MemKind::Local) || d.volatile || len < 2 || d.banking != Banking::Automatic
    {
        return None;
    }
    let accesses: Vec<(Op, bool, Congruence)> = k
        .rpo()
        .iter()
        .flat_map(|b| k.blocks[*b].ops.iter().copied())
        .filter_map(|op| match k.ops[op].kind {
            OpKind::Load(x) if x == m => Some((op, false, congruence_of(k, cong, k.ops[op].args[0]))),
            OpKind::Store(x) if x == m => Some((op, true, congruence_of(k, cong, k.ops[op].args[0]))),
            _ => None,
        })
        .collect();
    // Accesses per iteration of each innermost loop, and the loop's nesting depth.
    let loops = natural_loops(k);
    let depth = |mut i: usize| -> u32 {
        let mut d = 1;
        while let Some(p) = loops[i].parent {
            d += 1;
            i = p;
        }
        d
    };
    let mut busiest: Vec<(u32, Vec<(bool, Congruence)>)> = Vec::new();
    for (i, l) in loops.iter().enumerate() {
        if loops.iter().any(|o| o.header != l.header && o.blocks.is_subset(&l.blocks)) {
            continue;
        }
        let inside: Vec<(bool, Congruence)> = accesses
            .iter()
            .filter(|(op, _, _)| l.blocks.contains(&k.ops[*op].block))
            .map(|(_, w, c)| (*w, *c))
            .collect();
        let (reads, writes) = (inside.iter().filter(|(w, _)| !w).count(), inside.iter().filter(|(w, _)| *w).count());
        if reads > 1 || writes > 1 {
            busiest.push((depth(i), inside));
        }
    }
    if busiest.is_empty() {
        return None;
    }
    // Port uses of the busiest bank per iteration of one loop.
    let per_bank = |inside: &[(bool, Congruence)], banks: u64| -> u32 {
        let mut per: BTreeMap<(u64, bool), u32> = BTreeMap::new();
        for (w, c) in inside {
            if c.modulus >= banks {
                *per.entry((c.residue % banks, *w)).or_default() += 1;
            } else {
                for b in 0..banks {
                    *per.entry((b, *w)).or_default() += 1;
                }
            }
        }
        per.values().copied().max().unwrap_or(0)
    };
    // Summed over the loops that need more than one port.
    let cost = |banks: u64| -> u32 { busiest.iter().map(|(_, inside)| per_bank(inside, banks)).sum() };
    // The same with each loop weighted by a guess of how often it runs (16 iterations per
    // nesting level), for `worth_its_multiplexers`.
    let weighted = |banks: u64| -> u64 {
        busiest
            .iter()
            .map(|(d, inside)| 16u64.saturating_pow(*d).saturating_mul(u64::from(per_bank(inside, banks))))
            .sum()
    };
    // A split that sends a loop's accesses with a bank known only at run time to every bank
    // while that loop's busiest bank is no less busy than the unsplit array pays for their
    // multiplexers without a cycle back there. It must then save at least an eighth of the
    // weighted port uses elsewhere: doitgen's `C4[s][p]`, twelve reads per iteration of its
    // innermost loop after unrolling `s`, all in bank `p mod 4`, gained 48 predicated reads and
    // their OR for the same II of 12 from four banks that served an initialisation loop only;
    // matmul_unroll4's copy loop writes `Bt` at run-time banks, and its dot product, deeper,
    // goes from II 4 to 1.
    let worth_its_multiplexers = |banks: u64| -> bool {
        let idle = busiest.iter().any(|(_, inside)| {
            per_bank(inside, banks) >= per_bank(inside, 1) && inside.iter().any(|(_, c)| c.modulus < banks)
        });
        let (before, after) = (weighted(1), weighted(banks));
        !idle || before.saturating_sub(after).saturating_mul(8) >= before
    };
    let floor = busiest.len() as u32;
    let mut best = (cost(1), 1);
    let mut banks = 2;
    while banks <= MAX_BANKS && banks <= len && best.0 > floor {
        let c = cost(banks);
        if c < best.0 && worth_its_multiplexers(banks) {
            best = (c, banks);
        }
        banks *= 2;
    }
    (best.1 > 1).then_some(best.1)
}

/// Where element `i` of the original array lives: `(bank, offset)`.
struct Geometry {
    layout: BankLayout,
    /// Copies of the split dimension (the product of the outer extents).
    outer: u64,
    /// Elements of the split dimension in each bank.
    per_bank: u64,
}

impl Geometry {
    fn new(layout: &BankLayout, len: u64) -> Geometry {
        let (extent, stride) = (layout.extent.max(1) as u64, layout.stride.max(1) as u64);
        Geometry {
            layout: layout.clone(),
            outer: len.div_ceil(extent * stride).max(1),
            per_bank: extent.div_ceil(layout.banks.max(1) as u64),
        }
    }

    fn stride(&self) -> u64 {
        self.layout.stride.max(1) as u64
    }

    fn bank_len(&self) -> u64 {
        self.outer * self.stride() * self.per_bank
    }

    fn locate(&self, i: u64) -> (u64, u64) {
        let (extent, stride, banks) = (self.layout.extent.max(1) as u64, self.stride(), self.layout.banks as u64);
        let (lo, q) = (i % stride, i / stride);
        let (sub, hi) = (q % extent, q / extent);
        let (bank, sub_offset) =
            if self.layout.cyclic { (sub % banks, sub / banks) } else { (sub / self.per_bank, sub % self.per_bank) };
        (bank, hi * stride * self.per_bank + sub_offset * stride + lo)
    }

    /// The bank of every index with congruence `c`, when they all share one.
    fn bank_of(&self, c: Congruence) -> Option<u64> {
        let (extent, stride, banks) = (self.layout.extent.max(1) as u64, self.stride(), self.layout.banks as u64);
        // Cyclic banks repeat every `stride × banks` elements when the banks tile the dimension.
        let period = stride * banks;
        let tiles = self.outer == 1 || extent.is_multiple_of(banks);
        (self.layout.cyclic && tiles && period.is_power_of_two() && c.modulus.is_multiple_of(period))
            .then(|| (c.residue % period) / stride)
    }
}

fn split(k: &mut Kernel, m: Mem, layout: &BankLayout, cong: &HashMap<Value, Congruence>) {
    let d = k.mems[m].clone();
    let len = d.len.unwrap_or(0) as u64;
    let geo = Geometry::new(layout, len);
    let banks = layout.banks.max(1) as u64;
    let requested = d.banking != Banking::Automatic;
    let bank_len = geo.bank_len();
    let mut inits: Vec<Vec<u64>> = vec![vec![0; bank_len as usize]; banks as usize];
    if let Some(init) = &d.init {
        for (i, v) in init.iter().enumerate() {
            let (b, o) = geo.locate(i as u64);
            inits[b as usize][o as usize] = *v;
        }
    }
    let new: Vec<Mem> = (0..banks)
        .map(|b| {
            let mut nd = d.clone();
            nd.name = Rc::from(format!("{}_bank{b}", d.name));
            nd.len = Some(bank_len as u32);
            nd.init = d.init.as_ref().map(|_| inits[b as usize].clone());
            nd.banking = if requested { Banking::Fixed } else { Banking::Automatic };
            k.mems.push(nd)
        })
        .collect();
    let blocks: BTreeSet<Block> = k.rpo().into_iter().collect();
    let mut replaced: Vec<(Value, Value)> = Vec::new();
    let mut run_time_banks = 0;
    for b in blocks {
        let mut ops = Vec::new();
        for op in k.blocks[b].ops.clone() {
            let target = matches!(k.ops[op].kind, OpKind::Load(x) | OpKind::Store(x) if x == m);
            if !target {
                ops.push(op);
                continue;
            }
            let o = k.ops[op].clone();
            let idx = o.args[0];
            let w = k.width(idx);
            let span = o.span;
            let emit = |k: &mut Kernel, ops: &mut Vec<Op>, kind: OpKind, args: Vec<Value>, width: u32| -> Value {
                let new_op = k.ops.push(OpData { kind, args, result: None, block: b, span });
                let v = k.values.push(ValueData { width, def: ValueDef::Op(new_op), name: None });
                k.ops[new_op].result = Some(v);
                ops.push(new_op);
                v
            };
            let retarget = |k: &mut Kernel, ops: &mut Vec<Op>, bank: u64, offset: Value| {
                k.ops[op].args[0] = offset;
                let bank = new[bank as usize];
                k.ops[op].kind =
                    if matches!(o.kind, OpKind::Load(_)) { OpKind::Load(bank) } else { OpKind::Store(bank) };
                ops.push(op);
            };
            if let Some(c) = k.as_const(idx) {
                let (bank, offset) = geo.locate(c);
                let offset = emit(k, &mut ops, OpKind::Const(offset), vec![], w);
                retarget(k, &mut ops, bank, offset);
                continue;
            }
            // offset = hi · (stride · per_bank) + sub_offset · stride + lo, where
            // i = (hi · extent + sub) · stride + lo.
            let arith = |k: &mut Kernel, ops: &mut Vec<Op>, op: BinOp, a: Value, c: u64| -> Value {
                let c = emit(k, ops, OpKind::Const(c), vec![], w);
                emit(k, ops, OpKind::Binary(op), vec![a, c], w)
            };
            let stride = geo.stride();
            let extent = layout.extent.max(1) as u64;
            let (lo, q) = if stride > 1 {
                (Some(arith(k, &mut ops, BinOp::URem, idx, stride)), arith(k, &mut ops, BinOp::UDiv, idx, stride))
            } else {
                (None, idx)
            };
            let (sub, hi) = if geo.outer > 1 {
                (arith(k, &mut ops, BinOp::URem, q, extent), Some(arith(k, &mut ops, BinOp::UDiv, q, extent)))
            } else {
                (q, None)
            };
            let (which_op, sub_op, divisor) = if layout.cyclic {
                (BinOp::URem, BinOp::UDiv, banks)
            } else {
                (BinOp::UDiv, BinOp::URem, geo.per_bank)
            };
            let offset = if bank_len == 1 {
                emit(k, &mut ops, OpKind::Const(0), vec![], w)
            } else {
                let mut off = arith(k, &mut ops, sub_op, sub, divisor);
                if stride > 1 {
                    off = arith(k, &mut ops, BinOp::Mul, off, stride);
                }
                if let Some(lo) = lo {
                    off = emit(k, &mut ops, OpKind::Binary(BinOp::Add), vec![off, lo], w);
                }
                if let Some(hi) = hi {
                    let scaled = arith(k, &mut ops, BinOp::Mul, hi, stride * geo.per_bank);
                    off = emit(k, &mut ops, OpKind::Binary(BinOp::Add), vec![off, scaled], w);
                }
                off
            };
            if let Some(bank) = geo.bank_of(congruence_of(k, cong, idx)) {
                retarget(k, &mut ops, bank, offset);
                continue;
            }
            // The bank is only known at run time: every bank, predicated on its number.
            run_time_banks += 1;
            let which = arith(k, &mut ops, which_op, sub, divisor);
            let mut loaded: Option<Value> = None;
            for (bi, bank) in new.iter().enumerate() {
                let num = emit(k, &mut ops, OpKind::Const(bi as u64), vec![], w);
                let mut pred = emit(k, &mut ops, OpKind::Cmp(CmpOp::Eq), vec![which, num], 1);
                if let Some(p) = o.predicate() {
                    pred = emit(k, &mut ops, OpKind::Binary(BinOp::And), vec![p, pred], 1);
                }
                match o.kind {
                    OpKind::Load(_) => {
                        let rw = o.result.map(|r| k.width(r)).unwrap_or(d.elem_width);
                        let v = emit(k, &mut ops, OpKind::Load(*bank), vec![offset, pred], rw);
                        loaded = Some(match loaded {
                            Some(acc) => emit(k, &mut ops, OpKind::Binary(BinOp::Or), vec![acc, v], rw),
                            None => v,
                        });
                    }
                    _ => {
                        let st = k.ops.push(OpData {
                            kind: OpKind::Store(*bank),
                            args: vec![offset, o.args[1], pred],
                            result: None,
                            block: b,
                            span: o.span,
                        });
                        ops.push(st);
                    }
                }
            }
            if let (Some(r), Some(v)) = (o.result, loaded) {
                replaced.push((r, v));
            }
        }
        k.blocks[b].ops = ops;
    }
    for (from, to) in replaced {
        k.replace_uses(from, to);
    }
    let how = if layout.cyclic {
        format!("element j of the split dimension in bank j mod {banks}")
    } else {
        format!("elements in runs of {} per bank", geo.per_bank)
    };
    let runtime = match run_time_banks {
        0 => String::new(),
        n => format!("; {n} access(es) with a bank known only at run time use a port of every bank"),
    };
    if requested {
        k.notes.push(format!(
            "array `{}` split into {banks} {} banks of {bank_len} element(s) as `{}` asks ({how}){runtime}",
            d.name,
            if layout.cyclic { "cyclic" } else { "block" },
            layout.spelled
        ));
    } else {
        k.notes.push(format!(
            "array `{}` split into {banks} cyclic banks (element i in bank i mod {banks}) so that a loop's accesses use different ports{runtime}",
            d.name
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(cyclic: bool, banks: u32, stride: u32, extent: u32) -> BankLayout {
        BankLayout { cyclic, banks, stride, extent, spelled: "".into() }
    }

    /// Every element has exactly one place, and the places fill the banks.
    fn is_bijection(g: &Geometry, len: u64) -> bool {
        let mut seen = BTreeSet::new();
        (0..len).all(|i| {
            let (b, o) = g.locate(i);
            b < g.layout.banks as u64 && o < g.bank_len() && seen.insert((b, o))
        })
    }

    #[test]
    fn cyclic_split_of_the_inner_dimension() {
        // int a[4][8], xcl_array_partition(cyclic, 4, 2)
        let g = Geometry::new(&layout(true, 4, 1, 8), 32);
        assert_eq!(g.bank_len(), 8);
        assert_eq!(g.locate(8 + 5), (1, 2 + 1)); // a[1][5]: bank 5 mod 4; row 1 starts at 2, then 5 / 4
        assert!(is_bijection(&g, 32));
        assert_eq!(g.bank_of(Congruence::new(4, 2)), Some(2));
        assert_eq!(g.bank_of(Congruence::new(2, 1)), None);
    }

    #[test]
    fn block_split_of_the_outer_dimension() {
        // int a[6][4], xcl_array_partition(block, 2, 1): rows 0-2 in bank 0, rows 3-5 in bank 1
        let g = Geometry::new(&layout(false, 2, 4, 6), 24);
        assert_eq!(g.bank_len(), 12);
        assert_eq!(g.locate(3 * 4 + 1), (1, 1));
        assert_eq!(g.locate(2 * 4 + 3), (0, 11));
        assert!(is_bijection(&g, 24));
        // A block bank is never known from a congruence.
        assert_eq!(g.bank_of(Congruence::new(MAX_MODULUS, 0)), None);
    }

    #[test]
    fn uneven_cyclic_split_pads_the_last_banks() {
        let g = Geometry::new(&layout(true, 3, 1, 10), 10);
        assert_eq!(g.bank_len(), 4);
        assert!(is_bijection(&g, 10));
        // 3 banks do not repeat with a power-of-two period.
        assert_eq!(g.bank_of(Congruence::new(4, 0)), None);
    }
}
