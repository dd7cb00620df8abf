//! Run spec v1: the TOML file that says which kernel to run and with what data.
//!
//! ```toml
//! kernel = "vadd"              # kernel function name (required)
//! global_size = [1024]         # NDRange global size, 1-3 dims; default [1]
//! local_size  = [64]           # optional
//! max_cycles  = 10000000       # optional cycle limit for timed runs
//! defines     = { N = "16" }   # optional -D macros
//!
//! [args]                       # one entry per kernel parameter, by name
//! a = { len = 1024, fill = "random", seed = 1, min = -1000, max = 1000 }
//! b = { data = [1, 2, 3, 4] }  # explicit contents (floats: numbers, "nan", "inf", "-inf")
//! c = { len = 1024 }           # zero-filled buffer
//! n = 1024                     # scalar parameter
//! ```
//!
//! Random fill is splitmix64 with one generator per argument (state = seed) and
//! `min + next() % (max - min + 1)` in 128-bit arithmetic, so any tool can regenerate the data.
//! Every problem is a diagnostic located in the spec file.

use kiln_dataflow::Kernel;
use kiln_dataflow::emu::Arg;
use kiln_dataflow::ir::{Implicit, Param, ParamKind, VectorLane};
use kiln_diagnostics::{Diagnostic, codes};
use kiln_diagnostics::{FileId, SourceMap, Span};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Raw {
    kernel: Spanned<String>,
    global_size: Option<Spanned<Vec<i64>>>,
    local_size: Option<Spanned<Vec<i64>>>,
    max_cycles: Option<Spanned<i64>>,
    #[serde(default)]
    defines: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    args: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
}

/// A parsed run spec; spans point into the spec file.
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub file: FileId,
    pub kernel: String,
    pub kernel_span: Span,
    pub global_size: Vec<u64>,
    pub global_span: Option<Span>,
    pub local_size: Option<Vec<u64>>,
    pub local_span: Option<Span>,
    pub max_cycles: Option<u64>,
    pub defines: Vec<(String, String)>,
    /// name → (key span, value span, value).
    pub args: BTreeMap<String, (Span, Span, toml::Value)>,
}

pub(crate) fn span(file: FileId, r: std::ops::Range<usize>) -> Span {
    Span::new(file, r.start as u32, r.end as u32)
}

/// Reads and parses a run spec file into `sources`.
pub fn load(path: &Path, sources: &mut SourceMap) -> Result<RunSpec, Diagnostic> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::error(codes::IO_READ, format!("cannot read run spec `{}`: {e}", path.display())))?;
    let file = sources.add(path.display().to_string(), Some(path.to_path_buf()), text);
    parse(file, sources)
}

/// A TOML parse error as a diagnostic in the spec file.
pub(crate) fn toml_error(file: FileId, e: toml::de::Error) -> Diagnostic {
    let d = Diagnostic::error(codes::SPEC_PARSE, format!("invalid run spec: {}", e.message().trim()));
    match e.span() {
        Some(r) => d.at(span(file, r)),
        None => d,
    }
}

pub fn parse(file: FileId, sources: &SourceMap) -> Result<RunSpec, Diagnostic> {
    let text = &sources.file(file).text;
    let raw: Raw = toml::from_str(text).map_err(|e| toml_error(file, e))?;
    from_raw(file, &raw)
}

/// One kernel's launch from its parsed TOML.
pub(crate) fn from_raw(file: FileId, raw: &Raw) -> Result<RunSpec, Diagnostic> {
    let dims = |v: &Spanned<Vec<i64>>, what: &str| -> Result<Vec<u64>, Diagnostic> {
        let s = span(file, v.span());
        let vals = v.get_ref();
        if vals.is_empty() || vals.len() > 3 || vals.iter().any(|x| *x < 1) {
            return Err(
                Diagnostic::error(codes::SPEC_BAD_LAUNCH, format!("`{what}` must list 1 to 3 positive sizes")).at(s)
            );
        }
        Ok(vals.iter().map(|x| *x as u64).collect())
    };
    let global_size = match &raw.global_size {
        Some(g) => dims(g, "global_size")?,
        None => vec![1],
    };
    let local_size = match &raw.local_size {
        Some(l) => Some(dims(l, "local_size")?),
        None => None,
    };
    let max_cycles = match &raw.max_cycles {
        Some(m) if *m.get_ref() < 1 => {
            return Err(Diagnostic::error(codes::SPEC_PARSE, "`max_cycles` must be positive").at(span(file, m.span())));
        }
        Some(m) => Some(*m.get_ref() as u64),
        None => None,
    };
    let mut defines = Vec::new();
    for (k, v) in &raw.defines {
        let val = match v.get_ref() {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => (*b as i32).to_string(),
            _ => {
                return Err(Diagnostic::error(
                    codes::SPEC_PARSE,
                    format!("define `{k}` must be a string or an integer"),
                )
                .at(span(file, v.span())));
            }
        };
        defines.push((k.clone(), val));
    }
    let args = raw
        .args
        .iter()
        .map(|(k, v)| (k.get_ref().clone(), (span(file, k.span()), span(file, v.span()), v.get_ref().clone())))
        .collect();
    Ok(RunSpec {
        file,
        kernel: raw.kernel.get_ref().clone(),
        kernel_span: span(file, raw.kernel.span()),
        global_span: raw.global_size.as_ref().map(|g| span(file, g.span())),
        global_size,
        local_span: raw.local_size.as_ref().map(|g| span(file, g.span())),
        local_size,
        max_cycles,
        defines,
        args,
    })
}

/// splitmix64, as specified for random fills.
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
}

/// An integer element or scalar type as the run spec sees it.
#[derive(Clone, Copy, Debug)]
pub struct ElemType {
    pub width: u32,
    pub signed: bool,
    /// An IEEE float of `width` bits (`float`).
    pub float: bool,
}

impl ElemType {
    /// The bits of one run-spec value of this type, or why it does not fit. Integers take TOML
    /// integers (or strings for values beyond TOML's range); floats take TOML floats or
    /// integers, or the strings `"nan"`, `"inf"` and `"-inf"`.
    pub fn parse(self, v: &toml::Value) -> Result<u64, String> {
        if self.float {
            let x = match v {
                toml::Value::Float(f) => *f,
                toml::Value::Integer(i) => *i as f64,
                toml::Value::String(s) => match s.trim() {
                    "nan" | "NaN" => f64::NAN,
                    "inf" | "+inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    _ => return Err(format!("`{s}` is not a float (numbers, \"nan\", \"inf\" and \"-inf\" are)")),
                },
                _ => return Err("expected a number".into()),
            };
            return Ok(self.float_bits(x));
        }
        let Some(x) = int_of(v) else { return Err("expected an integer".into()) };
        let (lo, hi) = self.range();
        if x < lo || x > hi {
            return Err(format!("{x} does not fit ({lo}..={hi})"));
        }
        Ok(self.bits(x))
    }

    /// The bits of `x` rounded to this float type (once, to nearest even).
    pub fn float_bits(self, x: f64) -> u64 {
        match self.width {
            64 => x.to_bits(),
            16 => u64::from(half::f16::from_f64(x).to_bits()),
            _ => (x as f32).to_bits() as u64,
        }
    }

    /// The value of stored float bits (exact: every `half` and `float` is a `double`).
    fn float_value(self, bits: u64) -> f64 {
        match self.width {
            64 => f64::from_bits(bits),
            16 => half::f16::from_bits(bits as u16).to_f64(),
            _ => f64::from(f32::from_bits(bits as u32)),
        }
    }

    /// The shortest decimal that reads back as the same value of this float type.
    fn shortest(self, bits: u64) -> String {
        match self.width {
            64 => f64::from_bits(bits).to_string(),
            16 => {
                let x = self.float_value(bits);
                // The fewest significant digits that round back to the same half.
                (1..=17)
                    .map(|d| format!("{:.*e}", d - 1, x))
                    .find(|s| s.parse::<f64>().is_ok_and(|y| self.float_bits(y) == bits))
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(|y| (y as f32).to_string())
                    .unwrap_or_else(|| x.to_string())
            }
            _ => f32::from_bits(bits as u32).to_string(),
        }
    }

    /// A stored value as JSON: a number, or for a float NaN or infinity the strings `"nan"`,
    /// `"inf"`, `"-inf"` (JSON has no numbers for them).
    pub fn json(self, bits: u64) -> serde_json::Value {
        if self.float {
            let x = self.float_value(bits);
            return if x.is_nan() {
                serde_json::json!("nan")
            } else if x.is_infinite() {
                serde_json::json!(if x > 0.0 { "inf" } else { "-inf" })
            } else {
                serde_json::json!(self.shortest(bits).parse::<f64>().unwrap_or(x))
            };
        }
        let v = self.value(bits);
        if v < 0 { serde_json::json!(v as i64) } else { serde_json::json!(v as u64) }
    }

    /// A stored value for people: the number (floats in their shortest exact decimal form).
    pub fn show(self, bits: u64) -> String {
        if self.float {
            return self.shortest(bits);
        }
        self.value(bits).to_string()
    }

    pub fn range(self) -> (i128, i128) {
        if self.signed {
            (-(1i128 << (self.width - 1)), (1i128 << (self.width - 1)) - 1)
        } else {
            (0, (1i128 << self.width) - 1)
        }
    }

    /// The default range of random fills: the type's, clipped to 32-bit signed for 64-bit types.
    pub fn fill_range(self) -> (i128, i128) {
        let (lo, hi) = self.range();
        if self.width == 64 { (lo.max(-(1i128 << 31)), hi.min((1i128 << 31) - 1)) } else { (lo, hi) }
    }

    pub fn bits(self, v: i128) -> u64 {
        (v as u64) & kiln_dataflow::ir::op::mask(self.width)
    }

    /// The value of stored bits as a number of this type.
    pub fn value(self, bits: u64) -> i128 {
        if self.signed {
            kiln_dataflow::ir::op::sext(bits, self.width) as i128
        } else {
            (bits & kiln_dataflow::ir::op::mask(self.width)) as i128
        }
    }
}

/// An integer of the run spec: a TOML integer, or — for `ulong` values above TOML's signed
/// 64-bit range — a string holding a decimal or `0x` hexadecimal integer (`"0xffffffffffffffff"`).
fn int_of(v: &toml::Value) -> Option<i128> {
    match v {
        toml::Value::Integer(i) => Some(*i as i128),
        toml::Value::String(s) => {
            let t = s.trim().replace('_', "");
            let (neg, digits) = match t.strip_prefix('-') {
                Some(d) => (true, d.to_string()),
                None => (false, t),
            };
            let magnitude = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                Some(h) => i128::from_str_radix(h, 16).ok()?,
                None => digits.parse::<i128>().ok()?,
            };
            Some(if neg { -magnitude } else { magnitude })
        }
        _ => None,
    }
}

/// The launch (`global_size`, `local_size`) against the kernel: a single work-item kernel runs
/// once; an NDRange kernel needs global sizes that are multiples of its work-group size.
fn check_launch(spec: &RunSpec, kernel: &Kernel, errs: &mut Vec<Diagnostic>) {
    let at = spec.global_span.or(spec.local_span).unwrap_or(spec.kernel_span);
    let Some(nd) = &kernel.ndrange else {
        if spec.global_size.iter().product::<u64>() != 1
            || spec.local_size.as_ref().is_some_and(|l| l.iter().product::<u64>() != 1)
        {
            errs.push(
                Diagnostic::error(
                    codes::SPEC_BAD_LAUNCH,
                    format!("`{}` is a single work-item kernel: launch it with `global_size = [1]`", kernel.name),
                )
                .at(at)
                .with_note("it calls no work-item function, so every work-item would do the same work"),
            );
        }
        return;
    };
    if spec.global_size.len() > 3 || spec.global_size.iter().skip(nd.dims as usize).any(|g| *g != 1) {
        errs.push(
            Diagnostic::error(
                codes::SPEC_BAD_LAUNCH,
                format!("`{}` was built for {} dimension(s); the launch has more", kernel.name, nd.dims),
            )
            .at(at),
        );
    }
    if spec.global_size.iter().any(|g| *g == 0 || *g > u32::MAX as u64) {
        errs.push(Diagnostic::error(codes::SPEC_BAD_LAUNCH, "every global size must be between 1 and 2^32 - 1").at(at));
    }
    if let Some(max) = nd.max_work_group_size {
        let ls = run_time_local_size(spec, kernel);
        let items: u64 = ls.iter().product();
        if items > u64::from(max) || ls.contains(&0) {
            errs.push(
                Diagnostic::error(
                    codes::GROUP_SIZE_MISMATCH,
                    format!("the launch asks for work-groups of {items} work-items, but `{}` is built for at most {max}", kernel.name),
                )
                .at(spec.local_span.unwrap_or(at))
                .with_help("raise `max_work_group_size` on the kernel (or `--max-work-group-size`), or launch smaller work-groups"),
            );
        }
        uniform_groups(spec, &ls, at, errs);
    }
    if let Some(ls) = nd.local_size {
        if let Some(want) = &spec.local_size {
            let mut w = [1u64; 3];
            for (i, v) in want.iter().take(3).enumerate() {
                w[i] = *v;
            }
            if w != ls.map(|x| x as u64) {
                errs.push(
                    Diagnostic::error(
                        codes::GROUP_SIZE_MISMATCH,
                        format!("the launch asks for work-groups of {w:?} but `{}` was built for {ls:?}", kernel.name),
                    )
                    .at(spec.local_span.unwrap_or(at)),
                );
            }
        }
        uniform_groups(spec, &ls.map(u64::from), at, errs);
    }
}

/// Every global size a multiple of its dimension's work-group size (OpenCL 1.2's uniform
/// work-groups).
fn uniform_groups(spec: &RunSpec, local: &[u64; 3], at: Span, errs: &mut Vec<Diagnostic>) {
    for (d, l) in local.iter().enumerate() {
        let g = spec.global_size.get(d).copied().unwrap_or(1);
        if *l != 0 && g % *l != 0 {
            errs.push(
                Diagnostic::error(
                    codes::GROUP_SIZE_MISMATCH,
                    format!("global size {g} in dimension {d} is not a multiple of the work-group size {l}"),
                )
                .at(spec.global_span.unwrap_or(at))
                .with_note("kiln launches uniform work-groups (OpenCL 1.2 rules)"),
            );
        }
    }
}

/// The work-group size a launch gives a kernel built for any size up to a maximum: the spec's
/// `local_size`, else (as OpenCL lets the implementation choose) the largest divisor of the
/// global size in dimension 0 within the maximum, and 1 in the others.
fn run_time_local_size(spec: &RunSpec, kernel: &Kernel) -> [u64; 3] {
    if let Some(l) = &spec.local_size {
        let mut w = [1u64; 3];
        for (i, v) in l.iter().take(3).enumerate() {
            w[i] = *v;
        }
        return w;
    }
    let max = kernel.ndrange.as_ref().and_then(|n| n.max_work_group_size).unwrap_or(1) as u64;
    let g = spec.global_size.first().copied().unwrap_or(1).max(1);
    let l0 = (1..=max.min(g)).rev().find(|l| g % l == 0).unwrap_or(1);
    [l0, 1, 1]
}

/// Kernel arguments built from a spec, in parameter order.
pub struct Materialized {
    pub args: Vec<Arg>,
    /// Element type of each buffer parameter (by parameter index).
    pub elem_types: Vec<Option<ElemType>>,
}

/// The sizes of the `__local` pointer arguments a spec gives (`name = { local = N }`, in
/// elements), for lowering the kernel with them.
pub fn local_args(args: &BTreeMap<String, (Span, Span, toml::Value)>) -> Vec<(std::rc::Rc<str>, u32)> {
    args.iter()
        .filter_map(|(name, (_, _, v))| {
            let n = v.as_table()?.get("local").and_then(int_of)?;
            Some((name.as_str().into(), u32::try_from(n).ok()?))
        })
        .collect()
}

/// The `{ local = N }` of a `__local` pointer argument, checked against the `__local` memory
/// of `len` elements the kernel was built with.
pub(crate) fn local_arg(value: &toml::Value, name: &str, c_type: &str, len: u32, at: Span) -> Result<(), Diagnostic> {
    let bad = |msg: String| Diagnostic::error(codes::SPEC_BAD_ARG, msg).at(at);
    let n = match value.as_table() {
        Some(t) if t.len() == 1 => t.get("local").and_then(int_of),
        _ => None,
    };
    match n {
        Some(n) if n >= 1 && n <= i128::from(len) => Ok(()),
        Some(n) if n >= 1 => Err(bad(format!(
            "parameter `{name}` asks for {n} elements of `__local` memory, but its `local_mem_size` gives it {len}"
        ))
        .with_help(format!("raise `local_mem_size`, or ask for at most {len} elements"))),
        _ => Err(bad(format!(
            "parameter `{name}` is a `__local` pointer ({c_type}); give its size in elements: `{{ local = N }}`"
        ))),
    }
}

/// Builds the argument values of `kernel` from a spec, checking every argument against the
/// kernel's parameters.
pub fn materialize(spec: &RunSpec, kernel: &Kernel) -> Result<Materialized, Vec<Diagnostic>> {
    let mut errs = Vec::new();
    let mut args = Vec::new();
    let mut elem_types = Vec::new();
    let kernel_span = spec.kernel_span;
    check_launch(spec, kernel, &mut errs);
    for p in &kernel.params {
        if let Some(imp) = p.implicit {
            let v = match imp {
                Implicit::GlobalSize(d) => spec.global_size.get(d as usize).copied().unwrap_or(1),
                Implicit::LocalSize(d) => run_time_local_size(spec, kernel)[d as usize],
                Implicit::WorkDim => spec.global_size.len().max(1) as u64,
            };
            args.push(Arg::Scalar(v));
            elem_types.push(None);
            continue;
        }
        if let Some(lane) = &p.lane {
            args.push(Arg::Scalar(vector_lane(spec, kernel, p, lane, &mut errs)));
            elem_types.push(None);
            continue;
        }
        let Some((_, vspan, value)) = spec.args.get(&*p.name) else {
            errs.push(
                Diagnostic::error(
                    codes::SPEC_MISSING_ARG,
                    format!("the run spec has no value for parameter `{}` ({})", p.name, p.c_type),
                )
                .at(kernel_span)
                .with_help(format!("add `{} = ...` under `[args]`", p.name)),
            );
            args.push(Arg::Scalar(0));
            elem_types.push(None);
            continue;
        };
        let vspan = *vspan;
        match &p.kind {
            // Connected by the system (`crate::system`); the value names a `[pipes]` entry.
            ParamKind::Pipe { .. } => {
                args.push(Arg::Scalar(0));
                elem_types.push(None);
            }
            ParamKind::Scalar { value: v, signed, float } => {
                let ty = ElemType { width: kernel.width(*v), signed: *signed, float: *float };
                elem_types.push(None);
                if *float {
                    match ty.parse(value) {
                        Ok(b) => args.push(Arg::Scalar(b)),
                        Err(m) => {
                            errs.push(
                                Diagnostic::error(
                                    codes::SPEC_BAD_ARG,
                                    format!("parameter `{}` is a scalar ({}); give a number: {m}", p.name, p.c_type),
                                )
                                .at(vspan),
                            );
                            args.push(Arg::Scalar(0));
                        }
                    }
                    continue;
                }
                match int_of(value) {
                    Some(x) => {
                        let (lo, hi) = ty.range();
                        if x < lo || x > hi {
                            errs.push(
                                Diagnostic::error(
                                    codes::SPEC_BAD_ARG,
                                    format!("{x} does not fit parameter `{}` ({})", p.name, p.c_type),
                                )
                                .at(vspan)
                                .with_note(format!("the range of `{}` is {lo}..={hi}", p.c_type)),
                            );
                        }
                        args.push(Arg::Scalar(ty.bits(x)));
                    }
                    None => {
                        errs.push(
                            Diagnostic::error(
                                codes::SPEC_BAD_ARG,
                                format!("parameter `{}` is a scalar ({}); give an integer", p.name, p.c_type),
                            )
                            .at(vspan),
                        );
                        args.push(Arg::Scalar(0));
                    }
                }
            }
            ParamKind::Local { mem } => {
                let len = kernel.mems[*mem].len.unwrap_or(0);
                if let Err(d) = local_arg(value, &p.name, &p.c_type, len, vspan) {
                    errs.push(d);
                }
                args.push(Arg::Scalar(0));
                elem_types.push(None);
            }
            ParamKind::Buffer { mem } => {
                let d = &kernel.mems[*mem];
                let ty = ElemType { width: d.elem_width, signed: d.elem_signed, float: d.elem_float };
                elem_types.push(Some(ty));
                match buffer(value, ty, &p.name, &p.c_type, vspan) {
                    Ok(b) if d.vector_buffer && b.len() % d.lanes.max(1) as usize != 0 => {
                        errs.push(whole_words(&p.name, &p.c_type, b.len(), d.lanes, vspan));
                        args.push(Arg::Buffer(b));
                    }
                    Ok(b) => args.push(Arg::Buffer(b)),
                    Err(d) => {
                        errs.push(d);
                        args.push(Arg::Buffer(vec![]));
                    }
                }
            }
        }
    }
    for (name, (kspan, _, _)) in &spec.args {
        let names = |p: &Param| -> bool {
            p.implicit.is_none() && (&*p.name == name || p.lane.as_ref().is_some_and(|l| &*l.vector == name))
        };
        if !kernel.params.iter().any(names) {
            let params: Vec<String> = kernel.params.iter().map(|p| p.name.to_string()).collect();
            errs.push(
                Diagnostic::error(codes::SPEC_EXTRA_ARG, format!("kernel `{}` has no parameter `{name}`", kernel.name))
                    .at(*kspan)
                    .with_note(format!("its parameters are: {}", params.join(", "))),
            );
        }
    }
    if errs.is_empty() { Ok(Materialized { args, elem_types }) } else { Err(errs) }
}

/// A buffer of vectors is read and written a whole vector (one port word of `lanes` elements,
/// a 3-vector's 4) at a time, so it must hold whole words.
pub fn whole_words(name: &str, c_type: &str, len: usize, lanes: u32, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::SPEC_BAD_ARG,
        format!("buffer `{name}` ({c_type}) has {len} elements, which is not a whole number of vectors"),
    )
    .at(span)
    .with_note(format!("its memory port moves one vector of {lanes} elements per request; `len` counts elements"))
    .with_help(format!("make `len` a multiple of {lanes}, e.g. {}", len.div_ceil(lanes as usize) * lanes as usize))
}

/// The value of one lane of a vector argument passed by value: the spec gives the vector as an
/// array of its lanes (`v = [1, 2, 3, 4]`). Errors are reported once, at lane 0.
fn vector_lane(spec: &RunSpec, kernel: &Kernel, p: &Param, lane: &VectorLane, errs: &mut Vec<Diagnostic>) -> u64 {
    let ParamKind::Scalar { value: v, signed, float } = &p.kind else { return 0 };
    let ty = ElemType { width: kernel.width(*v), signed: *signed, float: *float };
    let report = lane.index == 0;
    let Some((_, vspan, value)) = spec.args.get(&*lane.vector) else {
        if report {
            errs.push(
                Diagnostic::error(
                    codes::SPEC_MISSING_ARG,
                    format!("the run spec has no value for parameter `{}` ({})", lane.vector, lane.vector_c_type),
                )
                .at(spec.kernel_span)
                .with_help(format!("add `{} = [...]` with its {} lanes under `[args]`", lane.vector, lane.lanes)),
            );
        }
        return 0;
    };
    let items = match value {
        toml::Value::Array(items) if items.len() == lane.lanes as usize => items,
        _ => {
            if report {
                errs.push(
                    Diagnostic::error(
                        codes::SPEC_BAD_ARG,
                        format!(
                            "parameter `{}` is a vector ({}); give its {} lanes as an array of integers",
                            lane.vector, lane.vector_c_type, lane.lanes
                        ),
                    )
                    .at(*vspan),
                );
            }
            return 0;
        }
    };
    let item = &items[lane.index as usize];
    if ty.float {
        return match ty.parse(item) {
            Ok(b) => b,
            Err(m) => {
                errs.push(
                    Diagnostic::error(
                        codes::SPEC_BAD_ARG,
                        format!("lane {} of `{}` ({}): {m}", lane.index, lane.vector, lane.vector_c_type),
                    )
                    .at(*vspan),
                );
                0
            }
        };
    }
    let (lo, hi) = ty.range();
    match int_of(item) {
        Some(x) if x >= lo && x <= hi => ty.bits(x),
        _ => {
            errs.push(
                Diagnostic::error(
                    codes::SPEC_BAD_ARG,
                    format!(
                        "lane {} of `{}` must be an integer in {lo}..={hi} ({})",
                        lane.index, lane.vector, lane.vector_c_type
                    ),
                )
                .at(*vspan),
            );
            0
        }
    }
}

fn buffer(value: &toml::Value, ty: ElemType, name: &str, c_type: &str, at: Span) -> Result<Vec<u64>, Diagnostic> {
    let bad = |msg: String| Diagnostic::error(codes::SPEC_BAD_ARG, msg).at(at);
    let toml::Value::Table(t) = value else {
        return Err(bad(format!(
            "parameter `{name}` is a buffer ({c_type}); give `{{ len = N }}` or `{{ data = [...] }}`"
        )));
    };
    for k in t.keys() {
        if !matches!(k.as_str(), "len" | "data" | "fill" | "seed" | "min" | "max" | "local") {
            return Err(bad(format!("unknown buffer field `{k}` (expected len, data, fill, seed, min, max)")));
        }
    }
    if t.contains_key("local") {
        return Err(bad(format!("`local` sizes are for `__local` pointer parameters; `{name}` is {c_type}")));
    }
    let (lo, hi) = ty.range();
    let mut data: Vec<u64> = Vec::new();
    if let Some(d) = t.get("data") {
        let toml::Value::Array(items) = d else { return Err(bad("`data` must be an array of integers".into())) };
        for (i, item) in items.iter().enumerate() {
            if ty.float {
                data.push(ty.parse(item).map_err(|m| bad(format!("`data[{i}]`: {m}")))?);
                continue;
            }
            let Some(x) = int_of(item) else {
                return Err(bad(format!("`data[{i}]` is not an integer")));
            };
            if x < lo || x > hi {
                return Err(bad(format!("`data[{i}]` = {x} does not fit the element type of {c_type} ({lo}..={hi})")));
            }
            data.push(ty.bits(x));
        }
    }
    let len = match t.get("len") {
        Some(v) => match int_of(v) {
            Some(n) if (0..=(1 << 28)).contains(&n) => n as usize,
            _ => return Err(bad("`len` must be an integer between 0 and 2^28".into())),
        },
        None => data.len(),
    };
    if t.get("len").is_none() && t.get("data").is_none() {
        return Err(bad(format!("buffer `{name}` needs `len` or `data`")));
    }
    if len < data.len() {
        return Err(bad(format!("`len` = {len} is smaller than `data`, which has {} elements", data.len())));
    }
    let fill = match t.get("fill") {
        None => "zero".to_string(),
        Some(toml::Value::String(s)) => s.clone(),
        Some(_) => return Err(Diagnostic::error(codes::SPEC_BAD_FILL, "`fill` must be \"random\" or \"zero\"").at(at)),
    };
    match fill.as_str() {
        "zero" => data.resize(len, 0),
        "random" => {
            if !data.is_empty() {
                return Err(Diagnostic::error(
                    codes::SPEC_BAD_FILL,
                    "`fill = \"random\"` cannot be combined with `data`",
                )
                .at(at));
            }
            if ty.float {
                return float_fill(t, ty, len, at);
            }
            let (dlo, dhi) = ty.fill_range();
            let get = |k: &str, default: i128| -> Result<i128, Diagnostic> {
                match t.get(k) {
                    None => Ok(default),
                    Some(v) => int_of(v).ok_or_else(|| {
                        Diagnostic::error(codes::SPEC_BAD_FILL, format!("`{k}` must be an integer")).at(at)
                    }),
                }
            };
            let min = get("min", dlo)?;
            let max = get("max", dhi)?;
            let seed = get("seed", 0)?;
            if min > max || min < lo || max > hi {
                return Err(Diagnostic::error(
                    codes::SPEC_BAD_FILL,
                    format!("random fill range {min}..={max} is empty or outside the element type ({lo}..={hi})"),
                )
                .at(at));
            }
            if seed < 0 || seed > u64::MAX as i128 {
                return Err(Diagnostic::error(codes::SPEC_BAD_FILL, "`seed` must be a non-negative integer").at(at));
            }
            let mut g = SplitMix64::new(seed as u64);
            let span = (max - min + 1) as u128;
            data = (0..len).map(|_| ty.bits(min + ((g.next() as u128) % span) as i128)).collect();
        }
        other => {
            return Err(Diagnostic::error(
                codes::SPEC_BAD_FILL,
                format!("unknown fill `{other}` (expected \"random\" or \"zero\")"),
            )
            .at(at));
        }
    }
    Ok(data)
}

/// A random float buffer: `min + (max - min) * u` with `u` a 24-bit fraction from splitmix64
/// (`(next >> 40) / 2^24`), computed in binary64 and rounded once; `min` and `max` default to
/// -1 and 1.
fn float_fill(t: &toml::Table, ty: ElemType, len: usize, at: Span) -> Result<Vec<u64>, Diagnostic> {
    let get = |k: &str, default: f64| -> Result<f64, Diagnostic> {
        match t.get(k) {
            None => Ok(default),
            Some(toml::Value::Float(f)) if f.is_finite() => Ok(*f),
            Some(toml::Value::Integer(i)) => Ok(*i as f64),
            Some(_) => Err(Diagnostic::error(codes::SPEC_BAD_FILL, format!("`{k}` must be a finite number")).at(at)),
        }
    };
    let (min, max) = (get("min", -1.0)?, get("max", 1.0)?);
    if min > max {
        return Err(Diagnostic::error(codes::SPEC_BAD_FILL, format!("random fill range {min}..{max} is empty")).at(at));
    }
    let seed = match t.get("seed") {
        None => 0,
        Some(v) => match int_of(v) {
            Some(s) if s >= 0 && s <= u64::MAX as i128 => s as u64,
            _ => return Err(Diagnostic::error(codes::SPEC_BAD_FILL, "`seed` must be a non-negative integer").at(at)),
        },
    };
    let mut g = SplitMix64::new(seed);
    Ok((0..len).map(|_| ty.float_bits(min + (max - min) * ((g.next() >> 40) as f64 / (1u64 << 24) as f64))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // splitmix64 with seed 1234567 (reference sequence of the published algorithm).
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next(), 6457827717110365317);
        assert_eq!(g.next(), 3203168211198807973);
    }
}
