//! The rewrite rules, by name. Each says when it is legal; all hold for every input bit
//! pattern under [`crate::ir::op::eval`]'s semantics (wrap-around arithmetic — kiln gives signed
//! overflow the same two's-complement result as unsigned, so no rule relies on it being
//! undefined —, shift counts taken modulo the width, `x / 0` all ones, `x % 0 == x`), so none
//! changes what a kernel computes. Floating-point operations are not in the language at all.
//!
//! The table test at the end checks every rule by name on an example.

use super::analysis::{HwAnalysis, HwGraph};
use super::lang::{Bits, Hw, Width};
use crate::ir::op::mask;
use egg::{Applier, Id, PatternAst, Rewrite, Subst, Symbol, Var, rewrite};

pub type HwRewrite = Rewrite<Hw, HwAnalysis>;

fn var(name: &str) -> Var {
    name.parse().expect("a pattern variable")
}

fn width(g: &HwGraph, id: Id) -> u32 {
    g[id].data.width
}

fn constant(g: &HwGraph, id: Id) -> Option<u64> {
    g[id].data.constant
}

fn konst(g: &mut HwGraph, value: u64, width: u32) -> Id {
    g.add(Hw::Const(Bits { value: value & mask(width), width }))
}

/// `x` converted to `to` bits (zero-extended, sign-extended or truncated); `x` itself when it
/// has that width already.
fn cast(g: &mut HwGraph, x: Id, to: u32, signed: bool) -> Id {
    let from = width(g, x);
    if from == to {
        return x;
    }
    let w = g.add(Hw::Width(Width(to)));
    g.add(if to < from {
        Hw::Trunc([x, w])
    } else if signed {
        Hw::Sext([x, w])
    } else {
        Hw::Zext([x, w])
    })
}

/// An applier that builds the replacement with a function (for rules whose right-hand side
/// needs computed constants or widths); `None` means the rule does not apply to this match.
struct Build<F>(F);

impl<F> Applier<Hw, HwAnalysis> for Build<F>
where
    F: Fn(&mut HwGraph, &Subst) -> Option<Id> + Send + Sync,
{
    fn apply_one(
        &self,
        egraph: &mut HwGraph,
        eclass: Id,
        subst: &Subst,
        _searcher_ast: Option<&PatternAst<Hw>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        match (self.0)(egraph, subst) {
            Some(new) if egraph.union_trusted(eclass, new, rule_name) => vec![eclass],
            _ => vec![],
        }
    }
}

fn build<F>(name: &str, pattern: &str, f: F) -> HwRewrite
where
    F: Fn(&mut HwGraph, &Subst) -> Option<Id> + Send + Sync + 'static,
{
    let searcher: egg::Pattern<Hw> = pattern.parse().expect("a rule pattern");
    Rewrite::new(name, searcher, Build(f)).expect("a well-formed rule")
}

/// `?v` is the constant `c` (at its width; `c` is masked to it).
fn is(v: &'static str, c: u64) -> impl Fn(&mut HwGraph, Id, &Subst) -> bool {
    let v = var(v);
    move |g, _, s| {
        let id = s[v];
        constant(g, id) == Some(c & mask(width(g, id)))
    }
}

fn is_all_ones(v: &'static str) -> impl Fn(&mut HwGraph, Id, &Subst) -> bool {
    let v = var(v);
    move |g, _, s| {
        let id = s[v];
        constant(g, id) == Some(mask(width(g, id)))
    }
}

/// The power-of-two exponent of constant `?v`, when it is one.
fn log2_of(g: &HwGraph, id: Id) -> Option<u32> {
    let c = constant(g, id)?;
    c.is_power_of_two().then(|| c.trailing_zeros())
}

/// The non-adjacent form of `c` as `w`-bit number: (shift, +1/-1) digits, fewest non-zero
/// digits of any signed-digit form (canonical signed digits).
pub fn canonical_signed_digits(c: u64, w: u32) -> Vec<(u32, bool)> {
    let mut digits = Vec::new();
    let mut n = c as u128 & mask(w) as u128;
    let mut i = 0;
    while n != 0 && i < w {
        if n & 1 == 1 {
            let negative = n & 3 == 3;
            digits.push((i, negative));
            n = if negative { n + 1 } else { n - 1 };
        }
        n >>= 1;
        i += 1;
    }
    digits
}

/// Every rule of the phase.
pub fn rules() -> Vec<HwRewrite> {
    let mut r: Vec<HwRewrite> = vec![
        // Commutativity and associativity hold for wrap-around integer arithmetic and for
        // bitwise operations; with one direction of associativity and commutativity every
        // bracketing is reachable, which is what tree-height reduction extracts from.
        rewrite!("add-comm"; "(add ?a ?b)" => "(add ?b ?a)"),
        rewrite!("mul-comm"; "(mul ?a ?b)" => "(mul ?b ?a)"),
        rewrite!("and-comm"; "(and ?a ?b)" => "(and ?b ?a)"),
        rewrite!("or-comm"; "(or ?a ?b)" => "(or ?b ?a)"),
        rewrite!("xor-comm"; "(xor ?a ?b)" => "(xor ?b ?a)"),
        rewrite!("eq-comm"; "(eq ?a ?b)" => "(eq ?b ?a)"),
        rewrite!("ne-comm"; "(ne ?a ?b)" => "(ne ?b ?a)"),
        rewrite!("add-assoc"; "(add ?a (add ?b ?c))" => "(add (add ?a ?b) ?c)"),
        rewrite!("mul-assoc"; "(mul ?a (mul ?b ?c))" => "(mul (mul ?a ?b) ?c)"),
        rewrite!("and-assoc"; "(and ?a (and ?b ?c))" => "(and (and ?a ?b) ?c)"),
        rewrite!("or-assoc"; "(or ?a (or ?b ?c))" => "(or (or ?a ?b) ?c)"),
        rewrite!("xor-assoc"; "(xor ?a (xor ?b ?c))" => "(xor (xor ?a ?b) ?c)"),
        // Identities: always legal on bit vectors.
        rewrite!("add-zero"; "(add ?a ?z)" => "?a" if is("?z", 0)),
        rewrite!("sub-zero"; "(sub ?a ?z)" => "?a" if is("?z", 0)),
        rewrite!("mul-one"; "(mul ?a ?o)" => "?a" if is("?o", 1)),
        rewrite!("and-ones"; "(and ?a ?m)" => "?a" if is_all_ones("?m")),
        rewrite!("or-zero"; "(or ?a ?z)" => "?a" if is("?z", 0)),
        rewrite!("xor-zero"; "(xor ?a ?z)" => "?a" if is("?z", 0)),
        rewrite!("and-self"; "(and ?a ?a)" => "?a"),
        rewrite!("or-self"; "(or ?a ?a)" => "?a"),
        rewrite!("not-not"; "(not (not ?a))" => "?a"),
        rewrite!("neg-neg"; "(neg (neg ?a))" => "?a"),
        rewrite!("xor-ones-is-not"; "(xor ?a ?m)" => "(not ?a)" if is_all_ones("?m")),
        // `a - b == a + (-b)` modulo 2^w, both ways: extraction picks whichever is cheaper.
        rewrite!("sub-as-add-neg"; "(sub ?a ?b)" => "(add ?a (neg ?b))"),
        rewrite!("add-neg-as-sub"; "(add ?a (neg ?b))" => "(sub ?a ?b)"),
        // Distributivity (factoring out a common multiplicand saves a multiplier).
        rewrite!("mul-factor-add"; "(add (mul ?a ?b) (mul ?a ?c))" => "(mul ?a (add ?b ?c))"),
        rewrite!("mul-factor-sub"; "(sub (mul ?a ?b) (mul ?a ?c))" => "(mul ?a (sub ?b ?c))"),
        // Selects: a select of equal arms is the arm; a negated condition swaps the arms; an
        // operand common to both arms is computed once, outside the multiplexer (all operations
        // here are pure and total, so computing one unconditionally is legal).
        rewrite!("select-same"; "(select ?c ?a ?a)" => "?a"),
        rewrite!("select-true"; "(select ?c ?a ?b)" => "?a" if is("?c", 1)),
        rewrite!("select-false"; "(select ?c ?a ?b)" => "?b" if is("?c", 0)),
        rewrite!("select-not-cond"; "(select (not ?c) ?a ?b)" => "(select ?c ?b ?a)"),
        rewrite!("select-nested-then"; "(select ?c (select ?c ?a ?b) ?d)" => "(select ?c ?a ?d)"),
        rewrite!("select-nested-else"; "(select ?c ?a (select ?c ?b ?d))" => "(select ?c ?a ?d)"),
        rewrite!("select-hoist-add"; "(select ?c (add ?a ?x) (add ?a ?y))" => "(add ?a (select ?c ?x ?y))"),
        rewrite!("select-hoist-sub"; "(select ?c (sub ?x ?a) (sub ?y ?a))" => "(sub (select ?c ?x ?y) ?a)"),
        rewrite!("select-hoist-mul"; "(select ?c (mul ?a ?x) (mul ?a ?y))" => "(mul ?a (select ?c ?x ?y))"),
        rewrite!("select-hoist-and"; "(select ?c (and ?a ?x) (and ?a ?y))" => "(and ?a (select ?c ?x ?y))"),
        rewrite!("select-hoist-or"; "(select ?c (or ?a ?x) (or ?a ?y))" => "(or ?a (select ?c ?x ?y))"),
        rewrite!("select-hoist-xor"; "(select ?c (xor ?a ?x) (xor ?a ?y))" => "(xor ?a (select ?c ?x ?y))"),
        // Comparisons in one canonical direction (`<`, `<=`), and negated comparisons as the
        // opposite comparison: exact for integers (no NaN here).
        rewrite!("ugt-as-ult"; "(ugt ?a ?b)" => "(ult ?b ?a)"),
        rewrite!("uge-as-ule"; "(uge ?a ?b)" => "(ule ?b ?a)"),
        rewrite!("sgt-as-slt"; "(sgt ?a ?b)" => "(slt ?b ?a)"),
        rewrite!("sge-as-sle"; "(sge ?a ?b)" => "(sle ?b ?a)"),
        rewrite!("not-ult"; "(not (ult ?a ?b))" => "(ule ?b ?a)"),
        rewrite!("not-ule"; "(not (ule ?a ?b))" => "(ult ?b ?a)"),
        rewrite!("not-slt"; "(not (slt ?a ?b))" => "(sle ?b ?a)"),
        rewrite!("not-sle"; "(not (sle ?a ?b))" => "(slt ?b ?a)"),
        rewrite!("not-eq"; "(not (eq ?a ?b))" => "(ne ?a ?b)"),
        rewrite!("not-ne"; "(not (ne ?a ?b))" => "(eq ?a ?b)"),
    ];
    r.extend(built_rules());
    r
}

/// Rules whose right-hand side is computed: constants of the operands' width, shift amounts,
/// signed-digit decompositions and narrowed widths.
fn built_rules() -> Vec<HwRewrite> {
    let (a, b, c, z) = (var("?a"), var("?b"), var("?c"), var("?z"));
    vec![
        build("sub-self", "(sub ?a ?a)", move |g, s| Some(konst(g, 0, width(g, s[a])))),
        build("xor-self", "(xor ?a ?a)", move |g, s| Some(konst(g, 0, width(g, s[a])))),
        build("mul-zero", "(mul ?a ?z)", move |g, s| {
            (constant(g, s[z]) == Some(0)).then(|| konst(g, 0, width(g, s[a])))
        }),
        build("and-zero", "(and ?a ?z)", move |g, s| {
            (constant(g, s[z]) == Some(0)).then(|| konst(g, 0, width(g, s[a])))
        }),
        build("or-ones", "(or ?a ?z)", move |g, s| {
            let w = width(g, s[a]);
            (constant(g, s[z]) == Some(mask(w))).then(|| konst(g, mask(w), w))
        }),
        // Shift counts are taken modulo the width, so a count that is a multiple of it is 0.
        build("shl-by-zero", "(shl ?a ?c)", move |g, s| shift_by_zero(g, s[a], s[c])),
        build("lshr-by-zero", "(lshr ?a ?c)", move |g, s| shift_by_zero(g, s[a], s[c])),
        build("ashr-by-zero", "(ashr ?a ?c)", move |g, s| shift_by_zero(g, s[a], s[c])),
        build("add-self-as-shl", "(add ?a ?a)", move |g, s| {
            let w = width(g, s[a]);
            (w > 1).then(|| {
                let one = konst(g, 1, w);
                g.add(Hw::Shl([s[a], one]))
            })
        }),
        // Consecutive constant shifts in one direction add their counts; a total count of the
        // width or more shifts every bit out (each count is first taken modulo the width).
        build("shl-shl", "(shl (shl ?a ?b) ?c)", move |g, s| combine_shifts(g, s[a], s[b], s[c], true)),
        build("lshr-lshr", "(lshr (lshr ?a ?b) ?c)", move |g, s| combine_shifts(g, s[a], s[b], s[c], false)),
        // Strength reduction. `x * 2^k == x << k` modulo 2^w.
        build("mul-pow2-as-shl", "(mul ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let k = log2_of(g, s[c])?;
            (k > 0 && k < w).then(|| {
                let count = konst(g, k as u64, w);
                g.add(Hw::Shl([x, count]))
            })
        }),
        // `x * c == Σ ±(x << k)` over the canonical signed digits of c (modulo 2^w); only for
        // two or three digits, where the adders are cheaper than a multiplier.
        build("mul-const-as-shift-add", "(mul ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let digits = canonical_signed_digits(constant(g, s[c])?, w);
            if !(2..=3).contains(&digits.len()) || constant(g, x).is_some() {
                return None;
            }
            Some(shifts_and_adds(g, x, w, digits))
        }),
        // The same with the binary digits of c, all added: as many digits as the signed ones
        // or one more, but adders only, where a subtractor costs more (the iCE40's carry cell
        // cannot invert an operand: `x * 3` as `(x << 1) + x`, not `(x << 2) - x`).
        build("mul-const-as-shifts-added", "(mul ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let c = constant(g, s[c])? & mask(w);
            let digits: Vec<(u32, bool)> = (0..w).filter(|k| c >> k & 1 == 1).map(|k| (k, false)).collect();
            if !(2..=3).contains(&digits.len()) || constant(g, x).is_some() {
                return None;
            }
            Some(shifts_and_adds(g, x, w, digits))
        }),
        // Unsigned division and remainder by 2^k are a shift and a mask.
        build("udiv-pow2-as-lshr", "(udiv ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let k = log2_of(g, s[c])?;
            (k > 0 && k < w).then(|| {
                let count = konst(g, k as u64, w);
                g.add(Hw::LShr([x, count]))
            })
        }),
        build("urem-pow2-as-and", "(urem ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let k = log2_of(g, s[c])?;
            (k < w).then(|| {
                let m = konst(g, mask(k), w);
                g.add(Hw::And([x, m]))
            })
        }),
        // Signed division by 2^k (0 < k ≤ w−2, so 2^k is positive) truncates towards zero: add
        // 2^k − 1 to negative dividends first, `(x + ((x >>s (w−1)) >>u (w−k))) >>s k`.
        build("sdiv-pow2-as-shifts", "(sdiv ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let k = log2_of(g, s[c])?;
            (k > 0 && w >= 2 && k <= w - 2).then(|| signed_div_pow2(g, x, w, k))
        }),
        build("srem-pow2-as-shifts", "(srem ?a ?c)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            let k = log2_of(g, s[c])?;
            (k > 0 && w >= 2 && k <= w - 2).then(|| {
                let q = signed_div_pow2(g, x, w, k);
                let count = konst(g, k as u64, w);
                let back = g.add(Hw::Shl([q, count]));
                g.add(Hw::Sub([x, back]))
            })
        }),
        // Narrowing: when the value ranges prove that every operand and the exact result fit in
        // n < w bits, the operation is done on n bits and zero-extended (truncating and
        // extending are wiring).
        build("narrow-add", "(add ?a ?b)", move |g, s| {
            let (x, y) = (&g[s[a]].data, &g[s[b]].data);
            let n = bits_for(x.hi.checked_add(y.hi)?);
            narrow(g, Hw::Add, s[a], s[b], n)
        }),
        // Signed narrowing: operands that are sign extensions (or sums of them) of narrower
        // values have top bits that copy their sign bit; with `s` such bits an operand fits in
        // `w - s + 1` bits, a sum or difference of two in one bit more, so the operation is done
        // on those bits and sign-extended (mixed_types: `r += ...` of chars, shorts and ints
        // into a long, 64-bit chains that need 35 to 37 bits).
        build("narrow-add-signed", "(add ?a ?b)", move |g, s| narrow_signed(g, Hw::Add, s[a], s[b])),
        build("narrow-sub-signed", "(sub ?a ?b)", move |g, s| narrow_signed(g, Hw::Sub, s[a], s[b])),
        build("narrow-mul", "(mul ?a ?b)", move |g, s| {
            let (x, y) = (&g[s[a]].data, &g[s[b]].data);
            let n = bits_for(x.hi.checked_mul(y.hi)?);
            narrow(g, Hw::Mul, s[a], s[b], n)
        }),
        build("narrow-and", "(and ?a ?b)", move |g, s| {
            let n = g[s[a]].data.significant_bits().min(g[s[b]].data.significant_bits());
            narrow(g, Hw::And, s[a], s[b], n)
        }),
        build("narrow-or", "(or ?a ?b)", move |g, s| {
            let n = g[s[a]].data.significant_bits().max(g[s[b]].data.significant_bits());
            narrow(g, Hw::Or, s[a], s[b], n)
        }),
        build("narrow-xor", "(xor ?a ?b)", move |g, s| {
            let n = g[s[a]].data.significant_bits().max(g[s[b]].data.significant_bits());
            narrow(g, Hw::Xor, s[a], s[b], n)
        }),
        build("narrow-sub", "(sub ?a ?b)", move |g, s| {
            // Only when it cannot wrap: then the difference is at most `a`.
            let (x, y) = (&g[s[a]].data, &g[s[b]].data);
            (x.lo >= y.hi).then_some(())?;
            let n = x.significant_bits();
            narrow(g, Hw::Sub, s[a], s[b], n)
        }),
        build("narrow-udiv", "(udiv ?a ?b)", move |g, s| {
            // Both operands fit in n bits and the divisor is not 0 (`x / 0` is all ones of the
            // width, which narrowing would change): the quotient is at most the dividend.
            (g[s[b]].data.lo >= 1).then_some(())?;
            let n = g[s[a]].data.significant_bits().max(g[s[b]].data.significant_bits());
            narrow(g, Hw::UDiv, s[a], s[b], n)
        }),
        build("narrow-urem", "(urem ?a ?b)", move |g, s| {
            // `x % y` is at most `x` (also `x % 0 = x`), and `x`, `y` fit.
            let n = g[s[a]].data.significant_bits().max(g[s[b]].data.significant_bits());
            narrow(g, Hw::URem, s[a], s[b], n)
        }),
        build("narrow-select", "(select ?c ?a ?b)", move |g, s| {
            let w = width(g, s[a]);
            let n = g[s[a]].data.significant_bits().max(g[s[b]].data.significant_bits()).max(1);
            if n >= w || constant(g, s[a]).is_some() && constant(g, s[b]).is_some() {
                return None;
            }
            let (x, y) = (cast(g, s[a], n, false), cast(g, s[b], n, false));
            let r = g.add(Hw::Select([s[c], x, y]));
            Some(cast(g, r, w, false))
        }),
        build("narrow-lshr", "(lshr ?a ?b)", move |g, s| {
            // The count is taken modulo the width: only counts below the narrow width keep
            // their meaning.
            let n = g[s[a]].data.significant_bits().max(1);
            (g[s[b]].data.hi < n as u64).then_some(())?;
            narrow_shift(g, Hw::LShr, s[a], s[b], n)
        }),
        build("narrow-shl", "(shl ?a ?b)", move |g, s| {
            let c = constant(g, s[b])?;
            let w = width(g, s[a]);
            let c = c % w as u64;
            let hi = g[s[a]].data.hi.checked_shl(c as u32).filter(|h| (h >> c) == g[s[a]].data.hi)?;
            let n = bits_for(hi);
            (c < n as u64).then_some(())?;
            // The count as the shift used it (modulo the wide width), at the narrow width.
            let count = konst(g, c, n);
            narrow_shift(g, Hw::Shl, s[a], count, n)
        }),
        build("narrow-ult", "(ult ?a ?b)", move |g, s| narrow_compare(g, Hw::Ult, s[a], s[b])),
        build("narrow-ule", "(ule ?a ?b)", move |g, s| narrow_compare(g, Hw::Ule, s[a], s[b])),
        build("narrow-eq", "(eq ?a ?b)", move |g, s| narrow_compare(g, Hw::Eq, s[a], s[b])),
        build("narrow-ne", "(ne ?a ?b)", move |g, s| narrow_compare(g, Hw::Ne, s[a], s[b])),
        // The low n bits of a sum, difference, product or bitwise result depend only on the low
        // n bits of the operands.
        build("trunc-add", "(trunc (add ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::Add, s[a], s[b], s[c])),
        build("trunc-sub", "(trunc (sub ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::Sub, s[a], s[b], s[c])),
        build("trunc-mul", "(trunc (mul ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::Mul, s[a], s[b], s[c])),
        build("trunc-and", "(trunc (and ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::And, s[a], s[b], s[c])),
        build("trunc-or", "(trunc (or ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::Or, s[a], s[b], s[c])),
        build("trunc-xor", "(trunc (xor ?a ?b) ?c)", move |g, s| trunc_through(g, Hw::Xor, s[a], s[b], s[c])),
        build("trunc-not", "(trunc (not ?a) ?c)", move |g, s| {
            let n = constant(g, s[c])? as u32;
            let t = cast(g, s[a], n, false);
            Some(g.add(Hw::Not(t)))
        }),
        // Casts of casts.
        build("trunc-of-ext", "(trunc (zext ?a ?b) ?c)", move |g, s| {
            let n = constant(g, s[c])? as u32;
            Some(cast(g, s[a], n, false))
        }),
        build("trunc-of-sext", "(trunc (sext ?a ?b) ?c)", move |g, s| {
            let n = constant(g, s[c])? as u32;
            Some(cast(g, s[a], n, true))
        }),
        build("trunc-trunc", "(trunc (trunc ?a ?b) ?c)", move |g, s| {
            let n = constant(g, s[c])? as u32;
            Some(cast(g, s[a], n, false))
        }),
        build("zext-zext", "(zext (zext ?a ?b) ?c)", move |g, s| {
            let n = constant(g, s[c])? as u32;
            Some(cast(g, s[a], n, false))
        }),
        build("sext-of-nonnegative", "(sext ?a ?c)", move |g, s| {
            let x = &g[s[a]].data;
            let sign_known_zero = x.width > 0 && (x.zeros >> (x.width - 1)) & 1 == 1;
            let n = constant(g, s[c])? as u32;
            sign_known_zero.then(|| cast(g, s[a], n, false))
        }),
        // Signed operations on values whose sign bits are known 0 are the unsigned ones
        // (division and remainder by 0 too: all ones and the dividend either way).
        build("slt-nonnegative-as-ult", "(slt ?a ?b)", move |g, s| {
            both_nonnegative(g, s[a], s[b]).then(|| g.add(Hw::Ult([s[a], s[b]])))
        }),
        build("sle-nonnegative-as-ule", "(sle ?a ?b)", move |g, s| {
            both_nonnegative(g, s[a], s[b]).then(|| g.add(Hw::Ule([s[a], s[b]])))
        }),
        build("sdiv-nonnegative-as-udiv", "(sdiv ?a ?b)", move |g, s| {
            both_nonnegative(g, s[a], s[b]).then(|| g.add(Hw::UDiv([s[a], s[b]])))
        }),
        build("srem-nonnegative-as-urem", "(srem ?a ?b)", move |g, s| {
            both_nonnegative(g, s[a], s[b]).then(|| g.add(Hw::URem([s[a], s[b]])))
        }),
        build("ashr-nonnegative-as-lshr", "(ashr ?a ?b)", move |g, s| {
            nonnegative(g, s[a]).then(|| g.add(Hw::LShr([s[a], s[b]])))
        }),
        // Unsigned division by a constant `d` of a dividend known to be at most `N`:
        // `x / d = (x · m) >> s` with `m = ⌈2^s / d⌉`, exact for every `x ≤ N` when
        // `N · (m·d − 2^s) < 2^s` (the error `x·(m·d − 2^s)/(d·2^s)` stays below `1/d`); the
        // smallest such `s` gives the narrowest multiplier. A small range makes it a small
        // multiply (a 9-bit dividend needs no 64-bit product).
        build("udiv-const-as-mul-shift", "(udiv ?a ?c)", move |g, s| {
            let d = constant(g, s[c])?;
            let w = width(g, s[a]);
            if d <= 1 || d.is_power_of_two() || constant(g, s[a]).is_some() {
                return None;
            }
            let (m, shift, product_width) = reciprocal(d, g[s[a]].data.hi)?;
            let x = cast(g, s[a], product_width, false);
            let mv = konst(g, m, product_width);
            let p = g.add(Hw::Mul([x, mv]));
            let count = konst(g, shift as u64, product_width);
            let q = g.add(Hw::LShr([p, count]));
            Some(cast(g, q, w, false))
        }),
        // `x % d = x − (x / d)·d` for a constant `d`, so the quotient's rules apply.
        build("urem-const-as-sub-mul", "(urem ?a ?c)", move |g, s| {
            let d = constant(g, s[c])?;
            if d <= 1 || d.is_power_of_two() || constant(g, s[a]).is_some() {
                return None;
            }
            let q = g.add(Hw::UDiv([s[a], s[c]]));
            let p = g.add(Hw::Mul([q, s[c]]));
            Some(g.add(Hw::Sub([s[a], p])))
        }),
        // `-x` of an x that is 0 or 1 is 0 or all ones: x's bit copied into every bit, which
        // is wiring (`(x << (w-1)) >>s (w-1)`), where a negation is a carry chain as wide as x
        // (crc32's `-(crc & 1)` mask).
        build("neg-of-bit-as-sign-fill", "(neg ?a)", move |g, s| {
            let (x, w) = (s[a], width(g, s[a]));
            (w > 1 && g[x].data.hi <= 1 && constant(g, x).is_none()).then(|| {
                let count = konst(g, u64::from(w - 1), w);
                let up = g.add(Hw::Shl([x, count]));
                g.add(Hw::AShr([up, count]))
            })
        }),
        build("zext-of-trunc-in-range", "(zext (trunc ?a ?b) ?c)", move |g, s| {
            let n = constant(g, s[b])? as u32;
            let w = constant(g, s[c])? as u32;
            (width(g, s[a]) == w && g[s[a]].data.hi <= mask(n)).then_some(s[a])
        }),
    ]
}

/// `Σ ±(x << k)` over signed digits `(k, negative)`, a positive digit first so that no
/// negation is needed.
fn shifts_and_adds(g: &mut HwGraph, x: Id, w: u32, mut digits: Vec<(u32, bool)>) -> Id {
    digits.sort_by_key(|(k, negative)| (*negative, *k));
    let mut acc: Option<Id> = None;
    for (k, negative) in digits {
        let term = if k == 0 {
            x
        } else {
            let count = konst(g, k as u64, w);
            g.add(Hw::Shl([x, count]))
        };
        acc = Some(match (acc, negative) {
            (None, false) => term,
            (None, true) => g.add(Hw::Neg(term)),
            (Some(sum), false) => g.add(Hw::Add([sum, term])),
            (Some(sum), true) => g.add(Hw::Sub([sum, term])),
        });
    }
    acc.unwrap_or(x)
}

fn shift_by_zero(g: &HwGraph, x: Id, count: Id) -> Option<Id> {
    let c = constant(g, count)?;
    (c & mask(width(g, count))).is_multiple_of(width(g, x) as u64).then_some(x)
}

fn combine_shifts(g: &mut HwGraph, x: Id, first: Id, second: Id, left: bool) -> Option<Id> {
    let w = width(g, x) as u64;
    let c1 = (constant(g, first)? & mask(width(g, first))) % w;
    let c2 = (constant(g, second)? & mask(width(g, second))) % w;
    let total = c1 + c2;
    if total >= w {
        return Some(konst(g, 0, w as u32));
    }
    let count = konst(g, total, w as u32);
    Some(g.add(if left { Hw::Shl([x, count]) } else { Hw::LShr([x, count]) }))
}

fn signed_div_pow2(g: &mut HwGraph, x: Id, w: u32, k: u32) -> Id {
    let sign_count = konst(g, (w - 1) as u64, w);
    let sign = g.add(Hw::AShr([x, sign_count]));
    let bias_count = konst(g, (w - k) as u64, w);
    let bias = g.add(Hw::LShr([sign, bias_count]));
    let biased = g.add(Hw::Add([x, bias]));
    let count = konst(g, k as u64, w);
    g.add(Hw::AShr([biased, count]))
}

/// Bits needed to hold `v`.
fn bits_for(v: u64) -> u32 {
    (64 - v.leading_zeros()).max(1)
}

fn narrow(g: &mut HwGraph, op: fn([Id; 2]) -> Hw, a: Id, b: Id, n: u32) -> Option<Id> {
    let w = width(g, a);
    let n = n.max(1);
    if n >= w || constant(g, a).is_some() && constant(g, b).is_some() {
        return None;
    }
    let (x, y) = (cast(g, a, n, false), cast(g, b, n, false));
    let r = g.add(op([x, y]));
    Some(cast(g, r, w, false))
}

/// A sum or difference on the bits its operands' signed values need, one more for the result
/// (an operand with `s` sign bits needs `w - s + 1`), sign-extended back.
/// Only for operations wider than 32 bits (`long` datapaths), and not with a constant
/// operand: `i - 1` is how a counter steps, and the kernel-wide range analysis
/// ([`crate::ranges`]) bounds counters by reading their steps at their width (a sign-extended
/// narrow sum hides the bound: a loop's constant stop was lost to it); and on 32-bit index
/// arithmetic, which the unsigned rules narrow already, it changed the index expressions of
/// most PolyBench kernels for no measured gain (jacobi-2d's multiplies 2 -> 4).
fn narrow_signed(g: &mut HwGraph, op: fn([Id; 2]) -> Hw, a: Id, b: Id) -> Option<Id> {
    let w = width(g, a);
    let n = w + 2 - g[a].data.sign_bits.min(g[b].data.sign_bits);
    if w <= 32 || n >= w || n < 2 || constant(g, a).is_some() || constant(g, b).is_some() {
        return None;
    }
    let (x, y) = (cast(g, a, n, true), cast(g, b, n, true));
    let r = g.add(op([x, y]));
    Some(cast(g, r, w, true))
}

/// `op` on `n` bits (the count truncated too: it is below `n`), zero-extended back.
fn narrow_shift(g: &mut HwGraph, op: fn([Id; 2]) -> Hw, a: Id, count: Id, n: u32) -> Option<Id> {
    let w = width(g, a);
    if n >= w || constant(g, a).is_some() {
        return None;
    }
    let x = cast(g, a, n, false);
    let c = cast(g, count, n, false);
    let r = g.add(op([x, c]));
    Some(cast(g, r, w, false))
}

fn nonnegative(g: &HwGraph, id: Id) -> bool {
    let f = &g[id].data;
    f.width > 0 && (f.zeros >> (f.width - 1)) & 1 == 1
}

fn both_nonnegative(g: &HwGraph, a: Id, b: Id) -> bool {
    nonnegative(g, a) && nonnegative(g, b)
}

/// The multiplier, shift and product width that divide every `x ≤ n` by `d` exactly
/// (`(x · m) >> s`), with the narrowest product; `None` when the product needs more than 64 bits.
pub fn reciprocal(d: u64, n: u64) -> Option<(u64, u32, u32)> {
    let log = 64 - (d - 1).leading_zeros();
    for shift in log..64 {
        let two_s = 1u128 << shift;
        let m = two_s.div_ceil(d as u128);
        let error = m * d as u128 - two_s;
        if (n as u128) * error < two_s {
            let product = n as u128 * m;
            let bits = 128 - product.leading_zeros();
            let width = bits.max(shift + 1).max(64 - n.leading_zeros()).max(1);
            return (width <= 64 && m <= u64::MAX as u128).then_some((m as u64, shift, width));
        }
    }
    None
}

fn narrow_compare(g: &mut HwGraph, op: fn([Id; 2]) -> Hw, a: Id, b: Id) -> Option<Id> {
    let w = width(g, a);
    let n = g[a].data.significant_bits().max(g[b].data.significant_bits()).max(1);
    if n >= w {
        return None;
    }
    let (x, y) = (cast(g, a, n, false), cast(g, b, n, false));
    Some(g.add(op([x, y])))
}

fn trunc_through(g: &mut HwGraph, op: fn([Id; 2]) -> Hw, a: Id, b: Id, to: Id) -> Option<Id> {
    let n = constant(g, to)? as u32;
    let (x, y) = (cast(g, a, n, false), cast(g, b, n, false));
    Some(g.add(op([x, y])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::{RecExpr, Runner};

    /// (rule, leaf widths, expression, an equivalent form the rule must reach).
    const EXAMPLES: &[(&str, &[u32], &str, &str)] = &[
        ("add-comm", &[8, 8], "(add v0 v1)", "(add v1 v0)"),
        ("mul-comm", &[8, 8], "(mul v0 v1)", "(mul v1 v0)"),
        ("and-comm", &[8, 8], "(and v0 v1)", "(and v1 v0)"),
        ("or-comm", &[8, 8], "(or v0 v1)", "(or v1 v0)"),
        ("xor-comm", &[8, 8], "(xor v0 v1)", "(xor v1 v0)"),
        ("eq-comm", &[8, 8], "(eq v0 v1)", "(eq v1 v0)"),
        ("ne-comm", &[8, 8], "(ne v0 v1)", "(ne v1 v0)"),
        ("add-assoc", &[8, 8, 8], "(add v0 (add v1 v2))", "(add (add v0 v1) v2)"),
        ("mul-assoc", &[8, 8, 8], "(mul v0 (mul v1 v2))", "(mul (mul v0 v1) v2)"),
        ("and-assoc", &[8, 8, 8], "(and v0 (and v1 v2))", "(and (and v0 v1) v2)"),
        ("or-assoc", &[8, 8, 8], "(or v0 (or v1 v2))", "(or (or v0 v1) v2)"),
        ("xor-assoc", &[8, 8, 8], "(xor v0 (xor v1 v2))", "(xor (xor v0 v1) v2)"),
        ("add-zero", &[8], "(add v0 #0:8)", "v0"),
        ("sub-zero", &[8], "(sub v0 #0:8)", "v0"),
        ("mul-one", &[8], "(mul v0 #1:8)", "v0"),
        ("and-ones", &[8], "(and v0 #255:8)", "v0"),
        ("or-zero", &[8], "(or v0 #0:8)", "v0"),
        ("xor-zero", &[8], "(xor v0 #0:8)", "v0"),
        ("and-self", &[8], "(and v0 v0)", "v0"),
        ("or-self", &[8], "(or v0 v0)", "v0"),
        ("not-not", &[8], "(not (not v0))", "v0"),
        ("neg-neg", &[8], "(neg (neg v0))", "v0"),
        ("xor-ones-is-not", &[8], "(xor v0 #255:8)", "(not v0)"),
        ("sub-as-add-neg", &[8, 8], "(sub v0 v1)", "(add v0 (neg v1))"),
        ("add-neg-as-sub", &[8, 8], "(add v0 (neg v1))", "(sub v0 v1)"),
        ("mul-factor-add", &[8, 8, 8], "(add (mul v0 v1) (mul v0 v2))", "(mul v0 (add v1 v2))"),
        ("mul-factor-sub", &[8, 8, 8], "(sub (mul v0 v1) (mul v0 v2))", "(mul v0 (sub v1 v2))"),
        ("select-same", &[1, 8], "(select v0 v1 v1)", "v1"),
        ("select-true", &[8, 8], "(select #1:1 v0 v1)", "v0"),
        ("select-false", &[8, 8], "(select #0:1 v0 v1)", "v1"),
        ("select-not-cond", &[1, 8, 8], "(select (not v0) v1 v2)", "(select v0 v2 v1)"),
        ("select-nested-then", &[1, 8, 8, 8], "(select v0 (select v0 v1 v2) v3)", "(select v0 v1 v3)"),
        ("select-nested-else", &[1, 8, 8, 8], "(select v0 v1 (select v0 v2 v3))", "(select v0 v1 v3)"),
        ("select-hoist-add", &[1, 8, 8, 8], "(select v0 (add v1 v2) (add v1 v3))", "(add v1 (select v0 v2 v3))"),
        ("select-hoist-sub", &[1, 8, 8, 8], "(select v0 (sub v2 v1) (sub v3 v1))", "(sub (select v0 v2 v3) v1)"),
        ("select-hoist-mul", &[1, 8, 8, 8], "(select v0 (mul v1 v2) (mul v1 v3))", "(mul v1 (select v0 v2 v3))"),
        ("select-hoist-and", &[1, 8, 8, 8], "(select v0 (and v1 v2) (and v1 v3))", "(and v1 (select v0 v2 v3))"),
        ("select-hoist-or", &[1, 8, 8, 8], "(select v0 (or v1 v2) (or v1 v3))", "(or v1 (select v0 v2 v3))"),
        ("select-hoist-xor", &[1, 8, 8, 8], "(select v0 (xor v1 v2) (xor v1 v3))", "(xor v1 (select v0 v2 v3))"),
        ("ugt-as-ult", &[8, 8], "(ugt v0 v1)", "(ult v1 v0)"),
        ("uge-as-ule", &[8, 8], "(uge v0 v1)", "(ule v1 v0)"),
        ("sgt-as-slt", &[8, 8], "(sgt v0 v1)", "(slt v1 v0)"),
        ("sge-as-sle", &[8, 8], "(sge v0 v1)", "(sle v1 v0)"),
        ("not-ult", &[8, 8], "(not (ult v0 v1))", "(ule v1 v0)"),
        ("not-ule", &[8, 8], "(not (ule v0 v1))", "(ult v1 v0)"),
        ("not-slt", &[8, 8], "(not (slt v0 v1))", "(sle v1 v0)"),
        ("not-sle", &[8, 8], "(not (sle v0 v1))", "(slt v1 v0)"),
        ("not-eq", &[8, 8], "(not (eq v0 v1))", "(ne v0 v1)"),
        ("not-ne", &[8, 8], "(not (ne v0 v1))", "(eq v0 v1)"),
        ("sub-self", &[8], "(sub v0 v0)", "#0:8"),
        ("xor-self", &[8], "(xor v0 v0)", "#0:8"),
        ("mul-zero", &[8], "(mul v0 #0:8)", "#0:8"),
        ("and-zero", &[8], "(and v0 #0:8)", "#0:8"),
        ("or-ones", &[8], "(or v0 #255:8)", "#255:8"),
        ("shl-by-zero", &[8], "(shl v0 #16:8)", "v0"),
        ("lshr-by-zero", &[8], "(lshr v0 #8:8)", "v0"),
        ("ashr-by-zero", &[8], "(ashr v0 #0:8)", "v0"),
        ("add-self-as-shl", &[8], "(add v0 v0)", "(shl v0 #1:8)"),
        ("shl-shl", &[8], "(shl (shl v0 #3:8) #2:8)", "(shl v0 #5:8)"),
        ("lshr-lshr", &[8], "(lshr (lshr v0 #5:8) #4:8)", "#0:8"),
        ("mul-pow2-as-shl", &[32], "(mul v0 #8:32)", "(shl v0 #3:32)"),
        ("mul-const-as-shift-add", &[32], "(mul v0 #7:32)", "(sub (shl v0 #3:32) v0)"),
        ("mul-const-as-shifts-added", &[32], "(mul v0 #3:32)", "(add v0 (shl v0 #1:32))"),
        ("udiv-pow2-as-lshr", &[32], "(udiv v0 #16:32)", "(lshr v0 #4:32)"),
        ("urem-pow2-as-and", &[32], "(urem v0 #16:32)", "(and v0 #15:32)"),
        ("sdiv-pow2-as-shifts", &[32], "(sdiv v0 #4:32)", "(ashr (add v0 (lshr (ashr v0 #31:32) #30:32)) #2:32)"),
        (
            "srem-pow2-as-shifts",
            &[32],
            "(srem v0 #4:32)",
            "(sub v0 (shl (ashr (add v0 (lshr (ashr v0 #31:32) #30:32)) #2:32) #2:32))",
        ),
        (
            "narrow-add",
            &[8, 8],
            "(add (zext v0 w32) (zext v1 w32))",
            "(zext (add (trunc (zext v0 w32) w9) (trunc (zext v1 w32) w9)) w32)",
        ),
        (
            "narrow-mul",
            &[4, 4],
            "(mul (zext v0 w32) (zext v1 w32))",
            "(zext (mul (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8)) w32)",
        ),
        ("narrow-and", &[8, 32], "(and (zext v0 w32) v1)", "(zext (and (trunc (zext v0 w32) w8) (trunc v1 w8)) w32)"),
        (
            "narrow-or",
            &[8, 4],
            "(or (zext v0 w32) (zext v1 w32))",
            "(zext (or (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8)) w32)",
        ),
        (
            "narrow-xor",
            &[8, 8],
            "(xor (zext v0 w32) (zext v1 w32))",
            "(zext (xor (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8)) w32)",
        ),
        (
            "narrow-ult",
            &[8, 8],
            "(ult (zext v0 w32) (zext v1 w32))",
            "(ult (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8))",
        ),
        (
            "narrow-ule",
            &[8, 8],
            "(ule (zext v0 w32) (zext v1 w32))",
            "(ule (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8))",
        ),
        (
            "narrow-eq",
            &[8, 8],
            "(eq (zext v0 w32) (zext v1 w32))",
            "(eq (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8))",
        ),
        (
            "narrow-ne",
            &[8, 8],
            "(ne (zext v0 w32) (zext v1 w32))",
            "(ne (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8))",
        ),
        (
            "narrow-sub",
            &[8, 8],
            "(sub (zext (or v0 #128:8) w32) (zext (and v1 #127:8) w32))",
            "(zext (sub (trunc (zext (or v0 #128:8) w32) w8) (trunc (zext (and v1 #127:8) w32) w8)) w32)",
        ),
        (
            "narrow-add-signed",
            &[8, 16],
            "(add (sext v0 w64) (sext v1 w64))",
            "(sext (add (trunc (sext v0 w64) w17) (trunc (sext v1 w64) w17)) w64)",
        ),
        (
            "narrow-sub-signed",
            &[8, 16],
            "(sub (sext v0 w64) (zext v1 w64))",
            "(sext (sub (trunc (sext v0 w64) w18) (trunc (zext v1 w64) w18)) w64)",
        ),
        (
            "narrow-udiv",
            &[8, 8],
            "(udiv (zext v0 w32) (zext (or v1 #1:8) w32))",
            "(zext (udiv (trunc (zext v0 w32) w8) (trunc (zext (or v1 #1:8) w32) w8)) w32)",
        ),
        (
            "narrow-urem",
            &[8, 8],
            "(urem (zext v0 w32) (zext v1 w32))",
            "(zext (urem (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8)) w32)",
        ),
        (
            "narrow-select",
            &[1, 8, 8],
            "(select v0 (zext v1 w32) (zext v2 w32))",
            "(zext (select v0 (trunc (zext v1 w32) w8) (trunc (zext v2 w32) w8)) w32)",
        ),
        (
            "narrow-lshr",
            &[8, 2],
            "(lshr (zext v0 w32) (zext v1 w32))",
            "(zext (lshr (trunc (zext v0 w32) w8) (trunc (zext v1 w32) w8)) w32)",
        ),
        ("narrow-shl", &[4], "(shl (zext v0 w32) #2:32)", "(zext (shl (trunc (zext v0 w32) w6) #2:6) w32)"),
        ("slt-nonnegative-as-ult", &[8, 8], "(slt (zext v0 w32) (zext v1 w32))", "(ult (zext v0 w32) (zext v1 w32))"),
        ("sle-nonnegative-as-ule", &[8, 8], "(sle (zext v0 w32) (zext v1 w32))", "(ule (zext v0 w32) (zext v1 w32))"),
        (
            "sdiv-nonnegative-as-udiv",
            &[8, 8],
            "(sdiv (zext v0 w32) (zext v1 w32))",
            "(udiv (zext v0 w32) (zext v1 w32))",
        ),
        (
            "srem-nonnegative-as-urem",
            &[8, 8],
            "(srem (zext v0 w32) (zext v1 w32))",
            "(urem (zext v0 w32) (zext v1 w32))",
        ),
        ("ashr-nonnegative-as-lshr", &[8, 32], "(ashr (zext v0 w32) v1)", "(lshr (zext v0 w32) v1)"),
        (
            "udiv-const-as-mul-shift",
            &[8],
            "(udiv (zext v0 w32) #20:32)",
            "(zext (lshr (mul (trunc (zext v0 w32) w16) #205:16) #12:16) w32)",
        ),
        ("urem-const-as-sub-mul", &[32], "(urem v0 #20:32)", "(sub v0 (mul (udiv v0 #20:32) #20:32))"),
        ("trunc-add", &[32, 32], "(trunc (add v0 v1) w8)", "(add (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-sub", &[32, 32], "(trunc (sub v0 v1) w8)", "(sub (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-mul", &[32, 32], "(trunc (mul v0 v1) w8)", "(mul (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-and", &[32, 32], "(trunc (and v0 v1) w8)", "(and (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-or", &[32, 32], "(trunc (or v0 v1) w8)", "(or (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-xor", &[32, 32], "(trunc (xor v0 v1) w8)", "(xor (trunc v0 w8) (trunc v1 w8))"),
        ("trunc-not", &[32], "(trunc (not v0) w8)", "(not (trunc v0 w8))"),
        ("trunc-of-ext", &[8], "(trunc (zext v0 w32) w16)", "(zext v0 w16)"),
        ("trunc-of-sext", &[8], "(trunc (sext v0 w32) w8)", "v0"),
        ("trunc-trunc", &[32], "(trunc (trunc v0 w16) w8)", "(trunc v0 w8)"),
        ("zext-zext", &[8], "(zext (zext v0 w16) w32)", "(zext v0 w32)"),
        ("sext-of-nonnegative", &[7], "(sext (zext v0 w8) w32)", "(zext (zext v0 w8) w32)"),
        ("zext-of-trunc-in-range", &[8], "(zext (trunc (zext v0 w32) w16) w32)", "(zext v0 w32)"),
        ("neg-of-bit-as-sign-fill", &[32], "(neg (and v0 #1:32))", "(ashr (shl (and v0 #1:32) #31:32) #31:32)"),
    ];

    #[test]
    fn every_rule_reaches_its_example() {
        let all = rules();
        for (name, leaves, from, to) in EXAMPLES {
            let rule: Vec<&HwRewrite> = all.iter().filter(|r| r.name.as_str() == *name).collect();
            assert_eq!(rule.len(), 1, "rule `{name}` exists once");
            let from: RecExpr<Hw> = from.parse().expect("example parses");
            let to: RecExpr<Hw> = to.parse().expect("example parses");
            let runner = Runner::<Hw, HwAnalysis>::new(HwAnalysis::unknown_leaves(leaves))
                .with_expr(&from)
                .with_iter_limit(3)
                .run(rule.iter().copied().chain(all.iter().filter(|r| r.name.as_str() == "add-comm")));
            assert!(!runner.egraph.equivs(&from, &to).is_empty(), "rule `{name}` did not show {from} == {to}");
        }
    }

    #[test]
    fn every_rule_has_an_example() {
        for r in rules() {
            assert!(EXAMPLES.iter().any(|e| e.0 == r.name.as_str()), "rule `{}` has no example", r.name);
        }
    }

    #[test]
    fn reciprocals_divide_exactly_up_to_their_bound() {
        for d in [3u64, 5, 6, 7, 10, 20, 25, 30, 100, 641, 1000] {
            for n in [d - 1, d, 2 * d + 1, 255, 457, 1000, 65535, 100_000] {
                let (m, s, w) = reciprocal(d, n).expect("a reciprocal in 64 bits");
                assert!(w <= 64 && s < w, "d {d}, n {n}: shift {s} inside {w} bits");
                for x in (0..=n).step_by(((n / 5000) + 1) as usize).chain([n]) {
                    let q = ((x as u128 * m as u128) & crate::ir::op::mask(w) as u128) >> s;
                    assert_eq!(q as u64, x / d, "d {d}, n {n}, x {x}: m {m}, s {s}, {w} bits");
                }
            }
        }
        // A full 32-bit range needs more than a 64-bit product for some divisors.
        assert!(reciprocal(7, u32::MAX as u64).is_none_or(|(_, _, w)| w <= 64));
    }

    #[test]
    fn canonical_signed_digits_are_non_adjacent_and_exact() {
        for c in 0u64..2000 {
            let d = canonical_signed_digits(c, 32);
            let v = d.iter().fold(0i64, |acc, (k, neg)| if *neg { acc - (1 << k) } else { acc + (1 << k) });
            assert_eq!(v as u64 & 0xffff_ffff, c, "{c}");
            assert!(d.windows(2).all(|p| p[1].0 > p[0].0 + 1), "{c}: {d:?}");
        }
        assert_eq!(canonical_signed_digits(7, 32), vec![(0, true), (3, false)]);
    }
}
