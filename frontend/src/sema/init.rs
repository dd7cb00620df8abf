//! Initializers: brace elision (C99 6.7.8), array designators, zero-filling of missing
//! elements, size inference for `T a[] = {...}`, and constant checking for `__constant` data.

use super::Sema;
use crate::ast;
use crate::diag::{Diagnostic, codes};
use crate::hir::{Expr, Init};
use crate::source::Span;
use crate::types::{Scalar, Type};
use std::rc::Rc;

pub(super) fn zero_init(ty: &Type, span: Span) -> Init {
    match ty {
        Type::Vector(s, n) => Init::List((0..*n).map(|_| Init::Expr(Expr::int(0, Type::Scalar(*s), span))).collect()),
        Type::Array(elem, Some(n)) => Init::List((0..*n).map(|_| zero_init(elem, span)).collect()),
        // A struct or union with no initializer list items: every member zero.
        Type::Record(_) => Init::List(vec![]),
        _ => Init::Expr(Expr::int(0, ty.clone(), span)),
    }
}

type Items<'a> = &'a [(Vec<ast::Designator>, ast::Initializer)];

impl Sema<'_> {
    /// `char s[] = "text";`: the characters and a terminating NUL (left out when the array
    /// has room for the characters only, as C allows).
    fn string_initializer(&mut self, ty: &mut Type, e: &ast::Expr) -> Init {
        let elem = match &*ty {
            Type::Array(elem, _) if matches!(**elem, Type::Scalar(Scalar::I8 | Scalar::U8)) => (**elem).clone(),
            _ => {
                self.err(
                    Diagnostic::error(
                        codes::UNSUPPORTED_STRING,
                        "kiln takes a string literal as the initializer of a `char` array and as `printf`'s format only",
                    )
                    .at(e.span),
                );
                *ty = Type::Error;
                return Init::List(vec![]);
            }
        };
        let Some(text) = self.string_literal(e) else {
            *ty = Type::Error;
            return Init::List(vec![]);
        };
        let mut bytes = text.into_bytes();
        let len = match &*ty {
            Type::Array(_, Some(n)) => *n,
            _ => bytes.len() as u32 + 1,
        };
        if bytes.len() as u64 > u64::from(len) {
            self.err(
                Diagnostic::error(
                    codes::BAD_INITIALIZER,
                    format!("the string has {} characters, more than the array's {len}", bytes.len()),
                )
                .at(e.span),
            );
        }
        bytes.resize(len as usize, 0);
        *ty = Type::Array(Rc::new(elem.clone()), Some(len));
        Init::List(bytes.into_iter().map(|b| Init::Expr(Expr::int(u64::from(b), elem.clone(), e.span))).collect())
    }

    /// Checks an initializer against `ty`, completing an incomplete array type from it.
    pub(super) fn initializer(&mut self, ty: &mut Type, init: &ast::Initializer, constant: bool) -> Init {
        if let ast::Initializer::Expr(e) = init
            && matches!(e.kind, ast::ExprKind::Str(_))
        {
            return self.string_initializer(ty, e);
        }
        if let (Type::Array(elem, None), ast::Initializer::List(items, span)) = (&*ty, init) {
            let elem = (**elem).clone();
            let count = self.count_elements(&elem, items);
            if count == 0 {
                self.err(Diagnostic::error(codes::BAD_ARRAY_SIZE, "an array cannot have zero elements").at(*span));
                *ty = Type::Error;
                return Init::List(vec![]);
            }
            *ty = Type::Array(Rc::new(elem), Some(count));
        }
        if let Type::Array(_, None) = ty {
            self.err(
                Diagnostic::error(
                    codes::INCOMPLETE_TYPE,
                    "an array of unknown size needs a brace-enclosed initializer",
                )
                .at(init.span()),
            );
            *ty = Type::Error;
            return Init::List(vec![]);
        }
        let ty = ty.clone();
        self.init_object(&ty, init, constant)
    }

    /// Number of top-level elements a list provides for an array of `elem` (with brace elision).
    fn count_elements(&mut self, elem: &Type, items: Items) -> u32 {
        let slots = scalar_slots(elem).max(1);
        let mut pos: u32 = 0;
        let mut max: u32 = 0;
        let mut flat_in_elem = 0u32;
        for (desig, it) in items {
            if let Some(ast::Designator::Index(e)) = desig.first()
                && let Some(v) = self.const_u32(e)
            {
                pos = v;
                flat_in_elem = 0;
            }
            match it {
                ast::Initializer::List(..) => {
                    if flat_in_elem > 0 {
                        pos += 1;
                        flat_in_elem = 0;
                    }
                    pos += 1;
                }
                ast::Initializer::Expr(_) => {
                    flat_in_elem += 1;
                    if flat_in_elem == slots {
                        pos += 1;
                        flat_in_elem = 0;
                    }
                }
            }
            max = max.max(pos + (flat_in_elem > 0) as u32);
        }
        max
    }

    fn init_object(&mut self, ty: &Type, init: &ast::Initializer, constant: bool) -> Init {
        match (ty, init) {
            (Type::Array(elem, Some(n)), ast::Initializer::List(items, span)) => {
                let mut pos = 0usize;
                self.init_array(elem, *n, items, &mut pos, constant, *span, true)
            }
            (Type::Array(..), ast::Initializer::Expr(e)) => {
                self.err(
                    Diagnostic::error(
                        codes::BAD_INITIALIZER,
                        "an array must be initialized with a brace-enclosed list",
                    )
                    .at(e.span),
                );
                Init::List(vec![])
            }
            (Type::Record(id), ast::Initializer::List(items, span)) => self.init_record(*id, items, constant, *span),
            (Type::Vector(elem, n), ast::Initializer::List(items, span)) => {
                if items.len() != *n as usize || items.iter().any(|(d, _)| !d.is_empty()) {
                    let msg = format!("a `{}{n}` takes exactly {n} initializers, without designators", elem.name());
                    self.err(Diagnostic::error(codes::BAD_INITIALIZER, msg).at(*span));
                    return zero_init(ty, *span);
                }
                let lane = Type::Scalar(*elem);
                let mut lanes: Vec<Init> = items.iter().map(|(_, i)| self.init_object(&lane, i, constant)).collect();
                lanes.resize_with(*n as usize, || Init::Expr(Expr::int(0, lane.clone(), *span)));
                Init::List(lanes)
            }
            (Type::Vector(elem, _), ast::Initializer::Expr(e)) if constant => {
                let x = self.rvalue(e);
                let x = self.assign_convert(x, ty, "initializer");
                if x.ty.is_error() {
                    return zero_init(ty, e.span);
                }
                match self.const_lanes(&x) {
                    Some(values) => Init::List(
                        values
                            .into_iter()
                            .map(|v| Init::Expr(super::consteval::constant_node(v, *elem, x.span)))
                            .collect(),
                    ),
                    None => {
                        self.err(
                            Diagnostic::error(codes::NOT_CONSTANT, "this initializer must be a constant expression")
                                .at(x.span),
                        );
                        zero_init(ty, e.span)
                    }
                }
            }
            (_, ast::Initializer::List(items, span)) => {
                // A scalar may be initialized from a one-element list.
                match items.as_slice() {
                    [(d, inner)] if d.is_empty() => self.init_object(ty, inner, constant),
                    [] => {
                        self.err(Diagnostic::error(codes::BAD_INITIALIZER, "empty initializer for a scalar").at(*span));
                        zero_init(ty, *span)
                    }
                    _ => {
                        self.err(
                            Diagnostic::error(codes::BAD_INITIALIZER, "too many initializers for a scalar").at(*span),
                        );
                        zero_init(ty, *span)
                    }
                }
            }
            (_, ast::Initializer::Expr(e)) => self.init_scalar(ty, e, constant),
        }
    }

    /// The lane values of a constant vector expression (a literal of constants, or a splat).
    fn const_lanes(&mut self, x: &Expr) -> Option<Vec<u64>> {
        let Type::Vector(elem, n) = x.ty else { return None };
        match &x.kind {
            crate::hir::ExprKind::VecLit(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    match p.ty {
                        Type::Vector(..) => out.extend(self.const_lanes(p)?),
                        _ => out.push(self.const_bits(p)?),
                    }
                }
                Some(out)
            }
            crate::hir::ExprKind::Convert(inner) if !inner.ty.is_vector() => {
                let v = self.const_bits(inner)?;
                let from = inner.ty.scalar()?;
                Some(vec![Self::convert_const_bits(v, from, elem); n as usize])
            }
            _ => None,
        }
    }

    fn init_scalar(&mut self, ty: &Type, e: &ast::Expr, constant: bool) -> Init {
        let x = self.rvalue(e);
        let x = self.assign_convert(x, ty, "initializer");
        if constant && !x.ty.is_error() {
            match self.const_expr(&x) {
                Some(c) => return Init::Expr(c),
                None => {
                    self.err(
                        Diagnostic::error(
                            codes::NOT_CONSTANT,
                            "the initializer of a `__constant` variable must be a constant",
                        )
                        .at(e.span),
                    );
                }
            }
        }
        Init::Expr(x)
    }

    /// Initializes an array of `n` `elem`s from `items[*pos..]`. With `braced`, the items are the
    /// whole brace-enclosed list of this array (extra items are an error); without, the array is
    /// a sub-object filled by brace elision and stops when full.
    #[allow(clippy::too_many_arguments)]
    fn init_array(
        &mut self,
        elem: &Type,
        n: u32,
        items: Items,
        pos: &mut usize,
        constant: bool,
        span: Span,
        braced: bool,
    ) -> Init {
        let mut slots: Vec<Option<Init>> = (0..n).map(|_| None).collect();
        let mut index = 0u32;
        while *pos < items.len() {
            let (desig, it) = &items[*pos];
            if !desig.is_empty() {
                if !braced {
                    break;
                }
                match desig.as_slice() {
                    [ast::Designator::Index(e)] => match self.const_u32(e) {
                        Some(v) if v < n => index = v,
                        _ => {
                            self.err(
                                Diagnostic::error(
                                    codes::BAD_INITIALIZER,
                                    format!("array designator is not a constant in 0..{n}"),
                                )
                                .at(e.span),
                            );
                            *pos += 1;
                            continue;
                        }
                    },
                    [ast::Designator::Field(name, s), ..] => {
                        self.err(
                            Diagnostic::error(
                                codes::BAD_INITIALIZER,
                                format!("field designator `.{name}` in an array initializer"),
                            )
                            .at(*s),
                        );
                        *pos += 1;
                        continue;
                    }
                    _ => {
                        self.err(
                            Diagnostic::error(codes::BAD_INITIALIZER, "nested designators are not supported")
                                .at(it.span()),
                        );
                        *pos += 1;
                        continue;
                    }
                }
            }
            if index >= n {
                if braced {
                    self.err(
                        Diagnostic::error(codes::BAD_INITIALIZER, format!("too many initializers for an array of {n}"))
                            .at(it.span()),
                    );
                    *pos = items.len();
                }
                break;
            }
            let value = match (elem, it) {
                (Type::Array(e2, Some(m)), ast::Initializer::List(sub, s)) => {
                    *pos += 1;
                    let mut p2 = 0;
                    self.init_array(e2, *m, sub, &mut p2, constant, *s, true)
                }
                (Type::Array(e2, Some(m)), ast::Initializer::Expr(_)) => {
                    // Brace elision: the sub-array takes as many items as it needs.
                    self.init_array(e2, *m, items, pos, constant, span, false)
                }
                _ => {
                    *pos += 1;
                    self.init_object(elem, it, constant)
                }
            };
            slots[index as usize] = Some(value);
            index += 1;
        }
        Init::List(slots.into_iter().map(|s| s.unwrap_or_else(|| zero_init(elem, span))).collect())
    }
}

fn scalar_slots(ty: &Type) -> u32 {
    match ty {
        Type::Vector(_, n) => u32::from(*n),
        Type::Array(e, Some(n)) => scalar_slots(e) * n,
        _ => 1,
    }
}
