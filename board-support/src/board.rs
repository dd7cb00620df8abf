//! Board definitions. Every board is a TOML file in `board-support/boards/`, compiled into the
//! binary; adding a board means adding a file, never a code path. The only code that differs
//! between boards is per constraint-file syntax and per PLL tool, both named by the board file;
//! what the FPGA can do is its device model's (`kiln-device`), which the board names.

use serde::Deserialize;

/// The syntax of a board's pin constraint file, as its place-and-route tool reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintFormat {
    /// `.pcf` (nextpnr-ice40).
    Pcf,
    /// `.lpf` (nextpnr-ecp5).
    Lpf,
    /// `.cst` (nextpnr-himbaechel for Gowin).
    Cst,
}

/// How a kernel clock other than the oscillator's is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PllTool {
    /// `icepll` (IceStorm): an `SB_PLL40_PAD`.
    Icepll,
    /// `ecppll` (Project Trellis, from YoWASP): an `EHXPLLL`.
    Ecppll,
    /// No PLL support: the kernel runs at the oscillator frequency.
    None,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub pin: String,
    pub mhz: f64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uart {
    /// The pin the FPGA receives on (the USB bridge's TX).
    pub rx_pin: String,
    /// The pin the FPGA transmits on.
    pub tx_pin: String,
    pub baud: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leds {
    pub pins: Vec<String>,
    pub active_low: bool,
}

/// What the part offers.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    pub luts: u64,
    pub ffs: u64,
    pub dsps: u64,
    pub bram_bits: u64,
    /// Single-port RAM blocks (iCE40 SPRAM): how many, and each one's width and depth.
    pub spram_blocks: u64,
    pub spram_width: u64,
    pub spram_depth: u64,
}

/// Which log entries make each line of the summary (see [`crate::report::utilization`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportMap {
    pub luts: Vec<String>,
    pub ffs: Vec<String>,
    pub bram: Vec<String>,
    pub spram: Vec<String>,
    pub dsps: Vec<String>,
}

/// One tool invocation of the flow. In `args`, `{top}` (the top module), `{sources}` (expands
/// to the Verilog files), `{json}` (the netlist file the step writes, `top.json`),
/// `{constraints}`, `{mhz}`, `{seed}` (the placement seed) and `{output}` (the step's `output`)
/// are substituted; the tool runs in the output directory and everything it prints goes to
/// `log`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub log: String,
    /// Run the step twice at the same time, on the kernel's half of the design and on the
    /// board's own half (with the kernel's shell a black box), and join the two netlists into
    /// `top.json` ([`crate::flow`]): for synthesis, which is one thread per run.
    #[serde(default)]
    pub split_kernel: bool,
    /// Place and route this many times at once, each with its own seed and its own `output`
    /// and log, and keep one ([`crate::flow`]): the first seed's when it meets the clock (the
    /// others are stopped then), else the one with the highest Fmax. One nextpnr run is one
    /// thread, so where a core is free the second placement costs no time unless it is used.
    #[serde(default = "one_placement")]
    pub placements: u32,
    /// The file the step writes for the next one (`{output}` in `args`); needed with more
    /// than one placement, each of which writes it under its own name until one is kept.
    #[serde(default)]
    pub output: Option<String>,
}

fn one_placement() -> u32 {
    1
}

impl Step {
    /// What is wrong with the step's definition, if anything (the unit tests check every
    /// built-in board with it).
    pub fn problem(&self) -> Option<String> {
        let uses_output = self.args.iter().any(|a| a.contains("{output}"));
        if self.placements == 0 {
            return Some(format!("step `{}` places zero times", self.name));
        }
        if self.placements > 1 && self.split_kernel {
            return Some(format!("step `{}` both splits the design and places several times", self.name));
        }
        if (self.placements > 1 || uses_output) && (self.output.is_none() || !uses_output) {
            return Some(format!("step `{}` needs both `output` and `{{output}}` in its arguments", self.name));
        }
        None
    }

    /// The placement seeds of a run with `--seed seed`: the seed itself with one placement;
    /// with `k`, the seed's own group of `k` (seed 1: 1 and 2, seed 2: 3 and 4), so that runs
    /// with different seeds never share a placement.
    pub fn placement_seeds(&self, seed: u64) -> Vec<u64> {
        let k = u64::from(self.placements.max(1));
        let first = if k == 1 { seed } else { seed.saturating_sub(1).saturating_mul(k).saturating_add(1) };
        (0..k).map(|i| first.saturating_add(i)).collect()
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub name: String,
    pub description: String,
    /// The syntax of the pin constraint file.
    pub constraints: ConstraintFormat,
    pub part: String,
    pub package: String,
    /// The device model of this part (`kiln build --target`).
    pub device: String,
    pub pll: PllTool,
    /// The file the last step writes.
    pub bitstream: String,
    pub clock: Clock,
    pub uart: Uart,
    pub leds: Leds,
    pub resources: Resources,
    pub report: ReportMap,
    pub steps: Vec<Step>,
}

const BOARD_FILES: &[(&str, &str)] = &[
    ("icebreaker.toml", include_str!("../boards/icebreaker.toml")),
    ("ulx3s-85f.toml", include_str!("../boards/ulx3s-85f.toml")),
    ("tangnano9k.toml", include_str!("../boards/tangnano9k.toml")),
];

/// Every built-in board, in a stable order. The files are part of kiln itself, so a file that
/// does not parse is a kiln bug: the unit tests parse all of them.
pub fn boards() -> Vec<Board> {
    BOARD_FILES.iter().filter_map(|(_, text)| toml::from_str::<Board>(text).ok()).collect()
}

/// Names of the built-in boards.
pub fn board_names() -> Vec<String> {
    boards().into_iter().map(|b| b.name).collect()
}

/// A board by name (case-insensitive).
pub fn board_by_name(name: &str) -> Option<Board> {
    boards().into_iter().find(|b| b.name.eq_ignore_ascii_case(name))
}

impl Board {
    /// Clock cycles per UART bit at a kernel clock of `clock_mhz`.
    pub fn clocks_per_bit(&self, clock_mhz: f64) -> u32 {
        ((clock_mhz * 1e6 / self.uart.baud as f64).round() as u32).max(4)
    }

    /// Block RAM and single-port RAM together: what buffers and kernel memories may use.
    pub fn memory_bits(&self) -> u64 {
        let r = &self.resources;
        r.bram_bits + r.spram_blocks * r.spram_width * r.spram_depth
    }

    /// Single-port RAM blocks a `width` x `depth` array takes (none on boards without them).
    pub fn spram_blocks_for(&self, width: u64, depth: u64) -> Option<u64> {
        let r = &self.resources;
        if r.spram_blocks == 0 || r.spram_width == 0 || r.spram_depth == 0 {
            return None;
        }
        Some(width.div_ceil(r.spram_width) * depth.div_ceil(r.spram_depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_file_parses() {
        for (file, text) in BOARD_FILES {
            let b: Result<Board, _> = toml::from_str(text);
            assert!(b.is_ok(), "{file}: {:?}", b.err());
            for step in b.iter().flat_map(|b| &b.steps) {
                assert_eq!(step.problem(), None, "{file}");
            }
        }
        assert_eq!(board_names(), ["icebreaker", "ulx3s-85f", "tangnano9k"]);
    }

    /// A board's part is its device model's: every board names a model, and where the model
    /// describes a part, the board's resources are that part's.
    #[test]
    fn every_board_names_its_device_model_and_agrees_with_its_part() {
        for name in board_names() {
            let b = board_by_name(&name).expect("board");
            let device = kiln_device::Device::by_name(&b.device);
            assert!(device.is_some(), "{name}: no device model `{}`", b.device);
            if let Some(part) = device.and_then(|d| d.part) {
                let r = &b.resources;
                assert_eq!(r.luts, u64::from(part.logic_cells), "{name}");
                assert_eq!(r.ffs, u64::from(part.flip_flops), "{name}");
                assert_eq!(r.dsps, u64::from(part.multiplier_blocks), "{name}");
                let bram_bits = device.map(|d| u64::from(d.memory.block_ram_bits)).unwrap_or(0);
                assert_eq!(r.bram_bits, u64::from(part.block_ram_blocks) * bram_bits, "{name}");
            }
        }
    }

    #[test]
    fn placements_take_their_seeds_apart() {
        let mut step = board_by_name("icebreaker").expect("icebreaker").steps[1].clone();
        step.placements = 1;
        assert_eq!(step.placement_seeds(7), [7]);
        step.placements = 2;
        assert_eq!(step.placement_seeds(1), [1, 2]);
        assert_eq!(step.placement_seeds(2), [3, 4]);
        assert_eq!(step.placement_seeds(0), [1, 2]);
        step.output = None;
        assert!(step.problem().is_some_and(|p| p.contains("`output`")));
    }

    #[test]
    fn uart_divisor_follows_the_clock() {
        let b = board_by_name("icebreaker").expect("icebreaker");
        assert_eq!(b.clocks_per_bit(12.0), 104);
        assert_eq!(b.clocks_per_bit(48.0), 417);
        assert!(board_by_name("ICEBREAKER").is_some() && board_by_name("nope").is_none());
    }
}
