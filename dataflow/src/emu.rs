//! The functional emulator: the golden model of a kernel's meaning.
//!
//! It interprets the dataflow IR with no notion of time. Every other engine (the cycle-accurate
//! simulator, Verilator on the emitted Verilog) must produce the same buffers.
//!
//! It also catches undefined behaviour that would make engines disagree: out-of-bounds accesses
//! and reads of private array elements that were never written.

use crate::ir::op::{eval, mask};
use crate::ir::*;
use cranelift_entity::SecondaryMap;
use kiln_frontend::Span;

/// A kernel argument value, in kernel parameter order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A scalar's bits (low bits significant).
    Scalar(u64),
    /// A buffer's elements (low bits significant).
    Buffer(Vec<u64>),
}

/// A run-time error of any engine, located at the operation that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    OutOfBounds { kernel: String, buffer: String, index: u64, len: usize, write: bool, span: Span },
    UninitializedRead { kernel: String, array: String, index: u64, span: Span },
    StepLimit { kernel: String, limit: u64, what: &'static str },
}

impl RunError {
    pub fn to_diagnostic(&self) -> kiln_frontend::Diagnostic {
        use kiln_frontend::diag::{Diagnostic, codes};
        match self {
            RunError::OutOfBounds { kernel, buffer, index, len, write, span } => Diagnostic::error(
                codes::OUT_OF_BOUNDS,
                format!(
                    "kernel `{kernel}` {} `{buffer}[{}]`, but `{buffer}` has {len} element(s)",
                    if *write { "writes" } else { "reads" },
                    *index as u32 as i32
                ),
            )
            .at_labeled(*span, "this access is out of bounds")
            .with_help("make the buffer larger in the run spec, or fix the index"),
            RunError::UninitializedRead { kernel, array, index, span } => Diagnostic::error(
                codes::UNINITIALIZED_READ,
                format!("kernel `{kernel}` reads `{array}[{index}]`, which was never written"),
            )
            .at(*span)
            .with_note("reading an uninitialized private array element is undefined behaviour"),
            RunError::StepLimit { kernel, limit, what } => {
                Diagnostic::error(codes::CYCLE_LIMIT, format!("kernel `{kernel}` did not finish within {limit} {what}"))
                    .with_help("raise `max_cycles` in the run spec if the kernel is just slow")
            }
        }
    }
}

/// Storage of one memory during a run.
pub struct MemState {
    pub data: Vec<u64>,
    /// For private memories: which elements have been written.
    pub written: Option<Vec<bool>>,
}

/// Creates the memories of a kernel for a run: ports take their buffers from `args`; ROMs get
/// their contents; private memories start unwritten (zero).
pub fn init_memories(k: &Kernel, args: &[Arg]) -> SecondaryMap<Mem, MemState> {
    let mut mems: SecondaryMap<Mem, MemState> = SecondaryMap::with_default(MemState { data: vec![], written: None });
    for (m, d) in k.mems.iter() {
        let state = match &d.kind {
            MemKind::Global { param } | MemKind::ConstantArg { param } => {
                let data = match args.get(*param as usize) {
                    Some(Arg::Buffer(b)) => b.iter().map(|x| x & mask(d.elem_width)).collect(),
                    _ => vec![],
                };
                MemState { data, written: None }
            }
            MemKind::Rom => MemState { data: d.init.clone().unwrap_or_default(), written: None },
            MemKind::Private | MemKind::Local => {
                let n = d.len.unwrap_or(0) as usize;
                MemState { data: vec![0; n], written: Some(vec![false; n]) }
            }
        };
        mems[m] = state;
    }
    mems
}

impl Clone for MemState {
    fn clone(&self) -> Self {
        MemState { data: self.data.clone(), written: self.written.clone() }
    }
}

/// Performs a load, checking bounds and initialization.
pub fn load(k: &Kernel, mems: &SecondaryMap<Mem, MemState>, m: Mem, index: u64, span: Span) -> Result<u64, RunError> {
    let st = &mems[m];
    let i = index as usize;
    if i >= st.data.len() || index > u32::MAX as u64 {
        return Err(RunError::OutOfBounds {
            kernel: k.name.to_string(),
            buffer: k.mems[m].name.to_string(),
            index,
            len: st.data.len(),
            write: false,
            span,
        });
    }
    if let Some(w) = &st.written
        && !w[i]
    {
        return Err(RunError::UninitializedRead {
            kernel: k.name.to_string(),
            array: k.mems[m].name.to_string(),
            index,
            span,
        });
    }
    Ok(st.data[i])
}

/// Performs a store, checking bounds.
pub fn store(
    k: &Kernel,
    mems: &mut SecondaryMap<Mem, MemState>,
    m: Mem,
    index: u64,
    value: u64,
    span: Span,
) -> Result<(), RunError> {
    let w = k.mems[m].elem_width;
    let st = &mut mems[m];
    let i = index as usize;
    if i >= st.data.len() {
        return Err(RunError::OutOfBounds {
            kernel: k.name.to_string(),
            buffer: k.mems[m].name.to_string(),
            index,
            len: st.data.len(),
            write: true,
            span,
        });
    }
    st.data[i] = value & mask(w);
    if let Some(wr) = &mut st.written {
        wr[i] = true;
    }
    Ok(())
}

/// Copies the port memories back into argument order.
pub fn collect_buffers(k: &Kernel, mems: &SecondaryMap<Mem, MemState>) -> Vec<Option<Vec<u64>>> {
    let mut out = vec![None; k.params.len()];
    for (i, _, m) in k.ports() {
        out[i] = Some(mems[m].data.clone());
    }
    out
}

#[derive(Clone, Debug)]
pub struct EmuResult {
    /// Final buffer contents per kernel parameter (`None` for scalars).
    pub buffers: Vec<Option<Vec<u64>>>,
    /// Operations executed.
    pub steps: u64,
}

/// Runs a single work-item kernel to completion.
pub fn emulate(k: &Kernel, args: &[Arg], step_limit: u64) -> Result<EmuResult, RunError> {
    let mut mems = init_memories(k, args);
    let mut vals: SecondaryMap<Value, u64> = SecondaryMap::new();
    for (i, _, v) in k.scalar_params() {
        if let Some(Arg::Scalar(x)) = args.get(i) {
            vals[v] = x & mask(k.width(v));
        }
    }
    let mut block = k.entry;
    let mut steps: u64 = 0;
    let mut scratch_args: Vec<u64> = Vec::new();
    let mut scratch_w: Vec<u32> = Vec::new();
    loop {
        let data = &k.blocks[block];
        for &op in &data.ops {
            steps += 1;
            let o = &k.ops[op];
            match &o.kind {
                OpKind::Load(m) => {
                    if o.predicate().is_some_and(|p| vals[p] & 1 == 0) {
                        if let Some(r) = o.result {
                            vals[r] = 0;
                        }
                        continue;
                    }
                    let idx = vals[o.args[0]];
                    let v = load(k, &mems, *m, idx, o.span)?;
                    if let Some(r) = o.result {
                        vals[r] = v;
                    }
                }
                OpKind::Store(m) => {
                    if o.predicate().is_some_and(|p| vals[p] & 1 == 0) {
                        continue;
                    }
                    let idx = vals[o.args[0]];
                    let v = vals[o.args[1]];
                    store(k, &mut mems, *m, idx, v, o.span)?;
                }
                kind => {
                    scratch_args.clear();
                    scratch_w.clear();
                    for a in &o.args {
                        scratch_args.push(vals[*a]);
                        scratch_w.push(k.width(*a));
                    }
                    if let Some(r) = o.result {
                        vals[r] = eval(kind, &scratch_args, &scratch_w, k.width(r));
                    }
                }
            }
        }
        if steps > step_limit {
            return Err(RunError::StepLimit { kernel: k.name.to_string(), limit: step_limit, what: "operations" });
        }
        let target = match &data.term {
            Terminator::Return | Terminator::Unterminated => break,
            Terminator::Jump(t) => t,
            Terminator::Branch { cond, then_to, else_to } => {
                if vals[*cond] & 1 == 1 {
                    then_to
                } else {
                    else_to
                }
            }
            Terminator::Switch { value, cases, default } => {
                let v = vals[*value];
                cases.iter().find(|(c, _)| *c == v).map(|(_, t)| t).unwrap_or(default)
            }
        };
        // Parallel assignment of block parameters.
        let incoming: Vec<u64> = target.args.iter().map(|a| vals[*a]).collect();
        for (p, v) in k.blocks[target.block].params.iter().zip(incoming) {
            vals[*p] = v;
        }
        block = target.block;
    }
    Ok(EmuResult { buffers: collect_buffers(k, &mems), steps })
}
