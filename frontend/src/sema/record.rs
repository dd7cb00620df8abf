//! Structs and unions: tag declarations, the OpenCL C layout of their members (each member at
//! the next multiple of its alignment, the size a multiple of the largest alignment; `packed`
//! drops the padding, `aligned(N)` raises an alignment), member access and initializers.

use super::{Sema, Sym};
use crate::ast;
use crate::diag::{Diagnostic, codes};
use crate::hir::{self, Expr, ExprKind, Init};
use crate::source::Span;
use crate::types::{RecordId, Type};
use std::rc::Rc;

/// The key of a struct or union tag in the scope maps: tags live in their own name space, so
/// `struct S` and a variable `S` do not clash.
fn tag_key(name: &str, is_union: bool) -> Rc<str> {
    format!("{} {name}", if is_union { "union" } else { "struct" }).into()
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

impl Sema<'_> {
    /// The type a `struct`/`union` specifier names, declaring or defining its tag.
    pub(super) fn record_type(&mut self, r: &ast::RecordSpec, is_union: bool) -> Type {
        let key = r.name.as_ref().map(|(n, _)| tag_key(n, is_union));
        let Some(fields) = &r.fields else {
            // `struct S` without a body: the visible declaration, or a new incomplete one.
            if let Some(key) = &key
                && let Some(Sym::Tag(id)) = self.lookup(key)
            {
                return Type::Record(*id);
            }
            let id = self.new_record(r, is_union);
            if let Some(key) = key {
                self.scopes.last_mut().map(|s| s.insert(key, Sym::Tag(id)));
            }
            return Type::Record(id);
        };
        // A definition completes an incomplete declaration of the same scope, or is new.
        let existing = key.as_ref().and_then(|k| match self.scopes.last().and_then(|s| s.get(k)) {
            Some(Sym::Tag(id)) => Some(*id),
            _ => None,
        });
        let id = match existing {
            Some(id) if !self.prog.records[id.0 as usize].complete => id,
            Some(id) => {
                let prev = self.prog.records[id.0 as usize].span;
                let name = r.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_default();
                self.err(
                    Diagnostic::error(codes::REDEFINITION, format!("redefinition of `{name}`"))
                        .at(r.span)
                        .with_label(prev, "previous definition"),
                );
                return Type::Record(id);
            }
            None => {
                let id = self.new_record(r, is_union);
                if let Some(key) = key {
                    self.scopes.last_mut().map(|s| s.insert(key, Sym::Tag(id)));
                }
                id
            }
        };
        let members = self.record_members(fields);
        self.lay_out(id, members, &r.attrs, is_union, r.span);
        Type::Record(id)
    }

    fn new_record(&mut self, r: &ast::RecordSpec, is_union: bool) -> RecordId {
        let id = RecordId(self.prog.records.len() as u32);
        self.prog.records.push(hir::Record {
            name: r.name.as_ref().map(|(n, _)| n.clone()),
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
            span: r.span,
        });
        id
    }

    /// The members of a record body: name, type, explicit alignment, span.
    fn record_members(&mut self, fields: &[ast::FieldDecl]) -> Vec<(Rc<str>, Type, u32, Span)> {
        let mut out: Vec<(Rc<str>, Type, u32, Span)> = Vec::new();
        for f in fields {
            let base = self.base_type(&f.specs);
            // Bit-fields were reported by the feature gate; such a member is laid out as a whole
            // object so that nothing else is reported about it.
            for (d, _) in &f.declarators {
                let info = self.declarator_type(&base, &f.specs, d);
                let Some((name, span)) = info.name.clone() else { continue };
                if info.space.is_some_and(|s| s != ast::AddrSpace::Private) {
                    self.err(
                        Diagnostic::error(
                            codes::ADDRESS_SPACE,
                            format!("member `{name}` cannot have an address space qualifier"),
                        )
                        .at(span),
                    );
                }
                let ty = info.ty;
                if self.refuse_half(&ty, &format!("member `{name}`"), span) {
                    continue;
                }
                if out.iter().any(|(n, ..)| *n == name) {
                    self.err(Diagnostic::error(codes::REDEFINITION, format!("duplicate member `{name}`")).at(span));
                    continue;
                }
                if matches!(
                    ty,
                    Type::Function(_) | Type::Void | Type::Array(_, None) | Type::Pipe(..) | Type::Opaque(_)
                ) || (!ty.is_error() && super::decl::size_align(self, &ty).is_none())
                {
                    let msg = format!("member `{name}` has type `{}`, which has no size", self.show(&ty));
                    self.err(Diagnostic::error(codes::INCOMPLETE_TYPE, msg).at(span));
                    continue;
                }
                let explicit = self.aligned_attr(f.specs.attrs.iter().chain(&d.attrs));
                out.push((name, ty, explicit, span));
            }
        }
        out
    }

    /// The largest `aligned(N)` among `attrs` (`aligned` alone: the largest alignment, 128),
    /// or 0.
    fn aligned_attr<'a>(&mut self, attrs: impl Iterator<Item = &'a ast::Attribute>) -> u32 {
        let mut align = 0;
        for a in attrs.filter(|a| &*a.name == "aligned" || &*a.name == "__aligned__") {
            let n = match a.args.first() {
                None => 128,
                Some(ast::AttrArg::Expr(e)) => match self.const_u32(e) {
                    Some(n) if n.is_power_of_two() => n,
                    _ => {
                        self.err(Diagnostic::error(codes::BAD_ATTRIBUTE, "`aligned` takes a power of two").at(a.span));
                        continue;
                    }
                },
                Some(ast::AttrArg::Type(_)) => continue,
            };
            align = align.max(n);
        }
        align
    }

    fn lay_out(
        &mut self,
        id: RecordId,
        members: Vec<(Rc<str>, Type, u32, Span)>,
        attrs: &[ast::Attribute],
        is_union: bool,
        span: Span,
    ) {
        let packed = attrs.iter().any(|a| &*a.name == "packed" || &*a.name == "__packed__");
        let mut fields = Vec::new();
        let (mut size, mut align) = (0u32, 1u32);
        for (name, ty, explicit, _) in members {
            let (sz, natural) = super::decl::size_align(self, &ty).unwrap_or((0, 1));
            let a = if packed { explicit.max(1) } else { natural.max(explicit) };
            let offset = if is_union { 0 } else { align_up(size, a) };
            size = if is_union { size.max(sz) } else { offset + sz };
            align = align.max(a);
            fields.push(hir::Field { name, ty, offset });
        }
        if fields.is_empty() {
            self.err(Diagnostic::error(codes::INCOMPLETE_TYPE, "a struct or union needs at least one member").at(span));
        }
        align = align.max(self.aligned_attr(attrs.iter()));
        let rec = &mut self.prog.records[id.0 as usize];
        rec.fields = fields;
        rec.align = align;
        rec.size = align_up(size.max(1), align);
        rec.complete = true;
    }

    /// `base.name` (`arrow`: `base->name`, base already read as a pointer) on a struct or union.
    pub(super) fn record_member(&mut self, base: Expr, name: &str, nspan: Span, span: Span, arrow: bool) -> Expr {
        let object = if arrow {
            match &base.ty {
                Type::Pointer(p) => {
                    let ty = p.ty.clone();
                    Expr { kind: ExprKind::Deref(Box::new(base)), ty, span }
                }
                _ => {
                    let msg = format!("`->` needs a pointer to a struct or union, not `{}`", self.show(&base.ty));
                    self.err(Diagnostic::error(codes::NO_MEMBER, msg).at(nspan));
                    return super::expr::err_expr(span);
                }
            }
        } else {
            base
        };
        let Type::Record(id) = object.ty else {
            if !object.ty.is_error() {
                let msg = format!("`{}` has no member `{name}`", self.show(&object.ty));
                self.err(Diagnostic::error(codes::NO_MEMBER, msg).at(nspan));
            }
            return super::expr::err_expr(span);
        };
        let rec = &self.prog.records[id.0 as usize];
        if !rec.complete {
            let msg = format!("`{}` is incomplete: it has no members yet", self.show(&object.ty));
            self.err(Diagnostic::error(codes::INCOMPLETE_TYPE, msg).at(nspan));
            return super::expr::err_expr(span);
        }
        match rec.fields.iter().position(|f| &*f.name == name) {
            Some(i) => {
                let ty = rec.fields[i].ty.clone();
                Expr { kind: ExprKind::Member(Box::new(object), i as u32), ty, span }
            }
            None => {
                let msg = format!("`{}` has no member `{name}`", self.show(&object.ty));
                self.err(Diagnostic::error(codes::NO_MEMBER, msg).at(nspan));
                super::expr::err_expr(span)
            }
        }
    }

    /// A brace-enclosed initializer of a struct or union: members in order, or named with
    /// `.name =`; a union's list initializes its first member unless it names another.
    pub(super) fn init_record(
        &mut self,
        id: RecordId,
        items: &[(Vec<ast::Designator>, ast::Initializer)],
        constant: bool,
        span: Span,
    ) -> Init {
        let rec = self.prog.records[id.0 as usize].clone();
        let mut slots: Vec<Option<Init>> = rec.fields.iter().map(|_| None).collect();
        let mut next = 0usize;
        for (desig, it) in items {
            match desig.as_slice() {
                [] => {}
                [ast::Designator::Field(name, s)] => match rec.fields.iter().position(|f| f.name == *name) {
                    Some(i) => next = i,
                    None => {
                        let msg = format!("`{}` has no member `{name}`", self.show(&Type::Record(id)));
                        self.err(Diagnostic::error(codes::NO_MEMBER, msg).at(*s));
                        continue;
                    }
                },
                _ => {
                    self.err(
                        Diagnostic::error(codes::BAD_INITIALIZER, "this designator does not name a member")
                            .at(it.span()),
                    );
                    continue;
                }
            }
            if next >= rec.fields.len() || (rec.is_union && desig.is_empty() && next > 0) {
                self.err(Diagnostic::error(codes::BAD_INITIALIZER, "too many initializers").at(it.span()));
                break;
            }
            let mut ty = rec.fields[next].ty.clone();
            slots[next] = Some(self.initializer(&mut ty, it, constant));
            next += 1;
        }
        if rec.is_union {
            // A union keeps the one member its initializer names.
            let (i, init) = slots
                .iter_mut()
                .enumerate()
                .find_map(|(i, s)| s.take().map(|s| (i, s)))
                .unwrap_or_else(|| (0, super::init::zero_init(&rec.fields[0].ty, span)));
            return Init::Union(i as u32, Box::new(init));
        }
        Init::List(
            slots
                .into_iter()
                .zip(&rec.fields)
                .map(|(s, f)| s.unwrap_or_else(|| super::init::zero_init(&f.ty, span)))
                .collect(),
        )
    }
}
