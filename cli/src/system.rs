//! Systems: several kernels of one file launched together and connected by pipes (run spec v1
//! with `[[launch]]`, see the README).
//!
//! ```toml
//! [[launch]]
//! kernel = "producer"
//! args = { input = "@in", n = 64, p = "@p0" }   # "@name": a shared buffer or pipe
//!
//! [[launch]]
//! kernel = "consumer"
//! args = { output = "@out", n = 64, p = "@p0" }
//!
//! [buffers]
//! in  = { type = "int", len = 64, fill = "random", seed = 3 }
//! out = { type = "int", len = 64 }
//!
//! [pipes]                                       # only for pipe parameters
//! p0 = { type = "int", depth = 32 }
//! ```
//!
//! Program-scope pipes and channels connect by name; pipe parameters through `[pipes]`. Every
//! FIFO needs exactly one writer kernel and one reader kernel.

use crate::runspec::{self, ElemType, Materialized, Raw, RunSpec};
use cranelift_entity::SecondaryMap;
use kiln_dataflow::Kernel;
use kiln_dataflow::emu::FifoSpec;
use kiln_dataflow::ir::{MemKind, ParamKind, Pipe, PipeEnd, PipeSource};
use kiln_diagnostics::{Diagnostic, codes};
use kiln_diagnostics::{FileId, SourceMap, Span};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toml::Spanned;

use kiln_driver::system::DEFAULT_PIPE_DEPTH;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    launch: Vec<Raw>,
    #[serde(default)]
    buffers: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pipes: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    max_cycles: Option<Spanned<i64>>,
    #[serde(default)]
    defines: BTreeMap<String, Spanned<toml::Value>>,
}

/// A parsed system run spec.
#[derive(Clone, Debug)]
pub struct SystemSpec {
    pub launches: Vec<RunSpec>,
    /// name → (span, description as in `[args]`, with an optional `type`).
    pub buffers: BTreeMap<String, (Span, toml::Value)>,
    /// name → (span, depth).
    pub pipes: BTreeMap<String, (Span, Option<u32>)>,
    pub max_cycles: Option<u64>,
    pub defines: Vec<(String, String)>,
}

/// Whether a run spec describes a system (it has `[[launch]]` tables).
pub fn is_system(text: &str) -> bool {
    text.parse::<toml::Table>().is_ok_and(|t| t.contains_key("launch"))
}

pub fn parse(file: FileId, sources: &SourceMap) -> Result<SystemSpec, Diagnostic> {
    let text = &sources.file(file).text;
    let raw: RawSystem = toml::from_str(text).map_err(|e| runspec::toml_error(file, e))?;
    let mut launches = Vec::new();
    for l in &raw.launch {
        launches.push(runspec::from_raw(file, l)?);
    }
    let mut pipes = BTreeMap::new();
    for (k, v) in &raw.pipes {
        let at = runspec::span(file, v.span());
        let depth = match v.get_ref().get("depth") {
            None => None,
            Some(toml::Value::Integer(d)) if *d >= 1 && *d <= 1 << 20 => Some(*d as u32),
            Some(_) => {
                return Err(Diagnostic::error(
                    codes::SPEC_PIPE,
                    format!("pipe `{}`: `depth` must be 1 to 2^20", k.get_ref()),
                )
                .at(at));
            }
        };
        pipes.insert(k.get_ref().clone(), (at, depth));
    }
    let buffers = raw
        .buffers
        .iter()
        .map(|(k, v)| (k.get_ref().clone(), (runspec::span(file, v.span()), v.get_ref().clone())))
        .collect();
    let mut defines = Vec::new();
    for (k, v) in &raw.defines {
        let val = match v.get_ref() {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            _ => {
                return Err(Diagnostic::error(
                    codes::SPEC_PARSE,
                    format!("define `{k}` must be a string or an integer"),
                )
                .at(runspec::span(file, v.span())));
            }
        };
        defines.push((k.clone(), val));
    }
    let max_cycles = raw.max_cycles.as_ref().map(|m| (*m.get_ref()).max(1) as u64);
    Ok(SystemSpec { launches, buffers, pipes, max_cycles, defines })
}

/// One FIFO of a system and the kernels at its ends.
#[derive(Clone, Debug)]
pub struct Fifo {
    pub name: String,
    pub depth: u32,
    /// Bits per packet.
    pub width: u32,
    /// (launch, the kernel's pipe) of the writer and of the reader.
    pub writer: (usize, Pipe),
    pub reader: (usize, Pipe),
}

/// A system ready to run: every launch's arguments, which named buffer each buffer argument
/// is, and the FIFOs.
pub struct SystemRun {
    pub args: Vec<Materialized>,
    /// Per launch, per parameter: the `[buffers]` entry it is bound to.
    pub bound: Vec<Vec<Option<String>>>,
    pub fifos: Vec<Fifo>,
    /// Per launch: the FIFO of each of the kernel's pipes.
    pub fifo_of: Vec<SecondaryMap<Pipe, u32>>,
}

fn reference(v: &toml::Value) -> Option<&str> {
    v.as_str().and_then(|s| s.strip_prefix('@'))
}

/// Binds the launches' arguments to the named buffers and pipes and connects the FIFOs.
pub fn materialize(spec: &SystemSpec, kernels: &[&Kernel]) -> Result<SystemRun, Vec<Diagnostic>> {
    let mut errs = Vec::new();
    let mut all_args = Vec::new();
    let mut bound = Vec::new();
    // FIFO key → (name, depth, writers, readers, width).
    type Ends = Vec<(usize, Pipe, Span)>;
    let mut fifos: BTreeMap<String, (String, u32, Ends, Ends, u32)> = BTreeMap::new();
    for (li, (launch, k)) in spec.launches.iter().zip(kernels).enumerate() {
        let mut l = launch.clone();
        let mut names = vec![None; k.params.len()];
        for (pi, p) in k.params.iter().enumerate() {
            let Some((_, vspan, value)) = l.args.get(&*p.name).cloned() else { continue };
            let Some(r) = reference(&value) else {
                if matches!(p.kind, ParamKind::Pipe { .. }) {
                    errs.push(
                        Diagnostic::error(
                            codes::SPEC_PIPE,
                            format!("pipe parameter `{}` needs `\"@name\"` of a `[pipes]` entry", p.name),
                        )
                        .at(vspan),
                    );
                }
                continue;
            };
            match &p.kind {
                ParamKind::Buffer { .. } => match spec.buffers.get(r) {
                    Some((_, desc)) => {
                        let mut desc = desc.clone();
                        if let Some(t) = desc.as_table_mut() {
                            t.remove("type");
                        }
                        if let Some(a) = l.args.get_mut(&*p.name) {
                            a.2 = desc;
                        }
                        names[pi] = Some(r.to_string());
                    }
                    None => errs.push(
                        Diagnostic::error(codes::SPEC_PIPE, format!("there is no buffer `{r}` under `[buffers]`"))
                            .at(vspan),
                    ),
                },
                ParamKind::Pipe { pipe } => match spec.pipes.get(r) {
                    Some((_, depth)) => {
                        let d = &k.pipes[*pipe];
                        let e = fifos.entry(format!("@{r}")).or_insert_with(|| {
                            (r.to_string(), depth.unwrap_or(DEFAULT_PIPE_DEPTH), vec![], vec![], d.packet_width())
                        });
                        let end = (li, *pipe, vspan);
                        if d.end == PipeEnd::Write { e.2.push(end) } else { e.3.push(end) }
                    }
                    None => errs.push(
                        Diagnostic::error(codes::SPEC_PIPE, format!("there is no pipe `{r}` under `[pipes]`"))
                            .at(vspan),
                    ),
                },
                ParamKind::Scalar { .. } => errs.push(
                    Diagnostic::error(
                        codes::SPEC_BAD_ARG,
                        format!("parameter `{}` is a scalar; `@{r}` names a buffer or pipe", p.name),
                    )
                    .at(vspan),
                ),
                ParamKind::Local { .. } => errs.push(
                    Diagnostic::error(
                        codes::SPEC_BAD_ARG,
                        format!(
                            "parameter `{}` is a `__local` pointer, private to each launch; give its size, `{{ local = N }}`",
                            p.name
                        ),
                    )
                    .at(vspan),
                ),
            }
        }
        for (pipe, d) in k.pipes.iter() {
            if let PipeSource::Program { name } = &d.source {
                let e = fifos.entry(format!("program {name}")).or_insert_with(|| {
                    (name.to_string(), d.depth.unwrap_or(DEFAULT_PIPE_DEPTH), vec![], vec![], d.packet_width())
                });
                let end = (li, pipe, d.span);
                if d.end == PipeEnd::Write { e.2.push(end) } else { e.3.push(end) }
            }
        }
        match runspec::materialize(&l, k) {
            Ok(m) => all_args.push(m),
            Err(e) => errs.extend(e),
        }
        bound.push(names);
    }
    // Each launch works on its own copy of a buffer: sharing one is only meaningful when no
    // launch writes it.
    let mut users: BTreeMap<&str, Vec<(usize, bool)>> = BTreeMap::new();
    for (li, (names, k)) in bound.iter().zip(kernels).enumerate() {
        for (pi, name) in names.iter().enumerate() {
            let (Some(name), Some(ParamKind::Buffer { mem })) = (name, k.params.get(pi).map(|p| &p.kind)) else {
                continue;
            };
            let writes = k.ops.values().any(|o| o.kind.is_memory() && !o.kind.is_read() && o.kind.mem() == Some(*mem));
            users.entry(name.as_str()).or_default().push((li, writes));
        }
    }
    for (name, u) in &users {
        if u.len() > 1
            && let Some((w, _)) = u.iter().find(|(_, writes)| *writes)
        {
            let others: Vec<String> =
                u.iter().filter(|(l, _)| l != w).map(|(l, _)| format!("`{}`", kernels[*l].name)).collect();
            let span = spec.buffers.get(*name).map(|(s, _)| *s).unwrap_or_default();
            errs.push(
                Diagnostic::error(
                    codes::SPEC_PIPE,
                    format!(
                        "buffer `{name}` is written by `{}` and also used by {}",
                        kernels[*w].name,
                        others.join(", ")
                    ),
                )
                .at(span)
                .with_note("each launch works on its own copy of a buffer; pass data between kernels through a pipe"),
            );
        }
    }
    let mut out = Vec::new();
    let mut fifo_of: Vec<SecondaryMap<Pipe, u32>> = vec![SecondaryMap::new(); kernels.len()];
    for (_, (name, depth, writers, readers, width)) in fifos {
        let kname = |(l, _, _): &(usize, Pipe, Span)| format!("`{}`", kernels[*l].name);
        let problem = match (writers.as_slice(), readers.as_slice()) {
            ([_], [_]) => None,
            ([], [r]) => Some((r.2, format!("pipe `{name}` is read by {} but no launched kernel writes it", kname(r)))),
            ([w], []) => {
                Some((w.2, format!("pipe `{name}` is written by {} but no launched kernel reads it", kname(w))))
            }
            (ws, rs) => {
                let all: Vec<String> = ws.iter().chain(rs).map(kname).collect();
                let at = ws.first().or(rs.first()).map(|e| e.2).unwrap_or_default();
                Some((
                    at,
                    format!("pipe `{name}` has {} writer(s) and {} reader(s) ({})", ws.len(), rs.len(), all.join(", ")),
                ))
            }
        };
        if let Some((at, msg)) = problem {
            errs.push(
                Diagnostic::error(codes::SPEC_PIPE, msg)
                    .at(at)
                    .with_note("kiln connects each pipe from one writer kernel to one reader kernel"),
            );
            continue;
        }
        let i = out.len() as u32;
        fifo_of[writers[0].0][writers[0].1] = i;
        fifo_of[readers[0].0][readers[0].1] = i;
        out.push(Fifo {
            name,
            depth,
            width,
            writer: (writers[0].0, writers[0].1),
            reader: (readers[0].0, readers[0].1),
        });
    }
    if errs.is_empty() { Ok(SystemRun { args: all_args, bound, fifos: out, fifo_of }) } else { Err(errs) }
}

impl SystemRun {
    pub fn fifo_specs(&self) -> Vec<FifoSpec> {
        self.fifos.iter().map(|f| FifoSpec { name: f.name.clone(), depth: f.depth }).collect()
    }

    /// Every named buffer after a run: taken from the launch that writes it (the last one
    /// in launch order when several may), otherwise from any launch that has it.
    pub fn named_buffers(
        &self,
        kernels: &[&Kernel],
        results: &[Vec<Option<Vec<u64>>>],
    ) -> BTreeMap<String, (Vec<u64>, ElemType)> {
        let mut out: BTreeMap<String, (Vec<u64>, ElemType, bool)> = BTreeMap::new();
        for (li, k) in kernels.iter().enumerate() {
            for (pi, p) in k.params.iter().enumerate() {
                let (Some(Some(name)), ParamKind::Buffer { mem }) = (self.bound[li].get(pi), &p.kind) else { continue };
                let (Some(Some(data)), Some(Some(ty))) = (results[li].get(pi), self.args[li].elem_types.get(pi)) else {
                    continue;
                };
                let writes = matches!(k.mems[*mem].kind, MemKind::Global { .. });
                match out.get(name) {
                    Some((_, _, true)) if !writes => {}
                    _ => {
                        out.insert(name.clone(), (data.clone(), *ty, writes));
                    }
                }
            }
        }
        out.into_iter().map(|(n, (d, t, _))| (n, (d, t))).collect()
    }
}

/// The results JSON of a system run; `done` is the cycle in which each kernel finished, from
/// the simulator.
pub fn results_json(
    engine: &str,
    kernels: &[&Kernel],
    cycles: Option<u64>,
    done: Option<&[u64]>,
    buffers: &BTreeMap<String, (Vec<u64>, ElemType)>,
) -> Value {
    let mut b = Map::new();
    for (name, (data, ty)) in buffers {
        b.insert(name.clone(), Value::Array(data.iter().map(|x| ty.json(*x)).collect()));
    }
    let mut o = Map::new();
    o.insert("kernels".into(), json!(kernels.iter().map(|k| k.name.to_string()).collect::<Vec<_>>()));
    o.insert("engine".into(), json!(engine));
    if let Some(c) = cycles {
        o.insert("cycles".into(), json!(c));
    }
    if let Some(done) = done {
        let per_kernel: Map<String, Value> =
            kernels.iter().zip(done).map(|(k, c)| (k.name.to_string(), json!(c))).collect();
        o.insert("done".into(), Value::Object(per_kernel));
    }
    o.insert("buffers".into(), Value::Object(b));
    Value::Object(o)
}

/// A few lines for the terminal: each named buffer, abbreviated when long.
pub fn summary(buffers: &BTreeMap<String, (Vec<u64>, ElemType)>) -> String {
    let mut s = String::new();
    for (name, (data, ty)) in buffers {
        let shown: Vec<String> = data.iter().take(8).map(|x| ty.show(*x)).collect();
        let more = if data.len() > 8 { format!(", ... ({} elements)", data.len()) } else { String::new() };
        s.push_str(&format!("  {name} = [{}{more}]\n", shown.join(", ")));
    }
    s
}
