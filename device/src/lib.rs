//! kiln's device models: what each FPGA kiln builds for is and can do, as data.
//!
//! Owns: one model per device (`devices/*.toml`, compiled in): the part's resources, the
//! operator delays by width (fitted to nextpnr's routed paths by
//! `bench/boards/measure-delays`), the operators' areas (measured with Yosys by
//! `bench/egraph/measure-costs`), block RAM and DSP geometry, and what the device has or lacks
//! (LUT RAM, resets on block RAM read data, ...). The methods answer what a device can do —
//! how long an operator takes, how many cycles a carry chain needs at a clock, how deep a
//! block RAM is — for the e-graph cost model, the scheduler, rtl-gen and board-support.
//!
//! Must not: know the IR, schedules or Verilog (its vocabulary is [`Operator`] and widths);
//! hold decisions about one kernel (the scheduler returns those); be asked which device it is
//! by any other crate: every difference between devices is a field here.

mod model;

pub use model::{AreaRow, Device, MemoryModel, MultiplierModel, OperatorDelays, Part, PassChoices, RegisterTiming};

/// A datapath operator as the device's delay model sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// Wiring: constants, extensions, truncations.
    Wire,
    /// A bitwise operation, one LUT level (and, or, xor, not).
    Logic,
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `-a`.
    Neg,
    /// A shift by a variable amount: a barrel shifter.
    Shift,
    /// `a * b` of two variables.
    Mul,
    /// One step of a sequential divider (its per-cycle delay).
    DivStep,
    /// `a == b` or `a != b`.
    Equal,
    /// An ordered comparison.
    Compare,
    /// `c ? a : b`.
    Select,
}

/// All device models, in the order `--target` lists them.
pub fn devices() -> &'static [Device] {
    model::all()
}
