//! Loop pipelining: modulo scheduling of innermost loops at the minimum initiation interval.
//!
//! For every loop of the kernel this module decides whether it is pipelined and writes a
//! [`LoopAnalysis`] explaining the outcome: the recurrence and resource bounds, the limiting
//! recurrence as a chain of source operations, and a suggested fix.
//!
//! The hardware meaning of a [`Pipeline`] is defined in `docs/timing.md` ("Pipelined loops").

pub mod deps;
pub mod modulo;
pub mod shape;
pub mod skew;

use crate::schedule::{OpClass, OpTime, UnitId};
use crate::timing::Timing;
use deps::{DepKind, MemDep, memory_dependences};
use kiln_dataflow::analysis::natural_loops;
use kiln_dataflow::ir::op::sext;
use kiln_dataflow::ir::{Block, CmpOp, Kernel, Op, OpKind, Terminator, Value, ValueDef};
use kiln_dataflow::ranges::ValueRanges;
use kiln_diagnostics::Span;
use modulo::{Placement, Problem, Violation, check, place_settled, res_mii};
use shape::{LoopShape, Shape, classify_loop};
use std::collections::{BTreeSet, HashMap};

/// Where the value of a loop's result comes from when the loop exits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitSource {
    /// Defined before the loop: unchanged.
    Invariant(Value),
    /// The parameter register of a header parameter, after the pipeline has drained.
    ParamReg(Value),
    /// The exit iteration's value at the end of its first `II` cycles.
    Capture(Value),
}

/// A header parameter in the pipeline: read at `read`, written for the next iteration at
/// `write` (relative to the iteration's start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeParam {
    pub param: Value,
    pub arg: Value,
    pub read: u32,
    pub write: u32,
    /// The add of a skewed accumulator ([`skew`]): the register is written a carry segment
    /// at a time, segment `j` in cycle `write + j`, and read by the add alone.
    pub skewed: Option<Op>,
}

/// A pipelined loop.
#[derive(Clone, Debug)]
pub struct Pipeline {
    pub shape: LoopShape,
    pub ii: u32,
    /// Cycles from the start of an iteration to its last operation, plus one.
    pub depth: u32,
    /// `ceil(depth / ii)`: iterations in flight at once.
    pub stages: u32,
    /// The loop's operations (without constants) in iteration order.
    pub ops: Vec<Op>,
    /// Operations that run only when their iteration's test passes (the body of a test-first
    /// loop).
    pub guarded: BTreeSet<Op>,
    pub params: Vec<PipeParam>,
    /// Exit-edge arguments and values used after the loop, with their sources.
    pub exits: Vec<(Value, ExitSource)>,
    /// Index into the schedule's loop analyses.
    pub analysis: usize,
}

impl Pipeline {
    pub fn blocks(&self) -> Vec<Block> {
        self.shape.blocks()
    }

    /// The continue decision of the iteration in stage 0, from the value of the test.
    pub fn continues(&self, cond: u64) -> bool {
        (cond & 1 == 1) == self.shape.continue_on_true
    }

    pub fn source_of(&self, v: Value) -> ExitSource {
        self.exits.iter().find(|(x, _)| *x == v).map(|(_, s)| *s).unwrap_or(ExitSource::Invariant(v))
    }
}

/// One operation of a recurrence or resource explanation.
#[derive(Clone, Debug)]
pub struct ChainOp {
    pub op: String,
    pub span: Span,
    pub start: u32,
    pub end: u32,
}

/// What limits a loop's initiation interval.
#[derive(Clone, Debug)]
pub enum Limit {
    Resource { resource: String, uses: u32 },
    Recurrence { what: String, chain: Vec<ChainOp>, distance: u32, latency: u32 },
    ExitTest { chain: Vec<ChainOp>, latency: u32 },
    Pragma(u32),
}

/// The outcome of pipelining analysis for one source loop.
#[derive(Clone, Debug)]
pub struct LoopAnalysis {
    pub header: Block,
    pub span: Span,
    pub trip_count: Option<u64>,
    pub pipelined: bool,
    pub reason: String,
    pub target_ii: Option<u32>,
    pub res_mii: u32,
    pub rec_mii: u32,
    pub achieved_ii: Option<u32>,
    pub depth: Option<u32>,
    pub limit: Option<Limit>,
    /// Why the achieved II is above the minimum, if it is.
    pub ii_note: Option<String>,
    pub suggestion: Option<String>,
    /// Loop transformations the lowering applied (from the kernel's loop table).
    pub transformations: Vec<String>,
}

impl LoopAnalysis {
    pub fn mii(&self) -> u32 {
        self.res_mii.max(self.rec_mii).max(self.target_ii.unwrap_or(1))
    }
}

/// The scheduler's view of the kernel needed to pipeline loops.
pub struct Context<'a> {
    pub k: &'a Kernel,
    pub class: &'a dyn Fn(Op) -> OpClass,
    pub unit_latency: &'a dyn Fn(UnitId) -> u32,
    /// Cycles per iteration of blocks run as FSM states.
    pub fsm_cycles: &'a dyn Fn(&[Block]) -> u32,
    pub timing: &'a Timing,
    /// Adds whose sum's top bit is their chain's carry out ([`Timing::carry_out_sums`]).
    pub carry_out_sums: &'a BTreeSet<Op>,
    pub period: f64,
    /// Pipelining switched off (`--no-pipeline`).
    pub disabled: bool,
    /// All pipe transfers of an iteration within II + 1 cycles ([`crate::Options`]).
    pub strict_pipe_order: bool,
}

/// The result for the whole kernel.
pub struct Pipelined {
    pub pipelines: Vec<(Pipeline, HashMap<Op, OpTime>)>,
    pub analyses: Vec<LoopAnalysis>,
}

fn loop_span(k: &Kernel, header: Block) -> Span {
    k.loop_at(header).map(|l| l.span).unwrap_or(k.blocks[header].span)
}

/// Analyses and, where possible, pipelines every loop of the kernel.
pub fn pipeline_loops(cx: &Context) -> Pipelined {
    let k = cx.k;
    let loops = natural_loops(k);
    let mut out = Pipelined { pipelines: vec![], analyses: vec![] };
    // What the dependence analysis needs to read indices narrowed by the e-graph phase.
    let ranges = ValueRanges::compute(k);
    let mut ordered: Vec<&kiln_dataflow::analysis::NaturalLoop> = loops.iter().collect();
    ordered.sort_by_key(|l| (loop_span(k, l.header).file, loop_span(k, l.header).lo, l.header));
    for l in ordered {
        let pragmas = k.loop_at(l.header).map(|li| li.pragmas.clone()).unwrap_or_default();
        let known_trip = k.loop_at(l.header).and_then(|li| li.known_trip_count);
        let transformations = k.loop_at(l.header).map(|li| li.transformations.clone()).unwrap_or_default();
        let mut a = LoopAnalysis {
            header: l.header,
            span: loop_span(k, l.header),
            trip_count: None,
            pipelined: false,
            reason: String::new(),
            target_ii: pragmas.ii,
            res_mii: 1,
            rec_mii: 1,
            achieved_ii: None,
            depth: None,
            limit: None,
            ii_note: None,
            suggestion: None,
            transformations,
        };
        let shape = match classify_loop(k, l, &loops) {
            Ok(s) => s,
            Err(reason) => {
                a.trip_count = natural_trip_count(k, l).or(known_trip);
                a.reason = reason;
                out.analyses.push(a);
                continue;
            }
        };
        a.trip_count = trip_count(k, &shape).or(known_trip);
        if cx.disabled {
            a.reason = "loop pipelining is disabled (--no-pipeline)".into();
            out.analyses.push(a);
            continue;
        }
        if pragmas.disable_pipelining {
            a.reason = "`#pragma disable_loop_pipelining`".into();
            out.analyses.push(a);
            continue;
        }
        match pipeline_one(cx, &shape, pragmas.ivdep, &ranges, &mut a) {
            Some((mut p, times)) => {
                p.analysis = out.analyses.len();
                out.analyses.push(a);
                out.pipelines.push((p, times));
            }
            None => out.analyses.push(a),
        }
    }
    out
}

/// Iteration ops of a loop: header ops then body ops, without constants.
fn loop_ops(cx: &Context, shape: &LoopShape) -> Vec<Op> {
    shape
        .blocks()
        .iter()
        .flat_map(|b| cx.k.blocks[*b].ops.clone())
        .filter(|op| (cx.class)(*op) != OpClass::Constant)
        .collect()
}

fn pipeline_one(
    cx: &Context,
    shape: &LoopShape,
    ivdep: Option<Option<u32>>,
    ranges: &ValueRanges,
    a: &mut LoopAnalysis,
) -> Option<(Pipeline, HashMap<Op, OpTime>)> {
    let k = cx.k;
    let ops = loop_ops(cx, shape);
    let guarded: BTreeSet<Op> = match shape.body {
        Some(b) if shape.shape == Shape::TestFirst => k.blocks[b].ops.iter().copied().collect(),
        _ => BTreeSet::new(),
    };
    let mut deps = memory_dependences(k, shape, &ops, ivdep, ranges);
    for dep in deps.iter_mut().filter(|d| d.kind == DepKind::Raw) {
        dep.cycles += u32::from(cx.timing.registers_writes(dep.mem));
    }
    let skewed = skew::skewed_accumulators(k, shape, &ops, cx.class);
    let problem = Problem {
        k,
        shape,
        ops: &ops,
        class: cx.class,
        unit_latency: cx.unit_latency,
        guarded: &guarded,
        deps: &deps,
        timing: cx.timing,
        carry_out_sums: cx.carry_out_sums,
        period: cx.period,
        strict_pipe_order: cx.strict_pipe_order,
        multipliers: cx.timing.multipliers_per_cycle(k),
        skewed: &skewed,
    };
    // Lower bounds.
    let (res, res_what) = res_mii(&problem);
    a.res_mii = res;
    let Some((rec, rec_limit)) = rec_mii(&problem) else {
        a.reason = "internal: the loop body could not be placed".into();
        return None;
    };
    a.rec_mii = rec;
    let mii = a.mii();
    a.limit = if a.target_ii.is_some_and(|t| t >= res.max(rec)) && a.target_ii > Some(1) {
        Some(Limit::Pragma(a.target_ii.unwrap_or(1)))
    } else if res >= rec {
        res_what.map(|r| Limit::Resource { resource: r, uses: res })
    } else {
        rec_limit
    };
    // Search upwards from the minimum.
    let mut first_failure: Option<String> = None;
    let max_ii = mii.max(1) + 256;
    for ii in mii.max(1)..=max_ii {
        let pl = match place_settled(&problem, ii, true) {
            Ok(pl) => pl,
            Err(v) => {
                first_failure.get_or_insert_with(|| describe_violation(k, &v, ii));
                continue;
            }
        };
        if let Err(v) = check(&problem, &pl, ii) {
            first_failure.get_or_insert_with(|| describe_violation(k, &v, ii));
            continue;
        }
        let exits = match exit_sources(k, shape, &pl, ii) {
            Ok(e) => e,
            Err(why) => {
                a.reason = why;
                return None;
            }
        };
        let params = k.blocks[shape.header]
            .params
            .iter()
            .zip(&shape.back_args)
            .map(|(p, arg)| PipeParam {
                param: *p,
                arg: *arg,
                read: pl.reads[p],
                write: pl.writes[p],
                skewed: skewed.get(p).copied(),
            })
            .collect();
        let stages = pl.depth.div_ceil(ii);
        let fsm = (cx.fsm_cycles)(&shape.blocks());
        if ii >= fsm {
            a.reason = format!(
                "the best II, {ii}, is no faster than the {fsm} cycles per iteration of the sequential schedule"
            );
            a.achieved_ii = None;
            a.suggestion = suggestion(k, &LoopAnalysis { achieved_ii: Some(ii), ..a.clone() }, &deps);
            return None;
        }
        a.pipelined = true;
        a.achieved_ii = Some(ii);
        a.depth = Some(pl.depth);
        a.reason = format!("pipelined at II = {ii}");
        if ii > mii {
            a.ii_note = first_failure;
        }
        a.suggestion = suggestion(k, a, &deps);
        let pipeline = Pipeline {
            shape: shape.clone(),
            ii,
            depth: pl.depth,
            stages,
            ops: ops.clone(),
            guarded,
            params,
            exits,
            analysis: 0,
        };
        return Some((pipeline, pl.times));
    }
    a.reason = format!("no schedule up to II = {max_ii}: {}", first_failure.unwrap_or_default());
    None
}

fn describe_violation(k: &Kernel, v: &Violation, ii: u32) -> String {
    match v {
        Violation::Resource { op, what } => {
            format!("at II = {ii}, `{}` found no free cycle on the {what}", k.ops[*op].kind.mnemonic())
        }
        Violation::Recurrence { param, read, write } => format!(
            "at II = {ii}, the next value of `{}` is ready in cycle {write} but needed in cycle {} of the next iteration",
            value_name(k, *param),
            read + ii
        ),
        Violation::Memory { dep } => format!(
            "at II = {ii}, a loop-carried {} on `{}` (distance {}) is not satisfied",
            dep_word(dep.kind),
            k.mems[dep.mem].name,
            dep.distance
        ),
        Violation::ExitTest { ready } => format!("at II = {ii}, the loop test is only known in cycle {ready}"),
        Violation::HeaderLoad { .. } => format!("at II = {ii}, a load in the loop test completes too late"),
    }
}

fn dep_word(kind: DepKind) -> &'static str {
    match kind {
        DepKind::Raw => "write-then-read dependence",
        DepKind::War => "read-then-write dependence",
        DepKind::Waw => "write-then-write dependence",
        DepKind::Ordered => "volatile access order",
    }
}

fn value_name(k: &Kernel, v: Value) -> String {
    k.values[v].name.as_deref().map(str::to_string).unwrap_or_else(|| v.to_string())
}

fn chain_op(k: &Kernel, pl: &Placement, op: Op) -> ChainOp {
    let t = pl.times.get(&op).copied().unwrap_or_default();
    let span = k.ops[op].span;
    let name = k.float_spans.get(&span).copied().unwrap_or_else(|| k.ops[op].kind.mnemonic());
    ChainOp { op: name.to_string(), span, start: t.start, end: t.end }
}

/// A chain with each float operation's expansion (consecutive operations of one float
/// operation's span) shown as that one operation.
fn collapse_float_ops(k: &Kernel, chain: Vec<ChainOp>) -> Vec<ChainOp> {
    let mut out: Vec<ChainOp> = Vec::new();
    for c in chain {
        match out.last_mut() {
            Some(last) if last.span == c.span && k.float_spans.contains_key(&c.span) => {
                last.start = last.start.min(c.start);
                last.end = last.end.max(c.end);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether a chain goes through a float operation's expansion.
fn through_float(k: &Kernel, chain: &[ChainOp]) -> bool {
    chain.iter().any(|c| k.float_spans.contains_key(&c.span))
}

/// The path of operations from a use of `from` (a value) to the op `to`, following operands
/// inside the loop.
fn chain_between(k: &Kernel, pl: &Placement, from: &dyn Fn(Op) -> bool, to: Op) -> Vec<Op> {
    let mut path = vec![to];
    let mut cur = to;
    for _ in 0..1000 {
        if from(cur) {
            break;
        }
        // Follow the latest-finishing operand inside the loop.
        let next = k.ops[cur]
            .args
            .iter()
            .chain(k.ops[cur].predicate().iter())
            .filter_map(|a| k.def_op(*a))
            .filter(|d| pl.times.contains_key(d))
            .max_by_key(|d| pl.times[d].end);
        match next {
            Some(n) => {
                path.push(n);
                cur = n;
            }
            None => break,
        }
    }
    path.reverse();
    path
}

/// The recurrence-constrained minimum II: the smallest II at which a placement without resource
/// limits satisfies every loop-carried constraint, and the recurrence that sets it.
fn rec_mii(p: &Problem) -> Option<(u32, Option<Limit>)> {
    let mut ii = 1;
    while ii <= 4096 {
        let pl = place_settled(p, ii, false).ok()?;
        match check(p, &pl, ii) {
            Ok(()) => {
                let (_, limit) = recurrence_limit(p, &pl);
                return Some((ii, if ii > 1 { limit } else { None }));
            }
            // The violated constraint's bound is that of an early placement; delaying the reads
            // of header parameters (`place_settled`'s floors) can meet a smaller II, so nearby
            // ones are tried in turn before a jump.
            Err(v) => {
                let bound = v.bound(&pl).max(ii + 1);
                ii = if bound - ii <= 32 { ii + 1 } else { bound };
            }
        }
    }
    None
}

/// The tightest loop-carried constraint of a placement, as a chain of operations.
fn recurrence_limit(p: &Problem, pl: &Placement) -> (u32, Option<Limit>) {
    let k = p.k;
    let mut best: (u32, Option<Limit>) = (1, None);
    let mut consider = |bound: u32, limit: Limit| {
        if bound > best.0 {
            best = (bound, Some(limit));
        }
    };
    for (param, arg) in k.blocks[p.shape.header].params.iter().zip(&p.shape.back_args) {
        let (read, write) = (pl.reads[param], pl.writes[param]);
        let bound = write - read + 1;
        if let Some(producer) = k.def_op(*arg).filter(|o| pl.times.contains_key(o)) {
            let uses_param = |op: Op| k.ops[op].args.contains(param);
            let chain: Vec<ChainOp> =
                chain_between(k, pl, &uses_param, producer).into_iter().map(|o| chain_op(k, pl, o)).collect();
            let what = if through_float(k, &chain) {
                format!("float `{}`", value_name(k, *param))
            } else {
                format!("`{}`", value_name(k, *param))
            };
            let chain = collapse_float_ops(k, chain);
            consider(bound, Limit::Recurrence { what, chain, distance: 1, latency: bound });
        }
    }
    for dep in p.deps.iter().filter(|d| d.distance > 0) {
        let (a, b) = (pl.times[&dep.from].start as i64, pl.times[&dep.to].start as i64);
        let need = a + if dep.kind == DepKind::War { 0 } else { i64::from(dep.cycles) } - b;
        if need <= 0 {
            continue;
        }
        let bound = (need as u32).div_ceil(dep.distance);
        // The chain: from the dependence's target (the read) to the source (the write).
        let to = dep.to;
        let is_to = |op: Op| op == to;
        let mut ops = chain_between(k, pl, &is_to, dep.from);
        if ops.first() != Some(&to) {
            ops.insert(0, to);
        }
        let chain = collapse_float_ops(k, ops.into_iter().map(|o| chain_op(k, pl, o)).collect());
        consider(
            bound,
            Limit::Recurrence {
                what: format!("{} on `{}`", dep_word(dep.kind), k.mems[dep.mem].name),
                chain,
                distance: dep.distance,
                latency: need as u32,
            },
        );
    }
    if let Some(c) = k.def_op(p.shape.cond).filter(|c| pl.times.contains_key(c)) {
        let bound = pl.times[&c].end + 1;
        let is_first = |op: Op| k.ops[op].args.iter().all(|a| k.def_op(*a).is_none_or(|d| !pl.times.contains_key(&d)));
        let chain = chain_between(k, pl, &is_first, c).into_iter().map(|o| chain_op(k, pl, o)).collect();
        consider(bound, Limit::ExitTest { chain, latency: bound });
    }
    best
}

/// The values the code after the loop reads: the exit edge's arguments and every operand and
/// terminator use of the blocks outside the loop.
pub(crate) fn read_after_loop(k: &Kernel, shape: &LoopShape) -> BTreeSet<Value> {
    let blocks: BTreeSet<Block> = shape.blocks().into_iter().collect();
    let mut read: BTreeSet<Value> = shape.exit.args.iter().copied().collect();
    for b in k.rpo().into_iter().filter(|b| !blocks.contains(b)) {
        for op in &k.blocks[b].ops {
            read.extend(k.ops[*op].args.iter().copied());
        }
        read.extend(k.blocks[b].term.uses());
    }
    read
}

/// Sources of the values the loop hands to the code after it.
fn exit_sources(k: &Kernel, shape: &LoopShape, pl: &Placement, ii: u32) -> Result<Vec<(Value, ExitSource)>, String> {
    let blocks: BTreeSet<Block> = shape.blocks().into_iter().collect();
    let defined_in_loop = |v: Value| match k.values[v].def {
        ValueDef::Param(b, _) => blocks.contains(&b),
        ValueDef::Op(op) => blocks.contains(&k.ops[op].block),
    };
    let needed: BTreeSet<Value> = read_after_loop(k, shape).into_iter().filter(|v| defined_in_loop(*v)).collect();
    let params = &k.blocks[shape.header].params;
    let mut out = Vec::new();
    for v in needed {
        let src = if let Some(i) = params.iter().position(|p| *p == v) {
            match shape.shape {
                Shape::TestFirst => ExitSource::ParamReg(v),
                Shape::TestLast if pl.reads[&params[i]] < ii => ExitSource::Capture(v),
                Shape::TestLast => {
                    return Err(format!("the value of `{}` after the loop is read too late", value_name(k, v)));
                }
            }
        } else if let (Shape::TestLast, Some(i)) = (shape.shape, shape.back_args.iter().position(|a| *a == v)) {
            ExitSource::ParamReg(params[i])
        } else {
            match k.def_op(v).and_then(|op| pl.times.get(&op)) {
                Some(t) if t.end < ii && k.ops[k.def_op(v).unwrap_or_else(|| unreachable!())].block == shape.header => {
                    ExitSource::Capture(v)
                }
                _ => {
                    return Err(format!(
                        "the value `{}` used after the loop is computed too late in an iteration",
                        value_name(k, v)
                    ));
                }
            }
        };
        out.push((v, src));
    }
    Ok(out)
}

/// The trip count of a loop with a constant start, step and bound, if it has one.
/// The trip count of any natural loop whose header tests a counted induction variable (loops
/// with inner loops included).
fn natural_trip_count(k: &Kernel, l: &kiln_dataflow::analysis::NaturalLoop) -> Option<u64> {
    let Terminator::Branch { cond, then_to, else_to } = &k.blocks[l.header].term else { return None };
    let continue_on_true = match (l.blocks.contains(&then_to.block), l.blocks.contains(&else_to.block)) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    let preds = k.predecessors();
    let latches: Vec<Block> = preds[l.header].iter().copied().filter(|p| l.blocks.contains(p)).collect();
    let [latch] = latches.as_slice() else { return None };
    let back = k.blocks[*latch].term.targets().into_iter().find(|t| t.block == l.header)?.args.clone();
    let shape = LoopShape {
        shape: if *latch == l.header { Shape::TestLast } else { Shape::TestFirst },
        header: l.header,
        body: None,
        cond: *cond,
        continue_on_true,
        exit: if continue_on_true { else_to.clone() } else { then_to.clone() },
        back_args: back,
    };
    trip_count_in(k, &shape, &|b| l.blocks.contains(&b))
}

fn trip_count(k: &Kernel, shape: &LoopShape) -> Option<u64> {
    let blocks = shape.blocks();
    trip_count_in(k, shape, &|b| blocks.contains(&b))
}

fn trip_count_in(k: &Kernel, shape: &LoopShape, in_loop: &dyn Fn(Block) -> bool) -> Option<u64> {
    let ivs = deps::induction_variables(k, shape);
    let cond_op = k.def_op(shape.cond)?;
    let (OpKind::Cmp(c), [a, b]) = (&k.ops[cond_op].kind, k.ops[cond_op].args.as_slice()) else { return None };
    let (iv, bound, swapped) = if ivs.contains_key(a) {
        (*a, *b, false)
    } else if ivs.contains_key(b) {
        (*b, *a, true)
    } else {
        return None;
    };
    let w = k.width(iv);
    let bound = sext(k.as_const(bound)?, w);
    let step = ivs[&iv];
    // The value the induction variable enters the loop with.
    let idx = k.blocks[shape.header].params.iter().position(|p| *p == iv)?;
    let preds = k.predecessors();
    let mut start = None;
    for p in &preds[shape.header] {
        if in_loop(*p) {
            continue;
        }
        for t in k.blocks[*p].term.targets() {
            if t.block == shape.header {
                let v = k.as_const(t.args[idx]).map(|c| sext(c, w));
                if start.is_some() && start != v {
                    return None;
                }
                start = v;
            }
        }
    }
    let mut x = start?;
    let signed = matches!(c, CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge);
    let holds = |x: i64| -> bool {
        let (l, r) = if swapped { (bound, x) } else { (x, bound) };
        let (ul, ur) = (l as u64 & kiln_dataflow::ir::op::mask(w), r as u64 & kiln_dataflow::ir::op::mask(w));
        let body = match c {
            CmpOp::Eq => l == r,
            CmpOp::Ne => l != r,
            CmpOp::Slt => l < r,
            CmpOp::Sle => l <= r,
            CmpOp::Sgt => l > r,
            CmpOp::Sge => l >= r,
            CmpOp::Ult => ul < ur,
            CmpOp::Ule => ul <= ur,
            CmpOp::Ugt => ul > ur,
            CmpOp::Uge => ul >= ur,
        };
        body == shape.continue_on_true
    };
    let _ = signed;
    let mut n: u64 = 0;
    while holds(x) {
        n += 1;
        x = sext((x.wrapping_add(step)) as u64, w);
        if n > 1 << 26 {
            return None;
        }
    }
    // A test-last loop runs its body once before the first test.
    Some(if shape.shape == Shape::TestLast { n + 1 } else { n })
}

/// A one-line fix for what limits the loop, when there is one.
fn suggestion(k: &Kernel, a: &LoopAnalysis, deps: &[MemDep]) -> Option<String> {
    let ii = a.achieved_ii?;
    if ii <= 1 {
        return None;
    }
    match &a.limit {
        Some(Limit::Recurrence { what, .. }) if what.contains("dependence") => {
            let dep = deps.iter().find(|d| d.distance > 0)?;
            let mem = &k.mems[dep.mem];
            if mem.atomic {
                return Some(format!(
                    "atomic updates of `{}[]` wait for each other; accumulate into private partial results (one per lane of an unrolled loop) and combine them once",
                    mem.name
                ));
            }
            Some(format!("add `#pragma ivdep` if iterations never touch the same `{}[]` element closer than {ii} iterations apart", mem.name))
        }
        Some(Limit::Recurrence { what, .. }) if what.starts_with("float ") && !k.relaxed_math => Some(format!(
            "the {what} is computed in order, as OpenCL C requires without relaxed math; build with `-cl-fast-relaxed-math` (or `-cl-unsafe-math-optimizations`) and kiln splits a loop's float sum into {ii} partial sums, an iteration per cycle"
        )),
        Some(Limit::Recurrence { what, .. }) => Some(format!(
            "the loop-carried value {what} limits II; shorten its computation, or split the reduction into {ii} partial results"
        )),
        Some(Limit::Resource { resource, .. }) if resource.starts_with(modulo::MULTIPLIERS) => Some(
            "the multipliers are shared by every loop of the kernel; fewer multiplies per iteration, or operands under 17 bits (one DSP block each), lower the II".into(),
        ),
        Some(Limit::Resource { resource, uses }) => Some(format!(
            "{uses} accesses per iteration share the {resource}; {}",
            if resource.contains("port `") {
                "copy the data into a private array (on-chip memory) or load wider vectors"
            } else {
                "partition the array so the accesses use different banks"
            }
        )),
        Some(Limit::ExitTest { .. }) => {
            Some("the loop test depends on data computed in the loop; use a counted `for` loop with a bound known before the loop".into())
        }
        _ => None,
    }
}
