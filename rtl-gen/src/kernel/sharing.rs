//! Multipliers shared between multiplies that never run at once, for targets with few hardware
//! multipliers (`Target::multiplier_blocks`): the UP5K's eight DSP blocks hold only two 32-bit
//! multiplies split into partial products, and a PolyBench kernel with a multiply in each of
//! three loop nests did not fit. Sharing changes no cycle: a shared multiplier is the same
//! segmented multiply (`split_multiply`), its operands chosen by the site multiplexer of the
//! operation that starts, its segments advanced by any of its operations' advances.
//!
//! Two multiplies may share when they never occupy the same segment in the same cycle:
//! multiplies of different pipelines, or of a pipeline and the state machine (a pipeline runs in
//! one state of its own); multiplies of one pipeline that start in different phases of its
//! initiation interval (every segment advances with the pipeline, so each holds one operation
//! per cycle); and multiplies of the state machine in different blocks, or in one block over
//! cycles that do not overlap (a multi-cycle operation ends in the block it starts in).
//! Kernels whose multiplies fit the blocks share nothing: the operand multiplexer lies on the
//! path into the multiplier. A narrower multiply shares a wider multiplier with zero-extended
//! operands and takes the low bits of the product. The scheduler starts at most
//! `Target::multipliers_per_cycle` split multiplies per cycle of a pipeline, so a pipeline's
//! multiplies fit on that many multipliers; the state machine's may need more when they
//! overlap in one block.

use super::*;

/// Multiplies bound to one multiplier.
pub(super) struct SharedMultiplier {
    width: u32,
    cycles: u32,
    ops: Vec<Op>,
}

impl Gen<'_> {
    /// Binds the kernel's split multiplies to shared multipliers when the target's blocks are
    /// fewer than the kernel's multiplies would take (`Target::multipliers_per_cycle`, which
    /// the scheduler also honours in every pipeline); fills `shared_multipliers` with the
    /// multipliers that serve two operations or more.
    pub(super) fn bind_multipliers(&mut self) {
        if self.s.target.multipliers_per_cycle(self.k).is_none() {
            return;
        }
        let mut bound: Vec<SharedMultiplier> = Vec::new();
        for op in self.scheduled_ops() {
            let OpClass::Multi(cycles) = self.s.class(op) else { continue };
            if !self.s.target.splits_multiply(self.k, op) {
                continue;
            }
            let width = self.result_width(op);
            // A narrower multiply takes the low bits of the product of its zero-extended
            // operands: the low `w` bits of a product depend only on the operands' low `w` bits.
            let free = bound
                .iter_mut()
                .find(|m| m.cycles == cycles && m.ops.iter().all(|other| !self.overlap(op, *other, cycles)));
            match free {
                Some(m) => {
                    m.width = m.width.max(width);
                    m.ops.push(op);
                }
                None => bound.push(SharedMultiplier { width, cycles, ops: vec![op] }),
            }
        }
        bound.retain(|m| m.ops.len() > 1);
        for (u, m) in bound.iter().enumerate() {
            for op in &m.ops {
                self.shared_multiplier_of.insert(*op, u);
            }
        }
        self.shared_multipliers = bound;
    }

    /// Whether multiplies `a` and `b`, both `cycles` long, may hold a segment of one multiplier
    /// in the same cycle.
    fn overlap(&self, a: Op, b: Op, cycles: u32) -> bool {
        let (ba, bb) = (self.k.ops[a].block, self.k.ops[b].block);
        let (sa, sb) = (self.s.time[a].start, self.s.time[b].start);
        match (self.s.pipeline_of[ba], self.s.pipeline_of[bb]) {
            (Some(pa), Some(pb)) => pa == pb && sa % self.pp(pa).ii == sb % self.pp(pa).ii,
            (None, None) => ba == bb && sa < sb + cycles && sb < sa + cycles,
            _ => false,
        }
    }

    /// The result of multiply `op` when it runs on a shared multiplier.
    pub(super) fn shared_product(&self, op: Op) -> Option<Expr> {
        let u = *self.shared_multiplier_of.get(&op)?;
        let (product, width) = (format!("mul{u}_product"), self.result_width(op));
        Some(slice_w(&id(product), self.shared_multipliers[u].width, width - 1, 0))
    }

    /// Declares the shared multipliers.
    pub(super) fn shared_multiplier_logic(&mut self) {
        let k = self.k;
        let shared = std::mem::take(&mut self.shared_multipliers);
        for (u, m) in shared.iter().enumerate() {
            let base = format!("mul{u}");
            let sites: Vec<Site> = m.ops.iter().map(|op| self.site(*op, self.s.time[*op].start)).collect();
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!(
                "Multiplier {u}: {}-bit over {} cycles, shared by {} multiplies ({} has {} multiplier blocks).",
                m.width,
                m.cycles,
                m.ops.len(),
                self.s.target.name,
                self.s.target.multiplier_blocks().unwrap_or(0)
            )));
            let operand = |g: &Self, n: usize| {
                let widened = |s: &Site| {
                    let (arg, w) = (g.src(k.ops[s.op].args[n], s.at), g.result_width(s.op));
                    if w < m.width { Expr::Concat(vec![lit(m.width - w, 0), arg]) } else { arg }
                };
                g.operand_site_mux(sites.iter().map(|s| (s, widened(s))).collect(), m.width)
            };
            let args = vec![operand(self, 0), operand(self, 1)];
            let advances: Vec<Box<dyn Fn(u32) -> Expr>> = sites
                .iter()
                .map(|s| -> Box<dyn Fn(u32) -> Expr> {
                    match s.at {
                        At::Pipe(pi, _) => {
                            let go = self.go(pi);
                            Box::new(move |_| go.clone())
                        }
                        At::Fsm(b, start) => Box::new(move |j| id(format!("fire_{b}_{}", start + j))),
                    }
                })
                .collect();
            let advance = |j: u32| {
                let mut events: Vec<Expr> = Vec::new();
                for e in advances.iter().map(|f| f(j)) {
                    if !events.contains(&e) {
                        events.push(e);
                    }
                }
                any(events)
            };
            let product = self.split_multiply(&base, m.width, m.cycles, args, &advance);
            self.m.add(Item::Wire {
                name: format!("{base}_product"),
                width: m.width,
                value: Some(product),
                comment: None,
            });
        }
        self.shared_multipliers = shared;
    }
}
