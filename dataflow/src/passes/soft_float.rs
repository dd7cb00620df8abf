//! `soft-float`: every floating-point operation that kiln builds in hardware becomes its
//! integer expansion ([`crate::softfloat`]), so that scheduling, the RTL and the simulator see
//! integers only. A legalization for hardware, run whatever the optimization level; the
//! emulator runs the kernel before it, with the float operations' own semantics, so that
//! co-simulation checks every expansion.
//!
//! Operations without an expansion (the math functions that only the emulator computes, and
//! conversions from or to `double`) are left as they are; the driver refuses them (`E0502`).

use super::Pass;
use crate::ir::*;
use crate::softfloat::{self as sf, Emitter, Integral, Rounding};

pub struct SoftFloat;

impl Pass for SoftFloat {
    fn name(&self) -> &'static str {
        "soft-float"
    }
    fn description(&self) -> &'static str {
        "replaces floating-point operations by their integer expansions"
    }
    fn run(&self, k: &mut Kernel) -> bool {
        let mut changed = false;
        let mut subst = Substitution::new();
        for b in k.rpo() {
            let mut ops = Vec::new();
            for op in k.blocks[b].ops.clone() {
                k.substitute_in_op(op, &subst);
                let data = k.ops[op].clone();
                let Some(result) = data.result else {
                    ops.push(op);
                    continue;
                };
                let widths: Vec<u32> = data.args.iter().map(|a| k.width(*a)).collect();
                let w = k.width(result);
                let mut e = Emitter::new(k, b, data.span);
                let Some(value) = expand(&mut e, &data.kind, &data.args, &widths, w) else {
                    ops.push(op);
                    continue;
                };
                let emitted = std::mem::take(&mut e.ops);
                ops.extend(emitted);
                k.float_spans.insert(data.span, data.kind.mnemonic());
                subst.replace(result, value);
                changed = true;
            }
            k.blocks[b].ops = ops;
        }
        k.apply_substitution(&subst);
        changed
    }
}

/// The expansion of one operation, or `None` when it has none (not a float operation, or one
/// kiln does not build).
fn expand(e: &mut Emitter, kind: &OpKind, args: &[Value], widths: &[u32], w: u32) -> Option<Value> {
    let a = |i: usize| args[i];
    Some(match kind {
        OpKind::Float(f) => {
            use FloatOp::*;
            match f {
                Add => sf::fadd(e, a(0), a(1)),
                Sub => sf::fsub(e, a(0), a(1)),
                Mul => sf::fmul(e, a(0), a(1)),
                Div => sf::fdiv(e, a(0), a(1)),
                Sqrt => sf::fsqrt(e, a(0)),
                Fma => sf::fma(e, a(0), a(1), a(2)),
                Neg => e.xor_c(a(0), 0x8000_0000),
                Abs => e.and_c(a(0), 0x7fff_ffff),
                Copysign => {
                    let mag = e.and_c(a(0), 0x7fff_ffff);
                    let sign = e.and_c(a(1), 0x8000_0000);
                    e.or(mag, sign)
                }
                Min => sf::fmin(e, a(0), a(1)),
                Max => sf::fmax(e, a(0), a(1)),
                Maxmag => sf::magnitude_pick(e, a(0), a(1), true),
                Minmag => sf::magnitude_pick(e, a(0), a(1), false),
                Fdim => sf::fdim(e, a(0), a(1)),
                Floor => sf::integral(e, a(0), Integral::Floor),
                Ceil => sf::integral(e, a(0), Integral::Ceil),
                Trunc => sf::integral(e, a(0), Integral::Trunc),
                Round => sf::integral(e, a(0), Integral::Round),
                Rint => sf::integral(e, a(0), Integral::Rint),
                Ldexp => sf::ldexp(e, a(0), a(1)),
                Ilogb => sf::ilogb(e, a(0)),
                Logb => sf::logb(e, a(0)),
                Nextafter => sf::nextafter(e, a(0), a(1)),
                _ => return None,
            }
        }
        OpKind::FCmp(c) => sf::fcmp(e, *c, a(0), a(1)),
        OpKind::FConv(c) => {
            let aw = widths.first().copied().unwrap_or(32);
            let built = match *c {
                FloatConv::FromInt { .. } => matches!(w, 16 | 32),
                FloatConv::ToInt { .. } => matches!(aw, 16 | 32),
                FloatConv::Resize { .. } => aw == w || matches!((aw, w), (16, 32) | (32, 16)),
            };
            if !built {
                return None;
            }
            match *c {
                FloatConv::FromInt { signed, round } => {
                    let f = sf::int_to_float(e, a(0), signed, Rounding::from(round));
                    match w {
                        32 => f,
                        16 => sf::resize(e, f, 32, 16, Rounding::from(round))?,
                        _ => return None,
                    }
                }
                FloatConv::ToInt { signed, round } => {
                    let x = match aw {
                        32 => a(0),
                        16 => sf::resize(e, a(0), 16, 32, Rounding::NearestEven)?,
                        _ => return None,
                    };
                    sf::float_to_int(e, x, signed, w, Rounding::from(round))
                }
                FloatConv::Resize { round } => sf::resize(e, a(0), aw, w, Rounding::from(round))?,
            }
        }
        _ => return None,
    })
}

/// What one floating-point operation of the source became in hardware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub span: kiln_diagnostics::Span,
    /// The float operation's mnemonic (`fadd`, `fsqrt`, ...).
    pub op: &'static str,
    /// The integer operations that carry its span, and the sum of their result widths: a
    /// measure of its logic that needs no synthesis.
    pub ops: usize,
    pub bits: u64,
}

/// The expanded float operations of `k`, the largest (by result bits) first.
pub fn footprints(k: &Kernel) -> Vec<Footprint> {
    let mut by_span: std::collections::BTreeMap<kiln_diagnostics::Span, (usize, u64)> = Default::default();
    for b in k.rpo() {
        for op in &k.blocks[b].ops {
            let o = &k.ops[*op];
            if k.float_spans.contains_key(&o.span) {
                let e = by_span.entry(o.span).or_default();
                e.0 += 1;
                e.1 += o.result.map(|r| u64::from(k.width(r))).unwrap_or(0);
            }
        }
    }
    let mut v: Vec<Footprint> = by_span
        .into_iter()
        .map(|(span, (ops, bits))| Footprint { span, op: k.float_spans[&span], ops, bits })
        .collect();
    v.sort_by(|a, b| b.bits.cmp(&a.bits).then(a.span.cmp(&b.span)));
    v
}
