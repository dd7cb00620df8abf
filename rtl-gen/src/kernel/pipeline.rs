//! Pipelined loops (docs/timing.md, "Pipelined loops").
//!
//! A pipeline `p` has a one-hot phase (cycle within the initiation interval), one valid bit per
//! stage, and a global stall: when any enabled access of an active slot waits for its port, the
//! whole pipeline holds. Values of an iteration travel in chains of registers that shift once
//! per initiation interval, in the phase the value is produced in; a use `j` cycles after a value
//! was produced reads the chain's `ceil(j / II)`-th register. Loop-carried values live in the header's parameter registers, read at their
//! read time and written with the next iteration's value at their write time.

use super::*;
use kiln_dataflow::ir::CmpOp;
use kiln_scheduler::pipeline::shape::Shape;
use kiln_scheduler::pipeline::{ExitSource, PipeParam, Pipeline};
use std::collections::{BTreeMap, BTreeSet};

impl Gen<'_> {
    pub(super) fn pp(&self, pi: u32) -> &Pipeline {
        self.s.pipeline(pi)
    }

    fn pre(&self, pi: u32) -> String {
        format!("p{pi}")
    }

    pub(super) fn slot(&self, pi: u32, r: u32) -> Expr {
        id(format!("p{pi}_slot{r}"))
    }

    /// Whether the FSM is in pipeline `pi`'s state.
    pub(super) fn active(&self, pi: u32) -> Expr {
        id(format!("p{pi}_active"))
    }

    pub(super) fn go(&self, pi: u32) -> Expr {
        id(format!("p{pi}_go"))
    }

    /// Whether the pipeline is in cycle `phase` of its initiation interval. The phase is one-hot
    /// (a bit per cycle): a slot is then a 3-input AND, where a binary counter needed a decoder
    /// in front of every request, stall and enable of the pipeline.
    pub(super) fn phase_is(&self, pi: u32, phase: u32) -> Expr {
        let ii = self.pp(pi).ii;
        if ii == 1 { lit(1, 1) } else { bit_of(&format!("p{pi}_phase"), ii, phase) }
    }

    pub(super) fn valid_bit(&self, pi: u32, stage: u32) -> Expr {
        bit_of(&format!("p{pi}_v"), self.pp(pi).stages, stage)
    }

    /// Whether the iteration at relative cycle `r` continues (its loop test, with polarity).
    pub(super) fn continues(&self, pi: u32, r: u32) -> Expr {
        let c = self.src(self.pp(pi).shape.cond, At::Pipe(pi, r));
        if self.pp(pi).shape.continue_on_true { c } else { un(UnOp::Not, c) }
    }

    /// The register that holds `v[0] & continues(0)` of a test-first pipeline whose loop test
    /// is a header parameter's register read and written in relative cycle 0 (the `exit-test`
    /// pass carries it): the loop's parameters written in slot 0 are written exactly when it
    /// and phase 0 are set. Kept as a register of its own, it is what the enables of the loop's
    /// registers read, where the AND of the stage's valid bit and the test register was a LUT
    /// level, merged by synthesis with the state's initial write and a kept value's select into
    /// two or three (syrk's, syr2k's and fdtd-2d's outer counters on the iCE40: their critical
    /// paths, 17-19 ns). It is set on entry to the entering test and, in phase 0 of each
    /// advance, to `fire & next test` (an iteration that does not fire leaves no valid one
    /// behind it); the stages' shift in the last phase leaves it as it is, since the iteration
    /// in stage 0 moves on exactly when it fired; reset clears it.
    pub(super) fn fire_reg(&self, pi: u32) -> Option<String> {
        let p = self.pp(pi);
        let cond = p.shape.cond;
        let is_header_param = matches!(self.k.values[cond].def, ValueDef::Param(b, _) if b == p.shape.header);
        let q = p.params.iter().find(|q| q.param == cond)?;
        (p.shape.shape == Shape::TestFirst
            && is_header_param
            && q.read == 0
            && q.write == 0
            && self.and_with_next_test_is_free(q.arg))
        .then(|| format!("p{pi}_fire"))
    }

    /// Whether `fire & next` costs no LUT level beyond the next test `next` itself: a
    /// constant or a register, or an equality whose tree of 4-input LUTs leaves an input free
    /// at its root (a LUT compares two bit pairs, or four bits with a constant). A 32-bit
    /// equality of two registers fills its root, so the AND would be a fourth level after the
    /// tree (prefix_sum's, lookup's and histogram's `i != n - 1` on the iCE40: 51-55 MHz with
    /// the fire register, 57-62 without).
    fn and_with_next_test_is_free(&self, next: Value) -> bool {
        let k = self.k;
        let Some(op) = k.def_op(next) else { return true };
        match (&k.ops[op].kind, k.ops[op].args.as_slice()) {
            (OpKind::Const(_), _) => true,
            (OpKind::Cmp(CmpOp::Eq | CmpOp::Ne), [a, b]) => {
                let against_constant = k.as_const(*a).is_some() || k.as_const(*b).is_some();
                let mut inputs = k.width(*a).div_ceil(if against_constant { 4 } else { 2 });
                while inputs > 4 {
                    inputs = inputs.div_ceil(4);
                }
                inputs < 4
            }
            _ => false,
        }
    }

    /// Whether the loop test decides anything at relative cycle `r` of a test-first pipeline:
    /// only in stage 0. An iteration moves on to stage 1 only when its test passes (`v_next`),
    /// so a later stage's valid bit implies the test, and reading it again there would put the
    /// test's chain register into the stage's enables for nothing.
    pub(super) fn test_decides_at(&self, pi: u32, r: u32) -> bool {
        r < self.pp(pi).ii
    }

    /// Whether value `c` of the loop test means "continue".
    fn continue_value(&self, pi: u32, c: Expr) -> Expr {
        if self.pp(pi).shape.continue_on_true { c } else { un(UnOp::Not, c) }
    }

    /// `slot(pi, r) & continues(pi, r)` of a test-first loop: the fire register where there is one.
    fn slot_continues(&self, pi: u32, r: u32) -> Expr {
        match self.fire_reg(pi) {
            Some(fire) if r == 0 => and(id(fire), self.phase_is(pi, 0)),
            _ if !self.test_decides_at(pi, r) => self.slot(pi, r),
            _ => and(self.slot(pi, r), self.continues(pi, r)),
        }
    }

    /// The fire register's value when pipeline `pi` is entered with header arguments `args`.
    pub(super) fn fire_on_entry(&self, pi: u32, args: &[Expr]) -> Option<Stmt> {
        let fire = self.fire_reg(pi)?;
        let p = self.pp(pi);
        let idx = self.k.blocks[p.shape.header].params.iter().position(|v| *v == p.shape.cond)?;
        Some(set(fire, self.continue_value(pi, args.get(idx)?.clone())))
    }

    /// The relative cycle in which loop value `v` of pipeline `pi` is first seen: an operation's
    /// end, a header parameter's read.
    fn defined_at(&self, pi: u32, v: Value) -> u32 {
        match self.k.values[v].def {
            ValueDef::Param(..) => self.pp(pi).params.iter().find(|q| q.param == v).map(|q| q.read).unwrap_or(0),
            ValueDef::Op(op) => self.s.time[op].end,
        }
    }

    /// Where loop value `v` is seen in the cycle it is defined: its wire, or a parameter's register.
    fn chain_base(&self, v: Value) -> String {
        match self.k.values[v].def {
            ValueDef::Param(..) => self.reg_name(v),
            ValueDef::Op(_) => self.wire_name(v),
        }
    }

    /// Value `v` of the loop as seen at relative cycle `r`. A chain register captures the value
    /// once per initiation interval, in the phase it is defined in, so the iteration's value is
    /// in register `ceil((r - def) / II)` until the next capture moves it on.
    pub(super) fn pipe_src(&self, pi: u32, v: Value, r: u32) -> Expr {
        let def = self.defined_at(pi, v);
        if r <= def { id(self.chain_base(v)) } else { id(self.chain_name(v, (r - def).div_ceil(self.pp(pi).ii))) }
    }

    /// Every use of a loop value inside pipeline `pi`: (value, relative cycle).
    fn pipe_uses(&self, pi: u32) -> Vec<(Value, u32)> {
        let p = self.pp(pi);
        let k = self.k;
        let cond = p.shape.cond;
        let mut uses = Vec::new();
        // A serial sum's adds read no value: its accumulators take the products.
        for &op in p.ops.iter().filter(|op| !self.reads_nothing(**op)) {
            let o = &k.ops[op];
            let t = self.s.time[op];
            // A read through an address register takes its address a cycle early.
            let early = self.s.reads_address_early(op);
            uses.extend(
                o.args.iter().enumerate().map(|(i, a)| (*a, if early && i == 0 { t.start - 1 } else { t.start })),
            );
            if o.kind.is_memory() || o.kind.is_pipe_transfer() {
                // A store commits at its start; a registered write's later end
                // (`Schedule::registers_writes`) needs nothing of the iteration.
                let end = if matches!(self.s.class(op), OpClass::MemStore(_)) { t.start } else { t.end };
                if p.guarded.contains(&op) {
                    uses.extend([t.start, end].into_iter().filter(|r| self.test_decides_at(pi, *r)).map(|r| (cond, r)));
                }
                if let Some(pr) = o.predicate() {
                    uses.push((pr, end));
                }
            }
        }
        for q in &p.params {
            if q.skewed.is_none() {
                uses.push((q.arg, q.write));
            }
            for r in self.param_write_cycles(q) {
                if p.shape.shape == Shape::TestFirst && self.test_decides_at(pi, r) {
                    uses.push((cond, r));
                }
            }
        }
        uses.push((cond, p.ii - 1));
        for (v, src) in &p.exits {
            if let ExitSource::Capture(x) = src {
                uses.push((*x, p.ii - 1));
                let _ = v;
            }
        }
        uses.retain(|(v, _)| self.pipeline_of_value(*v) == Some(pi) && self.k.as_const(*v).is_none());
        uses
    }

    /// Whether loop value `v` is read only through its first chain register: by no use in the
    /// cycle it is defined in, and by none of the loop's exits.
    fn read_only_by_its_first_chain_register(&self, pi: u32, v: Value) -> bool {
        let def = self.defined_at(pi, v);
        self.chains.contains_key(&v)
            && !self.pipe_uses(pi).iter().any(|(u, r)| *u == v && *r <= def)
            && !self.pp(pi).exits.iter().any(|(x, src)| {
                let (ExitSource::Invariant(y) | ExitSource::ParamReg(y) | ExitSource::Capture(y)) = src;
                *x == v || *y == v
            })
    }

    pub(super) fn compute_chains(&mut self) {
        for pi in 0..self.s.pipelines.len() as u32 {
            let ii = self.pp(pi).ii;
            for (v, r) in self.pipe_uses(pi) {
                let def = self.defined_at(pi, v);
                if r > def {
                    let e = self.chains.entry(v).or_insert(0);
                    *e = (*e).max((r - def).div_ceil(ii));
                }
            }
        }
    }

    /// Relative cycles at which slot signals are needed.
    fn used_slots(&self, pi: u32) -> BTreeSet<u32> {
        let p = self.pp(pi);
        let mut s = BTreeSet::new();
        for &op in &p.ops {
            let t = self.s.time[op];
            match self.s.class(op) {
                OpClass::PortLoad(_) => {
                    s.insert(t.start);
                    s.insert(t.end);
                }
                OpClass::PortStore(_)
                | OpClass::MemLoad(_)
                | OpClass::MemStore(_)
                | OpClass::Unit(_)
                | OpClass::PipeTransfer(_) => {
                    s.insert(t.start);
                }
                _ => {}
            }
        }
        // Parameters written in slot 0 read the fire register instead, where there is one.
        let fire = self.fire_reg(pi).is_some();
        for q in &p.params {
            for r in self.param_write_cycles(q) {
                if !(fire && r == 0) {
                    s.insert(r);
                }
            }
        }
        s
    }

    /// The skewed accumulator ([`kiln_scheduler::pipeline::skew`]) whose add is `op`, if any.
    pub(super) fn skewed_accumulator_of(&self, op: Op) -> Option<Value> {
        self.s.pipelines.iter().flat_map(|p| &p.params).find(|q| q.skewed == Some(op)).map(|q| q.param)
    }

    /// The bit ranges `(lo, width)` of a skewed accumulator's carry segments, segment `j`
    /// written in cycle `q.write + j`; one range, the whole register, for any other parameter.
    fn param_segments(&self, q: &PipeParam) -> Vec<(u32, u32)> {
        let w = self.k.width(q.param);
        match q.skewed.map(|op| self.s.class(op)) {
            Some(OpClass::Multi(n)) => super::multicycle::carry_segments(w, n),
            _ => vec![(0, w)],
        }
    }

    /// The relative cycles in which parameter `q`'s register is written.
    fn param_write_cycles(&self, q: &PipeParam) -> Vec<u32> {
        (0..self.param_segments(q).len() as u32).map(|j| q.write + j).collect()
    }

    /// Parameter `q`'s register after this cycle's writes: the next iteration's value where it
    /// is written, or a skewed accumulator's segments each from its own segment's sum.
    fn param_next(&self, pi: u32, q: &PipeParam) -> Expr {
        let k = self.k;
        let reg = id(self.reg_name(q.param));
        if q.skewed.is_none() {
            return cond(self.param_write_en(pi, q.write), self.src(q.arg, At::Pipe(pi, q.write)), reg);
        }
        let (w, base) = (k.width(q.param), format!("{}_m", self.wire_name(q.arg)));
        let segments = self.param_segments(q);
        let last = segments.len() - 1;
        let parts = segments
            .iter()
            .enumerate()
            .rev()
            .map(|(j, (lo, sw))| {
                // The last segment's sum is as wide as its bits; the others' carry their carry out.
                let sum_width = if j == last { *sw } else { sw + 1 };
                let sum = slice_w(&id(format!("{base}_s{j}")), sum_width, sw - 1, 0);
                cond(self.param_write_en(pi, q.write + j as u32), sum, slice_w(&reg, w, lo + sw - 1, *lo))
            })
            .collect();
        Expr::Concat(parts)
    }

    /// Write enable of parameter `q`'s register for the next iteration.
    fn param_write_en(&self, pi: u32, write: u32) -> Expr {
        let p = self.pp(pi);
        match p.shape.shape {
            Shape::TestFirst => bin(BinOp::And, self.go(pi), self.slot_continues(pi, write)),
            Shape::TestLast => bin(BinOp::And, self.go(pi), self.slot(pi, write)),
        }
    }

    /// Phase counter, stage valid bits, slots, stall and advance of every pipeline.
    pub(super) fn pipeline_control_signals(&mut self) {
        for pi in 0..self.s.pipelines.len() as u32 {
            let p = self.pp(pi).clone();
            let pre = self.pre(pi);
            let stages = p.stages;
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!(
                "Pipelined loop {pi} @[{}]: II {}, depth {}, {} stage(s).",
                (self.locate)(self.s.loops[p.analysis].span),
                p.ii,
                p.depth,
                stages
            )));
            let in_p = bin(BinOp::Eq, id("state"), id(self.pipe_state_name(pi)));
            self.m.add(Item::Wire { name: format!("{pre}_active"), width: 1, value: Some(in_p), comment: None });
            if p.ii > 1 {
                self.m.add(Item::Reg { name: format!("{pre}_phase"), width: p.ii });
            }
            self.m.add(Item::Reg { name: format!("{pre}_v"), width: stages });
            if let Some(fire) = self.fire_reg(pi) {
                self.m.add(Item::Reg { name: fire, width: 1 });
            }
            // The valid bits and the phase are all zero outside the pipeline's state (see
            // `pipeline_resets` and the exit in `pipeline_arm`), so a slot needs no `active`.
            for r in self.used_slots(pi) {
                let (stage, phase) = (r / p.ii, r % p.ii);
                let e = and(self.valid_bit(pi, stage), self.phase_is(pi, phase));
                self.m.add(Item::Wire { name: format!("{pre}_slot{r}"), width: 1, value: Some(e), comment: None });
            }
            // The pipeline holds while an enabled access of an active slot waits.
            let mut stall = Vec::new();
            for s in self.request_sites() {
                if matches!(s.at, At::Pipe(x, _) if x == pi) {
                    let waits = un(UnOp::Not, bin(BinOp::Or, id(self.acc_name(s.op)), self.ready_of(s.op)));
                    stall.push(and(bin(BinOp::And, s.sel.clone(), waits), s.en.clone()));
                }
            }
            let ports: Vec<Mem> = self.k.ports().map(|(_, _, m)| m).collect();
            for m in ports {
                for s in self.consume_sites(m) {
                    if matches!(s.at, At::Pipe(x, _) if x == pi) {
                        stall.push(and(
                            bin(BinOp::And, s.sel.clone(), un(UnOp::Not, self.avail_of(s.op))),
                            s.en.clone(),
                        ));
                    }
                }
            }
            self.m.add(Item::Wire {
                name: format!("{pre}_mem_stall"),
                width: 1,
                value: Some(any(stall)),
                comment: None,
            });
            let mut stall = vec![id(format!("{pre}_mem_stall"))];
            stall.extend(self.pipeline_transfers(pi));
            self.m.add(Item::Wire { name: format!("{pre}_stall"), width: 1, value: Some(any(stall)), comment: None });
            let go = bin(BinOp::And, self.active(pi), un(UnOp::Not, id(format!("{pre}_stall"))));
            self.m.add(Item::Wire { name: format!("{pre}_go"), width: 1, value: Some(go), comment: None });
            // The loop-test decision of the iteration in stage 0, in the last cycle of its window.
            let cont = self.continues(pi, p.ii - 1);
            self.m.add(Item::Wire { name: format!("{pre}_cont"), width: 1, value: Some(cont), comment: None });
            let v0 = self.valid_bit(pi, 0);
            let mut next_bits = Vec::new();
            for st in (0..stages).rev() {
                let b = match st {
                    0 => bin(BinOp::And, v0.clone(), id(format!("{pre}_cont"))),
                    1 if p.shape.shape == Shape::TestFirst => bin(BinOp::And, v0.clone(), id(format!("{pre}_cont"))),
                    _ => self.valid_bit(pi, st - 1),
                };
                next_bits.push(b);
            }
            let next = if next_bits.len() == 1 { next_bits.remove(0) } else { Expr::Concat(next_bits) };
            self.m.add(Item::Wire { name: format!("{pre}_v_next"), width: stages, value: Some(next), comment: None });
            let last = and(id(format!("{pre}_go")), self.phase_is(pi, p.ii - 1));
            self.m.add(Item::Wire { name: format!("{pre}_turn"), width: 1, value: Some(last), comment: None });
            let decide = bin(
                BinOp::And,
                bin(BinOp::And, id(format!("{pre}_turn")), v0),
                un(UnOp::Not, id(format!("{pre}_cont"))),
            );
            self.m.add(Item::Wire { name: format!("{pre}_decide_exit"), width: 1, value: Some(decide), comment: None });
        }
    }

    /// Value wires, chains, parameter next-values and exit captures of every pipeline.
    pub(super) fn pipeline_datapath(&mut self) {
        let k = self.k;
        for pi in 0..self.s.pipelines.len() as u32 {
            let p = self.pp(pi).clone();
            let pre = self.pre(pi);
            self.m.add(Item::Blank);
            self.m
                .add(Item::Comment(format!("Pipelined loop {pi}: datapath (times relative to the iteration start).")));
            // Predicated loads whose zero the first chain register's reset makes, with the
            // condition that resets it.
            let mut zeroed_by_reset: BTreeMap<Value, Expr> = BTreeMap::new();
            let emitted: Vec<Op> = p.ops.iter().copied().filter(|op| !self.folded.contains(op)).collect();
            for op in emitted {
                let Some(r) = k.ops[op].result else { continue };
                let t = self.s.time[op];
                let w = k.width(r);
                let value = match self.s.class(op) {
                    _ if let Some(sum) = self.serial_sum_value(op) => sum,
                    OpClass::Comb => self.comb_expr(op, At::Pipe(pi, t.start)),
                    OpClass::Multi(n) => self.multicycle(op, n, At::Pipe(pi, t.start), &|_| id(format!("p{pi}_go"))),
                    OpClass::PortLoad(_) if matches!(k.ops[op].kind, OpKind::WordLoad(_)) => {
                        self.enable_at(op, At::Pipe(pi, t.end))
                    }
                    OpClass::PortLoad(m) | OpClass::MemLoad(m) => {
                        let data = if matches!(self.s.class(op), OpClass::PortLoad(_)) {
                            id(format!("{}_rb_data", self.port_prefix(m)))
                        } else {
                            id(format!("{}_rdata", self.mem_name(m)))
                        };
                        match self.enable_at(op, At::Pipe(pi, t.end)) {
                            Expr::Lit(1, 1) => data,
                            _ if self.clears_read_data(self.s.class(op)) => data,
                            en if self.s.timing.zeroes_read_data_in_registers()
                                && self.read_only_by_its_first_chain_register(pi, r) =>
                            {
                                zeroed_by_reset.insert(r, un(UnOp::Not, en));
                                data
                            }
                            en => cond(en, data, lit(w, 0)),
                        }
                    }
                    OpClass::Unit(u) => {
                        let rem = matches!(
                            k.ops[op].kind,
                            OpKind::Binary(kiln_dataflow::ir::BinOp::URem | kiln_dataflow::ir::BinOp::SRem)
                        );
                        id(format!("div{}_{}", u.0, if rem { "rem" } else { "quot" }))
                    }
                    OpClass::PipeTransfer(_) => self.transfer_value_in_pipeline(op, pi, t.start),
                    _ => continue,
                };
                let comment = self.op_comment(op);
                self.m.add(Item::Wire {
                    name: self.wire_name(r),
                    width: w,
                    value: Some(value),
                    comment: Some(comment),
                });
            }
            self.serial_sum_registers(pi);
            // Chains: one register per initiation interval a value is held, shifted in the phase
            // the value is defined in (every cycle when II is 1). Iteration k + 1 produces its
            // value II cycles after iteration k, so a register per cycle would hold copies no use
            // reads.
            let mut chained: Vec<Value> =
                self.chains.keys().copied().filter(|v| self.pipeline_of_value(*v) == Some(pi)).collect();
            chained.sort();
            let mut shifts_by_phase: BTreeMap<u32, Vec<Stmt>> = BTreeMap::new();
            for v in chained {
                let n = self.chains[&v];
                let w = k.width(v);
                let base = self.chain_base(v);
                let shifts = shifts_by_phase.entry(self.defined_at(pi, v) % p.ii).or_default();
                for j in 1..=n {
                    self.m.add(Item::Reg { name: self.chain_name(v, j), width: w });
                    let from = if j == 1 { id(base.clone()) } else { id(self.chain_name(v, j - 1)) };
                    match zeroed_by_reset.get(&v) {
                        // Reset over enable: `if (adv & off) r <= 0; else if (adv) r <= data;`.
                        Some(off) if j == 1 => {
                            let adv = self.advances_at(pi, self.phase_is(pi, self.defined_at(pi, v) % p.ii));
                            self.m.add(Item::Always(vec![Stmt::If(
                                bin(BinOp::And, adv.clone(), off.clone()),
                                vec![set(self.chain_name(v, 1), lit(w, 0))],
                                vec![Stmt::If(adv, vec![set(self.chain_name(v, 1), from)], vec![])],
                            )]));
                        }
                        _ => shifts.push(set(self.chain_name(v, j), from)),
                    }
                }
            }
            for (phase, shifts) in shifts_by_phase {
                let en = self.advances_at(pi, self.phase_is(pi, phase));
                self.m.add(Item::Always(vec![Stmt::If(en, shifts, vec![])]));
            }
            // Parameter registers after this cycle's write (what the loop hands on when it ends).
            for q in &p.params {
                let next = self.param_next(pi, q);
                self.m.add(Item::Wire {
                    name: format!("{pre}_next_{}", self.wire_name(q.param)),
                    width: k.width(q.param),
                    value: Some(next),
                    comment: None,
                });
            }
            for (v, src) in &p.exits {
                if let ExitSource::Capture(_) = src {
                    self.m.add(Item::Reg { name: format!("{pre}_cap_{}", self.wire_name(*v)), width: k.width(*v) });
                }
            }
        }
    }

    /// Statements that start pipeline `pi` (its header's parameters are set by the caller).
    pub(super) fn pipeline_entry(&self, pi: u32) -> Vec<Stmt> {
        let p = self.pp(pi);
        let mut v = vec![set("state", id(self.pipe_state_name(pi))), set(format!("p{pi}_v"), lit(p.stages, 1))];
        if p.ii > 1 {
            v.push(set(format!("p{pi}_phase"), lit(p.ii, 1)));
        }
        v
    }

    /// Outside its state a pipeline's valid bits and phase are zero: reset clears them, and the
    /// exit leaves them so (the valid bits drain, the phase is cleared). A phase bit or a valid
    /// bit therefore implies `active`, and the slots and the sites' multiplexers need no state
    /// decode in front of them.
    pub(super) fn pipeline_resets(&self) -> Vec<Stmt> {
        let mut resets = Vec::new();
        for pi in 0..self.s.pipelines.len() as u32 {
            let p = self.pp(pi);
            resets.push(set(format!("p{pi}_v"), lit(p.stages, 0)));
            if let Some(fire) = self.fire_reg(pi) {
                resets.push(set(fire, lit(1, 0)));
            }
            if p.ii > 1 {
                resets.push(set(format!("p{pi}_phase"), lit(p.ii, 0)));
            }
        }
        resets
    }

    /// Whether pipeline `pi` advances in a cycle where `implies_active` holds, a condition that
    /// holds only in the pipeline's state (a slot, a phase bit): the stall alone, without the
    /// state decode of `go`.
    pub(super) fn advances_at(&self, pi: u32, implies_active: Expr) -> Expr {
        if self.pp(pi).ii == 1 && implies_active == lit(1, 1) {
            return self.go(pi);
        }
        bin(BinOp::And, implies_active, un(UnOp::Not, id(format!("p{pi}_stall"))))
    }

    /// The value a loop result `v` has when the pipeline hands over.
    fn exit_value(&self, pi: u32, v: Value) -> Expr {
        let p = self.pp(pi);
        match p.source_of(v) {
            ExitSource::Invariant(x) => self.src(x, At::Pipe(pi, 0)),
            ExitSource::ParamReg(q) => id(format!("p{pi}_next_{}", self.wire_name(q))),
            ExitSource::Capture(x) => cond(
                id(format!("p{pi}_decide_exit")),
                self.src(x, At::Pipe(pi, p.ii - 1)),
                id(format!("p{pi}_cap_{}", self.wire_name(v))),
            ),
        }
    }

    /// The FSM case arm of pipeline `pi`.
    pub(super) fn pipeline_arm(&self, pi: u32) -> Vec<Stmt> {
        let p = self.pp(pi);
        let pre = self.pre(pi);
        let mut body = Vec::new();
        if p.ii > 1 {
            let phase = format!("{pre}_phase");
            let rotated = Expr::Concat(vec![slice_w(&id(&phase), p.ii, p.ii - 2, 0), bit_of(&phase, p.ii, p.ii - 1)]);
            body.push(set(&phase, rotated));
        }
        for q in p.params.iter().filter(|q| q.skewed.is_some()) {
            body.push(set(self.reg_name(q.param), id(format!("{pre}_next_{}", self.wire_name(q.param)))));
        }
        for q in p.params.iter().filter(|q| q.skewed.is_none()) {
            let en = match p.shape.shape {
                Shape::TestFirst => self.slot_continues(pi, q.write),
                Shape::TestLast => self.slot(pi, q.write),
            };
            body.push(Stmt::If(en, vec![set(self.reg_name(q.param), self.src(q.arg, At::Pipe(pi, q.write)))], vec![]));
        }
        if let Some(fire) = self.fire_reg(pi) {
            // Before the exit, whose entry sets it again when the exit re-enters this loop.
            let q = p.params.iter().find(|q| q.param == p.shape.cond).map(|q| q.arg).unwrap_or(p.shape.cond);
            let next = self.continue_value(pi, self.src(q, At::Pipe(pi, 0)));
            let update = set(fire.clone(), bin(BinOp::And, id(fire), next));
            body.push(match self.phase_is(pi, 0) {
                Expr::Lit(1, 1) => update,
                phase0 => Stmt::If(phase0, vec![update], vec![]),
            });
        }
        let mut turn = vec![set(format!("{pre}_v"), id(format!("{pre}_v_next")))];
        let caps: Vec<Stmt> = p
            .exits
            .iter()
            .filter_map(|(v, src)| match src {
                ExitSource::Capture(x) => {
                    Some(set(format!("{pre}_cap_{}", self.wire_name(*v)), self.src(*x, At::Pipe(pi, p.ii - 1))))
                }
                _ => None,
            })
            .collect();
        if !caps.is_empty() {
            turn.push(Stmt::If(id(format!("{pre}_decide_exit")), caps, vec![]));
        }
        // Drained: hand the loop's results on and enter the exit block.
        let mut exit = Vec::new();
        if p.ii > 1 {
            // Before `enter`, which starts the phase again when the exit re-enters this loop.
            exit.push(set(format!("{pre}_phase"), lit(p.ii, 0)));
        }
        for (v, src) in &p.exits {
            let same = matches!(src, ExitSource::ParamReg(q) if q == v);
            if self.s.registered[*v] && !same {
                exit.push(set(self.reg_name(*v), self.exit_value(pi, *v)));
            }
        }
        let args: Vec<Expr> = p.shape.exit.args.iter().map(|a| self.exit_value(pi, *a)).collect();
        exit.extend(self.enter(p.shape.exit.block, args));
        turn.push(Stmt::If(bin(BinOp::Eq, id(format!("{pre}_v_next")), lit(p.stages, 0)), exit, vec![]));
        body.push(Stmt::If(self.phase_is(pi, p.ii - 1), turn, vec![]));
        vec![Stmt::If(self.go(pi), simplify_if_true(body), vec![])]
    }
}

/// `if (1'b1) { s }` → `s`.
fn simplify_if_true(stmts: Vec<Stmt>) -> Vec<Stmt> {
    stmts
        .into_iter()
        .flat_map(|s| match s {
            Stmt::If(Expr::Lit(1, 1), body, _) => body,
            other => vec![other],
        })
        .collect()
}
