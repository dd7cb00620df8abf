//! The bitstream flow: the PLL, then the board's steps (synthesis, place and route, packing)
//! run one after the other in the output directory, each logging to its own file, with a
//! progress display; a step marked `split_kernel` runs on the kernel's and the board's halves
//! of the design at once and their netlists are joined. Then the logs are read back into a
//! [`FlowSummary`].

use crate::board::{Board, PllTool, Step};
use crate::report::{self, Utilization};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Debug, PartialEq)]
pub enum FlowError {
    /// A program of the flow is not installed.
    ToolMissing {
        program: String,
        hint: String,
    },
    /// A program failed; `excerpt` holds the log lines that say why.
    ToolFailed {
        step: String,
        program: String,
        log: PathBuf,
        excerpt: Vec<String>,
    },
    /// The board cannot make the requested clock.
    Clock(String),
    Io(String),
}

impl std::fmt::Display for FlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlowError::ToolMissing { program, hint } => write!(f, "`{program}` is not installed ({hint})"),
            FlowError::ToolFailed { step, program, log, excerpt } => {
                write!(f, "{step} failed: `{program}` reported an error (log: {})", log.display())?;
                for l in excerpt {
                    write!(f, "\n    {l}")?;
                }
                Ok(())
            }
            FlowError::Clock(m) | FlowError::Io(m) => write!(f, "{m}"),
        }
    }
}

/// Where kiln keeps the Python virtual environment with the YoWASP tools and their compile
/// cache: `$KILN_TOOLS_DIR`, else `~/.cache/kiln/tools` (`scripts/install-tools.sh` fills it).
pub fn tools_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("KILN_TOOLS_DIR") {
        return PathBuf::from(d);
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h).join(".cache").join("kiln").join("tools"),
        None => std::env::temp_dir().join("kiln-tools"),
    }
}

/// A program on `PATH`, else in kiln's tools environment.
pub fn find_tool(program: &str) -> Option<PathBuf> {
    let in_dir = |d: &Path| {
        let p = d.join(program);
        p.is_file().then_some(p)
    };
    if let Some(p) = std::env::var_os("PATH").and_then(|path| std::env::split_paths(&path).find_map(|d| in_dir(&d))) {
        return Some(p);
    }
    in_dir(&tools_dir().join("venv").join("bin"))
}

fn install_hint(program: &str) -> String {
    let apt = match program {
        "yosys" => Some("yosys"),
        "nextpnr-ice40" => Some("nextpnr-ice40"),
        "icepack" | "icepll" | "icetime" => Some("fpga-icestorm"),
        _ => None,
    };
    match apt {
        Some(pkg) => format!("on Debian/Ubuntu: `apt-get install {pkg}`; `scripts/install-tools.sh` does it"),
        None => format!(
            "it comes from PyPI: `scripts/install-tools.sh` installs it into {}",
            tools_dir().join("venv").display()
        ),
    }
}

fn command(program: &str) -> Result<Command, FlowError> {
    let path = find_tool(program)
        .ok_or_else(|| FlowError::ToolMissing { program: program.into(), hint: install_hint(program) })?;
    let mut c = Command::new(path);
    // YoWASP compiles its WebAssembly on first use; keep that in one cache for every run.
    if std::env::var_os("YOWASP_CACHE_DIR").is_none() {
        c.env("YOWASP_CACHE_DIR", tools_dir().join("yowasp-cache"));
    }
    Ok(c)
}

/// The kernel clock a board will run at.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockPlan {
    pub requested_mhz: f64,
    /// What the PLL makes (or the oscillator, without a PLL).
    pub achieved_mhz: f64,
    /// `kiln_pll.v` when a PLL is needed.
    pub pll_verilog: Option<String>,
}

/// Decides how the kernel clock is made; runs the board's PLL tool in `work` when the requested
/// clock differs from the oscillator.
pub fn plan_clock(board: &Board, requested_mhz: f64, work: &Path) -> Result<ClockPlan, FlowError> {
    let osc = board.clock.mhz;
    if (requested_mhz - osc).abs() < 1e-6 {
        return Ok(ClockPlan { requested_mhz, achieved_mhz: osc, pll_verilog: None });
    }
    let io = |e: std::io::Error| FlowError::Io(format!("cannot use {}: {e}", work.display()));
    std::fs::create_dir_all(work).map_err(io)?;
    let (program, args, marker): (&str, Vec<String>, &str) = match board.pll {
        PllTool::None => {
            return Err(FlowError::Clock(format!(
                "board `{}` runs kernels at its {osc} MHz oscillator (kiln has no PLL support for it yet); \
                 use `--clock-mhz {osc}` or leave the option out",
                board.name
            )));
        }
        PllTool::Icepll => (
            "icepll",
            [
                "-i",
                &osc.to_string(),
                "-o",
                &requested_mhz.to_string(),
                "-m",
                "-p",
                "-n",
                "kiln_pll",
                "-f",
                "kiln_pll.v",
            ]
            .map(String::from)
            .to_vec(),
            "(achieved)",
        ),
        PllTool::Ecppll => (
            "yowasp-ecppll",
            [
                "-i",
                &osc.to_string(),
                "-o",
                &requested_mhz.to_string(),
                "-n",
                "kiln_pll",
                "-f",
                "kiln_pll.v",
                "--clkin_name",
                "clock_in",
                "--clkout0_name",
                "clock_out",
            ]
            .map(String::from)
            .to_vec(),
            "clkout0 frequency",
        ),
    };
    let out = command(program)?
        .args(&args)
        .current_dir(work)
        .output()
        .map_err(|e| FlowError::Io(format!("cannot run {program}: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let achieved = text.lines().filter(|l| l.contains(marker)).find_map(report::first_number);
    let verilog = std::fs::read_to_string(work.join("kiln_pll.v")).ok();
    match (out.status.success(), achieved, verilog) {
        (true, Some(achieved_mhz), Some(v)) => Ok(ClockPlan { requested_mhz, achieved_mhz, pll_verilog: Some(v) }),
        _ => Err(FlowError::Clock(format!(
            "{program} cannot make {requested_mhz} MHz from the {osc} MHz oscillator:\n{}",
            text.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n")
        ))),
    }
}

/// How long one step took.
#[derive(Clone, Debug, Serialize)]
pub struct StepTime {
    pub step: String,
    /// The tool and its arguments as run (in the output directory); a split step's first run.
    pub command: Vec<String>,
    /// The step's wall-clock time (a split step's runs overlap).
    pub seconds: f64,
    /// A split step's runs, one per half of the design.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub halves: Vec<HalfTime>,
    /// A step's placements, when it places several times.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<PlacementTime>,
}

/// One run of a split step.
#[derive(Clone, Debug, Serialize)]
pub struct HalfTime {
    pub half: String,
    pub command: Vec<String>,
    pub log: PathBuf,
    pub seconds: f64,
}

/// One placement of a step that places several times ([`Step::placements`]).
#[derive(Clone, Debug, Serialize)]
pub struct PlacementTime {
    pub seed: u64,
    pub command: Vec<String>,
    /// Its log (a stopped placement's is removed: it never finished).
    pub log: PathBuf,
    pub seconds: f64,
    pub fmax_mhz: Option<f64>,
    pub outcome: PlacementOutcome,
}

/// What became of a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlacementOutcome {
    /// Its result is the step's.
    Kept,
    /// It finished, and another was kept.
    Finished,
    /// It was stopped: a placement before it met the clock.
    Stopped,
    /// The tool failed on it.
    Failed,
}

/// What the flow produced, as `summary.json` and the printed table.
#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    pub board: String,
    pub part: String,
    pub kernel: String,
    pub requested_mhz: f64,
    pub kernel_clock_mhz: f64,
    pub pll: bool,
    /// nextpnr's maximum frequency for the kernel clock after routing.
    pub fmax_mhz: Option<f64>,
    pub timing_met: bool,
    /// The scheduler's estimate of the longest combinational path, and nextpnr's (1000 / Fmax).
    pub estimated_critical_path_ns: f64,
    pub routed_critical_path_ns: Option<f64>,
    pub resources: Vec<Utilization>,
    pub steps: Vec<StepTime>,
    /// The seed of the placement kept (`--seed` itself where the board places once).
    pub placement_seed: u64,
    pub flow_seconds: f64,
    pub bitstream: PathBuf,
}

/// The Verilog files of a board design (names in the output directory, already written), by
/// half: what a split step ([`crate::board::Step::split_kernel`]) synthesizes apart.
#[derive(Clone, Debug)]
pub struct DesignSources {
    /// The kernel, its shell ([`crate::top::kernel_shell`]) and the RAMs' module.
    pub kernel: Vec<String>,
    /// The top level, the bridge, the PLL.
    pub board: Vec<String>,
    /// The shell's black box ([`crate::top::kernel_shell_blackbox`]), read with `board` when
    /// the halves are synthesized apart.
    pub kernel_blackbox: String,
}

/// The inputs of one flow run.
pub struct FlowRun<'a> {
    pub board: &'a Board,
    pub kernel: &'a str,
    pub out_dir: &'a Path,
    pub sources: DesignSources,
    /// The constraint file's name (already written).
    pub constraints: String,
    pub clock: ClockPlan,
    pub estimated_critical_path_ns: f64,
    /// The placement seed (`{seed}` in a step's arguments).
    pub seed: u64,
    /// Show a spinner on the terminal.
    pub progress: bool,
}

/// Which part of the design a run of a step works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Half {
    Whole,
    Kernel,
    Board,
}

impl Half {
    /// The runs of a step: one on the whole design, or one per half for a split step.
    fn of(step: &Step) -> &'static [Half] {
        if step.split_kernel { &[Half::Kernel, Half::Board] } else { &[Half::Whole] }
    }

    fn name(self) -> &'static str {
        match self {
            Half::Whole => "whole",
            Half::Kernel => "kernel",
            Half::Board => "board",
        }
    }

    /// The netlist the run writes (`{json}`); the halves' are joined into the whole's.
    fn json(self) -> &'static str {
        match self {
            Half::Whole => "top.json",
            Half::Kernel => "kernel.json",
            Half::Board => "board.json",
        }
    }

    /// The run's log: the step's, or for a half the step's with the half's name before the
    /// extension (`synth.log` -> `synth-kernel.log`).
    fn log(self, step_log: &str) -> String {
        if self == Half::Whole {
            return step_log.to_string();
        }
        match step_log.rsplit_once('.') {
            Some((stem, ext)) => format!("{stem}-{}.{ext}", self.name()),
            None => format!("{step_log}-{}", self.name()),
        }
    }
}

/// A placement's own name for a step's output or log: `top.asc` -> `top-seed3.asc`.
fn seeded(file: &str, seed: u64) -> String {
    match file.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}-seed{seed}.{ext}"),
        None => format!("{file}-seed{seed}"),
    }
}

/// Whether `name` is `file` under some placement's name ([`seeded`]).
fn is_seeded(name: &str, file: &str) -> bool {
    let (stem, ext) = match file.rsplit_once('.') {
        Some((stem, ext)) => (stem, Some(ext)),
        None => (file, None),
    };
    let rest = match ext {
        Some(ext) => name.strip_suffix(&format!(".{ext}")),
        None => Some(name),
    };
    rest.and_then(|r| r.strip_prefix(&format!("{stem}-seed")))
        .is_some_and(|seed| !seed.is_empty() && seed.bytes().all(|b| b.is_ascii_digit()))
}

/// Removes what earlier runs' placements left in `out_dir` (the logs of placements not kept),
/// so that the directory holds only this run's.
fn remove_earlier_placements(out_dir: &Path, files: &[&str]) {
    let Ok(entries) = std::fs::read_dir(out_dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if files.iter().any(|f| is_seeded(&name, f)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A step's arguments for one run: `half` of the design, placement seed `seed`, writing
/// `output`.
fn arguments(step: &Step, run: &FlowRun, half: Half, seed: u64, output: &str) -> Vec<String> {
    step.args.iter().flat_map(|a| substitute(a, run, half, seed, output)).collect()
}

fn substitute(arg: &str, run: &FlowRun, half: Half, seed: u64, output: &str) -> Vec<String> {
    let files = &run.sources;
    if arg == "{sources}" {
        return match half {
            Half::Whole => files.kernel.iter().chain(&files.board).cloned().collect(),
            Half::Kernel => files.kernel.clone(),
            Half::Board => files.board.iter().chain(std::iter::once(&files.kernel_blackbox)).cloned().collect(),
        };
    }
    let top = if half == Half::Kernel { crate::top::KERNEL_SHELL_MODULE } else { crate::top::TOP_MODULE };
    vec![
        arg.replace("{top}", top)
            .replace("{json}", half.json())
            .replace("{constraints}", &run.constraints)
            .replace("{mhz}", &format!("{:.2}", run.clock.achieved_mhz))
            .replace("{seed}", &seed.to_string())
            .replace("{output}", output),
    ]
}

/// The lines of a failed tool's log that say why: its error lines, else its last lines; and
/// what a placer error means, when it is the design not fitting the part.
fn excerpt(log: &str) -> Vec<String> {
    let errors: Vec<String> =
        log.lines().filter(|l| l.to_ascii_lowercase().contains("error")).map(|l| l.trim_end().to_string()).collect();
    let lines = if errors.is_empty() { log.lines().map(|l| l.trim_end().to_string()).collect() } else { errors };
    let skip = lines.len().saturating_sub(15);
    let mut out: Vec<String> = lines.into_iter().skip(skip).collect();
    if log.contains("no BELs remaining") || log.contains("Failed to expand region") {
        let over: Vec<String> = log.lines().filter_map(over_used).collect();
        let which = if over.is_empty() { String::new() } else { format!(": {}", over.join(", ")) };
        out.push(format!(
            "note: the design needs more of a cell type than the FPGA has{which} (the synthesis log's \
             statistics list the cells); multipliers, dividers and wide datapaths are the usual cause"
        ));
    }
    out
}

/// A line of nextpnr's utilization table whose cell type is used beyond what the part has
/// (`Info:          ICESTORM_LC:  5923/ 5280   112%`), as `5923 ICESTORM_LC of 5280`.
fn over_used(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("Info:")?.trim();
    let (cell, counts) = rest.split_once(':')?;
    let (used, rest) = counts.split_once('/')?;
    let mut words = rest.split_whitespace();
    let available = words.next()?;
    let percent = words.next()?.strip_suffix('%')?;
    let (used, available, percent) =
        (used.trim().parse::<u64>().ok()?, available.parse::<u64>().ok()?, percent.parse::<u64>().ok()?);
    (used > available && percent > 100).then(|| format!("{used} {} of {available}", cell.trim()))
}

/// One run of a step: its command line and its log.
struct Invocation {
    half: Half,
    program: String,
    args: Vec<String>,
    log: PathBuf,
}

impl Invocation {
    fn spawn(&self, out_dir: &Path) -> Result<std::process::Child, FlowError> {
        let io = |e: std::io::Error| FlowError::Io(format!("cannot write {}: {e}", self.log.display()));
        let log = std::fs::File::create(&self.log).map_err(io)?;
        let log2 = log.try_clone().map_err(io)?;
        command(&self.program)?
            .args(&self.args)
            .current_dir(out_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log2))
            .spawn()
            .map_err(|e| FlowError::Io(format!("cannot run {}: {e}", self.program)))
    }

    fn command_line(&self) -> Vec<String> {
        std::iter::once(self.program.clone()).chain(self.args.iter().cloned()).collect()
    }
}

/// Starts every run, or none: when one cannot start, those already started are stopped.
fn spawn_all(runs: &[Invocation], out_dir: &Path) -> Result<Vec<std::process::Child>, FlowError> {
    let mut children = Vec::new();
    for r in runs {
        match r.spawn(out_dir) {
            Ok(c) => children.push(c),
            Err(e) => {
                for mut c in children {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return Err(e);
            }
        }
    }
    Ok(children)
}

fn tool_failed(step: &Step, run: &Invocation) -> FlowError {
    let text = std::fs::read_to_string(&run.log).unwrap_or_default();
    FlowError::ToolFailed {
        step: step.name.clone(),
        program: step.program.clone(),
        log: run.log.clone(),
        excerpt: excerpt(&text),
    }
}

/// Runs a step's invocations at the same time and waits for all of them; the first that failed
/// (in order) is the step's error.
fn run_step(step: &Step, runs: &[Invocation], out_dir: &Path) -> Result<Vec<f64>, FlowError> {
    let started = Instant::now();
    let children = spawn_all(runs, out_dir)?;
    // Each run's own time: a thread per run waits for it.
    let outcomes: Vec<_> = std::thread::scope(|scope| {
        let waits: Vec<_> = runs
            .iter()
            .zip(children)
            .map(|(r, mut c)| {
                scope.spawn(move || {
                    let status = c.wait().map_err(|e| FlowError::Io(format!("cannot run {}: {e}", r.program)));
                    (status, started.elapsed().as_secs_f64())
                })
            })
            .collect();
        waits
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| (Err(FlowError::Io("a flow run's waiter failed".into())), 0.0)))
            .collect()
    });
    let mut seconds = Vec::new();
    for (r, (status, s)) in runs.iter().zip(outcomes) {
        if !status?.success() {
            return Err(tool_failed(step, r));
        }
        seconds.push(s);
    }
    Ok(seconds)
}

/// How a placement ended, as far as choosing between placements goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Placed {
    Running,
    Failed,
    Routed { fmax_mhz: Option<f64> },
}

/// Which placement to keep, once it is decided: the first whose Fmax meets `clock_mhz`, when
/// every one before it has finished without meeting it; when all have finished and none meets
/// it, the highest Fmax (the first on a tie). `Some(None)`: all failed. The choice depends on
/// the placements' results alone, never on which finished first, so a seed always gives the
/// same bitstream.
fn choose_placement(placed: &[Placed], clock_mhz: f64) -> Option<Option<usize>> {
    let meets = |f: Option<f64>| f.is_some_and(|f| f + 1e-9 >= clock_mhz);
    for (i, p) in placed.iter().enumerate() {
        match *p {
            Placed::Running => return None,
            Placed::Routed { fmax_mhz } if meets(fmax_mhz) => return Some(Some(i)),
            _ => {}
        }
    }
    let mut best: Option<(usize, f64)> = None;
    for (i, p) in placed.iter().enumerate() {
        if let Placed::Routed { fmax_mhz } = *p {
            let f = fmax_mhz.unwrap_or(f64::NEG_INFINITY);
            if best.is_none_or(|(_, b)| f > b) {
                best = Some((i, f));
            }
        }
    }
    Some(best.map(|(i, _)| i))
}

/// Runs a step's placements at once ([`Step::placements`]), each writing its own output and
/// log, and keeps one ([`choose_placement`]): its output and log take the step's names, the
/// placements still running are stopped and their files removed, and the others' outputs are
/// removed (their logs stay).
fn run_placements(step: &Step, run: &FlowRun) -> Result<Vec<PlacementTime>, FlowError> {
    let output = step.output.as_deref().ok_or_else(|| {
        FlowError::Io(format!(
            "board `{}`: step `{}` places several times but names no output",
            run.board.name, step.name
        ))
    })?;
    remove_earlier_placements(run.out_dir, &[output, &step.log]);
    let started = Instant::now();
    let seeds = step.placement_seeds(run.seed);
    let runs: Vec<Invocation> = seeds
        .iter()
        .map(|&seed| Invocation {
            half: Half::Whole,
            program: step.program.clone(),
            args: arguments(step, run, Half::Whole, seed, &seeded(output, seed)),
            log: run.out_dir.join(seeded(&step.log, seed)),
        })
        .collect();
    let mut children = spawn_all(&runs, run.out_dir)?;
    let mut placed = vec![Placed::Running; runs.len()];
    let mut seconds = vec![0.0; runs.len()];
    let kept = loop {
        for (i, child) in children.iter_mut().enumerate() {
            if placed[i] != Placed::Running {
                continue;
            }
            let status = match child.try_wait() {
                Ok(s) => s,
                Err(e) => {
                    for c in &mut children {
                        let _ = c.kill();
                        let _ = c.wait();
                    }
                    return Err(FlowError::Io(format!("cannot run {}: {e}", step.program)));
                }
            };
            if let Some(status) = status {
                seconds[i] = started.elapsed().as_secs_f64();
                placed[i] = if status.success() {
                    let log = std::fs::read_to_string(&runs[i].log).unwrap_or_default();
                    Placed::Routed { fmax_mhz: report::fmax_mhz(&log) }
                } else {
                    Placed::Failed
                };
            }
        }
        if let Some(kept) = choose_placement(&placed, run.clock.achieved_mhz) {
            break kept;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let remove = |name: &str| {
        let _ = std::fs::remove_file(run.out_dir.join(name));
    };
    let mut times = Vec::new();
    for (i, (r, child)) in runs.iter().zip(&mut children).enumerate() {
        let seed = seeds[i];
        let mut log = r.log.clone();
        let outcome = match placed[i] {
            Placed::Running => {
                let _ = child.kill();
                let _ = child.wait();
                seconds[i] = started.elapsed().as_secs_f64();
                remove(&seeded(output, seed));
                remove(&seeded(&step.log, seed));
                PlacementOutcome::Stopped
            }
            Placed::Failed => PlacementOutcome::Failed,
            Placed::Routed { .. } if kept == Some(i) => {
                let io = |e: std::io::Error| FlowError::Io(format!("cannot keep seed {seed}'s placement: {e}"));
                std::fs::rename(run.out_dir.join(seeded(output, seed)), run.out_dir.join(output)).map_err(io)?;
                log = run.out_dir.join(&step.log);
                std::fs::rename(&r.log, &log).map_err(io)?;
                PlacementOutcome::Kept
            }
            Placed::Routed { .. } => {
                remove(&seeded(output, seed));
                PlacementOutcome::Finished
            }
        };
        let fmax_mhz = match placed[i] {
            Placed::Routed { fmax_mhz } => fmax_mhz,
            _ => None,
        };
        times.push(PlacementTime { seed, command: r.command_line(), log, seconds: seconds[i], fmax_mhz, outcome });
    }
    match kept {
        Some(_) => Ok(times),
        None => Err(tool_failed(step, &runs[0])),
    }
}

/// Joins the netlists of a split step's halves into `top.json`: the board's, with the kernel
/// shell's module (a black box there) replaced by the kernel half's. nextpnr flattens the
/// hierarchy when it reads the netlist.
fn join_netlists(out_dir: &Path) -> Result<(), FlowError> {
    let read = |half: Half| -> Result<serde_json::Value, FlowError> {
        let path = out_dir.join(half.json());
        let text = std::fs::read_to_string(&path)
            .map_err(|e| FlowError::Io(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text).map_err(|e| FlowError::Io(format!("{} is not a netlist: {e}", path.display())))
    };
    let (mut board, kernel) = (read(Half::Board)?, read(Half::Kernel)?);
    let shell = crate::top::KERNEL_SHELL_MODULE;
    let missing =
        |half: Half| FlowError::Io(format!("{} has no module `{shell}`", out_dir.join(half.json()).display()));
    let mut module = kernel.get("modules").and_then(|m| m.get(shell)).cloned().ok_or_else(|| missing(Half::Kernel))?;
    // The kernel half's top; the joined netlist has one, the board's.
    if let Some(attributes) = module.get_mut("attributes").and_then(|a| a.as_object_mut()) {
        attributes.remove("top");
    }
    let modules = board.get_mut("modules").and_then(|m| m.as_object_mut()).ok_or_else(|| missing(Half::Board))?;
    if !modules.contains_key(shell) {
        return Err(missing(Half::Board));
    }
    modules.insert(shell.to_string(), module);
    let path = out_dir.join(Half::Whole.json());
    let text =
        serde_json::to_string(&board).map_err(|e| FlowError::Io(format!("cannot write {}: {e}", path.display())))?;
    std::fs::write(&path, text).map_err(|e| FlowError::Io(format!("cannot write {}: {e}", path.display())))
}

/// Runs the board's steps and reads the results from their logs.
pub fn run_flow(run: &FlowRun) -> Result<FlowSummary, FlowError> {
    let started = Instant::now();
    let mut times = Vec::new();
    let total = run.board.steps.len();
    for (i, step) in run.board.steps.iter().enumerate() {
        let bar = if run.progress { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{prefix}] {msg} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(format!("{}/{total}", i + 1));
        let seeds = step.placement_seeds(run.seed);
        let what = if step.split_kernel {
            ", kernel and board at once".to_string()
        } else if seeds.len() > 1 {
            let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
            format!(", seeds {} at once", seeds.join(" and "))
        } else {
            String::new()
        };
        bar.set_message(format!("{} ({}{what})", step.name, step.program));
        bar.enable_steady_tick(Duration::from_millis(120));
        let t = Instant::now();
        if step.placements > 1 {
            let placements = run_placements(step, run);
            bar.finish_and_clear();
            let placements = placements?;
            let command = placements
                .iter()
                .find(|p| p.outcome == PlacementOutcome::Kept)
                .map(|p| p.command.clone())
                .unwrap_or_default();
            times.push(StepTime {
                step: step.name.clone(),
                command,
                seconds: t.elapsed().as_secs_f64(),
                halves: Vec::new(),
                placements,
            });
            continue;
        }
        let output = step.output.as_deref().unwrap_or_default();
        let runs: Vec<Invocation> = Half::of(step)
            .iter()
            .map(|&half| Invocation {
                half,
                program: step.program.clone(),
                args: arguments(step, run, half, run.seed, output),
                log: run.out_dir.join(half.log(&step.log)),
            })
            .collect();
        let result = run_step(step, &runs, run.out_dir);
        bar.finish_and_clear();
        let seconds = result?;
        if step.split_kernel {
            join_netlists(run.out_dir)?;
        }
        let half_times = if step.split_kernel {
            runs.iter()
                .zip(&seconds)
                .map(|(r, s)| HalfTime {
                    half: r.half.name().into(),
                    command: r.command_line(),
                    log: r.log.clone(),
                    seconds: *s,
                })
                .collect()
        } else {
            Vec::new()
        };
        times.push(StepTime {
            step: step.name.clone(),
            command: runs[0].command_line(),
            seconds: t.elapsed().as_secs_f64(),
            halves: half_times,
            placements: Vec::new(),
        });
    }
    let bitstream = run.out_dir.join(&run.board.bitstream);
    if !bitstream.is_file() {
        return Err(FlowError::Io(format!("the flow finished but wrote no {}", bitstream.display())));
    }
    let read = |name: &str| std::fs::read_to_string(run.out_dir.join(name)).unwrap_or_default();
    let synth_logs: Vec<String> = match run.board.steps.first() {
        Some(s) => Half::of(s).iter().map(|h| read(&h.log(&s.log))).collect(),
        None => vec![],
    };
    let pnr_log = run.board.steps.get(1).map(|s| read(&s.log)).unwrap_or_default();
    let fmax = report::fmax_mhz(&pnr_log);
    let timing_met = fmax.is_some_and(|f| f + 1e-9 >= run.clock.achieved_mhz);
    Ok(FlowSummary {
        board: run.board.name.clone(),
        part: run.board.part.clone(),
        kernel: run.kernel.to_string(),
        requested_mhz: run.clock.requested_mhz,
        kernel_clock_mhz: run.clock.achieved_mhz,
        pll: run.clock.pll_verilog.is_some(),
        fmax_mhz: fmax,
        timing_met,
        estimated_critical_path_ns: run.estimated_critical_path_ns,
        routed_critical_path_ns: fmax.map(|f| 1000.0 / f),
        resources: report::utilization(run.board, &synth_logs, &pnr_log),
        placement_seed: times
            .iter()
            .flat_map(|t| &t.placements)
            .find(|p| p.outcome == PlacementOutcome::Kept)
            .map_or(run.seed, |p| p.seed),
        steps: times,
        flow_seconds: started.elapsed().as_secs_f64(),
        bitstream,
    })
}

impl PlacementTime {
    /// `seed 1 57.97 MHz 20.1 s kept`, as the summary line lists it.
    fn text(&self) -> String {
        let fmax = self.fmax_mhz.map(|f| format!(" {f:.2} MHz")).unwrap_or_default();
        let outcome = match self.outcome {
            PlacementOutcome::Kept => "kept",
            PlacementOutcome::Finished => "not kept",
            PlacementOutcome::Stopped => "stopped",
            PlacementOutcome::Failed => "failed",
        };
        format!("seed {}{fmax} {:.1} s {outcome}", self.seed, self.seconds)
    }
}

impl FlowSummary {
    /// The summary as printed by `kiln bitstream`.
    pub fn text(&self) -> String {
        let mut t = format!("bitstream: {} ({} on {})\n", self.bitstream.display(), self.kernel, self.board);
        t.push_str("  resource        used    available\n");
        for u in &self.resources {
            let avail = u.available.map(|a| a.to_string()).unwrap_or_else(|| "-".into());
            let pct = match u.available {
                Some(a) if a > 0 => format!("  ({:.0}%)", 100.0 * u.used as f64 / a as f64),
                _ => String::new(),
            };
            t.push_str(&format!("  {:<12} {:>7} {:>12}{pct}\n", u.resource, u.used, avail));
        }
        let clock = if self.pll {
            format!("{:.2} MHz from the PLL (requested {:.2})", self.kernel_clock_mhz, self.requested_mhz)
        } else {
            format!("{:.2} MHz (oscillator)", self.kernel_clock_mhz)
        };
        t.push_str(&format!("  kernel clock  {clock}\n"));
        match self.fmax_mhz {
            Some(f) => t.push_str(&format!(
                "  Fmax          {f:.2} MHz: {} at {:.2} MHz\n",
                if self.timing_met { "PASS" } else { "FAIL" },
                self.kernel_clock_mhz
            )),
            None => t.push_str("  Fmax          not reported by place and route\n"),
        }
        if let (Some(r), true) = (self.routed_critical_path_ns, self.estimated_critical_path_ns > 0.0) {
            t.push_str(&format!(
                "  critical path {r:.2} ns after routing; the scheduler estimated {:.2} ns (ratio {:.2})\n",
                self.estimated_critical_path_ns,
                r / self.estimated_critical_path_ns.max(1e-9)
            ));
        }
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|s| {
                let mut runs: Vec<String> = s.halves.iter().map(|h| format!("{} {:.1}", h.half, h.seconds)).collect();
                runs.extend(s.placements.iter().map(PlacementTime::text));
                if runs.is_empty() {
                    format!("{} {:.1} s", s.step, s.seconds)
                } else {
                    format!("{} {:.1} s [{} at once]", s.step, s.seconds, runs.join(", "))
                }
            })
            .collect();
        t.push_str(&format!("  flow          {:.1} s ({})\n", self.flow_seconds, steps.join(", ")));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_placement_that_meets_the_clock_is_kept_without_waiting_for_later_ones() {
        let routed = |f: f64| Placed::Routed { fmax_mhz: Some(f) };
        use Placed::{Failed, Running};
        // The first seed meets 60 MHz: kept, whatever the second does or will do.
        assert_eq!(choose_placement(&[routed(61.0), Running], 60.0), Some(Some(0)));
        assert_eq!(choose_placement(&[routed(60.0), routed(70.0)], 60.0), Some(Some(0)));
        // The second finished first and meets it, but the first may too: wait.
        assert_eq!(choose_placement(&[Running, routed(65.0)], 60.0), None);
        // The first misses: the second is kept if it meets the clock, else the higher Fmax.
        assert_eq!(choose_placement(&[routed(58.0), routed(65.0)], 60.0), Some(Some(1)));
        assert_eq!(choose_placement(&[routed(58.0), routed(59.6)], 60.0), Some(Some(1)));
        assert_eq!(choose_placement(&[routed(59.6), routed(58.0)], 60.0), Some(Some(0)));
        assert_eq!(choose_placement(&[routed(59.0), routed(59.0)], 60.0), Some(Some(0)));
        // A placement the tool failed on (say, unroutable) is never kept.
        assert_eq!(choose_placement(&[Failed, routed(50.0)], 60.0), Some(Some(1)));
        assert_eq!(choose_placement(&[Failed, Failed], 60.0), Some(None));
        assert_eq!(choose_placement(&[routed(58.0), Running], 60.0), None);
    }

    #[test]
    fn each_placement_writes_under_its_own_name() {
        assert_eq!(seeded("top.asc", 3), "top-seed3.asc");
        assert_eq!(seeded("pnr.log", 12), "pnr-seed12.log");
        assert_eq!(seeded("out", 1), "out-seed1");
        assert!(is_seeded("pnr-seed12.log", "pnr.log") && is_seeded("out-seed1", "out"));
        assert!(!is_seeded("pnr.log", "pnr.log") && !is_seeded("pnr-seed.log", "pnr.log"));
        assert!(!is_seeded("pnr-seedx.log", "pnr.log") && !is_seeded("synth-seed1.log", "pnr.log"));
    }

    #[test]
    fn a_new_run_removes_the_placements_an_earlier_one_left() {
        let dir = std::env::temp_dir().join(format!("kiln-placements-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        for f in ["pnr-seed1.log", "top-seed2.asc", "pnr.log", "top.asc", "synth.log"] {
            std::fs::write(dir.join(f), "x").expect("scratch file");
        }
        remove_earlier_placements(&dir, &["top.asc", "pnr.log"]);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("scratch directory")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(left, ["pnr.log", "synth.log", "top.asc"]);
    }

    #[test]
    fn failed_tools_show_their_error_lines() {
        let log = "Info: a\nERROR: Unable to place cell 'x'\nInfo: b\n";
        assert_eq!(excerpt(log), ["ERROR: Unable to place cell 'x'"]);
        let quiet: String = (0..30).map(|i| format!("line {i}\n")).collect();
        assert_eq!(excerpt(&quiet).len(), 15);
        assert_eq!(excerpt(&quiet)[14], "line 29");
    }

    #[test]
    fn a_design_too_big_for_the_part_names_the_cell_type() {
        let log = "Info: Device utilisation:\n\
                   Info: \t         ICESTORM_LC:  5923/ 5280   112%\n\
                   Info: \t        ICESTORM_RAM:     2/   30     6%\n\
                   ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5923 ICESTORM_LCs\n";
        let lines = excerpt(log);
        assert_eq!(lines[0], "ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5923 ICESTORM_LCs");
        assert!(lines[1].contains("the FPGA has: 5923 ICESTORM_LC of 5280 ("), "{}", lines[1]);
    }

    #[test]
    fn the_halves_of_a_split_step_log_and_write_apart() {
        assert_eq!(Half::Whole.log("synth.log"), "synth.log");
        assert_eq!(Half::Kernel.log("synth.log"), "synth-kernel.log");
        assert_eq!(Half::Board.log("synth"), "synth-board");
        assert_ne!(Half::Kernel.json(), Half::Board.json());
    }

    #[test]
    fn the_kernel_half_replaces_the_black_box_in_the_board_netlist() {
        let dir = std::env::temp_dir().join(format!("kiln-join-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let board = serde_json::json!({"creator": "yosys", "modules": {
            "kiln_board_top": {"attributes": {"top": "1"}, "cells": {"kernel": {"type": "kiln_board_kernel"}}},
            "kiln_board_kernel": {"attributes": {"blackbox": "1"}, "cells": {}},
            "SB_LUT4": {"attributes": {"blackbox": "1"}}}});
        let kernel = serde_json::json!({"modules": {
            "kiln_board_kernel": {"attributes": {"top": "1"}, "cells": {"lut": {"type": "SB_LUT4"}}}}});
        std::fs::write(dir.join("board.json"), board.to_string()).expect("write");
        std::fs::write(dir.join("kernel.json"), kernel.to_string()).expect("write");
        join_netlists(&dir).expect("joined");
        let text = std::fs::read_to_string(dir.join("top.json")).expect("top.json");
        let top: serde_json::Value = serde_json::from_str(&text).expect("json");
        let shell = &top["modules"]["kiln_board_kernel"];
        assert_eq!(shell["cells"]["lut"]["type"], "SB_LUT4");
        // One top module, the board's.
        assert!(shell["attributes"].get("top").is_none() && shell["attributes"].get("blackbox").is_none());
        assert_eq!(top["modules"]["kiln_board_top"]["attributes"]["top"], "1");
        // A kernel netlist without the shell is an error, not a design without its kernel.
        std::fs::write(dir.join("kernel.json"), r#"{"modules": {}}"#).expect("write");
        let e = join_netlists(&dir).expect_err("no shell");
        assert!(e.to_string().contains("has no module `kiln_board_kernel`"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_board_without_pll_refuses_other_clocks() {
        let b = crate::board::board_by_name("tangnano9k").expect("board");
        let e = plan_clock(&b, 50.0, &std::env::temp_dir()).expect_err("no pll");
        assert!(e.to_string().contains("27 MHz oscillator"), "{e}");
        let p = plan_clock(&b, 27.0, &std::env::temp_dir()).expect("oscillator");
        assert_eq!((p.achieved_mhz, p.pll_verilog.is_none()), (27.0, true));
    }
}
