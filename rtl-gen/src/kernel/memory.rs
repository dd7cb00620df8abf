//! Memory ports (requests, acceptance flags, response buffers) and on-chip memories, built from
//! the access sites of their operations.

use super::*;

/// One arm of a site multiplexer: (site, value).
type Case<'a> = (&'a Site, Expr);
impl Gen<'_> {
    fn port_ops(&self, m: Mem) -> Vec<Site> {
        self.start_sites(&|c| matches!(c, OpClass::PortLoad(x) | OpClass::PortStore(x) if x == m))
    }

    /// Sites where responses of port `m` are consumed.
    pub(super) fn consume_sites(&self, m: Mem) -> Vec<Site> {
        self.s
            .scheduled_ops()
            .into_iter()
            .filter(|op| matches!(self.s.class(*op), OpClass::PortLoad(x) if x == m))
            .map(|op| self.site(op, self.s.time[op].end))
            .collect()
    }

    /// All request sites of all ports.
    pub(super) fn request_sites(&self) -> Vec<Site> {
        self.start_sites(&|c| matches!(c, OpClass::PortLoad(_) | OpClass::PortStore(_)))
    }

    pub(super) fn acc_name(&self, op: Op) -> String {
        format!("acc_{op}")
    }

    pub(super) fn ready_of(&self, op: Op) -> Expr {
        match self.s.class(op) {
            OpClass::PortLoad(m) | OpClass::PortStore(m) => {
                cond(id(PORTS_ANSWER_NEXT_CYCLE), lit(1, 1), id(format!("{}_req_ready", self.port_prefix(m))))
            }
            _ => lit(1, 1),
        }
    }

    pub(super) fn avail_of(&self, op: Op) -> Expr {
        match self.s.class(op) {
            OpClass::PortLoad(m) => id(format!("{}_rb_avail", self.port_prefix(m))),
            _ => lit(1, 1),
        }
    }

    /// A lane of the response word of a `WordLoad` (`args`: the load's token, and for
    /// `WordLaneAt` the element index whose low bits choose the lane); 0 when the load was
    /// predicated off, as in the emulator.
    pub(super) fn word_lane(&self, op: Op, args: &[Expr]) -> Expr {
        let o = &self.k.ops[op];
        let Some(m) = o.kind.mem() else { return lit(1, 0) };
        let d = &self.k.mems[m];
        let (w, n) = (d.elem_width, d.lanes.max(1));
        let data = format!("{}_rb_data", self.port_prefix(m));
        let lane = |j: u32| Expr::Slice(data.clone(), (j + 1) * w - 1, j * w);
        let value = match o.kind {
            OpKind::WordLane { lane: j, .. } => lane(j),
            _ => {
                let bits = n.trailing_zeros().max(1);
                let sel = slice_w(&args[1], 32, bits - 1, 0);
                let cases = (0..n).map(|j| (bin(BinOp::Eq, sel.clone(), lit(bits, u64::from(j))), lane(j))).collect();
                one_hot_mux(cases, lit(w, 0))
            }
        };
        cond(args[0].clone(), value, lit(w, 0))
    }

    /// The request address of a port access: the element index, or for a port of words the
    /// index of the word holding it.
    fn request_addr(&self, m: Mem, index: Expr) -> Expr {
        let shift = self.k.mems[m].lanes.max(1).trailing_zeros();
        if shift == 0 { index } else { Expr::Concat(vec![lit(shift, 0), slice_w(&index, 32, 31, shift)]) }
    }

    /// The data and byte strobes of a store request of port `m` (`lanes` elements of `w` bits).
    fn store_data(&self, s: &Site, lanes: u32, w: u32) -> (Expr, Expr) {
        let o = &self.k.ops[s.op];
        let bytes = (w / 8).max(1);
        let arg = |i: usize| self.src(o.args[i], s.at);
        let lane_strobes = |mask: u32| -> u64 {
            (0..lanes).filter(|j| mask >> j & 1 == 1).fold(0u64, |acc, j| acc | (((1u64 << bytes) - 1) << (j * bytes)))
        };
        let strobe_width = (lanes * bytes).min(64);
        match o.kind {
            OpKind::WordStore { mask, .. } => {
                let mut values = o.args[1..=mask.count_ones() as usize].iter();
                let mut parts: Vec<Expr> = (0..lanes)
                    .map(|j| match mask >> j & 1 {
                        1 => values.next().map(|v| self.src(*v, s.at)).unwrap_or(lit(w, 0)),
                        _ => lit(w, 0),
                    })
                    .collect();
                parts.reverse();
                (Expr::Concat(parts), lit(strobe_width, lane_strobes(mask)))
            }
            OpKind::WordStoreAt(_) => {
                let bits = lanes.trailing_zeros().max(1);
                let sel = slice_w(&arg(0), 32, bits - 1, 0);
                let cases = (0..lanes)
                    .map(|j| {
                        (bin(BinOp::Eq, sel.clone(), lit(bits, u64::from(j))), lit(strobe_width, lane_strobes(1 << j)))
                    })
                    .collect();
                (Expr::Repeat(lanes, Box::new(arg(1))), one_hot_mux(cases, lit(strobe_width, 0)))
            }
            _ => (arg(1), lit(strobe_width, u64::MAX)),
        }
    }

    /// Whether port access `s` presents its request: its state or pipeline slot, not yet
    /// accepted, and its enable.
    fn port_request(&self, s: &Site) -> Expr {
        and(bin(BinOp::And, s.sel.clone(), un(UnOp::Not, id(self.acc_name(s.op)))), s.en.clone())
    }

    pub(super) fn ports_logic(&mut self) {
        let k = self.k;
        let ports: Vec<(Mem, bool)> =
            k.ports().map(|(_, _, m)| (m, matches!(k.mems[m].kind, MemKind::ConstantArg { .. }))).collect();
        for (m, read_only) in ports {
            let pre = self.port_prefix(m);
            let lanes = k.mems[m].lanes.max(1);
            let w = k.mems[m].elem_width * lanes;
            let reqs = self.port_ops(m);
            self.m.add(Item::Blank);
            self.m.add(Item::Comment(format!("Memory port `{}` (port {}).", k.mems[m].name, self.port_index[&m])));
            // Acceptance flags: a request accepted while its state or pipeline stalls is not
            // presented again.
            for s in &reqs {
                self.m.add(Item::Reg { name: self.acc_name(s.op), width: 1 });
            }
            let valid: Vec<Expr> = reqs.iter().map(|s| self.port_request(s)).collect();
            self.m.add(Item::Assign(format!("{pre}_req_valid"), any(valid)));
            let addr = reqs.iter().map(|s| (s, self.request_addr(m, self.src(k.ops[s.op].args[0], s.at)))).collect();
            self.m.add(Item::Assign(format!("{pre}_req_addr"), self.site_mux(addr, 32)));
            if !read_only {
                let stores: Vec<&Site> = reqs.iter().filter(|s| k.ops[s.op].kind.has_side_effect()).collect();
                // The stores' own request terms: `req_we` implies `req_valid`, and a memory may
                // enable its writes from `req_we` alone (the board's memories do: the loads'
                // terms of `req_valid` in front of the block RAMs' write enables were the
                // longest path of iCE40 designs, matmul and prefix_sum).
                let we: Vec<Expr> = stores.iter().map(|s| self.port_request(s)).collect();
                self.m.add(Item::Assign(format!("{pre}_req_we"), any(we)));
                let elem = k.mems[m].elem_width;
                let (data, strobes): (Vec<Case>, Vec<Case>) = stores
                    .iter()
                    .map(|s| {
                        let (d, st) = self.store_data(s, lanes, elem);
                        ((*s, d), (*s, st))
                    })
                    .unzip();
                self.m.add(Item::Assign(format!("{pre}_req_wdata"), self.site_mux(data, w)));
                let sw = (w / 8).max(1);
                self.m.add(Item::Assign(format!("{pre}_req_wstrb"), self.site_mux(strobes, sw)));
            }
            if reqs.iter().any(|s| k.ops[s.op].kind.is_read()) {
                self.response_buffer(m, &pre, w);
            }
        }
    }

    /// Whether every response of port `m` is consumed in the cycle it arrives when the ports
    /// answer the next cycle (`PORTS_ANSWER_NEXT_CYCLE`): each load consumes its response one
    /// cycle after its request, and nothing but port handshakes, which that parameter removes,
    /// can hold the FSM or a pipeline between the two (pipe and channel transfers can).
    fn responses_consumed_on_arrival(&self, m: Mem) -> bool {
        let loads_next_cycle = self.s.scheduled_ops().into_iter().all(|op| {
            !matches!(self.s.class(op), OpClass::PortLoad(x) if x == m)
                || self.s.time[op].end == self.s.time[op].start + 1
        });
        loads_next_cycle && self.transfer_sites().is_empty()
    }

    /// The in-order response buffer of a port, with a bypass so that a response can be used in
    /// the cycle it arrives.
    fn response_buffer(&mut self, m: Mem, pre: &str, w: u32) {
        let depth = self.s.ports[m].resp_depth.max(1).next_power_of_two();
        let pops: Vec<Expr> = self.consume_sites(m).into_iter().map(|s| and(s.commit, s.en)).collect();
        let rv = id(format!("{pre}_resp_valid"));
        let rd = id(format!("{pre}_resp_rdata"));
        // Behind memories that answer the next cycle, a port whose responses are consumed on
        // arrival never holds one: its data is the response itself, and synthesis removes the
        // buffer (its registers and multiplexer were in front of the loads' consumers and its
        // read pointer's enable was the iCE40's critical path of prefix_sum).
        let on_arrival = self.responses_consumed_on_arrival(m);
        let data_of = |buffered: Expr| {
            if on_arrival { cond(id(PORTS_ANSWER_NEXT_CYCLE), rd.clone(), buffered) } else { buffered }
        };
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
                value: Some(fixed_or(bin(BinOp::Or, id(&full), rv.clone()))),
                comment: None,
            });
            self.m.add(Item::Wire {
                name: format!("{pre}_rb_data"),
                width: w,
                value: Some(data_of(cond(id(&full), id(&q), rd.clone()))),
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
            // Every response is written (see below); `full` says whether it is held.
            self.m.add(Item::Always(vec![
                Stmt::If(rv.clone(), vec![set(&q, rd)], vec![]),
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
        self.m.add(Item::Memory { name: mem.clone(), width: w, depth, style: None, no_rw_check: false });
        self.m.add(Item::Reg { name: rdp.clone(), width: aw });
        self.m.add(Item::Reg { name: wrp.clone(), width: aw });
        self.m.add(Item::Reg { name: cnt.clone(), width: aw + 1 });
        let empty = bin(BinOp::Eq, id(&cnt), lit(aw + 1, 0));
        self.m.add(Item::Wire { name: format!("{pre}_rb_empty"), width: 1, value: Some(empty), comment: None });
        let e = id(format!("{pre}_rb_empty"));
        self.m.add(Item::Wire {
            name: format!("{pre}_rb_avail"),
            width: 1,
            value: Some(fixed_or(bin(BinOp::Or, un(UnOp::Not, e.clone()), rv.clone()))),
            comment: None,
        });
        self.m.add(Item::Wire {
            name: format!("{pre}_rb_data"),
            width: w,
            value: Some(data_of(cond(e.clone(), rd.clone(), Expr::Index(mem.clone(), Box::new(id(&rdp)))))),
            comment: None,
        });
        // Every response is written at the write pointer, which then advances; a pop advances
        // the read pointer, also the pop of a response taken in the cycle it arrives (the
        // buffer is empty then, both pointers move and it stays empty). So the enables of the
        // buffer's registers and of its write pointer are the response's valid (and the
        // pointer's decode), without the consuming slot's logic in front of them (prefix_sum's
        // critical path on the iCE40).
        self.m.add(Item::Wire { name: format!("{pre}_rb_push"), width: 1, value: Some(rv), comment: None });
        self.m.add(Item::Wire {
            name: format!("{pre}_rb_take"),
            width: 1,
            value: Some(id(format!("{pre}_rb_pop"))),
            comment: None,
        });
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

    pub(super) fn on_chip_memories(&mut self) {
        let k = self.k;
        let mems: Vec<Mem> = k.mems.keys().filter(|m| k.mems[*m].is_on_chip()).collect();
        for m in mems {
            let d = &k.mems[m];
            let name = self.mem_name(m);
            let len = d.len.unwrap_or(1).max(1);
            let aw = clog2(len as u64);
            let w = d.elem_width;
            let reads = self.start_sites(&|c| c == OpClass::MemLoad(m));
            let writes = self.start_sites(&|c| c == OpClass::MemStore(m));
            self.m.add(Item::Blank);
            let what = if d.kind == MemKind::Rom { "ROM" } else { "private memory" };
            // The report's choice (`MemData::in_block_ram`), made binding for synthesis.
            let in_block_ram = d.in_block_ram(self.s.timing.memory.block_ram_min_bits);
            let style = Some(if in_block_ram { "block" } else { "logic" });
            // A block RAM memory deeper than a row of word-wide blocks is built as slices of
            // its word in deep configurations (`Timing::block_ram_slice_width`): one Verilog
            // memory per slice, so that synthesis cannot stack blocks into rows.
            let slice_width = if in_block_ram { self.s.timing.block_ram_slice_width(w, len) } else { None };
            let slices: Vec<(String, u32, u32)> = match slice_width {
                Some(c) => {
                    (0..w.div_ceil(c)).map(|i| (format!("{name}_s{i}"), ((i + 1) * c).min(w) - 1, i * c)).collect()
                }
                None => vec![(name.clone(), w - 1, 0)],
            };
            let layout = match slice_width {
                Some(c) => format!(", in {} slices of {c} bits", slices.len()),
                None => String::new(),
            };
            self.m.add(Item::Comment(format!(
                "{what} `{}`: {len} x {w} bits{layout}, @[{}].",
                d.name,
                (self.locate)(d.span)
            )));
            if let Some((config, blocks)) = self.s.output_register_blocks(m) {
                self.memory_with_output_register(m, &name, aw, (config, blocks), &reads, &writes);
                continue;
            }
            for (slice_name, hi, lo) in &slices {
                self.m.add(Item::Memory {
                    name: slice_name.clone(),
                    width: hi - lo + 1,
                    depth: len,
                    style,
                    no_rw_check: true,
                });
            }
            let addr_of = |g: &Self, s: &Site| -> Expr { slice_w(&g.src(k.ops[s.op].args[0], s.at), 32, aw - 1, 0) };
            let mut body = Vec::new();
            if !writes.is_empty() {
                let [we, wa, wd] = self.write_port(aw, w, &writes, &addr_of);
                if self.s.registers_writes(m) {
                    self.write_registers(&name, [(1, we), (aw, wa), (w, wd)]);
                } else {
                    for (suffix, width, value) in [("we", 1, we), ("wa", aw, wa), ("wd", w, wd)] {
                        self.m.add(Item::Wire {
                            name: format!("{name}_{suffix}"),
                            width,
                            value: Some(value),
                            comment: None,
                        });
                    }
                }
                let stores = slices
                    .iter()
                    .map(|(slice_name, hi, lo)| {
                        Stmt::Set(
                            Expr::Index(slice_name.clone(), Box::new(id(format!("{name}_wa")))),
                            slice_w(&id(format!("{name}_wd")), w, *hi, *lo),
                        )
                    })
                    .collect();
                body.push(Stmt::If(id(format!("{name}_we")), stores, vec![]));
            }
            if !reads.is_empty() {
                let re = self.read_enable(&reads);
                let ra = self.read_address(&name, aw, &reads, &addr_of);
                self.m.add(Item::Wire { name: format!("{name}_re"), width: 1, value: Some(re), comment: None });
                self.m.add(Item::Wire { name: format!("{name}_ra"), width: aw, value: Some(ra), comment: None });
                self.m.add(Item::Reg { name: format!("{name}_rdata"), width: w });
                let rdata = id(format!("{name}_rdata"));
                let loads = slices
                    .iter()
                    .map(|(slice_name, hi, lo)| {
                        Stmt::Set(
                            slice_w(&rdata, w, *hi, *lo),
                            Expr::Index(slice_name.clone(), Box::new(id(format!("{name}_ra")))),
                        )
                    })
                    .collect();
                let read = Stmt::If(id(format!("{name}_re")), loads, vec![]);
                // A predicated-off load's 0 as a synchronous reset of the read data, over the
                // read's enable (`Timing::clears_read_data`): the reading site commits and its
                // enable (the predicate, and a pipeline body's loop test) is off.
                let clears: Vec<Expr> = reads
                    .iter()
                    .filter(|s| self.s.timing.clears_read_data() && s.en != lit(1, 1))
                    .map(|s| and(s.commit.clone(), un(UnOp::Not, s.en.clone())))
                    .collect();
                if clears.is_empty() {
                    body.push(read);
                } else {
                    let clear = format!("{name}_clear");
                    self.m.add(Item::Wire { name: clear.clone(), width: 1, value: Some(any(clears)), comment: None });
                    body.push(Stmt::If(id(clear), vec![set(format!("{name}_rdata"), lit(w, 0))], vec![read]));
                }
            }
            if !body.is_empty() {
                self.m.add(Item::Always(body));
            }
            if let Some(init) = &d.init {
                let stmts = slices
                    .iter()
                    .flat_map(|(slice_name, hi, lo)| {
                        init.iter().enumerate().map(move |(i, v)| {
                            Stmt::Set(
                                Expr::Index(slice_name.clone(), Box::new(lit(aw, i as u64))),
                                lit(hi - lo + 1, v >> lo),
                            )
                        })
                    })
                    .collect();
                self.m.add(Item::Initial(stmts));
            }
        }
    }
}

impl Gen<'_> {
    /// On-chip memory `m` as DP16KDs read through their output registers (`bram`): a load's
    /// data are the output register's two cycles after its read. The read register is loaded
    /// as in [`Self::on_chip_memories`], and the output register when the reader moves on from
    /// the cycle after the read: its pipeline advances, or the FSM state after the reading one
    /// fires. A memory has one reader at a time (the FSM waits in a pipeline's state), so the
    /// output register holds a load's data while its consumer stalls. A predicated-off load's
    /// zero is made after the register (`Gen::clears_read_data`).
    fn memory_with_output_register(
        &mut self,
        m: Mem,
        name: &str,
        aw: u32,
        (config, blocks): (u32, u32),
        reads: &[Site],
        writes: &[Site],
    ) {
        let k = self.k;
        let d = &k.mems[m];
        let w = d.elem_width;
        let addr_of = |g: &Self, s: &Site| -> Expr { slice_w(&g.src(k.ops[s.op].args[0], s.at), 32, aw - 1, 0) };
        let [we, wa, wd] = if writes.is_empty() {
            [lit(1, 0), lit(aw, 0), lit(w, 0)]
        } else {
            self.write_port(aw, w, writes, &addr_of)
        };
        // The output register moves on as the reader leaves the cycle after the read.
        let mut moves_on: Vec<Expr> = Vec::new();
        for s in reads {
            let next = match s.at {
                At::Pipe(pi, _) => self.go(pi),
                At::Fsm(b, i) => self.fire(b, i + 1),
            };
            if !moves_on.contains(&next) {
                moves_on.push(next);
            }
        }
        let ra = if reads.is_empty() { lit(aw, 0) } else { self.read_address(name, aw, reads, &addr_of) };
        for (suffix, width, value) in [
            ("we", 1, we),
            ("wa", aw, wa),
            ("wd", w, wd),
            ("re", 1, self.read_enable(reads)),
            ("ra", aw, ra),
            ("oce", 1, any(moves_on)),
        ] {
            self.m.add(Item::Wire { name: format!("{name}_{suffix}"), width, value: Some(value), comment: None });
        }
        self.m.add(Item::Wire { name: format!("{name}_rdata"), width: w, value: None, comment: None });
        let ram = bram::RegisteredRam {
            name: format!("{}_{name}", self.m.name),
            width: w,
            depth: d.len.unwrap_or(1).max(1),
            address_bits: aw,
            config,
            blocks,
        };
        let module = ram.name.clone();
        self.m.companions.push(ram.module());
        let mut conns = vec![("clk".to_string(), Dir::Input, id("clk"))];
        for port in ["we", "wa", "wd", "re", "ra", "oce"] {
            conns.push((port.to_string(), Dir::Input, id(format!("{name}_{port}"))));
        }
        conns.push(("rdata".to_string(), Dir::Output, id(format!("{name}_rdata"))));
        self.m.add(Item::Instance(Instance { module, name: format!("{name}_blocks"), params: vec![], conns }));
    }

    /// The write port of memory `name` from registers (`Schedule::registers_writes`): the
    /// sites' enable, address and data (`[(width, value); 3]`) are taken as the stores fire
    /// and written at the next edge, so the block RAMs' write enable is a register's output
    /// instead of the sites' logic. The enable starts at 0 (no write before the first store).
    fn write_registers(&mut self, name: &str, port: [(u32, Expr); 3]) {
        let mut loads = Vec::new();
        for (suffix, (width, value)) in ["we", "wa", "wd"].into_iter().zip(port) {
            let next = format!("{name}_next_{suffix}");
            self.m.add(Item::Wire { name: next.clone(), width, value: Some(value), comment: None });
            self.m.add(Item::Reg { name: format!("{name}_{suffix}"), width });
            loads.push(set(format!("{name}_{suffix}"), id(next)));
        }
        self.m.add(Item::Always(loads));
        self.m.add(Item::Initial(vec![set(format!("{name}_we"), lit(1, 0))]));
    }

    /// An on-chip memory's write enable, address and data over its write `sites`.
    fn write_port(&self, aw: u32, w: u32, sites: &[Site], addr_of: &dyn Fn(&Self, &Site) -> Expr) -> [Expr; 3] {
        let k = self.k;
        let we = self.commits_any(sites);
        let wa = self.site_mux(sites.iter().map(|s| (s, addr_of(self, s))).collect(), aw);
        let wd = self.site_mux(sites.iter().map(|s| (s, self.src(k.ops[s.op].args[1], s.at))).collect(), w);
        [we, wa, wd]
    }

    /// An on-chip memory's read enable over its read `sites`. A read nobody takes is harmless:
    /// a load's data are taken after its read, and a stalled design commits no read. So the
    /// read enable is the advance of each pipeline (or the firing of each state) that reads,
    /// without the slot decode and predicate that were in front of the RAMs' read enables.
    fn read_enable(&self, sites: &[Site]) -> Expr {
        let mut advances: Vec<Expr> = Vec::new();
        for s in sites {
            let advance = match s.at {
                At::Pipe(pi, _) => self.go(pi),
                At::Fsm(..) => s.commit.clone(),
            };
            if !advances.contains(&advance) {
                advances.push(advance);
            }
        }
        any(advances)
    }

    /// The read address of an on-chip memory over its read `sites`. A pipeline's reads through
    /// an address register (`Schedule::reads_address_early`) share one register per pipeline,
    /// `{name}_ra_p{pi}`, loaded as the pipeline advances with the address of the read in the
    /// next cycle: its site multiplexer by the phase before the read's, of the address as the
    /// read's iteration sees it a cycle early. The memory's address is then that register while
    /// the pipeline runs, the other sites' multiplexer otherwise.
    fn read_address(&mut self, name: &str, aw: u32, sites: &[Site], addr_of: &dyn Fn(&Self, &Site) -> Expr) -> Expr {
        let mut registered: BTreeMap<u32, Vec<(u32, &Site)>> = BTreeMap::new();
        let mut direct = Vec::new();
        for s in sites {
            match s.at {
                At::Pipe(pi, r) if r > 0 && self.s.reads_address_early(s.op) => {
                    registered.entry(pi).or_default().push((r, s))
                }
                _ => direct.push((s, addr_of(self, s))),
            }
        }
        // The pipelines' address registers first, then the other sites' owners, as one list
        // of choices in the order of the chain they were (`paired_mux`); the other sites as
        // one choice where they are an AND-OR of four owners or more.
        let mut choices = Vec::new();
        for (pi, group) in registered.into_iter().rev() {
            let reg = format!("{name}_ra_p{pi}");
            let ii = self.pp(pi).ii;
            let next = group
                .iter()
                .map(|&(r, s)| {
                    let early = Site { at: At::Pipe(pi, r - 1), ..s.clone() };
                    let address = addr_of(self, &early);
                    if group.len() == 1 {
                        address
                    } else {
                        let phase = self.phase_is(pi, (r - 1) % ii);
                        let mask = if aw == 1 { phase } else { Expr::Repeat(aw, Box::new(phase)) };
                        bin(BinOp::And, mask, address)
                    }
                })
                .reduce(|a, b| bin(BinOp::Or, a, b))
                .unwrap_or(lit(aw, 0));
            self.m.add(Item::Reg { name: reg.clone(), width: aw });
            self.m.add(Item::Always(vec![Stmt::If(self.go(pi), vec![set(reg.clone(), next)], vec![])]));
            choices.push((self.active(pi), id(&reg)));
        }
        choices.reverse();
        if !direct.is_empty() {
            match self.site_choices(direct.clone(), aw) {
                Some(owners) => choices.extend(owners),
                None => choices.push((lit(1, 1), self.site_mux(direct, aw))),
            }
        }
        paired_mux(choices, aw)
    }
}

/// Whether a response is available: always, when the module's `PORTS_ANSWER_NEXT_CYCLE`
/// parameter promises that every port is always ready and answers a read exactly one cycle after
/// taking it (the board memories do), since no consumer is scheduled earlier than that; then
/// synthesis removes the waits for requests and responses from the stall logic, which otherwise
/// sits in front of the enable of every pipeline register.
fn fixed_or(avail: Expr) -> Expr {
    cond(id(PORTS_ANSWER_NEXT_CYCLE), lit(1, 1), avail)
}

/// The kernel module's parameter that `fixed_or` and `ready_of` read. Declared (default 0, the
/// handshakes of docs/timing.md §3) by every kernel module that makes port requests.
pub const PORTS_ANSWER_NEXT_CYCLE: &str = "PORTS_ANSWER_NEXT_CYCLE";
