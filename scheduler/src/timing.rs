//! A device's timing as the scheduler uses it for one kernel: the device model
//! ([`kiln_device::Device`]) read in terms of the kernel's operations, and the choices the
//! scheduler makes for the kernel on top of it (which memories' writes pass registers, whether
//! block RAM reads take the blocks' output registers).
//!
//! The device's numbers are fitted to nextpnr's routed paths (`bench/boards/measure-delays`);
//! the bitstream flow reports the real critical path next to the scheduler's estimate.

use kiln_dataflow::delay::operator_of;
use kiln_dataflow::ir::{BinOp, CastOp, Kernel, Mem, MemData, Op, OpKind, Value, ValueDef};
use kiln_device::{Device, Operator};
use std::collections::BTreeSet;

/// A device as one kernel's schedule uses it.
#[derive(Clone, Debug)]
pub struct Timing {
    pub device: &'static Device,
    /// The memories whose writes pass registers ([`Timing::registers_writes`]; chosen by
    /// `fsm::schedule_fsm`).
    registered_writes: BTreeSet<Mem>,
    /// Whether block RAM reads may take the blocks' output registers
    /// ([`Timing::registers_block_ram_output`]; `fsm` schedules without them where they cost
    /// more than they pay).
    block_ram_output_registers: bool,
}

impl std::ops::Deref for Timing {
    type Target = Device;
    fn deref(&self) -> &Device {
        self.device
    }
}

impl Timing {
    /// The device with no choices made yet: no registered writes, block RAM output registers
    /// where the device has them.
    pub fn new(device: &'static Device) -> Timing {
        Timing { device, registered_writes: BTreeSet::new(), block_ram_output_registers: true }
    }

    /// Combinational delay of an operator producing `width` bits (inputs of `in_width` bits).
    pub fn delay_ns(&self, kind: &OpKind, width: u32, in_width: u32) -> f64 {
        if let Some(op) = operator_of(kind) {
            return self.operators.delay_ns(op, width, in_width);
        }
        let lut = self.operators.lut_ns;
        let levels = |n: u32| (n.max(2) as f64).log2().ceil();
        match kind {
            // kiln does not build float operators yet (the driver stops before scheduling
            // them); the estimate is a binary32 adder's: alignment shift, 24-bit add, normalize.
            OpKind::Float(_) | OpKind::FConv(_) => 2.0 * lut * levels(24) + self.operators.carry_chain_ns(24),
            OpKind::FCmp(_) => self.operators.carry_chain_ns(32),
            // Address decode and write-enable logic in front of the memory or port.
            OpKind::Load(_)
            | OpKind::Store(_)
            | OpKind::WordLoad(_)
            | OpKind::WordStore { .. }
            | OpKind::WordStoreAt(_) => self.memory_request_ns(),
            // A lane is a slice of the response word (a wire); a lane chosen at run time a
            // multiplexer.
            OpKind::WordLane { .. } => 0.0,
            OpKind::WordLaneAt(_) => lut * levels(16),
            // The handshake with the FIFO; a lane is a slice of the FIFO's head (a wire).
            OpKind::PipeRead { .. } | OpKind::PipeWrite { .. } => lut,
            OpKind::PipeLane { .. } | OpKind::PipeQuery { .. } => 0.0,
            _ => lut,
        }
    }

    /// Combinational delay of op `op` of `k`: [`Timing::delay_ns`] of its kind and widths,
    /// except that a shift by a constant is wiring (as the e-graph's cost model has it), and a
    /// select that holds a loop-carried value also pays for the register's enable
    /// ([`Timing::hold_enable_ns`]).
    pub fn op_delay_ns(&self, k: &Kernel, op: Op) -> f64 {
        self.op_delay_with(k, op, false)
    }

    /// [`Timing::op_delay_ns`] of an op that may be one of the kernel's
    /// [`Timing::carry_out_sums`] (`carry_out`), whose last bit leaves the chain as its carry.
    pub fn op_delay_with(&self, k: &Kernel, op: Op, carry_out: bool) -> f64 {
        let (kind, rw, iw) = op_shape(k, op);
        if is_wiring(k, op) || self.registers.resets_in_registers && resets_a_carried_value(k, op) {
            return 0.0;
        }
        self.delay_ns(kind, rw, iw)
            + self.hold_enable_of(k, op)
            + if carry_out { self.registers.carry_exit_ns } else { 0.0 }
    }

    /// [`Timing::segments`] of op `op` of `k` (one segment of no delay for wiring).
    pub fn op_segments(&self, k: &Kernel, op: Op, period: f64) -> (u32, f64) {
        self.op_segments_with(k, op, period, false)
    }

    /// [`Timing::op_segments`] of an op that may be one of the kernel's
    /// [`Timing::carry_out_sums`] (`carry_out`): it stays whole while the chain and its carry's
    /// way out fit the period; split, every segment pays for its carry out already.
    pub fn op_segments_with(&self, k: &Kernel, op: Op, period: f64, carry_out: bool) -> (u32, f64) {
        let (kind, rw, iw) = op_shape(k, op);
        if is_wiring(k, op) || self.registers.resets_in_registers && resets_a_carried_value(k, op) {
            return (1, 0.0);
        }
        let hold = self.hold_enable_of(k, op);
        let exit = if carry_out { self.registers.carry_exit_ns } else { 0.0 };
        let (n, segment) = match self.segments(kind, rw, iw, period - hold - exit) {
            (1, whole) => (1, whole + exit),
            split if !carry_out => split,
            split => self.split_chain(kind, rw, iw, period - hold).unwrap_or(split),
        };
        (n, segment + hold)
    }

    /// The adds of `k` whose sum's top bit is the carry out of their chain: the top bits of
    /// both operands are known zero (the range analysis, in the add's block), so synthesis
    /// computes no sum bit there and the carry leaves the chain through a pass-out logic cell
    /// and a routing hop into the register (`carry_exit_ns`; none on targets without one).
    /// Such sums are what narrowing makes (`x + y` one bit wider than its operands), and on the
    /// iCE40 at 60 MHz the 32- and 33-bit ones of covariance and mixed_types were their
    /// critical paths in every placement, 19.2-19.7 ns routed where the model said 15.7.
    pub fn carry_out_sums(&self, k: &Kernel) -> std::collections::BTreeSet<Op> {
        if self.registers.carry_exit_ns == 0.0 {
            return Default::default();
        }
        let ranges = kiln_dataflow::ranges::ValueRanges::compute(k);
        let top_zero = |b, v: Value| {
            let w = k.width(v);
            let f = ranges.facts_in(k, b, v);
            f.hi >> (w - 1) & 1 == 0 || f.zeros >> (w - 1) & 1 == 1
        };
        k.rpo()
            .into_iter()
            .flat_map(|b| k.blocks[b].ops.iter().map(move |op| (b, *op)))
            .filter(|(b, op)| {
                let o = &k.ops[*op];
                matches!(o.kind, OpKind::Binary(BinOp::Add))
                    && o.result.is_some_and(|r| k.width(r) >= 2)
                    && o.args.iter().all(|a| top_zero(*b, *a))
            })
            .map(|(_, op)| op)
            .collect()
    }

    fn hold_enable_of(&self, k: &Kernel, op: Op) -> f64 {
        if self.registers.hold_enable_ns > 0.0 && holds_a_carried_value(k, op) {
            self.registers.hold_enable_ns
        } else {
            0.0
        }
    }

    /// [`Device::segments`] of an operation of kind `kind`, with [`Timing::delay_ns`] for the
    /// operators the device's datapath model does not cover.
    pub fn segments(&self, kind: &OpKind, width: u32, in_width: u32, period: f64) -> (u32, f64) {
        let op = operator_of(kind).unwrap_or(Operator::Wire);
        self.device.segments_of(self.delay_ns(kind, width, in_width), op, width, in_width, period)
    }

    fn split_chain(&self, kind: &OpKind, width: u32, in_width: u32, period: f64) -> Option<(u32, f64)> {
        self.device.split_chain(operator_of(kind)?, width, in_width, period)
    }

    /// Whether a pipelined loop's reads of on-chip memory `m` take their address from a
    /// register loaded the cycle before, with the read sites' address multiplexer in front of
    /// that register instead of in front of the block RAMs (where the device registers read
    /// addresses: the multiplexer and the route to every block of the memory did not fit one
    /// cycle). Such a read's address must be ready a cycle before the read,
    /// [`Device::memory_request_ns`] before that cycle ends (`pipeline::modulo::place`), which
    /// can lengthen the loop by a cycle, so a loop that reads the memory at one site (no
    /// multiplexer) keeps its reads as they were (`sites`: the loop's reads of `m`).
    pub fn registers_read_address(&self, m: &MemData, sites: usize) -> bool {
        self.memory.registers_read_addresses && m.in_block_ram(self.memory.block_ram_min_bits) && sites >= 2
    }

    /// Delay from the clock to the read data of on-chip memory `m` (block RAM or registers,
    /// by `MemData::in_block_ram`).
    pub fn memory_read_ns(&self, m: &MemData) -> f64 {
        if !m.in_block_ram(self.memory.block_ram_min_bits) {
            return self.clock_to_out_ns();
        }
        self.device.block_ram_read_ns(m.elem_width, m.len.unwrap_or(1))
    }

    /// Cycles from a read of on-chip memory `m` to its data, and when in the last of them the
    /// data reach the first logic input, for a design clocked with period `period_ns`: a cycle
    /// and [`Timing::memory_read_ns`], or two where the read data pass the block RAMs' output
    /// register ([`Timing::registers_block_ram_output`]).
    pub fn memory_read_timing(&self, m: &MemData, period_ns: f64) -> (u32, f64) {
        match self.memory.block_ram_output_register_ns {
            Some(ns) if self.registers_block_ram_output(m, period_ns) => (2, ns),
            _ => (1, self.memory_read_ns(m)),
        }
    }

    /// This kernel's timing with every block RAM read as one cycle
    /// ([`Timing::memory_read_timing`]).
    pub fn without_block_ram_output_registers(mut self) -> Timing {
        self.block_ram_output_registers = false;
        self
    }

    /// Whether the reads of on-chip memory `m` take their data from the block RAMs' output
    /// register, a cycle after the read, in a design clocked with period `period_ns`
    /// ([`Device::output_register_pays_at`]). Yosys maps no register into the block, so
    /// rtl-gen instantiates the blocks (`bram` module); for memories one row of blocks holds
    /// (in the configurations of [`Device::output_register_blocks`]), without initial
    /// contents (a ROM's would need the blocks' init strings) and without atomics.
    pub fn registers_block_ram_output(&self, m: &MemData, period_ns: f64) -> bool {
        self.block_ram_output_registers
            && self.device.output_register_pays_at(period_ns)
            && m.in_block_ram(self.memory.block_ram_min_bits)
            && m.init.is_none()
            && !m.atomic
            && self.output_register_blocks(m.elem_width, m.len.unwrap_or(0)).is_some()
    }

    /// Whether the writes of on-chip memory `m` may reach its block RAMs from registers
    /// (enable, address, data) loaded as the store fires, so that the write happens a cycle
    /// after the store, in a design clocked with period `period_ns`
    /// ([`Device::may_register_writes_at`]: on the iCE40 the write port's logic was up to four
    /// LUT levels in front of the blocks' write enables). A read then sees a store's element
    /// two cycles after the store instead of one (the schedulers' store-to-load distance), and
    /// the state or pipeline that stores lasts a cycle longer when it stores in its last one.
    /// Not for memories with atomics, whose updates of one element would wait a cycle more for
    /// each other.
    pub fn may_register_writes(&self, m: &MemData, period_ns: f64) -> bool {
        self.device.may_register_writes_at(period_ns) && m.in_block_ram(self.memory.block_ram_min_bits) && !m.atomic
    }

    /// Whether memory `m`'s writes pass registers in this kernel ([`Timing::may_register_writes`],
    /// [`Timing::with_registered_writes`]).
    pub fn registers_writes(&self, m: Mem) -> bool {
        self.registered_writes.contains(&m)
    }

    /// This kernel's timing with the writes of `mems` registered ([`Timing::may_register_writes`]).
    pub fn with_registered_writes(mut self, mems: BTreeSet<Mem>) -> Timing {
        self.registered_writes = mems;
        self
    }

    /// Whether `op`, when it takes several cycles, is a multiply that rtl-gen splits into
    /// registered 16 x 16 partial products (`split_multiply`), the multiplies it can share.
    pub fn splits_multiply(&self, k: &Kernel, op: Op) -> bool {
        let (kind, w, iw) = op_shape(k, op);
        matches!(kind, OpKind::Binary(BinOp::Mul)) && (17..=self.split_multiply_max_width()).contains(&w) && iw == w
    }

    /// The multiplier blocks a multiply takes unshared: one per 16 x 16 partial product that
    /// reaches the result's bits with a product of 11 bits or more (Yosys builds narrower ones
    /// from LUTs) and, for a multiply by a constant, a non-zero chunk of the constant (Yosys
    /// folds the others away). Narrow multiplies by a constant are shifts and adds.
    pub fn multiplier_blocks_of(&self, k: &Kernel, op: Op) -> u32 {
        let o = &k.ops[op];
        // The constant and which operand it is (its chunks are `i` for the first, `j` for the second).
        let constant = o.args.iter().enumerate().find_map(|(n, a)| k.as_const(*a).map(|c| (n, c)));
        if !matches!(o.kind, OpKind::Binary(BinOp::Mul)) || (constant.is_some() && !self.splits_multiply(k, op)) {
            return 0;
        }
        // A split multiply's partial products are of the full-width operands, whatever they hold.
        if let Some((a, b)) = sign_extended_operands(k, op)
            && !self.splits_multiply(k, op)
        {
            return a.div_ceil(16) * b.div_ceil(16);
        }
        let w = op_shape(k, op).1;
        partial_products(w)
            .filter(|p| {
                let folded = constant.is_some_and(|(n, c)| (c >> (16 * if n == 0 { p.i } else { p.j })) & 0xffff == 0);
                p.width >= 11 && p.a_bits >= 2 && p.b_bits >= 2 && !folded
            })
            .count() as u32
    }

    /// When kernel `k`'s multiplies need more multiplier blocks than the part has: how many
    /// split multiplies (three blocks each) may start in one cycle of a pipeline, so that every
    /// pipeline's multiplies fit on shared multipliers. `None` when they fit unshared.
    pub fn multipliers_per_cycle(&self, k: &Kernel) -> Option<u32> {
        let blocks = self.multiplier_blocks()?;
        let needed: u32 =
            k.blocks.values().flat_map(|b| b.ops.iter()).map(|op| self.multiplier_blocks_of(k, *op)).sum();
        (needed > blocks).then_some((blocks / 3).max(1))
    }
}

/// An op's kind, result width and (first) operand width.
fn op_shape(k: &Kernel, op: Op) -> (&OpKind, u32, u32) {
    let o = &k.ops[op];
    let rw = o.result.map(|r| k.width(r)).unwrap_or(1);
    let iw = o.args.first().map(|a| k.width(*a)).unwrap_or(rw);
    (&o.kind, rw, iw)
}

/// Whether `op` is a select between a block parameter and another value whose result is
/// passed back to that parameter (`p' = c ? p : x` on an edge into `p`'s block): the register
/// of `p` keeps its value or takes `x`, which synthesis builds as the register's enable.
fn holds_a_carried_value(k: &Kernel, op: Op) -> bool {
    let o = &k.ops[op];
    let (OpKind::Select, Some(result)) = (&o.kind, o.result) else { return false };
    o.args.iter().skip(1).any(|&p| {
        let ValueDef::Param(block, index) = k.values[p].def else { return false };
        k.blocks
            .values()
            .any(|b| b.term.targets().iter().any(|t| t.block == block && t.args.get(index as usize) == Some(&result)))
    })
}

/// Whether `op` is a select between a constant and another value whose result only goes to a
/// loop header's parameter (`p' = c ? x : 0` on an edge into the loop's header, a reduction that
/// starts again): synthesis builds it as the register's synchronous reset or set
/// (`SB_DFFESR`/`SB_DFFESS` on the iCE40), beside the data path rather than on it.
fn resets_a_carried_value(k: &Kernel, op: Op) -> bool {
    let o = &k.ops[op];
    let (OpKind::Select, Some(result)) = (&o.kind, o.result) else { return false };
    let constant_arm = o.args.iter().skip(1).any(|a| k.as_const(*a).is_some());
    let used_by_an_op = k.ops.values().any(|u| u.args.contains(&result));
    let header = |b: kiln_dataflow::ir::Block| k.loops.iter().any(|l| l.header == b);
    let carried =
        k.blocks.values().any(|b| b.term.targets().iter().any(|t| header(t.block) && t.args.contains(&result)));
    constant_arm && !used_by_an_op && carried
}

/// Whether op `op` is only wiring in hardware: a shift by a constant count, or an OR of
/// operands with no possible one bit in common.
fn is_wiring(k: &Kernel, op: Op) -> bool {
    let o = &k.ops[op];
    match o.kind {
        OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr) => {
            o.args.get(1).is_some_and(|c| k.as_const(*c).is_some())
        }
        // Fields put side by side (`hi << n | lo`): no bit of the result has two sources.
        OpKind::Binary(BinOp::Or) => {
            o.args.len() == 2 && possible_bits(k, o.args[0], 6) & possible_bits(k, o.args[1], 6) == 0
        }
        _ => false,
    }
}

/// The bits of `v` that can be one, from the ops that define it (all of them past `depth`
/// definitions, or beyond 64 bits).
fn possible_bits(k: &Kernel, v: Value, depth: u32) -> u64 {
    let w = k.width(v);
    if w > 64 {
        return u64::MAX;
    }
    let all = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let Some(o) = k.def_op(v).map(|d| &k.ops[d]) else { return all };
    if depth == 0 {
        return all;
    }
    let arg = |i: usize| possible_bits(k, o.args[i], depth - 1);
    let konst = |i: usize| o.args.get(i).and_then(|a| k.as_const(*a));
    let bits = match o.kind {
        OpKind::Const(c) => c,
        OpKind::Cast(kiln_dataflow::ir::CastOp::Zext | kiln_dataflow::ir::CastOp::Trunc) => arg(0),
        OpKind::Binary(BinOp::Shl) => match konst(1) {
            Some(n) if n < 64 => arg(0) << n,
            _ => all,
        },
        OpKind::Binary(BinOp::LShr) => match konst(1) {
            Some(n) if n < 64 => arg(0) >> n,
            _ => all,
        },
        OpKind::Binary(BinOp::And) => arg(0) & arg(1),
        OpKind::Binary(BinOp::Or) => arg(0) | arg(1),
        _ => all,
    };
    bits & all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(name: &str) -> &'static Device {
        Device::by_name(name).expect("device")
    }

    #[test]
    fn a_shift_by_a_constant_is_wiring() {
        let span = kiln_diagnostics::Span::default();
        let mut k = Kernel::new("t".into(), span);
        let b = k.entry;
        let x = k.add_param(b, 32, None);
        let four = k.push_value(b, OpKind::Const(4), vec![], 32, span);
        let by_constant = k.push_op(b, OpKind::Binary(BinOp::Shl), vec![x, four], Some(32), span);
        let by_variable = k.push_op(b, OpKind::Binary(BinOp::Shl), vec![x, x], Some(32), span);
        for name in Device::names() {
            let t = Timing::new(device(name));
            assert_eq!(t.op_delay_ns(&k, by_constant), 0.0, "{name}");
            assert_eq!(t.op_segments(&k, by_constant, 1.0), (1, 0.0), "{name}");
            assert!(t.op_delay_ns(&k, by_variable) > 0.0, "{name}: a variable shift is a barrel shifter");
        }
    }

    /// A sum whose operands are zero at the top (`(x >> 1) + (y >> 1)`) ends in its chain's
    /// carry out, which on the iCE40 pays for its way out of the chain: 32 bits no longer fit
    /// 60 MHz and split in two, where a sum with an operand unknown at the top stays whole. The
    /// ECP5's chain has no such cost.
    #[test]
    fn a_sum_ending_in_its_carry_out_pays_for_the_way_out() {
        let span = kiln_diagnostics::Span::default();
        let mut k = Kernel::new("t".into(), span);
        let b = k.entry;
        let (x, y) = (k.add_param(b, 32, None), k.add_param(b, 32, None));
        let one = k.push_value(b, OpKind::Const(1), vec![], 32, span);
        let hx = k.push_value(b, OpKind::Binary(BinOp::LShr), vec![x, one], 32, span);
        let hy = k.push_value(b, OpKind::Binary(BinOp::LShr), vec![y, one], 32, span);
        let carry_out = k.push_op(b, OpKind::Binary(BinOp::Add), vec![hx, hy], Some(32), span);
        let plain = k.push_op(b, OpKind::Binary(BinOp::Add), vec![hx, y], Some(32), span);
        k.blocks[b].term = kiln_dataflow::ir::Terminator::Return;
        let period = 1000.0 / 60.0;
        let ice40 = Timing::new(device("ice40-up5k"));
        let sums = ice40.carry_out_sums(&k);
        assert_eq!(sums.iter().copied().collect::<Vec<_>>(), vec![carry_out]);
        let whole = ice40.op_delay_ns(&k, carry_out);
        assert_eq!(ice40.op_delay_with(&k, carry_out, true), whole + ice40.registers.carry_exit_ns);
        assert_eq!(ice40.op_segments_with(&k, carry_out, period, true).0, 2);
        assert_eq!(ice40.op_segments_with(&k, plain, period, false).0, 1);
        let ecp5 = Timing::new(device("ecp5"));
        assert!(ecp5.carry_out_sums(&k).is_empty());
    }
}

/// One 16 x 16 partial product of a `w`-bit multiply split into 16-bit chunks: chunk `i` of
/// the first operand times chunk `j` of the second, at bit `shift` of the result.
#[derive(Clone, Copy, Debug)]
pub struct PartialProduct {
    pub i: u32,
    pub j: u32,
    pub shift: u32,
    /// The product's bits that reach the result (at most 32).
    pub width: u32,
    /// The operand chunks' bits that reach those.
    pub a_bits: u32,
    pub b_bits: u32,
}

/// The widths `multiply`'s operands are sign-extended from, when both are (`(long)a * b`).
/// rtl-gen writes such a multiply as signed, which synthesis builds from the narrow operands'
/// 16-bit pieces (four DSP blocks for two 32-bit ones where the 64-bit operands took ten).
pub fn sign_extended_operands(k: &Kernel, multiply: Op) -> Option<(u32, u32)> {
    let o = &k.ops[multiply];
    if !matches!(o.kind, OpKind::Binary(BinOp::Mul)) {
        return None;
    }
    let from = |v: Value| match k.def_op(v).map(|d| &k.ops[d]) {
        Some(d) if d.kind == OpKind::Cast(CastOp::Sext) => Some(k.width(d.args[0])),
        _ => None,
    };
    let [a, b] = o.args.as_slice() else { return None };
    Some((from(*a)?, from(*b)?))
}

/// The partial products of a `w`-bit multiply that reach the result's bits (`16(i + j) < w`),
/// the ones rtl-gen's `split_multiply` builds and the DSP estimate counts.
pub fn partial_products(w: u32) -> impl Iterator<Item = PartialProduct> {
    let chunks = w.div_ceil(16);
    (0..chunks).flat_map(move |i| (0..chunks).map(move |j| (i, j))).filter(move |(i, j)| 16 * (i + j) < w).map(
        move |(i, j)| {
            let shift = 16 * (i + j);
            let width = (w - shift).min(32);
            PartialProduct {
                i,
                j,
                shift,
                width,
                a_bits: (w - 16 * i).min(16).min(width),
                b_bits: (w - 16 * j).min(16).min(width),
            }
        },
    )
}
