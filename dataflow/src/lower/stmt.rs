//! Lowering of statements: declarations, control flow, loops, `switch`, `return`.

use super::*;
use kiln_hir::{CaseLabel, Stmt};

impl<'p> Lowerer<'p> {
    pub(super) fn block(&mut self, b: &hir::Block) {
        self.scopes.push(Vec::new());
        for s in b {
            self.stmt(s);
        }
        self.close_scope();
    }

    pub(super) fn close_scope(&mut self) {
        if let Some(vars) = self.scopes.pop() {
            for v in vars {
                self.env.remove(&v);
            }
        }
    }

    pub(super) fn declare_var(&mut self, key: VarKey, name: Rc<str>, val: EnvVal) {
        self.var_names.insert(key, name);
        self.env.insert(key, val);
        if let Some(s) = self.scopes.last_mut() {
            s.push(key);
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(e) => {
                self.rvalue(e);
            }
            Stmt::Decl(id, init, span) => self.decl(*id, init.as_ref(), *span),
            Stmt::If(c, t, e, span) => self.if_stmt(c, t, e, *span),
            Stmt::Loop(l) => self.loop_stmt(l),
            Stmt::Switch(v, arms, span) => self.switch(v, arms, *span),
            Stmt::Break(span) => {
                if let Some(l) = self.loops.last() {
                    let j = l.break_to;
                    self.jump_to_join(j, *span);
                }
            }
            Stmt::Continue(span) => {
                if let Some(j) = self.loops.iter().rev().find(|l| l.continue_to != usize::MAX).map(|l| l.continue_to) {
                    self.jump_to_join(j, *span);
                }
            }
            Stmt::Return(v, span) => self.return_stmt(v.as_ref(), *span),
            Stmt::Block(b) => self.block(b),
        }
    }

    fn decl(&mut self, id: LocalId, init: Option<&hir::Init>, span: Span) {
        let local = self.func().local(id).clone();
        let key = self.key(id);
        // NDRange kernels: variables kept per work-item across barriers.
        if self.frames.len() == 1 {
            match self.frame().storage.get(&id).copied() {
                Some(Storage::Remat) => return,
                Some(Storage::PerItem(m, n)) => {
                    self.var_names.insert(key, local.name.clone());
                    let mut exprs = Vec::new();
                    if let Some(i) = init {
                        flatten_init(i, &mut exprs);
                    }
                    let base = self.per_item_base(n, span);
                    for (i, e) in exprs.iter().enumerate() {
                        if let RV::Val(v) = self.rvalue(e) {
                            let offset = self.konst(i as u64, INDEX_WIDTH, span);
                            let index = self.emit(OpKind::Binary(BinOp::Add), vec![base, offset], INDEX_WIDTH, span);
                            self.k.push_op(self.cur, OpKind::Store(m), vec![index, v], None, e.span);
                        }
                    }
                    return;
                }
                _ => {}
            }
        }
        let taken = self.frame().address_taken.contains(&id);
        match &local.ty {
            // A `__local` scalar is shared by the work-group, so it lives in a memory.
            Type::Scalar(s) if !taken && local.space != AddrSpace::Local => {
                let val = match init {
                    Some(hir::Init::Expr(e)) => match self.rvalue(e) {
                        RV::Val(v) => EnvVal::Val(v),
                        _ => EnvVal::Undef,
                    },
                    _ => EnvVal::Undef,
                };
                let _ = s;
                self.frames.last_mut().map(|f| f.storage.insert(id, Storage::Ssa));
                if let EnvVal::Val(v) = &val
                    && self.k.values[*v].name.is_none()
                {
                    self.k.values[*v].name = Some(local.name.clone());
                }
                self.declare_var(key, local.name.clone(), val);
            }
            Type::Pointer(_) => {
                let val = match init {
                    Some(hir::Init::Expr(e)) => match self.rvalue(e) {
                        RV::Ptr(p) => EnvVal::Ptr(p),
                        _ => EnvVal::Undef,
                    },
                    _ => EnvVal::Undef,
                };
                if taken {
                    self.error(
                        Diagnostic::error(
                            codes::POINTER_ESCAPE,
                            format!("the address of pointer variable `{}` cannot be taken", local.name),
                        )
                        .at(local.span)
                        .with_note("kiln resolves every pointer to a memory at compile time"),
                    );
                }
                self.frames.last_mut().map(|f| f.storage.insert(id, Storage::Ssa));
                self.declare_var(key, local.name.clone(), val);
            }
            // Atomic objects always live in memory: the atomic built-ins reach them by address.
            Type::Scalar(_) | Type::Atomic(_) | Type::Vector(..) | Type::Array(..) => {
                let Some(s) = base_scalar(&local.ty) else {
                    self.error(
                        Diagnostic::error(codes::POINTER_ESCAPE, "arrays of pointers are not supported by kiln")
                            .at(local.span)
                            .with_note("kiln resolves every pointer to a memory at compile time"),
                    );
                    self.frames.last_mut().map(|f| f.rejected.insert(id));
                    return;
                };
                if let Type::Array(..) = &local.ty
                    && contains_pointer(&local.ty)
                {
                    self.error(
                        Diagnostic::error(codes::POINTER_ESCAPE, "arrays of pointers are not supported by kiln")
                            .at(local.span)
                            .with_note("kiln resolves every pointer to a memory at compile time"),
                    );
                    self.frames.last_mut().map(|f| f.rejected.insert(id));
                    return;
                }
                let len = elem_count(&local.ty);
                let is_rom = local.space == AddrSpace::Constant || self.frame().rom_candidates.contains(&id);
                let mut exprs = Vec::new();
                if let Some(i) = init {
                    flatten_init(i, &mut exprs);
                }
                if is_rom {
                    let m = self.new_mem(local.name.clone(), MemKind::Rom, s, Some(len), local.span);
                    let w = scalar_width(s);
                    let mut vals: Vec<u64> = exprs.iter().map(|e| e.as_bits().unwrap_or(0) & op::mask(w)).collect();
                    vals.resize(len as usize, 0);
                    self.k.mems[m].init = Some(vals);
                    self.frames.last_mut().map(|f| f.storage.insert(id, Storage::Mem(m)));
                    return;
                }
                let kind = if local.space == AddrSpace::Local { MemKind::Local } else { MemKind::Private };
                let m = self.new_mem(local.name.clone(), kind, s, Some(len), local.span);
                self.k.mems[m].volatile = local.quals.is_volatile;
                self.k.mems[m].carried_distance = local.dependence_distance;
                if let Some(p) = local.partition {
                    self.k.mems[m].banking = Banking::Requested(bank_layout(&local.ty, p));
                }
                self.frames.last_mut().map(|f| f.storage.insert(id, Storage::Mem(m)));
                for (i, e) in exprs.iter().enumerate() {
                    if let RV::Val(v) = self.rvalue(e) {
                        let idx = self.konst(i as u64, INDEX_WIDTH, span);
                        self.k.push_op(self.cur, OpKind::Store(m), vec![idx, v], None, e.span);
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, "this variable's type is not supported by kiln")
                        .at(local.span),
                );
            }
        }
    }

    fn if_stmt(&mut self, c: &hir::Expr, t: &hir::Block, e: &hir::Block, span: Span) {
        let cond = self.cond(c);
        // A condition known now (a pointer `to_global` found to point elsewhere, a constant):
        // only the branch taken is built, so the other may use what is invalid on this path.
        if let Some(v) = self.k.as_const(cond) {
            self.block(if v & 1 == 1 { t } else { e });
            return;
        }
        let merge = self.new_join(span);
        let then_b = self.k.new_block(span);
        let else_b = self.k.new_block(span);
        self.set_term(Terminator::Branch {
            cond,
            then_to: Target { block: then_b, args: vec![] },
            else_to: Target { block: else_b, args: vec![] },
        });
        let saved = self.env.clone();
        self.cur = then_b;
        self.block(t);
        self.jump_to_join(merge, span);
        self.env = saved;
        self.cur = else_b;
        self.block(e);
        self.jump_to_join(merge, span);
        self.enter_join(merge);
    }

    fn switch(&mut self, v: &hir::Expr, arms: &[hir::SwitchArm], span: Span) {
        let RV::Val(value) = self.rvalue(v) else { return };
        let exit = self.new_join(span);
        let arm_joins: Vec<usize> = arms.iter().map(|_| self.new_join(span)).collect();
        let width = self.k.width(value);
        let mut cases = Vec::new();
        let mut default = None;
        for (i, arm) in arms.iter().enumerate() {
            for (label, _) in &arm.labels {
                let args = self.join_args(arm_joins[i], span);
                let t = Target { block: self.joins[arm_joins[i]].block, args };
                match label {
                    CaseLabel::Value(c) => cases.push((c & op::mask(width), t)),
                    CaseLabel::Default => default = Some(t),
                }
            }
        }
        let default = match default {
            Some(t) => t,
            None => {
                let args = self.join_args(exit, span);
                Target { block: self.joins[exit].block, args }
            }
        };
        self.terminate(Terminator::Switch { value, cases, default }, span);
        // `continue` inside a switch still targets the enclosing loop.
        let continue_to = self.loops.last().map(|l| l.continue_to).unwrap_or(usize::MAX);
        self.loops.push(LoopCtx { break_to: exit, continue_to });
        for (i, arm) in arms.iter().enumerate() {
            // Fall through from the previous arm.
            self.jump_to_join(arm_joins[i], span);
            self.enter_join(arm_joins[i]);
            self.block(&arm.body);
        }
        self.jump_to_join(exit, span);
        self.loops.pop();
        self.enter_join(exit);
    }

    fn return_stmt(&mut self, v: Option<&hir::Expr>, span: Span) {
        let value = v.map(|e| self.rvalue(e));
        let Some(j) = self.frame().ret_join else {
            // An NDRange kernel's work-item is done: on to the next one.
            match self.kernel_return_to {
                Some(next) => self.jump_to_join(next, span),
                None => self.terminate(Terminator::Return, span),
            }
            return;
        };
        // Returning from an inlined call: pass the value to the call's continuation.
        let block = self.joins[j].block;
        let args = match value {
            Some(RV::Val(x)) => {
                let w = self.k.width(self.ret_value_param[&j]);
                vec![self.resize(x, w, false, span)]
            }
            Some(RV::Ptr(p)) => {
                let fr = self.frames.last_mut().unwrap_or_else(|| unreachable!());
                match fr.ret_ptr_mem {
                    None => fr.ret_ptr_mem = Some(p.mem),
                    Some(m) if m != p.mem => {
                        let name = self.func().name.clone();
                        self.error(
                            Diagnostic::error(
                                codes::AMBIGUOUS_POINTER,
                                format!("function `{name}` returns pointers to different memories"),
                            )
                            .at(span),
                        );
                    }
                    _ => {}
                }
                vec![p.index]
            }
            _ => {
                if self.k.blocks[block].params.is_empty() {
                    vec![]
                } else {
                    let w = self.k.width(self.ret_value_param[&j]);
                    vec![self.konst(0, w, span)]
                }
            }
        };
        self.joins[j].reached = true;
        self.terminate(Terminator::Jump(Target { block, args }), span);
    }
}

pub(super) fn contains_pointer(ty: &Type) -> bool {
    match ty {
        Type::Pointer(_) => true,
        Type::Array(t, _) => contains_pointer(t),
        _ => false,
    }
}

/// The bank layout `xcl_array_partition` asks for, on the flattened array.
fn bank_layout(ty: &Type, p: hir::ArrayPartition) -> BankLayout {
    let mut shape = Vec::new();
    let mut t = ty;
    while let Type::Array(inner, n) = t {
        shape.push(n.unwrap_or(1).max(1));
        t = inner;
    }
    let (extent, stride) = if p.dim == 0 {
        (shape.iter().product(), 1)
    } else {
        let d = p.dim as usize - 1;
        (shape[d], shape[d + 1..].iter().product())
    };
    let kind = match p.kind {
        hir::PartitionKind::Cyclic => "cyclic",
        hir::PartitionKind::Block => "block",
        hir::PartitionKind::Complete => "complete",
    };
    let spelled = if p.kind == hir::PartitionKind::Complete {
        format!("xcl_array_partition(complete, {})", p.dim)
    } else {
        format!("xcl_array_partition({kind}, {}, {})", p.factor, p.dim)
    };
    BankLayout {
        cyclic: p.kind != hir::PartitionKind::Block,
        banks: p.factor.min(extent).max(1),
        stride,
        extent,
        spelled: spelled.into(),
    }
}
