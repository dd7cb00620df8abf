//! OpenCL C types as sema sees them.
//!
//! kiln targets a 32-bit device address space: `size_t`, `ptrdiff_t`, `intptr_t` and `uintptr_t`
//! are 32-bit (`CL_DEVICE_ADDRESS_BITS` = 32). `long` is always 64 bits.

use std::fmt;
use std::rc::Rc;

/// The address space of an object or of what a pointer points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    Private,
    Global,
    Constant,
    Local,
    Generic,
}

impl AddrSpace {
    pub fn keyword(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Constant => "__constant",
            AddrSpace::Local => "__local",
            AddrSpace::Generic => "__generic",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

/// Scalar element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl Scalar {
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::I8 | Scalar::U8 => 8,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 16,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 64,
        }
    }

    /// Size in bytes in memory (`bool` takes one byte).
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            s => s.bits() / 8,
        }
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64) || self.is_float()
    }

    /// The integer conversion rank (C99 6.3.1.1); floats rank above all integers.
    pub fn rank(self) -> u32 {
        match self {
            Scalar::Bool => 0,
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 => 3,
            Scalar::I64 | Scalar::U64 => 4,
            Scalar::F16 => 5,
            Scalar::F32 => 6,
            Scalar::F64 => 7,
        }
    }

    pub fn to_unsigned(self) -> Scalar {
        match self {
            Scalar::I8 => Scalar::U8,
            Scalar::I16 => Scalar::U16,
            Scalar::I32 => Scalar::U32,
            Scalar::I64 => Scalar::U64,
            s => s,
        }
    }

    pub fn to_signed(self) -> Scalar {
        match self {
            Scalar::U8 => Scalar::I8,
            Scalar::U16 => Scalar::I16,
            Scalar::U32 => Scalar::I32,
            Scalar::U64 => Scalar::I64,
            s => s,
        }
    }

    /// The OpenCL C name.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "uchar",
            Scalar::I16 => "short",
            Scalar::U16 => "ushort",
            Scalar::I32 => "int",
            Scalar::U32 => "uint",
            Scalar::I64 => "long",
            Scalar::U64 => "ulong",
            Scalar::F16 => "half",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }

    /// The range of an integer type as (min, max) in i128.
    pub fn int_range(self) -> (i128, i128) {
        match self {
            Scalar::Bool => (0, 1),
            Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
            Scalar::U8 => (0, u8::MAX as i128),
            Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
            Scalar::U16 => (0, u16::MAX as i128),
            Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
            Scalar::U32 => (0, u32::MAX as i128),
            Scalar::I64 => (i64::MIN as i128, i64::MAX as i128),
            Scalar::U64 => (0, u64::MAX as i128),
            _ => (0, 0),
        }
    }
}

/// Handles and samplers and other types with no data representation kiln can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opaque {
    Image(&'static str),
    Sampler,
    Event,
    Queue,
    ClkEvent,
    NdRange,
    ReserveId,
    MemFenceFlags,
}

impl Opaque {
    pub fn name(self) -> &'static str {
        match self {
            Opaque::Image(n) => n,
            Opaque::Sampler => "sampler_t",
            Opaque::Event => "event_t",
            Opaque::Queue => "queue_t",
            Opaque::ClkEvent => "clk_event_t",
            Opaque::NdRange => "ndrange_t",
            Opaque::ReserveId => "reserve_id_t",
            Opaque::MemFenceFlags => "cl_mem_fence_flags",
        }
    }
}

/// Index of a struct or union definition in [`crate::Program::records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub u32);

/// What a pointer points to.
/// Which end of a pipe a declaration gives access to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipeAccess {
    /// A `read_only pipe` parameter (the default for pipe parameters).
    Read,
    /// A `write_only pipe` parameter.
    Write,
    /// A program-scope Xilinx `pipe` or Intel `channel`: each kernel that uses it holds the end
    /// its uses say.
    Program,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointee {
    pub ty: Type,
    pub space: AddrSpace,
    pub quals: Quals,
}

impl std::hash::Hash for Quals {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.is_const, self.is_volatile, self.is_restrict).hash(h);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// A vector of 2, 3, 4, 8 or 16 elements.
    Vector(Scalar, u8),
    Pointer(Rc<Pointee>),
    /// An atomic object (`atomic_int`, `_Atomic(uint)`, CL2.0+): laid out as its scalar, operated
    /// on only by the atomic built-ins; reading one as a value is an atomic load.
    Atomic(Scalar),
    /// An array; `None` for an incomplete array (`int a[]` before its initializer is seen).
    Array(Rc<Type>, Option<u32>),
    Record(RecordId),
    /// A pipe or channel of packets of the inner type.
    Pipe(Rc<Type>, PipeAccess),
    Opaque(Opaque),
    /// The type of a function designator.
    Function(Rc<FnSig>),
    /// A type that could not be determined because of an earlier error; accepted everywhere so
    /// that one mistake produces one diagnostic.
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnSig {
    pub ret: Type,
    pub params: Vec<Type>,
}

pub const INT: Type = Type::Scalar(Scalar::I32);
pub const UINT: Type = Type::Scalar(Scalar::U32);
pub const BOOL: Type = Type::Scalar(Scalar::Bool);
/// `size_t` on kiln's 32-bit device.
pub const SIZE_T: Type = Type::Scalar(Scalar::U32);
pub const PTRDIFF_T: Type = Type::Scalar(Scalar::I32);

impl Type {
    /// The length of the innermost dimension of an array type (`10` for `int[4][10]`).
    pub fn innermost_extent(&self) -> Option<u32> {
        match self {
            Type::Array(inner, n) => inner.innermost_extent().or(*n),
            _ => None,
        }
    }

    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The element type of a scalar or vector.
    pub fn element(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Scalar(s) if s.is_integer())
    }

    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }

    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }

    pub fn is_void(&self) -> bool {
        matches!(self, Type::Void)
    }

    /// Scalar types usable as conditions (`if`, `!`, `&&`): arithmetic types and pointers.
    pub fn is_scalar_condition(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Pointer(_) | Type::Error)
    }

    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }

    pub fn pointer_to(ty: Type, space: AddrSpace, quals: Quals) -> Type {
        Type::Pointer(Rc::new(Pointee { ty, space, quals }))
    }

    /// Mentions a floating-point type anywhere (used to reject floats until kiln supports them).
    pub fn mentions_float(&self) -> bool {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) | Type::Atomic(s) => s.is_float(),
            Type::Pointer(p) => p.ty.mentions_float(),
            Type::Array(t, _) | Type::Pipe(t, _) => t.mentions_float(),
            Type::Function(f) => f.ret.mentions_float() || f.params.iter().any(Type::mentions_float),
            _ => false,
        }
    }

    pub fn mentions_vector(&self) -> bool {
        match self {
            Type::Vector(..) => true,
            Type::Pointer(p) => p.ty.mentions_vector(),
            Type::Array(t, _) | Type::Pipe(t, _) => t.mentions_vector(),
            Type::Function(f) => f.ret.mentions_vector() || f.params.iter().any(Type::mentions_vector),
            _ => false,
        }
    }
}

/// Size and alignment of a vector: 3-element vectors occupy 4 elements.
pub fn vector_layout(s: Scalar, n: u8) -> (u32, u32) {
    let lanes = if n == 3 { 4 } else { n as u32 };
    let size = s.size() * lanes;
    (size, size)
}

/// Formats a type as OpenCL C would spell it.
pub struct TypeDisplay<'a> {
    pub ty: &'a Type,
    pub record_name: &'a dyn Fn(RecordId) -> String,
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Type::Void => write!(f, "void"),
            Type::Scalar(s) => write!(f, "{}", s.name()),
            Type::Vector(s, n) => write!(f, "{}{}", s.name(), n),
            Type::Atomic(s) => match atomic_name(*s) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "_Atomic({})", s.name()),
            },
            Type::Pointer(p) => {
                let space = match p.space {
                    AddrSpace::Private => "__private ",
                    AddrSpace::Global => "__global ",
                    AddrSpace::Constant => "__constant ",
                    AddrSpace::Local => "__local ",
                    AddrSpace::Generic => "",
                };
                let c = if p.quals.is_const { "const " } else { "" };
                write!(f, "{space}{c}{} *", TypeDisplay { ty: &p.ty, record_name: self.record_name })
            }
            Type::Array(t, n) => match n {
                Some(n) => write!(f, "{}[{n}]", TypeDisplay { ty: t, record_name: self.record_name }),
                None => write!(f, "{}[]", TypeDisplay { ty: t, record_name: self.record_name }),
            },
            Type::Record(r) => write!(f, "{}", (self.record_name)(*r)),
            Type::Pipe(t, access) => {
                let prefix = match access {
                    PipeAccess::Read => "read_only pipe",
                    PipeAccess::Write => "write_only pipe",
                    PipeAccess::Program => "pipe",
                };
                write!(f, "{prefix} {}", TypeDisplay { ty: t, record_name: self.record_name })
            }
            Type::Opaque(o) => write!(f, "{}", o.name()),
            Type::Function(sig) => {
                write!(f, "{} (", TypeDisplay { ty: &sig.ret, record_name: self.record_name })?;
                for (i, p) in sig.params.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", TypeDisplay { ty: p, record_name: self.record_name })?;
                }
                write!(f, ")")
            }
            Type::Error => write!(f, "<error>"),
        }
    }
}

/// The built-in type names of OpenCL C that are not keywords (`uint`, `int4`, `size_t`, ...).
pub fn builtin_type_name(name: &str) -> Option<Type> {
    let scalar = |n: &str| -> Option<Scalar> {
        Some(match n {
            "char" => Scalar::I8,
            "uchar" => Scalar::U8,
            "short" => Scalar::I16,
            "ushort" => Scalar::U16,
            "int" => Scalar::I32,
            "uint" => Scalar::U32,
            "long" => Scalar::I64,
            "ulong" => Scalar::U64,
            "half" => Scalar::F16,
            "float" => Scalar::F32,
            "double" => Scalar::F64,
            _ => return None,
        })
    };
    match name {
        "uchar" | "ushort" | "uint" | "ulong" => return scalar(name).map(Type::Scalar),
        "size_t" | "uintptr_t" => return Some(SIZE_T),
        "ptrdiff_t" | "intptr_t" => return Some(PTRDIFF_T),
        "image1d_t"
        | "image1d_array_t"
        | "image1d_buffer_t"
        | "image2d_t"
        | "image2d_array_t"
        | "image3d_t"
        | "image2d_depth_t"
        | "image2d_array_depth_t"
        | "image2d_msaa_t"
        | "image2d_array_msaa_t"
        | "image2d_msaa_depth_t"
        | "image2d_array_msaa_depth_t" => {
            let n: &'static str = IMAGE_NAMES.iter().find(|n| **n == name).copied().unwrap_or("image2d_t");
            return Some(Type::Opaque(Opaque::Image(n)));
        }
        "sampler_t" => return Some(Type::Opaque(Opaque::Sampler)),
        "event_t" => return Some(Type::Opaque(Opaque::Event)),
        "queue_t" => return Some(Type::Opaque(Opaque::Queue)),
        "clk_event_t" => return Some(Type::Opaque(Opaque::ClkEvent)),
        "ndrange_t" => return Some(Type::Opaque(Opaque::NdRange)),
        "reserve_id_t" => return Some(Type::Opaque(Opaque::ReserveId)),
        "cl_mem_fence_flags" => return Some(Type::Opaque(Opaque::MemFenceFlags)),
        _ => {}
    }
    // Vector types: a scalar name followed by 2, 3, 4, 8 or 16.
    let split = name.find(|c: char| c.is_ascii_digit())?;
    let (base, n) = name.split_at(split);
    let n = vector_width(n)?;
    scalar(base).map(|s| Type::Vector(s, n))
}

/// The built-in type names of OpenCL C 2.0 and later: the atomic types of §6.15.12.6 and the
/// `memory_order`/`memory_scope` enumerations (whose values are `int`s).
pub fn builtin_type_name_cl2(name: &str) -> Option<Type> {
    Some(match name {
        "atomic_int" => Type::Atomic(Scalar::I32),
        "atomic_uint" => Type::Atomic(Scalar::U32),
        "atomic_long" => Type::Atomic(Scalar::I64),
        "atomic_ulong" => Type::Atomic(Scalar::U64),
        "atomic_float" => Type::Atomic(Scalar::F32),
        "atomic_double" => Type::Atomic(Scalar::F64),
        // `atomic_flag` is an `atomic_int` holding 0 (clear) or 1 (set).
        "atomic_flag" => Type::Atomic(Scalar::I32),
        "atomic_intptr_t" | "atomic_ptrdiff_t" => Type::Atomic(Scalar::I32),
        "atomic_uintptr_t" | "atomic_size_t" => Type::Atomic(Scalar::U32),
        "memory_order" | "memory_scope" => INT,
        _ => return None,
    })
}

/// The name OpenCL C gives the atomic type of `s`, if it has one.
fn atomic_name(s: Scalar) -> Option<&'static str> {
    Some(match s {
        Scalar::I32 => "atomic_int",
        Scalar::U32 => "atomic_uint",
        Scalar::I64 => "atomic_long",
        Scalar::U64 => "atomic_ulong",
        Scalar::F32 => "atomic_float",
        Scalar::F64 => "atomic_double",
        _ => return None,
    })
}

/// The lane count a type-name or built-in suffix spells (`"4"` in `int4`, `vload4`): 2, 3, 4, 8
/// or 16.
pub fn vector_width(suffix: &str) -> Option<u8> {
    match suffix {
        "2" => Some(2),
        "3" => Some(3),
        "4" => Some(4),
        "8" => Some(8),
        "16" => Some(16),
        _ => None,
    }
}

const IMAGE_NAMES: &[&str] = &[
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image3d_t",
    "image2d_depth_t",
    "image2d_array_depth_t",
    "image2d_msaa_t",
    "image2d_array_msaa_t",
    "image2d_msaa_depth_t",
    "image2d_array_msaa_depth_t",
];

/// Names OpenCL C reserves: vector type names with an invalid width (`float5`), `booln`,
/// `halfn`-style names beyond the valid set, and the reserved `quad`/`complex` families.
pub fn is_reserved_type_name(name: &str) -> bool {
    let bases =
        ["bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double", "quad"];
    let Some(split) = name.find(|c: char| c.is_ascii_digit()) else {
        return matches!(name, "quad" | "longlong" | "ulonglong");
    };
    let (base, n) = name.split_at(split);
    if !bases.contains(&base) || !n.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    if base == "bool" || base == "quad" {
        return true;
    }
    !matches!(n, "2" | "3" | "4" | "8" | "16")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names() {
        assert_eq!(builtin_type_name("uint"), Some(UINT));
        assert_eq!(builtin_type_name("int4"), Some(Type::Vector(Scalar::I32, 4)));
        assert_eq!(builtin_type_name("uchar16"), Some(Type::Vector(Scalar::U8, 16)));
        assert_eq!(builtin_type_name("float5"), None);
        assert_eq!(builtin_type_name("size_t"), Some(SIZE_T));
        assert_eq!(builtin_type_name("foo"), None);
    }

    #[test]
    fn reserved_names() {
        assert!(is_reserved_type_name("float5"));
        assert!(is_reserved_type_name("bool4"));
        assert!(!is_reserved_type_name("int4"));
        assert!(!is_reserved_type_name("x2"));
    }
}
