//! Results of a run: the JSON file (`--json`) and the human-readable summary.
//!
//! JSON: `{ "kernel": "vadd", "engine": "emu", "cycles": 1234, "args": { "c": [3, 4] } }` —
//! `cycles` is absent for `emu`; `args` holds every `__global` buffer after the run, in parameter
//! order, as numbers of the element type (a float NaN or infinity as `"nan"`, `"inf"`, `"-inf"`).

use crate::runspec::ElemType;
use kiln_dataflow::Kernel;
use kiln_dataflow::ir::{MemKind, ParamKind};
use serde_json::{Map, Value, json};

/// Final buffers of a run, with what is needed to print them.
pub struct RunOutput<'k> {
    pub kernel: &'k Kernel,
    pub engine: &'static str,
    pub cycles: Option<u64>,
    pub buffers: Vec<Option<Vec<u64>>>,
    pub elem_types: Vec<Option<ElemType>>,
    /// What the kernel's `printf`s printed, each with its cycle (none in the emulator).
    pub printed: Vec<(Option<u64>, String)>,
}

impl RunOutput<'_> {
    /// The `printf` output: as the kernel printed it in the emulator; each print on its own
    /// line after its cycle in the simulator.
    pub fn printed_text(&self) -> String {
        let mut s = String::new();
        for (cycle, text) in &self.printed {
            match cycle {
                None => s.push_str(text),
                Some(c) => {
                    s.push_str(&format!("[cycle {c}] {}", text.strip_suffix('\n').unwrap_or(text)));
                    s.push('\n');
                }
            }
        }
        if !s.is_empty() && !s.ends_with('\n') {
            s.push('\n');
        }
        s
    }

    /// The `__global` buffers in parameter order: (name, values as JSON).
    fn globals(&self) -> Vec<(String, Vec<Value>)> {
        let mut v = Vec::new();
        for (i, p) in self.kernel.params.iter().enumerate() {
            let ParamKind::Buffer { mem } = p.kind else { continue };
            if !matches!(self.kernel.mems[mem].kind, MemKind::Global { .. }) {
                continue;
            }
            let (Some(Some(data)), Some(Some(ty))) = (self.buffers.get(i), self.elem_types.get(i)) else { continue };
            v.push((p.name.to_string(), data.iter().map(|b| ty.json(*b)).collect()));
        }
        v
    }

    pub fn to_json(&self) -> Value {
        let mut args = Map::new();
        for (name, vals) in self.globals() {
            args.insert(name, Value::Array(vals));
        }
        let mut o = Map::new();
        o.insert("kernel".into(), json!(self.kernel.name.to_string()));
        o.insert("engine".into(), json!(self.engine));
        if let Some(c) = self.cycles {
            o.insert("cycles".into(), json!(c));
        }
        o.insert("args".into(), Value::Object(args));
        if !self.printed.is_empty() {
            let printed: Vec<Value> = self
                .printed
                .iter()
                .map(|(c, t)| match c {
                    Some(c) => json!({ "cycle": c, "text": t }),
                    None => json!({ "text": t }),
                })
                .collect();
            o.insert("printed".into(), Value::Array(printed));
        }
        Value::Object(o)
    }

    /// A few lines for the terminal: each buffer, abbreviated when long.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for (name, vals) in self.globals() {
            let text = |v: &Value| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
            let shown: Vec<String> = if vals.len() <= 16 {
                vals.iter().map(text).collect()
            } else {
                let mut v: Vec<String> = vals[..8].iter().map(text).collect();
                v.push("...".into());
                v.extend(vals[vals.len() - 4..].iter().map(text));
                v
            };
            s.push_str(&format!("  {name} = [{}]  ({} elements)\n", shown.join(", "), vals.len()));
        }
        s
    }
}

/// The first difference between two runs' buffers, described for a diagnostic.
pub fn first_difference(
    kernel: &Kernel,
    a: &[Option<Vec<u64>>],
    b: &[Option<Vec<u64>>],
    types: &[Option<ElemType>],
) -> Option<String> {
    for (i, p) in kernel.params.iter().enumerate() {
        let (Some(Some(x)), Some(Some(y))) = (a.get(i), b.get(i)) else { continue };
        if x.len() != y.len() {
            return Some(format!("`{}` has {} elements in one run and {} in the other", p.name, x.len(), y.len()));
        }
        if let Some(j) = (0..x.len()).find(|j| x[*j] != y[*j]) {
            let ty = types.get(i).copied().flatten();
            let show = |v: u64| ty.map(|t| t.show(v)).unwrap_or_else(|| format!("{v:#x}"));
            let count = (0..x.len()).filter(|j| x[*j] != y[*j]).count();
            return Some(format!("`{}[{j}]` is {} vs {} ({count} element(s) differ)", p.name, show(x[j]), show(y[j])));
        }
    }
    None
}
