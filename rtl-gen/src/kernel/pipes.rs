//! Pipe ends: each pipe of the kernel is a valid/ready stream port (`pipe_<name>_valid`,
//! `_ready`, `_data`; packet lanes concatenated, lane 0 in the low bits). A read end takes the
//! FIFO's head when `ready` and `valid` are both high; a write end offers a packet with `valid`
//! and it is taken when the FIFO's `ready` (not full) is high. A transfer happens exactly when its
//! state fires or its pipeline slot advances, and a blocking transfer is part of that condition
//! (docs/timing.md §9). The kernel's `valid`/`ready` outputs may depend on the FIFO's outputs,
//! which never depend on them.

use super::*;
use kiln_dataflow::ir::{Pipe, PipeEnd};

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

    /// The conditions that hold back a state or pipeline slot: an enabled blocking transfer
    /// whose FIFO cannot take part. `(site, waits)` pairs.
    pub(super) fn transfer_waits(&self) -> Vec<(Site, Expr)> {
        self.transfer_sites()
            .into_iter()
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
        match self.transfer_of(op) {
            Some((_, true)) => lit(1, 1),
            Some((_, false)) => self.pipe_can(op),
            None => lit(1, 0),
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
            let go = any(mine.iter().map(|s| and(and(s.commit.clone(), s.sel.clone()), s.en.clone())).collect());
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
                            (s.sel.clone(), packet)
                        })
                        .collect();
                    self.m.add(Item::Assign(format!("{pre}_data"), one_hot_mux(cases, lit(w, 0))));
                }
            }
        }
    }
}
