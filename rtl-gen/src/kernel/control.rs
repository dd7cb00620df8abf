//! The kernel's FSM: state encoding, fire conditions, transitions (into FSM states, pipelined
//! loops or `DONE`), result registers and request acceptance flags.

use super::*;
use kiln_dataflow::ir::{Target, Terminator};
use kiln_scheduler::schedule::Entry;

impl Gen<'_> {
    pub(super) fn pipe_state_name(&self, pi: u32) -> String {
        format!("S_P{pi}")
    }

    pub(super) fn fsm_decode(&mut self, states: &[(Block, u32)]) {
        let sw = self.state_width;
        self.m.add(Item::Comment("FSM states (docs/timing.md).".into()));
        self.m.add(Item::Localparam { name: "S_IDLE".into(), width: sw, value: 0 });
        self.m.add(Item::Localparam { name: "S_DONE".into(), width: sw, value: 1 });
        for (b, i) in states {
            let n = self.state_name(*b, *i);
            self.m.add(Item::Localparam { name: n, width: sw, value: self.state_index[&(*b, *i)] as u64 });
        }
        let first_pipe = states.len() as u64 + 2;
        for pi in 0..self.s.pipelines.len() as u32 {
            self.m.add(Item::Localparam { name: self.pipe_state_name(pi), width: sw, value: first_pipe + pi as u64 });
        }
        self.m.add(Item::StateReg { name: "state".into(), width: sw });
        for (b, i) in states {
            let v = bin(BinOp::Eq, id("state"), id(self.state_name(*b, *i)));
            self.m.add(Item::Wire { name: format!("in_{b}_{i}"), width: 1, value: Some(v), comment: None });
        }
        self.m.add(Item::Assign("done".into(), bin(BinOp::Eq, id("state"), id("S_DONE"))));
        // Fire conditions: every enabled request of the state accepted, every enabled response
        // available.
        let mut terms: BTreeMap<(Block, u32), Vec<Expr>> =
            states.iter().map(|(b, i)| ((*b, *i), vec![self.in_state(*b, *i)])).collect();
        let not_en = |e: &Expr| if matches!(e, Expr::Lit(1, 1)) { None } else { Some(un(UnOp::Not, e.clone())) };
        for s in self.request_sites() {
            if let At::Fsm(b, i) = s.at {
                let mut t = bin(BinOp::Or, id(self.acc_name(s.op)), self.ready_of(s.op));
                if let Some(n) = not_en(&s.en) {
                    t = bin(BinOp::Or, t, n);
                }
                terms.entry((b, i)).or_default().push(t);
            }
        }
        let ports: Vec<Mem> = self.k.ports().map(|(_, _, m)| m).collect();
        for m in ports {
            for s in self.consume_sites(m) {
                if let At::Fsm(b, i) = s.at {
                    let mut t = self.avail_of(s.op);
                    if let Some(n) = not_en(&s.en) {
                        t = bin(BinOp::Or, t, n);
                    }
                    terms.entry((b, i)).or_default().push(t);
                }
            }
        }
        for (s, waits) in self.transfer_waits() {
            if let At::Fsm(b, i) = s.at {
                let mut t = un(UnOp::Not, waits);
                if let Some(n) = not_en(&s.en) {
                    t = bin(BinOp::Or, t, n);
                }
                terms.entry((b, i)).or_default().push(t);
            }
        }
        for &(b, i) in states {
            let t = terms.remove(&(b, i)).unwrap_or_default();
            self.m.add(Item::Wire { name: format!("fire_{b}_{i}"), width: 1, value: Some(all(t)), comment: None });
        }
    }

    /// Statements that enter block `b` with parameter values `args`.
    pub(super) fn enter(&self, b: Block, args: Vec<Expr>) -> Vec<Stmt> {
        let mut v: Vec<Stmt> =
            self.k.blocks[b].params.iter().zip(&args).map(|(p, a)| set(self.reg_name(*p), a.clone())).collect();
        match self.s.entry_of(b) {
            Entry::Done => v.push(set("state", id("S_DONE"))),
            Entry::Step(b) => v.push(set("state", id(self.state_name(b, 0)))),
            Entry::Pipeline(pi) => {
                v.extend(self.pipeline_entry(pi));
                v.extend(self.fire_on_entry(pi, &args));
            }
        }
        v
    }

    /// Statements that take the edge out of FSM block `b` (in its last step).
    fn transition(&self, b: Block) -> Vec<Stmt> {
        let k = self.k;
        let last = self.s.steps[b].saturating_sub(1);
        let at = At::Fsm(b, last);
        let goto = |t: &Target| -> Vec<Stmt> { self.enter(t.block, t.args.iter().map(|a| self.src(*a, at)).collect()) };
        match &k.blocks[b].term {
            Terminator::Return | Terminator::Unterminated => vec![set("state", id("S_DONE"))],
            Terminator::Jump(t) => goto(t),
            Terminator::Branch { cond, then_to, else_to } => {
                vec![Stmt::If(self.src(*cond, at), goto(then_to), goto(else_to))]
            }
            Terminator::Switch { value, cases, default } => {
                let w = k.width(*value);
                let mut arms: Vec<(Vec<Expr>, Vec<Stmt>, &Target)> = Vec::new();
                for (c, t) in cases {
                    match arms.iter_mut().find(|(_, _, at)| *at == t) {
                        Some(arm) => arm.0.push(lit(w, *c)),
                        None => arms.push((vec![lit(w, *c)], goto(t), t)),
                    }
                }
                let arms = arms.into_iter().map(|(l, s, _)| (l, s)).collect();
                vec![Stmt::Case(self.src(*value, at), arms, goto(default))]
            }
        }
    }

    pub(super) fn control(&mut self, states: &[(Block, u32)]) {
        let k = self.k;
        let mut arms: Vec<(Vec<Expr>, Vec<Stmt>)> = Vec::new();
        // Idle: latch the scalar arguments into the entry block's parameter registers.
        let mut idle = Vec::new();
        for (_, p, v) in k.scalar_params() {
            idle.push(set(self.reg_name(v), id(scalar_port(p))));
        }
        match self.s.entry_of(k.entry) {
            Entry::Pipeline(pi) => idle.extend(self.pipeline_entry(pi)),
            _ => idle.push(set("state", id(self.state_name(k.entry, 0)))),
        }
        arms.push((vec![id("S_IDLE")], vec![Stmt::If(id("start"), idle, vec![])]));
        for &(b, i) in states {
            let mut body = Vec::new();
            for &op in &k.blocks[b].ops {
                if self.s.class(op) == OpClass::Constant || self.s.time[op].end != i {
                    continue;
                }
                if let Some(r) = k.ops[op].result
                    && self.s.registered[r]
                {
                    body.push(set(self.reg_name(r), id(self.wire_name(r))));
                }
            }
            if i + 1 < self.s.steps[b] {
                body.push(set("state", id(self.state_name(b, i + 1))));
            } else {
                body.extend(self.transition(b));
            }
            arms.push((vec![id(self.state_name(b, i))], vec![Stmt::If(self.fire(b, i), body, vec![])]));
        }
        for pi in 0..self.s.pipelines.len() as u32 {
            arms.push((vec![id(self.pipe_state_name(pi))], self.pipeline_arm(pi)));
        }
        arms.push((vec![id("S_DONE")], vec![set("state", id("S_IDLE"))]));
        let fsm = Stmt::Case(id("state"), arms, vec![set("state", id("S_IDLE"))]);
        // Request acceptance flags.
        let mut acc_reset = Vec::new();
        let mut acc_update = Vec::new();
        for s in self.request_sites() {
            let acc = self.acc_name(s.op);
            acc_reset.push(set(&acc, lit(1, 0)));
            acc_update.push(Stmt::If(
                s.commit.clone(),
                vec![set(&acc, lit(1, 0))],
                vec![Stmt::If(
                    and(bin(BinOp::And, s.sel.clone(), self.ready_of(s.op)), s.en.clone()),
                    vec![set(&acc, lit(1, 1))],
                    vec![],
                )],
            ));
        }
        let mut reset = vec![set("state", id("S_IDLE"))];
        reset.extend(acc_reset);
        reset.extend(self.pipeline_resets());
        let mut run = vec![fsm];
        run.extend(acc_update);
        self.m.add(Item::Blank);
        self.m.add(Item::Comment("Control: state transitions, result registers, block parameters.".into()));
        // The reset overrides at the end, so only the registers it resets depend on it: under
        // an `if (rst) ... else` every register of the state machine had the reset in its
        // enable (on the iCE40 the board's reset net, across the part, into the datapath's
        // clock enables: gemm's critical path).
        run.push(Stmt::If(id("rst"), reset, vec![]));
        self.m.add(Item::Always(run));
    }
}
