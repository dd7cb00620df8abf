//! `printf`: the format is parsed and checked against its arguments here, once, into a
//! [`printf::Format`] that every engine renders the same way. `%s` of a string literal becomes
//! part of the format's text; a vector argument (`%v4hld`) becomes its lanes.

use super::Sema;
use super::expr::err_expr;
use crate::ast;
use crate::diag::{Diagnostic, codes};
use crate::hir::printf::{self, ArgKind, Conversion, Directive, Format, Piece};
use crate::hir::{Expr, ExprKind};
use crate::literal;
use crate::source::Span;
use crate::types::{INT, Scalar, Type};
use std::rc::Rc;

impl Sema<'_> {
    pub(super) fn printf(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let Some((format, rest)) = args.split_first() else {
            self.err(Diagnostic::error(codes::PRINTF_FORMAT, "`printf` needs a format string").at(span));
            return err_expr(span);
        };
        let Some(text) = self.string_literal(format) else {
            for a in rest {
                self.rvalue(a);
            }
            self.err(
                Diagnostic::error(codes::PRINTF_FORMAT, "the format of `printf` must be a string literal")
                    .at(format.span)
                    .with_note(
                        "OpenCL C requires a literal format (a `__constant char *` known when the kernel is built)",
                    ),
            );
            return err_expr(span);
        };
        let directives = match printf::parse(&text) {
            Ok(d) => d,
            Err(why) => {
                self.err(
                    Diagnostic::error(codes::PRINTF_FORMAT, format!("malformed `printf` format: {why}"))
                        .at(format.span),
                );
                return err_expr(span);
            }
        };
        let mut pieces: Vec<Piece> = Vec::new();
        let mut values: Vec<Expr> = Vec::new();
        let mut rest = rest.iter();
        let mut ok = true;
        for d in directives {
            let d = match d {
                Ok(text) => {
                    push_text(&mut pieces, &text);
                    continue;
                }
                Err(d) => d,
            };
            let Some(arg) = rest.next() else {
                self.err(
                    Diagnostic::error(codes::PRINTF_FORMAT, format!("the format's `%{}` has no argument", d.conv))
                        .at(format.span),
                );
                return err_expr(span);
            };
            match self.printf_argument(&d, arg) {
                Some(Printed::Text(text)) => push_text(&mut pieces, &text),
                Some(Printed::Values(conversion, lanes)) => {
                    pieces.push(Piece::Conversion(conversion));
                    values.extend(lanes);
                }
                None => ok = false,
            }
        }
        for extra in rest {
            self.rvalue(extra);
            self.err(
                Diagnostic::warning(codes::PRINTF_FORMAT, "this `printf` argument has no conversion in the format")
                    .at(extra.span),
            );
        }
        if !ok {
            return err_expr(span);
        }
        Expr { kind: ExprKind::Printf(Rc::new(Format { pieces }), values), ty: INT, span }
    }

    /// The decoded text of a string literal (`"a" "b"` concatenated), or `None` when `e` is not
    /// one.
    pub(super) fn string_literal(&mut self, e: &ast::Expr) -> Option<String> {
        match &e.kind {
            ast::ExprKind::Paren(inner) => self.string_literal(inner),
            ast::ExprKind::Str(parts) => {
                let mut bytes = Vec::new();
                for p in parts {
                    let body = p.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(p);
                    match literal::unescape(body) {
                        Ok(b) => bytes.extend(b),
                        Err(m) => {
                            self.err(Diagnostic::error(codes::BAD_LITERAL, m).at(e.span));
                            return None;
                        }
                    }
                }
                Some(String::from_utf8_lossy(&bytes).into_owned())
            }
            _ => None,
        }
    }

    /// One conversion and its argument: the text it prints when that is known now (`%s`), or
    /// the conversion with its argument's values.
    fn printf_argument(&mut self, d: &Directive, arg: &ast::Expr) -> Option<Printed> {
        let bad = |s: &mut Self, msg: String| {
            s.err(Diagnostic::error(codes::PRINTF_FORMAT, msg).at(arg.span));
            None
        };
        if d.conv == 's' {
            let Some(text) = self.string_literal(arg) else {
                self.rvalue(arg);
                return bad(self, "kiln prints a `%s` of a string literal only".into());
            };
            let text = match d.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text,
            };
            let fill = d.width.unwrap_or(0).saturating_sub(text.chars().count());
            let pad = " ".repeat(fill);
            return Some(Printed::Text(if d.flags.left { format!("{text}{pad}") } else { format!("{pad}{text}") }));
        }
        let x = self.rvalue(arg);
        if x.ty.is_error() {
            return None;
        }
        if d.conv == 'p' {
            return bad(self, "kiln does not print pointers (`%p`): a pointer has no address in hardware".into());
        }
        let lanes = d.vector.unwrap_or(1);
        let elem = match (&x.ty, d.vector) {
            (Type::Scalar(s), None) => *s,
            (Type::Vector(s, n), Some(v)) if *n == v => *s,
            (t, _) => {
                let want = match d.vector {
                    Some(n) => format!("a vector of {n} elements"),
                    None => "a scalar".into(),
                };
                let shown = self.show(t);
                return bad(self, format!("`%{}` needs {want}, found `{shown}`", d.conv));
            }
        };
        let float_conv = "fFeEgGaA".contains(d.conv);
        if float_conv != elem.is_float() {
            let shown = self.show(&x.ty);
            let want = if float_conv { "a `float`" } else { "an integer" };
            return bad(self, format!("`%{}` needs {want} argument, found `{shown}`", d.conv));
        }
        if elem == Scalar::F16 || elem == Scalar::F64 {
            let shown = self.show(&x.ty);
            return bad(self, format!("kiln prints `float` values; this is `{shown}`"));
        }
        let (arg_kind, lane_ty) = if float_conv {
            (ArgKind::Float, Scalar::F32)
        } else {
            // The length modifier says how the argument is read (C's promotions make `%hhd` of
            // an `int` print its low byte); for a vector it must match the element width.
            let bits = d.length_bits.unwrap_or(32);
            if d.vector.is_some() && bits != elem.bits() {
                let shown = self.show(&x.ty);
                return bad(
                    self,
                    format!(
                        "the length modifier of `%v{lanes}...{}` is for {bits}-bit elements, found `{shown}`",
                        d.conv
                    ),
                );
            }
            let signed = matches!(d.conv, 'd' | 'i' | 'c');
            let s = int_scalar(bits, signed);
            (if signed { ArgKind::Signed(bits) } else { ArgKind::Unsigned(bits) }, s)
        };
        let span = x.span;
        let values: Vec<Expr> = if d.vector.is_some() {
            let vty = Type::Vector(lane_ty, lanes);
            let v = self.convert(x, &vty);
            (0..lanes)
                .map(|i| Expr {
                    kind: ExprKind::Swizzle(Box::new(v.clone()), vec![i]),
                    ty: Type::Scalar(lane_ty),
                    span,
                })
                .collect()
        } else {
            vec![self.convert(x, &Type::Scalar(lane_ty))]
        };
        let conversion =
            Conversion { flags: d.flags, width: d.width, precision: d.precision, conv: d.conv, arg: arg_kind, lanes };
        Some(Printed::Values(conversion, values))
    }
}

/// What one conversion of a format contributes.
enum Printed {
    /// Text known when the kernel is built (`%s` of a string literal).
    Text(String),
    /// A conversion and the scalar values it prints.
    Values(Conversion, Vec<Expr>),
}

fn int_scalar(bits: u32, signed: bool) -> Scalar {
    match (bits, signed) {
        (8, true) => Scalar::I8,
        (8, false) => Scalar::U8,
        (16, true) => Scalar::I16,
        (16, false) => Scalar::U16,
        (64, true) => Scalar::I64,
        (64, false) => Scalar::U64,
        (_, true) => Scalar::I32,
        (_, false) => Scalar::U32,
    }
}

fn push_text(pieces: &mut Vec<Piece>, text: &str) {
    match pieces.last_mut() {
        Some(Piece::Text(t)) => t.push_str(text),
        _ => pieces.push(Piece::Text(text.to_string())),
    }
}
