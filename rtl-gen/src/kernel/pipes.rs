//! Pipe ends: each pipe of the kernel is a valid/ready stream port (`pipe_<name>_valid`,
//! `_ready`, `_data`; packet lanes concatenated, lane 0 in the low bits). A read end takes the
//! FIFO's head when `ready` and `valid` are both high; a write end offers a packet with `valid`
//! and it is taken when the FIFO's `ready` (not full) is high (docs/timing.md §9). The kernel's
//! `valid`/`ready` outputs may depend on the FIFO's outputs, which never depend on them.
//!
//! In FSM code a transfer happens when its state fires, and a blocking transfer is part of that
//! condition. In a pipelined loop, the transfers of a cycle happen one after the other, oldest
//! iteration first, as soon as the memory side of the cycle is satisfied, even if a later one
//! then holds the pipeline: each has a `done` flag and, for reads, holds the packet it took until
//! the pipeline advances.
//!
//! A query of a pipe (`get_pipe_num_packets`, `get_pipe_max_packets`) reads the 32-bit inputs
//! `pipe_<name>_count` and `_capacity`, present only when the kernel asks. It is placed like a
//! transfer that always happens, so in a stalled pipeline it keeps the answer of the cycle it
//! was asked in, as the simulator does.

use super::*;
use kiln_dataflow::ir::{Kernel, Pipe, PipeEnd, PipeQuery};

/// Whether kernel `k` asks pipe `p` for `what`.
pub(crate) fn queries(k: &Kernel, p: Pipe, what: PipeQuery) -> bool {
    k.ops.values().any(|o| matches!(o.kind, OpKind::PipeQuery { pipe, what: w } if pipe == p && w == what))
}

/// The input a query reads.
fn query_input(prefix: &str, what: PipeQuery) -> String {
    match what {
        PipeQuery::Packets => format!("{prefix}_count"),
        PipeQuery::MaxPackets => format!("{prefix}_capacity"),
    }
}

impl Gen<'_> {
    pub(super) fn pipe_prefix(&self, p: Pipe) -> String {
        format!("pipe_{}", self.k.pipes[p].ident())
    }

    /// Sites of the pipe transfers of the kernel.
    pub(super) fn transfer_sites(&self) -> Vec<Site> {
        self.start_sites(&|c| matches!(c, OpClass::PipeTransfer(_)))
    }

    fn transfer_of(&self, op: Op) -> Option<(Pipe, bool)> {
        match self.k.ops[op].kind {
            OpKind::PipeRead { pipe, blocking } | OpKind::PipeWrite { pipe, blocking } => Some((pipe, blocking)),
            _ => None,
        }
    }

    fn query_of(&self, op: Op) -> Option<(Pipe, PipeQuery)> {
        match self.k.ops[op].kind {
            OpKind::PipeQuery { pipe, what } => Some((pipe, what)),
            _ => None,
        }
    }

    /// Whether the FIFO can take part in the transfer `op` now (`valid` for a read, `ready` for
    /// a write).
    pub(super) fn pipe_can(&self, op: Op) -> Expr {
        let Some((p, _)) = self.transfer_of(op) else { return lit(1, 1) };
        let pre = self.pipe_prefix(p);
        match self.k.pipes[p].end {
            PipeEnd::Read => id(format!("{pre}_valid")),
            PipeEnd::Write => id(format!("{pre}_ready")),
        }
    }

    /// The conditions that hold back a state: an enabled blocking transfer whose FIFO cannot
    /// take part. `(site, waits)` pairs of FSM sites.
    pub(super) fn transfer_waits(&self) -> Vec<(Site, Expr)> {
        self.transfer_sites()
            .into_iter()
            .filter(|s| matches!(s.at, At::Fsm(..)))
            .filter(|s| self.transfer_of(s.op).is_some_and(|(_, blocking)| blocking))
            .map(|s| {
                let waits = un(UnOp::Not, self.pipe_can(s.op));
                (s, waits)
            })
            .collect()
    }

    /// The value of a transfer op: 1 for a blocking one (it completes when it happens), the
    /// FIFO's readiness for a non-blocking one.
    pub(super) fn transfer_value(&self, op: Op) -> Expr {
        if let Some((p, what)) = self.query_of(op) {
            return id(query_input(&self.pipe_prefix(p), what));
        }
        match self.transfer_of(op) {
            Some((_, true)) => lit(1, 1),
            Some((_, false)) => self.pipe_can(op),
            None => lit(1, 0),
        }
    }

    /// Signal names of the transfer in relative cycle `r` of pipeline `pi` (one per cycle).
    fn xfer(&self, pi: u32, r: u32) -> String {
        format!("p{pi}_x{r}")
    }

    /// The value of a transfer op in a pipeline: as [`Self::transfer_value`], or the held
    /// result once it has happened in an earlier, stalled cycle.
    pub(super) fn transfer_value_in_pipeline(&self, op: Op, pi: u32, r: u32) -> Expr {
        let asks = self.query_of(op).is_some();
        match self.transfer_of(op) {
            Some((_, false)) => {
                let x = self.xfer(pi, r);
                cond(id(format!("{x}_done")), id(format!("{x}_held_ok")), self.pipe_can(op))
            }
            _ if asks => {
                let x = self.xfer(pi, r);
                cond(id(format!("{x}_done")), id(format!("{x}_held_ok")), self.transfer_value(op))
            }
            _ => self.transfer_value(op),
        }
    }

    /// Lane `lane` of the packet taken by the read whose result the lane op `lane_op` uses, in
    /// relative cycle `r` of pipeline `pi`.
    pub(super) fn pipe_lane_in_pipeline(&self, lane_op: Op, lane: u32, pi: u32, r: u32) -> Expr {
        let Some(pipe) = self.k.ops[lane_op].kind.pipe() else { return lit(1, 0) };
        let d = &self.k.pipes[pipe];
        let lo: u32 = d.lanes[..lane as usize].iter().sum();
        let w = d.lanes[lane as usize];
        let x = self.xfer(pi, r);
        let held = slice_w(&id(format!("{x}_held_data")), d.packet_width(), lo + w - 1, lo);
        cond(id(format!("{x}_done")), held, self.pipe_lane(pipe, lane))
    }

    /// The transfers of pipeline `pi`: per relative cycle `r`, `x<r>_go` (it happens now),
    /// `x<r>_done` and the held packet and result. Returns the terms that hold the pipeline (a
    /// transfer of an active slot that has not happened and cannot happen now).
    pub(super) fn pipeline_transfers(&mut self, pi: u32) -> Vec<Expr> {
        let mut sites: Vec<Site> =
            self.transfer_sites().into_iter().filter(|s| matches!(s.at, At::Pipe(x, _) if x == pi)).collect();
        sites.sort_by_key(|s| match s.at {
            At::Pipe(_, r) => std::cmp::Reverse(r),
            At::Fsm(..) => std::cmp::Reverse(0),
        });
        let mut holds = Vec::new();
        let mut earlier_clear: Vec<Expr> = vec![un(UnOp::Not, id(format!("p{pi}_mem_stall")))];
        for s in sites {
            let At::Pipe(_, r) = s.at else { continue };
            // A query always happens: it is a non-blocking transfer whose answer is held.
            let Some((pipe, blocking)) =
                self.transfer_of(s.op).or_else(|| self.query_of(s.op).map(|(p, _)| (p, false)))
            else {
                continue;
            };
            let asks = self.query_of(s.op).is_some();
            let x = self.xfer(pi, r);
            let active = and(s.sel.clone(), s.en.clone());
            let mut go = vec![active.clone(), un(UnOp::Not, id(format!("{x}_done")))];
            go.extend(earlier_clear.iter().cloned());
            if blocking {
                go.push(self.pipe_can(s.op));
            }
            self.m.add(Item::Wire { name: format!("{x}_go"), width: 1, value: Some(all(go)), comment: None });
            let clear = any(vec![un(UnOp::Not, active), id(format!("{x}_done")), id(format!("{x}_go"))]);
            self.m.add(Item::Wire { name: format!("{x}_clear"), width: 1, value: Some(clear), comment: None });
            holds.push(un(UnOp::Not, id(format!("{x}_clear"))));
            earlier_clear = vec![un(UnOp::Not, id(format!("p{pi}_mem_stall"))), id(format!("{x}_clear"))];
            self.m.add(Item::Reg { name: format!("{x}_done"), width: 1 });
            let mut on_go = vec![set(format!("{x}_done"), lit(1, 1))];
            if self.k.pipes[pipe].end == PipeEnd::Read && !asks {
                let w = self.k.pipes[pipe].packet_width();
                self.m.add(Item::Reg { name: format!("{x}_held_data"), width: w });
                on_go.push(set(format!("{x}_held_data"), id(format!("{}_data", self.pipe_prefix(pipe)))));
            }
            if asks {
                self.m.add(Item::Reg { name: format!("{x}_held_ok"), width: 32 });
                on_go.push(set(format!("{x}_held_ok"), self.transfer_value(s.op)));
            } else if !blocking {
                self.m.add(Item::Reg { name: format!("{x}_held_ok"), width: 1 });
                on_go.push(set(format!("{x}_held_ok"), self.pipe_can(s.op)));
            }
            self.m.add(Item::Always(vec![Stmt::If(
                bin(BinOp::LogOr, id("rst"), self.go(pi)),
                vec![set(format!("{x}_done"), lit(1, 0))],
                vec![Stmt::If(id(format!("{x}_go")), on_go, vec![])],
            )]));
        }
        holds
    }

    /// The transfer of site `s` happens in this cycle.
    fn transfer_fires(&self, s: &Site) -> Expr {
        match s.at {
            At::Pipe(pi, r) => id(format!("{}_go", self.xfer(pi, r))),
            At::Fsm(..) => and(and(s.commit.clone(), s.sel.clone()), s.en.clone()),
        }
    }

    /// Lane `lane` of the head packet of a read end.
    pub(super) fn pipe_lane(&self, p: Pipe, lane: u32) -> Expr {
        let d = &self.k.pipes[p];
        let lo: u32 = d.lanes[..lane as usize].iter().sum();
        let w = d.lanes[lane as usize];
        slice_w(&id(format!("{}_data", self.pipe_prefix(p))), d.packet_width(), lo + w - 1, lo)
    }

    pub(super) fn pipe_ports(&self, ports: &mut Vec<Port>) {
        for (p, d) in self.k.pipes.iter() {
            let pre = self.pipe_prefix(p);
            let (to_fifo, from_fifo) = match d.end {
                PipeEnd::Read => (Dir::Input, Dir::Output),
                PipeEnd::Write => (Dir::Output, Dir::Input),
            };
            let what = format!(
                "{} end of pipe {} ({})",
                if d.end == PipeEnd::Read { "read" } else { "write" },
                d.name,
                d.c_type
            );
            ports.push(Port {
                dir: to_fifo,
                name: format!("{pre}_valid"),
                width: 1,
                is_reg: false,
                comment: Some(what),
            });
            ports.push(Port { dir: from_fifo, name: format!("{pre}_ready"), width: 1, is_reg: false, comment: None });
            ports.push(Port {
                dir: to_fifo,
                name: format!("{pre}_data"),
                width: d.packet_width(),
                is_reg: false,
                comment: None,
            });
            for what in [PipeQuery::Packets, PipeQuery::MaxPackets] {
                if queries(self.k, p, what) {
                    let name = query_input(&pre, what);
                    ports.push(Port { dir: Dir::Input, name, width: 32, is_reg: false, comment: None });
                }
            }
        }
    }

    /// The kernel's `ready` of each read end and `valid`/`data` of each write end.
    pub(super) fn pipes_logic(&mut self) {
        let sites = self.transfer_sites();
        let pipes: Vec<Pipe> = self.k.pipes.keys().collect();
        if pipes.is_empty() {
            return;
        }
        self.m.add(Item::Blank);
        self.m.add(Item::Comment("Pipe ends: a transfer happens when its state fires or its slot advances.".into()));
        for p in pipes {
            let pre = self.pipe_prefix(p);
            let mine: Vec<&Site> =
                sites.iter().filter(|s| self.transfer_of(s.op).is_some_and(|(x, _)| x == p)).collect();
            let go = any(mine.iter().map(|s| self.transfer_fires(s)).collect());
            match self.k.pipes[p].end {
                PipeEnd::Read => self.m.add(Item::Assign(format!("{pre}_ready"), go)),
                PipeEnd::Write => {
                    self.m.add(Item::Assign(format!("{pre}_valid"), go));
                    let w = self.k.pipes[p].packet_width();
                    let cases = mine
                        .iter()
                        .map(|s| {
                            let mut lanes: Vec<Expr> =
                                self.k.ops[s.op].args.iter().map(|a| self.src(*a, s.at)).collect();
                            lanes.reverse();
                            let packet = if lanes.len() == 1 { lanes.remove(0) } else { Expr::Concat(lanes) };
                            (self.transfer_fires(s), packet)
                        })
                        .collect();
                    self.m.add(Item::Assign(format!("{pre}_data"), enabled_mux(cases, w)));
                }
            }
        }
    }
}
