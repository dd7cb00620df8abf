//! `port_width`: how many elements the port of a scalar buffer moves per request.
//!
//! A scalar buffer (`global int *p`, or the bytes of a buffer of structs) starts with a port of
//! one element. When its accesses come in groups of neighbours in one aligned word —
//! `vload4(i, p)` reads `p[4i]..p[4i+3]`, a member of a struct of 8 bytes is bytes `8i+4..8i+7`
//! of its buffer — a port of `N` elements serves each group with one request (a write with byte
//! enables for the lanes it writes), and [`super::widen`] builds the word operations. The pass
//! picks the largest `N` (a power of two, at most 16 lanes and [`MAX_WORD_BITS`]) under which the
//! word of every access of the buffer is known at compile time and some block makes two
//! accesses of one word; otherwise the port keeps one element: an access at an unknown lane
//! would cost a lane multiplexer and save no request.
//!
//! Not for buffers of vectors (their type fixes the word), `volatile` buffers (one request per
//! access, as written), buffers updated atomically, or buffers reached by other operations than
//! loads and stores. A read of the last word of a buffer whose length is not a whole number of
//! words reads the missing lanes as zero in every engine (`docs/timing.md` §3).

use super::Pass;
use super::widen::word_and_lane;
use crate::ir::*;
use crate::lower::MAX_WORD_BITS;
use std::collections::HashSet;

pub struct PortWidth;

const MAX_LANES: u32 = 16;

/// Whether a port of `lanes` elements knows the word of every access in `accesses` (block,
/// is-a-store, index) and serves two accesses of some block with one request.
fn pays_off(k: &Kernel, accesses: &[(Block, bool, Value)], lanes: u32) -> bool {
    let mut words = HashSet::new();
    let mut shared = false;
    for &(b, store, idx) in accesses {
        let Some((word, _)) = word_and_lane(k, idx, lanes) else { return false };
        shared |= !words.insert((b, store, word));
    }
    shared
}

impl Pass for PortWidth {
    fn name(&self) -> &'static str {
        "port-width"
    }
    fn description(&self) -> &'static str {
        "widens the port of a scalar buffer whose accesses come in aligned groups of neighbours"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        let candidates: Vec<Mem> = k
            .mems
            .iter()
            .filter(|(_, d)| d.is_port() && d.lanes == 1 && !d.volatile && !d.atomic)
            .map(|(m, _)| m)
            .collect();
        let blocks = k.rpo();
        for m in candidates {
            let mut accesses = Vec::new();
            let mut plain = true;
            for &b in &blocks {
                for &op in &k.blocks[b].ops {
                    let o = &k.ops[op];
                    if o.kind.mem() != Some(m) {
                        continue;
                    }
                    match o.kind {
                        OpKind::Load(_) => accesses.push((b, false, o.args[0])),
                        OpKind::Store(_) => accesses.push((b, true, o.args[0])),
                        _ => plain = false,
                    }
                }
            }
            if !plain || accesses.len() < 2 {
                continue;
            }
            let max = MAX_LANES.min(MAX_WORD_BITS / k.mems[m].elem_width.max(1));
            let best = (1..=max.ilog2()).rev().map(|s| 1u32 << s).find(|&n| pays_off(k, &accesses, n));
            if let Some(n) = best {
                k.mems[m].lanes = n;
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::widen::Widen;

    fn buffer(k: &mut Kernel, elem_width: u32) -> Mem {
        k.mems.push(MemData::new("p".into(), MemKind::Global { param: 0 }, elem_width, None, Default::default()))
    }

    /// `p[stride * i + offset]` for each offset, loaded in the entry block.
    fn loads(k: &mut Kernel, m: Mem, stride: u64, offsets: &[u64]) -> Vec<Value> {
        let sp = kiln_diagnostics::Span::default();
        let b = k.entry;
        let i = k.add_param(b, 32, Some("i".into()));
        let s = k.push_value(b, OpKind::Const(stride), vec![], 32, sp);
        let base = k.push_value(b, OpKind::Binary(BinOp::Mul), vec![i, s], 32, sp);
        offsets
            .iter()
            .map(|&o| {
                let c = k.push_value(b, OpKind::Const(o), vec![], 32, sp);
                let idx = k.push_value(b, OpKind::Binary(BinOp::Add), vec![base, c], 32, sp);
                k.push_value(b, OpKind::Load(m), vec![idx], 8, sp)
            })
            .collect()
    }

    fn word_loads(k: &Kernel) -> usize {
        k.blocks[k.entry].ops.iter().filter(|op| matches!(k.ops[**op].kind, OpKind::WordLoad(_))).count()
    }

    #[test]
    fn a_member_of_a_struct_of_twelve_bytes_is_one_word_of_four() {
        let mut k = Kernel::new("k".into(), kiln_diagnostics::Span::default());
        let m = buffer(&mut k, 8);
        loads(&mut k, m, 12, &[4, 5, 6, 7]);
        assert!(PortWidth.run(&mut k));
        assert_eq!(k.mems[m].lanes, 4, "12 * i is a multiple of 4, not of 8");
        Widen.run(&mut k);
        assert_eq!(word_loads(&k), 1);
    }

    #[test]
    fn a_whole_struct_of_eight_bytes_is_one_word() {
        let mut k = Kernel::new("k".into(), kiln_diagnostics::Span::default());
        let m = buffer(&mut k, 8);
        loads(&mut k, m, 8, &[0, 1, 2, 3, 4, 5, 6, 7]);
        PortWidth.run(&mut k);
        assert_eq!(k.mems[m].lanes, 8);
        Widen.run(&mut k);
        assert_eq!(word_loads(&k), 1);
    }

    #[test]
    fn a_port_stays_narrow_when_no_request_is_saved_or_a_word_is_unknown() {
        let mut k = Kernel::new("k".into(), kiln_diagnostics::Span::default());
        let m = buffer(&mut k, 32);
        loads(&mut k, m, 4, &[0]);
        loads(&mut k, m, 4, &[1]);
        assert!(!PortWidth.run(&mut k), "two loads of different words (two `i`s)");
        let mut k = Kernel::new("k".into(), kiln_diagnostics::Span::default());
        let m = buffer(&mut k, 32);
        loads(&mut k, m, 4, &[0, 1]);
        let sp = kiln_diagnostics::Span::default();
        let j = k.add_param(k.entry, 32, Some("j".into()));
        k.push_value(k.entry, OpKind::Load(m), vec![j], 32, sp);
        assert!(!PortWidth.run(&mut k), "`p[j]` would need a lane multiplexer");
    }
}
