//! `mathlib`: each call of a math built-in that kiln's math library implements
//! ([`crate::Program::math`], linked in by the front end) becomes a call of the library's
//! function, which lowering inlines like any helper. The library is written once, in OpenCL C,
//! from the float operations that have exact semantics (`+ - * /`, `sqrt`, `fma`, comparisons,
//! conversions, bit casts) and integer operations, so the emulator, the simulator and the
//! hardware compute every math function with the same operations, bit for bit.

use crate::builtins::FloatBuiltin;
use crate::{ExprKind as K, Program};

/// The `mathlib` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "mathlib",
    requires: &[crate::verify::Invariant::NoVectors],
    ensures: &[crate::verify::Invariant::MathLinked],
    run: |prog, _, _| Ok(link_calls(prog)),
};

fn link_calls(prog: &Program) -> Program {
    let mut out = prog.clone();
    if out.math.is_empty() {
        return out;
    }
    let math = out.math.clone();
    for f in &mut out.functions {
        if let Some(body) = &mut f.body {
            crate::walk::for_each_expr_mut(body, &mut |e| {
                if let K::FloatBuiltin(FloatBuiltin::Op(op), args) = &mut e.kind
                    && let Some((_, id)) = math.iter().find(|(o, _)| o == op)
                {
                    e.kind = K::Call(*id, std::mem::take(args));
                }
            });
        }
    }
    out
}
