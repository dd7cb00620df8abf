//! The table of OpenCL C built-in function names, by family.
//!
//! Sema consults it to tell a call of an undeclared function (an error in OpenCL C) from a call
//! of a built-in, and to say precisely which family of built-ins a kernel uses when kiln cannot
//! build it yet.

use kiln_diagnostics::{Code, codes};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    WorkItem,
    Synchronization,
    Atomic,
    Math,
    Integer,
    Common,
    Geometric,
    Relational,
    VectorLoadStore,
    MiscVector,
    AsyncCopy,
    AddressSpace,
    Printf,
    Image,
    Pipe,
    Enqueue,
    WorkGroup,
    Conversion,
}

impl Family {
    pub fn describe(self) -> &'static str {
        match self {
            Family::WorkItem => "work-item function",
            Family::Synchronization => "synchronization function",
            Family::Atomic => "atomic function",
            Family::Math => "math function",
            Family::Integer => "integer function",
            Family::Common => "common function",
            Family::Geometric => "geometric function",
            Family::Relational => "relational function",
            Family::VectorLoadStore => "vector load/store function",
            Family::MiscVector => "vector function",
            Family::AsyncCopy => "async copy function",
            Family::AddressSpace => "address-space function",
            Family::Printf => "printf",
            Family::Image => "image function",
            Family::Pipe => "pipe function",
            Family::Enqueue => "device-side enqueue function",
            Family::WorkGroup => "work-group collective function",
            Family::Conversion => "conversion function",
        }
    }

    /// The diagnostic code used while kiln cannot build this family in hardware.
    pub fn unsupported_code(self) -> Code {
        match self {
            Family::WorkItem => codes::UNSUPPORTED_NDRANGE,
            Family::Synchronization => codes::UNSUPPORTED_BARRIER,
            Family::Pipe => codes::UNSUPPORTED_PIPE,
            Family::Image | Family::Enqueue => codes::NOT_ON_FPGA,
            _ => codes::UNSUPPORTED_BUILTIN,
        }
    }
}

const WORK_ITEM: &[&str] = &[
    "get_work_dim",
    "get_global_size",
    "get_global_id",
    "get_local_size",
    "get_enqueued_local_size",
    "get_local_id",
    "get_num_groups",
    "get_group_id",
    "get_global_offset",
    "get_global_linear_id",
    "get_local_linear_id",
    "get_sub_group_size",
    "get_max_sub_group_size",
    "get_num_sub_groups",
    "get_enqueued_num_sub_groups",
    "get_sub_group_id",
    "get_sub_group_local_id",
];

const SYNC: &[&str] = &[
    "barrier",
    "work_group_barrier",
    "sub_group_barrier",
    "mem_fence",
    "read_mem_fence",
    "write_mem_fence",
    "atomic_work_item_fence",
];

const MATH: &[&str] = &[
    "acos",
    "acosh",
    "acospi",
    "asin",
    "asinh",
    "asinpi",
    "atan",
    "atan2",
    "atan2pi",
    "atanh",
    "atanpi",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "cospi",
    "erf",
    "erfc",
    "exp",
    "exp10",
    "exp2",
    "expm1",
    "fabs",
    "fdim",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "fract",
    "frexp",
    "hypot",
    "ilogb",
    "ldexp",
    "lgamma",
    "lgamma_r",
    "log",
    "log10",
    "log1p",
    "log2",
    "logb",
    "mad",
    "maxmag",
    "minmag",
    "modf",
    "nan",
    "nextafter",
    "pow",
    "pown",
    "powr",
    "remainder",
    "remquo",
    "rint",
    "rootn",
    "round",
    "rsqrt",
    "sin",
    "sincos",
    "sinh",
    "sinpi",
    "sqrt",
    "tan",
    "tanh",
    "tanpi",
    "tgamma",
    "trunc",
    "native_cos",
    "native_divide",
    "native_exp",
    "native_exp2",
    "native_exp10",
    "native_log",
    "native_log2",
    "native_log10",
    "native_powr",
    "native_recip",
    "native_rsqrt",
    "native_sin",
    "native_sqrt",
    "native_tan",
    "half_cos",
    "half_divide",
    "half_exp",
    "half_exp2",
    "half_exp10",
    "half_log",
    "half_log2",
    "half_log10",
    "half_powr",
    "half_recip",
    "half_rsqrt",
    "half_sin",
    "half_sqrt",
    "half_tan",
    "__builtin_inff",
    "__builtin_nanf",
    "__builtin_huge_valf",
];

const INTEGER: &[&str] = &[
    "abs",
    "abs_diff",
    "add_sat",
    "hadd",
    "rhadd",
    "clz",
    "ctz",
    "mad_hi",
    "mad_sat",
    "mul_hi",
    "rotate",
    "sub_sat",
    "upsample",
    "popcount",
    "mad24",
    "mul24",
    "bitfield_insert",
    "bitfield_extract_signed",
    "bitfield_extract_unsigned",
    "bit_reverse",
    "dot",
    "dot_acc_sat",
];

const COMMON: &[&str] = &["clamp", "degrees", "max", "min", "mix", "radians", "step", "smoothstep", "sign"];

const GEOMETRIC: &[&str] =
    &["cross", "distance", "length", "normalize", "fast_distance", "fast_length", "fast_normalize"];

const RELATIONAL: &[&str] = &[
    "isequal",
    "isnotequal",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isfinite",
    "isinf",
    "isnan",
    "isnormal",
    "isordered",
    "isunordered",
    "signbit",
    "any",
    "all",
    "bitselect",
    "select",
];

const MISC_VECTOR: &[&str] = &["shuffle", "shuffle2"];

const ASYNC: &[&str] = &["async_work_group_copy", "async_work_group_strided_copy", "wait_group_events", "prefetch"];

const ADDRESS: &[&str] = &["to_global", "to_local", "to_private", "get_fence"];

const PIPE: &[&str] = &[
    "read_pipe",
    "write_pipe",
    "reserve_read_pipe",
    "reserve_write_pipe",
    "commit_read_pipe",
    "commit_write_pipe",
    "is_valid_reserve_id",
    "get_pipe_num_packets",
    "get_pipe_max_packets",
    "work_group_reserve_read_pipe",
    "work_group_reserve_write_pipe",
    "work_group_commit_read_pipe",
    "work_group_commit_write_pipe",
    "sub_group_reserve_read_pipe",
    "sub_group_reserve_write_pipe",
    "sub_group_commit_read_pipe",
    "sub_group_commit_write_pipe",
    "read_pipe_block",
    "write_pipe_block",
    "read_channel_intel",
    "write_channel_intel",
    "read_channel_nb_intel",
    "write_channel_nb_intel",
    "read_channel_altera",
    "write_channel_altera",
    "read_channel_nb_altera",
    "write_channel_nb_altera",
];

const ENQUEUE: &[&str] = &[
    "enqueue_kernel",
    "enqueue_marker",
    "get_default_queue",
    "ndrange_1D",
    "ndrange_2D",
    "ndrange_3D",
    "retain_event",
    "release_event",
    "create_user_event",
    "is_valid_event",
    "set_user_event_status",
    "capture_event_profiling_info",
    "get_kernel_work_group_size",
    "get_kernel_preferred_work_group_size_multiple",
];

const WORK_GROUP: &[&str] = &[
    "work_group_all",
    "work_group_any",
    "work_group_broadcast",
    "work_group_reduce_add",
    "work_group_reduce_min",
    "work_group_reduce_max",
    "work_group_scan_inclusive_add",
    "work_group_scan_inclusive_min",
    "work_group_scan_inclusive_max",
    "work_group_scan_exclusive_add",
    "work_group_scan_exclusive_min",
    "work_group_scan_exclusive_max",
];

const IMAGE_PREFIXES: &[&str] = &["read_image", "write_image", "get_image_"];
const VLOAD_PREFIXES: &[&str] = &["vload", "vstore", "vloada_half", "vstorea_half"];
const ATOMIC_PREFIXES: &[&str] = &["atomic_", "atom_"];
const CONVERT_PREFIXES: &[&str] = &["convert_", "as_"];

/// The family of a built-in function name, if it is one.
pub fn family(name: &str) -> Option<Family> {
    let tables: &[(&[&str], Family)] = &[
        (WORK_ITEM, Family::WorkItem),
        (SYNC, Family::Synchronization),
        (MATH, Family::Math),
        (INTEGER, Family::Integer),
        (COMMON, Family::Common),
        (GEOMETRIC, Family::Geometric),
        (RELATIONAL, Family::Relational),
        (MISC_VECTOR, Family::MiscVector),
        (ASYNC, Family::AsyncCopy),
        (ADDRESS, Family::AddressSpace),
        (PIPE, Family::Pipe),
        (ENQUEUE, Family::Enqueue),
        (WORK_GROUP, Family::WorkGroup),
    ];
    if name == "printf" {
        return Some(Family::Printf);
    }
    for (names, fam) in tables {
        if names.contains(&name) {
            return Some(*fam);
        }
    }
    let prefixed: &[(&[&str], Family)] = &[
        (IMAGE_PREFIXES, Family::Image),
        (VLOAD_PREFIXES, Family::VectorLoadStore),
        (ATOMIC_PREFIXES, Family::Atomic),
        (CONVERT_PREFIXES, Family::Conversion),
    ];
    for (prefixes, fam) in prefixed {
        if prefixes.iter().any(|p| name.starts_with(p)) {
            return Some(*fam);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        assert_eq!(family("get_global_id"), Some(Family::WorkItem));
        assert_eq!(family("barrier"), Some(Family::Synchronization));
        assert_eq!(family("atomic_add"), Some(Family::Atomic));
        assert_eq!(family("vload4"), Some(Family::VectorLoadStore));
        assert_eq!(family("convert_int_sat"), Some(Family::Conversion));
        assert_eq!(family("read_imagef"), Some(Family::Image));
        assert_eq!(family("popcount"), Some(Family::Integer));
        assert_eq!(family("my_helper"), None);
    }
}

/// The integer, common (integer forms) and relational built-ins kiln builds in hardware, with
/// the semantics of OpenCL C 3.0 §6.15.3, §6.15.4 and §6.15.6 on scalar integer arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntBuiltin {
    Abs,
    AbsDiff,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    Clamp,
    Clz,
    Ctz,
    Popcount,
    Rotate,
    Mad24,
    Mul24,
    MadHi,
    MulHi,
    MadSat,
    Upsample,
    Min,
    Max,
    Select,
    Bitselect,
    Any,
    All,
}

impl IntBuiltin {
    pub fn from_name(name: &str) -> Option<IntBuiltin> {
        use IntBuiltin::*;
        Some(match name {
            "abs" => Abs,
            "abs_diff" => AbsDiff,
            "add_sat" => AddSat,
            "sub_sat" => SubSat,
            "hadd" => Hadd,
            "rhadd" => Rhadd,
            "clamp" => Clamp,
            "clz" => Clz,
            "ctz" => Ctz,
            "popcount" => Popcount,
            "rotate" => Rotate,
            "mad24" => Mad24,
            "mul24" => Mul24,
            "mad_hi" => MadHi,
            "mul_hi" => MulHi,
            "mad_sat" => MadSat,
            "upsample" => Upsample,
            "min" => Min,
            "max" => Max,
            "select" => Select,
            "bitselect" => Bitselect,
            "any" => Any,
            "all" => All,
            _ => return None,
        })
    }

    /// The number of arguments.
    pub fn arity(self) -> usize {
        use IntBuiltin::*;
        match self {
            Abs | Clz | Ctz | Popcount | Any | All => 1,
            AbsDiff | AddSat | SubSat | Hadd | Rhadd | Rotate | Mul24 | MulHi | Upsample | Min | Max => 2,
            Clamp | Mad24 | MadHi | MadSat | Select | Bitselect => 3,
        }
    }
}

/// A floating-point operation of one IR instruction: the operators `+ - * /` and unary `-`, and
/// the math built-ins that map to one operation (their exact semantics: `kiln_dataflow::ir::float`).
/// Operands and result are `float`, except where [`FloatOp::shape`] says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatOp {
    // One operand.
    Neg,
    Abs,
    Sqrt,
    Rsqrt,
    Floor,
    Ceil,
    Trunc,
    /// Halfway cases away from zero.
    Round,
    /// Halfway cases to even.
    Rint,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinpi,
    Cospi,
    Tanpi,
    Asinpi,
    Acospi,
    Atanpi,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Cbrt,
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
    Logb,
    // Two operands.
    Add,
    Sub,
    Mul,
    Div,
    /// `fmin`: a NaN operand is ignored.
    Min,
    /// `fmax`: a NaN operand is ignored.
    Max,
    Fdim,
    Fmod,
    Remainder,
    Copysign,
    Pow,
    Powr,
    Atan2,
    Atan2pi,
    Hypot,
    Nextafter,
    Maxmag,
    Minmag,
    // Three operands.
    Fma,
    // A binary32 and an `int` (32-bit) operand.
    Ldexp,
    Pown,
    Rootn,
    /// One binary32 operand; the result is an `int` (32 bits).
    Ilogb,
    /// The quotient `remquo(x, y)` stores: the sign of `x / y` and the 7 low bits of the
    /// integral quotient's magnitude (the bits OpenCL C guarantees); an `int`.
    RemquoQuotient,
    /// The sign of `gamma(x)` that `lgamma_r` stores: 1 or -1 (1 for NaN); an `int`.
    LgammaSign,
}

/// Operand shape of a [`FloatOp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatShape {
    /// `n` float operands, float result.
    Floats(usize),
    /// A float and an `int` operand, float result.
    FloatInt,
    /// `n` float operands, `int` result.
    IntResult(usize),
}

impl FloatOp {
    pub fn shape(self) -> FloatShape {
        use FloatOp::*;
        match self {
            Add | Sub | Mul | Div | Min | Max | Fdim | Fmod | Remainder | Copysign | Pow | Powr | Atan2 | Atan2pi
            | Hypot | Nextafter | Maxmag | Minmag => FloatShape::Floats(2),
            Fma => FloatShape::Floats(3),
            Ldexp | Pown | Rootn => FloatShape::FloatInt,
            Ilogb | LgammaSign => FloatShape::IntResult(1),
            RemquoQuotient => FloatShape::IntResult(2),
            _ => FloatShape::Floats(1),
        }
    }

    pub fn arity(self) -> usize {
        match self.shape() {
            FloatShape::Floats(n) => n,
            FloatShape::FloatInt => 2,
            FloatShape::IntResult(n) => n,
        }
    }

    /// The math built-in spelled `name` (also its `native_` and `half_` forms, which kiln
    /// computes at full precision: the specification allows any accuracy for them).
    pub fn from_name(name: &str) -> Option<FloatOp> {
        use FloatOp::*;
        let base = name.strip_prefix("native_").or_else(|| name.strip_prefix("half_")).unwrap_or(name);
        let relaxed = base.len() != name.len();
        if relaxed
            && !matches!(
                base,
                "cos" | "exp" | "exp2" | "exp10" | "log" | "log2" | "log10" | "powr" | "rsqrt" | "sin" | "sqrt" | "tan"
            )
        {
            return None;
        }
        Some(match base {
            "fabs" => Abs,
            "sqrt" => Sqrt,
            "rsqrt" => Rsqrt,
            "floor" => Floor,
            "ceil" => Ceil,
            "trunc" => Trunc,
            "round" => Round,
            "rint" => Rint,
            "exp" => Exp,
            "exp2" => Exp2,
            "exp10" => Exp10,
            "expm1" => Expm1,
            "log" => Log,
            "log2" => Log2,
            "log10" => Log10,
            "log1p" => Log1p,
            "sin" => Sin,
            "cos" => Cos,
            "tan" => Tan,
            "asin" => Asin,
            "acos" => Acos,
            "atan" => Atan,
            "sinpi" => Sinpi,
            "cospi" => Cospi,
            "tanpi" => Tanpi,
            "asinpi" => Asinpi,
            "acospi" => Acospi,
            "atanpi" => Atanpi,
            "sinh" => Sinh,
            "cosh" => Cosh,
            "tanh" => Tanh,
            "asinh" => Asinh,
            "acosh" => Acosh,
            "atanh" => Atanh,
            "cbrt" => Cbrt,
            "erf" => Erf,
            "erfc" => Erfc,
            "tgamma" => Tgamma,
            "lgamma" => Lgamma,
            "logb" => Logb,
            "fmin" => Min,
            "fmax" => Max,
            "fdim" => Fdim,
            "fmod" => Fmod,
            "remainder" => Remainder,
            "copysign" => Copysign,
            "pow" => Pow,
            "powr" => Powr,
            "atan2" => Atan2,
            "atan2pi" => Atan2pi,
            "hypot" => Hypot,
            "nextafter" => Nextafter,
            "maxmag" => Maxmag,
            "minmag" => Minmag,
            "fma" => Fma,
            "ldexp" => Ldexp,
            "pown" => Pown,
            "rootn" => Rootn,
            "ilogb" => Ilogb,
            _ => return None,
        })
    }
}

/// A float comparison built-in (`isequal`, ...): 1/0 on scalars, -1/0 per lane on vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatRelation {
    Equal,
    NotEqual,
    Greater,
    GreaterEqual,
    Less,
    LessEqual,
    LessGreater,
    Ordered,
    Unordered,
}

/// A classification built-in (`isnan`, ...): 1/0 on scalars, -1/0 per lane on vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatClass {
    Finite,
    Infinite,
    Nan,
    Normal,
    SignBit,
}

/// The math, common and relational built-ins on `float` arguments (OpenCL C 3.0 §6.15.2,
/// §6.15.4, §6.15.6), on scalars once vectors are split into lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatBuiltin {
    Op(FloatOp),
    /// `mad(a, b, c)`: `a * b + c`, rounded twice.
    Mad,
    /// `native_recip` / `half_recip`.
    Recip,
    /// `native_divide` / `half_divide`.
    Divide,
    /// The common `min`/`max`: `fmin`/`fmax` (a scalar second argument applies to every lane).
    Min,
    Max,
    Clamp,
    Mix,
    Step,
    Smoothstep,
    Degrees,
    Radians,
    Sign,
    Relation(FloatRelation),
    Class(FloatClass),
    /// `select(a, b, c)` on float `a` and `b`: `c ? b : a` (vectors: by `c`'s sign bits).
    Select,
    /// `bitselect(a, b, c)`: each bit from `b` where `c`'s bit is set, else from `a`.
    Bitselect,
    /// `nan(nancode)`: a quiet NaN carrying `nancode`.
    Nan,
}

impl FloatBuiltin {
    pub fn from_name(name: &str) -> Option<FloatBuiltin> {
        use FloatBuiltin::*;
        Some(match name {
            "mad" => Mad,
            "native_recip" | "half_recip" => Recip,
            "native_divide" | "half_divide" => Divide,
            "min" => Min,
            "max" => Max,
            "clamp" => Clamp,
            "mix" => Mix,
            "step" => Step,
            "smoothstep" => Smoothstep,
            "degrees" => Degrees,
            "radians" => Radians,
            "sign" => Sign,
            "isequal" => Relation(FloatRelation::Equal),
            "isnotequal" => Relation(FloatRelation::NotEqual),
            "isgreater" => Relation(FloatRelation::Greater),
            "isgreaterequal" => Relation(FloatRelation::GreaterEqual),
            "isless" => Relation(FloatRelation::Less),
            "islessequal" => Relation(FloatRelation::LessEqual),
            "islessgreater" => Relation(FloatRelation::LessGreater),
            "isordered" => Relation(FloatRelation::Ordered),
            "isunordered" => Relation(FloatRelation::Unordered),
            "isfinite" => Class(FloatClass::Finite),
            "isinf" => Class(FloatClass::Infinite),
            "isnan" => Class(FloatClass::Nan),
            "isnormal" => Class(FloatClass::Normal),
            "signbit" => Class(FloatClass::SignBit),
            "select" => Select,
            "bitselect" => Bitselect,
            "nan" => Nan,
            _ => return FloatOp::from_name(name).map(Op),
        })
    }

    pub fn arity(self) -> usize {
        use FloatBuiltin::*;
        match self {
            Op(f) => f.arity(),
            Recip | Degrees | Radians | Sign | Class(_) | Nan => 1,
            Divide | Min | Max | Step | Relation(_) => 2,
            Mad | Clamp | Mix | Smoothstep | Select | Bitselect => 3,
        }
    }
}

/// The geometric built-ins (§6.15.5) on `float`, `float2`, `float3` and `float4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometric {
    Dot,
    Cross,
    Length,
    Distance,
    Normalize,
}

impl Geometric {
    /// The function spelled `name`; the `fast_` forms compute the same values.
    pub fn from_name(name: &str) -> Option<Geometric> {
        Some(match name.strip_prefix("fast_").unwrap_or(name) {
            "dot" if !name.starts_with("fast_") => Geometric::Dot,
            "cross" if !name.starts_with("fast_") => Geometric::Cross,
            "length" => Geometric::Length,
            "distance" => Geometric::Distance,
            "normalize" => Geometric::Normalize,
            _ => return None,
        })
    }

    pub fn arity(self) -> usize {
        match self {
            Geometric::Dot | Geometric::Cross | Geometric::Distance => 2,
            Geometric::Length | Geometric::Normalize => 1,
        }
    }
}
