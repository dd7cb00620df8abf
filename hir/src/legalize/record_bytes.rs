//! Structs in `__global` and `__constant` buffers, for the `records` pass: such a buffer is its
//! bytes in OpenCL's layout (the host's), reached through a byte pointer, and a member is read
//! by assembling its bytes little-endian and written byte by byte, so neighbouring members
//! written by other work-items are never touched (no read-modify-write of a wider word). The
//! `port-width` pass later gives the buffer's port words of several bytes when every access's
//! word is known, and `widen` merges the bytes of a member into one request with byte enables.

use crate::build::binary;
pub(super) use crate::build::convert;
use crate::types::{INT, Pointee, SIZE_T, Scalar, Type, vector_layout};
use crate::{BinaryOp, Expr, ExprKind as K, Program, Record};
use kiln_diagnostics::Span;
use std::rc::Rc;

/// Size in bytes of a complete object type (as sema laid it out), if it has one.
pub(super) fn size_of(prog: &Program, ty: &Type) -> Option<u32> {
    match ty {
        Type::Scalar(s) => Some(s.size()),
        Type::Vector(s, n) => Some(vector_layout(*s, *n).0),
        Type::Array(e, Some(n)) => size_of(prog, e)?.checked_mul(*n),
        Type::Record(r) => prog.records.get(r.0 as usize).map(|r| r.size),
        Type::Pointer(_) => Some(4),
        _ => None,
    }
}

/// One scalar or vector inside a record type: the member path to its leaf, the indices of
/// the arrays of records on the way, the indices inside an array member, its byte offset.
#[derive(Clone, Debug)]
pub struct Element {
    pub path: Vec<u32>,
    pub record_indices: Vec<u32>,
    pub member_indices: Vec<u32>,
    pub offset: u32,
    pub ty: Type,
}

/// How a union is stored: when its members are scalars of one size, as its first member (the
/// others read and write its bits); otherwise as its bytes, `uchar[size]`, which every member
/// reads and writes through their positions like a member of a struct in a buffer.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum UnionStorage {
    FirstMember(Type),
    Bytes(u32),
}

pub(super) fn union_storage(rec: &Record) -> UnionStorage {
    let size = |t: &Type| match t {
        Type::Scalar(s) => Some(s.size()),
        _ => None,
    };
    match rec.fields.first() {
        Some(first) if size(&first.ty).is_some() && rec.fields.iter().all(|f| size(&f.ty) == size(&first.ty)) => {
            UnionStorage::FirstMember(first.ty.clone())
        }
        _ => UnionStorage::Bytes(rec.size),
    }
}

impl UnionStorage {
    /// The type of the variable that holds the union.
    pub(super) fn ty(&self) -> Type {
        match self {
            UnionStorage::FirstMember(t) => t.clone(),
            UnionStorage::Bytes(n) => Type::Array(Rc::new(Type::Scalar(Scalar::U8)), Some(*n)),
        }
    }
}

/// Every scalar and vector element of a value of type `ty` (a union: its storage, see
/// [`union_storage`]).
pub fn elements(prog: &Program, ty: &Type) -> Vec<Element> {
    let mut out = Vec::new();
    walk(prog, ty, 0, &mut Vec::new(), &mut Vec::new(), &mut out);
    out
}

fn walk(prog: &Program, ty: &Type, offset: u32, path: &mut Vec<u32>, idx: &mut Vec<u32>, out: &mut Vec<Element>) {
    match ty {
        Type::Record(r) => {
            let rec = &prog.records[r.0 as usize];
            if rec.is_union {
                path.push(0);
                let storage = union_storage(rec).ty();
                walk(prog, &storage, offset, path, idx, out);
                path.pop();
                return;
            }
            for (i, f) in rec.fields.iter().enumerate() {
                path.push(i as u32);
                walk(prog, &f.ty, offset + f.offset, path, idx, out);
                path.pop();
            }
        }
        Type::Array(elem, Some(n)) if matches!(strip(elem), Type::Record(_)) => {
            let size = size_of(prog, elem).unwrap_or(0);
            for k in 0..*n {
                idx.push(k);
                walk(prog, elem, offset + k * size, path, idx, out);
                idx.pop();
            }
        }
        _ => member_elements(
            prog,
            ty,
            offset,
            &mut Vec::new(),
            &Element {
                path: path.clone(),
                record_indices: idx.clone(),
                member_indices: vec![],
                offset,
                ty: ty.clone(),
            },
            out,
        ),
    }
}

fn member_elements(prog: &Program, ty: &Type, offset: u32, idx: &mut Vec<u32>, leaf: &Element, out: &mut Vec<Element>) {
    if let Type::Array(elem, Some(n)) = ty {
        let size = size_of(prog, elem).unwrap_or(0);
        for k in 0..*n {
            idx.push(k);
            member_elements(prog, elem, offset + k * size, idx, leaf, out);
            idx.pop();
        }
        return;
    }
    out.push(Element { member_indices: idx.clone(), offset, ty: ty.clone(), ..leaf.clone() });
}

fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Array(e, _) => strip(e),
        t => t,
    }
}

pub(super) fn uint_of_size(bytes: u32) -> Option<Scalar> {
    Some(match bytes {
        1 => Scalar::U8,
        2 => Scalar::U16,
        4 => Scalar::U32,
        8 => Scalar::U64,
        _ => return None,
    })
}

/// The byte offset `base + k`.
pub(super) fn offset_plus(base: &Expr, k: u32, span: Span) -> Expr {
    if k == 0 {
        return base.clone();
    }
    binary(BinaryOp::Add, base.clone(), Expr::int(u64::from(k), SIZE_T, span), SIZE_T)
}

/// `bytes[offset + k]`, an l-value of type `uchar`.
pub(super) fn byte(bytes: &Expr, offset: &Expr, k: u32, span: Span) -> Expr {
    let at = offset_plus(offset, k, span);
    let ptr = Expr { kind: K::PtrAdd(Box::new(bytes.clone()), Box::new(at)), ty: bytes.ty.clone(), span };
    Expr { kind: K::Deref(Box::new(ptr)), ty: Type::Scalar(Scalar::U8), span }
}

/// The value of type `ty` (a scalar or vector) stored at `bytes[offset..]`; `None` for other
/// types.
pub(super) fn read(bytes: &Expr, offset: &Expr, ty: &Type, span: Span) -> Option<Expr> {
    match ty {
        Type::Vector(s, n) => {
            let lanes = (0..u32::from(*n))
                .map(|j| {
                    let at = offset_plus(offset, j * s.size(), span);
                    read(bytes, &at, &Type::Scalar(*s), span)
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Expr { kind: K::VecLit(lanes), ty: ty.clone(), span })
        }
        Type::Scalar(Scalar::Bool) => Some(convert(byte(bytes, offset, 0, span), ty)),
        Type::Scalar(s) => {
            let u = Type::Scalar(uint_of_size(s.size())?);
            let mut acc = convert(byte(bytes, offset, 0, span), &u);
            for k in 1..s.size() {
                let part = convert(byte(bytes, offset, k, span), &u);
                let shifted = binary(BinaryOp::Shl, part, Expr::int(u64::from(8 * k), INT, span), u.clone());
                acc = binary(BinaryOp::Or, acc, shifted, u.clone());
            }
            Some(if s.is_float() {
                Expr { kind: K::Bitcast(Box::new(acc)), ty: ty.clone(), span }
            } else {
                convert(acc, ty)
            })
        }
        _ => None,
    }
}

/// Assignments storing `value` (an expression without effects, of type `ty`, a scalar or
/// vector) at `bytes[offset..]`, one byte each; `None` for other types.
pub(super) fn write(bytes: &Expr, offset: &Expr, value: &Expr, ty: &Type, span: Span) -> Option<Vec<Expr>> {
    match ty {
        Type::Vector(s, n) => {
            let mut out = Vec::new();
            for j in 0..*n {
                let at = offset_plus(offset, u32::from(j) * s.size(), span);
                let lane = Expr { kind: K::Swizzle(Box::new(value.clone()), vec![j]), ty: Type::Scalar(*s), span };
                out.extend(write(bytes, &at, &lane, &Type::Scalar(*s), span)?);
            }
            Some(out)
        }
        Type::Scalar(s) => {
            let u = Type::Scalar(uint_of_size(s.size())?);
            let bits = if s.is_float() {
                Expr { kind: K::Bitcast(Box::new(value.clone())), ty: u.clone(), span }
            } else {
                convert(value.clone(), &u)
            };
            let uchar = Type::Scalar(Scalar::U8);
            Some(
                (0..s.size())
                    .map(|k| {
                        let part = if k == 0 {
                            bits.clone()
                        } else {
                            binary(BinaryOp::Shr, bits.clone(), Expr::int(u64::from(8 * k), INT, span), u.clone())
                        };
                        let target = byte(bytes, offset, k, span);
                        Expr {
                            kind: K::Assign(Box::new(target), Box::new(convert(part, &uchar))),
                            ty: uchar.clone(),
                            span,
                        }
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The byte pointer type that replaces a pointer to records in `space`.
pub(super) fn byte_pointer(to: &Pointee) -> Type {
    Type::Pointer(Rc::new(Pointee { ty: Type::Scalar(Scalar::U8), space: to.space, quals: to.quals }))
}
