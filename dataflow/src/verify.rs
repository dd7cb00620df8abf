//! The IR verifier. It runs after lowering and after every pass (in debug builds and tests, and
//! with `--verify` in release builds) and reports every violation, not only the first.
//!
//! Checks:
//! - every reachable block is terminated; jump argument counts and widths match the target's
//!   parameters;
//! - each op's operand count and widths fit its kind; results have the right width;
//! - every value used is defined, and its definition dominates the use (same block: earlier);
//! - `Load`/`Store` name an existing memory, store to a writable one, and use index widths of
//!   32 bits; stored values have the element width;
//! - the entry block has no predecessors.
//!
//! Not yet checked: that `LoopInfo` headers are loop headers.

use crate::analysis::Dominators;
use crate::ir::*;
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierError {
    pub location: String,
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

pub fn verify(k: &Kernel) -> Result<(), Vec<VerifierError>> {
    let mut errs = Vec::new();
    let mut err = |loc: String, msg: String| errs.push(VerifierError { location: loc, message: msg });
    let rpo = k.rpo();
    let doms = Dominators::compute(k);
    let preds = k.predecessors();
    if !preds[k.entry].is_empty() {
        err(format!("{}", k.entry), "the entry block has predecessors".into());
    }
    // Position of each op in its block, for same-block dominance.
    let mut pos: HashMap<Op, usize> = HashMap::new();
    for b in &rpo {
        for (i, op) in k.blocks[*b].ops.iter().enumerate() {
            pos.insert(*op, i);
        }
    }
    let dominates_use = |v: Value, use_block: Block, use_pos: usize| -> bool {
        match k.values[v].def {
            ValueDef::Param(b, _) => doms.dominates(b, use_block),
            ValueDef::Op(op) => {
                let db = k.ops[op].block;
                if db == use_block {
                    pos.get(&op).is_some_and(|p| *p < use_pos)
                } else {
                    doms.dominates(db, use_block) && pos.contains_key(&op)
                }
            }
        }
    };
    for &b in &rpo {
        let data = &k.blocks[b];
        for (i, &op) in data.ops.iter().enumerate() {
            let o = &k.ops[op];
            // Formatted only for an error: the verifier runs after every pass.
            let loc = || format!("{b}/{op} ({})", o.kind.mnemonic());
            if o.block != b {
                err(loc(), format!("op is listed in {b} but records block {}", o.block));
            }
            for &a in &o.args {
                if !dominates_use(a, b, i) {
                    err(loc(), format!("operand {a} does not dominate its use"));
                }
            }
            let w = |v: Value| k.width(v);
            let rw = o.result.map(w);
            let argw: Vec<u32> = o.args.iter().map(|a| w(*a)).collect();
            let expect = |n: usize| o.args.len() == n;
            let bad = match &o.kind {
                OpKind::Const(_) => !expect(0) || rw.is_none(),
                OpKind::Unary(_) => !expect(1) || rw != Some(argw[0]),
                OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr) => !expect(2) || rw != Some(argw[0]),
                OpKind::Binary(_) => !expect(2) || rw != Some(argw[0]) || argw[0] != argw[1],
                OpKind::Cmp(_) => !expect(2) || rw != Some(1) || argw[0] != argw[1],
                OpKind::Select => !expect(3) || argw[0] != 1 || rw != Some(argw[1]) || argw[1] != argw[2],
                OpKind::Cast(CastOp::Trunc) => !expect(1) || rw.is_none_or(|r| r >= argw[0]),
                OpKind::Cast(_) => !expect(1) || rw.is_none_or(|r| r <= argw[0]),
                OpKind::Float(f) => {
                    use crate::ir::float::Shape;
                    match f.shape() {
                        Shape::Floats(n) => !expect(n) || rw != Some(32) || argw.iter().any(|&x| x != 32),
                        Shape::FloatInt => !expect(2) || rw != Some(32) || argw != [32, 32],
                        Shape::IntResult(n) => !expect(n) || rw != Some(32) || argw.iter().any(|&x| x != 32),
                    }
                }
                OpKind::FCmp(_) => !expect(2) || rw != Some(1) || argw[0] != 32 || argw[1] != 32,
                OpKind::FConv(c) => {
                    let float_w = |x: u32| matches!(x, 16 | 32 | 64);
                    !expect(1)
                        || match (c, rw) {
                            (crate::ir::FloatConv::FromInt { .. }, Some(r)) => !float_w(r),
                            (crate::ir::FloatConv::ToInt { .. }, Some(_)) => !float_w(argw[0]),
                            (crate::ir::FloatConv::Resize { .. }, Some(r)) => !float_w(r) || !float_w(argw[0]),
                            (_, None) => true,
                        }
                }
                OpKind::PipeRead { pipe, .. } => {
                    !expect(0) || rw != Some(1) || k.pipes.get(*pipe).is_none_or(|d| d.end != PipeEnd::Read)
                }
                OpKind::PipeLane { pipe, lane } => {
                    let read_of_pipe = o.args.first().and_then(|a| k.def_op(*a)).is_some_and(|r| {
                        k.ops[r].block == b && matches!(k.ops[r].kind, OpKind::PipeRead { pipe: p, .. } if p == *pipe)
                    });
                    !expect(1)
                        || !read_of_pipe
                        || rw != k.pipes.get(*pipe).and_then(|d| d.lanes.get(*lane as usize).copied())
                }
                OpKind::PipeQuery { pipe, .. } => !expect(0) || rw != Some(32) || k.pipes.get(*pipe).is_none(),
                OpKind::Print(format) => rw.is_some() || o.args.len() != format.values(),
                OpKind::PipeWrite { pipe, .. } => {
                    rw != Some(1) || k.pipes.get(*pipe).is_none_or(|d| d.end != PipeEnd::Write || d.lanes != argw)
                }
                OpKind::Load(m) => {
                    !(expect(1) || (expect(2) && argw[1] == 1))
                        || k.mems.get(*m).is_none()
                        || argw[0] != 32
                        || rw != k.mems.get(*m).map(|d| d.elem_width)
                }
                OpKind::Store(m) => {
                    !(expect(2) || (expect(3) && argw[2] == 1))
                        || o.result.is_some()
                        || k.mems.get(*m).is_none_or(|d| d.is_read_only() || d.elem_width != argw[1])
                        || argw[0] != 32
                }
                // Word operations only on ports of more than one lane.
                OpKind::WordLoad(m) => {
                    !(expect(1) || (expect(2) && argw[1] == 1))
                        || k.mems.get(*m).is_none_or(|d| !d.is_port() || d.lanes < 2)
                        || argw[0] != 32
                        || rw != Some(1)
                }
                OpKind::WordLane { mem, lane } => {
                    let load_of_mem = o.args.first().and_then(|a| k.def_op(*a)).is_some_and(|l| {
                        k.ops[l].block == b && matches!(k.ops[l].kind, OpKind::WordLoad(x) if x == *mem)
                    });
                    !expect(1)
                        || !load_of_mem
                        || k.mems.get(*mem).is_none_or(|d| *lane >= d.lanes || rw != Some(d.elem_width))
                }
                OpKind::WordLaneAt(mem) => {
                    let load_of_mem = o.args.first().and_then(|a| k.def_op(*a)).is_some_and(|l| {
                        k.ops[l].block == b && matches!(k.ops[l].kind, OpKind::WordLoad(x) if x == *mem)
                    });
                    !expect(2)
                        || !load_of_mem
                        || argw[1] != 32
                        || k.mems.get(*mem).is_none_or(|d| rw != Some(d.elem_width))
                }
                OpKind::WordStore { mem, mask } => {
                    let n = mask.count_ones() as usize;
                    let pred = o.args.len() == n + 2 && argw[n + 1] == 1;
                    !(expect(n + 1) || pred)
                        || o.result.is_some()
                        || argw[0] != 32
                        || *mask == 0
                        || k.mems.get(*mem).is_none_or(|d| {
                            d.is_read_only()
                                || !d.is_port()
                                || *mask >> d.lanes.min(31) != 0
                                || argw[1..=n].iter().any(|x| *x != d.elem_width)
                        })
                }
                OpKind::WordStoreAt(mem) => {
                    !(expect(2) || (expect(3) && argw[2] == 1))
                        || o.result.is_some()
                        || argw[0] != 32
                        || k.mems.get(*mem).is_none_or(|d| d.is_read_only() || !d.is_port() || d.elem_width != argw[1])
                }
            };
            if bad {
                err(loc(), format!("malformed operands or widths: args {argw:?}, result {rw:?}"));
            }
            if let Some(r) = rw
                && (r == 0 || r > 64)
            {
                err(loc(), format!("result width {r} is outside 1..=64"));
            }
        }
        let nops = data.ops.len();
        for v in data.term.uses() {
            if !dominates_use(v, b, nops) {
                err(format!("{b} terminator"), format!("value {v} does not dominate its use"));
            }
        }
        match &data.term {
            Terminator::Unterminated => err(format!("{b}"), "block is not terminated".into()),
            Terminator::Branch { cond, .. } if k.width(*cond) != 1 => {
                err(format!("{b} terminator"), "branch condition is not 1 bit".into())
            }
            _ => {}
        }
        for t in data.term.targets() {
            let params = &k.blocks[t.block].params;
            if params.len() != t.args.len() {
                err(
                    format!("{b} terminator"),
                    format!("jump to {} passes {} arguments for {} parameters", t.block, t.args.len(), params.len()),
                );
                continue;
            }
            for (a, p) in t.args.iter().zip(params) {
                if k.width(*a) != k.width(*p) {
                    err(format!("{b} terminator"), format!("argument {a} to {} has the wrong width", t.block));
                }
            }
        }
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}
