//! Pipes and channels: each pipe parameter, and each program-scope pipe or channel (array
//! element) a kernel uses, becomes one [`PipeData`] of the kernel; each transfer becomes a
//! `PipeRead` with one `PipeLane` per packet lane, or a `PipeWrite` of the lanes.
//!
//! A kernel holds one end of each pipe: using a program-scope pipe both ways in one kernel is
//! refused. An index into an array of channels must be a constant here (as written, or once
//! `#pragma unroll` has made it one in the hardware build).

use super::expr::scalar_of;
use super::*;
use kiln_hir::PipeRef;
use kiln_hir::legalize::record_bytes;
use kiln_hir::types::PipeAccess;

/// The lane widths of a packet type: a scalar, a vector's elements, or a struct's scalar and
/// vector elements in the order of [`record_bytes::elements`] (the order in which `records`
/// lists a struct packet's parts); `None` for a struct with other members (pointers).
pub(super) fn packet_lanes(prog: &hir::Program, ty: &Type) -> Option<Vec<u32>> {
    match ty {
        Type::Scalar(s) => Some(vec![scalar_width(*s)]),
        Type::Vector(s, n) => Some(vec![scalar_width(*s); *n as usize]),
        Type::Record(_) => {
            let parts: Vec<Option<Vec<u32>>> =
                record_bytes::elements(prog, ty).iter().map(|el| packet_lanes(prog, &el.ty)).collect();
            parts.into_iter().collect::<Option<Vec<_>>>().map(|p| p.concat())
        }
        _ => None,
    }
}

fn c_type(ty: &Type) -> String {
    kiln_hir::types::TypeDisplay { ty, record_name: &|_| "struct".into() }.to_string()
}

impl Lowerer<'_> {
    /// A pipe parameter of the kernel (parameter `index`).
    pub(super) fn pipe_param(&mut self, index: usize, id: VarKey, p: &hir::Local) {
        let Type::Pipe(packet, access) = &p.ty else { return };
        let end = if *access == PipeAccess::Write { PipeEnd::Write } else { PipeEnd::Read };
        let Some(lanes) = self.packet_lanes_or_report(packet, p.span) else { return };
        let pipe = self.k.pipes.push(PipeData {
            name: p.name.clone(),
            source: PipeSource::Param { param: index as u32 },
            end,
            lanes,
            c_type: c_type(packet),
            depth: None,
            span: p.span,
        });
        self.pipe_params.insert(id, pipe);
        self.k.params.push(Param {
            name: p.name.clone(),
            c_type: c_type(&p.ty),
            kind: ParamKind::Pipe { pipe },
            span: p.span,
            implicit: None,
            lane: None,
        });
    }

    fn packet_lanes_or_report(&mut self, packet: &Type, span: Span) -> Option<Vec<u32>> {
        let lanes = packet_lanes(self.prog, packet);
        if lanes.is_none() {
            self.error(
                Diagnostic::error(
                    codes::UNSUPPORTED_PIPE,
                    format!("kiln cannot send packets of type `{}` through a pipe", c_type(packet)),
                )
                .at(span)
                .with_note("a struct packet may hold scalars, vectors, structs and arrays of them"),
            );
        }
        lanes
    }

    /// The kernel's pipe for a transfer at `end`, created on first use of a program-scope pipe.
    fn pipe_of(&mut self, r: &PipeRef, end: PipeEnd, span: Span) -> Option<Pipe> {
        let (g, index) = match r {
            PipeRef::Param(id) => return self.pipe_params.get(&(self.frame().instance, *id)).copied(),
            PipeRef::Global(g, index) => (*g, index),
        };
        let global = self.prog.global(g);
        let (packet, name) = match (&global.ty, index) {
            (Type::Pipe(p, _), None) => (p.clone(), global.name.clone()),
            (Type::Array(inner, n), Some(i)) => {
                let Type::Pipe(p, _) = &**inner else { return None };
                let v = self.value(i)?;
                let Some(k) = self.const_value(v) else {
                    self.error(
                        Diagnostic::error(
                            codes::UNSUPPORTED_PIPE,
                            format!("the index into channel array `{}` is not a compile-time constant", global.name),
                        )
                        .at(i.span)
                        .with_help(
                            "index channel arrays with constants, or with the variable of a fully unrolled loop",
                        ),
                    );
                    return None;
                };
                let k = op::sext(k, self.k.width(v));
                if k < 0 || n.is_some_and(|n| k >= n as i64) {
                    self.error(
                        Diagnostic::error(
                            codes::PIPE_RULE,
                            format!(
                                "index {k} is outside channel array `{}` of {} element(s)",
                                global.name,
                                n.unwrap_or(0)
                            ),
                        )
                        .at(i.span),
                    );
                    return None;
                }
                (p.clone(), Rc::from(format!("{}[{k}]", global.name)))
            }
            _ => return None,
        };
        let source = PipeSource::Program { name: name.clone() };
        if let Some((pipe, d)) = self.k.pipes.iter().find(|(_, d)| d.source == source) {
            if d.end != end {
                let first = d.span;
                self.error(
                    Diagnostic::error(
                        codes::UNSUPPORTED_PIPE,
                        format!("kernel `{}` both reads and writes pipe `{name}`", self.k.name),
                    )
                    .at(span)
                    .with_label(first, "first used here")
                    .with_note("kiln connects each pipe from one writer kernel to one reader kernel"),
                );
                return None;
            }
            return Some(pipe);
        }
        let lanes = self.packet_lanes_or_report(&packet, span)?;
        Some(self.k.pipes.push(PipeData {
            name,
            source,
            end,
            lanes,
            c_type: c_type(&packet),
            depth: global.pipe_depth,
            span,
        }))
    }

    pub(super) fn pipe_read(
        &mut self,
        e: &hir::Expr,
        r: &PipeRef,
        blocking: bool,
        dests: &[hir::Expr],
        ok_place: Option<&hir::Expr>,
    ) -> RV {
        let span = e.span;
        let Some(pipe) = self.pipe_of(r, PipeEnd::Read, span) else { return RV::Void };
        let ok = self.emit(OpKind::PipeRead { pipe, blocking }, vec![], 1, span);
        let widths = self.k.pipes[pipe].lanes.clone();
        let lanes: Vec<Value> = widths
            .iter()
            .enumerate()
            .map(|(lane, w)| self.emit(OpKind::PipeLane { pipe, lane: lane as u32 }, vec![ok], *w, span))
            .collect();
        for (d, lane) in dests.iter().zip(&lanes) {
            let Some(place) = self.place(d) else { continue };
            let new = if blocking {
                *lane
            } else {
                match self.read_place(&place, &d.ty, span) {
                    RV::Val(old) => self.emit(OpKind::Select, vec![ok, *lane, old], self.k.width(*lane), span),
                    _ => *lane,
                }
            };
            self.write_place(&place, RV::Val(new), span);
        }
        if let Some(o) = ok_place
            && let Some(place) = self.place(o)
        {
            let w = scalar_of(&o.ty).map(scalar_width).unwrap_or(1);
            let v = self.resize(ok, w, false, span);
            self.write_place(&place, RV::Val(v), span);
        }
        if dests.is_empty() {
            return lanes.first().map(|v| RV::Val(*v)).unwrap_or(RV::Void);
        }
        match scalar_of(&e.ty) {
            Some(s) => RV::Val(self.resize(ok, scalar_width(s), false, span)),
            None => RV::Void,
        }
    }

    /// `get_pipe_num_packets` / `get_pipe_max_packets`.
    pub(super) fn pipe_query(&mut self, e: &hir::Expr, r: &PipeRef, max: bool) -> RV {
        let PipeRef::Param(id) = r else { return RV::Void };
        let Some(pipe) = self.pipe_params.get(&(self.frame().instance, *id)).copied() else { return RV::Void };
        let what = if max { PipeQuery::MaxPackets } else { PipeQuery::Packets };
        RV::Val(self.emit(OpKind::PipeQuery { pipe, what }, vec![], 32, e.span))
    }

    pub(super) fn pipe_write(&mut self, e: &hir::Expr, r: &PipeRef, blocking: bool, values: &[hir::Expr]) -> RV {
        let span = e.span;
        let mut lanes = Vec::new();
        for v in values {
            match self.rvalue(v) {
                RV::Val(x) => lanes.push(x),
                _ => return RV::Void,
            }
        }
        let Some(pipe) = self.pipe_of(r, PipeEnd::Write, span) else { return RV::Void };
        if lanes.len() != self.k.pipes[pipe].lanes.len() {
            return RV::Void;
        }
        let ok = self.emit(OpKind::PipeWrite { pipe, blocking }, lanes, 1, span);
        match scalar_of(&e.ty) {
            Some(s) => RV::Val(self.resize(ok, scalar_width(s), false, span)),
            None => RV::Void,
        }
    }
}
