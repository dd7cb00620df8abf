//! The `kiln` command-line tool.
//!
//! Owns: argument parsing, reading and writing files, run specs and results JSON, printing,
//! and the commands (`check`, `build`, `emu`, `sim`, `cosim`, `bitstream`, `run-board`,
//! `explain`), which call the compile driver (`kiln-driver`) and the engines.
//!
//! Must not: contain compiler logic of its own: which variants of a kernel are built and kept
//! is the driver's, every decision about the language, the IR, the schedule or the hardware
//! belongs to the crate that owns that stage. [`run`] is the whole tool as a function so that
//! tests can call it in-process.

// Diagnostics are large, and errors end commands: boxing them would buy nothing.
#![allow(clippy::result_large_err)]

mod board_cmds;
mod commands;
mod fuzz_cmd;
pub mod results;
pub mod runspec;
pub mod system;
mod system_cmds;
mod waveform;

use clap::{Args, Parser, Subcommand};
use kiln_diagnostics::SourceMap;
use kiln_diagnostics::{self as diag, Diagnostic};
use kiln_frontend::Options;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "kiln", version, about = "OpenCL C kernels to FPGA hardware", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Debug, Clone)]
struct CompileArgs {
    /// Define a macro: `-D NAME` or `-D NAME=VALUE`.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Add a directory to the `#include "..."` search path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// OpenCL C options such as `-cl-std=CL2.0` or `-cl-fast-relaxed-math` (also accepted bare).
    #[arg(long = "cl-option", value_name = "FLAG", hide = true)]
    cl_options: Vec<String>,
    /// How to print diagnostics.
    #[arg(long = "message-format", value_enum, default_value = "human")]
    message_format: MessageFormat,
    /// Build NDRange kernels without `reqd_work_group_size` or `max_work_group_size` for
    /// work-groups of up to N work-items, the size given at run time.
    #[arg(long = "max-work-group-size", value_name = "N")]
    max_work_group_size: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum MessageFormat {
    Human,
    Json,
}

#[derive(Args, Debug, Clone)]
struct HwArgs {
    /// Target device model: generic, ice40-up5k or ecp5.
    #[arg(long, default_value = "generic")]
    target: String,
    /// Target clock in MHz (default: the target's).
    #[arg(long = "clock-mhz")]
    clock_mhz: Option<f64>,
    /// Disable the dataflow optimizations (the same as `-O0`).
    #[arg(long = "no-opt")]
    no_opt: bool,
    /// Optimization level: 0 (none), 1 (the dataflow passes), 2 (also the e-graph datapath
    /// phase; the default).
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=2))]
    opt_level: u8,
    /// Skip the e-graph datapath phase (the same as `-O1`).
    #[arg(long = "no-egraph")]
    no_egraph: bool,
    /// List the e-graph rewrites that paid off, per kernel and region (in the summary and the
    /// report's transformations).
    #[arg(long = "explain-opt")]
    explain_opt: bool,
    /// Run every loop as sequential FSM states instead of pipelining it.
    #[arg(long = "no-pipeline")]
    no_pipeline: bool,
    /// Keep every array access in memory: no scalar replacement of array elements that a loop
    /// uses at an unchanging index.
    #[arg(long = "no-scalar-replacement")]
    no_scalar_replacement: bool,
    /// Work-group size of NDRange kernels without `reqd_work_group_size`, e.g. `64` or `8,8`
    /// (default: the run spec's `local_size`).
    #[arg(long = "local-size")]
    local_size: Option<String>,
}

#[derive(Args, Debug, Clone)]
struct MemArgs {
    /// Test-bench memory latency in cycles (at least 1).
    #[arg(long = "mem-latency", default_value_t = 1)]
    mem_latency: u32,
    /// Seed of random memory back-pressure (no stalls without it).
    #[arg(long = "stall-seed")]
    stall_seed: Option<u64>,
    /// Report a deadlock after this many cycles in which no pipe transfer happens while every
    /// unfinished kernel waits on a pipe.
    #[arg(long = "deadlock-cycles", default_value_t = kiln_simulator::sim::system::DEFAULT_DEADLOCK_CYCLES)]
    deadlock_cycles: u64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check a kernel file and print its diagnostics.
    Check {
        file: PathBuf,
        /// Print the OpenCL C a C++ kernel file lowers to.
        #[arg(long = "emit-opencl")]
        emit_opencl: bool,
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Compile kernels to Verilog and write a report.
    Build {
        file: PathBuf,
        /// Build only this kernel (default: all kernels).
        #[arg(long)]
        kernel: Option<String>,
        /// Output directory.
        #[arg(short = 'o', long = "output", default_value = "kiln-out")]
        out_dir: PathBuf,
        /// Also write the optimized IR and the schedule of each kernel.
        #[arg(long = "dump")]
        dump: bool,
        #[command(flatten)]
        compile: CompileArgs,
        #[command(flatten)]
        hw: HwArgs,
    },
    /// Run a kernel in the functional emulator.
    Emu {
        file: PathBuf,
        /// The run spec (TOML).
        #[arg(long)]
        spec: PathBuf,
        /// Write the results JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// For a system: report a kernel that polls a pipe this many times in a row without
        /// success, while nothing else moves and every other kernel waits too, as starving.
        #[arg(long = "deadlock-cycles", default_value_t = kiln_simulator::sim::system::DEFAULT_DEADLOCK_CYCLES)]
        deadlock_cycles: u64,
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Run a kernel in the cycle-accurate simulator.
    Sim {
        file: PathBuf,
        #[arg(long)]
        spec: PathBuf,
        #[arg(long)]
        json: Option<PathBuf>,
        /// Write a VCD waveform here.
        #[arg(long)]
        vcd: Option<PathBuf>,
        #[command(flatten)]
        compile: CompileArgs,
        #[command(flatten)]
        hw: HwArgs,
        #[command(flatten)]
        mem: MemArgs,
    },
    /// Run the emitted Verilog in Verilator and compare with the simulator and the emulator.
    Cosim {
        file: PathBuf,
        #[arg(long)]
        spec: PathBuf,
        #[arg(long)]
        json: Option<PathBuf>,
        /// Build the Verilator model for run speed (Verilator -O3, C++ -O3) instead of build
        /// speed: for long runs, and to measure Verilator at its best.
        #[arg(long = "fast-model")]
        fast_model: bool,
        #[command(flatten)]
        compile: CompileArgs,
        #[command(flatten)]
        hw: HwArgs,
        #[command(flatten)]
        mem: MemArgs,
    },
    /// Build a bitstream for a board (synthesis, place and route, packing) with a UART host bridge.
    Bitstream {
        file: PathBuf,
        /// Output directory (default: `kiln-<board>`).
        #[arg(short = 'o', long = "output")]
        out_dir: Option<PathBuf>,
        /// Write the board design (Verilog, PLL, constraints) but run no synthesis or place and route.
        #[arg(long = "rtl-only")]
        rtl_only: bool,
        /// Placement seed of place and route (nextpnr `--seed`): another seed places the design
        /// differently, and its Fmax moves by a few MHz. A board that places twice at once (the
        /// iCEBreaker) uses seeds 2N-1 and 2N and keeps the first if it meets the clock.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        board: board_cmds::BoardArgs,
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Run a kernel on a board over its USB serial port (or on the simulated board).
    RunBoard {
        file: PathBuf,
        #[arg(long)]
        spec: PathBuf,
        /// The board's serial port, e.g. `/dev/ttyUSB1`.
        #[arg(long, required_unless_present = "simulate")]
        port: Option<String>,
        /// Serial speed (default: the board's).
        #[arg(long)]
        baud: Option<u32>,
        /// Run the board top level in Verilator with a model of the UART instead of a board.
        #[arg(long, conflicts_with = "port")]
        simulate: bool,
        #[arg(long)]
        json: Option<PathBuf>,
        #[command(flatten)]
        board: board_cmds::BoardArgs,
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Explain a diagnostic code (e.g. `kiln explain E0401`), or list all codes.
    Explain { code: Option<String> },
    /// Generate random kernels and check that emu, sim, cosim, PoCL and gcc agree on each.
    Fuzz {
        /// First seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many kernels (seeds `seed`, `seed + 1`, ...).
        #[arg(short = 'n', long, default_value_t = 100)]
        count: u64,
        /// Run the kernels whose seed is a multiple of N through `cosim` (Verilator); 0: none.
        #[arg(long = "cosim-every", default_value_t = 10)]
        cosim_every: u64,
        /// Do not compare with PoCL.
        #[arg(long = "no-pocl")]
        no_pocl: bool,
        /// Do not compare with the kernel compiled as C by gcc.
        #[arg(long = "no-gcc")]
        no_gcc: bool,
        /// Shrink each failing kernel to a small one that fails the same way.
        #[arg(long)]
        reduce: bool,
        /// Kernels checked at once (default: one per core).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
        /// Where failing kernels are kept (`fail-SEED/`).
        #[arg(short = 'o', long = "output", default_value = "kiln-fuzz")]
        out_dir: PathBuf,
        /// Print the kernel and run spec of `--seed` instead of running anything.
        #[arg(long = "print")]
        print_only: bool,
        /// Leave features out of the generated kernels: vectors, float, records, work-groups,
        /// systems, gotos (comma-separated).
        #[arg(long, value_delimiter = ',')]
        without: Vec<String>,
    },
}

/// Where a command writes.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    json_diags: bool,
}

impl Io<'_> {
    fn diags(&mut self, sources: &SourceMap, diags: &[Diagnostic]) {
        if diags.is_empty() {
            return;
        }
        let text = if self.json_diags { diag::render_json(sources, diags) } else { diag::render(sources, diags) };
        let _ = self.err.write_all(text.as_bytes());
    }
}

/// `-cl-std=CL2.0` and friends are single-dash long options; clap gets them as `--cl-option`.
fn normalize_args(args: Vec<OsString>) -> Vec<OsString> {
    args.into_iter()
        .map(|a| match a.to_str() {
            Some(s) if s.starts_with("-cl-") => OsString::from(format!("--cl-option={s}")),
            _ => a,
        })
        .collect()
}

fn options(c: &CompileArgs) -> Result<Options, Diagnostic> {
    let mut o = Options::default();
    for d in &c.defines {
        o.add_define(d);
    }
    o.include_dirs = c.include.clone();
    if let Some(n) = c.max_work_group_size {
        if n == 0 || n > 1 << 20 {
            return Err(Diagnostic::error(
                kiln_diagnostics::codes::BAD_OPTION,
                format!("`--max-work-group-size {n}`: the size must be between 1 and 1048576"),
            ));
        }
        o.max_work_group_size = Some(n);
    }
    for f in &c.cl_options {
        if !o.apply_cl_flag(f) {
            return Err(Diagnostic::error(
                kiln_diagnostics::codes::BAD_OPTION,
                format!("unknown or invalid OpenCL option `{f}`"),
            )
            .with_note("kiln accepts -cl-std=CL1.2|CL2.0|CL3.0|CLC++ and the -cl-* math options"));
        }
    }
    Ok(o)
}

/// Runs kiln with command-line arguments (including the program name). Returns the exit code:
/// 0 success, 1 errors or mismatches, 2 invalid usage.
pub fn run(args: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let cli = match Cli::try_parse_from(normalize_args(args)) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if code == 0 { out.write_all(text.as_bytes()) } else { err.write_all(text.as_bytes()) };
            return code;
        }
    };
    let json_diags = match &cli.command {
        Command::Check { compile, .. }
        | Command::Build { compile, .. }
        | Command::Emu { compile, .. }
        | Command::Sim { compile, .. }
        | Command::Cosim { compile, .. }
        | Command::Bitstream { compile, .. }
        | Command::RunBoard { compile, .. } => compile.message_format == MessageFormat::Json,
        Command::Explain { .. } | Command::Fuzz { .. } => false,
    };
    let mut io = Io { out, err, json_diags };
    match commands::dispatch(cli.command, &mut io) {
        Ok(()) => 0,
        Err((sources, failure)) => {
            let mut diags = failure.diags;
            diags.sort_by_key(|d| d.span().map(|s| (s.file, s.lo)));
            io.diags(&sources, &diags);
            let errors = diags.iter().filter(|d| d.is_error()).count();
            if !json_diags && errors > 0 {
                let _ = writeln!(io.err, "error: kiln stopped with {errors} error(s)");
            }
            1
        }
    }
}
