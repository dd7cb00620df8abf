//! Turning declaration specifiers and declarators into types.

use super::{Sema, Sym};
use crate::ast::{self, AddrSpace, DerivedPart, Quals, TypeWord};
use crate::diag::{Diagnostic, codes};
use crate::types::{FnSig, Pointee, Scalar, Type};
use std::rc::Rc;

/// What a declarator declares.
#[derive(Clone, Debug)]
pub(super) struct DeclInfo {
    pub name: Option<(Rc<str>, crate::source::Span)>,
    pub ty: Type,
    /// Qualifiers of the declared object itself.
    pub quals: Quals,
    /// Address space of the declared object itself, if written.
    pub space: Option<AddrSpace>,
}

/// Size and alignment in bytes of a complete object type, if it has one.
pub(super) fn size_align(s: &Sema, ty: &Type) -> Option<(u32, u32)> {
    Some(match ty {
        Type::Scalar(sc) => (sc.size(), sc.size()),
        Type::Vector(sc, n) => crate::types::vector_layout(*sc, *n),
        Type::Pointer(_) => (4, 4),
        Type::Array(t, Some(n)) => {
            let (sz, al) = size_align(s, t)?;
            (sz.checked_mul(*n)?, al)
        }
        Type::Record(r) => {
            let rec = s.prog.records.get(r.0 as usize).filter(|r| r.complete)?;
            (rec.size, rec.align)
        }
        _ => return None,
    })
}

impl Sema<'_> {
    /// The base type named by declaration specifiers (without declarator parts).
    pub(super) fn base_type(&mut self, specs: &ast::DeclSpecs) -> Type {
        match &specs.ty {
            ast::TypeSpec::Words(words) => self.words_type(words, specs.span),
            ast::TypeSpec::Named(name, span) => match self.lookup(name) {
                Some(Sym::Typedef { ty, .. }) => ty.clone(),
                _ => match self.builtin_type(name) {
                    Some(t) => t,
                    None => {
                        self.err(
                            Diagnostic::error(codes::EXPECTED_TYPE, format!("unknown type name `{name}`")).at(*span),
                        );
                        Type::Error
                    }
                },
            },
            ast::TypeSpec::Enum(e) => {
                self.enum_decl(e);
                Type::Scalar(Scalar::I32)
            }
            ast::TypeSpec::Atomic(inner, span) => {
                let (ty, _, _) = self.type_name(inner);
                match ty {
                    Type::Scalar(s) if s.size() >= 4 && s != Scalar::F16 => Type::Atomic(s),
                    Type::Error => Type::Error,
                    other => {
                        let shown = self.show(&other);
                        self.err(
                            Diagnostic::error(codes::ATOMIC_RULE, format!("`_Atomic({shown})` has no atomic form"))
                                .at(*span)
                                .with_note("OpenCL C has atomic `int`, `uint`, `long`, `ulong`, `float` and `double`"),
                        );
                        Type::Error
                    }
                }
            }
            ast::TypeSpec::Struct(r) => self.record_type(r, false),
            ast::TypeSpec::Union(r) => self.record_type(r, true),
            ast::TypeSpec::Pipe(inner, channel, span) => self.pipe_type(inner, *channel, specs.access, *span),
        }
    }

    fn words_type(&mut self, words: &[(TypeWord, crate::source::Span)], span: crate::source::Span) -> Type {
        if words.is_empty() {
            self.err(
                Diagnostic::error(codes::EXPECTED_TYPE, "a type specifier is required (implicit int is not allowed)")
                    .at(span),
            );
            return Type::Error;
        }
        let count = |w: TypeWord| words.iter().filter(|(x, _)| *x == w).count();
        let first_span = words[0].1;
        let all_span = words.iter().fold(first_span, |s, (_, w)| s.to(*w));
        if count(TypeWord::Complex) > 0 || count(TypeWord::Imaginary) > 0 {
            self.err(
                Diagnostic::error(codes::RESERVED_TYPE, "`complex` and `imaginary` types are reserved in OpenCL C")
                    .at(all_span),
            );
            return Type::Error;
        }
        if count(TypeWord::Long) > 1 {
            self.err(
                Diagnostic::error(codes::RESERVED_TYPE, "`long long` is a reserved type in OpenCL C").at(all_span),
            );
            return Type::Error;
        }
        let signed = count(TypeWord::Signed);
        let unsigned = count(TypeWord::Unsigned);
        if signed + unsigned > 1 {
            self.err(
                Diagnostic::error(codes::BAD_SPECIFIERS, "conflicting `signed`/`unsigned` specifiers").at(all_span),
            );
            return Type::Error;
        }
        let base: Vec<TypeWord> =
            words.iter().map(|(w, _)| *w).filter(|w| !matches!(w, TypeWord::Signed | TypeWord::Unsigned)).collect();
        let bad = |s: &mut Self| {
            s.err(Diagnostic::error(codes::BAD_SPECIFIERS, "invalid combination of type specifiers").at(all_span));
            Type::Error
        };
        let int_of = |signed_ty: Scalar| if unsigned == 1 { signed_ty.to_unsigned() } else { signed_ty };
        match base.as_slice() {
            [] | [TypeWord::Int] => Type::Scalar(int_of(Scalar::I32)),
            [TypeWord::Char] => Type::Scalar(int_of(Scalar::I8)),
            [TypeWord::Short] | [TypeWord::Short, TypeWord::Int] | [TypeWord::Int, TypeWord::Short] => {
                Type::Scalar(int_of(Scalar::I16))
            }
            [TypeWord::Long] | [TypeWord::Long, TypeWord::Int] | [TypeWord::Int, TypeWord::Long] => {
                Type::Scalar(int_of(Scalar::I64))
            }
            _ if signed + unsigned > 0 => bad(self),
            [TypeWord::Void] => Type::Void,
            [TypeWord::Bool] => Type::Scalar(Scalar::Bool),
            [TypeWord::Float] => Type::Scalar(Scalar::F32),
            [TypeWord::Double] => Type::Scalar(Scalar::F64),
            [TypeWord::Half] => Type::Scalar(Scalar::F16),
            _ => bad(self),
        }
    }

    fn enum_decl(&mut self, e: &ast::EnumSpec) {
        let Some(variants) = &e.variants else { return };
        let mut next: i64 = 0;
        for (name, span, value) in variants {
            if let Some(v) = value {
                let hv = self.rvalue(v);
                match self.const_value(&hv) {
                    Some(c) => next = c as i64,
                    None => self.err(
                        Diagnostic::error(
                            codes::NOT_CONSTANT,
                            format!("the value of enumerator `{name}` is not an integer constant"),
                        )
                        .at(v.span),
                    ),
                }
            }
            if next < i32::MIN as i64 || next > u32::MAX as i64 {
                self.err(
                    Diagnostic::error(
                        codes::BAD_LITERAL,
                        format!("enumerator `{name}` value {next} does not fit in `int`"),
                    )
                    .at(*span),
                );
            }
            self.bind(name, *span, Sym::EnumConst(next as i32 as i64 as u64));
            next = next.wrapping_add(1);
        }
    }

    /// Applies a declarator to a base type.
    pub(super) fn declarator_type(&mut self, base: &Type, specs: &ast::DeclSpecs, d: &ast::Declarator) -> DeclInfo {
        let mut ty = base.clone();
        let mut quals = specs.quals;
        let mut space: Option<AddrSpace> = specs.addr_space.map(|(a, _)| a);
        if let ast::TypeSpec::Named(n, _) = &specs.ty
            && let Some(Sym::Typedef { quals: tq, space: ts, .. }) = self.lookup(n)
        {
            quals.is_const |= tq.is_const;
            quals.is_volatile |= tq.is_volatile;
            if space.is_none() {
                space = *ts;
            }
        }
        for part in &d.derived {
            match part {
                DerivedPart::Pointer { quals: pq, addr_space, .. } => {
                    if matches!(ty, Type::Function(_)) {
                        let span = d.name.as_ref().map(|n| n.1).unwrap_or(d.span);
                        self.err(
                            Diagnostic::error(
                                codes::FUNCTION_POINTER,
                                "pointers to functions are not allowed in OpenCL C",
                            )
                            .at(span),
                        );
                        ty = Type::Error;
                        continue;
                    }
                    let pointee_space = space.unwrap_or_else(|| self.default_pointee_space());
                    ty = Type::Pointer(Rc::new(Pointee { ty, space: pointee_space, quals }));
                    quals = *pq;
                    space = addr_space.map(|(a, _)| a);
                }
                DerivedPart::Block { span } => {
                    self.err(
                        Diagnostic::error(codes::NOT_ON_FPGA, "blocks are not supported on FPGA targets").at(*span),
                    );
                    ty = Type::Error;
                }
                DerivedPart::Array { size, span } => {
                    if matches!(ty, Type::Void) {
                        self.err(Diagnostic::error(codes::VOID_USE, "array of `void`").at(*span));
                        ty = Type::Error;
                        continue;
                    }
                    if matches!(ty, Type::Function(_)) {
                        self.err(Diagnostic::error(codes::FUNCTION_POINTER, "array of functions").at(*span));
                        ty = Type::Error;
                        continue;
                    }
                    let n = match size {
                        None => None,
                        Some(e) => match self.array_size(e) {
                            Some(n) => Some(n),
                            None => {
                                ty = Type::Error;
                                continue;
                            }
                        },
                    };
                    ty = Type::Array(Rc::new(ty), n);
                }
                DerivedPart::Function { params, span, .. } => {
                    if matches!(ty, Type::Array(..) | Type::Function(_)) {
                        self.err(
                            Diagnostic::error(codes::BAD_DECLARATOR, "a function cannot return an array or a function")
                                .at(*span),
                        );
                        ty = Type::Error;
                    }
                    if let Some(sp) = space.filter(|_| !ty.is_pointer())
                        && (sp != AddrSpace::Private || specs.addr_space.is_some())
                    {
                        let at = specs.addr_space.map(|(_, s)| s).unwrap_or(*span);
                        self.err(
                            Diagnostic::error(
                                codes::ADDRESS_SPACE,
                                "a function's return type cannot have an address space",
                            )
                            .at(at),
                        );
                    }
                    if self.refuse_half(&ty, "a function's return value", *span) {
                        ty = Type::Error;
                    }
                    let mut ptys = Vec::new();
                    for p in params {
                        self.gate_specs(&p.specs);
                        let pb = self.base_type(&p.specs);
                        let pi = self.declarator_type(&pb, &p.specs, &p.declarator);
                        let pi = if self.refuse_half(&pi.ty, "a parameter", p.span) {
                            DeclInfo { ty: Type::Error, ..pi }
                        } else {
                            pi
                        };
                        if let Some((sc, s)) = p.specs.storage {
                            if sc != ast::StorageClass::Register {
                                self.err(
                                    Diagnostic::error(codes::STORAGE_CLASS, "a parameter cannot have a storage class")
                                        .at(s),
                                );
                            } else {
                                self.err(
                                    Diagnostic::error(codes::STORAGE_CLASS, "`register` is not supported in OpenCL C")
                                        .at(s),
                                );
                            }
                        }
                        // Parameters of array type are pointers; of function type, an error.
                        let pty = match pi.ty {
                            Type::Array(elem, _) => {
                                let sp = pi.space.unwrap_or_else(|| self.default_pointee_space());
                                Type::Pointer(Rc::new(Pointee { ty: (*elem).clone(), space: sp, quals: pi.quals }))
                            }
                            Type::Function(_) => {
                                self.err(
                                    Diagnostic::error(
                                        codes::FUNCTION_POINTER,
                                        "function parameters are not allowed in OpenCL C",
                                    )
                                    .at(p.span),
                                );
                                Type::Error
                            }
                            Type::Void => {
                                self.err(
                                    Diagnostic::error(codes::VOID_USE, "a parameter cannot have type `void`")
                                        .at(p.span),
                                );
                                Type::Error
                            }
                            t => t,
                        };
                        if !pty.is_pointer()
                            && let Some((a, s)) = p.specs.addr_space
                            && a != AddrSpace::Private
                        {
                            self.err(
                                Diagnostic::error(
                                    codes::ADDRESS_SPACE,
                                    format!("a non-pointer parameter cannot be in the `{}` address space", a.keyword()),
                                )
                                .at(s),
                            );
                        }
                        ptys.push(pty);
                    }
                    ty = Type::Function(Rc::new(FnSig { ret: ty, params: ptys }));
                    quals = Quals::default();
                    space = None;
                }
            }
        }
        DeclInfo { name: d.name.clone(), ty, quals, space }
    }

    fn array_size(&mut self, e: &ast::Expr) -> Option<u32> {
        self.const_error_reported = false;
        let he = self.rvalue(e);
        if he.ty.is_error() {
            return None;
        }
        if !he.ty.is_integer() {
            self.err(Diagnostic::error(codes::BAD_ARRAY_SIZE, "an array size must be an integer").at(e.span));
            return None;
        }
        match self.const_value(&he) {
            Some(v) => {
                let signed = he.ty.scalar().is_some_and(|s| s.is_signed());
                if (signed && (v as i64) <= 0) || v == 0 {
                    self.err(
                        Diagnostic::error(
                            codes::BAD_ARRAY_SIZE,
                            format!("array size must be positive, found {}", v as i64),
                        )
                        .at(e.span),
                    );
                    None
                } else if v > (1 << 24) {
                    self.err(
                        Diagnostic::error(codes::BAD_ARRAY_SIZE, format!("array size {v} is too large")).at(e.span),
                    );
                    None
                } else {
                    Some(v as u32)
                }
            }
            None if self.const_error_reported => None,
            None => {
                self.err(
                    Diagnostic::error(codes::VLA, "variable-length arrays are not allowed in OpenCL C")
                        .at(e.span)
                        .with_help("use a size that is an integer constant expression, e.g. a `#define`"),
                );
                None
            }
        }
    }

    /// Resolves an `ast::TypeName` (casts, sizeof).
    pub(super) fn type_name(&mut self, tn: &ast::TypeName) -> (Type, Quals, Option<AddrSpace>) {
        self.gate_specs(&tn.specs);
        let base = self.base_type(&tn.specs);
        let info = self.declarator_type(&base, &tn.specs, &tn.declarator);
        (info.ty, info.quals, info.space)
    }

    pub(super) fn const_u32(&mut self, e: &ast::Expr) -> Option<u32> {
        let he = self.rvalue(e);
        if !he.ty.is_integer() {
            return None;
        }
        let v = self.const_value(&he)?;
        let signed = he.ty.scalar().is_some_and(|s| s.is_signed());
        if signed && (v as i64) < 0 {
            return None;
        }
        u32::try_from(v).ok()
    }
}
