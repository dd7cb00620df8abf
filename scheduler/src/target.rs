//! Target models: default clock and the delay and latency of each operator.
//!
//! Delays are estimates in nanoseconds for an operator of a given width, including typical
//! routing. They decide which operations chain within one clock cycle. The iCE40 numbers are
//! fitted to nextpnr's routed paths of one-operator designs (`bench/boards/measure-delays`,
//! results in `bench/boards/README.md`), the ECP5 numbers to `measure-delays --family ecp5`;
//! the generic numbers are a first model. The
//! bitstream flow reports the real critical path next to the scheduler's estimate.

use kiln_dataflow::delay::OperatorDelays;
use kiln_dataflow::ir::{BinOp, CastOp, CmpOp, Kernel, Op, OpKind, UnOp, Value, ValueDef};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKind {
    Generic,
    Ice40Up5k,
    Ecp5,
}

#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub kind: TargetKind,
    pub name: &'static str,
    pub default_clock_mhz: f64,
    /// The datapath operators' delays (shared with the e-graph phase's cost model).
    #[serde(skip)]
    pub operators: OperatorDelays,
    /// Register overhead of a path: clock-to-out, the first routing hop and setup.
    reg_ns: f64,
    /// What a carry chain's carry out costs on its way into a register, where a split chain
    /// keeps it between segments: on the iCE40 it leaves the chain through a logic cell of its
    /// own (nextpnr's pass-out) and a routing hop to the register.
    carry_exit_ns: f64,
    /// [`Target::carry_exit_ns`] of the segments of a split chain wider than 32 bits.
    wide_carry_exit_ns: f64,
    /// What a select that keeps or replaces a loop-carried value (`best = x <= best ? best :
    /// x`) costs beyond its LUT: synthesis makes the hold the register's clock enable, merged
    /// with the pipeline's own enable (stage, valid, predicate), two LUT levels and their route
    /// into CE. On the ECP5 that was nussinov's critical path at 120 MHz (its k loop's add,
    /// compare and select chained: 7.4 ns estimated, 9.3 routed, 3.2 of it from the compare
    /// to CE).
    hold_enable_ns: f64,
    /// Whether a select that restarts a loop-carried value from a constant
    /// (`resets_a_carried_value`) is the register's synchronous reset or set, beside the data
    /// path: measured on the iCE40 (doitgen's coalesced sum, `SB_DFFESR`, its path the add
    /// alone); the ECP5's flip-flops share their reset within a slice, so there it stays a LUT.
    resets_in_registers: bool,
    /// From a memory operation's operands (address, data, predicate) to the memory: the
    /// request and enable logic shared by the operation's sites, and the block RAM's setup.
    memory_request_ns: f64,
    /// From the clock to a block RAM's read data at the first logic input: the RAM's
    /// clock-to-out (no output register) and its routing hop.
    block_ram_read_ns: f64,
    /// From the clock to a block RAM's read data at the first logic input when the data
    /// passes the block's own output register (a cycle later), where kiln instantiates the
    /// block with that register ([`Target::registers_block_ram_output`]); `None` where it does
    /// not.
    block_ram_output_register_ns: Option<f64>,
    /// Whether an on-chip memory in block RAM may take its writes from registers a cycle after
    /// the store ([`Target::may_register_writes`]).
    write_registers: bool,
    /// The memories of the kernel being scheduled whose writes pass registers
    /// ([`Target::registers_writes`]; chosen by `fsm::schedule_fsm`).
    #[serde(skip)]
    registered_writes: std::collections::BTreeSet<kiln_dataflow::ir::Mem>,
    /// A block RAM's data bits and the word widths it can be configured for (narrowest
    /// first): a memory deeper than one block's configuration for its width is split into
    /// rows of blocks, and its read data passes a multiplexer of the rows.
    block_ram_bits: u32,
    block_ram_widths: &'static [u32],
    /// On-chip memories of more bits than this go to block RAM, smaller ones to logic. A part
    /// with LUT RAM (ECP5) keeps a memory of a few words in it cheaply, but not one of 16 to 32
    /// words: jacobi-1d's two arrays of 30 words in logic took 3,560 LUTs and their read
    /// multiplexers were its critical path (116.1 MHz; in block RAM 1,061 LUTs, 137.9 MHz, 3%
    /// more cycles), so the ECP5 puts memories over 512 bits in its 208 DP16KDs. The iCE40 has
    /// no LUT RAM, so there a memory in logic is a register per bit and a read multiplexer, and
    /// a block RAM (4 kbit, 30 on the UP5K) is the better home for anything bigger than a few
    /// words.
    pub block_ram_min_bits: u64,
}

impl Target {
    pub fn by_name(name: &str) -> Option<Target> {
        Some(match name {
            "generic" => Target {
                kind: TargetKind::Generic,
                name: "generic",
                default_clock_mhz: 100.0,
                operators: OperatorDelays::GENERIC,
                reg_ns: 0.3,
                carry_exit_ns: 0.0,
                wide_carry_exit_ns: 0.0,
                hold_enable_ns: 0.0,
                resets_in_registers: false,
                memory_request_ns: 0.6,
                block_ram_read_ns: 0.3,
                block_ram_output_register_ns: None,
                write_registers: false,
                registered_writes: std::collections::BTreeSet::new(),
                block_ram_bits: 16384,
                block_ram_widths: &[1, 2, 4, 8, 16, 32],
                block_ram_min_bits: 1024,
            },
            "ice40-up5k" | "ice40" => Target {
                kind: TargetKind::Ice40Up5k,
                name: "ice40-up5k",
                default_clock_mhz: 24.0,
                // bench/boards/measure-delays, nextpnr-ice40 0.4, median of 3 seeds.
                operators: OperatorDelays {
                    lut_ns: 3.0,
                    carry_ns_per_bit: 0.35,
                    // nextpnr does not model the SB_MAC16's delay; this is the datasheet's order.
                    dsp_ns: 9.0,
                    carry_invert_ns: 2.6,
                    equality_lut_tree: true,
                    // A chain over 32 bits spans more than four logic tiles: mixed_types' 34-bit
                    // sums routed 17.2-17.7 ns whole where the per-bit fit said 16.0-16.65.
                    wide_chain_ns: 1.0,
                },
                reg_ns: 1.4,
                // A pass-out cell and a hop: durbin's, lookup's and trisolv's split subtractions,
                // 6-7 ns from the chain's end to the carry register routed.
                carry_exit_ns: 3.0,
                // The segments of the 64-bit sums of dot and mixed_types (22 bits each) were
                // 17.0-17.9 ns routed where the model said 13.7: the carry's way out, a pass-out
                // cell (1.6), a hop (2.8) and the register's cell (1.2). Counted for 32-bit
                // chains too, their comparisons and subtractions took a third segment and the
                // designs grew more than they gained (bench/boards/README.md, "Tried and not kept").
                wide_carry_exit_ns: 5.6,
                // Not measured on the iCE40, whose LUT delay carries a long route already.
                hold_enable_ns: 0.0,
                resets_in_registers: true,
                // Two LUT levels (the OR of the sites' enables, the address multiplexer) and
                // the block RAM's enable setup, 3 ns: nextpnr's paths into SB_RAM40_4K.
                memory_request_ns: 9.0,
                // An SB_RAM40_4K's read data at the first LUT input: 1.2 ns clock-to-out and a
                // 3.5 ns hop (nextpnr's critical path of histogram at 60 MHz, 2026-11-25).
                block_ram_read_ns: 4.7,
                block_ram_output_register_ns: None,
                write_registers: true,
                registered_writes: std::collections::BTreeSet::new(),
                // SB_RAM40_4K: 256 x 16, 512 x 8, 1024 x 4, 2048 x 2.
                block_ram_bits: 4096,
                block_ram_widths: &[2, 4, 8, 16],
                block_ram_min_bits: 256,
            },
            "ecp5" => Target {
                kind: TargetKind::Ecp5,
                name: "ecp5",
                default_clock_mhz: 50.0,
                // bench/boards/measure-delays --family ecp5 (YoWASP nextpnr-ecp5 0.11, median
                // of 2 seeds): an AND 1.8 ns, a two-level XOR 3.3 ns, adders 2.8 + 0.037
                // ns/bit, subtract as fast as add, a 16x16 DSP multiply 4.8 ns.
                operators: OperatorDelays {
                    lut_ns: 1.5,
                    carry_ns_per_bit: 0.04,
                    dsp_ns: 4.8,
                    carry_invert_ns: 0.0,
                    equality_lut_tree: false,
                    wide_chain_ns: 0.0,
                },
                reg_ns: 0.3,
                carry_exit_ns: 0.0,
                wide_carry_exit_ns: 0.0,
                hold_enable_ns: 1.5,
                resets_in_registers: false,
                // Two LUT levels of request and enable logic, and the block RAM's setup.
                memory_request_ns: 3.5,
                // A DP16KD without output register: 5.8 ns clock-to-out, then 1.1 ns of
                // routing (nextpnr's critical path of gemm at 120 MHz).
                block_ram_read_ns: 7.0,
                // A DP16KD's output register (REGMODE OUTREG): 0.96 ns clock-to-out, then 1.6 to
                // 2.2 ns out of the block RAM column (nextpnr's paths of durbin and doitgen at
                // 120 MHz; at 2.0 ns doitgen chained a DSP block's operand behind it, whose
                // route from the RAM column and setup took 7 ns more: 102 MHz).
                block_ram_output_register_ns: Some(3.2),
                write_registers: false,
                registered_writes: std::collections::BTreeSet::new(),
                // DP16KD: 16384 x 1 ... 1024 x 18, 512 x 36 (with the parity bits).
                block_ram_bits: 18432,
                block_ram_widths: &[1, 2, 4, 9, 18, 36],
                block_ram_min_bits: 512,
            },
            _ => return None,
        })
    }

    pub fn names() -> &'static [&'static str] {
        &["generic", "ice40-up5k", "ecp5"]
    }

    /// Combinational delay of an operator producing `width` bits (inputs of `in_width` bits).
    pub fn delay_ns(&self, kind: &OpKind, width: u32, in_width: u32) -> f64 {
        if let Some(d) = self.operators.delay_ns(kind, width, in_width) {
            return d;
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
            | OpKind::WordStoreAt(_) => self.memory_request_ns,
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

    /// Products narrower than this many bits are built from LUTs by the target's synthesis
    /// (`synth_ice40 -dsp`'s `DSP_Y_MINWIDTH`; the ECP5 flow puts every multiply of two
    /// variables in its DSP blocks): the dataflow's `lut-multiply` pass makes them partial
    /// products the delay model knows.
    pub fn lut_multiply_below(&self) -> u32 {
        match self.kind {
            TargetKind::Ice40Up5k => 11,
            _ => 0,
        }
    }

    /// Combinational delay of op `op` of `k`: [`Target::delay_ns`] of its kind and widths,
    /// except that a shift by a constant is wiring (as the e-graph's cost model has it), and a
    /// select that holds a loop-carried value also pays for the register's enable
    /// ([`Target::hold_enable_ns`]).
    pub fn op_delay_ns(&self, k: &Kernel, op: Op) -> f64 {
        self.op_delay_with(k, op, false)
    }

    /// [`Target::op_delay_ns`] of an op that may be one of the kernel's
    /// [`Target::carry_out_sums`] (`carry_out`), whose last bit leaves the chain as its carry.
    pub fn op_delay_with(&self, k: &Kernel, op: Op, carry_out: bool) -> f64 {
        let (kind, rw, iw) = op_shape(k, op);
        if is_wiring(k, op) || self.resets_in_registers && resets_a_carried_value(k, op) {
            return 0.0;
        }
        self.delay_ns(kind, rw, iw) + self.hold_enable_of(k, op) + if carry_out { self.carry_exit_ns } else { 0.0 }
    }

    /// [`Target::segments`] of op `op` of `k` (one segment of no delay for wiring).
    pub fn op_segments(&self, k: &Kernel, op: Op, period: f64) -> (u32, f64) {
        self.op_segments_with(k, op, period, false)
    }

    /// [`Target::op_segments`] of an op that may be one of the kernel's
    /// [`Target::carry_out_sums`] (`carry_out`): it stays whole while the chain and its carry's
    /// way out fit the period; split, every segment pays for its carry out already.
    pub fn op_segments_with(&self, k: &Kernel, op: Op, period: f64, carry_out: bool) -> (u32, f64) {
        let (kind, rw, iw) = op_shape(k, op);
        if is_wiring(k, op) || self.resets_in_registers && resets_a_carried_value(k, op) {
            return (1, 0.0);
        }
        let hold = self.hold_enable_of(k, op);
        let exit = if carry_out { self.carry_exit_ns } else { 0.0 };
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
        if self.carry_exit_ns == 0.0 {
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
        if self.hold_enable_ns > 0.0 && holds_a_carried_value(k, op) { self.hold_enable_ns } else { 0.0 }
    }

    /// Cycles of logic an operator needs at clock period `period` (1 = combinational, chains
    /// with its neighbours), and the delay of each cycle's segment. Adders, subtractors and
    /// ordered comparisons split their carry chain; other operators keep their logic in front of output registers that
    /// synthesis retimes (multipliers: the DSP block's pipeline registers).
    pub fn segments(&self, kind: &OpKind, width: u32, in_width: u32, period: f64) -> (u32, f64) {
        let delay = self.delay_ns(kind, width, in_width);
        let budget = (period - self.clock_to_out_ns()).max(self.operators.lut_ns);
        if delay <= budget {
            return (1, delay);
        }
        self.split_chain(kind, width, in_width, period).unwrap_or_else(|| {
            let n = (delay / budget).ceil().max(2.0) as u32;
            (n, delay / n as f64)
        })
    }

    /// Two or more segments of a carry chain (adders, subtractors, ordered comparisons) at
    /// clock period `period`, each entered through a LUT and leaving through its carry out; no
    /// split for other operators.
    fn split_chain(&self, kind: &OpKind, width: u32, in_width: u32, period: f64) -> Option<(u32, f64)> {
        let budget = (period - self.clock_to_out_ns()).max(self.operators.lut_ns);
        // Carry chains split into segments of equal width, each entered through a LUT.
        let chain = match kind {
            OpKind::Binary(BinOp::Add) => Some((width, self.operators.lut_ns)),
            OpKind::Binary(BinOp::Sub) | OpKind::Unary(UnOp::Neg) => {
                Some((width, self.operators.lut_ns + self.operators.carry_invert_ns))
            }
            OpKind::Cmp(c) if !matches!(c, CmpOp::Eq | CmpOp::Ne) => {
                Some((in_width, self.operators.lut_ns + self.operators.carry_invert_ns))
            }
            _ => None,
        };
        let (bits, entry) = chain?;
        // A segment's carry out goes into a register (the next segment's carry in, or a
        // comparison's result).
        let entry = entry + if bits > 32 { self.wide_carry_exit_ns } else { self.carry_exit_ns };
        let mut n = 2;
        while n < bits && entry + self.operators.carry_ns_per_bit * bits.div_ceil(n) as f64 > budget {
            n += 1;
        }
        // Every segment holds at least one bit.
        let n = bits.div_ceil(bits.div_ceil(n));
        Some((n, entry + self.operators.carry_ns_per_bit * bits.div_ceil(n) as f64))
    }

    /// Whether a pipelined loop's reads of on-chip memory `m` take their address from a
    /// register loaded the cycle before, with the read sites' address multiplexer in front of
    /// that register instead of in front of the block RAMs: on the iCE40 and the ECP5, where the
    /// multiplexer and the route to every block of the memory did not fit one cycle (seidel-2d's
    /// nine reads of `A`, sixteen 2048 x 2 blocks: five LUT levels and a 4.7 ns route, 50 MHz on
    /// the iCE40; on the ECP5 at 120 MHz covariance 112.0 -> 119.95, fdtd-2d 118.1 -> 124.4). Such a
    /// read's address must be ready a cycle before the read, [`Target::memory_request_ns`]
    /// before that cycle ends (`pipeline::modulo::place`), which can lengthen the loop by a
    /// cycle, so a loop that reads the memory at one site (no multiplexer) keeps its reads as
    /// they were (`sites`: the loop's reads of `m`).
    pub fn registers_read_address(&self, m: &kiln_dataflow::ir::MemData, sites: usize) -> bool {
        self.kind != TargetKind::Generic && m.in_block_ram(self.block_ram_min_bits) && sites >= 2
    }

    /// Whether a split multiply's partial products are registered in the DSP blocks' own output
    /// registers, the blocks instantiated (rtl-gen's `dsp` module), rather than in fabric
    /// registers after them: on the ECP5, where Yosys packs no register into a MULT18X18D and
    /// the routes from the operand registers into the block and from the block out to the
    /// fabric register (2.4 + 2.5 ns beside the block's 3.9) were the critical path of durbin,
    /// doitgen, seidel-2d and covariance at 120 MHz (durbin 107.6 -> 127.8 MHz). Where the
    /// partial products are registered changes no cycle.
    pub fn registers_products_in_dsp(&self) -> bool {
        self.kind == TargetKind::Ecp5
    }

    /// Whether an on-chip memory's read data register is cleared by a synchronous reset when
    /// the load that reads is predicated off, instead of the load's data passing a LUT that
    /// zeroes it (a predicated-off load yields 0): on the ECP5, whose DP16KD has 5.8 ns from
    /// clock to read data and a reset on its output latch, so that the LUT and its route after
    /// the block were the critical path of doitgen, seidel-2d, fdtd-2d and floyd-warshall at
    /// 120 MHz. The iCE40's SB_RAM40_4K has no such reset. It changes no cycle.
    pub fn clears_read_data(&self) -> bool {
        self.kind == TargetKind::Ecp5
    }

    /// Whether designs for this target must fit a part's logic and DSP blocks (the iCE40 UP5K,
    /// the ECP5-85F); the generic target stands for no part, so a smaller datapath never
    /// outweighs a cycle there.
    pub fn has_a_part_to_fit(&self) -> bool {
        self.kind != TargetKind::Generic
    }

    /// Whether a predicated load whose data only a pipeline register reads is zeroed by that
    /// register's synchronous reset (reset over enable, which the ECP5's flip-flops have)
    /// instead of by a LUT in front of it: on the ECP5 the LUT and its route after a board
    /// memory's 5.8 ns clock-to-data were matmul's critical path at 120 MHz. The iCE40's
    /// SB_DFFESR gates its reset with the enable, so the form would cost a LUT there. It
    /// changes no cycle.
    pub fn zeroes_read_data_in_registers(&self) -> bool {
        self.kind == TargetKind::Ecp5
    }

    /// Whether the `induction-address` pass also keeps inner loops' first addresses in
    /// parameters of the loops around them: on the ECP5, where a first address computed in the
    /// state before an inner loop put a DSP multiply (`30 * (i - 1)`) in front of its address
    /// register (fdtd-2d 119.8 -> 135.3 MHz); not on the iCE40, where the outer registers'
    /// enables cost more than the arithmetic they take off (see the pass).
    pub fn keeps_first_addresses_in_outer_loops(&self) -> bool {
        self.kind == TargetKind::Ecp5
    }

    /// From a memory operation's operands to the memory (or to its address register).
    pub fn memory_request_ns(&self) -> f64 {
        self.memory_request_ns
    }

    /// Delay from a register or unit output to the first logic input.
    pub fn clock_to_out_ns(&self) -> f64 {
        self.reg_ns
    }

    /// Delay from the clock to the read data of on-chip memory `m` (block RAM or registers,
    /// by `MemData::in_block_ram`).
    /// A memory in several rows of block RAMs adds the multiplexer of the rows' read data, a
    /// LUT level per four rows (atax's 2048-word array on the iCE40 when it took eight rows:
    /// two levels between the RAMs and a multiplier).
    pub fn memory_read_ns(&self, m: &kiln_dataflow::ir::MemData) -> f64 {
        if !m.in_block_ram(self.block_ram_min_bits) {
            return self.reg_ns;
        }
        let rows = self.block_ram_rows(m.elem_width, m.len.unwrap_or(1));
        let levels = (f64::from(rows.max(1)).log2() / 2.0).ceil();
        self.block_ram_read_ns + levels * self.operators.lut_ns
    }

    /// Cycles from a read of on-chip memory `m` to its data, and when in the last of them the
    /// data reach the first logic input, for a design clocked with period `period_ns`: a cycle
    /// and [`Target::memory_read_ns`], or two where the read data pass the block RAMs' output
    /// register ([`Target::registers_block_ram_output`]).
    pub fn memory_read_timing(&self, m: &kiln_dataflow::ir::MemData, period_ns: f64) -> (u32, f64) {
        match self.block_ram_output_register_ns {
            Some(ns) if self.registers_block_ram_output(m, period_ns) => (2, ns),
            _ => (1, self.memory_read_ns(m)),
        }
    }

    /// This target with every block RAM read as one cycle ([`Target::memory_read_timing`]).
    pub fn without_block_ram_output_registers(mut self) -> Target {
        self.block_ram_output_register_ns = None;
        self
    }

    /// Whether the reads of on-chip memory `m` take their data from the block RAMs' output
    /// register, a cycle after the read, in a design clocked with period `period_ns`. On the
    /// ECP5 a DP16KD without it gives its data 5.8 ns after the clock, and nextpnr places the
    /// register that takes them far from the block in a large design: heat-3d's and doitgen's
    /// critical paths at 120 MHz (5.8 ns and a 2.9-3.6 ns route, 106.6 and 115.0 MHz). Yosys
    /// maps no register into the block, so rtl-gen instantiates the DP16KDs (`bram` module).
    /// Worth its cycle only where the read data would leave less than two LUT levels of the
    /// period; for memories one row of blocks holds (in the configurations up to 18 bits wide
    /// of [`Target::output_register_blocks`]), without initial contents (a ROM's would need
    /// the blocks' init strings) and without atomics.
    pub fn registers_block_ram_output(&self, m: &kiln_dataflow::ir::MemData, period_ns: f64) -> bool {
        self.block_ram_output_register_ns.is_some()
            && m.in_block_ram(self.block_ram_min_bits)
            && m.init.is_none()
            && !m.atomic
            && self.output_register_blocks(m.elem_width, m.len.unwrap_or(0)).is_some()
            && self.block_ram_read_ns + 2.0 * self.operators.lut_ns > period_ns
    }

    /// Whether the writes of on-chip memory `m` may reach its block RAMs from registers
    /// (enable, address, data) loaded as the store fires, so that the write happens a cycle
    /// after the store, in a design clocked with period `period_ns`. On the iCE40 the write
    /// port's logic (the OR of the sites' commits, FSM states and pipeline phases, and their
    /// address and data multiplexers) was mapped into up to four LUT levels in front of the
    /// SB_RAM40_4Ks' `WCLKE`, each a long hop: doitgen's critical path at 60 MHz, 18.5 ns
    /// routed (53-57 MHz; with the registers 60-64). [`Target::memory_request_ns`] counts two
    /// levels; where three more would not fit the period (above about 51 MHz), the writes may
    /// be registered. A read then sees a store's element two cycles after the store instead of
    /// one (the schedulers' store-to-load distance), and the state or pipeline that stores
    /// lasts a cycle longer when it stores in its last one. Not for memories with atomics,
    /// whose updates of one element would wait a cycle more for each other.
    pub fn may_register_writes(&self, m: &kiln_dataflow::ir::MemData, period_ns: f64) -> bool {
        self.write_registers
            && m.in_block_ram(self.block_ram_min_bits)
            && !m.atomic
            && self.reg_ns + self.memory_request_ns + 3.0 * self.operators.lut_ns > period_ns
    }

    /// Whether memory `m`'s writes pass registers in the kernel being scheduled
    /// ([`Target::may_register_writes`], [`Target::with_registered_writes`]).
    pub fn registers_writes(&self, m: kiln_dataflow::ir::Mem) -> bool {
        self.registered_writes.contains(&m)
    }

    /// This target with the writes of `mems` registered ([`Target::may_register_writes`]).
    pub fn with_registered_writes(mut self, mems: std::collections::BTreeSet<kiln_dataflow::ir::Mem>) -> Target {
        self.registered_writes = mems;
        self
    }

    /// The configuration width of the blocks a memory of `len` words of `width` bits is built
    /// from when rtl-gen instantiates them with their output register, and how many blocks
    /// side by side hold a word: the widest true dual-port configuration (up to 18 bits; the
    /// 36-bit one is another primitive) deep enough for every word. `None` when none is.
    pub fn output_register_blocks(&self, width: u32, len: u32) -> Option<(u32, u32)> {
        let config = self
            .block_ram_widths
            .iter()
            .copied()
            .filter(|c| *c <= 18)
            .rev()
            .find(|c| self.block_ram_depth(*c) >= len.max(1))?;
        Some((config, width.div_ceil(config)))
    }

    /// Rows of block RAMs a memory of `len` words of `width` bits takes: one when some
    /// configuration holds all its words (see [`Target::block_ram_slice_width`]), otherwise
    /// each block configured for the narrowest width that holds a word (the widest when none
    /// does, the word then spread over blocks side by side).
    fn block_ram_rows(&self, width: u32, len: u32) -> u32 {
        if self.block_ram_slice_width(width, len).is_some() {
            return 1;
        }
        self.rows_in_word_wide_blocks(width, len)
    }

    fn rows_in_word_wide_blocks(&self, width: u32, len: u32) -> u32 {
        let widest = self.block_ram_widths.last().copied().unwrap_or(1);
        let config = self.block_ram_widths.iter().copied().find(|w| *w >= width).unwrap_or(widest);
        len.div_ceil(self.block_ram_depth(config))
    }

    /// Words of `config_width` bits one block RAM holds (a power of two: an ECP5 DP16KD's
    /// 18 kbit hold 16384 x 1, 2048 x 9).
    fn block_ram_depth(&self, config_width: u32) -> u32 {
        let words = (self.block_ram_bits / config_width.max(1)).max(1);
        1 << words.ilog2()
    }

    /// The bits per slice when a block RAM memory of `len` words of `width` bits is to be
    /// built as slices of its word side by side, each slice one block (or a few) deep enough
    /// for every word: the widest configuration that holds `len` words, where word-wide blocks
    /// would need several rows. A memory in rows needs the row decode of the write address in
    /// front of every block's write enable and a multiplexer of the rows behind its read data,
    /// two to four LUT levels that were the critical paths of seidel-2d and fdtd-2d on the
    /// iCE40 (1600 x 32 bits: seven rows of 256 x 16, or sixteen 2048 x 2 slices, 47.3 -> 53.7
    /// MHz by hand). The slices take at most 1.6 times the blocks of the rows (the depth is
    /// rounded up to a power of two), the same for depths of one block and powers of two.
    /// `None` when one row of word-wide blocks holds the memory, or when no configuration is
    /// deep enough.
    pub fn block_ram_slice_width(&self, width: u32, len: u32) -> Option<u32> {
        if self.rows_in_word_wide_blocks(width, len) <= 1 {
            return None;
        }
        let config = self.block_ram_widths.iter().copied().rev().find(|c| self.block_ram_depth(*c) >= len)?;
        (config < width).then_some(config)
    }

    /// Delay from the start of a step to a port response in the datapath: the response
    /// buffer's empty test and multiplexer, then the load's predicate mask (three LUT levels),
    /// and no earlier than a block RAM's read data through the mask: on a board every port is
    /// answered from block RAM (on the ECP5 a DP16KD's 5.8 ns clock-to-out; histogram's
    /// `pixels[i] >> 4` into a register-file read, once the shift was wiring: 73.6 MHz).
    pub fn port_response_ns(&self) -> f64 {
        let buffered = self.reg_ns + 3.0 * self.operators.lut_ns;
        buffered.max(self.block_ram_read_ns + self.operators.lut_ns)
    }

    /// The hardware multiplier blocks of the part, when they are few enough that a design may
    /// run out of them (the UP5K's eight 16 x 16 `SB_MAC16`s); rtl-gen then shares multipliers
    /// between operations that never run at once.
    pub fn multiplier_blocks(&self) -> Option<u32> {
        match self.kind {
            TargetKind::Ice40Up5k => Some(8),
            TargetKind::Generic | TargetKind::Ecp5 => None,
        }
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

    /// The widest multi-cycle multiply that rtl-gen splits into registered 16-bit partial
    /// products. A 64-bit one sums up to ten partial products in the next cycle: on the ECP5
    /// that made gemm's magic-number multiply 64.2 -> 96.8 MHz routed, on the iCE40 (slow
    /// 64-bit carry chains) jacobi-1d's 41.8 -> 29.8 MHz, so there it stops at 32 bits.
    pub fn split_multiply_max_width(&self) -> u32 {
        match self.kind {
            TargetKind::Ice40Up5k => 32,
            TargetKind::Generic | TargetKind::Ecp5 => 64,
        }
    }

    /// From a division's operands to the shared divider's registers at its start: the
    /// multiplexer of the division sites and the divisor's inversion, priced with an equality
    /// tree's depth besides. The divide-by-zero flag is no longer tested there (rtl-gen makes
    /// it from the registered divisor a cycle later); the price stays as a margin for the
    /// route from the sites to the divider's registers, which fan out over its width (4-5 ns
    /// routes on durbin's iCE40 critical path). (The absolute values of signed operands are
    /// taken in the next cycle.)
    pub fn divider_start_ns(&self, width: u32) -> f64 {
        self.operators.lut_ns + self.delay_ns(&OpKind::Cmp(CmpOp::Eq), 1, width)
    }

    /// Steps from the start of a division to its result: the operands are loaded at the start
    /// edge, a signed division takes their absolute values in the next cycle, one quotient bit
    /// is computed per cycle, and one more cycle applies the signs into the result register.
    /// The negations get cycles of their own because each is a carry chain as long as the
    /// operands, which on the iCE40 does not fit beside the multiplexers around it.
    pub fn divider_latency(&self, width: u32, signed: bool) -> u32 {
        width + 2 + u32::from(signed)
    }

    /// Cycles the shared sequential divider spends on a quotient bit at clock period `period`:
    /// one, or two when its step does not fit — from the remainder register through the
    /// carry-select subtraction (a chain of half the width), the chain's exit, the selection of
    /// the high half and the register's multiplexer (19-23 ns routed on the iCE40, durbin and
    /// trisolv at 60 MHz). With two, the sums are registered between the chains and the
    /// selection.
    pub fn divider_step_cycles(&self, width: u32, period: f64) -> u32 {
        let step =
            self.clock_to_out_ns() + self.operators.carry_chain_ns(width.div_ceil(2) + 1) + 3.0 * self.operators.lut_ns;
        if step <= period { 1 } else { 2 }
    }

    /// Steps from the start of a division on the shared sequential divider to its result.
    /// One cycle per quotient bit: [`Target::divider_latency`]. Two: the quotient bits take
    /// `2·width` cycles, and a signed division takes two cycles more at each end, where the
    /// dividend's and the result's negations are registered halves (a negation's carry chain
    /// and the multiplexers behind it do not fit one cycle either).
    pub fn sequential_divider_latency(&self, width: u32, signed: bool, step_cycles: u32) -> u32 {
        match (step_cycles, signed) {
            (1, _) => self.divider_latency(width, signed),
            (_, true) => 2 * width + 5,
            (_, false) => 2 * width + 2,
        }
    }
}

/// An op's kind, result width and (first) operand width.
fn op_shape(k: &Kernel, op: Op) -> (&OpKind, u32, u32) {
    let o = &k.ops[op];
    let rw = o.result.map(|r| k.width(r)).unwrap_or(1);
    let iw = o.args.first().map(|a| k.width(*a)).unwrap_or(rw);
    (&o.kind, rw, iw)
}

/// Whether op `op` is only wiring in hardware: a shift by a constant count.
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

fn is_wiring(k: &Kernel, op: Op) -> bool {
    let o = &k.ops[op];
    matches!(o.kind, OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr))
        && o.args.get(1).is_some_and(|c| k.as_const(*c).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ram_rows_follow_the_configurations() {
        let ice40 = Target::by_name("ice40-up5k").map(|t| t.block_ram_rows(32, 4096));
        assert_eq!(ice40, Some(16), "4096 x 32 in 256 x 16 blocks: 16 rows of 2");
        let t = Target::by_name("ice40-up5k").map(|t| (t.block_ram_rows(16, 256), t.block_ram_rows(8, 1024)));
        assert_eq!(t, Some((1, 1)), "1024 x 8 in two slices of 1024 x 4");
        let ecp5 = Target::by_name("ecp5").map(|t| (t.block_ram_rows(32, 1024), t.block_ram_rows(9, 2048)));
        assert_eq!(ecp5, Some((1, 1)), "1024 x 32 in two slices of 1024 x 18; 2048 x 9");
        let ecp5 = Target::by_name("ecp5").map(|t| t.block_ram_rows(36, 32768));
        assert_eq!(ecp5, Some(64), "deeper than any configuration: 512 x 36 blocks");
    }

    #[test]
    fn memories_deeper_than_a_block_row_are_sliced_into_deep_configurations() {
        let ice40 = Target::by_name("ice40-up5k").expect("target");
        assert_eq!(ice40.block_ram_slice_width(32, 1600), Some(2), "sixteen 2048 x 2 blocks");
        assert_eq!(ice40.block_ram_slice_width(32, 600), Some(4), "eight 1024 x 4 blocks");
        assert_eq!(ice40.block_ram_slice_width(32, 256), None, "one row of two 256 x 16 blocks");
        assert_eq!(ice40.block_ram_slice_width(16, 300), Some(8));
        assert_eq!(ice40.block_ram_slice_width(32, 4096), None, "no configuration holds 4096 words");
        let ecp5 = Target::by_name("ecp5").expect("target");
        assert_eq!(ecp5.block_ram_slice_width(32, 1600), Some(9), "four 2048 x 9 blocks");
        assert_eq!(ecp5.block_ram_slice_width(32, 512), None, "one 512 x 36 block");
        assert_eq!(ecp5.block_ram_depth(1), 16384);
    }

    #[test]
    fn a_shift_by_a_constant_is_wiring() {
        let span = kiln_frontend::Span::default();
        let mut k = Kernel::new("t".into(), span);
        let b = k.entry;
        let x = k.add_param(b, 32, None);
        let four = k.push_value(b, OpKind::Const(4), vec![], 32, span);
        let by_constant = k.push_op(b, OpKind::Binary(BinOp::Shl), vec![x, four], Some(32), span);
        let by_variable = k.push_op(b, OpKind::Binary(BinOp::Shl), vec![x, x], Some(32), span);
        for name in Target::names() {
            let Some(t) = Target::by_name(name) else { continue };
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
        let span = kiln_frontend::Span::default();
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
        let ice40 = Target::by_name("ice40-up5k").expect("target");
        let sums = ice40.carry_out_sums(&k);
        assert_eq!(sums.iter().copied().collect::<Vec<_>>(), vec![carry_out]);
        let whole = ice40.op_delay_ns(&k, carry_out);
        assert_eq!(ice40.op_delay_with(&k, carry_out, true), whole + ice40.carry_exit_ns);
        assert_eq!(ice40.op_segments_with(&k, carry_out, period, true).0, 2);
        assert_eq!(ice40.op_segments_with(&k, plain, period, false).0, 1);
        let ecp5 = Target::by_name("ecp5").expect("target");
        assert!(ecp5.carry_out_sums(&k).is_empty());
    }

    #[test]
    fn a_chain_over_32_bits_splits_at_60_mhz_on_the_ice40() {
        let ice40 = Target::by_name("ice40-up5k").expect("target");
        let add = OpKind::Binary(BinOp::Add);
        let period = 1000.0 / 60.0;
        assert_eq!(ice40.segments(&add, 32, 32, period).0, 1, "a 32-bit sum fits a cycle");
        let (n, segment) = ice40.segments(&add, 34, 34, period);
        assert_eq!(n, 2, "mixed_types' 34-bit sums routed 17.2-17.7 ns whole");
        assert!(segment < period - ice40.clock_to_out_ns());
        let ecp5 = Target::by_name("ecp5").expect("target");
        assert_eq!(ecp5.delay_ns(&add, 34, 34), ecp5.operators.carry_chain_ns(34));
        let over = ecp5.operators.carry_chain_ns(34) - ecp5.operators.carry_chain_ns(32);
        assert!((over - 2.0 * ecp5.operators.carry_ns_per_bit).abs() < 1e-9, "no extra for wide chains");
    }

    #[test]
    fn a_port_response_is_no_earlier_than_block_ram_read_data() {
        for name in Target::names() {
            let Some(t) = Target::by_name(name) else { continue };
            assert!(t.port_response_ns() >= t.block_ram_read_ns + t.operators.lut_ns, "{name}");
        }
        // The iCE40's figure is the response buffer's three LUT levels, as it was measured.
        let ice40 = Target::by_name("ice40-up5k").map(|t| t.port_response_ns());
        assert_eq!(ice40, Some(1.4 + 3.0 * 3.0));
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
