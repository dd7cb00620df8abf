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
//! path into the multiplier.

use super::*;

/// Multiplies bound to one multiplier.
pub(super) struct SharedMultiplier {
    width: u32,
    cycles: u32,
    ops: Vec<Op>,
}

impl Gen<'_> {
    /// Binds the kernel's split multiplies to shared multipliers when the target's blocks are
    /// fewer than the kernel's multiplies would take; fills `shared_multipliers` with the
    /// multipliers that serve two operations or more.
    pub(super) fn bind_multipliers(&mut self) {
        let Some(blocks) = self.s.target.multiplier_blocks() else { return };
        let ops = self.scheduled_ops();
        let needed: u32 = ops.iter().map(|op| self.multiplier_blocks_of(*op)).sum();
        if needed <= blocks {
            return;
        }
        let mut bound: Vec<SharedMultiplier> = Vec::new();
        for op in ops {
            let OpClass::Multi(cycles) = self.s.class(op) else { continue };
            if !self.splits_multiply(op) {
                continue;
            }
            let width = self.result_width(op);
            let free = bound.iter_mut().find(|m| {
                m.width == width && m.cycles == cycles && m.ops.iter().all(|other| !self.overlap(op, *other, cycles))
            });
            match free {
                Some(m) => m.ops.push(op),
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

    /// The DSP blocks a multiply takes unshared: one per 16 x 16 partial product that reaches
    /// the result's bits. Multiplies by a constant become shifts and adds.
    fn multiplier_blocks_of(&self, op: Op) -> u32 {
        let o = &self.k.ops[op];
        if !matches!(o.kind, OpKind::Binary(kiln_dataflow::ir::BinOp::Mul))
            || o.args.iter().any(|a| self.k.as_const(*a).is_some())
        {
            return 0;
        }
        let w = self.result_width(op);
        let chunks = w.div_ceil(16);
        (0..chunks).flat_map(|i| (0..chunks).map(move |j| 16 * (i + j))).filter(|shift| *shift < w).count() as u32
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
        self.shared_multiplier_of.get(&op).map(|u| id(format!("mul{u}_product")))
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
                g.site_mux(sites.iter().map(|s| (s, g.src(k.ops[s.op].args[n], s.at))).collect(), m.width)
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
