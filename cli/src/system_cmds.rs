//! `kiln emu`, `kiln sim` and `kiln cosim` of systems: run specs with `[[launch]]` tables, whose
//! kernels run concurrently and exchange packets through FIFOs.

use crate::commands::{
    CmdResult, EMU_STEP_LIMIT, cache_dir, clone_sources, compile_options, describe_mem, fail, front, run_local_size,
    sim_config, spec_local_size, write_atomic,
};
use crate::runspec::ElemType;
use crate::system::{self, SystemRun, SystemSpec};
use crate::waveform::Waveform;
use crate::{CompileArgs, HwArgs, Io, MemArgs};
use cranelift_entity::SecondaryMap;
use kiln_dataflow::Kernel;
use kiln_dataflow::emu::{self, RunError};
use kiln_diagnostics::SourceMap;
use kiln_diagnostics::{Diagnostic, codes};
use kiln_driver::{self as driver, Failure, Frontend};
use kiln_rtl_gen::system::{SystemFifo, SystemInstance};
use kiln_scheduler::Schedule;
use kiln_simulator::SimConfig;
use kiln_simulator::cosim::{self, ModelFault};
use kiln_simulator::sim::system::{SystemKernel, SystemResult, simulate_system};
use kiln_simulator::trace::Trace;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

type Named = BTreeMap<String, (Vec<u64>, ElemType)>;

/// A system run spec with its kernels compiled and its arguments bound.
struct Loaded {
    fe: Frontend,
    spec: SystemSpec,
    /// Per launch: the kernel as lowered (the emulator's input).
    lowered: Vec<Kernel>,
    /// Per launch: the optimized, scheduled kernel (when hardware was asked for).
    schedules: Vec<Schedule>,
    run: SystemRun,
}

fn load(
    file: &Path,
    spec_path: &Path,
    compile: &CompileArgs,
    hw: Option<&HwArgs>,
    io: &mut Io,
) -> Result<Loaded, (SourceMap, Failure)> {
    let mut sources = SourceMap::new();
    let text = match std::fs::read_to_string(spec_path) {
        Ok(t) => t,
        Err(e) => {
            let d = Diagnostic::error(codes::IO_READ, format!("cannot read run spec `{}`: {e}", spec_path.display()));
            return Err(fail(sources, d));
        }
    };
    let spec_file = sources.add(spec_path.display().to_string(), Some(spec_path.to_path_buf()), text);
    let spec = match system::parse(spec_file, &sources) {
        Ok(s) => s,
        Err(d) => return Err(fail(sources, d)),
    };
    let hw = match hw.map(crate::commands::hw_options).transpose() {
        Ok(h) => h,
        Err(d) => return Err(fail(sources, d)),
    };
    let opts = compile_options(compile, &spec.defines)?;
    let fe = front(sources, file, &opts, io)?;
    let ids: Vec<kiln_hir::FuncId> =
        spec.launches.iter().filter_map(|l| driver::session::find_kernel(&fe.program, &l.kernel, None).ok()).collect();
    if let Some(d) = driver::system::shared_program_globals(&fe.program, &ids) {
        return Err(fail(fe.sources, d));
    }
    let mut lowered = Vec::new();
    for l in &spec.launches {
        let built = driver::session::find_kernel(&fe.program, &l.kernel, Some(l.kernel_span)).and_then(|id| {
            driver::session::lower(&fe.program, id, spec_local_size(l), &crate::runspec::local_args(&l.args))
        });
        match built {
            Ok(k) => lowered.push(k),
            Err(f) => return Err((fe.sources, f)),
        }
    }
    let refs: Vec<&Kernel> = lowered.iter().collect();
    let run = match system::materialize(&spec, &refs) {
        Ok(r) => r,
        Err(d) => return Err((fe.sources, Failure::from(d))),
    };
    let mut schedules = Vec::new();
    if let Some(hw) = &hw {
        let edges: Vec<(usize, usize)> = run.fifos.iter().map(|f| (f.writer.0, f.reader.0)).collect();
        let strict = driver::system::on_cycles(&edges, lowered.len());
        for (i, l) in spec.launches.iter().enumerate() {
            let mut hw = hw.clone();
            hw.local_size = run_local_size(&hw, l);
            hw.local_args = crate::runspec::local_args(&l.args);
            hw.strict_pipe_order = strict[i];
            match driver::build_kernel(&fe, &l.kernel, Some(l.kernel_span), &hw) {
                Ok(b) => schedules.push(b.schedule),
                Err(f) => return Err((fe.sources, f)),
            }
        }
    }
    Ok(Loaded { fe, spec, lowered, schedules, run })
}

impl Loaded {
    fn kernels(&self) -> Vec<&Kernel> {
        self.lowered.iter().collect()
    }

    fn names(&self) -> String {
        self.lowered.iter().map(|k| k.name.to_string()).collect::<Vec<_>>().join(" + ")
    }

    /// The emulator's run; `window`: failed polls in a row, with nothing moving, after which a
    /// polling kernel counts as waiting (`--deadlock-cycles`).
    fn emulate(&self, window: u64) -> Result<Vec<Vec<Option<Vec<u64>>>>, RunError> {
        let launches: Vec<emu::Launch> = self
            .lowered
            .iter()
            .zip(&self.run.args)
            .zip(&self.run.fifo_of)
            .map(|((k, m), f)| emu::Launch { kernel: k, args: m.args.clone(), fifo_of: f.clone() })
            .collect();
        let results = emu::run_system(&launches, &self.run.fifo_specs(), EMU_STEP_LIMIT, window)?;
        Ok(results.into_iter().map(|r| r.buffers).collect())
    }

    fn simulate(&self, cfg: &SimConfig, trace: Option<&mut Trace>) -> Result<SystemResult, RunError> {
        let kernels: Vec<SystemKernel> = self
            .schedules
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut fifo_of = SecondaryMap::new();
                for (p, _) in s.kernel.pipes.iter() {
                    fifo_of[p] = Some(self.run.fifo_of[i][p]);
                }
                SystemKernel { schedule: s, args: self.run.args[i].args.clone(), fifo_of }
            })
            .collect();
        simulate_system(&kernels, &self.run.fifo_specs(), cfg, trace)
    }

    fn named(&self, per_launch: &[Vec<Option<Vec<u64>>>]) -> Named {
        self.run.named_buffers(&self.kernels(), per_launch)
    }

    fn max_cycles(&self) -> Option<u64> {
        self.spec.max_cycles
    }
}

/// `kiln emu` of a system spec.
pub(crate) fn emulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    deadlock_window: u64,
    compile: &CompileArgs,
    io: &mut Io,
) -> CmdResult {
    let l = load(file, spec, compile, None, io)?;
    let buffers = match l.emulate(deadlock_window) {
        Ok(b) => b,
        Err(e) => return Err(fail(l.fe.sources, e.to_diagnostic())),
    };
    let named = l.named(&buffers);
    let _ = writeln!(io.out, "emu: system {} finished", l.names());
    let _ = io.out.write_all(system::summary(&named).as_bytes());
    write_results(json, &system::results_json("emu", &l.kernels(), None, None, &named), l.fe.sources)
}

fn write_results(json: Option<&Path>, value: &serde_json::Value, sources: SourceMap) -> CmdResult {
    if let Some(p) = json {
        let text = serde_json::to_string_pretty(value).unwrap_or_default() + "\n";
        if let Err(d) = write_atomic(p, text.as_bytes()) {
            return Err(fail(sources, d));
        }
    }
    Ok(())
}

fn per_kernel_cycles(l: &Loaded, r: &SystemResult) -> String {
    let parts: Vec<String> =
        l.lowered.iter().zip(&r.kernels).map(|(k, s)| format!("`{}` done in cycle {}", k.name, s.cycles)).collect();
    parts.join(", ")
}

/// `kiln sim` of a system spec.
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    vcd: Option<&Path>,
    compile: &CompileArgs,
    hw: &HwArgs,
    mem: &MemArgs,
    io: &mut Io,
) -> CmdResult {
    let l = load(file, spec, compile, Some(hw), io)?;
    let cfg = sim_config(mem, l.max_cycles());
    let names: Vec<&str> = l.lowered.iter().map(|k| &*k.name).collect();
    let scopes = instance_names(&names);
    let kernels: Vec<(&str, &Schedule)> = scopes.iter().map(String::as_str).zip(l.schedules.iter()).collect();
    let fifos: Vec<(String, u32)> = l.run.fifo_specs().into_iter().map(|f| (f.name, f.depth)).collect();
    let mut wave = match vcd.map(|path| Waveform::system(path, &kernels, &fifos)).transpose() {
        Ok(w) => w,
        Err(d) => return Err(fail(l.fe.sources, d)),
    };
    let run = l.simulate(&cfg, wave.as_mut().map(|w| &mut w.trace));
    let saved = wave.map(Waveform::save).transpose();
    let r = match (run, saved) {
        (Ok(r), Ok(_)) => r,
        (Err(e), _) => return Err(fail(l.fe.sources, e.to_diagnostic())),
        (_, Err(d)) => return Err(fail(l.fe.sources, d)),
    };
    if let Some(v) = vcd {
        let _ = writeln!(io.out, "waveform: {}", v.display());
    }
    let buffers: Vec<Vec<Option<Vec<u64>>>> = r.kernels.iter().map(|k| k.buffers.clone()).collect();
    let named = l.named(&buffers);
    let _ = writeln!(
        io.out,
        "sim: system {} finished in {} cycles ({}; {})",
        l.names(),
        r.cycles,
        describe_mem(&cfg.mem),
        per_kernel_cycles(&l, &r)
    );
    let _ = io.out.write_all(system::summary(&named).as_bytes());
    let done: Vec<u64> = r.kernels.iter().map(|k| k.cycles).collect();
    let results = system::results_json("sim", &l.kernels(), Some(r.cycles), Some(&done), &named);
    write_results(json, &results, l.fe.sources)
}

/// The first difference between two engines' named buffers.
fn named_difference(a: &Named, b: &Named) -> Option<String> {
    for (name, (x, ty)) in a {
        let Some((y, _)) = b.get(name) else { return Some(format!("buffer `{name}` is missing")) };
        if x.len() != y.len() {
            return Some(format!("buffer `{name}` has {} vs {} elements", x.len(), y.len()));
        }
        if let Some(i) = (0..x.len()).find(|i| x[*i] != y[*i]) {
            return Some(format!("`{name}[{i}]` is {} vs {}", ty.show(x[i]), ty.show(y[i])));
        }
    }
    None
}

/// Instance names of the launches: the kernel's name, numbered when a kernel is launched twice.
pub(crate) fn instance_names(kernels: &[&str]) -> Vec<String> {
    kernels
        .iter()
        .enumerate()
        .map(|(i, k)| if kernels.iter().filter(|x| *x == k).count() > 1 { format!("{k}_{i}") } else { k.to_string() })
        .collect()
}

/// `kiln cosim` of a system spec: the emulator, the simulator and Verilator on the system's
/// top level must agree on every named buffer, and the last two on the cycle count; a deadlock
/// must be a deadlock in all three.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cosimulate(
    file: &Path,
    spec: &Path,
    json: Option<&Path>,
    fast_model: bool,
    compile: &CompileArgs,
    hw: &HwArgs,
    mem: &MemArgs,
    io: &mut Io,
) -> CmdResult {
    let l = load(file, spec, compile, Some(hw), io)?;
    let cfg = sim_config(mem, l.max_cycles());
    let names = l.names();
    let clock = Instant::now();
    let golden = l.emulate(cfg.deadlock_cycles);
    let emulator_s = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let sim = l.simulate(&cfg, None);
    let simulator_s = clock.elapsed().as_secs_f64();
    let speed = if fast_model { cosim::ModelSpeed::Fastest } else { cosim::ModelSpeed::CompileFast };
    let mismatch = |msg: String| Diagnostic::error(codes::ENGINE_MISMATCH, format!("system {names}: {msg}"));
    let (golden, sim) = match (golden, sim) {
        (Ok(g), Ok(s)) => (g, s),
        (Err(RunError::Deadlock { .. }), Err(e @ RunError::Deadlock { .. })) => {
            return confirm_deadlock(&l, &cfg, speed, e, io);
        }
        (Err(e), Ok(_)) => {
            let d = e.to_diagnostic().with_note("the simulator finished: this is a kiln bug (engine mismatch)");
            return Err(fail(l.fe.sources, d));
        }
        (_, Err(e)) => return Err(fail(l.fe.sources, e.to_diagnostic())),
    };
    let sim_buffers: Vec<Vec<Option<Vec<u64>>>> = sim.kernels.iter().map(|k| k.buffers.clone()).collect();
    let (golden_named, sim_named) = (l.named(&golden), l.named(&sim_buffers));
    if let Some(diff) = named_difference(&golden_named, &sim_named) {
        let d = mismatch(format!("the simulator disagrees with the emulator: {diff}"))
            .with_note("this is a kiln bug: the scheduled kernels compute something else than the source");
        return Err(fail(l.fe.sources, d));
    }
    let clock = Instant::now();
    let (model, offsets) = match build_model(&l, speed) {
        Ok(m) => m,
        Err(e) => return Err(fail(l.fe.sources, Diagnostic::error(codes::TOOL_FAILED, e.to_string()))),
    };
    let flat: Vec<emu::Arg> = l.run.args.iter().flat_map(|m| m.args.iter().cloned()).collect();
    let verilator_build_s = clock.elapsed().as_secs_f64();
    let work = std::env::temp_dir().join("kiln-cosim-runs");
    let clock = Instant::now();
    let vl = match cosim::run_model(&model, &flat, &cfg.mem, cfg.max_cycles, &work) {
        Ok(Ok(r)) => r,
        Ok(Err(ModelFault::Timeout(c))) => {
            let d = mismatch(format!(
                "the Verilator model did not finish within {c} cycles, but the simulator finished in {}",
                sim.cycles
            ));
            return Err(fail(l.fe.sources, d));
        }
        Ok(Err(ModelFault::OutOfBounds(port, idx, write))) => {
            let pname = model.interface.memories.get(port).map(|p| p.prefix.clone()).unwrap_or_default();
            let d = mismatch(format!(
                "the Verilator model {} `{pname}[{idx}]` out of bounds, but the simulator did not",
                if write { "wrote" } else { "read" }
            ));
            return Err(fail(l.fe.sources, d));
        }
        Err(e) => return Err(fail(l.fe.sources, Diagnostic::error(codes::TOOL_FAILED, e.to_string()))),
    };
    let verilator_run_s = clock.elapsed().as_secs_f64();
    let vl_buffers: Vec<Vec<Option<Vec<u64>>>> = offsets
        .iter()
        .zip(&l.lowered)
        .map(|(base, k)| (0..k.params.len()).map(|p| vl.buffers.get(base + p).cloned().flatten()).collect())
        .collect();
    let vl_named = l.named(&vl_buffers);
    let mut problems = Vec::new();
    if let Some(diff) = named_difference(&sim_named, &vl_named) {
        problems.push(format!("outputs differ: {diff} (simulator vs Verilator)"));
    }
    if vl.cycles != sim.cycles {
        problems.push(format!("cycle counts differ: simulator {} vs Verilator {}", sim.cycles, vl.cycles));
    }
    if !problems.is_empty() {
        let mut d = mismatch("Verilator disagrees with the simulator".into()).with_note(describe_mem(&cfg.mem));
        for p in problems {
            d = d.with_note(p);
        }
        return Err(fail(l.fe.sources, d));
    }
    let _ = writeln!(
        io.out,
        "cosim: system {names}: emulator, simulator and Verilator agree; {} cycles ({}; {})",
        vl.cycles,
        describe_mem(&cfg.mem),
        per_kernel_cycles(&l, &sim)
    );
    let _ = io.out.write_all(system::summary(&vl_named).as_bytes());
    let mut value = system::results_json("verilator", &l.kernels(), Some(vl.cycles), None, &vl_named);
    crate::commands::add_timing(&mut value, [emulator_s, simulator_s, verilator_build_s, verilator_run_s]);
    write_results(json, &value, l.fe.sources)
}

/// Both the emulator and the simulator found a deadlock (`sim_err` is the simulator's): the
/// Verilator model must not finish either within twice the deadlock window and more.
fn confirm_deadlock(
    l: &Loaded,
    cfg: &SimConfig,
    speed: cosim::ModelSpeed,
    sim_err: RunError,
    io: &mut Io,
) -> CmdResult {
    let (model, _) = match build_model(l, speed) {
        Ok(m) => m,
        Err(err) => {
            return Err(fail(clone_sources(&l.fe.sources), Diagnostic::error(codes::TOOL_FAILED, err.to_string())));
        }
    };
    let flat: Vec<emu::Arg> = l.run.args.iter().flat_map(|m| m.args.iter().cloned()).collect();
    let work = std::env::temp_dir().join("kiln-cosim-runs");
    let horizon = 2 * cfg.deadlock_cycles + 100_000;
    let d = sim_err.to_diagnostic();
    match cosim::run_model(&model, &flat, &cfg.mem, horizon, &work) {
        Ok(Err(ModelFault::Timeout(_))) => {
            let _ = writeln!(io.err, "cosim: the Verilator model did not finish within {horizon} cycles either");
            Err(fail(
                clone_sources(&l.fe.sources),
                d.with_note("the emulator, the simulator and Verilator all deadlock"),
            ))
        }
        Ok(_) => Err(fail(
            clone_sources(&l.fe.sources),
            Diagnostic::error(codes::ENGINE_MISMATCH, "the simulator deadlocks but the Verilator model does not")
                .with_note("this is a kiln bug"),
        )),
        Err(err) => Err(fail(clone_sources(&l.fe.sources), Diagnostic::error(codes::TOOL_FAILED, err.to_string()))),
    }
}

/// The Verilator model of the system's top level, and each launch's first parameter in the
/// model's flat parameter numbering.
fn build_model(l: &Loaded, speed: cosim::ModelSpeed) -> Result<(cosim::Model, Vec<usize>), cosim::CosimError> {
    let kernel_names: Vec<&str> = l.lowered.iter().map(|k| &*k.name).collect();
    let inst = instance_names(&kernel_names);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut instances = Vec::new();
    let mut offsets = Vec::new();
    let mut base = 0;
    for (i, s) in l.schedules.iter().enumerate() {
        let (v, iface) = driver::build::emit_verilog(s, &l.fe.sources);
        files.insert(v.name, v.text);
        offsets.push(base);
        base += s.kernel.params.len();
        instances.push(SystemInstance { name: inst[i].clone(), interface: iface, params: s.kernel.params.len() });
    }
    let fifos = system_fifos(&l.schedules.iter().collect::<Vec<_>>(), &l.run);
    let top_name = driver::system::top_module_name(&kernel_names);
    let (tops, iface) = kiln_rtl_gen::system::system_top(&top_name, &instances, &fifos);
    for f in tops {
        files.insert(f.name, f.text);
    }
    let files: Vec<(String, String)> = files.into_iter().collect();
    let harness = cosim::harness(&iface);
    let binary = cosim::verilate(&top_name, &top_name, &files, &harness, speed, &cache_dir())?;
    Ok((cosim::Model { binary, interface: iface }, offsets))
}

/// The FIFOs of a system run, as the top level connects them.
fn system_fifos(schedules: &[&Schedule], run: &SystemRun) -> Vec<SystemFifo> {
    run.fifos
        .iter()
        .map(|f| {
            let end = |(li, p): (usize, kiln_dataflow::ir::Pipe)| {
                (li, format!("pipe_{}", schedules[li].kernel.pipes[p].ident()))
            };
            SystemFifo {
                name: f.name.clone(),
                width: f.width,
                depth: f.depth,
                writer: end(f.writer),
                reader: end(f.reader),
            }
        })
        .collect()
}

/// A run spec describes a system.
pub(crate) fn is_system_spec(spec: &Path) -> bool {
    std::fs::read_to_string(spec).is_ok_and(|t| system::is_system(&t))
}
