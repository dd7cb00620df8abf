//! The device model: the data of `devices/*.toml` and what follows from it.

use crate::Operator;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The model files, compiled in: adding a device is adding a file (and a line here).
const SOURCES: &[&str] = &[
    include_str!("../devices/generic.toml"),
    include_str!("../devices/ice40-up5k.toml"),
    include_str!("../devices/ecp5.toml"),
];

/// Every model, parsed once. The files are compiled in, not user input: the unit test
/// `every_model_parses_and_has_its_area_table` parses each, so none can fail here.
#[allow(clippy::expect_used)]
pub(crate) fn all() -> &'static [Device] {
    static DEVICES: OnceLock<Vec<Device>> = OnceLock::new();
    DEVICES.get_or_init(|| {
        let parsed: Vec<Device> =
            SOURCES.iter().map(|s| toml::from_str(s).expect("a compiled-in device model parses")).collect();
        let table_of = |name: &str| parsed.iter().find(|d| d.name == name).map(|d| d.area.rows.clone());
        parsed
            .iter()
            .map(|d| {
                let mut d = d.clone();
                if let Some(rows) = d.area_table.as_deref().and_then(table_of) {
                    d.area.rows = rows;
                }
                d
            })
            .collect()
    })
}

/// One device kiln builds for.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// The name `--target` takes and the Verilog header shows.
    pub name: String,
    pub description: String,
    /// Other names `--target` accepts.
    #[serde(default)]
    pub aliases: Vec<String>,
    pub default_clock_mhz: f64,
    /// The part designs must fit; `None` for a device that stands for no part.
    #[serde(default)]
    pub part: Option<Part>,
    pub operators: OperatorDelays,
    pub registers: RegisterTiming,
    pub memory: MemoryModel,
    pub multipliers: MultiplierModel,
    pub passes: PassChoices,
    /// Another device whose operator areas this one uses.
    #[serde(default, skip_serializing)]
    area_table: Option<String>,
    #[serde(default, skip_serializing)]
    area: AreaTable,
}

/// What a part holds.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub logic_cells: u32,
    pub flip_flops: u32,
    pub multiplier_blocks: u32,
    pub block_ram_blocks: u32,
}

/// The delay parameters of the datapath operators.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorDelays {
    /// One LUT level with its local routing.
    pub lut_ns: f64,
    /// Carry-chain delay per bit.
    pub carry_ns_per_bit: f64,
    /// A 16 × 16 multiply in a DSP block.
    pub dsp_ns: f64,
    /// What an inverted carry operand adds (subtract, ordered compare, negate): a LUT level
    /// where the carry cell cannot invert an input; nothing where it can.
    pub carry_invert_ns: f64,
    /// Whether equality is a tree of LUTs rather than a carry chain.
    pub equality_lut_tree: bool,
    /// What a carry chain of more than 32 bits takes beyond its per-bit delay: the hops between
    /// the logic tiles a long chain crosses, which the per-bit fit of shorter chains misses.
    pub wide_chain_ns: f64,
}

/// Registers and what synthesis builds into them.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterTiming {
    /// A path's register overhead: clock-to-out, the first routing hop and setup.
    pub clock_to_out_ns: f64,
    /// What a carry chain's carry out costs on its way into a register, where a split chain
    /// keeps it between segments.
    pub carry_exit_ns: f64,
    /// [`RegisterTiming::carry_exit_ns`] of the segments of a split chain wider than 32 bits.
    pub wide_carry_exit_ns: f64,
    /// What a select that keeps or replaces a loop-carried value costs beyond its LUT, where
    /// synthesis makes the hold the register's clock enable.
    pub hold_enable_ns: f64,
    /// Whether a select that restarts a loop-carried value from a constant is the register's
    /// synchronous reset or set, beside the data path.
    pub resets_in_registers: bool,
    /// Whether a predicated load whose data only a pipeline register reads is zeroed by that
    /// register's synchronous reset instead of by a LUT in front of it (reset over enable).
    pub zeroes_read_data_in_registers: bool,
}

/// On-chip memory.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryModel {
    /// From a memory operation's operands to the memory: the request and enable logic shared
    /// by the operation's sites, and the block RAM's setup.
    pub request_ns: f64,
    /// From the clock to a block RAM's read data at the first logic input (no output register).
    pub block_ram_read_ns: f64,
    /// The same through the block's own output register (a cycle later), where kiln
    /// instantiates the blocks with it; absent where it does not.
    #[serde(default)]
    pub block_ram_output_register_ns: Option<f64>,
    /// Whether a block RAM's writes may come from registers a cycle after the store.
    pub write_registers: bool,
    /// Whether a pipeline's reads of a block RAM at two sites or more take their address from
    /// a register loaded a cycle ahead, with the sites' multiplexer in front of it.
    pub registers_read_addresses: bool,
    /// Whether a block RAM's read data has a synchronous reset, so a predicated-off load's 0
    /// needs no LUT after the block.
    pub clears_read_data: bool,
    /// Whether a small memory in logic is LUT RAM (otherwise registers).
    pub lut_ram: bool,
    /// A block RAM's data bits and the word widths it can be configured for, narrowest first.
    pub block_ram_bits: u32,
    pub block_ram_widths: Vec<u32>,
    /// On-chip memories of more bits than this go to block RAM, smaller ones to logic.
    pub block_ram_min_bits: u64,
}

/// Multipliers.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MultiplierModel {
    /// Products narrower than this are built from LUTs by synthesis (0: none is).
    pub lut_multiply_below: u32,
    /// The widest multi-cycle multiply split into registered 16-bit partial products.
    pub split_max_width: u32,
    /// Whether a split multiply's partial products are registered in the DSP blocks' own
    /// output registers, the blocks instantiated.
    pub products_in_dsp_registers: bool,
    /// The multiplier blocks, when they are few enough that a design may run out of them:
    /// multiplies that never run at once then share them.
    #[serde(default)]
    pub scarce_blocks: Option<u32>,
}

/// Device-specific choices of the dataflow passes.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PassChoices {
    /// Whether `induction-address` also keeps inner loops' first addresses in parameters of
    /// the loops around them.
    pub first_addresses_in_outer_loops: bool,
}

/// Measured operator areas.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaTable {
    rows: Vec<AreaRow>,
}

/// One measurement: an operator alone at one width, synthesized by Yosys.
#[derive(Clone, Debug, Deserialize)]
pub struct AreaRow(pub String, pub u32, pub u32, pub u32);

impl AreaRow {
    /// The operator's name (`add`, `mul`, `ult`, ...).
    pub fn operator(&self) -> &str {
        &self.0
    }
    pub fn width(&self) -> u32 {
        self.1
    }
    /// Logic cells (LUT4s on the ECP5, a carry cell counting two).
    pub fn cells(&self) -> u32 {
        self.2
    }
    /// DSP blocks.
    pub fn dsps(&self) -> u32 {
        self.3
    }
}

impl OperatorDelays {
    /// Combinational delay of a datapath operator producing `width` bits from operands of
    /// `in_width` bits.
    pub fn delay_ns(&self, op: Operator, width: u32, in_width: u32) -> f64 {
        let lut = self.lut_ns;
        let carry = |w: u32| self.carry_chain_ns(w);
        let levels = |n: u32| (n.max(2) as f64).log2().ceil();
        match op {
            Operator::Wire => 0.0,
            Operator::Logic | Operator::Select => lut,
            Operator::Neg | Operator::Sub => carry(width) + self.carry_invert_ns,
            Operator::Add => carry(width),
            Operator::Shift => lut * levels(width),
            Operator::Mul => self.dsp_ns * width.div_ceil(16) as f64 + carry(width),
            Operator::DivStep => carry(width) + lut,
            // Pairs of bits compared in the first level, then an AND tree of 4-input LUTs.
            Operator::Equal if self.equality_lut_tree => lut * (1.0 + (in_width.max(2) as f64).log(4.0).ceil()),
            Operator::Equal | Operator::Compare => carry(in_width) + self.carry_invert_ns,
        }
    }

    /// A carry chain of `width` bits entered through a LUT (an adder).
    pub fn carry_chain_ns(&self, width: u32) -> f64 {
        let wide = if width > 32 { self.wide_chain_ns } else { 0.0 };
        self.lut_ns + self.carry_ns_per_bit * width as f64 + wide
    }
}

impl Device {
    /// The model `--target` names (by its name or an alias).
    pub fn by_name(name: &str) -> Option<&'static Device> {
        all().iter().find(|d| d.name == name || d.aliases.iter().any(|a| a == name))
    }

    /// The generic model, the default `--target`.
    #[allow(clippy::expect_used)]
    pub fn generic() -> &'static Device {
        Device::by_name("generic").expect("the generic model is compiled in")
    }

    /// The names of every model.
    pub fn names() -> Vec<&'static str> {
        all().iter().map(|d| d.name.as_str()).collect()
    }

    /// Whether designs must fit a part's logic and DSP blocks; a device that stands for no part
    /// never trades a cycle for a smaller datapath.
    pub fn has_a_part_to_fit(&self) -> bool {
        self.part.is_some()
    }

    /// The measured operator areas.
    pub fn area_rows(&self) -> &[AreaRow] {
        &self.area.rows
    }

    /// Delay from a register or unit output to the first logic input.
    pub fn clock_to_out_ns(&self) -> f64 {
        self.registers.clock_to_out_ns
    }

    /// From a memory operation's operands to the memory (or to its address register).
    pub fn memory_request_ns(&self) -> f64 {
        self.memory.request_ns
    }

    /// Cycles of logic an operator needs at clock period `period` (1 = combinational, chains
    /// with its neighbours), and the delay of each cycle's segment. Adders, subtractors and
    /// ordered comparisons split their carry chain; other operators keep their logic in front
    /// of output registers that synthesis retimes (multipliers: the DSP block's pipeline
    /// registers).
    pub fn segments(&self, op: Operator, width: u32, in_width: u32, period: f64) -> (u32, f64) {
        self.segments_of(self.operators.delay_ns(op, width, in_width), op, width, in_width, period)
    }

    /// [`Device::segments`] of an operator whose whole delay is `delay` (the scheduler's, for
    /// operators the datapath model does not cover).
    pub fn segments_of(&self, delay: f64, op: Operator, width: u32, in_width: u32, period: f64) -> (u32, f64) {
        let budget = (period - self.clock_to_out_ns()).max(self.operators.lut_ns);
        if delay <= budget {
            return (1, delay);
        }
        self.split_chain(op, width, in_width, period).unwrap_or_else(|| {
            let n = (delay / budget).ceil().max(2.0) as u32;
            (n, delay / n as f64)
        })
    }

    /// Two or more segments of a carry chain (adders, subtractors, ordered comparisons) at
    /// clock period `period`, each entered through a LUT and leaving through its carry out;
    /// `None` for other operators.
    pub fn split_chain(&self, op: Operator, width: u32, in_width: u32, period: f64) -> Option<(u32, f64)> {
        let budget = (period - self.clock_to_out_ns()).max(self.operators.lut_ns);
        let lut = self.operators.lut_ns;
        let (bits, entry) = match op {
            Operator::Add => (width, lut),
            Operator::Sub | Operator::Neg => (width, lut + self.operators.carry_invert_ns),
            Operator::Compare => (in_width, lut + self.operators.carry_invert_ns),
            _ => return None,
        };
        // A segment's carry out goes into a register (the next segment's carry in, or a
        // comparison's result).
        let exit = if bits > 32 { self.registers.wide_carry_exit_ns } else { self.registers.carry_exit_ns };
        let entry = entry + exit;
        let mut n = 2;
        while n < bits && entry + self.operators.carry_ns_per_bit * bits.div_ceil(n) as f64 > budget {
            n += 1;
        }
        // Every segment holds at least one bit.
        let n = bits.div_ceil(bits.div_ceil(n));
        Some((n, entry + self.operators.carry_ns_per_bit * bits.div_ceil(n) as f64))
    }

    /// Whether an on-chip memory of `bits` bits is built in block RAM (otherwise in logic).
    pub fn in_block_ram(&self, bits: u64) -> bool {
        bits > self.memory.block_ram_min_bits
    }

    /// Delay from the clock to the read data of a block RAM memory of `len` words of `width`
    /// bits: a memory in several rows of blocks adds the multiplexer of the rows' read data, a
    /// LUT level per four rows (atax's 2048-word array on the iCE40 when it took eight rows:
    /// two levels between the RAMs and a multiplier).
    pub fn block_ram_read_ns(&self, width: u32, len: u32) -> f64 {
        let rows = self.block_ram_rows(width, len);
        let levels = (f64::from(rows.max(1)).log2() / 2.0).ceil();
        self.memory.block_ram_read_ns + levels * self.operators.lut_ns
    }

    /// Whether a block RAM read's data, through the blocks' output register a cycle later, is
    /// worth that cycle at period `period_ns`: where the read data would otherwise leave less
    /// than two LUT levels of the period. Always false where the device has no such register.
    pub fn output_register_pays_at(&self, period_ns: f64) -> bool {
        self.memory.block_ram_output_register_ns.is_some()
            && self.memory.block_ram_read_ns + 2.0 * self.operators.lut_ns > period_ns
    }

    /// Whether a block RAM's writes may pass registers at period `period_ns`: where the write
    /// port's logic, three LUT levels beyond the request's two, would not fit the period.
    pub fn may_register_writes_at(&self, period_ns: f64) -> bool {
        self.memory.write_registers
            && self.registers.clock_to_out_ns + self.memory.request_ns + 3.0 * self.operators.lut_ns > period_ns
    }

    /// The configuration width of the blocks a memory of `len` words of `width` bits is built
    /// from when rtl-gen instantiates them with their output register, and how many blocks
    /// side by side hold a word: the widest true dual-port configuration (up to 18 bits; the
    /// 36-bit one is another primitive) deep enough for every word. `None` when none is.
    pub fn output_register_blocks(&self, width: u32, len: u32) -> Option<(u32, u32)> {
        let config = self
            .memory
            .block_ram_widths
            .iter()
            .copied()
            .filter(|c| *c <= 18)
            .rev()
            .find(|c| self.block_ram_depth(*c) >= len.max(1))?;
        Some((config, width.div_ceil(config)))
    }

    /// Rows of block RAMs a memory of `len` words of `width` bits takes: one when some
    /// configuration holds all its words (see [`Device::block_ram_slice_width`]), otherwise
    /// each block configured for the narrowest width that holds a word (the widest when none
    /// does, the word then spread over blocks side by side).
    pub fn block_ram_rows(&self, width: u32, len: u32) -> u32 {
        if self.block_ram_slice_width(width, len).is_some() {
            return 1;
        }
        self.rows_in_word_wide_blocks(width, len)
    }

    fn rows_in_word_wide_blocks(&self, width: u32, len: u32) -> u32 {
        let widths = &self.memory.block_ram_widths;
        let widest = widths.last().copied().unwrap_or(1);
        let config = widths.iter().copied().find(|w| *w >= width).unwrap_or(widest);
        len.div_ceil(self.block_ram_depth(config))
    }

    /// Words of `config_width` bits one block RAM holds (a power of two: an ECP5 DP16KD's
    /// 18 kbit hold 16384 x 1, 2048 x 9).
    pub fn block_ram_depth(&self, config_width: u32) -> u32 {
        let words = (self.memory.block_ram_bits / config_width.max(1)).max(1);
        1 << words.ilog2()
    }

    /// The bits per slice when a block RAM memory of `len` words of `width` bits is to be
    /// built as slices of its word side by side, each slice one block (or a few) deep enough
    /// for every word: the widest configuration that holds `len` words, where word-wide blocks
    /// would need several rows. A memory in rows needs the row decode of the write address in
    /// front of every block's write enable and a multiplexer of the rows behind its read data,
    /// two to four LUT levels that were the critical paths of seidel-2d and fdtd-2d on the
    /// iCE40 (1600 x 32 bits: seven rows of 256 x 16, or sixteen 2048 x 2 slices, 47.3 -> 53.7
    /// MHz by hand). `None` when one row of word-wide blocks holds the memory, or when no
    /// configuration is deep enough.
    pub fn block_ram_slice_width(&self, width: u32, len: u32) -> Option<u32> {
        if self.rows_in_word_wide_blocks(width, len) <= 1 {
            return None;
        }
        let config = self.memory.block_ram_widths.iter().copied().rev().find(|c| self.block_ram_depth(*c) >= len)?;
        (config < width).then_some(config)
    }

    /// Delay from the start of a step to a port response in the datapath: the response
    /// buffer's empty test and multiplexer, then the load's predicate mask (three LUT levels),
    /// and no earlier than a block RAM's read data through the mask: on a board every port is
    /// answered from block RAM (on the ECP5 a DP16KD's 5.8 ns clock-to-out; histogram's
    /// `pixels[i] >> 4` into a register-file read, once the shift was wiring: 73.6 MHz).
    pub fn port_response_ns(&self) -> f64 {
        let buffered = self.registers.clock_to_out_ns + 3.0 * self.operators.lut_ns;
        buffered.max(self.memory.block_ram_read_ns + self.operators.lut_ns)
    }

    /// The hardware multiplier blocks of the part when they are scarce (the UP5K's eight 16 x
    /// 16 `SB_MAC16`s): rtl-gen then shares multipliers between multiplies that never run at
    /// once.
    pub fn multiplier_blocks(&self) -> Option<u32> {
        self.multipliers.scarce_blocks
    }

    /// The widest multi-cycle multiply that rtl-gen splits into registered 16-bit partial
    /// products.
    pub fn split_multiply_max_width(&self) -> u32 {
        self.multipliers.split_max_width
    }

    /// Products narrower than this many bits are built from LUTs by the device's synthesis,
    /// so the `lut-multiply` pass makes them partial products the delay model knows.
    pub fn lut_multiply_below(&self) -> u32 {
        self.multipliers.lut_multiply_below
    }

    /// Whether a split multiply's partial products are registered in the DSP blocks' own
    /// output registers, the blocks instantiated (rtl-gen's `dsp` module). It changes no cycle.
    pub fn registers_products_in_dsp(&self) -> bool {
        self.multipliers.products_in_dsp_registers
    }

    /// Whether an on-chip memory's read data register is cleared by a synchronous reset when
    /// the load that reads is predicated off. It changes no cycle.
    pub fn clears_read_data(&self) -> bool {
        self.memory.clears_read_data
    }

    /// Whether a predicated load whose data only a pipeline register reads is zeroed by that
    /// register's synchronous reset. It changes no cycle.
    pub fn zeroes_read_data_in_registers(&self) -> bool {
        self.registers.zeroes_read_data_in_registers
    }

    /// Whether the `induction-address` pass also keeps inner loops' first addresses in
    /// parameters of the loops around them.
    pub fn keeps_first_addresses_in_outer_loops(&self) -> bool {
        self.passes.first_addresses_in_outer_loops
    }

    /// From a division's operands to the shared divider's registers at its start: the
    /// multiplexer of the division sites and the divisor's inversion, priced with an equality
    /// tree's depth besides. The divide-by-zero flag is no longer tested there (rtl-gen makes
    /// it from the registered divisor a cycle later); the price stays as a margin for the
    /// route from the sites to the divider's registers, which fan out over its width (4-5 ns
    /// routes on durbin's iCE40 critical path).
    pub fn divider_start_ns(&self, width: u32) -> f64 {
        self.operators.lut_ns + self.operators.delay_ns(Operator::Equal, 1, width)
    }

    /// Steps from the start of a division to its result: the operands are loaded at the start
    /// edge, a signed division takes their absolute values in the next cycle, one quotient bit
    /// is computed per cycle, and one more cycle applies the signs into the result register.
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
    /// One cycle per quotient bit: [`Device::divider_latency`]. Two: the quotient bits take
    /// `2·width` cycles, and a signed division takes two cycles more at each end, where the
    /// dividend's and the result's negations are registered halves.
    pub fn sequential_divider_latency(&self, width: u32, signed: bool, step_cycles: u32) -> u32 {
        match (step_cycles, signed) {
            (1, _) => self.divider_latency(width, signed),
            (_, true) => 2 * width + 5,
            (_, false) => 2 * width + 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_parses_and_has_its_area_table() {
        for source in SOURCES {
            let parsed: Result<Device, _> = toml::from_str(source);
            assert!(parsed.is_ok(), "{parsed:?}");
        }
        assert_eq!(all().len(), SOURCES.len());
        for d in all() {
            assert!(!d.area_rows().is_empty(), "{}: no operator areas", d.name);
            assert!(d.memory.block_ram_widths.windows(2).all(|w| w[0] < w[1]), "{}: widths ascend", d.name);
        }
        assert_eq!(Device::by_name("ice40").map(|d| d.name.as_str()), Some("ice40-up5k"));
    }

    #[test]
    fn block_ram_rows_follow_the_configurations() {
        let ice40 = Device::by_name("ice40-up5k").expect("device");
        assert_eq!(ice40.block_ram_rows(32, 4096), 16, "4096 x 32 in 256 x 16 blocks: 16 rows of 2");
        assert_eq!((ice40.block_ram_rows(16, 256), ice40.block_ram_rows(8, 1024)), (1, 1));
        let ecp5 = Device::by_name("ecp5").expect("device");
        assert_eq!((ecp5.block_ram_rows(32, 1024), ecp5.block_ram_rows(9, 2048)), (1, 1));
        assert_eq!(ecp5.block_ram_rows(36, 32768), 64, "deeper than any configuration: 512 x 36 blocks");
    }

    #[test]
    fn memories_deeper_than_a_block_row_are_sliced_into_deep_configurations() {
        let ice40 = Device::by_name("ice40-up5k").expect("device");
        assert_eq!(ice40.block_ram_slice_width(32, 1600), Some(2), "sixteen 2048 x 2 blocks");
        assert_eq!(ice40.block_ram_slice_width(32, 600), Some(4), "eight 1024 x 4 blocks");
        assert_eq!(ice40.block_ram_slice_width(32, 256), None, "one row of two 256 x 16 blocks");
        assert_eq!(ice40.block_ram_slice_width(16, 300), Some(8));
        assert_eq!(ice40.block_ram_slice_width(32, 4096), None, "no configuration holds 4096 words");
        let ecp5 = Device::by_name("ecp5").expect("device");
        assert_eq!(ecp5.block_ram_slice_width(32, 1600), Some(9), "four 2048 x 9 blocks");
        assert_eq!(ecp5.block_ram_slice_width(32, 512), None, "one 512 x 36 block");
        assert_eq!(ecp5.block_ram_depth(1), 16384);
    }

    #[test]
    fn a_chain_over_32_bits_splits_at_60_mhz_on_the_ice40() {
        let ice40 = Device::by_name("ice40-up5k").expect("device");
        let period = 1000.0 / 60.0;
        assert_eq!(ice40.segments(Operator::Add, 32, 32, period).0, 1, "a 32-bit sum fits a cycle");
        let (n, segment) = ice40.segments(Operator::Add, 34, 34, period);
        assert_eq!(n, 2, "mixed_types' 34-bit sums routed 17.2-17.7 ns whole");
        assert!(segment < period - ice40.clock_to_out_ns());
        let ecp5 = Device::by_name("ecp5").expect("device");
        let o = ecp5.operators;
        assert_eq!(o.delay_ns(Operator::Add, 34, 34), o.carry_chain_ns(34));
        let over = o.carry_chain_ns(34) - o.carry_chain_ns(32);
        assert!((over - 2.0 * o.carry_ns_per_bit).abs() < 1e-9, "no extra for wide chains");
    }

    #[test]
    fn a_port_response_is_no_earlier_than_block_ram_read_data() {
        for d in all() {
            assert!(d.port_response_ns() >= d.memory.block_ram_read_ns + d.operators.lut_ns, "{}", d.name);
        }
        // The iCE40's figure is the response buffer's three LUT levels, as it was measured.
        assert_eq!(Device::by_name("ice40-up5k").map(|d| d.port_response_ns()), Some(1.4 + 3.0 * 3.0));
    }
}
