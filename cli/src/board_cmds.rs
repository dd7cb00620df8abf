//! `kiln bitstream` and `kiln run-board`: a kernel on a board through `kiln-board-support`.

use crate::commands::{CmdResult, cache_dir, compile_options, fail, front, prepare, write_atomic};
use crate::results::RunOutput;
use crate::runspec;
use crate::{CompileArgs, Io};
use kiln_board_support::fit::{KernelMemory, check_fit};
use kiln_board_support::flow::{DesignSources, FlowRun, plan_clock, run_flow};
use kiln_board_support::host::{Host, HostArg, open_serial};
use kiln_board_support::sim::{SimLink, build_board_model};
use kiln_board_support::top::{
    BRIDGE_SOURCES, KERNEL_SHELL_MODULE, MEMORY_SOURCE, TOP_MODULE, TopOptions, board_top, kernel_shell,
    kernel_shell_blackbox,
};
use kiln_board_support::{Board, BridgeLayout, board_by_name, board_names};
use kiln_dataflow::emu::Arg;
use kiln_device::Device;
use kiln_diagnostics::SourceMap;
use kiln_diagnostics::{Diagnostic, codes};
use kiln_driver::{self as driver, Frontend, HwOptions};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Elements per buffer on the board unless `--buffer-depth` says otherwise.
pub const DEFAULT_BUFFER_DEPTH: u64 = 1024;

/// The options shared by the board commands.
#[derive(clap::Args, Debug, Clone)]
pub struct BoardArgs {
    /// The board: icebreaker, ulx3s-85f or tangnano9k.
    #[arg(long)]
    pub board: String,
    /// The kernel (default: the file's only kernel).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Kernel clock in MHz (default: the board's oscillator; another clock uses a PLL).
    #[arg(long = "clock-mhz")]
    pub clock_mhz: Option<f64>,
    /// Elements of every buffer on the board (`N`) or of one (`NAME=N`); default 1024.
    /// Rounded up to a power of two.
    #[arg(long = "buffer-depth", value_name = "[NAME=]N")]
    pub buffer_depth: Vec<String>,
    /// Disable the dataflow optimizations.
    #[arg(long = "no-opt")]
    pub no_opt: bool,
    /// Skip the e-graph datapath phase.
    #[arg(long = "no-egraph")]
    pub no_egraph: bool,
    /// Run every loop as sequential FSM states instead of pipelining it.
    #[arg(long = "no-pipeline")]
    pub no_pipeline: bool,
    /// Work-group size of NDRange kernels without `reqd_work_group_size`.
    #[arg(long = "local-size")]
    pub local_size: Option<String>,
}

fn board(args: &BoardArgs) -> Result<Board, Diagnostic> {
    board_by_name(&args.board).ok_or_else(|| {
        Diagnostic::error(codes::UNKNOWN_BOARD, format!("unknown board `{}`", args.board))
            .with_note(format!("boards: {}", board_names().join(", ")))
    })
}

fn hw_options(args: &BoardArgs, board: &Board) -> Result<HwOptions, Diagnostic> {
    let device = Device::by_name(&board.device).ok_or_else(|| {
        Diagnostic::error(
            codes::UNKNOWN_BOARD,
            format!("board `{}` names an unknown device `{}`", board.name, board.device),
        )
    })?;
    let clock_mhz = args.clock_mhz.unwrap_or(board.clock.mhz);
    if !(clock_mhz > 0.0 && clock_mhz <= 1000.0) {
        return Err(Diagnostic::error(codes::BAD_OPTION, format!("clock {clock_mhz} MHz is outside 0..1000 MHz")));
    }
    let local_size = match &args.local_size {
        Some(t) => Some(crate::commands::parse_local_size(t)?),
        None => None,
    };
    Ok(HwOptions {
        device,
        clock_mhz,
        optimize: !args.no_opt,
        egraph: !args.no_opt && !args.no_egraph,
        explain_opt: false,
        pipeline: !args.no_pipeline,
        scalar_replacement: true,
        local_size,
        local_args: vec![],
        strict_pipe_order: false,
    })
}

/// `--buffer-depth` entries: a default for all buffers and per-buffer values.
fn buffer_depths(entries: &[String]) -> Result<(u64, BTreeMap<String, u64>), Diagnostic> {
    let mut all = DEFAULT_BUFFER_DEPTH;
    let mut named = BTreeMap::new();
    for e in entries {
        let bad = || {
            Diagnostic::error(
                codes::BAD_OPTION,
                format!("`--buffer-depth {e}` is not `N` or `NAME=N` with 1 <= N <= 2^24"),
            )
        };
        let (name, n) = match e.split_once('=') {
            Some((name, n)) => (Some(name.trim()), n),
            None => (None, e.as_str()),
        };
        let n = n.trim().parse::<u64>().ok().filter(|n| (1..=1 << 24).contains(n)).ok_or_else(bad)?;
        match name {
            Some(name) => {
                named.insert(name.to_string(), n);
            }
            None => all = n,
        }
    }
    Ok((all, named))
}

/// A kernel built for a board: its Verilog, what the bridge exposes, and the scheduler's view.
struct BoardKernel {
    name: String,
    verilog: kiln_rtl_gen::VerilogFile,
    layout: BridgeLayout,
    /// Per buffer: in single-port RAM rather than block RAM.
    placement: Vec<bool>,
    report: kiln_scheduler::report::KernelReport,
    /// The largest float operations, located, for a design that does not fit.
    float_footprints: Vec<String>,
    /// Warnings about the build (a `printf` the hardware drops).
    warnings: Vec<Diagnostic>,
}

fn build_for_board(
    fe: &Frontend,
    kernel: Option<&str>,
    at: Option<kiln_diagnostics::Span>,
    args: &BoardArgs,
    board: &Board,
    hw: &HwOptions,
) -> Result<BoardKernel, driver::Failure> {
    let names = driver::session::kernel_names(&fe.program);
    let name = match kernel {
        Some(k) => k.to_string(),
        None if names.len() == 1 => names[0].clone(),
        None if names.is_empty() => {
            return Err(Diagnostic::error(codes::NO_KERNEL, "the file defines no kernel").into());
        }
        None => {
            return Err(Diagnostic::error(
                codes::BOARD_KERNEL,
                format!("the file has {} kernels; a board runs one: choose it with `--kernel`", names.len()),
            )
            .with_note(format!("kernels: {}", names.join(", ")))
            .into());
        }
    };
    let s = driver::build_kernel(fe, &name, at, hw)?.schedule;
    if let Some((_, d)) = s.kernel.pipes.iter().next() {
        return Err(Diagnostic::error(
            codes::UNSUPPORTED_PIPE,
            format!("kernel `{name}` uses pipe `{}`; boards run single kernels, not systems of kernels yet", d.name),
        )
        .at_labeled(d.span, "used here")
        .with_note("`kiln build` builds the system's top level; `kiln sim` and `kiln cosim` run it")
        .into());
    }
    let (verilog, iface) = driver::build::emit_verilog(&s, &fe.sources);
    let sources = &fe.sources;
    let report = kiln_scheduler::report::kernel_report(&s, &|sp| sources.location(sp).to_string());
    let (all, named) = buffer_depths(&args.buffer_depth)?;
    for n in named.keys() {
        if !iface.memories.iter().any(|m| &m.prefix == n) {
            let known: Vec<&str> = iface.memories.iter().map(|m| m.prefix.as_str()).collect();
            return Err(Diagnostic::error(
                codes::BAD_OPTION,
                format!("`--buffer-depth {n}=...`: kernel `{name}` has no buffer `{n}`"),
            )
            .with_note(format!("its buffers: {}", known.join(", ")))
            .into());
        }
    }
    let layout = BridgeLayout::new(&iface, &verilog.text, &|b| named.get(b).copied().unwrap_or(all))
        .map_err(|e| Diagnostic::error(codes::BOARD_KERNEL, e.to_string()))?;
    let memories: Vec<KernelMemory> = report
        .on_chip_memories
        .iter()
        .filter(|m| m.implementation == "block RAM")
        .map(|m| KernelMemory { name: m.name.clone(), bits: m.elements as u64 * m.element_width as u64 })
        .collect();
    let placement = check_fit(board, &layout, &memories).map_err(|e| {
        Diagnostic::error(codes::BOARD_MEMORY, e.to_string())
            .with_help("lower the buffer sizes with `--buffer-depth NAME=N` (elements), or use a board with more RAM")
    })?;
    let float_footprints = kiln_dataflow::passes::footprints(&s.kernel)
        .iter()
        .take(6)
        .map(|f| format!("`{}` at {}: {} operations, {} result bits", f.op, sources.location(f.span), f.ops, f.bits))
        .collect();
    let warnings = driver::build::printf_warning(&s.kernel).into_iter().collect();
    Ok(BoardKernel { name, verilog, layout, placement, report, float_footprints, warnings })
}

/// Every Verilog file of a board design as (name, text), by half: what a split synthesis step
/// runs apart ([`DesignSources`]).
struct DesignFiles {
    /// The kernel, its shell and the RAMs' module.
    kernel: Vec<(String, String)>,
    /// The top level, the bridge, the PLL.
    board: Vec<(String, String)>,
}

impl DesignFiles {
    fn all(&self) -> Vec<(String, String)> {
        self.kernel.iter().chain(&self.board).cloned().collect()
    }
}

fn design_files(k: &BoardKernel, top: &TopOptions, pll: Option<&str>) -> DesignFiles {
    let kernel = vec![
        (k.verilog.name.clone(), k.verilog.text.clone()),
        (format!("{KERNEL_SHELL_MODULE}.v"), kernel_shell(&k.layout, top).print()),
        (MEMORY_SOURCE.0.to_string(), MEMORY_SOURCE.1.to_string()),
    ];
    let mut board = vec![(format!("{TOP_MODULE}.v"), board_top(&k.layout, top).print())];
    for (n, t) in BRIDGE_SOURCES {
        board.push((n.to_string(), t.to_string()));
    }
    if let Some(p) = pll {
        board.push(("kiln_pll.v".into(), p.to_string()));
    }
    DesignFiles { kernel, board }
}

/// Where the kernel shell's black box goes in the output directory: beside the design, not
/// among its Verilog files (a simulator or linter given `*.v` would see the shell twice).
const KERNEL_BLACKBOX: &str = "blackbox/kiln_board_kernel.v";

fn top_options(board: &Board, k: &BoardKernel, clock_mhz: f64, pll: bool) -> TopOptions {
    TopOptions {
        single_port_ram: k.placement.clone(),
        clocks_per_bit: board.clocks_per_bit(clock_mhz),
        led_count: board.leds.pins.len(),
        leds_active_low: board.leds.active_low,
        pll,
    }
}

pub(crate) fn bitstream(
    file: &Path,
    out_dir: &Path,
    rtl_only: bool,
    seed: u64,
    args: &BoardArgs,
    compile: &CompileArgs,
    io: &mut Io,
) -> CmdResult {
    let board = board(args).map_err(|d| fail(SourceMap::new(), d))?;
    let hw = hw_options(args, &board).map_err(|d| fail(SourceMap::new(), d))?;
    let opts = compile_options(compile, &[])?;
    let fe = front(SourceMap::new(), file, &opts, io)?;
    let k = match build_for_board(&fe, args.kernel.as_deref(), None, args, &board, &hw) {
        Ok(k) => k,
        Err(f) => return Err((fe.sources, f)),
    };
    io.diags(&fe.sources, &k.warnings);
    let sources = fe.sources;
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        let d = Diagnostic::error(codes::IO_WRITE, format!("cannot create `{}`: {e}", out_dir.display()));
        return Err(fail(sources, d));
    }
    let clock = match plan_clock(&board, hw.clock_mhz, out_dir) {
        Ok(c) => c,
        Err(e) => return Err(fail(sources, Diagnostic::error(codes::BOARD_CLOCK, e.to_string()))),
    };
    let top = top_options(&board, &k, clock.achieved_mhz, clock.pll_verilog.is_some());
    let design = design_files(&k, &top, clock.pll_verilog.as_deref());
    let files = design.all();
    let (cname, ctext) = kiln_board_support::constraints::constraints(&board);
    for (n, t) in files.iter().chain(std::iter::once(&(cname.clone(), ctext))) {
        if let Err(d) = write_atomic(&out_dir.join(n), t.as_bytes()) {
            return Err(fail(sources, d));
        }
    }
    let _ = writeln!(
        io.out,
        "{}: kernel `{}` for {} at {:.2} MHz; {} buffer(s) on chip ({} bits), bridge signature {:08x}",
        file.display(),
        k.name,
        board.description,
        clock.achieved_mhz,
        k.layout.buffers.len(),
        k.layout.buffer_bits(),
        k.layout.signature()
    );
    if rtl_only {
        let _ = writeln!(io.out, "board design: {} (top module {TOP_MODULE})", out_dir.display());
        return Ok(());
    }
    let blackbox = out_dir.join(KERNEL_BLACKBOX);
    if let Some(dir) = blackbox.parent()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        let d = Diagnostic::error(codes::IO_WRITE, format!("cannot create `{}`: {e}", dir.display()));
        return Err(fail(sources, d));
    }
    if let Err(d) = write_atomic(&blackbox, kernel_shell_blackbox(&k.layout, &top).as_bytes()) {
        return Err(fail(sources, d));
    }
    let run = FlowRun {
        board: &board,
        kernel: &k.name,
        out_dir,
        sources: DesignSources {
            kernel: design.kernel.iter().map(|(n, _)| n.clone()).collect(),
            board: design.board.iter().map(|(n, _)| n.clone()).collect(),
            kernel_blackbox: KERNEL_BLACKBOX.into(),
        },
        constraints: cname,
        clock,
        estimated_critical_path_ns: k.report.timing.estimated_critical_path_ns,
        seed,
        progress: std::io::stderr().is_terminal(),
    };
    let summary = match run_flow(&run) {
        Ok(s) => s,
        Err(e) => {
            let mut d = Diagnostic::error(codes::BOARD_FLOW, e.to_string());
            if e.to_string().contains("needs more of a cell type") && !k.float_footprints.is_empty() {
                d = d.with_note(format!(
                    "the largest floating-point operations (each fully pipelined):\n  {}",
                    k.float_footprints.join("\n  ")
                ));
            }
            return Err(fail(sources, d));
        }
    };
    let json = serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n";
    if let Err(d) = write_atomic(&out_dir.join("summary.json"), json.as_bytes()) {
        return Err(fail(sources, d));
    }
    let _ = io.out.write_all(summary.text().as_bytes());
    let _ = writeln!(io.out, "summary: {}", out_dir.join("summary.json").display());
    if !summary.timing_met {
        let _ = writeln!(
            io.err,
            "warning: the design does not meet {:.2} MHz after routing; lower `--clock-mhz`",
            summary.kernel_clock_mhz
        );
    }
    Ok(())
}

/// Where `run-board` finds the board.
pub enum Link {
    Serial {
        port: String,
        baud: Option<u32>,
    },
    /// The board top level in Verilator with a UART model.
    Simulated,
}

pub(crate) fn run_board(
    file: &Path,
    spec: &Path,
    link: Link,
    json: Option<&Path>,
    args: &BoardArgs,
    compile: &CompileArgs,
    io: &mut Io,
) -> CmdResult {
    let board = board(args).map_err(|d| fail(SourceMap::new(), d))?;
    let mut hw = hw_options(args, &board).map_err(|d| fail(SourceMap::new(), d))?;
    let p = prepare(file, spec, compile, io)?;
    hw.local_size = hw.local_size.or_else(|| crate::commands::spec_local_size(&p.spec));
    hw.local_args = runspec::local_args(&p.spec.args);
    let kernel = Some(p.spec.kernel.clone());
    let built = build_for_board(&p.fe, kernel.as_deref(), Some(p.spec.kernel_span), args, &board, &hw).and_then(|k| {
        let id = driver::session::find_kernel(&p.fe.program, &k.name, None)?;
        let lowered = driver::session::lower(&p.fe.program, id, hw.local_size, &hw.local_args)?;
        let m = runspec::materialize(&p.spec, &lowered).map_err(driver::Failure::from)?;
        Ok((k, lowered, m))
    });
    let (k, lowered, m) = match built {
        Ok(x) => x,
        Err(f) => return Err((p.fe.sources, f)),
    };
    let sources = p.fe.sources;
    let host_args: Vec<HostArg> = m
        .args
        .iter()
        .map(|a| match a {
            Arg::Scalar(v) => HostArg::Scalar(*v),
            Arg::Buffer(b) => HostArg::Buffer(b.clone()),
        })
        .collect();
    let link_error = |m: String| Diagnostic::error(codes::BOARD_LINK, m);
    let (engine, run) = match link {
        Link::Serial { port, baud } => {
            let serial = open_serial(&port, baud.unwrap_or(board.uart.baud)).map_err(|e| link_error(e.to_string()));
            let result = serial.and_then(|s| {
                let mut host = Host::connect(s, k.layout.clone()).map_err(|e| link_error(e.to_string()))?;
                host.run(&host_args).map_err(|e| link_error(e.to_string()))
            });
            match result {
                Ok(r) => ("board", r),
                Err(d) => return Err(fail(sources, d)),
            }
        }
        Link::Simulated => {
            let top = top_options(&board, &k, hw.clock_mhz, false);
            let files = design_files(&k, &top, None).all();
            let model = match build_board_model(&files, &cache_dir()) {
                Ok(m) => m,
                Err(e) => return Err(fail(sources, Diagnostic::error(codes::TOOL_FAILED, e.to_string()))),
            };
            let max_cycles = p.spec.max_cycles.unwrap_or(100_000_000);
            let result = SimLink::start(&model, top.clocks_per_bit, max_cycles)
                .map_err(|e| link_error(e.to_string()))
                .and_then(|l| {
                    let mut host = Host::connect(l, k.layout.clone()).map_err(|e| link_error(e.to_string()))?;
                    host.run(&host_args).map_err(|e| link_error(e.to_string()))
                });
            match result {
                Ok(r) => ("board-sim", r),
                Err(d) => return Err(fail(sources, d)),
            }
        }
    };
    let out = RunOutput {
        kernel: &lowered,
        engine,
        cycles: Some(run.cycles),
        buffers: run.buffers,
        elem_types: m.elem_types,
        printed: vec![],
    };
    let _ = writeln!(io.out, "{engine}: {} finished in {} cycles on {}", k.name, run.cycles, board.name);
    let _ = io.out.write_all(out.summary().as_bytes());
    crate::commands::write_json(json, &out, &sources)
}

/// The default output directory of `kiln bitstream`.
pub fn default_out_dir(board: &str) -> PathBuf {
    PathBuf::from(format!("kiln-{board}"))
}
