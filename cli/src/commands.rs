//! The commands. Each returns `Err((sources, failure))` with the diagnostics that stopped it;
//! `lib.rs` renders them.

use crate::results::{RunOutput, first_difference};
use crate::runspec::{self, RunSpec};
use crate::system;
use crate::{Command, CompileArgs, HwArgs, Io, MemArgs, options};
use kiln_dataflow::emu;
use kiln_device::Device;
use kiln_diagnostics::SourceMap;
use kiln_diagnostics::{Diagnostic, codes};
use kiln_driver::{self as driver, Failure, Frontend, HwOptions};
use kiln_frontend::Options;
use kiln_simulator::cosim::{self, ModelFault};
use kiln_simulator::{MemConfig, SimConfig};
use std::path::{Path, PathBuf};

pub(crate) type CmdResult = Result<(), (SourceMap, Failure)>;

/// Operations the emulator may execute before it reports a runaway kernel.
pub(crate) const EMU_STEP_LIMIT: u64 = 1 << 32;
const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

pub(crate) fn fail(sources: SourceMap, d: impl Into<Failure>) -> (SourceMap, Failure) {
    (sources, d.into())
}

pub(crate) fn dispatch(cmd: Command, io: &mut Io) -> CmdResult {
    match cmd {
        Command::Check { file, emit_opencl: true, compile } => emit_opencl(&file, &compile, io),
        Command::Check { file, compile, .. } => check(&file, &compile, io),
        Command::Build { file, kernel, out_dir, dump, compile, hw } => {
            build(&file, kernel.as_deref(), &out_dir, dump, &compile, &hw, io)
        }
        Command::Emu { file, spec, json, deadlock_cycles, compile } => {
            emulate(&file, &spec, json.as_deref(), deadlock_cycles, &compile, io)
        }
        Command::Sim { file, spec, json, vcd, compile, hw, mem } if crate::system_cmds::is_system_spec(&spec) => {
            crate::system_cmds::simulate(&file, &spec, json.as_deref(), vcd.as_deref(), &compile, &hw, &mem, io)
        }
        Command::Cosim { file, spec, json, fast_model, compile, hw, mem }
            if crate::system_cmds::is_system_spec(&spec) =>
        {
            crate::system_cmds::cosimulate(&file, &spec, json.as_deref(), fast_model, &compile, &hw, &mem, io)
        }
        Command::Sim { file, spec, json, vcd, compile, hw, mem } => {
            simulate(&file, &spec, json.as_deref(), vcd.as_deref(), &compile, &hw, &mem, io)
        }
        Command::Cosim { file, spec, json, fast_model, compile, hw, mem } => {
            cosimulate(&file, &spec, json.as_deref(), fast_model, &compile, &hw, &mem, io)
        }
        Command::Bitstream { file, out_dir, rtl_only, seed, board, compile } => {
            let out = out_dir.unwrap_or_else(|| crate::board_cmds::default_out_dir(&board.board));
            crate::board_cmds::bitstream(&file, &out, rtl_only, seed, &board, &compile, io)
        }
        Command::RunBoard { file, spec, port, baud, simulate, json, board, compile } => {
            let link = match port {
                Some(port) if !simulate => crate::board_cmds::Link::Serial { port, baud },
                _ => crate::board_cmds::Link::Simulated,
            };
            crate::board_cmds::run_board(&file, &spec, link, json.as_deref(), &board, &compile, io)
        }
        Command::Explain { code } => explain(code.as_deref(), io),
        Command::Fuzz { seed, count, cosim_every, no_pocl, no_gcc, reduce, jobs, out_dir, print_only, without } => {
            let args = crate::fuzz_cmd::FuzzArgs {
                seed,
                count,
                cosim_every,
                pocl: !no_pocl,
                gcc: !no_gcc,
                reduce,
                jobs,
                out_dir,
                print_only,
                without,
            };
            crate::fuzz_cmd::fuzz(&args, io)
        }
    }
}

pub(crate) fn compile_options(
    c: &CompileArgs,
    extra_defines: &[(String, String)],
) -> Result<Options, (SourceMap, Failure)> {
    let mut o = options(c).map_err(|d| fail(SourceMap::new(), d))?;
    for (n, v) in extra_defines {
        o.defines.push((n.clone(), Some(v.clone())));
    }
    Ok(o)
}

pub(crate) fn front(
    sources: SourceMap,
    path: &Path,
    opts: &Options,
    io: &mut Io,
) -> Result<Frontend, (SourceMap, Failure)> {
    let mut sources = sources;
    let file = match read_source(path, &mut sources) {
        Ok(f) => f,
        Err(e) => return Err((sources, e)),
    };
    let fe = driver::session::frontend(sources, file, &kiln_frontend::pp::FsLoader, opts)?;
    io.diags(&fe.sources, &fe.diags);
    Ok(fe)
}

/// Reads a kernel file into a source map.
pub(crate) fn read_source(path: &Path, sources: &mut SourceMap) -> Result<kiln_diagnostics::FileId, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::error(codes::IO_READ, format!("cannot read `{}`: {e}", path.display())))?;
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(sources.add(path.display().to_string(), Some(abs), text))
}

pub(crate) fn hw_options(hw: &HwArgs) -> Result<HwOptions, Diagnostic> {
    let device = Device::by_name(&hw.target).ok_or_else(|| {
        Diagnostic::error(codes::BAD_OPTION, format!("unknown target `{}`", hw.target))
            .with_note(format!("targets: {}", Device::names().join(", ")))
    })?;
    let clock_mhz = hw.clock_mhz.unwrap_or(device.default_clock_mhz);
    if !(clock_mhz > 0.0 && clock_mhz <= 2000.0) {
        return Err(Diagnostic::error(codes::BAD_OPTION, format!("clock {clock_mhz} MHz is outside 0..2000 MHz")));
    }
    let local_size = match &hw.local_size {
        Some(text) => Some(parse_local_size(text)?),
        None => None,
    };
    Ok(HwOptions {
        device,
        clock_mhz,
        optimize: !hw.no_opt && hw.opt_level > 0,
        egraph: !hw.no_opt && !hw.no_egraph && hw.opt_level > 1,
        explain_opt: hw.explain_opt,
        pipeline: !hw.no_pipeline,
        scalar_replacement: !hw.no_scalar_replacement,
        local_size,
        local_args: vec![],
        strict_pipe_order: false,
    })
}

/// `64`, `8,8` or `4,4,4`.
pub(crate) fn parse_local_size(text: &str) -> Result<[u32; 3], Diagnostic> {
    let bad = || {
        Diagnostic::error(
            codes::BAD_OPTION,
            format!("`--local-size {text}` is not 1 to 3 positive integers like `64` or `8,8`"),
        )
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p.parse::<u32>().ok().filter(|v| *v > 0 && *v <= 1 << 16).ok_or_else(bad)?;
    }
    Ok(out)
}

/// The work-group size for a run: the command line's, else the run spec's.
pub(crate) fn run_local_size(hw: &HwOptions, spec: &RunSpec) -> Option<[u32; 3]> {
    hw.local_size.or_else(|| spec_local_size(spec))
}

pub(crate) fn spec_local_size(spec: &RunSpec) -> Option<[u32; 3]> {
    spec.local_size.as_ref().map(|l| {
        let mut out = [1u32; 3];
        for (i, v) in l.iter().take(3).enumerate() {
            out[i] = (*v).min(u32::MAX as u64) as u32;
        }
        out
    })
}

/// Writes a file through a temporary name, so that a failed write never leaves half a file.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), Diagnostic> {
    let tmp = path.with_extension(format!("kiln-tmp-{}", std::process::id()));
    let err = |e: std::io::Error| Diagnostic::error(codes::IO_WRITE, format!("cannot write `{}`: {e}", path.display()));
    std::fs::write(&tmp, contents).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e)
    })
}

/// `kiln check --emit-opencl`: the OpenCL C a C++ file lowers to.
fn emit_opencl(file: &Path, compile: &CompileArgs, io: &mut Io) -> CmdResult {
    let opts = compile_options(compile, &[])?;
    let mut sources = SourceMap::new();
    let id = match read_source(file, &mut sources) {
        Ok(f) => f,
        Err(e) => return Err((sources, e)),
    };
    if !kiln_frontend_cxx::is_cxx(&sources.file(id).name, &opts) {
        return Err(fail(
            sources,
            vec![
                Diagnostic::error(
                    codes::BAD_OPTION,
                    "`--emit-opencl` prints what a C++ kernel file lowers to; this file is OpenCL C",
                )
                .with_help("name the file `.clcpp` or pass `-cl-std=CLC++`"),
            ],
        ));
    }
    let (sources, text, diags) = kiln_frontend_cxx::emit_opencl(sources, id, &kiln_frontend::pp::FsLoader, &opts);
    match text {
        Some(t) => {
            io.diags(&sources, &diags);
            let _ = write!(io.out, "{t}");
            Ok(())
        }
        None => Err(fail(sources, diags)),
    }
}

fn check(file: &Path, compile: &CompileArgs, io: &mut Io) -> CmdResult {
    let opts = compile_options(compile, &[])?;
    let fe = front(SourceMap::new(), file, &opts, io)?;
    let mut diags = Vec::new();
    for (id, _) in fe.program.kernels() {
        // The work-group size is a build setting; `check` does not ask for one.
        if let Err(f) = driver::session::lower(&fe.program, id, None, &[]) {
            diags.extend(f.diags.into_iter().filter(|d| d.code != codes::NEEDS_GROUP_SIZE));
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        return Err(fail(fe.sources, diags));
    }
    io.diags(&fe.sources, &diags);
    let names = driver::session::kernel_names(&fe.program);
    let _ = if names.is_empty() {
        writeln!(io.out, "ok: {} (no kernels)", file.display())
    } else {
        writeln!(io.out, "ok: {}: {} kernel(s): {}", file.display(), names.len(), names.join(", "))
    };
    Ok(())
}

fn build(
    file: &Path,
    kernel: Option<&str>,
    out_dir: &Path,
    dump: bool,
    compile: &CompileArgs,
    hw: &HwArgs,
    io: &mut Io,
) -> CmdResult {
    let opts = compile_options(compile, &[])?;
    let hw = hw_options(hw).map_err(|d| fail(SourceMap::new(), d))?;
    let fe = front(SourceMap::new(), file, &opts, io)?;
    let names = match kernel {
        Some(k) => vec![k.to_string()],
        None => driver::session::kernel_names(&fe.program),
    };
    if names.is_empty() {
        let d = Diagnostic::error(codes::NO_KERNEL, format!("`{}` defines no kernel", file.display()));
        return Err(fail(fe.sources, d));
    }
    let built = driver::program::build_program(&fe, &names, &file.display().to_string(), &hw)
        .map_err(|f| fail(clone_sources(&fe.sources), f))?;
    let warnings: Vec<Diagnostic> =
        built.schedules.iter().filter_map(|s| driver::build::printf_warning(&s.kernel)).collect();
    io.diags(&fe.sources, &warnings);
    let summary = build_summary(&built, out_dir);
    let mut files: Vec<(PathBuf, String)> =
        built.verilog.iter().map(|v| (out_dir.join(&v.name), v.text.clone())).collect();
    if dump {
        for s in &built.schedules {
            files.push((out_dir.join(format!("{}.ir.txt", s.kernel.name)), s.kernel.to_string()));
            files.push((out_dir.join(format!("{}.schedule.txt", s.kernel.name)), s.to_string()));
        }
    }
    let report = &built.report;
    let report_text = serde_json::to_string_pretty(&report).unwrap_or_default() + "\n";
    files.push((out_dir.join("report.json"), report_text));
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        let d = Diagnostic::error(codes::IO_WRITE, format!("cannot create `{}`: {e}", out_dir.display()));
        return Err(fail(fe.sources, d));
    }
    for (path, text) in &files {
        if let Err(d) = write_atomic(path, text.as_bytes()) {
            return Err(fail(fe.sources, d));
        }
    }
    let _ = io.out.write_all(summary.as_bytes());
    let _ = writeln!(io.out, "report: {}", out_dir.join("report.json").display());
    Ok(())
}

/// What `kiln build` prints: per kernel its states, ports, registers and critical path, its
/// loop report and the build search's decisions; the system's FIFOs.
fn build_summary(built: &driver::program::ProgramBuild, out_dir: &Path) -> String {
    let mut summary = String::new();
    for (k, v) in built.report.kernels.iter().zip(&built.verilog) {
        let r = &k.schedule;
        summary.push_str(&format!(
            "{}: {} FSM states, {} memory port(s), {} scalar argument(s), ~{} register bits, critical path ~{:.1} ns of {:.1} ns -> {}\n",
            r.name,
            r.states,
            r.ports.len(),
            r.scalar_args.len(),
            r.resources.register_bits,
            r.timing.estimated_critical_path_ns,
            r.timing.clock_period_ns,
            out_dir.join(&v.name).display()
        ));
        summary.push_str(&r.loops_text());
        for d in &k.decisions {
            for line in d.summary().lines() {
                summary.push_str(&format!("  {line}\n"));
            }
        }
    }
    if let Some(sys) = &built.report.system {
        summary.push_str(&format!(
            "system: {} kernel(s), {} FIFO(s) -> {}\n",
            built.report.kernels.len(),
            sys.fifos.len(),
            out_dir.join(format!("{}.v", sys.top)).display()
        ));
        for f in &sys.fifos {
            summary.push_str(&format!(
                "  pipe `{}`: {} -> {}, {} x {} bit(s) in {}\n",
                f.pipe, f.writer, f.reader, f.depth, f.width, f.storage
            ));
        }
        if !sys.unconnected_pipe_ends.is_empty() {
            summary.push_str(&format!(
                "  unconnected pipe ends (top-level ports): {}\n",
                sys.unconnected_pipe_ends.join(", ")
            ));
        }
    }
    summary
}

/// Loads a run spec, compiles the kernel file with its defines, and materializes the arguments.
pub(crate) struct Prepared {
    pub(crate) fe: Frontend,
    pub(crate) spec: RunSpec,
}

pub(crate) fn prepare(
    file: &Path,
    spec_path: &Path,
    compile: &CompileArgs,
    io: &mut Io,
) -> Result<Prepared, (SourceMap, Failure)> {
    let mut sources = SourceMap::new();
    let spec = match runspec::load(spec_path, &mut sources) {
        Ok(s) => s,
        Err(d) => return Err(fail(sources, d)),
    };
    let opts = compile_options(compile, &spec.defines)?;
    let fe = front(sources, file, &opts, io)?;
    Ok(Prepared { fe, spec })
}

pub(crate) fn write_json(
    path: Option<&Path>,
    out: &RunOutput,
    sources: &SourceMap,
) -> Result<(), (SourceMap, Failure)> {
    if let Some(p) = path {
        let text = serde_json::to_string_pretty(&out.to_json()).unwrap_or_default() + "\n";
        write_atomic(p, text.as_bytes()).map_err(|d| fail(clone_sources(sources), d))?;
    }
    Ok(())
}

/// Source maps are not `Clone` (they own large texts); failures after a run rebuild a minimal
/// one for rendering. Diagnostics here carry no spans into it.
pub(crate) fn clone_sources(s: &SourceMap) -> SourceMap {
    let mut n = SourceMap::new();
    for (_, f) in s.files() {
        n.add(f.name.clone(), f.path.clone(), f.text.clone());
    }
    n
}

fn lowered_kernel(p: &Prepared) -> Result<(kiln_dataflow::Kernel, runspec::Materialized), Failure> {
    let id = driver::session::find_kernel(&p.fe.program, &p.spec.kernel, Some(p.spec.kernel_span))?;
    let k = driver::session::lower(&p.fe.program, id, spec_local_size(&p.spec), &runspec::local_args(&p.spec.args))?;
    let m = runspec::materialize(&p.spec, &k)?;
    Ok((k, m))
}

fn emulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    window: u64,
    compile: &CompileArgs,
    io: &mut Io,
) -> CmdResult {
    if std::fs::read_to_string(spec).is_ok_and(|t| system::is_system(&t)) {
        return crate::system_cmds::emulate(file, spec, json, window, compile, io);
    }
    let p = prepare(file, spec, compile, io)?;
    let (k, m) = match lowered_kernel(&p) {
        Ok(x) => x,
        Err(f) => return Err((p.fe.sources, f)),
    };
    let r = match emu::emulate_with_window(&k, &m.args, EMU_STEP_LIMIT, window) {
        Ok(r) => r,
        Err(e) => return Err(fail(p.fe.sources, e.to_diagnostic())),
    };
    let printed = r.printed.into_iter().map(|t| (None, t)).collect();
    let out =
        RunOutput { kernel: &k, engine: "emu", cycles: None, buffers: r.buffers, elem_types: m.elem_types, printed };
    let _ = io.out.write_all(out.printed_text().as_bytes());
    let _ = writeln!(io.out, "emu: {} finished ({} operations)", k.name, r.steps);
    let _ = io.out.write_all(out.summary().as_bytes());
    write_json(json, &out, &p.fe.sources)
}

pub(crate) fn sim_config(m: &MemArgs, max_cycles: Option<u64>) -> SimConfig {
    SimConfig {
        mem: mem_config(m),
        max_cycles: max_cycles.unwrap_or(DEFAULT_MAX_CYCLES),
        deadlock_cycles: m.deadlock_cycles.max(1),
    }
}

pub(crate) fn mem_config(m: &MemArgs) -> MemConfig {
    MemConfig { latency: m.mem_latency.max(1), stall_seed: m.stall_seed }
}

pub(crate) fn describe_mem(m: &MemConfig) -> String {
    match m.stall_seed {
        Some(s) => format!("memory latency {}, random stalls (seed {s})", m.latency),
        None => format!("memory latency {}, no stalls", m.latency),
    }
}

#[allow(clippy::too_many_arguments)]
fn simulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    vcd: Option<&Path>,
    compile: &CompileArgs,
    hw: &HwArgs,
    mem: &MemArgs,
    io: &mut Io,
) -> CmdResult {
    let mut hw = hw_options(hw).map_err(|d| fail(SourceMap::new(), d))?;
    let p = prepare(file, spec, compile, io)?;
    hw.local_size = run_local_size(&hw, &p.spec);
    hw.local_args = runspec::local_args(&p.spec.args);
    let built = driver::build_kernel(&p.fe, &p.spec.kernel, Some(p.spec.kernel_span), &hw)
        .and_then(|b| runspec::materialize(&p.spec, &b.lowered).map(|m| (b.schedule, m)).map_err(Failure::from));
    let (s, m) = match built {
        Ok(x) => x,
        Err(f) => return Err((p.fe.sources, f)),
    };
    let cfg = sim_config(mem, p.spec.max_cycles);
    let mut wave = match vcd.map(|path| crate::waveform::Waveform::kernel(path, &s)).transpose() {
        Ok(w) => w,
        Err(d) => return Err(fail(p.fe.sources, d)),
    };
    let run = kiln_simulator::simulate(&s, &m.args, &cfg, wave.as_mut().map(|w| &mut w.trace));
    let saved = wave.map(crate::waveform::Waveform::save).transpose();
    let r = match (run, saved) {
        (Ok(r), Ok(_)) => r,
        (Err(e), _) => return Err(fail(p.fe.sources, e.to_diagnostic())),
        (_, Err(d)) => return Err(fail(p.fe.sources, d)),
    };
    let out = RunOutput {
        kernel: &s.kernel,
        engine: "sim",
        cycles: Some(r.cycles),
        buffers: r.buffers,
        elem_types: m.elem_types,
        printed: r.printed.into_iter().map(|(c, t)| (Some(c), t)).collect(),
    };
    let _ = io.out.write_all(out.printed_text().as_bytes());
    let _ = writeln!(
        io.out,
        "sim: {} finished in {} cycles ({}; {} stall cycles)",
        s.kernel.name,
        r.cycles,
        describe_mem(&cfg.mem),
        r.stall_cycles
    );
    let _ = io.out.write_all(out.summary().as_bytes());
    if let Some(v) = vcd {
        let _ = writeln!(io.out, "waveform: {}", v.display());
    }
    write_json(json, &out, &p.fe.sources)
}

/// Where cached Verilator models live: `$KILN_CACHE_DIR`, else `~/.cache/kiln`, else the
/// temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("KILN_CACHE_DIR") {
        return PathBuf::from(d).join("cosim");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache").join("kiln").join("cosim");
    }
    std::env::temp_dir().join("kiln").join("cosim")
}

#[allow(clippy::too_many_arguments)]
fn cosimulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    fast_model: bool,
    compile: &CompileArgs,
    hw: &HwArgs,
    mem: &MemArgs,
    io: &mut Io,
) -> CmdResult {
    let mut hw = hw_options(hw).map_err(|d| fail(SourceMap::new(), d))?;
    let p = prepare(file, spec, compile, io)?;
    hw.local_size = run_local_size(&hw, &p.spec);
    hw.local_args = runspec::local_args(&p.spec.args);
    let built = driver::build_kernel(&p.fe, &p.spec.kernel, Some(p.spec.kernel_span), &hw).and_then(|b| {
        runspec::materialize(&p.spec, &b.lowered).map(|m| (b.lowered, b.schedule, m)).map_err(Failure::from)
    });
    let (lowered, s, m) = match built {
        Ok(x) => x,
        Err(f) => return Err((p.fe.sources, f)),
    };
    let sources = p.fe.sources;
    let name = s.kernel.name.to_string();
    let clock = std::time::Instant::now();
    let golden = match emu::emulate(&lowered, &m.args, EMU_STEP_LIMIT) {
        Ok(r) => r,
        Err(e) => return Err(fail(sources, e.to_diagnostic())),
    };
    let emulator_s = clock.elapsed().as_secs_f64();
    let cfg = sim_config(mem, p.spec.max_cycles);
    let clock = std::time::Instant::now();
    let sim = match kiln_simulator::simulate(&s, &m.args, &cfg, None) {
        Ok(r) => r,
        Err(e) => return Err(fail(sources, e.to_diagnostic())),
    };
    let simulator_s = clock.elapsed().as_secs_f64();
    if let Some(diff) = first_difference(&s.kernel, &golden.buffers, &sim.buffers, &m.elem_types) {
        let d = Diagnostic::error(
            codes::ENGINE_MISMATCH,
            format!("kernel `{name}`: the simulator disagrees with the emulator: {diff}"),
        )
        .with_note("this is a kiln bug: the optimized, scheduled kernel computes something else than the source");
        return Err(fail(sources, d));
    }
    let mut golden_prints = golden.printed.clone();
    let mut sim_prints: Vec<String> = sim.printed.iter().map(|(_, t)| t.clone()).collect();
    golden_prints.sort();
    sim_prints.sort();
    if golden_prints != sim_prints {
        let d = Diagnostic::error(
            codes::ENGINE_MISMATCH,
            format!(
                "kernel `{name}`: the simulator's `printf`s printed other text than the emulator's ({} prints, {} in the emulator)",
                sim_prints.len(),
                golden_prints.len()
            ),
        )
        .with_note("this is a kiln bug: a print ran a different number of times or with other values");
        return Err(fail(sources, d));
    }
    let (v, iface) = driver::build::emit_verilog(&s, &sources);
    let clock = std::time::Instant::now();
    let speed = if fast_model { cosim::ModelSpeed::Fastest } else { cosim::ModelSpeed::CompileFast };
    let model = match cosim::build_model(&v, &iface, speed, &cache_dir()) {
        Ok(m) => m,
        Err(e) => {
            return Err(fail(sources, Diagnostic::error(codes::TOOL_FAILED, e.to_string())));
        }
    };
    let verilator_build_s = clock.elapsed().as_secs_f64();
    let work = std::env::temp_dir().join("kiln-cosim-runs");
    let clock = std::time::Instant::now();
    let vl = match cosim::run_model(&model, &m.args, &cfg.mem, cfg.max_cycles, &work) {
        Ok(Ok(r)) => r,
        Ok(Err(ModelFault::Timeout(c))) => {
            let d = Diagnostic::error(
                codes::ENGINE_MISMATCH,
                format!(
                    "kernel `{name}`: the Verilator model did not finish within {c} cycles, but the simulator finished in {}",
                    sim.cycles
                ),
            );
            return Err(fail(sources, d));
        }
        Ok(Err(ModelFault::OutOfBounds(port, idx, write))) => {
            let pname = iface.memories.get(port).map(|p| p.prefix.clone()).unwrap_or_default();
            let d = Diagnostic::error(
                codes::ENGINE_MISMATCH,
                format!(
                    "kernel `{name}`: the Verilator model {} `{pname}[{idx}]` out of bounds, but the simulator did not",
                    if write { "wrote" } else { "read" }
                ),
            );
            return Err(fail(sources, d));
        }
        Err(e) => return Err(fail(sources, Diagnostic::error(codes::TOOL_FAILED, e.to_string()))),
    };
    let verilator_run_s = clock.elapsed().as_secs_f64();
    let mut problems = Vec::new();
    if let Some(diff) = first_difference(&s.kernel, &sim.buffers, &vl.buffers, &m.elem_types) {
        problems.push(format!("outputs differ: {diff} (simulator vs Verilator)"));
    }
    if vl.cycles != sim.cycles {
        problems.push(format!("cycle counts differ: simulator {} vs Verilator {}", sim.cycles, vl.cycles));
    }
    if !problems.is_empty() {
        let mut d = Diagnostic::error(
            codes::ENGINE_MISMATCH,
            format!("kernel `{name}`: Verilator disagrees with the simulator"),
        )
        .with_note(describe_mem(&cfg.mem));
        for pr in problems {
            d = d.with_note(pr);
        }
        return Err(fail(sources, d));
    }
    let out = RunOutput {
        kernel: &s.kernel,
        engine: "verilator",
        cycles: Some(vl.cycles),
        buffers: vl.buffers,
        elem_types: m.elem_types,
        // Verilator runs the hardware, which prints nothing: the prints are the simulator's.
        printed: sim.printed.into_iter().map(|(c, t)| (Some(c), t)).collect(),
    };
    let _ = io.out.write_all(out.printed_text().as_bytes());
    let _ = writeln!(
        io.out,
        "cosim: {name}: emulator, simulator and Verilator agree; {} cycles ({})",
        vl.cycles,
        describe_mem(&cfg.mem)
    );
    let _ = io.out.write_all(out.summary().as_bytes());
    if let Some(path) = json {
        let mut value = out.to_json();
        add_timing(&mut value, [emulator_s, simulator_s, verilator_build_s, verilator_run_s]);
        let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
        write_atomic(path, text.as_bytes()).map_err(|d| fail(clone_sources(&sources), d))?;
    }
    Ok(())
}

/// Adds a cosim's `timing` to its results JSON: the wall time of each phase in seconds, in the
/// order emulator, simulator, Verilator build (near zero when the model is cached), Verilator run.
pub(crate) fn add_timing(value: &mut serde_json::Value, phases: [f64; 4]) {
    if let Some(o) = value.as_object_mut() {
        let [emulator_s, simulator_s, verilator_build_s, verilator_run_s] = phases;
        o.insert(
            "timing".into(),
            serde_json::json!({
                "emulator_s": emulator_s,
                "simulator_s": simulator_s,
                "verilator_build_s": verilator_build_s,
                "verilator_run_s": verilator_run_s,
            }),
        );
    }
}

fn explain(code: Option<&str>, io: &mut Io) -> CmdResult {
    use kiln_diagnostics::codes::{ALL, describe};
    match code {
        Some(c) => match describe(&c.to_ascii_uppercase()) {
            Some(d) => {
                let _ = writeln!(io.out, "{}: {d}", c.to_ascii_uppercase());
                Ok(())
            }
            None => Err(fail(
                SourceMap::new(),
                Diagnostic::error(codes::BAD_OPTION, format!("unknown diagnostic code `{c}`")),
            )),
        },
        None => {
            for (c, d) in ALL {
                let _ = writeln!(io.out, "{c}  {d}");
            }
            Ok(())
        }
    }
}
