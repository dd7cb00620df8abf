//! One builder of HIR nodes for the passes that rewrite the program: each node is made here,
//! with its type stated by the caller, so that a rewrite reads as the code it produces.

use crate::types::{AddrSpace, INT, Pointee, SIZE_T, Type};
use crate::{BinaryOp, Expr, ExprKind as K, Function, Local, LocalId, Stmt};
use kiln_diagnostics::Span;
use std::rc::Rc;

/// A node of kind `kind` and type `ty`.
pub fn node(kind: K, ty: Type, span: Span) -> Expr {
    Expr { kind, ty, span }
}

/// The local variable `id` of type `ty`.
/// A new private variable of `f` (a pass's temporary), with the dependence distance of its
/// accesses across iterations when it has one.
pub fn new_private_local(f: &mut Function, name: String, ty: Type, span: Span, distance: Option<u32>) -> LocalId {
    f.locals.push(Local {
        name: name.into(),
        ty,
        space: AddrSpace::Private,
        quals: Default::default(),
        is_param: false,
        partition: None,
        lane_of: None,
        dependence_distance: distance,
        span,
    });
    LocalId(f.locals.len() as u32 - 1)
}

pub fn local(id: LocalId, ty: Type, span: Span) -> Expr {
    node(K::Local(id), ty, span)
}

/// `a op b` of type `ty`, at `a`'s span.
pub fn binary(op: BinaryOp, a: Expr, b: Expr, ty: Type) -> Expr {
    let span = a.span;
    node(K::Binary(op, Box::new(a), Box::new(b)), ty, span)
}

/// `place = value`, of `place`'s type.
pub fn assign(place: Expr, value: Expr) -> Expr {
    let (ty, span) = (place.ty.clone(), place.span);
    node(K::Assign(Box::new(place), Box::new(value)), ty, span)
}

/// `place = value;` as a statement.
pub fn assign_stmt(place: Expr, value: Expr) -> Stmt {
    Stmt::Expr(assign(place, value))
}

/// `a && b` (an `int`).
pub fn log_and(a: Expr, b: Expr) -> Expr {
    let span = a.span;
    node(K::LogAnd(Box::new(a), Box::new(b)), INT, span)
}

/// `e` converted to `to`; `e` itself when it has that type already.
pub fn convert(e: Expr, to: &Type) -> Expr {
    if e.ty == *to {
        return e;
    }
    let span = e.span;
    node(K::Convert(Box::new(e)), to.clone(), span)
}

/// The `size_t` constant `v`.
pub fn size_t(v: u64, span: Span) -> Expr {
    Expr::int(v, SIZE_T, span)
}

/// `array[i]` of an array l-value in address space `space`: `*(decay(array) + i)`.
pub fn element(array: Expr, i: Expr, space: AddrSpace) -> Expr {
    let span = array.span;
    let Type::Array(elem, _) = array.ty.clone() else { return array };
    let ptr = Type::Pointer(Rc::new(Pointee { ty: (*elem).clone(), space, quals: Default::default() }));
    let decayed = node(K::Decay(Box::new(array)), ptr.clone(), span);
    let at = node(K::PtrAdd(Box::new(decayed), Box::new(i)), ptr, span);
    node(K::Deref(Box::new(at)), (*elem).clone(), span)
}
