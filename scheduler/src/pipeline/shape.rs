//! Which loops can be pipelined, and their shape.
//!
//! A pipelineable loop is an innermost natural loop of one of two shapes (after if-conversion):
//!
//! * **test-first** (`for`, `while`): a header `H` whose branch either enters the body block `B`
//!   or leaves to the exit block `E`; `B` jumps back to `H`. The body of an iteration runs only
//!   if its test passes.
//! * **test-last** (`do`-`while`): a single block `H` whose branch either jumps back to `H` or
//!   leaves to `E`; every iteration runs all of `H`.
//!
//! Anything else (an inner loop, a `break` or `return` out of the body, a `switch`) is not
//! pipelined, and the reason goes in the loop report.

use kiln_dataflow::analysis::NaturalLoop;
use kiln_dataflow::ir::{Block, Kernel, Target, Terminator, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    TestFirst,
    TestLast,
}

/// A loop in a shape the pipeliner handles.
#[derive(Clone, Debug)]
pub struct LoopShape {
    pub shape: Shape,
    pub header: Block,
    /// The body block of a test-first loop.
    pub body: Option<Block>,
    /// The branch condition in the header.
    pub cond: Value,
    /// Whether the loop continues when `cond` is 1 (otherwise when it is 0).
    pub continue_on_true: bool,
    /// The exit edge.
    pub exit: Target,
    /// Arguments of the back edge (to the header's parameters).
    pub back_args: Vec<Value>,
}

impl LoopShape {
    /// The loop's blocks in execution order within an iteration.
    pub fn blocks(&self) -> Vec<Block> {
        let mut v = vec![self.header];
        v.extend(self.body);
        v
    }
}

/// Checks the shape of a natural loop; `Err` says why it cannot be pipelined.
pub fn classify_loop(k: &Kernel, l: &NaturalLoop, all: &[NaturalLoop]) -> Result<LoopShape, String> {
    if all.iter().any(|m| m.header != l.header && l.blocks.contains(&m.header)) {
        return Err("contains an inner loop (unroll the inner loop fully to pipeline this one)".into());
    }
    let h = l.header;
    let Terminator::Branch { cond, then_to, else_to } = &k.blocks[h].term else {
        return Err("the loop test is not a two-way branch in the loop header".into());
    };
    let inside = |t: &Target| l.blocks.contains(&t.block);
    let (cont, exit, continue_on_true) = match (inside(then_to), inside(else_to)) {
        (true, false) => (then_to, else_to, true),
        (false, true) => (else_to, then_to, false),
        _ => return Err("the loop has no single exit test in its header".into()),
    };
    match l.blocks.len() {
        1 => {
            // Test-last: the header branches back to itself.
            if cont.block != h {
                return Err("unexpected loop structure".into());
            }
            Ok(LoopShape {
                shape: Shape::TestLast,
                header: h,
                body: None,
                cond: *cond,
                continue_on_true,
                exit: exit.clone(),
                back_args: cont.args.clone(),
            })
        }
        2 => {
            let b = cont.block;
            if b == h || !cont.args.is_empty() || !k.blocks[b].params.is_empty() {
                return Err("unexpected loop structure".into());
            }
            match &k.blocks[b].term {
                Terminator::Jump(t) if t.block == h => Ok(LoopShape {
                    shape: Shape::TestFirst,
                    header: h,
                    body: Some(b),
                    cond: *cond,
                    continue_on_true,
                    exit: exit.clone(),
                    back_args: t.args.clone(),
                }),
                _ => Err("the body has more than one path back to the loop test".into()),
            }
        }
        _ => {
            let has_switch = l.blocks.iter().any(|b| matches!(k.blocks[*b].term, Terminator::Switch { .. }));
            let has_exit = l
                .blocks
                .iter()
                .any(|b| *b != h && k.blocks[*b].term.successors().iter().any(|s| !l.blocks.contains(s)));
            if has_exit {
                Err("the body leaves the loop early (`break` or `return`)".into())
            } else if has_switch {
                Err("the body contains a `switch` kiln could not flatten".into())
            } else {
                Err("the body has control flow kiln could not flatten into one block".into())
            }
        }
    }
}
