//! The table of OpenCL C built-in function names, by family.
//!
//! Sema consults it to tell a call of an undeclared function (an error in OpenCL C) from a call
//! of a built-in, and to say precisely which family of built-ins a kernel uses when kiln cannot
//! build it yet.

use crate::diag::{Code, codes};

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
    if name == "atomic_work_item_fence" {
        return Some(Family::Synchronization);
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
