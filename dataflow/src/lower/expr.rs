//! Lowering of expressions: C integer semantics onto bit-vector ops, pointers as
//! (memory, index) pairs, l-values, assignments and inlined calls.

use super::*;
use kiln_hir::{BinaryOp, ExprKind, UnaryOp};

pub(super) fn scalar_of(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Atomic(s) => Some(*s),
        _ => ty.scalar(),
    }
}

/// Can `e` be evaluated even when C would not evaluate it (no loads, stores or calls)?
fn speculatable(e: &hir::Expr) -> bool {
    use ExprKind as K;
    match &e.kind {
        K::Int(_) | K::Float(_) | K::Local(_) => true,
        K::Global(_) => !matches!(e.ty, Type::Array(..)),
        K::Unary(_, a) | K::Convert(a) | K::PtrCast(a) => speculatable(a),
        K::Binary(_, a, b)
        | K::LogAnd(a, b)
        | K::LogOr(a, b)
        | K::PtrAdd(a, b)
        | K::PtrDiff(a, b)
        | K::PtrCmp(_, a, b) => speculatable(a) && speculatable(b),
        K::Cond(c, a, b) => speculatable(c) && speculatable(a) && speculatable(b),
        K::Decay(a) => matches!(a.kind, K::Local(_) | K::Global(_)),
        K::IntBuiltin(_, args) | K::FloatBuiltin(_, args) => args.iter().all(speculatable),
        K::ConvertRound(a, _) | K::Bitcast(a) => speculatable(a),
        _ => false,
    }
}

fn cmp_op(op: BinaryOp, signed: bool) -> CmpOp {
    match (op, signed) {
        (BinaryOp::Lt, true) => CmpOp::Slt,
        (BinaryOp::Lt, false) => CmpOp::Ult,
        (BinaryOp::Le, true) => CmpOp::Sle,
        (BinaryOp::Le, false) => CmpOp::Ule,
        (BinaryOp::Gt, true) => CmpOp::Sgt,
        (BinaryOp::Gt, false) => CmpOp::Ugt,
        (BinaryOp::Ge, true) => CmpOp::Sge,
        (BinaryOp::Ge, false) => CmpOp::Uge,
        (BinaryOp::Eq, _) => CmpOp::Eq,
        _ => CmpOp::Ne,
    }
}

fn arith_op(op: BinaryOp, signed: bool) -> BinOp {
    match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => {
            if signed {
                BinOp::SDiv
            } else {
                BinOp::UDiv
            }
        }
        BinaryOp::Rem => {
            if signed {
                BinOp::SRem
            } else {
                BinOp::URem
            }
        }
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => {
            if signed {
                BinOp::AShr
            } else {
                BinOp::LShr
            }
        }
        BinaryOp::And => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        _ => BinOp::Xor,
    }
}

impl<'p> Lowerer<'p> {
    pub(super) fn value(&mut self, e: &hir::Expr) -> Option<Value> {
        match self.rvalue(e) {
            RV::Val(v) => Some(v),
            _ => None,
        }
    }

    pub(super) fn pointer(&mut self, e: &hir::Expr) -> Option<PtrVal> {
        match self.rvalue(e) {
            RV::Ptr(p) => Some(p),
            _ => None,
        }
    }

    /// A condition as a 1-bit value.
    pub(super) fn cond(&mut self, e: &hir::Expr) -> Value {
        let span = e.span;
        match &e.kind {
            ExprKind::Binary(op, a, b) if op.is_comparison() => {
                let signed = a.ty.scalar().is_some_and(|s| s.is_signed());
                let float = a.ty.scalar().is_some_and(Scalar::is_float);
                let (Some(x), Some(y)) = (self.value(a), self.value(b)) else { return self.konst(0, 1, span) };
                if float {
                    return self.float_compare(*op, x, y, span);
                }
                self.emit(OpKind::Cmp(cmp_op(*op, signed)), vec![x, y], 1, span)
            }
            ExprKind::Unary(UnaryOp::LogNot, a) => {
                let c = self.cond(a);
                let one = self.konst(1, 1, span);
                self.emit(OpKind::Binary(BinOp::Xor), vec![c, one], 1, span)
            }
            ExprKind::PtrCmp(op, a, b) => self.ptr_cmp(*op, a, b, span),
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                let is_and = matches!(e.kind, ExprKind::LogAnd(..));
                self.short_circuit(is_and, a, b, span)
            }
            _ => match self.rvalue(e) {
                RV::Val(v) => {
                    if let Some(s) = scalar_of(&e.ty).filter(|s| s.is_float()) {
                        return self.convert_scalar(v, s, Scalar::Bool, None, span);
                    }
                    if self.k.width(v) == 1 {
                        return v;
                    }
                    let w = self.k.width(v);
                    let z = self.konst(0, w, span);
                    self.emit(OpKind::Cmp(CmpOp::Ne), vec![v, z], 1, span)
                }
                RV::Ptr(p) => self.konst(p.mem.is_some() as u64, 1, span),
                RV::Void => self.konst(0, 1, span),
            },
        }
    }

    /// `a && b` / `a || b` as a 1-bit value, evaluating `b` only when needed.
    fn short_circuit(&mut self, is_and: bool, a: &hir::Expr, b: &hir::Expr, span: Span) -> Value {
        let ca = self.cond(a);
        if speculatable(b) {
            let cb = self.cond(b);
            let op = if is_and { BinOp::And } else { BinOp::Or };
            return self.emit(OpKind::Binary(op), vec![ca, cb], 1, span);
        }
        self.diamond(
            ca,
            span,
            |l| if is_and { Some(l.cond(b)) } else { Some(l.konst(1, 1, span)) },
            |l| if is_and { Some(l.konst(0, 1, span)) } else { Some(l.cond(b)) },
            Some(1),
        )
        .unwrap_or_else(|| self.konst(0, 1, span))
    }

    /// Emits `if (cond) then_f else else_f` and returns the merged value (of `width`).
    fn diamond(
        &mut self,
        cond: Value,
        span: Span,
        then_f: impl FnOnce(&mut Self) -> Option<Value>,
        else_f: impl FnOnce(&mut Self) -> Option<Value>,
        width: Option<u32>,
    ) -> Option<Value> {
        let merge = self.new_join(span);
        let result = width.map(|w| self.k.add_param(self.joins[merge].block, w, None));
        let then_b = self.k.new_block(span);
        let else_b = self.k.new_block(span);
        self.set_term(Terminator::Branch {
            cond,
            then_to: Target { block: then_b, args: vec![] },
            else_to: Target { block: else_b, args: vec![] },
        });
        let saved = self.env.clone();
        for (block, f) in
            [(then_b, Box::new(then_f) as Box<dyn FnOnce(&mut Self) -> Option<Value>>), (else_b, Box::new(else_f))]
        {
            self.cur = block;
            let v = f(self);
            let mut args = self.join_args(merge, span);
            if let Some(w) = width {
                let v = match v {
                    Some(v) => self.resize(v, w, false, span),
                    None => self.konst(0, w, span),
                };
                args.push(v);
            }
            let target = self.joins[merge].block;
            self.terminate(Terminator::Jump(Target { block: target, args }), span);
            self.env = saved.clone();
        }
        self.enter_join(merge);
        result
    }

    /// Lowers an expression used as a value.
    pub(super) fn rvalue(&mut self, e: &hir::Expr) -> RV {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(v) => {
                let w = match &e.ty {
                    Type::Scalar(s) => scalar_width(*s),
                    _ => INDEX_WIDTH,
                };
                if e.ty.is_pointer() {
                    // The null pointer.
                    let idx = self.konst(0, INDEX_WIDTH, span);
                    return RV::Ptr(PtrVal { mem: None, index: idx });
                }
                RV::Val(self.konst(*v, w, span))
            }
            ExprKind::Float(_) => {
                let w = scalar_of(&e.ty).map(scalar_width).unwrap_or(32);
                RV::Val(self.konst(e.as_bits().unwrap_or(0), w, span))
            }
            ExprKind::WorkItem(f, d) => RV::Val(self.work_item(*f, *d, span)),
            ExprKind::Barrier => {
                self.error(
                    Diagnostic::error(codes::NON_UNIFORM_BARRIER, "a barrier must be a statement of its own")
                        .at(span)
                        .with_help("write `barrier(CLK_LOCAL_MEM_FENCE);` on its own line"),
                );
                RV::Void
            }
            ExprKind::Local(id) if matches!(self.frame().storage.get(id), Some(Storage::Remat)) => {
                match self.remat.get(id).cloned() {
                    Some(init) => {
                        let v = self.rvalue(&init);
                        match (v, scalar_of(&e.ty)) {
                            (RV::Val(x), Some(s)) => {
                                let signed = init.ty.scalar().is_some_and(|t| t.is_signed());
                                RV::Val(self.resize(x, scalar_width(s), signed, span))
                            }
                            (other, _) => other,
                        }
                    }
                    None => RV::Void,
                }
            }
            ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::Member(..) => {
                if let (ExprKind::Global(g), Type::Scalar(s)) = (&e.kind, &e.ty)
                    && self.prog.global(*g).space == AddrSpace::Constant
                {
                    // A scalar `__constant` is its value.
                    let v = self.prog.global(*g).init.as_ref().and_then(|i| match i {
                        hir::Init::Expr(x) => x.as_bits(),
                        _ => None,
                    });
                    return RV::Val(self.konst(v.unwrap_or(0), scalar_width(*s), span));
                }
                match self.place(e) {
                    Some(p) => self.read_place(&p, &e.ty, span),
                    None => RV::Void,
                }
            }
            ExprKind::Unary(op, a) => {
                let Some(s) = scalar_of(&e.ty) else { return RV::Void };
                let w = scalar_width(s);
                match op {
                    UnaryOp::LogNot => {
                        let c = self.cond(a);
                        let one = self.konst(1, 1, span);
                        let n = self.emit(OpKind::Binary(BinOp::Xor), vec![c, one], 1, span);
                        RV::Val(self.resize(n, w, false, span))
                    }
                    UnaryOp::Neg => match self.value(a) {
                        Some(x) if s.is_float() => RV::Val(self.emit(OpKind::Float(FloatOp::Neg), vec![x], w, span)),
                        Some(x) => RV::Val(self.emit(OpKind::Unary(UnOp::Neg), vec![x], w, span)),
                        None => RV::Void,
                    },
                    UnaryOp::BitNot => match self.value(a) {
                        Some(x) => RV::Val(self.emit(OpKind::Unary(UnOp::Not), vec![x], w, span)),
                        None => RV::Void,
                    },
                }
            }
            ExprKind::Binary(op, a, b) => {
                if op.is_comparison() {
                    let c = self.cond(e);
                    return RV::Val(self.resize(c, 32, false, span));
                }
                let Some(s) = scalar_of(&e.ty) else { return RV::Void };
                let (Some(x), Some(y)) = (self.value(a), self.value(b)) else { return RV::Void };
                if s.is_float() {
                    return RV::Val(self.float_arith(*op, x, y, span));
                }
                let kind = OpKind::Binary(arith_op(*op, s.is_signed()));
                RV::Val(self.emit(kind, vec![x, y], scalar_width(s), span))
            }
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) | ExprKind::PtrCmp(..) => {
                let c = self.cond(e);
                RV::Val(self.resize(c, 32, false, span))
            }
            ExprKind::PtrAdd(p, i) => {
                let Some(pv) = self.pointer(p) else { return RV::Void };
                let Some(iv) = self.value(i) else { return RV::Void };
                let count = p.ty.pointee().map(|pt| elem_count(&pt.ty)).unwrap_or(1);
                let signed = i.ty.scalar().is_some_and(|s| s.is_signed());
                let idx = self.scaled_index(iv, signed, count, span);
                let sum = self.emit(OpKind::Binary(BinOp::Add), vec![pv.index, idx], INDEX_WIDTH, span);
                RV::Ptr(PtrVal { mem: pv.mem, index: sum })
            }
            ExprKind::PtrDiff(a, b) => {
                let (Some(pa), Some(pb)) = (self.pointer(a), self.pointer(b)) else { return RV::Void };
                if pa.mem != pb.mem {
                    self.error(
                        Diagnostic::error(codes::AMBIGUOUS_POINTER, "subtracting pointers into different memories")
                            .at(span),
                    );
                    return RV::Void;
                }
                let d = self.emit(OpKind::Binary(BinOp::Sub), vec![pa.index, pb.index], INDEX_WIDTH, span);
                let count = a.ty.pointee().map(|pt| elem_count(&pt.ty)).unwrap_or(1);
                if count == 1 {
                    return RV::Val(d);
                }
                let c = self.konst(count as u64, INDEX_WIDTH, span);
                RV::Val(self.emit(OpKind::Binary(BinOp::SDiv), vec![d, c], INDEX_WIDTH, span))
            }
            ExprKind::Assign(l, r) => self.assign(l, r, span),
            ExprKind::CompoundAssign { op, lhs, rhs, op_ty } => self.compound_assign(*op, lhs, rhs, op_ty, &e.ty, span),
            ExprKind::PtrCompoundAssign { sub, lhs, rhs } => {
                let Some(place) = self.place(lhs) else { return RV::Void };
                let RV::Ptr(pv) = self.read_place(&place, &lhs.ty, span) else { return RV::Void };
                let Some(iv) = self.value(rhs) else { return RV::Void };
                let count = lhs.ty.pointee().map(|pt| elem_count(&pt.ty)).unwrap_or(1);
                let signed = rhs.ty.scalar().is_some_and(|s| s.is_signed());
                let idx = self.scaled_index(iv, signed, count, span);
                let op = if *sub { BinOp::Sub } else { BinOp::Add };
                let n = self.emit(OpKind::Binary(op), vec![pv.index, idx], INDEX_WIDTH, span);
                let new = RV::Ptr(PtrVal { mem: pv.mem, index: n });
                self.write_place(&place, new, span);
                new
            }
            ExprKind::IncDec { target, increment, prefix } => self.inc_dec(target, *increment, *prefix, span),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, &e.ty, span),
            ExprKind::Convert(a) => self.convert(a, &e.ty, span),
            ExprKind::ToAddressSpace(a) => {
                let RV::Ptr(p) = self.rvalue(a) else { return RV::Void };
                let space = e.ty.pointee().map(|t| t.space);
                let inside = p.mem.is_some_and(|m| {
                    let kind = &self.k.mems[m].kind;
                    match space {
                        Some(AddrSpace::Global) => matches!(kind, MemKind::Global { .. }),
                        Some(AddrSpace::Local) => matches!(kind, MemKind::Local),
                        Some(AddrSpace::Private) => matches!(kind, MemKind::Private | MemKind::Rom),
                        _ => false,
                    }
                });
                if inside {
                    RV::Ptr(p)
                } else {
                    let index = self.konst(0, INDEX_WIDTH, span);
                    RV::Ptr(PtrVal { mem: None, index })
                }
            }
            ExprKind::PtrCast(a) => {
                let rv = self.rvalue(a);
                // The null pointer constant (`p != 0` compares with `(T *)0`).
                if let RV::Val(_) = rv
                    && a.as_int() == Some(0)
                {
                    let index = self.konst(0, INDEX_WIDTH, span);
                    return RV::Ptr(PtrVal { mem: None, index });
                }
                if let (RV::Ptr(p), Some(from), Some(to)) = (rv, a.ty.pointee(), e.ty.pointee()) {
                    let (fs, ts) = (base_scalar(&from.ty), base_scalar(&to.ty));
                    let same = fs.map(|s| s.bits()) == ts.map(|s| s.bits()) || from.ty.is_void() || to.ty.is_void();
                    if p.mem.is_some() && !same {
                        self.error(
                            Diagnostic::error(
                                codes::UNSUPPORTED_POINTER_CAST,
                                "reinterpreting memory as elements of a different size is not yet supported by kiln",
                            )
                            .at(span),
                        );
                    }
                }
                rv
            }
            ExprKind::Decay(a) => match self.place(a) {
                Some(Place::Mem { mem, index }) => RV::Ptr(PtrVal { mem: Some(mem), index }),
                _ => RV::Void,
            },
            ExprKind::AddrOf(a) => match self.place(a) {
                Some(Place::Mem { mem, index }) => RV::Ptr(PtrVal { mem: Some(mem), index }),
                Some(Place::Var(_)) => {
                    self.error(
                        Diagnostic::error(codes::POINTER_ESCAPE, "cannot take the address of this variable").at(span),
                    );
                    RV::Void
                }
                None => RV::Void,
            },
            ExprKind::Call(f, args) => self.call(*f, args, &e.ty, span),
            ExprKind::IntBuiltin(b, args) => self.int_builtin(*b, args, &e.ty, span),
            ExprKind::FloatBuiltin(b, args) => self.float_builtin(*b, args, &e.ty, span),
            ExprKind::ConvertRound(a, r) => {
                let Some(v) = self.value(a) else { return RV::Void };
                let (Some(from), Some(to)) = (scalar_of(&a.ty), scalar_of(&e.ty)) else { return RV::Void };
                RV::Val(self.convert_scalar(v, from, to, Some(super::float::ir_round(*r)), span))
            }
            // `as_<T>` between scalars of one size: the same bits.
            ExprKind::Bitcast(a) if !a.ty.is_vector() && !e.ty.is_vector() => self.rvalue(a),
            ExprKind::Atomic { op, ptr, args } => self.atomic(*op, ptr, args, span),
            ExprKind::Swizzle(..)
            | ExprKind::VecLit(_)
            | ExprKind::ConvertSat(_)
            | ExprKind::Bitcast(_)
            | ExprKind::VLoad(..)
            | ExprKind::Shuffle(..)
            | ExprKind::Geometric(..)
            | ExprKind::VStore { .. } => {
                // `lanes` rewrites these before lowering; reaching here is a kiln bug.
                self.error(
                    Diagnostic::error(
                        codes::UNSUPPORTED_VECTOR,
                        "kiln cannot build this vector expression (internal: it reached lowering)",
                    )
                    .at(span),
                );
                RV::Void
            }
            ExprKind::PipeRead { pipe, blocking, dests, ok } => {
                self.pipe_read(e, pipe, *blocking, dests, ok.as_deref())
            }
            ExprKind::PipeWrite { pipe, blocking, values } => self.pipe_write(e, pipe, *blocking, values),
            ExprKind::PipeQuery { pipe, max } => self.pipe_query(e, pipe, *max),
            ExprKind::Printf(format, args) => {
                let values: Option<Vec<Value>> = args.iter().map(|a| self.value(a)).collect();
                if let Some(values) = values {
                    self.k.push_op(self.cur, OpKind::Print(format.clone()), values, None, span);
                }
                RV::Val(self.konst(0, 32, span))
            }
            ExprKind::WorkGroup(..) | ExprKind::AsyncCopy { .. } => {
                self.error(
                    Diagnostic::error(
                        codes::UNSUPPORTED_BUILTIN,
                        "kiln cannot build this work-group function (internal: it reached lowering)",
                    )
                    .at(span),
                );
                RV::Void
            }
            ExprKind::PipeReserve { .. } | ExprKind::PipeReserved { .. } | ExprKind::PipeCommit { .. } => {
                self.error(
                    Diagnostic::error(
                        codes::UNSUPPORTED_PIPE,
                        "kiln cannot build this pipe reservation (internal: it reached lowering)",
                    )
                    .at(span),
                );
                RV::Void
            }
            ExprKind::Comma(items) => {
                let mut last = RV::Void;
                for i in items {
                    last = self.rvalue(i);
                }
                if e.ty.is_void() { RV::Void } else { last }
            }
        }
    }

    /// An index in elements of the memory: `i * count`, as an `INDEX_WIDTH` value.
    fn scaled_index(&mut self, i: Value, signed: bool, count: u32, span: Span) -> Value {
        let i = self.resize(i, INDEX_WIDTH, signed, span);
        if count == 1 {
            return i;
        }
        let c = self.konst(count as u64, INDEX_WIDTH, span);
        self.emit(OpKind::Binary(BinOp::Mul), vec![i, c], INDEX_WIDTH, span)
    }

    fn ptr_cmp(&mut self, op: BinaryOp, a: &hir::Expr, b: &hir::Expr, span: Span) -> Value {
        let (Some(pa), Some(pb)) = (self.pointer(a), self.pointer(b)) else { return self.konst(0, 1, span) };
        if pa.mem != pb.mem {
            // Distinct memories never compare equal; ordering them is meaningless.
            return match op {
                BinaryOp::Eq => self.konst(0, 1, span),
                BinaryOp::Ne => self.konst(1, 1, span),
                _ => {
                    self.error(
                        Diagnostic::error(
                            codes::AMBIGUOUS_POINTER,
                            "ordering comparison of pointers into different memories",
                        )
                        .at(span),
                    );
                    self.konst(0, 1, span)
                }
            };
        }
        self.emit(OpKind::Cmp(cmp_op(op, false)), vec![pa.index, pb.index], 1, span)
    }

    fn convert(&mut self, a: &hir::Expr, to: &Type, span: Span) -> RV {
        let rv = self.rvalue(a);
        let Some(ts) = scalar_of(to) else { return rv };
        match rv {
            RV::Val(v) => {
                let from = scalar_of(&a.ty).unwrap_or(Scalar::U32);
                RV::Val(self.convert_scalar(v, from, ts, None, span))
            }
            RV::Ptr(p) if ts == Scalar::Bool => RV::Val(self.konst(p.mem.is_some() as u64, 1, span)),
            other => other,
        }
    }

    fn conditional(&mut self, c: &hir::Expr, a: &hir::Expr, b: &hir::Expr, ty: &Type, span: Span) -> RV {
        let cv = self.cond(c);
        if ty.is_void() {
            self.diamond(
                cv,
                span,
                |l| {
                    l.rvalue(a);
                    None
                },
                |l| {
                    l.rvalue(b);
                    None
                },
                None,
            );
            return RV::Void;
        }
        if let Type::Pointer(_) = ty {
            // Both arms must point into the same memory; select the index.
            let (Some(pa), Some(pb)) = (self.pointer(a), self.pointer(b)) else { return RV::Void };
            if pa.mem != pb.mem {
                self.error(
                    Diagnostic::error(
                        codes::AMBIGUOUS_POINTER,
                        "a conditional expression selects between pointers into different memories",
                    )
                    .at(span),
                );
                return RV::Void;
            }
            let idx = self.emit(OpKind::Select, vec![cv, pa.index, pb.index], INDEX_WIDTH, span);
            return RV::Ptr(PtrVal { mem: pa.mem, index: idx });
        }
        let Some(s) = scalar_of(ty) else { return RV::Void };
        let w = scalar_width(s);
        if speculatable(a) && speculatable(b) {
            let (Some(x), Some(y)) = (self.value(a), self.value(b)) else { return RV::Void };
            return RV::Val(self.emit(OpKind::Select, vec![cv, x, y], w, span));
        }
        match self.diamond(cv, span, |l| l.value(a), |l| l.value(b), Some(w)) {
            Some(v) => RV::Val(v),
            None => RV::Void,
        }
    }

    // ----- places -----

    fn local_storage(&mut self, id: LocalId, span: Span) -> Option<Storage> {
        if let Some(s) = self.frame().storage.get(&id) {
            return Some(*s);
        }
        if self.frame().rejected.contains(&id) {
            return None;
        }
        let name = self.func().local(id).name.clone();
        self.error(Diagnostic::error(codes::UNDECLARED, format!("`{name}` used before its declaration")).at(span));
        None
    }

    /// Lowers an l-value.
    pub(super) fn place(&mut self, e: &hir::Expr) -> Option<Place> {
        let span = e.span;
        match &e.kind {
            ExprKind::Local(id) => match self.local_storage(*id, span)? {
                Storage::Ssa => Some(Place::Var(self.key(*id))),
                Storage::Mem(m) => {
                    let z = self.konst(0, INDEX_WIDTH, span);
                    Some(Place::Mem { mem: m, index: z })
                }
                Storage::PerItem(m, n) => {
                    let index = self.per_item_base(n, span);
                    Some(Place::Mem { mem: m, index })
                }
                Storage::Remat => {
                    self.error(
                        Diagnostic::error(
                            codes::NON_UNIFORM_BARRIER,
                            "this variable is recomputed in every phase and cannot be assigned",
                        )
                        .at(span),
                    );
                    None
                }
            },
            ExprKind::Global(g) => {
                let m = self.global_mem(*g, span)?;
                let z = self.konst(0, INDEX_WIDTH, span);
                Some(Place::Mem { mem: m, index: z })
            }
            ExprKind::Deref(p) => {
                let pv = self.pointer(p)?;
                match pv.mem {
                    Some(mem) => Some(Place::Mem { mem, index: pv.index }),
                    None => {
                        self.error(
                            Diagnostic::error(codes::AMBIGUOUS_POINTER, "dereference of a null pointer").at(span),
                        );
                        None
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, "this l-value is not supported by kiln").at(span),
                );
                None
            }
        }
    }

    pub(super) fn read_place(&mut self, p: &Place, ty: &Type, span: Span) -> RV {
        match p {
            Place::Var(key) => match self.env.get(key).cloned() {
                Some(EnvVal::Val(v)) => RV::Val(v),
                Some(EnvVal::Ptr(pv)) => RV::Ptr(pv),
                Some(EnvVal::Ambiguous(mems)) => {
                    let name = self.var_names.get(key).cloned().unwrap_or_else(|| "pointer".into());
                    self.error(
                        Diagnostic::error(
                            codes::AMBIGUOUS_POINTER,
                            format!("pointer `{name}` may refer to different memories here (`{}`)", mems.join("`, `")),
                        )
                        .at(span)
                        .with_note("kiln must know at compile time which memory every pointer refers to"),
                    );
                    RV::Void
                }
                Some(EnvVal::Undef) | None => {
                    let name = self.var_names.get(key).cloned().unwrap_or_else(|| "variable".into());
                    self.error(
                        Diagnostic::warning(
                            codes::UNINITIALIZED_USE,
                            format!("`{name}` is used before it is assigned; kiln uses 0"),
                        )
                        .at(span),
                    );
                    if ty.is_pointer() {
                        let z = self.konst(0, INDEX_WIDTH, span);
                        return RV::Ptr(PtrVal { mem: None, index: z });
                    }
                    let w = scalar_of(ty).map(scalar_width).unwrap_or(32);
                    RV::Val(self.konst(0, w, span))
                }
            },
            Place::Mem { mem, index } => {
                if matches!(ty, Type::Array(..)) {
                    return RV::Ptr(PtrVal { mem: Some(*mem), index: *index });
                }
                let w = self.k.mems[*mem].elem_width;
                RV::Val(self.emit(OpKind::Load(*mem), vec![*index], w, span))
            }
        }
    }

    pub(super) fn write_place(&mut self, p: &Place, v: RV, span: Span) {
        match (p, v) {
            (Place::Var(key), RV::Val(x)) => {
                let name = self.var_names.get(key).cloned();
                if self.k.values[x].name.is_none() {
                    self.k.values[x].name = name;
                }
                self.env.insert(*key, EnvVal::Val(x));
            }
            (Place::Var(key), RV::Ptr(pv)) => {
                self.env.insert(*key, EnvVal::Ptr(pv));
            }
            (Place::Mem { mem, index }, RV::Val(x)) => {
                if self.k.mems[*mem].is_read_only() {
                    self.error(Diagnostic::error(codes::CONSTANT_RULE, "write to read-only memory").at(span));
                    return;
                }
                self.k.push_op(self.cur, OpKind::Store(*mem), vec![*index, x], None, span);
            }
            (Place::Mem { .. }, RV::Ptr(_)) => {
                self.error(
                    Diagnostic::error(codes::POINTER_ESCAPE, "storing a pointer in memory is not supported by kiln")
                        .at(span)
                        .with_note("kiln resolves every pointer to a memory at compile time"),
                );
            }
            (_, RV::Void) => {}
        }
    }

    fn assign(&mut self, l: &hir::Expr, r: &hir::Expr, span: Span) -> RV {
        let v = self.rvalue(r);
        let Some(p) = self.place(l) else { return RV::Void };
        self.write_place(&p, v, span);
        v
    }

    fn compound_assign(
        &mut self,
        op: BinaryOp,
        l: &hir::Expr,
        r: &hir::Expr,
        op_ty: &Type,
        ty: &Type,
        span: Span,
    ) -> RV {
        let Some(p) = self.place(l) else { return RV::Void };
        let RV::Val(old) = self.read_place(&p, ty, span) else { return RV::Void };
        let Some(rv) = self.value(r) else { return RV::Void };
        let (Some(ls), Some(os)) = (scalar_of(ty), scalar_of(op_ty)) else { return RV::Void };
        let is_shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
        if os.is_float() || ls.is_float() {
            // `lhs = (T)((OpT)lhs op rhs)` through the float conversions.
            let x = self.convert_scalar(old, ls, os, None, span);
            let res = if os.is_float() {
                self.float_arith(op, x, rv, span)
            } else {
                self.emit(OpKind::Binary(arith_op(op, os.is_signed())), vec![x, rv], scalar_width(os), span)
            };
            let new = self.convert_scalar(res, os, ls, None, span);
            self.write_place(&p, RV::Val(new), span);
            return RV::Val(new);
        }
        let lhs_signed = ls.is_signed() && ls != Scalar::Bool;
        let (x, kind_signed, w) = if is_shift {
            // The value is promoted; the count keeps its own type.
            let x = self.resize(old, scalar_width(os), lhs_signed, span);
            (x, os.is_signed(), scalar_width(os))
        } else {
            let x = self.resize(old, scalar_width(os), lhs_signed, span);
            (x, os.is_signed(), scalar_width(os))
        };
        let res = self.emit(OpKind::Binary(arith_op(op, kind_signed)), vec![x, rv], w, span);
        let new = if ls == Scalar::Bool {
            let z = self.konst(0, w, span);
            self.emit(OpKind::Cmp(CmpOp::Ne), vec![res, z], 1, span)
        } else {
            self.resize(res, scalar_width(ls), os.is_signed(), span)
        };
        self.write_place(&p, RV::Val(new), span);
        RV::Val(new)
    }

    fn inc_dec(&mut self, target: &hir::Expr, increment: bool, prefix: bool, span: Span) -> RV {
        let Some(p) = self.place(target) else { return RV::Void };
        let old = self.read_place(&p, &target.ty, span);
        let new = match old {
            RV::Val(v) => {
                let w = self.k.width(v);
                if let Some(s) = target.ty.scalar().filter(|s| s.is_float()) {
                    let one = self.fconst(1.0, span);
                    let f = if increment { FloatOp::Add } else { FloatOp::Sub };
                    RV::Val(self.emit(OpKind::Float(f), vec![v, one], scalar_width(s), span))
                } else if target.ty.scalar() == Some(Scalar::Bool) {
                    // `b++` sets true; `b--` flips (C99 semantics of bool arithmetic).
                    let one = self.konst(1, 1, span);
                    let n = if increment { one } else { self.emit(OpKind::Binary(BinOp::Xor), vec![v, one], 1, span) };
                    RV::Val(n)
                } else {
                    let one = self.konst(1, w, span);
                    let op = if increment { BinOp::Add } else { BinOp::Sub };
                    RV::Val(self.emit(OpKind::Binary(op), vec![v, one], w, span))
                }
            }
            RV::Ptr(pv) => {
                let count = target.ty.pointee().map(|pt| elem_count(&pt.ty)).unwrap_or(1);
                let c = self.konst(count as u64, INDEX_WIDTH, span);
                let op = if increment { BinOp::Add } else { BinOp::Sub };
                let n = self.emit(OpKind::Binary(op), vec![pv.index, c], INDEX_WIDTH, span);
                RV::Ptr(PtrVal { mem: pv.mem, index: n })
            }
            RV::Void => return RV::Void,
        };
        self.write_place(&p, new, span);
        if prefix { new } else { old }
    }

    // ----- calls -----

    fn call(&mut self, f: FuncId, args: &[hir::Expr], ret: &Type, span: Span) -> RV {
        let callee = self.prog.func(f);
        let Some(body) = &callee.body else { return RV::Void };
        if self.frames.len() > 64 {
            self.error(Diagnostic::error(codes::RECURSION, "calls nested too deeply to inline").at(span));
            return RV::Void;
        }
        // A pipe argument is not a value: the callee's pipe parameter is the caller's pipe.
        let caller = self.frame().instance;
        let argv: Vec<RV> =
            args.iter().map(|a| if matches!(a.ty, Type::Pipe(..)) { RV::Void } else { self.rvalue(a) }).collect();
        let pipes: Vec<(LocalId, Pipe)> = callee
            .params
            .iter()
            .zip(args)
            .filter_map(|(pid, a)| match a.kind {
                hir::ExprKind::Local(caller_id) => self.pipe_params.get(&(caller, caller_id)).map(|pipe| (*pid, *pipe)),
                _ => None,
            })
            .collect();
        let instance = self.next_instance;
        for (pid, pipe) in pipes {
            self.pipe_params.insert((instance, pid), pipe);
        }
        self.next_instance += 1;
        let saved_env = self.env.clone();
        let (address_taken, rom_candidates) = scan_function(callee);
        // The continuation receives the return value.
        let cont = self.k.new_block(span);
        let ret_param = match ret {
            Type::Scalar(s) => Some(self.k.add_param(cont, scalar_width(*s), None)),
            Type::Pointer(_) => Some(self.k.add_param(cont, INDEX_WIDTH, None)),
            _ => None,
        };
        self.joins.push(Join {
            block: cont,
            vars: vec![],
            ptr_mems: HashMap::new(),
            conflicts: HashMap::new(),
            reached: false,
            incoming: Vec::new(),
            loop_header: false,
        });
        let ret_join = self.joins.len() - 1;
        if let Some(p) = ret_param {
            self.ret_value_param.insert(ret_join, p);
        }
        self.frames.push(Frame {
            func: f,
            instance,
            ret_join: Some(ret_join),
            ret_ptr_mem: None,
            storage: HashMap::new(),
            address_taken,
            rom_candidates,
            rejected: HashSet::new(),
        });
        self.scopes.push(Vec::new());
        for (pid, a) in callee.params.iter().zip(argv) {
            let local = callee.local(*pid);
            let key = (instance, *pid);
            let taken = self.frame().address_taken.contains(pid);
            match (a, &local.ty) {
                (RV::Val(v), Type::Scalar(s)) if taken => {
                    let m = self.new_mem(local.name.clone(), MemKind::Private, *s, Some(1), local.span);
                    let z = self.konst(0, INDEX_WIDTH, span);
                    self.k.push_op(self.cur, OpKind::Store(m), vec![z, v], None, span);
                    self.frames.last_mut().map(|fr| fr.storage.insert(*pid, Storage::Mem(m)));
                }
                (RV::Val(v), _) => {
                    self.frames.last_mut().map(|fr| fr.storage.insert(*pid, Storage::Ssa));
                    self.var_names.insert(key, local.name.clone());
                    self.env.insert(key, EnvVal::Val(v));
                    if let Some(sc) = self.scopes.last_mut() {
                        sc.push(key);
                    }
                }
                (RV::Ptr(p), _) => {
                    self.frames.last_mut().map(|fr| fr.storage.insert(*pid, Storage::Ssa));
                    self.var_names.insert(key, local.name.clone());
                    self.env.insert(key, EnvVal::Ptr(p));
                    if let Some(sc) = self.scopes.last_mut() {
                        sc.push(key);
                    }
                }
                (RV::Void, _) => {}
            }
        }
        self.block(body);
        // Falling off the end of a function returns (an undefined value for non-void ones).
        let fallthrough_args = match ret_param {
            Some(p) => {
                let w = self.k.width(p);
                vec![self.konst(0, w, span)]
            }
            None => vec![],
        };
        self.terminate(Terminator::Jump(Target { block: cont, args: fallthrough_args }), span);
        self.scopes.pop();
        let frame = self.frames.pop();
        self.env = saved_env;
        self.cur = cont;
        match (ret_param, ret) {
            (Some(p), Type::Pointer(_)) => {
                let mem = frame.and_then(|fr| fr.ret_ptr_mem).flatten();
                RV::Ptr(PtrVal { mem, index: p })
            }
            (Some(p), _) => RV::Val(p),
            _ => RV::Void,
        }
    }
}
