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
use kiln_diagnostics::Span;
use std::collections::VecDeque;

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
    OutOfBounds {
        kernel: String,
        buffer: String,
        index: u64,
        len: usize,
        write: bool,
        span: Span,
    },
    UninitializedRead {
        kernel: String,
        array: String,
        index: u64,
        span: Span,
    },
    StepLimit {
        kernel: String,
        limit: u64,
        what: &'static str,
    },
    /// The cycle-accurate simulator saw a store to the element of an on-chip memory that a load
    /// reads in the same cycle, which the scheduler never allows (see `kiln_scheduler`'s
    /// `pipeline::modulo::delta`).
    ReadWriteCollision {
        kernel: String,
        memory: String,
        index: u64,
        span: Span,
    },
    /// No kernel of a system can move: `blocked` says who waits where, `fifos` the fill level
    /// of every FIFO (name, packets, depth).
    Deadlock {
        blocked: Vec<Blocked>,
        fifos: Vec<(String, usize, u32)>,
        after: String,
    },
}

/// A kernel waiting in a blocking pipe transfer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub kernel: String,
    pub pipe: String,
    pub reading: bool,
    /// It does not block but keeps polling (non-blocking transfers that keep failing).
    pub polling: bool,
    pub span: Span,
}

impl RunError {
    pub fn to_diagnostic(&self) -> kiln_diagnostics::Diagnostic {
        use kiln_diagnostics::{Diagnostic, codes};
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
            RunError::Deadlock { blocked, fifos, after } => {
                let who = blocked.iter().map(|b| format!("`{}`", b.kernel)).collect::<Vec<_>>().join(", ");
                let headline = if blocked.iter().any(|b| b.polling) {
                    format!(
                        "no progress after {after}: every kernel waits on a pipe and no packet moves (waiting: {who})"
                    )
                } else {
                    format!("deadlock after {after}: no kernel can move (blocked: {who})")
                };
                let mut d = Diagnostic::error(codes::DEADLOCK, headline);
                for (i, b) in blocked.iter().enumerate() {
                    let what = format!(
                        "kernel `{}` {} pipe `{}`, which {} {}",
                        b.kernel,
                        match (b.polling, b.reading) {
                            (false, true) => "waits here to read from",
                            (false, false) => "waits here to write to",
                            (true, true) => "keeps polling here to read from",
                            (true, false) => "keeps polling here to write to",
                        },
                        b.pipe,
                        if b.polling { "stays" } else { "is" },
                        if b.reading { "empty" } else { "full" }
                    );
                    d = if i == 0 { d.at_labeled(b.span, what) } else { d.with_label(b.span, what) };
                }
                for (name, n, depth) in fifos {
                    d = d.with_note(format!("pipe `{name}` holds {n} of {depth} packet(s)"));
                }
                if fifos.is_empty() {
                    d = d.with_help("connect the pipe: launch the kernel together with the kernels that use it");
                }
                d
            }
            RunError::ReadWriteCollision { kernel, memory, index, span } => Diagnostic::error(
                codes::READ_WRITE_COLLISION,
                format!("kernel `{kernel}` writes `{memory}[{index}]` in the cycle a load reads it"),
            )
            .at_labeled(*span, "this store")
            .with_note("this is a bug in kiln's scheduler; please report it with the kernel"),
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
    /// What each `printf` the kernel ran printed, in the order they ran.
    pub printed: Vec<String>,
}

/// The FIFOs behind a kernel's pipes during a run. `try_read`/`try_write` either transfer a
/// whole packet (its lanes) or nothing.
pub trait PipeIo {
    fn try_read(&mut self, pipe: Pipe) -> Option<Vec<u64>>;
    fn try_write(&mut self, pipe: Pipe, packet: &[u64]) -> bool;
    /// The packets a pipe's FIFO holds now, or its depth.
    fn query(&mut self, pipe: Pipe, what: PipeQuery) -> u64;
}

/// No FIFOs: every read finds its pipe empty and every write finds it full (a FIFO of depth 0).
pub struct Unconnected;

impl PipeIo for Unconnected {
    fn try_read(&mut self, _: Pipe) -> Option<Vec<u64>> {
        None
    }
    fn try_write(&mut self, _: Pipe, _: &[u64]) -> bool {
        false
    }
    fn query(&mut self, _: Pipe, _: PipeQuery) -> u64 {
        0
    }
}

/// Where a run of a kernel stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The kernel returned.
    Done,
    /// The kernel waits in a blocking transfer `op` on a pipe.
    Blocked(Op),
    /// The kernel's last `window` transfers were non-blocking ones that failed, the last
    /// `op`: it polls a pipe that neither fills nor empties (it can go on polling).
    Polling(Op),
    /// The kernel gave way after its slice of operations (it can go on).
    Yielded,
}

/// A run of one kernel that can stop at a blocking pipe transfer and resume, so that the
/// kernels of a system run concurrently (see [`run_system`]).
pub struct Emulation<'k> {
    k: &'k Kernel,
    mems: SecondaryMap<Mem, MemState>,
    vals: SecondaryMap<Value, u64>,
    /// The lanes of the packet each `PipeRead` took, for its `PipeLane`s.
    packets: SecondaryMap<Pipe, Vec<u64>>,
    /// The lanes each `WordLoad` read, for its `WordLane`s.
    words: std::collections::HashMap<Op, Vec<u64>>,
    block: Block,
    /// The next op of `block` to run.
    next: usize,
    steps: u64,
    done: bool,
    /// Non-blocking transfers that failed since the kernel's last successful transfer.
    failed_polls: u64,
    /// After how many failed polls in a row [`Emulation::run`] reports [`Progress::Polling`].
    poll_window: u64,
    /// What the kernel's `printf`s printed so far.
    printed: Vec<String>,
}

/// Polls that fail in a row, with nothing else moving, before a kernel is reported as
/// starving; and cycles without progress before the simulator reports a deadlock
/// (`--deadlock-cycles`).
pub const DEFAULT_DEADLOCK_WINDOW: u64 = 1000;

impl<'k> Emulation<'k> {
    pub fn new(k: &'k Kernel, args: &[Arg]) -> Self {
        let mems = init_memories(k, args);
        let mut vals: SecondaryMap<Value, u64> = SecondaryMap::new();
        for (i, _, v) in k.scalar_params() {
            if let Some(Arg::Scalar(x)) = args.get(i) {
                vals[v] = x & mask(k.width(v));
            }
        }
        Emulation {
            k,
            mems,
            vals,
            packets: SecondaryMap::new(),
            words: std::collections::HashMap::new(),
            block: k.entry,
            next: 0,
            steps: 0,
            done: false,
            failed_polls: 0,
            poll_window: DEFAULT_DEADLOCK_WINDOW,
            printed: Vec::new(),
        }
    }

    /// Sets how many failed polls in a row make [`Emulation::run`] report
    /// [`Progress::Polling`] (at least 1).
    pub fn with_poll_window(mut self, window: u64) -> Self {
        self.poll_window = window.max(1);
        self
    }

    /// Counts a non-blocking transfer's outcome; `true` when the kernel has now failed
    /// `poll_window` polls in a row.
    fn polled(&mut self, ok: bool) -> bool {
        self.failed_polls = if ok { 0 } else { self.failed_polls + 1 };
        self.failed_polls >= self.poll_window
    }

    /// The block the emulation is in (about to run, or running).
    pub fn block(&self) -> Block {
        self.block
    }

    /// The last value `v` took (0 before it is computed).
    pub fn value(&self, v: Value) -> u64 {
        self.vals[v]
    }

    /// Operations executed so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Final buffer contents per kernel parameter (`None` for scalars and pipes).
    pub fn buffers(&self) -> Vec<Option<Vec<u64>>> {
        collect_buffers(self.k, &self.mems)
    }

    fn result(&self) -> EmuResult {
        EmuResult { buffers: self.buffers(), steps: self.steps, printed: self.printed.clone() }
    }

    /// Runs until the kernel returns, blocks on a pipe, or has run `slice` more operations.
    /// Fails when the total passes `step_limit`.
    pub fn run(&mut self, io: &mut dyn PipeIo, slice: u64, step_limit: u64) -> Result<Progress, RunError> {
        let k = self.k;
        let budget_end = self.steps.saturating_add(slice);
        let mut scratch_args: Vec<u64> = Vec::new();
        let mut scratch_w: Vec<u32> = Vec::new();
        while !self.done {
            let data = &k.blocks[self.block];
            while self.next < data.ops.len() {
                let op = data.ops[self.next];
                let o = &k.ops[op];
                let vals = &mut self.vals;
                match &o.kind {
                    OpKind::Load(m) => {
                        if o.predicate().is_some_and(|p| vals[p] & 1 == 0) {
                            if let Some(r) = o.result {
                                vals[r] = 0;
                            }
                        } else {
                            let v = load(k, &self.mems, *m, vals[o.args[0]], o.span)?;
                            if let Some(r) = o.result {
                                vals[r] = v;
                            }
                        }
                    }
                    OpKind::Store(m) => {
                        if o.predicate().is_none_or(|p| vals[p] & 1 != 0) {
                            let (idx, v) = (vals[o.args[0]], vals[o.args[1]]);
                            store(k, &mut self.mems, *m, idx, v, o.span)?;
                        }
                    }
                    OpKind::WordLoad(m) => {
                        let n = u64::from(k.mems[*m].lanes.max(1));
                        let mut lanes = vec![0; n as usize];
                        if o.predicate().is_none_or(|p| vals[p] & 1 != 0) {
                            let base = vals[o.args[0]] / n * n;
                            // The last word of a widened scalar buffer may lie partly outside
                            // it: the missing lanes read as zero, as at the hardware's port.
                            let len = self.mems[*m].data.len() as u64;
                            for (j, lane) in lanes.iter_mut().enumerate() {
                                let i = base + j as u64;
                                if j == 0 || i < len {
                                    *lane = load(k, &self.mems, *m, i, o.span)?;
                                }
                            }
                        }
                        self.words.insert(op, lanes);
                        if let Some(r) = o.result {
                            vals[r] = 1;
                        }
                    }
                    OpKind::WordLane { .. } | OpKind::WordLaneAt(_) => {
                        let lane = match o.kind {
                            OpKind::WordLaneAt(m) => vals[o.args[1]] % u64::from(k.mems[m].lanes.max(1)),
                            OpKind::WordLane { lane, .. } => u64::from(lane),
                            _ => 0,
                        };
                        let word = k.def_op(o.args[0]).and_then(|l| self.words.get(&l));
                        let v = word.and_then(|w| w.get(lane as usize)).copied().unwrap_or(0);
                        if let Some(r) = o.result {
                            vals[r] = v;
                        }
                    }
                    OpKind::WordStore { mem, mask } => {
                        if o.predicate().is_none_or(|p| vals[p] & 1 != 0) {
                            let n = u64::from(k.mems[*mem].lanes.max(1));
                            let base = vals[o.args[0]] / n * n;
                            let mut values = o.args[1..].iter();
                            for j in 0..n {
                                if mask >> j & 1 == 1
                                    && let Some(v) = values.next()
                                {
                                    store(k, &mut self.mems, *mem, base + j, vals[*v], o.span)?;
                                }
                            }
                        }
                    }
                    OpKind::WordStoreAt(m) => {
                        if o.predicate().is_none_or(|p| vals[p] & 1 != 0) {
                            let (idx, v) = (vals[o.args[0]], vals[o.args[1]]);
                            store(k, &mut self.mems, *m, idx, v, o.span)?;
                        }
                    }
                    OpKind::PipeRead { pipe, blocking } => {
                        let got = io.try_read(*pipe);
                        if got.is_none() && *blocking {
                            return Ok(Progress::Blocked(op));
                        }
                        let ok = got.is_some();
                        self.packets[*pipe] = got.unwrap_or_else(|| vec![0; k.pipes[*pipe].lanes.len()]);
                        if let Some(r) = o.result {
                            vals[r] = ok as u64;
                        }
                        if self.polled(ok) {
                            self.next += 1;
                            self.steps += 1;
                            return Ok(Progress::Polling(op));
                        }
                    }
                    OpKind::PipeLane { pipe, lane } => {
                        let v = self.packets[*pipe].get(*lane as usize).copied().unwrap_or(0);
                        if let Some(r) = o.result {
                            vals[r] = v & mask(k.width(r));
                        }
                    }
                    OpKind::Print(format) => {
                        let values: Vec<u64> = o.args.iter().map(|a| vals[*a]).collect();
                        self.printed.push(format.render(&values));
                    }
                    OpKind::PipeQuery { pipe, what } => {
                        let v = io.query(*pipe, *what);
                        if let Some(r) = o.result {
                            vals[r] = v & mask(k.width(r));
                        }
                    }
                    OpKind::PipeWrite { pipe, blocking } => {
                        let packet: Vec<u64> = o.args.iter().map(|a| vals[*a]).collect();
                        let ok = io.try_write(*pipe, &packet);
                        if !ok && *blocking {
                            return Ok(Progress::Blocked(op));
                        }
                        if let Some(r) = o.result {
                            vals[r] = ok as u64;
                        }
                        if self.polled(ok) {
                            self.next += 1;
                            self.steps += 1;
                            return Ok(Progress::Polling(op));
                        }
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
                self.next += 1;
                self.steps += 1;
            }
            if self.steps > step_limit {
                return Err(RunError::StepLimit { kernel: k.name.to_string(), limit: step_limit, what: "operations" });
            }
            let vals = &mut self.vals;
            let target = match &data.term {
                Terminator::Return | Terminator::Unterminated => {
                    self.done = true;
                    break;
                }
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
            self.block = target.block;
            self.next = 0;
            if self.steps >= budget_end {
                return Ok(Progress::Yielded);
            }
        }
        Ok(Progress::Done)
    }
}

/// Who waits where: a kernel held by a blocking transfer or polling without success.
fn waiting(k: &Kernel, op: Op, polling: bool) -> Blocked {
    let o = &k.ops[op];
    Blocked {
        kernel: k.name.to_string(),
        pipe: o.kind.pipe().map(|p| k.pipes[p].name.to_string()).unwrap_or_default(),
        reading: matches!(o.kind, OpKind::PipeRead { .. }),
        polling,
        span: o.span,
    }
}

/// Runs a kernel with no pipes connected to completion. A kernel that waits on one of its
/// (unconnected) pipes, or polls one [`DEFAULT_DEADLOCK_WINDOW`] times in a row, is reported.
pub fn emulate(k: &Kernel, args: &[Arg], step_limit: u64) -> Result<EmuResult, RunError> {
    emulate_with_window(k, args, step_limit, DEFAULT_DEADLOCK_WINDOW)
}

/// [`emulate`], reporting a kernel that polls one of its pipes `window` times in a row.
pub fn emulate_with_window(k: &Kernel, args: &[Arg], step_limit: u64, window: u64) -> Result<EmuResult, RunError> {
    let mut e = Emulation::new(k, args).with_poll_window(window);
    let (op, polling) = match e.run(&mut Unconnected, u64::MAX, step_limit)? {
        Progress::Blocked(op) => (op, false),
        Progress::Polling(op) => (op, true),
        Progress::Done | Progress::Yielded => return Ok(e.result()),
    };
    Err(RunError::Deadlock {
        blocked: vec![waiting(k, op, polling)],
        fifos: vec![],
        after: format!("{} operations", e.steps),
    })
}

/// A FIFO of a system: a name for reports and its depth in packets.
#[derive(Clone, Debug)]
pub struct FifoSpec {
    pub name: String,
    pub depth: u32,
}

/// One kernel launch of a system: its arguments and, for each of its pipes, the FIFO.
pub struct Launch<'k> {
    pub kernel: &'k Kernel,
    pub args: Vec<Arg>,
    pub fifo_of: SecondaryMap<Pipe, u32>,
}

struct SystemIo<'a> {
    fifos: &'a mut [VecDeque<Vec<u64>>],
    specs: &'a [FifoSpec],
    fifo_of: &'a SecondaryMap<Pipe, u32>,
    /// Packets moved.
    moves: u64,
}

impl PipeIo for SystemIo<'_> {
    fn try_read(&mut self, pipe: Pipe) -> Option<Vec<u64>> {
        let got = self.fifos[self.fifo_of[pipe] as usize].pop_front();
        self.moves += u64::from(got.is_some());
        got
    }
    fn try_write(&mut self, pipe: Pipe, packet: &[u64]) -> bool {
        let f = self.fifo_of[pipe] as usize;
        if self.fifos[f].len() >= self.specs[f].depth as usize {
            return false;
        }
        self.fifos[f].push_back(packet.to_vec());
        self.moves += 1;
        true
    }
    fn query(&mut self, pipe: Pipe, what: PipeQuery) -> u64 {
        let f = self.fifo_of[pipe] as usize;
        match what {
            PipeQuery::Packets => self.fifos[f].len() as u64,
            PipeQuery::MaxPackets => u64::from(self.specs[f].depth),
        }
    }
}

/// Operations a kernel of a system runs before the others get their turn: large enough that
/// switching costs nothing, small enough that a kernel polling a pipe lets the others fill it.
const SLICE: u64 = 4096;

/// Runs the kernels of a system concurrently: each runs until it blocks on a pipe, has used
/// its slice, or has polled `window` times in a row without success, in launch order, round
/// after round. Packets keep their order in every FIFO and a blocking transfer waits while its
/// FIFO is empty (read) or holds `depth` packets (write). When a round moves no packet and
/// finishes no kernel while every unfinished kernel waits — held by a blocking transfer, or
/// polling with `window` failures in a row — the run stops with [`RunError::Deadlock`]: a
/// deadlock, or a kernel starving on a pipe nothing will fill or empty.
pub fn run_system(
    launches: &[Launch],
    fifos: &[FifoSpec],
    step_limit: u64,
    window: u64,
) -> Result<Vec<EmuResult>, RunError> {
    let mut queues: Vec<VecDeque<Vec<u64>>> = vec![VecDeque::new(); fifos.len()];
    let mut runs: Vec<Emulation> =
        launches.iter().map(|l| Emulation::new(l.kernel, &l.args).with_poll_window(window)).collect();
    let mut state: Vec<Progress> = vec![Progress::Yielded; runs.len()];
    loop {
        let mut moved = false;
        for (i, run) in runs.iter_mut().enumerate() {
            if state[i] == Progress::Done {
                continue;
            }
            let mut io = SystemIo { fifos: &mut queues, specs: fifos, fifo_of: &launches[i].fifo_of, moves: 0 };
            state[i] = run.run(&mut io, SLICE, step_limit)?;
            moved |= io.moves > 0 || state[i] == Progress::Done;
        }
        if state.iter().all(|s| *s == Progress::Done) {
            return Ok(runs.iter().map(Emulation::result).collect());
        }
        let all_wait = state.iter().all(|s| matches!(s, Progress::Done | Progress::Blocked(_) | Progress::Polling(_)));
        if !moved && all_wait {
            let blocked = runs
                .iter()
                .zip(&state)
                .filter_map(|(r, s)| match s {
                    Progress::Blocked(op) => Some(waiting(r.k, *op, false)),
                    Progress::Polling(op) => Some(waiting(r.k, *op, true)),
                    _ => None,
                })
                .collect();
            let fills = fifos.iter().zip(&queues).map(|(f, q)| (f.name.clone(), q.len(), f.depth)).collect();
            let after: u64 = runs.iter().map(|r| r.steps).sum();
            return Err(RunError::Deadlock { blocked, fifos: fills, after: format!("{after} operations") });
        }
    }
}
