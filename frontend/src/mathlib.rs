//! kiln's math library: the OpenCL C math functions that are not one IEEE operation (`sin`,
//! `exp`, `pow`, `fmod`, ...), written once in OpenCL C (`mathlib/kiln_math.cl`) from the
//! operations that are — `+ - * /`, `sqrt`, `fma`, comparisons, conversions, bit casts — and
//! integer operations. The front end compiles the library like a second file and links it into
//! a program that calls any of its functions ([`link`]); `kiln_hir::legalize::mathlib` turns the
//! calls into calls of the library, which lowering inlines like the user's helpers. So the
//! emulator, the simulator and the hardware evaluate every math function with the same
//! operations, and agree bit for bit by construction.
//!
//! Each function's error against the exact result is measured over more than a million inputs
//! by `bench/float/accuracy` (the table is in `docs/float.md`) and sampled by the tests.

use crate::diag::{Diagnostic, codes};
use crate::hir::{ExprKind, Program};
use crate::pp::MemLoader;
use crate::{Options, parse, pp, sema};
use kiln_diagnostics::SourceMap;
use kiln_hir::builtins::{FloatBuiltin, FloatOp};

/// The library's source.
pub const SOURCE: &str = include_str!("mathlib/kiln_math.cl");

/// The name the library's source has in diagnostics.
pub const SOURCE_NAME: &str = "<kiln math library>";

/// The math built-ins the library implements and the function implementing each.
pub const FUNCTIONS: &[(FloatOp, &str)] = &[
    (FloatOp::Rsqrt, "__kiln_rsqrt"),
    (FloatOp::Exp, "__kiln_exp"),
    (FloatOp::Exp2, "__kiln_exp2"),
    (FloatOp::Exp10, "__kiln_exp10"),
    (FloatOp::Expm1, "__kiln_expm1"),
    (FloatOp::Log, "__kiln_log"),
    (FloatOp::Log2, "__kiln_log2"),
    (FloatOp::Log10, "__kiln_log10"),
    (FloatOp::Log1p, "__kiln_log1p"),
    (FloatOp::Sin, "__kiln_sin"),
    (FloatOp::Cos, "__kiln_cos"),
    (FloatOp::Tan, "__kiln_tan"),
    (FloatOp::Asin, "__kiln_asin"),
    (FloatOp::Acos, "__kiln_acos"),
    (FloatOp::Atan, "__kiln_atan"),
    (FloatOp::Atan2, "__kiln_atan2"),
    (FloatOp::Sinh, "__kiln_sinh"),
    (FloatOp::Cosh, "__kiln_cosh"),
    (FloatOp::Tanh, "__kiln_tanh"),
    (FloatOp::Asinh, "__kiln_asinh"),
    (FloatOp::Acosh, "__kiln_acosh"),
    (FloatOp::Atanh, "__kiln_atanh"),
    (FloatOp::Cbrt, "__kiln_cbrt"),
    (FloatOp::Hypot, "__kiln_hypot"),
    (FloatOp::Pow, "__kiln_pow"),
    (FloatOp::Powr, "__kiln_powr"),
    (FloatOp::Pown, "__kiln_pown"),
    (FloatOp::Rootn, "__kiln_rootn"),
    (FloatOp::Fmod, "__kiln_fmod"),
    (FloatOp::Remainder, "__kiln_remainder"),
    (FloatOp::RemquoQuotient, "__kiln_remquo_quotient"),
    (FloatOp::Lgamma, "__kiln_lgamma"),
    (FloatOp::LgammaSign, "__kiln_lgamma_sign"),
];

/// Whether the library implements `op`.
pub fn implements(op: FloatOp) -> bool {
    FUNCTIONS.iter().any(|(o, _)| *o == op)
}

/// Links the library into `program` when it calls any math built-in the library implements;
/// the library's source joins `sources`. A library that does not compile is a kiln bug,
/// reported as an internal error.
pub fn link(mut program: Program, sources: &mut SourceMap) -> Result<Program, Diagnostic> {
    if !uses_library(&program) {
        return Ok(program);
    }
    let opts = Options::default();
    let file = sources.add(SOURCE_NAME, None, SOURCE.to_string());
    let pre = pp::preprocess(sources, &MemLoader::default(), &opts, file);
    let (tu, parse_diags) = parse::parse(&pre.tokens, opts.std);
    let analysis = sema::analyze(&tu, &opts);
    let errors: Vec<String> = pre
        .diags
        .iter()
        .chain(&parse_diags)
        .chain(&analysis.diags)
        .filter(|d| d.is_error())
        .map(|d| diag_line(sources, d))
        .collect();
    if !errors.is_empty() {
        return Err(Diagnostic::internal_error("the math library's front end", &errors));
    }
    if !program.link_math(analysis.program, FUNCTIONS) {
        return Err(Diagnostic::error(
            codes::INTERNAL_ERROR,
            "internal error: the math library lacks a function it lists",
        ));
    }
    Ok(program)
}

fn diag_line(sources: &SourceMap, d: &Diagnostic) -> String {
    crate::diag::one_line(sources, d)
}

fn uses_library(p: &Program) -> bool {
    let mut used = false;
    for f in &p.functions {
        if let Some(body) = &f.body {
            kiln_hir::walk::for_each_expr(body, &mut |e| {
                match &e.kind {
                    ExprKind::FloatBuiltin(FloatBuiltin::Op(op), _) => used |= implements(*op),
                    // Vector splitting expands `normalize` with `rsqrt`.
                    ExprKind::Geometric(..) => used = true,
                    _ => {}
                }
            });
        }
    }
    used
}
