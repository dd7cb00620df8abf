//! One kernel's schedule as a Verilog module: the FSM, the datapath, the memory-port logic,
//! on-chip memories and dividers. The structure follows `docs/timing.md` exactly; the
//! simulator implements the same contract independently.

use crate::verilog::*;
use kiln_dataflow::ir::{
    BinOp as IrBin, Block, CastOp, CmpOp, Kernel, Mem, MemKind, Op, OpKind, Target, Terminator, UnOp as IrUn, Value,
    ValueDef,
};
use kiln_frontend::Span;
use kiln_scheduler::Schedule;
use kiln_scheduler::schedule::{OpClass, UnitId, UnitKind};
use std::collections::BTreeMap;

/// Turns a C name into a Verilog-safe suffix.
fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

struct Gen<'s> {
    s: &'s Schedule,
    k: &'s Kernel,
    m: Module,
    locate: &'s dyn Fn(Span) -> String,
    state_width: u32,
    state_index: BTreeMap<(Block, u32), u32>,
    port_index: BTreeMap<Mem, usize>,
}

impl<'s> Gen<'s> {
    fn wire_name(&self, v: Value) -> String {
        match &self.k.values[v].name {
            Some(n) => format!("{v}_{}", sanitize(n)),
            None => format!("{v}"),
        }
    }

    fn reg_name(&self, v: Value) -> String {
        format!("r_{}", self.wire_name(v))
    }

    fn state_name(&self, b: Block, i: u32) -> String {
        format!("S_{}_{}", b.to_string().to_uppercase(), i)
    }

    fn in_state(&self, b: Block, i: u32) -> Expr {
        id(format!("in_{b}_{i}"))
    }

    fn fire(&self, b: Block, i: u32) -> Expr {
        id(format!("fire_{b}_{i}"))
    }

    fn port_prefix(&self, m: Mem) -> String {
        sanitize(&self.k.mems[m].name)
    }

    fn mem_name(&self, m: Mem) -> String {
        format!("mem_{m}_{}", sanitize(&self.k.mems[m].name))
    }

    /// The expression that gives value `v` to a use in step `i` of block `b`.
    fn src(&self, v: Value, b: Block, i: u32) -> Expr {
        let w = self.k.width(v);
        match self.k.values[v].def {
            ValueDef::Param(..) => id(self.reg_name(v)),
            ValueDef::Op(op) => {
                if let OpKind::Const(c) = self.k.ops[op].kind {
                    return lit(w, c);
                }
                let t = self.s.time[op];
                if self.k.ops[op].block == b && t.end == i { id(self.wire_name(v)) } else { id(self.reg_name(v)) }
            }
        }
    }

    /// The predicate of a memory op as seen in step `i` (true when unpredicated).
    fn pred_at(&self, op: Op, i: u32) -> Expr {
        match self.k.ops[op].predicate() {
            Some(p) => self.src(p, self.k.ops[op].block, i),
            None => lit(1, 1),
        }
    }

    /// `e & pred` for a predicated op, `e` otherwise.
    fn and_pred(&self, e: Expr, op: Op, i: u32) -> Expr {
        match self.k.ops[op].predicate() {
            Some(_) => bin(BinOp::And, e, self.pred_at(op, i)),
            None => e,
        }
    }

    fn result_width(&self, op: Op) -> u32 {
        self.k.ops[op].result.map(|r| self.k.width(r)).unwrap_or(1)
    }

    /// The datapath expression of a combinational op.
    fn comb_expr(&self, op: Op) -> Expr {
        let o = &self.k.ops[op];
        let b = o.block;
        let t = self.s.time[op];
        let w = self.result_width(op);
        let args: Vec<Expr> = o.args.iter().map(|a| self.src(*a, b, t.start)).collect();
        let aw: Vec<u32> = o.args.iter().map(|a| self.k.width(*a)).collect();
        // Fully constant operands: compute the value.
        if args.iter().all(|a| matches!(a, Expr::Lit(..))) {
            let vals: Vec<u64> = args.iter().map(|a| if let Expr::Lit(_, v) = a { *v } else { 0 }).collect();
            return lit(w, kiln_dataflow::ir::op::eval(&o.kind, &vals, &aw, w));
        }
        let a = |i: usize| args[i].clone();
        match &o.kind {
            OpKind::Unary(IrUn::Neg) => un(UnOp::Neg, a(0)),
            OpKind::Unary(IrUn::Not) => un(UnOp::Not, a(0)),
            OpKind::Binary(op) => {
                let simple = |x| bin(x, a(0), a(1));
                match op {
                    IrBin::Add => simple(BinOp::Add),
                    IrBin::Sub => simple(BinOp::Sub),
                    IrBin::Mul => simple(BinOp::Mul),
                    IrBin::And => simple(BinOp::And),
                    IrBin::Or => simple(BinOp::Or),
                    IrBin::Xor => simple(BinOp::Xor),
                    IrBin::Shl | IrBin::LShr | IrBin::AShr => {
                        if w == 1 {
                            return a(0);
                        }
                        // The count is taken modulo the (power-of-two) width: its low bits.
                        let k = w.trailing_zeros();
                        let count = if aw[1] <= k { a(1) } else { slice(&a(1), k - 1, 0) };
                        match op {
                            IrBin::Shl => bin(BinOp::Shl, a(0), count),
                            IrBin::LShr => bin(BinOp::Shr, a(0), count),
                            _ => bin(BinOp::AShr, Expr::Signed(Box::new(a(0))), count),
                        }
                    }
                    _ => lit(w, 0), // divisions run on divider units
                }
            }
            OpKind::Cmp(c) => {
                let s = |e: Expr| Expr::Signed(Box::new(e));
                match c {
                    CmpOp::Eq => bin(BinOp::Eq, a(0), a(1)),
                    CmpOp::Ne => bin(BinOp::Ne, a(0), a(1)),
                    CmpOp::Ult => bin(BinOp::Lt, a(0), a(1)),
                    CmpOp::Ule => bin(BinOp::Le, a(0), a(1)),
                    CmpOp::Ugt => bin(BinOp::Gt, a(0), a(1)),
                    CmpOp::Uge => bin(BinOp::Ge, a(0), a(1)),
                    CmpOp::Slt => bin(BinOp::Lt, s(a(0)), s(a(1))),
                    CmpOp::Sle => bin(BinOp::Le, s(a(0)), s(a(1))),
                    CmpOp::Sgt => bin(BinOp::Gt, s(a(0)), s(a(1))),
                    CmpOp::Sge => bin(BinOp::Ge, s(a(0)), s(a(1))),
                }
            }
            OpKind::Select => cond(a(0), a(1), a(2)),
            OpKind::Cast(CastOp::Zext) => Expr::Concat(vec![lit(w - aw[0], 0), a(0)]),
            OpKind::Cast(CastOp::Sext) => {
                Expr::Concat(vec![Expr::Repeat(w - aw[0], Box::new(slice_w(&a(0), aw[0], aw[0] - 1, aw[0] - 1))), a(0)])
            }
            OpKind::Cast(CastOp::Trunc) => slice(&a(0), w - 1, 0),
            OpKind::Const(c) => lit(w, *c),
            OpKind::Load(_) | OpKind::Store(_) => lit(w, 0),
        }
    }
}

/// `e[hi:lo]` of an operand `width` bits wide (the operand itself when that is all of it).
fn slice_w(e: &Expr, width: u32, hi: u32, lo: u32) -> Expr {
    if lo == 0 && hi + 1 == width {
        return e.clone();
    }
    slice(e, hi, lo)
}

/// `e[hi:lo]` for an identifier or literal operand (of width > hi).
fn slice(e: &Expr, hi: u32, lo: u32) -> Expr {
    match e {
        Expr::Ident(n) => {
            if hi == lo {
                Expr::Bit(n.clone(), hi)
            } else {
                Expr::Slice(n.clone(), hi, lo)
            }
        }
        Expr::Lit(_, v) => lit(hi - lo + 1, v >> lo),
        other => other.clone(),
    }
}

/// A 1-bit-safe bit select: single-bit signals are not indexed.
fn bit_of(name: &str, width: u32, i: u32) -> Expr {
    if width == 1 { id(name) } else { Expr::Bit(name.to_string(), i) }
}

/// Mux of `(condition, value)` pairs for mutually exclusive conditions; `default` otherwise.
fn one_hot_mux(cases: Vec<(Expr, Expr)>, default: Expr) -> Expr {
    cases.into_iter().rev().fold(default, |acc, (c, v)| cond(c, v, acc))
}

/// The ports of the module [`kernel_module`] builds.
pub fn interface(s: &Schedule) -> crate::Interface {
    let k = &s.kernel;
    crate::Interface {
        module: sanitize(&k.name),
        scalars: k
            .scalar_params()
            .map(|(i, p, v)| crate::ScalarPort {
                name: format!("arg_{}", sanitize(&p.name)),
                width: k.width(v),
                param: i,
            })
            .collect(),
        memories: k
            .ports()
            .map(|(i, _, m)| crate::MemoryPort {
                prefix: sanitize(&k.mems[m].name),
                data_width: k.mems[m].elem_width,
                read_only: matches!(k.mems[m].kind, MemKind::ConstantArg { .. }),
                param: i,
            })
            .collect(),
    }
}

/// Builds the Verilog module of a scheduled kernel.
pub fn kernel_module(s: &Schedule, locate: &dyn Fn(Span) -> String) -> Module {
    let k = &s.kernel;
    let states = s.states();
    let mut state_index = BTreeMap::new();
    for (n, st) in states.iter().enumerate() {
        state_index.insert(*st, n as u32 + 2);
    }
    let port_index = k.ports().enumerate().map(|(i, (_, _, m))| (m, i)).collect();
    let mut g = Gen {
        s,
        k,
        m: Module { name: sanitize(&k.name), ..Default::default() },
        locate,
        state_width: clog2(states.len() as u64 + 2),
        state_index,
        port_index,
    };
    g.header();
    g.interface();
    g.fsm_decode(&states);
    g.datapath();
    g.ports_logic();
    g.on_chip_memories();
    g.dividers();
    g.control(&states);
    g.m
}

impl<'s> Gen<'s> {
    fn header(&mut self) {
        let s = self.s;
        self.m.header = vec![
            format!(
                "Generated by kiln {} from kernel `{}` ({}).",
                env!("CARGO_PKG_VERSION"),
                self.k.name,
                (self.locate)(self.k.span)
            ),
            format!("Target {} at {} MHz. Timing contract: docs/timing.md.", s.target.name, s.clock_mhz),
            "Memory ports: element-index addresses; requests valid/ready; in-order read responses.".to_string(),
        ];
    }

    fn interface(&mut self) {
        let k = self.k;
        let mut ports = vec![
            Port { dir: Dir::Input, name: "clk".into(), width: 1, is_reg: false, comment: None },
            Port {
                dir: Dir::Input,
                name: "rst".into(),
                width: 1,
                is_reg: false,
                comment: Some("synchronous, active high".into()),
            },
            Port {
                dir: Dir::Input,
                name: "start".into(),
                width: 1,
                is_reg: false,
                comment: Some("sampled in the idle state".into()),
            },
            Port {
                dir: Dir::Output,
                name: "done".into(),
                width: 1,
                is_reg: false,
                comment: Some("high for one cycle at the end".into()),
            },
        ];
        for (_, p, v) in k.scalar_params() {
            ports.push(Port {
                dir: Dir::Input,
                name: format!("arg_{}", sanitize(&p.name)),
                width: k.width(v),
                is_reg: false,
                comment: Some(format!("{} {}", p.c_type, p.name)),
            });
        }
        for (_, p, m) in k.ports() {
            let d = &k.mems[m];
            let pre = self.port_prefix(m);
            let w = d.elem_width;
            let read_only = matches!(d.kind, MemKind::ConstantArg { .. });
            let out = |n: &str, width: u32, c: Option<String>| Port {
                dir: Dir::Output,
                name: format!("{pre}_{n}"),
                width,
                is_reg: false,
                comment: c,
            };
            let inp = |n: &str, width: u32| Port {
                dir: Dir::Input,
                name: format!("{pre}_{n}"),
                width,
                is_reg: false,
                comment: None,
            };
            ports.push(out("req_valid", 1, Some(format!("port for {} {}", p.c_type, p.name))));
            ports.push(inp("req_ready", 1));
            ports.push(out("req_addr", 32, Some("element index".into())));
            if !read_only {
                ports.push(out("req_we", 1, None));
                ports.push(out("req_wdata", w, None));
                ports.push(out("req_wstrb", (w / 8).max(1), Some("byte enables".into())));
            }
            ports.push(inp("resp_valid", 1));
            ports.push(inp("resp_rdata", w));
        }
        self.m.ports = ports;
    }

    fn fsm_decode(&mut self, states: &[(Block, u32)]) {
        let sw = self.state_width;
        self.m.add(Item::Comment("FSM states (docs/timing.md).".into()));
        self.m.add(Item::Localparam { name: "S_IDLE".into(), width: sw, value: 0 });
        self.m.add(Item::Localparam { name: "S_DONE".into(), width: sw, value: 1 });
        for (b, i) in states {
            let n = self.state_name(*b, *i);
            self.m.add(Item::Localparam { name: n, width: sw, value: self.state_index[&(*b, *i)] as u64 });
        }
        self.m.add(Item::Reg { name: "state".into(), width: sw });
        for (b, i) in states {
            let v = bin(BinOp::Eq, id("state"), id(self.state_name(*b, *i)));
            self.m.add(Item::Wire { name: format!("in_{b}_{i}"), width: 1, value: Some(v), comment: None });
        }
        self.m.add(Item::Assign("done".into(), bin(BinOp::Eq, id("state"), id("S_DONE"))));
        // Fire conditions: all requests of the state accepted, all responses available.
        for &(b, i) in states {
            let mut terms = vec![self.in_state(b, i)];
            for op in self.s.ops_at(b, i) {
                let t = self.s.time[op];
                match self.s.class(op) {
                    OpClass::PortLoad(m) | OpClass::PortStore(m) if t.start == i => {
                        let pre = self.port_prefix(m);
                        let mut term = bin(BinOp::Or, id(format!("acc_{op}")), id(format!("{pre}_req_ready")));
                        if self.k.ops[op].predicate().is_some() {
                            term = bin(BinOp::Or, term, un(UnOp::Not, self.pred_at(op, i)));
                        }
                        terms.push(term);
                    }
                    _ => {}
                }
                if let OpClass::PortLoad(m) = self.s.class(op)
                    && t.end == i
                {
                    let mut term = id(format!("{}_rb_avail", self.port_prefix(m)));
                    if self.k.ops[op].predicate().is_some() {
                        term = bin(BinOp::Or, term, un(UnOp::Not, self.pred_at(op, i)));
                    }
                    terms.push(term);
                }
            }
            self.m.add(Item::Wire { name: format!("fire_{b}_{i}"), width: 1, value: Some(all(terms)), comment: None });
        }
    }

    fn datapath(&mut self) {
        let k = self.k;
        for b in k.rpo() {
            let ops: Vec<Op> = k.blocks[b].ops.clone();
            if ops.iter().all(|op| self.s.class(*op) == OpClass::Constant || k.ops[*op].result.is_none()) {
                continue;
            }
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!("{b}: {} step(s), {}", self.s.steps[b], (self.locate)(k.blocks[b].span))));
            for op in ops {
                let Some(r) = k.ops[op].result else { continue };
                let class = self.s.class(op);
                if class == OpClass::Constant {
                    continue;
                }
                let w = k.width(r);
                let value = match class {
                    OpClass::Comb => self.comb_expr(op),
                    OpClass::PortLoad(m) | OpClass::MemLoad(m) => {
                        let data = if matches!(class, OpClass::PortLoad(_)) {
                            id(format!("{}_rb_data", self.port_prefix(m)))
                        } else {
                            id(format!("{}_rdata", self.mem_name(m)))
                        };
                        match k.ops[op].predicate() {
                            // A predicated-off read yields 0, as in the emulator.
                            Some(_) => cond(self.pred_at(op, self.s.time[op].end), data, lit(w, 0)),
                            None => data,
                        }
                    }
                    OpClass::Unit(u) => {
                        let rem = matches!(k.ops[op].kind, OpKind::Binary(IrBin::URem | IrBin::SRem));
                        id(format!("div{}_{}", u.0, if rem { "rem" } else { "quot" }))
                    }
                    _ => continue,
                };
                let t = self.s.time[op];
                let comment = format!(
                    "{} [{}..{}] @[{}]",
                    k.ops[op].kind.mnemonic(),
                    t.start,
                    t.end,
                    (self.locate)(k.ops[op].span)
                );
                self.m.add(Item::Wire {
                    name: self.wire_name(r),
                    width: w,
                    value: Some(value),
                    comment: Some(comment),
                });
            }
        }
        // Registers: block parameters and values used after their end step.
        self.m.add(Item::Blank);
        self.m.add(Item::Comment(
            "Registers: block parameters (incl. scalar arguments) and values kept across steps.".into(),
        ));
        let mut regs: Vec<Value> = k.values.keys().filter(|v| self.s.registered[*v]).collect();
        regs.sort();
        for v in regs {
            self.m.add(Item::Reg { name: self.reg_name(v), width: k.width(v) });
        }
    }

    /// Requests of every port (state, op), in state order.
    fn port_requests(&self, m: Mem) -> Vec<((Block, u32), Op)> {
        let mut v = Vec::new();
        for (b, i) in self.s.states() {
            for op in self.s.ops_at(b, i) {
                let t = self.s.time[op];
                if t.start == i && matches!(self.s.class(op), OpClass::PortLoad(x) | OpClass::PortStore(x) if x == m) {
                    v.push(((b, i), op));
                }
            }
        }
        v
    }

    fn ports_logic(&mut self) {
        let k = self.k;
        let ports: Vec<(Mem, bool)> =
            k.ports().map(|(_, _, m)| (m, matches!(k.mems[m].kind, MemKind::ConstantArg { .. }))).collect();
        for (m, read_only) in ports {
            let pre = self.port_prefix(m);
            let w = k.mems[m].elem_width;
            let reqs = self.port_requests(m);
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!("Memory port `{}` (port {}).", k.mems[m].name, self.port_index[&m])));
            // Acceptance flags: a request accepted while its state stalls is not repeated.
            for (_, op) in &reqs {
                self.m.add(Item::Reg { name: format!("acc_{op}"), width: 1 });
            }
            let valid: Vec<Expr> = reqs
                .iter()
                .map(|((b, i), op)| self.and_pred(bin(BinOp::And, self.in_state(*b, *i), un(UnOp::Not, id(format!("acc_{op}")))), *op, *i))
                .collect();
            self.m.add(Item::Assign(format!("{pre}_req_valid"), any(valid)));
            let addr: Vec<(Expr, Expr)> =
                reqs.iter().map(|((b, i), op)| (self.in_state(*b, *i), self.src(k.ops[*op].args[0], *b, *i))).collect();
            self.m.add(Item::Assign(format!("{pre}_req_addr"), one_hot_mux(addr, lit(32, 0))));
            if !read_only {
                let stores: Vec<&((Block, u32), Op)> =
                    reqs.iter().filter(|(_, op)| matches!(k.ops[*op].kind, OpKind::Store(_))).collect();
                let we: Vec<Expr> = stores.iter().map(|((b, i), _)| self.in_state(*b, *i)).collect();
                // (`req_we` only matters while `req_valid`, which carries the predicate.)
                self.m.add(Item::Assign(format!("{pre}_req_we"), any(we)));
                let data: Vec<(Expr, Expr)> = stores
                    .iter()
                    .map(|((b, i), op)| (self.in_state(*b, *i), self.src(k.ops[*op].args[1], *b, *i)))
                    .collect();
                self.m.add(Item::Assign(format!("{pre}_req_wdata"), one_hot_mux(data, lit(w, 0))));
                let sw = (w / 8).max(1);
                let strb = if stores.is_empty() { lit(sw, 0) } else { lit(sw, u64::MAX) };
                self.m.add(Item::Assign(format!("{pre}_req_wstrb"), strb));
            }
            let has_loads = reqs.iter().any(|(_, op)| matches!(k.ops[*op].kind, OpKind::Load(_)));
            if has_loads {
                self.response_buffer(m, &pre, w);
            }
        }
    }

    /// The in-order response buffer of a port, with a bypass so that a response can be used in
    /// the cycle it arrives.
    fn response_buffer(&mut self, m: Mem, pre: &str, w: u32) {
        let depth = self.s.ports[m].resp_depth.max(1).next_power_of_two();
        let mut pops = Vec::new();
        for (b, i) in self.s.states() {
            for op in self.s.ops_at(b, i) {
                if self.s.time[op].end == i && matches!(self.s.class(op), OpClass::PortLoad(x) if x == m) {
                    pops.push(self.and_pred(self.fire(b, i), op, i));
                }
            }
        }
        let rv = id(format!("{pre}_resp_valid"));
        let rd = id(format!("{pre}_resp_rdata"));
        self.m.add(Item::Comment(format!(
            "Response buffer of `{pre}`: {depth} entr{}, bypassed when empty.",
            if depth == 1 { "y" } else { "ies" }
        )));
        self.m.add(Item::Wire { name: format!("{pre}_rb_pop"), width: 1, value: Some(any(pops)), comment: None });
        if depth == 1 {
            let full = format!("{pre}_rb_full");
            let q = format!("{pre}_rb_q");
            self.m.add(Item::Reg { name: full.clone(), width: 1 });
            self.m.add(Item::Reg { name: q.clone(), width: w });
            self.m.add(Item::Wire {
                name: format!("{pre}_rb_avail"),
                width: 1,
                value: Some(bin(BinOp::Or, id(&full), rv.clone())),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: format!("{pre}_rb_data"),
                width: w,
                value: Some(cond(id(&full), id(&q), rd.clone())),
                comment: None,
            });
            let push = bin(
                BinOp::And,
                rv.clone(),
                un(UnOp::Not, bin(BinOp::And, id(format!("{pre}_rb_pop")), un(UnOp::Not, id(&full)))),
            );
            self.m.add(Item::Wire { name: format!("{pre}_rb_push"), width: 1, value: Some(push), comment: None });
            let take = bin(BinOp::And, id(format!("{pre}_rb_pop")), id(&full));
            self.m.add(Item::Wire { name: format!("{pre}_rb_take"), width: 1, value: Some(take), comment: None });
            self.m.add(Item::Always(vec![
                Stmt::If(id(format!("{pre}_rb_push")), vec![set(&q, rd)], vec![]),
                Stmt::If(
                    id("rst"),
                    vec![set(&full, lit(1, 0))],
                    vec![set(
                        &full,
                        bin(
                            BinOp::Or,
                            id(format!("{pre}_rb_push")),
                            bin(BinOp::And, id(&full), un(UnOp::Not, id(format!("{pre}_rb_take")))),
                        ),
                    )],
                ),
            ]));
            return;
        }
        let aw = depth.trailing_zeros();
        let mem = format!("{pre}_rb_mem");
        let (rdp, wrp, cnt) = (format!("{pre}_rb_rd"), format!("{pre}_rb_wr"), format!("{pre}_rb_count"));
        self.m.add(Item::Memory { name: mem.clone(), width: w, depth });
        self.m.add(Item::Reg { name: rdp.clone(), width: aw });
        self.m.add(Item::Reg { name: wrp.clone(), width: aw });
        self.m.add(Item::Reg { name: cnt.clone(), width: aw + 1 });
        let empty = bin(BinOp::Eq, id(&cnt), lit(aw + 1, 0));
        self.m.add(Item::Wire { name: format!("{pre}_rb_empty"), width: 1, value: Some(empty), comment: None });
        let e = id(format!("{pre}_rb_empty"));
        self.m.add(Item::Wire {
            name: format!("{pre}_rb_avail"),
            width: 1,
            value: Some(bin(BinOp::Or, un(UnOp::Not, e.clone()), rv.clone())),
            comment: None,
        });
        self.m.add(Item::Wire {
            name: format!("{pre}_rb_data"),
            width: w,
            value: Some(cond(e.clone(), rd.clone(), Expr::Index(mem.clone(), Box::new(id(&rdp))))),
            comment: None,
        });
        let pop = id(format!("{pre}_rb_pop"));
        let push = bin(BinOp::And, rv, un(UnOp::Not, bin(BinOp::And, pop.clone(), e.clone())));
        self.m.add(Item::Wire { name: format!("{pre}_rb_push"), width: 1, value: Some(push), comment: None });
        let take = bin(BinOp::And, pop, un(UnOp::Not, e));
        self.m.add(Item::Wire { name: format!("{pre}_rb_take"), width: 1, value: Some(take), comment: None });
        let push = id(format!("{pre}_rb_push"));
        let take = id(format!("{pre}_rb_take"));
        let widen = |x: Expr| Expr::Concat(vec![lit(aw, 0), x]);
        self.m.add(Item::Always(vec![
            Stmt::If(push.clone(), vec![Stmt::Set(Expr::Index(mem, Box::new(id(&wrp))), rd)], vec![]),
            Stmt::If(
                id("rst"),
                vec![set(&rdp, lit(aw, 0)), set(&wrp, lit(aw, 0)), set(&cnt, lit(aw + 1, 0))],
                vec![
                    Stmt::If(push.clone(), vec![set(&wrp, bin(BinOp::Add, id(&wrp), lit(aw, 1)))], vec![]),
                    Stmt::If(take.clone(), vec![set(&rdp, bin(BinOp::Add, id(&rdp), lit(aw, 1)))], vec![]),
                    set(&cnt, bin(BinOp::Sub, bin(BinOp::Add, id(&cnt), widen(push)), widen(take))),
                ],
            ),
        ]));
    }

    fn on_chip_memories(&mut self) {
        let k = self.k;
        let mems: Vec<Mem> = k.mems.keys().filter(|m| k.mems[*m].is_on_chip()).collect();
        for m in mems {
            let d = &k.mems[m];
            let name = self.mem_name(m);
            let len = d.len.unwrap_or(1).max(1);
            let aw = clog2(len as u64);
            let w = d.elem_width;
            let mut reads: Vec<((Block, u32), Op)> = Vec::new();
            let mut writes: Vec<((Block, u32), Op)> = Vec::new();
            for (b, i) in self.s.states() {
                for op in self.s.ops_at(b, i) {
                    if self.s.time[op].start != i {
                        continue;
                    }
                    match self.s.class(op) {
                        OpClass::MemLoad(x) if x == m => reads.push(((b, i), op)),
                        OpClass::MemStore(x) if x == m => writes.push(((b, i), op)),
                        _ => {}
                    }
                }
            }
            self.m.add(Item::Blank);
            let what = if d.kind == MemKind::Rom { "ROM" } else { "private memory" };
            self.m.add(Item::Comment(format!("{what} `{}`: {len} x {w} bits, @[{}].", d.name, (self.locate)(d.span))));
            self.m.add(Item::Memory { name: name.clone(), width: w, depth: len });
            let addr_of = |g: &Self, (b, i): (Block, u32), op: Op| -> Expr {
                slice_w(&g.src(k.ops[op].args[0], b, i), 32, aw - 1, 0)
            };
            let mut body = Vec::new();
            if !writes.is_empty() {
                let we = any(writes.iter().map(|((b, i), op)| self.and_pred(self.fire(*b, *i), *op, *i)).collect());
                let wa = one_hot_mux(
                    writes.iter().map(|(st, op)| (self.in_state(st.0, st.1), addr_of(self, *st, *op))).collect(),
                    lit(aw, 0),
                );
                let wd = one_hot_mux(
                    writes
                        .iter()
                        .map(|((b, i), op)| (self.in_state(*b, *i), self.src(k.ops[*op].args[1], *b, *i)))
                        .collect(),
                    lit(w, 0),
                );
                self.m.add(Item::Wire { name: format!("{name}_we"), width: 1, value: Some(we), comment: None });
                self.m.add(Item::Wire { name: format!("{name}_wa"), width: aw, value: Some(wa), comment: None });
                self.m.add(Item::Wire { name: format!("{name}_wd"), width: w, value: Some(wd), comment: None });
                body.push(Stmt::If(
                    id(format!("{name}_we")),
                    vec![Stmt::Set(
                        Expr::Index(name.clone(), Box::new(id(format!("{name}_wa")))),
                        id(format!("{name}_wd")),
                    )],
                    vec![],
                ));
            }
            if !reads.is_empty() {
                let re = any(reads.iter().map(|((b, i), op)| self.and_pred(self.fire(*b, *i), *op, *i)).collect());
                let ra = one_hot_mux(
                    reads.iter().map(|(st, op)| (self.in_state(st.0, st.1), addr_of(self, *st, *op))).collect(),
                    lit(aw, 0),
                );
                self.m.add(Item::Wire { name: format!("{name}_re"), width: 1, value: Some(re), comment: None });
                self.m.add(Item::Wire { name: format!("{name}_ra"), width: aw, value: Some(ra), comment: None });
                self.m.add(Item::Reg { name: format!("{name}_rdata"), width: w });
                body.push(Stmt::If(
                    id(format!("{name}_re")),
                    vec![set(format!("{name}_rdata"), Expr::Index(name.clone(), Box::new(id(format!("{name}_ra")))))],
                    vec![],
                ));
            }
            if !body.is_empty() {
                self.m.add(Item::Always(body));
            }
            if let Some(init) = &d.init {
                let stmts = init
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Stmt::Set(Expr::Index(name.clone(), Box::new(lit(aw, i as u64))), lit(w, *v)))
                    .collect();
                self.m.add(Item::Initial(stmts));
            }
        }
    }

    fn dividers(&mut self) {
        let k = self.k;
        for (ui, unit) in self.s.units.iter().enumerate() {
            let u = UnitId(ui as u32);
            let UnitKind::Divider { signed } = unit.kind;
            let w = unit.width;
            let p = format!("div{ui}");
            let mut starts: Vec<((Block, u32), Op)> = Vec::new();
            for (b, i) in self.s.states() {
                for op in self.s.ops_at(b, i) {
                    if self.s.time[op].start == i && self.s.class(op) == OpClass::Unit(u) {
                        starts.push(((b, i), op));
                    }
                }
            }
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!(
                "Divider {ui}: {} {w}-bit, one quotient bit per cycle; x/0 = all ones, x%0 = x.",
                if signed { "signed" } else { "unsigned" }
            )));
            let operand = |g: &Self, n: usize| {
                one_hot_mux(
                    starts.iter().map(|((b, i), op)| (g.in_state(*b, *i), g.src(k.ops[*op].args[n], *b, *i))).collect(),
                    lit(w, 0),
                )
            };
            let a = operand(self, 0);
            let bb = operand(self, 1);
            let start = any(starts.iter().map(|((b, i), _)| self.fire(*b, *i)).collect());
            let n = |s: &str| format!("{p}_{s}");
            self.m.add(Item::Wire { name: n("start"), width: 1, value: Some(start), comment: None });
            self.m.add(Item::Wire { name: n("a"), width: w, value: Some(a), comment: None });
            self.m.add(Item::Wire { name: n("b"), width: w, value: Some(bb), comment: None });
            let abs = |g: &mut Self, x: &str| -> Expr {
                if signed {
                    let neg = bit_of(&n(x), w, w - 1);
                    let _ = g;
                    cond(neg, un(UnOp::Neg, id(n(x))), id(n(x)))
                } else {
                    id(n(x))
                }
            };
            let abs_a = abs(self, "a");
            let abs_b = abs(self, "b");
            let cw = clog2(w as u64 + 1);
            for (r, width) in [("q", w), ("r", w), ("d", w), ("a0", w)] {
                self.m.add(Item::Reg { name: n(r), width });
            }
            self.m.add(Item::Reg { name: n("count"), width: cw });
            self.m.add(Item::Reg { name: n("neg_q"), width: 1 });
            self.m.add(Item::Reg { name: n("neg_r"), width: 1 });
            self.m.add(Item::Reg { name: n("zero"), width: 1 });
            // One restoring-division step: shift in the next dividend bit, subtract if possible.
            self.m.add(Item::Wire {
                name: n("rs"),
                width: w + 1,
                value: Some(Expr::Concat(vec![id(n("r")), Expr::Bit(n("q"), w - 1)])),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: n("diff"),
                width: w + 1,
                value: Some(bin(BinOp::Sub, id(n("rs")), Expr::Concat(vec![lit(1, 0), id(n("d"))]))),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: n("ge"),
                width: 1,
                value: Some(un(UnOp::LogNot, Expr::Bit(n("diff"), w))),
                comment: None,
            });
            let quot =
                cond(id(n("zero")), lit(w, u64::MAX), cond(id(n("neg_q")), un(UnOp::Neg, id(n("q"))), id(n("q"))));
            let rem = cond(id(n("zero")), id(n("a0")), cond(id(n("neg_r")), un(UnOp::Neg, id(n("r"))), id(n("r"))));
            self.m.add(Item::Wire { name: n("quot"), width: w, value: Some(quot), comment: None });
            self.m.add(Item::Wire { name: n("rem"), width: w, value: Some(rem), comment: None });
            let (sa, sb) =
                if signed { (bit_of(&n("a"), w, w - 1), bit_of(&n("b"), w, w - 1)) } else { (lit(1, 0), lit(1, 0)) };
            let next_q = Expr::Concat(vec![Expr::Slice(n("q"), w - 2, 0), id(n("ge"))]);
            self.m.add(Item::Always(vec![Stmt::If(
                id("rst"),
                vec![set(n("count"), lit(cw, 0))],
                vec![Stmt::If(
                    id(n("start")),
                    vec![
                        set(n("q"), abs_a),
                        set(n("r"), lit(w, 0)),
                        set(n("d"), abs_b),
                        set(n("a0"), id(n("a"))),
                        set(n("count"), lit(cw, w as u64)),
                        set(n("neg_q"), bin(BinOp::Xor, sa.clone(), sb)),
                        set(n("neg_r"), sa),
                        set(n("zero"), bin(BinOp::Eq, id(n("b")), lit(w, 0))),
                    ],
                    vec![Stmt::If(
                        bin(BinOp::Ne, id(n("count")), lit(cw, 0)),
                        vec![
                            set(
                                n("r"),
                                cond(id(n("ge")), Expr::Slice(n("diff"), w - 1, 0), Expr::Slice(n("rs"), w - 1, 0)),
                            ),
                            set(n("q"), next_q),
                            set(n("count"), bin(BinOp::Sub, id(n("count")), lit(cw, 1))),
                        ],
                        vec![],
                    )],
                )],
            )]));
        }
    }

    /// Statements that take the edge out of block `b` (in its last step).
    fn transition(&self, b: Block) -> Vec<Stmt> {
        let k = self.k;
        let last = self.s.steps[b].saturating_sub(1);
        let goto = |t: &Target| -> Vec<Stmt> {
            let mut v: Vec<Stmt> = k.blocks[t.block]
                .params
                .iter()
                .zip(&t.args)
                .map(|(p, a)| set(self.reg_name(*p), self.src(*a, b, last)))
                .collect();
            let next = if self.s.steps[t.block] == 0 { "S_DONE".to_string() } else { self.state_name(t.block, 0) };
            v.push(set("state", id(next)));
            v
        };
        match &k.blocks[b].term {
            Terminator::Return | Terminator::Unterminated => vec![set("state", id("S_DONE"))],
            Terminator::Jump(t) => goto(t),
            Terminator::Branch { cond, then_to, else_to } => {
                vec![Stmt::If(self.src(*cond, b, last), goto(then_to), goto(else_to))]
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
                vec![Stmt::Case(self.src(*value, b, last), arms, goto(default))]
            }
        }
    }

    fn control(&mut self, states: &[(Block, u32)]) {
        let k = self.k;
        let mut arms: Vec<(Vec<Expr>, Vec<Stmt>)> = Vec::new();
        // Idle: latch the scalar arguments into the entry block's parameter registers.
        let mut idle = Vec::new();
        for (_, p, v) in k.scalar_params() {
            idle.push(set(self.reg_name(v), id(format!("arg_{}", sanitize(&p.name)))));
        }
        idle.push(set("state", id(self.state_name(k.entry, 0))));
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
        arms.push((vec![id("S_DONE")], vec![set("state", id("S_IDLE"))]));
        let fsm = Stmt::Case(id("state"), arms, vec![set("state", id("S_IDLE"))]);
        // Request acceptance flags.
        let mut acc_reset = Vec::new();
        let mut acc_update = Vec::new();
        for &(b, i) in states {
            for op in self.s.ops_at(b, i) {
                if self.s.time[op].start != i {
                    continue;
                }
                if let OpClass::PortLoad(m) | OpClass::PortStore(m) = self.s.class(op) {
                    let acc = format!("acc_{op}");
                    acc_reset.push(set(&acc, lit(1, 0)));
                    acc_update.push(Stmt::If(
                        self.fire(b, i),
                        vec![set(&acc, lit(1, 0))],
                        vec![Stmt::If(
                            self.and_pred(bin(BinOp::And, self.in_state(b, i), id(format!("{}_req_ready", self.port_prefix(m)))), op, i),
                            vec![set(&acc, lit(1, 1))],
                            vec![],
                        )],
                    ));
                }
            }
        }
        let mut reset = vec![set("state", id("S_IDLE"))];
        reset.extend(acc_reset);
        let mut run = vec![fsm];
        run.extend(acc_update);
        self.m.add(Item::Blank);
        self.m.add(Item::Comment("Control: state transitions, result registers, block parameters.".into()));
        self.m.add(Item::Always(vec![Stmt::If(id("rst"), reset, run)]));
    }
}
