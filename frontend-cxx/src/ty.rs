//! C++ types as the elaborator sees them, compile-time values, and how both are written as
//! OpenCL C.
//!
//! Classes and enums are the elaborator's own ([`ClassId`], [`EnumId`]); every other type is an
//! OpenCL C type and converts to the HIR's [`kiln_hir::types::Type`], which is how OpenCL C's
//! own rules are asked for the type of an operation on it.

use kiln_diagnostics::Span;
use kiln_frontend::ast as c;
use kiln_hir::types::{AddrSpace, Opaque, PipeAccess, Quals, Scalar, Type as HirType};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    /// A pointer: pointee, the pointee's address space, the pointee is `const`.
    Ptr(Rc<Ty>, AddrSpace, bool),
    Array(Rc<Ty>, Option<u32>),
    Class(ClassId),
    Enum(EnumId),
    Atomic(Scalar),
    /// A pipe parameter's packet type; `true` for the write end.
    Pipe(Rc<Ty>, bool),
    Opaque(Opaque),
    NullPtr,
    /// A reference (declared types only; an expression has the referred type): referred type,
    /// `const`.
    Ref(Rc<Ty>, bool),
    Error,
}

impl Ty {
    pub const INT: Ty = Ty::Scalar(Scalar::I32);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const SIZE: Ty = Ty::Scalar(Scalar::U32);

    pub fn strip_ref(&self) -> &Ty {
        match self {
            Ty::Ref(t, _) => t,
            t => t,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    pub fn is_class(&self) -> bool {
        matches!(self, Ty::Class(_))
    }

    pub fn class(&self) -> Option<ClassId> {
        match self.strip_ref() {
            Ty::Class(c) => Some(*c),
            _ => None,
        }
    }

    pub fn is_arith(&self) -> bool {
        matches!(self, Ty::Scalar(_) | Ty::Enum(_))
    }

    pub fn is_integral(&self) -> bool {
        matches!(self, Ty::Scalar(s) if s.is_integer() || *s == Scalar::Bool)
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Ty::Ptr(..) | Ty::NullPtr)
    }

    /// An array decays to a pointer to its first element (in `space`).
    pub fn decay(&self, space: AddrSpace) -> Ty {
        match self {
            Ty::Array(e, _) => Ty::Ptr(e.clone(), space, false),
            Ty::Ref(t, _) => t.decay(space),
            t => t.clone(),
        }
    }
}

/// A value known at compile time.
#[derive(Clone, Debug, PartialEq)]
pub enum Konst {
    /// An integer, `bool` or enumerator, already reduced to its type's range.
    Int(i128),
    Float(f64),
    /// An array or the fields of a class object, in order.
    Aggregate(Vec<Konst>),
}

impl Konst {
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Konst::Int(v) => Some(*v),
            Konst::Float(f) if f.fract() == 0.0 && f.abs() < 1e30 => Some(*f as i128),
            _ => None,
        }
    }

    pub fn truthy(&self) -> Option<bool> {
        match self {
            Konst::Int(v) => Some(*v != 0),
            Konst::Float(f) => Some(*f != 0.0),
            Konst::Aggregate(_) => None,
        }
    }
}

/// Reduces an integer to the range of a scalar type (wrapping as the hardware does).
pub fn wrap_int(v: i128, s: Scalar) -> i128 {
    if s == Scalar::Bool {
        return i128::from(v != 0);
    }
    if !s.is_integer() {
        return v;
    }
    let bits = s.bits();
    let m = (1i128 << bits) - 1;
    let u = v & m;
    if s.is_signed() && u >> (bits - 1) & 1 == 1 { u - (1i128 << bits) } else { u }
}

/// A template argument.
#[derive(Clone, Debug, PartialEq)]
pub enum TArg {
    Type(Ty),
    Value(Konst, Ty),
    /// The arguments of a template parameter pack.
    Pack(Vec<TArg>),
}

impl Eq for TArg {}

impl std::hash::Hash for TArg {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            TArg::Type(t) => {
                0u8.hash(h);
                t.hash(h);
            }
            TArg::Value(k, _) => {
                1u8.hash(h);
                format!("{k:?}").hash(h);
            }
            TArg::Pack(v) => {
                2u8.hash(h);
                v.hash(h);
            }
        }
    }
}

/// The HIR type of a non-class type (enums are their underlying scalar).
pub fn to_hir(t: &Ty, enum_scalar: &dyn Fn(EnumId) -> Scalar) -> Option<HirType> {
    Some(match t {
        Ty::Void => HirType::Void,
        Ty::Scalar(s) => HirType::Scalar(*s),
        Ty::Vector(s, n) => HirType::Vector(*s, *n),
        Ty::Enum(e) => HirType::Scalar(enum_scalar(*e)),
        Ty::Ptr(p, space, is_const) => {
            HirType::pointer_to(to_hir(p, enum_scalar)?, *space, Quals { is_const: *is_const, ..Quals::default() })
        }
        Ty::Array(e, n) => HirType::Array(Rc::new(to_hir(e, enum_scalar)?), *n),
        Ty::Atomic(s) => HirType::Atomic(*s),
        Ty::Pipe(p, w) => {
            HirType::Pipe(Rc::new(to_hir(p, enum_scalar)?), if *w { PipeAccess::Write } else { PipeAccess::Read })
        }
        Ty::Opaque(o) => HirType::Opaque(*o),
        Ty::NullPtr => HirType::pointer_to(HirType::Void, AddrSpace::Generic, Quals::default()),
        Ty::Ref(t, _) => to_hir(t, enum_scalar)?,
        Ty::Class(_) | Ty::Error => return None,
    })
}

/// The elaborator's type of a HIR type (from OpenCL C's answer about an operation).
pub fn from_hir(t: &HirType) -> Ty {
    match t {
        HirType::Void => Ty::Void,
        HirType::Scalar(s) => Ty::Scalar(*s),
        HirType::Vector(s, n) => Ty::Vector(*s, *n),
        HirType::Pointer(p) => Ty::Ptr(Rc::new(from_hir(&p.ty)), p.space, p.quals.is_const),
        HirType::Atomic(s) => Ty::Atomic(*s),
        HirType::Array(e, n) => Ty::Array(Rc::new(from_hir(e)), *n),
        HirType::Pipe(p, a) => Ty::Pipe(Rc::new(from_hir(p)), *a == PipeAccess::Write),
        HirType::Opaque(o) => Ty::Opaque(*o),
        HirType::Record(_) | HirType::Function(_) | HirType::Error => Ty::Error,
    }
}

/// OpenCL C's spelling of a scalar type.
pub fn scalar_name(s: Scalar) -> &'static str {
    s.name()
}

/// A C declaration's pieces for a type: the specifiers' type, qualifiers and address space of
/// the innermost object, and the derived parts (pointers and arrays, tightest first).
pub struct CType {
    pub spec: c::TypeSpec,
    pub quals: Quals,
    pub space: Option<AddrSpace>,
    pub derived: Vec<c::DerivedPart>,
}

/// How a class is named in C (a `struct` tag) and how an enum's scalar is spelled.
pub trait CNames {
    fn class_tag(&self, c: ClassId) -> Rc<str>;
    fn enum_scalar(&self, e: EnumId) -> Scalar;
}

fn scalar_spec(s: Scalar, span: Span) -> c::TypeSpec {
    let w = |ws: &[c::TypeWord]| c::TypeSpec::Words(ws.iter().map(|w| (*w, span)).collect());
    match s {
        Scalar::Bool => w(&[c::TypeWord::Bool]),
        Scalar::I8 => w(&[c::TypeWord::Char]),
        Scalar::I16 => w(&[c::TypeWord::Short]),
        Scalar::I32 => w(&[c::TypeWord::Int]),
        Scalar::I64 => w(&[c::TypeWord::Long]),
        Scalar::F16 => w(&[c::TypeWord::Half]),
        Scalar::F32 => w(&[c::TypeWord::Float]),
        Scalar::F64 => w(&[c::TypeWord::Double]),
        other => c::TypeSpec::Named(scalar_name(other).into(), span),
    }
}

/// The C spelling of `t` (an object's type; its own address space is the declaration's).
pub fn c_type(t: &Ty, names: &dyn CNames, span: Span) -> CType {
    match t {
        Ty::Ptr(p, space, is_const) => {
            let mut inner = c_type(p, names, span);
            // The pointee's qualifiers and address space sit on the specifiers for a pointer to
            // a non-pointer, on the inner pointer part otherwise.
            if inner.derived.iter().any(|d| matches!(d, c::DerivedPart::Pointer { .. })) {
                if let Some(c::DerivedPart::Pointer { quals, addr_space, .. }) =
                    inner.derived.iter_mut().rev().find(|d| matches!(d, c::DerivedPart::Pointer { .. }))
                {
                    quals.is_const |= *is_const;
                    if *space != AddrSpace::Generic {
                        *addr_space = Some((*space, span));
                    }
                }
            } else {
                inner.quals.is_const |= *is_const;
                if *space != AddrSpace::Generic {
                    inner.space = Some(*space);
                }
            }
            inner.derived.push(c::DerivedPart::Pointer { quals: Quals::default(), addr_space: None, span });
            inner
        }
        Ty::Array(e, n) => {
            let mut inner = c_type(e, names, span);
            let size = n.map(|n| Box::new(c::Expr { kind: c::ExprKind::Int(n.to_string().into()), span }));
            // An array of arrays: the outer dimension binds last.
            inner.derived.push(c::DerivedPart::Array { size, span });
            inner
        }
        Ty::Ref(t, _) => c_type(t, names, span),
        other => {
            let spec = match other {
                Ty::Void => c::TypeSpec::Words(vec![(c::TypeWord::Void, span)]),
                Ty::Scalar(s) => scalar_spec(*s, span),
                Ty::Vector(s, n) => c::TypeSpec::Named(format!("{}{n}", scalar_name(*s)).into(), span),
                Ty::Enum(e) => scalar_spec(names.enum_scalar(*e), span),
                Ty::Class(cid) => c::TypeSpec::Struct(c::RecordSpec {
                    name: Some((names.class_tag(*cid), span)),
                    fields: None,
                    attrs: vec![],
                    span,
                }),
                Ty::Atomic(s) => c::TypeSpec::Named(format!("atomic_{}", scalar_name(*s)).into(), span),
                Ty::Pipe(p, _) => {
                    let inner = c_type(p, names, span);
                    c::TypeSpec::Pipe(
                        Box::new(c::TypeName {
                            specs: specs_of(inner.spec, inner.quals, None, span),
                            declarator: c::Declarator { name: None, derived: inner.derived, attrs: vec![], span },
                            span,
                        }),
                        false,
                        span,
                    )
                }
                Ty::Opaque(o) => c::TypeSpec::Named(o.name().into(), span),
                _ => c::TypeSpec::Words(vec![(c::TypeWord::Int, span)]),
            };
            CType { spec, quals: Quals::default(), space: None, derived: vec![] }
        }
    }
}

/// Declaration specifiers holding a type.
pub fn specs_of(ty: c::TypeSpec, quals: Quals, space: Option<AddrSpace>, span: Span) -> c::DeclSpecs {
    c::DeclSpecs {
        storage: None,
        ty,
        quals,
        addr_space: space.map(|s| (s, span)),
        access: None,
        kernel: None,
        inline: false,
        attrs: vec![],
        span,
    }
}

/// A C type name (for casts, `sizeof`, compound literals).
pub fn c_type_name(t: &Ty, names: &dyn CNames, span: Span) -> c::TypeName {
    let ct = c_type(t, names, span);
    c::TypeName {
        specs: specs_of(ct.spec, ct.quals, ct.space, span),
        declarator: c::Declarator { name: None, derived: ct.derived, attrs: vec![], span },
        span,
    }
}
