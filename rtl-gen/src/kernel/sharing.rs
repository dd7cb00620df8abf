//! Shared multipliers (`kiln_scheduler::binding`): one segmented multiply (`split_multiply`)
//! per multiplier the scheduler binds, its operands chosen by the site multiplexer of the
//! operation that starts, its segments advanced by any of its operations' advances. Sharing
//! changes no cycle (the multiplies whose operand multiplexer the scheduler registers are a
//! cycle longer whether they share or not). Kernels whose multiplies fit the blocks share
//! nothing: the operand multiplexer lies on the path into the multiplier.

use super::multicycle::SplitOperands;
use super::*;

impl Gen<'_> {
    /// Fills `shared_multipliers` with the scheduler's binding and `shared_multiplier_of` with
    /// each bound multiply's multiplier.
    pub(super) fn bind_multipliers(&mut self) {
        let bound = kiln_scheduler::binding::shared_multipliers(self.s);
        for (u, m) in bound.iter().enumerate() {
            for op in &m.ops {
                self.shared_multiplier_of.insert(*op, u);
            }
        }
        self.shared_multipliers = bound;
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
                "Multiplier {u}: {}-bit over {} cycles{}, shared by {} multiplies ({} has {} multiplier blocks).",
                m.width,
                m.cycles,
                if m.registered_operands { " (operands registered)" } else { "" },
                m.ops.len(),
                self.s.timing.name,
                self.s.timing.multiplier_blocks().unwrap_or(0)
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
            let operands = SplitOperands {
                args,
                significant: [m.width, m.width],
                sign_extended_from: [None, None],
                registered: m.registered_operands,
            };
            let product = self.split_multiply(&base, m.width, m.cycles, operands, &advance);
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
