//! Atomic built-ins lowered to a read and a write of the object's memory element.
//!
//! An atomic operation is a `Load` of the element, the new value computed from it, and a
//! `Store` back — plain memory operations, so the emulator, the simulator and the Verilog need
//! nothing new. What makes them atomic is ordering: the memory is marked
//! [`MemData::atomic`], so the scheduler keeps every dependence between its accesses — across
//! work-items and across iterations, even under `#pragma ivdep` — and a pipelined loop never
//! reads an element before an earlier iteration's write of it has landed.

use super::*;
use kiln_hir::{AtomicArith, AtomicOp};

impl Lowerer<'_> {
    pub(super) fn atomic(&mut self, op: AtomicOp, ptr: &hir::Expr, args: &[hir::Expr], span: Span) -> RV {
        let signed = ptr.ty.pointee().and_then(|p| match p.ty {
            Type::Scalar(s) | Type::Atomic(s) => Some(s.is_signed()),
            _ => None,
        });
        let Some(signed) = signed else { return RV::Void };
        let Some(target) = self.pointer(ptr) else { return RV::Void };
        let Some(mem) = target.mem else {
            self.error(Diagnostic::error(codes::AMBIGUOUS_POINTER, "atomic operation on a null pointer").at(span));
            return RV::Void;
        };
        // Operands first, so that nothing is evaluated between the read and the write.
        let mut operands = Vec::new();
        let mut expected = None;
        for a in args {
            if a.ty.is_pointer() {
                let Some(p) = self.pointer(a) else { return RV::Void };
                let Some(m) = p.mem else {
                    self.error(Diagnostic::error(codes::AMBIGUOUS_POINTER, "`expected` is a null pointer").at(a.span));
                    return RV::Void;
                };
                expected = Some(Place::Mem { mem: m, index: p.index });
            } else {
                let Some(v) = self.value(a) else { return RV::Void };
                operands.push(v);
            }
        }
        if op != AtomicOp::Load && self.k.mems[mem].is_read_only() {
            self.error(Diagnostic::error(codes::CONSTANT_RULE, "atomic update of read-only memory").at(span));
            return RV::Void;
        }
        self.k.mems[mem].atomic = true;
        let w = self.k.mems[mem].elem_width;
        let index = target.index;
        let operand = |i: usize| operands.get(i).copied();
        if op == AtomicOp::Store {
            // A plain write: `atomic_init` may be the object's first write.
            if let Some(v) = operand(0) {
                self.k.push_op(self.cur, OpKind::Store(mem), vec![index, v], None, span);
            }
            return RV::Void;
        }
        let old = self.emit(OpKind::Load(mem), vec![index], w, span);
        let (new, result) = match op {
            AtomicOp::Load | AtomicOp::Store => return RV::Val(old),
            AtomicOp::Exchange => {
                let Some(v) = operand(0) else { return RV::Void };
                (v, RV::Val(old))
            }
            AtomicOp::Inc | AtomicOp::Dec => {
                let one = self.konst(1, w, span);
                let bin = if op == AtomicOp::Inc { BinOp::Add } else { BinOp::Sub };
                (self.emit(OpKind::Binary(bin), vec![old, one], w, span), RV::Val(old))
            }
            AtomicOp::Fetch(arith) => {
                let Some(v) = operand(0) else { return RV::Void };
                let new = match arith {
                    AtomicArith::Add => self.emit(OpKind::Binary(BinOp::Add), vec![old, v], w, span),
                    AtomicArith::Sub => self.emit(OpKind::Binary(BinOp::Sub), vec![old, v], w, span),
                    AtomicArith::And => self.emit(OpKind::Binary(BinOp::And), vec![old, v], w, span),
                    AtomicArith::Or => self.emit(OpKind::Binary(BinOp::Or), vec![old, v], w, span),
                    AtomicArith::Xor => self.emit(OpKind::Binary(BinOp::Xor), vec![old, v], w, span),
                    AtomicArith::Min | AtomicArith::Max => {
                        let lt = if signed { CmpOp::Slt } else { CmpOp::Ult };
                        let v_lt_old = self.emit(OpKind::Cmp(lt), vec![v, old], 1, span);
                        let (yes, no) = if arith == AtomicArith::Min { (v, old) } else { (old, v) };
                        self.emit(OpKind::Select, vec![v_lt_old, yes, no], w, span)
                    }
                };
                (new, RV::Val(old))
            }
            AtomicOp::CmpXchg => {
                let (Some(cmp), Some(v)) = (operand(0), operand(1)) else { return RV::Void };
                let eq = self.emit(OpKind::Cmp(CmpOp::Eq), vec![old, cmp], 1, span);
                (self.emit(OpKind::Select, vec![eq, v, old], w, span), RV::Val(old))
            }
            AtomicOp::CompareExchange => {
                let (Some(place), Some(desired)) = (expected, operand(0)) else { return RV::Void };
                let RV::Val(want) = self.read_place(&place, &Type::Scalar(Scalar::I32), span) else { return RV::Void };
                let eq = self.emit(OpKind::Cmp(CmpOp::Eq), vec![old, want], 1, span);
                let new = self.emit(OpKind::Select, vec![eq, desired, old], w, span);
                // On failure `*expected` receives the value found; on success it keeps its own.
                let seen = self.emit(OpKind::Select, vec![eq, want, old], w, span);
                self.k.push_op(self.cur, OpKind::Store(mem), vec![index, new], None, span);
                self.write_place(&place, RV::Val(seen), span);
                return RV::Val(eq);
            }
            AtomicOp::TestAndSet => {
                let one = self.konst(1, w, span);
                let zero = self.konst(0, w, span);
                (one, RV::Val(self.emit(OpKind::Cmp(CmpOp::Ne), vec![old, zero], 1, span)))
            }
        };
        self.k.push_op(self.cur, OpKind::Store(mem), vec![index, new], None, span);
        result
    }
}
