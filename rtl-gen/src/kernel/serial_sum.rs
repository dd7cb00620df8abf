//! Serial sums: in a pipelined loop, a tree of adds whose leaves are all products of shared
//! multipliers (`sharing.rs`) is built as one accumulator register per multiplier, which adds
//! each product the cycle after the multiplier gives it, instead of a register per product and
//! an adder per node of the tree. A shared multiplier gives one product per cycle at most, so
//! its products of one iteration come one after another: the sum of them needs one adder.
//!
//! The root keeps its cycle and is one add at most, as the tree's was, so the schedule, and the
//! simulator, do not change: wrapping addition is associative and commutative, so the sum is the
//! tree's value bit for bit. doitgen on the iCE40 at 60 MHz sums 12 products of two multipliers
//! per iteration at II 12: 12 product registers and an 11-add tree became two accumulators.
//!
//! Each accumulator is cleared the cycle before the iteration's first add, a phase of the
//! initiation interval in which it adds nothing, so that each add reads two registers (a
//! cleared operand in front of the carry chain would be a LUT level). The root reads
//! ([`Read`]) the accumulator when it is done before the root's cycle and the next iteration
//! clears it no earlier; a register that takes it the cycle after its last add when the next
//! iteration starts before the root reads; or, for a single multiplier whose last product is
//! added in the root's own cycle, the accumulator plus that product. Any other tree stays a tree.

use super::*;
use kiln_dataflow::ir::BinOp as IrBin;
use kiln_scheduler::pipeline::ExitSource;
use std::collections::{BTreeSet, HashSet};

/// One tree summed serially.
pub(super) struct SerialSum {
    pipeline: u32,
    root: Op,
    /// The root's value.
    sum: Value,
    /// The tree's other adds.
    adds: Vec<Op>,
    parts: Vec<Part>,
}

/// One multiplier's share of a serial sum.
#[derive(Clone)]
struct Part {
    multiplier: usize,
    /// Its products in the order it gives them: (multiply, end cycle).
    products: Vec<(Op, u32)>,
    read: Read,
}

/// What a serial sum's root reads of a part.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// The accumulator, after its last add.
    Accumulator,
    /// A register that takes the sum the cycle after the last add: the accumulator's next
    /// window starts before the root reads.
    Captured,
    /// The accumulator plus the last product: the root is the last add (a chain of adds, each
    /// taking the next product the cycle after it comes, as in a loop summed in order).
    PlusLastProduct,
}

/// The most accumulators a root adds: two keep the root one add, as the tree's was.
const MAX_PARTS: usize = 2;
/// Fewer products than this gain nothing over a tree (a tree of two is one add).
const MIN_PRODUCTS: usize = 3;

impl Gen<'_> {
    /// Finds the serial sums of every pipeline and marks the operations they replace.
    pub(super) fn find_serial_sums(&mut self) {
        if self.shared_multiplier_of.is_empty() {
            return;
        }
        let uses = self.use_counts();
        let mut sums = Vec::new();
        for pi in 0..self.s.pipelines.len() as u32 {
            let adds: Vec<Op> = self.pp(pi).ops.iter().copied().filter(|op| self.tree_add(pi, *op)).collect();
            for &root in &adds {
                // A root is an add that is not a node of a bigger tree.
                if adds.iter().any(|parent| self.tree_leaves(pi, *parent, &uses).1.contains(&root)) {
                    continue;
                }
                if let Some(sum) = self.serial_sum(pi, root, &uses) {
                    sums.push(sum);
                }
            }
        }
        for sum in &sums {
            self.folded.extend(sum.parts.iter().flat_map(|part| part.products.iter().map(|(op, _)| *op)));
            self.folded.extend(sum.adds.iter().copied());
        }
        self.serial_sums = sums;
    }

    /// Whether `op` is a single-cycle add of pipeline `pi` that a tree may hold.
    fn tree_add(&self, pi: u32, op: Op) -> bool {
        let o = &self.k.ops[op];
        matches!(o.kind, OpKind::Binary(IrBin::Add))
            && self.s.pipeline_of[o.block] == Some(pi)
            && self.s.class(op) == OpClass::Comb
            && self.skewed_accumulator_of(op).is_none()
    }

    /// How many times each value is read: by operations, terminators, and pipelines' parameters
    /// and exits.
    fn use_counts(&self) -> HashMap<Value, u32> {
        let k = self.k;
        let mut n: HashMap<Value, u32> = HashMap::new();
        let reads = k
            .ops
            .values()
            .flat_map(|o| o.args.iter().copied())
            .chain(k.blocks.values().flat_map(|b| b.term.uses()))
            .chain(self.s.pipelines.iter().flat_map(|p| {
                p.params
                    .iter()
                    .map(|q| q.arg)
                    .chain(p.exits.iter().flat_map(|(v, src)| {
                        let (ExitSource::Invariant(x) | ExitSource::ParamReg(x) | ExitSource::Capture(x)) = *src;
                        [*v, x]
                    }))
                    .collect::<Vec<_>>()
            }));
        for v in reads {
            *n.entry(v).or_insert(0) += 1;
        }
        n
    }

    /// The operands of the tree under `root` (values that are not a once-read add of the
    /// tree), and the tree's adds below the root.
    fn tree_leaves(&self, pi: u32, root: Op, uses: &HashMap<Value, u32>) -> (Vec<Value>, Vec<Op>) {
        let (mut leaves, mut internal) = (Vec::new(), Vec::new());
        let mut todo: Vec<Value> = self.k.ops[root].args.clone();
        let width = self.result_width(root);
        while let Some(v) = todo.pop() {
            match self.k.def_op(v) {
                Some(op) if self.tree_add(pi, op) && uses.get(&v) == Some(&1) && self.k.width(v) == width => {
                    internal.push(op);
                    todo.extend(self.k.ops[op].args.iter().copied());
                }
                _ => leaves.push(v),
            }
        }
        (leaves, internal)
    }

    /// The serial sum rooted at `root`, when its leaves are all once-read products of shared
    /// multipliers and each multiplier's window fits (see the module's documentation).
    fn serial_sum(&self, pi: u32, root: Op, uses: &HashMap<Value, u32>) -> Option<SerialSum> {
        let k = self.k;
        let (leaves, adds) = self.tree_leaves(pi, root, uses);
        if leaves.len() < MIN_PRODUCTS {
            return None;
        }
        let width = self.result_width(root);
        let mut by_multiplier: Vec<(usize, Vec<(Op, u32)>)> = Vec::new();
        for v in leaves {
            let op = k.def_op(v)?;
            let u = *self.shared_multiplier_of.get(&op)?;
            if uses.get(&v) != Some(&1) || k.width(v) != width || self.s.pipeline_of[k.ops[op].block] != Some(pi) {
                return None;
            }
            let end = self.s.time[op].end;
            match by_multiplier.iter_mut().find(|(x, _)| *x == u) {
                Some((_, products)) => products.push((op, end)),
                None => by_multiplier.push((u, vec![(op, end)])),
            }
        }
        if by_multiplier.len() > MAX_PARTS {
            return None;
        }
        by_multiplier.sort_by_key(|(u, _)| *u);
        let (ii, at, alone) = (self.pp(pi).ii, self.s.time[root].end, by_multiplier.len() == 1);
        let mut parts = Vec::new();
        for (multiplier, mut products) in by_multiplier {
            products.sort_by_key(|(op, end)| (*end, *op));
            let phases: HashSet<u32> = products.iter().map(|(_, end)| end % ii).collect();
            // The adds, a cycle after each product; the accumulator is cleared the cycle
            // before the first, a phase of the interval where it adds nothing (the last
            // product's, when the root adds it).
            let (first, last) = (products[0].1 + 1, products[products.len() - 1].1 + 1);
            if phases.len() != products.len() {
                return None;
            }
            let read = if alone && at == last && last - first < ii {
                Read::PlusLastProduct
            } else if last - first + 2 > ii {
                return None;
            } else if last < at && at < first + ii {
                Read::Accumulator
            } else if last + 1 < at && at <= last + 1 + ii {
                Read::Captured
            } else {
                return None;
            };
            parts.push(Part { multiplier, products, read });
        }
        Some(SerialSum { pipeline: pi, root, sum: k.ops[root].result?, adds, parts })
    }

    /// Whether `op` is an add of a serial sum (its root included), which reads no operand.
    pub(super) fn reads_nothing(&self, op: Op) -> bool {
        self.serial_sums.iter().any(|s| s.root == op || s.adds.contains(&op))
    }

    /// The value of a serial sum's root: the sum of its accumulators (or of their captures).
    pub(super) fn serial_sum_value(&self, root: Op) -> Option<Expr> {
        let (n, sum) = self.serial_sums.iter().enumerate().find(|(_, s)| s.root == root)?;
        sum.parts
            .iter()
            .map(|part| {
                let u = part.multiplier;
                match part.read {
                    Read::Accumulator => id(self.part_name(n, u, "acc")),
                    Read::Captured => id(self.part_name(n, u, "sum")),
                    Read::PlusLastProduct => {
                        bin(BinOp::Add, id(self.part_name(n, u, "acc")), id(self.part_name(n, u, "product")))
                    }
                }
            })
            .reduce(|a, b| bin(BinOp::Add, a, b))
    }

    fn part_name(&self, n: usize, u: usize, what: &str) -> String {
        format!("p{}_sum{n}_mul{u}_{what}", self.serial_sums[n].pipeline)
    }

    /// The registers of pipeline `pi`'s serial sums: each multiplier's product, taken as the
    /// pipeline advances; its accumulator, cleared the cycle before the iteration's first
    /// product is added, so that the add reads two registers as the tree's adds did (a cleared
    /// operand in front of the carry chain was a LUT level and 3 ns more on the iCE40); and,
    /// where the root reads late, the sum taken the cycle after the last add.
    pub(super) fn serial_sum_registers(&mut self, pi: u32) {
        let sums: Vec<usize> = (0..self.serial_sums.len()).filter(|n| self.serial_sums[*n].pipeline == pi).collect();
        let ii = self.pp(pi).ii;
        for n in sums {
            let (root, sum) = (self.serial_sums[n].root, self.serial_sums[n].sum);
            let width = self.result_width(root);
            for part in self.serial_sums[n].parts.clone() {
                let u = part.multiplier;
                let (product, acc) = (self.part_name(n, u, "product"), self.part_name(n, u, "acc"));
                self.m.add(Item::Comment(format!(
                    "Serial sum: {} products of multiplier {u}, summed into `{}`.",
                    part.products.len(),
                    self.wire_name(sum)
                )));
                self.m.add(Item::Reg { name: product.clone(), width });
                self.m.add(Item::Reg { name: acc.clone(), width });
                let mul = slice_w(&id(format!("mul{u}_product")), self.shared_multipliers[u].width, width - 1, 0);
                self.m.add(Item::Always(vec![Stmt::If(self.go(pi), vec![set(&product, mul)], vec![])]));
                let (first, last) = (part.products[0].1 + 1, part.products[part.products.len() - 1].1 + 1);
                // The clear takes precedence, so where the adds take most of the interval the
                // enable is the NOR of the phases that neither add nor clear (doitgen's 10 of
                // 12: two LUT levels less into the enables). The NOR also holds outside the
                // pipeline's state, where the accumulator then adds junk: harmless, since every
                // iteration clears it before its first add.
                let added = match part.read {
                    Read::PlusLastProduct => &part.products[..part.products.len() - 1],
                    _ => &part.products[..],
                };
                let phases: BTreeSet<u32> = added.iter().map(|(_, end)| (end + 1) % ii).collect();
                let others: Vec<u32> = (0..ii).filter(|p| !phases.contains(p) && *p != (first + ii - 1) % ii).collect();
                let adds = if others.len() < phases.len() {
                    un(UnOp::Not, any(others.into_iter().map(|p| self.phase_is(pi, p)).collect()))
                } else {
                    any(phases.into_iter().map(|p| self.phase_is(pi, p)).collect())
                };
                let (clear, capture) = (self.at_phase(pi, first + ii - 1), self.at_phase(pi, last + 1));
                self.m.add(Item::Always(vec![Stmt::If(
                    clear,
                    vec![set(&acc, lit(width, 0))],
                    vec![Stmt::If(
                        self.advances_at(pi, adds),
                        vec![set(&acc, bin(BinOp::Add, id(&acc), id(&product)))],
                        vec![],
                    )],
                )]));
                if part.read == Read::Captured {
                    let captured = self.part_name(n, u, "sum");
                    self.m.add(Item::Reg { name: captured.clone(), width });
                    self.m.add(Item::Always(vec![Stmt::If(capture, vec![set(captured, id(&acc))], vec![])]));
                }
            }
        }
    }

    /// Pipeline `pi` advances in relative cycle `cycle`'s phase.
    fn at_phase(&self, pi: u32, cycle: u32) -> Expr {
        self.advances_at(pi, self.phase_is(pi, cycle % self.pp(pi).ii))
    }
}
