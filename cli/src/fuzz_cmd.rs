//! `kiln fuzz`: random kernels through every engine, compared with each other, PoCL and gcc.
//!
//! Each seed's program (from `kiln-fuzz`) runs in `emu` (the golden model), in `sim` with random
//! memory stalls and latency, every Nth through `cosim` (Verilator, which compares all three
//! itself), on PoCL when it can, and as C through gcc when it is plain C. A kernel kiln refuses,
//! an internal error, a panic and any difference in any output buffer are failures; each is kept
//! (kernel, run spec, what failed) and, with `--reduce`, shrunk to a small kernel that fails the
//! same way. Seeds run in parallel on rayon.

use crate::Io;
use crate::commands::CmdResult;
use kiln_diagnostics::{Diagnostic, SourceMap, codes};
use kiln_fuzz::ast::Program;
use kiln_fuzz::{Config, print, spec};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const POCL_HOST: &str = include_str!("../../tests/pocl/pocl_host.c");
/// Wall time after which PoCL or a gcc-built program counts as hanging.
const TOOL_TIMEOUT: Duration = Duration::from_secs(60);
/// Candidates the reducer may try per failure.
const REDUCE_BUDGET: usize = 400;

#[derive(Clone, Debug)]
pub(crate) struct FuzzArgs {
    pub seed: u64,
    pub count: u64,
    pub cosim_every: u64,
    pub pocl: bool,
    pub gcc: bool,
    pub reduce: bool,
    pub jobs: Option<usize>,
    pub out_dir: PathBuf,
    pub print_only: bool,
    pub without: Vec<String>,
}

/// How a program failed; two failures are "the same" when their kinds are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Failure {
    kind: String,
    /// Everything the failing step said (a tool's whole stderr), for `failure.txt`.
    detail: String,
}

impl Failure {
    fn new(kind: impl Into<String>, detail: impl Into<String>) -> Failure {
        Failure { kind: kind.into(), detail: detail.into() }
    }

    /// The line of `detail` that says most: the first naming an error, else the last one.
    fn headline(&self) -> &str {
        let mut lines = self.detail.lines().map(str::trim).filter(|l| !l.is_empty());
        let last = lines.clone().next_back().unwrap_or("");
        lines.find(|l| l.to_ascii_lowercase().contains("error")).unwrap_or(last)
    }
}

/// What ran for one program.
#[derive(Default)]
struct Ran {
    sim: bool,
    cosim: bool,
    pocl: bool,
    /// PoCL could not run a valid kernel because of a defect of its own ([`pocl_defect`]).
    pocl_broken: bool,
    gcc: bool,
}

/// Whether PoCL's stderr shows one of its own defects rather than a problem of the kernel:
/// PoCL 3.1 sometimes emits a work-group function that calls a symbol it never defines
/// (`undefined symbol: _group_id_x` for `get_group_id` before a barrier), and its `dlopen`
/// then fails. A kernel clang rejects still fails: that is a generator bug.
fn pocl_defect(stderr: &str) -> bool {
    stderr.lines().any(|l| l.contains("dlopen(") && l.contains("undefined symbol"))
}

struct Tools {
    pocl_host: Option<PathBuf>,
    gcc: bool,
}

fn config(without: &[String]) -> Result<Config, Diagnostic> {
    let mut c = Config::default();
    for w in without {
        match w.as_str() {
            "vectors" => c.vectors = false,
            "float" => c.float = false,
            "records" => c.records = false,
            "work-groups" => c.work_groups = false,
            "systems" => c.systems = false,
            "gotos" => c.gotos = false,
            other => {
                return Err(Diagnostic::error(codes::BAD_OPTION, format!("`--without {other}`: no such feature"))
                    .with_note("features: vectors, float, records, work-groups, systems, gotos"));
            }
        }
    }
    Ok(c)
}

/// Runs kiln in-process; a panic is caught and becomes the error text.
fn kiln(args: &[&OsString]) -> Result<(i32, String, String), String> {
    let mut argv: Vec<OsString> = vec!["kiln".into()];
    argv.extend(args.iter().map(|a| (*a).clone()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| crate::run(argv, &mut out, &mut err)));
    match code {
        Ok(c) => Ok((c, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())),
        Err(p) => Err(p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())),
    }
}

/// The first diagnostic code in kiln's error output.
fn first_code(stderr: &str) -> String {
    stderr.find("error[E").map(|i| stderr[i + 6..].chars().take(5).collect()).unwrap_or_else(|| "no code".into())
}

fn first_error(stderr: &str) -> String {
    stderr.lines().find(|l| l.contains("error[")).unwrap_or(stderr.lines().next().unwrap_or("")).trim().to_string()
}

/// The failure of a kiln command that did not succeed.
fn kiln_failure(engine: &str, result: Result<(i32, String, String), String>) -> Result<String, Failure> {
    match result {
        Err(panic) => Err(Failure::new(format!("panic in {engine}"), panic)),
        Ok((0, out, _)) => Ok(out),
        Ok((_, _, err)) => {
            let code = first_code(&err);
            let kind = match code.as_str() {
                "E0006" => format!("internal error {code}"),
                "E0903" => format!("engines disagree ({engine}) {code}"),
                _ => format!("{engine} refused {code}"),
            };
            Err(Failure::new(kind, first_error(&err)))
        }
    }
}

/// Buffers of a results JSON as name → element bits (masked to the element width).
fn json_buffers(path: &Path, p: &Program) -> Result<BTreeMap<String, Vec<u64>>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::new("no results", e.to_string()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| Failure::new("no results", e.to_string()))?;
    let bufs = v.get("args").or_else(|| v.get("buffers")).and_then(Value::as_object);
    let mut out = BTreeMap::new();
    for (name, vals) in bufs.into_iter().flatten() {
        let Some(b) = p.buffer(name) else { continue };
        let items = vals.as_array().map(|a| a.iter().map(|x| json_bits(x) & b.ty.mask()).collect()).unwrap_or_default();
        out.insert(name.clone(), items);
    }
    Ok(out)
}

fn json_bits(v: &Value) -> u64 {
    v.as_u64().or_else(|| v.as_i64().map(|i| i as u64)).unwrap_or(u64::MAX)
}

/// `=NAME V0 V1 ...` lines of the OpenCL host or the C program.
fn printed_buffers(text: &str, p: &Program) -> BTreeMap<String, Vec<u64>> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix('=') else { continue };
        let mut words = rest.split_whitespace();
        let Some(name) = words.next() else { continue };
        let Some(b) = p.buffer(name) else { continue };
        let vals = words.map(|w| w.parse::<i128>().map(|v| (v as u64) & b.ty.mask()).unwrap_or(u64::MAX)).collect();
        out.insert(name.to_string(), vals);
    }
    out
}

/// The first output element two runs disagree on.
fn difference(p: &Program, golden: &BTreeMap<String, Vec<u64>>, other: &BTreeMap<String, Vec<u64>>) -> Option<String> {
    for b in p.buffers.iter().filter(|b| b.output) {
        let (Some(x), Some(y)) = (golden.get(&b.name), other.get(&b.name)) else {
            return Some(format!("`{}` is missing from one run", b.name));
        };
        if let Some(i) = (0..x.len().max(y.len())).find(|i| x.get(*i) != y.get(*i)) {
            let show = |v: Option<&u64>| v.map(|v| b.ty.value(*v).to_string()).unwrap_or_else(|| "nothing".into());
            return Some(format!("`{}[{i}]` is {} in emu and {}", b.name, show(x.get(i)), show(y.get(i))));
        }
    }
    None
}

/// Runs a command with `input` on stdin, killing it after the timeout.
fn run_tool(cmd: &mut Command, input: Option<&str>) -> Result<(bool, String, String), String> {
    let mut child = cmd
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        let _ = stdin.write_all(text.as_bytes());
    }
    let out_pipe = child.stdout.take();
    let err_pipe = child.stderr.take();
    let reader = |pipe: Option<std::process::ChildStdout>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                let _ = std::io::Read::read_to_string(&mut p, &mut s);
            }
            s
        })
    };
    let out_thread = reader(out_pipe);
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = err_pipe {
            let _ = std::io::Read::read_to_string(&mut p, &mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > TOOL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{:?} did not finish in {} s", cmd.get_program(), TOOL_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let out = out_thread.join().unwrap_or_default();
    let err = err_thread.join().unwrap_or_default();
    Ok((status.success(), out, err))
}

fn find_tools(args: &FuzzArgs, dir: &Path) -> Result<Tools, Diagnostic> {
    let gcc_works = Command::new("gcc").arg("--version").output().is_ok_and(|o| o.status.success());
    let missing = |what: &str, flag: &str| {
        Diagnostic::error(codes::TOOL_FAILED, format!("{what}; pass `{flag}` to fuzz without it"))
    };
    if (args.gcc || args.pocl) && !gcc_works {
        return Err(missing("gcc is not installed", if args.pocl { "--no-pocl --no-gcc" } else { "--no-gcc" }));
    }
    let mut pocl_host = None;
    if args.pocl {
        let src = dir.join("pocl_host.c");
        let exe = dir.join("pocl_host");
        std::fs::write(&src, POCL_HOST)
            .map_err(|e| Diagnostic::error(codes::IO_WRITE, format!("cannot write `{}`: {e}", src.display())))?;
        let built = Command::new("gcc").args(["-O1", "-w", "-o"]).arg(&exe).arg(&src).arg("-lOpenCL").output();
        if !built.is_ok_and(|o| o.status.success()) {
            return Err(missing(
                "the OpenCL host does not build (install ocl-icd-opencl-dev and pocl-opencl-icd)",
                "--no-pocl",
            ));
        }
        pocl_host = Some(exe);
    }
    Ok(Tools { pocl_host, gcc: args.gcc })
}

/// Runs one program through every engine that applies.
fn check(p: &Program, dir: &Path, tools: &Tools, cosim: bool, ran: &mut Ran) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::new("cannot write the case", e.to_string());
    std::fs::create_dir_all(dir).map_err(io)?;
    let cl = dir.join("kernel.cl");
    let toml = dir.join("run.toml");
    std::fs::write(&cl, print::opencl(p)).map_err(io)?;
    std::fs::write(&toml, spec::run_spec(p)).map_err(io)?;
    let os = |s: &str| OsString::from(s);
    let (clo, tomlo) = (cl.clone().into_os_string(), toml.clone().into_os_string());
    let std_flag = os(spec::CL_STD);
    let emu_json = dir.join("emu.json").into_os_string();
    let spec_flag = os("--spec");
    let json_flag = os("--json");
    let emu = kiln(&[&os("emu"), &clo, &spec_flag, &tomlo, &json_flag, &emu_json, &std_flag]);
    kiln_failure("emu", emu)?;
    let golden = json_buffers(Path::new(&emu_json), p)?;

    let stall = os(&p.seed.to_string());
    let latency = os(&(1 + p.seed % 4).to_string());
    let sim_json = dir.join("sim.json").into_os_string();
    let (stall_flag, lat_flag) = (os("--stall-seed"), os("--mem-latency"));
    let sim = kiln(&[
        &os("sim"),
        &clo,
        &spec_flag,
        &tomlo,
        &json_flag,
        &sim_json,
        &std_flag,
        &stall_flag,
        &stall,
        &lat_flag,
        &latency,
    ]);
    kiln_failure("sim", sim)?;
    ran.sim = true;
    let simmed = json_buffers(Path::new(&sim_json), p)?;
    if let Some(d) = difference(p, &golden, &simmed) {
        return Err(Failure::new("mismatch emu/sim", format!("{d} in sim")));
    }

    if cosim {
        let c = kiln(&[&os("cosim"), &clo, &spec_flag, &tomlo, &std_flag, &stall_flag, &stall, &lat_flag, &latency]);
        kiln_failure("cosim", c)?;
        ran.cosim = true;
    }

    if let Some(host) = tools.pocl_host.as_ref().filter(|_| p.runs_on_pocl()) {
        let input = spec::host_input(p, &cl.display().to_string());
        match run_tool(&mut Command::new(host), Some(&input)) {
            Ok((true, out, _)) => {
                if let Some(d) = difference(p, &golden, &printed_buffers(&out, p)) {
                    return Err(Failure::new("mismatch emu/pocl", format!("{d} on PoCL")));
                }
                ran.pocl = true;
            }
            Ok((false, _, err)) if pocl_defect(&err) => ran.pocl_broken = true,
            Ok((false, _, err)) => {
                return Err(Failure::new("pocl failed", err));
            }
            // PoCL 3.1 compiles a kernel with tens of barriers (an exchange in loops that
            // `#pragma unroll` unrolls) for longer than the limit; every kiln engine ran it.
            Err(e) if e.contains("did not finish") && p.uses_barriers() => ran.pocl_broken = true,
            Err(e) => return Err(Failure::new("pocl failed", e)),
        }
    }

    if tools.gcc && p.runs_as_c() {
        let c_src = dir.join("kernel.c");
        let exe = dir.join("kernel-c");
        std::fs::write(&c_src, print::c(p)).map_err(io)?;
        match run_tool(Command::new("gcc").args(["-O1", "-w", "-o"]).arg(&exe).arg(&c_src), None) {
            Ok((true, _, _)) => {}
            Ok((false, _, err)) => {
                return Err(Failure::new(
                    "gcc refused",
                    err.lines().find(|l| l.contains("error")).unwrap_or("").to_string(),
                ));
            }
            Err(e) => return Err(Failure::new("gcc failed", e)),
        }
        match run_tool(&mut Command::new(&exe), None) {
            Ok((true, out, _)) => {
                if let Some(d) = difference(p, &golden, &printed_buffers(&out, p)) {
                    return Err(Failure::new("mismatch emu/gcc", format!("{d} in C")));
                }
                ran.gcc = true;
            }
            Ok((false, _, err)) => return Err(Failure::new("gcc program failed", err)),
            Err(e) => return Err(Failure::new("gcc program failed", e)),
        }
    }
    Ok(())
}

fn keep(dir: &Path, p: &Program, f: &Failure) {
    let _ = std::fs::create_dir_all(dir);
    let _ = std::fs::write(dir.join("kernel.cl"), print::opencl(p));
    let _ = std::fs::write(dir.join("run.toml"), spec::run_spec(p));
    if p.runs_as_c() {
        let _ = std::fs::write(dir.join("kernel.c"), print::c(p));
    }
    let _ = std::fs::write(dir.join("failure.txt"), format!("{}\n{}\n", f.kind, f.detail));
}

pub(crate) fn fuzz(args: &FuzzArgs, io: &mut Io) -> CmdResult {
    let bad = |d: Diagnostic| (SourceMap::new(), d.into());
    let cfg = config(&args.without).map_err(bad)?;
    if args.print_only {
        let p = kiln_fuzz::generate(args.seed, &cfg);
        let _ = writeln!(io.out, "{}", print::opencl(&p));
        let _ = writeln!(io.out, "// run spec:\n{}", spec::run_spec(&p));
        return Ok(());
    }
    let work = args.out_dir.join("work");
    std::fs::create_dir_all(&work)
        .map_err(|e| bad(Diagnostic::error(codes::IO_WRITE, format!("cannot create `{}`: {e}", work.display()))))?;
    let tools = find_tools(args, &work).map_err(bad)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.jobs.unwrap_or(0)).build().map_err(|e| {
        bad(Diagnostic::error(codes::BAD_OPTION, format!("cannot start {} threads: {e}", args.jobs.unwrap_or(0))))
    })?;
    let counts: [AtomicU64; 6] = Default::default();
    let start = Instant::now();
    let seeds: Vec<u64> = (args.seed..args.seed.saturating_add(args.count)).collect();
    let failures: Vec<(u64, Failure)> = pool.install(|| {
        seeds
            .par_iter()
            .filter_map(|&seed| {
                let p = kiln_fuzz::generate(seed, &cfg);
                let cosim = args.cosim_every > 0 && seed % args.cosim_every == 0;
                let dir = work.join(format!("seed-{seed}"));
                let mut ran = Ran::default();
                let result = check(&p, &dir, &tools, cosim, &mut ran);
                for (i, r) in [true, ran.sim, ran.cosim, ran.pocl, ran.gcc, ran.pocl_broken].into_iter().enumerate() {
                    counts[i].fetch_add(r as u64, Ordering::Relaxed);
                }
                let _ = std::fs::remove_dir_all(&dir);
                let f = result.err()?;
                let reduced = args.reduce.then(|| {
                    let rdir = work.join(format!("reduce-{seed}"));
                    let r = kiln_fuzz::reduce::reduce(
                        &p,
                        &mut |q| {
                            check(q, &rdir, &tools, cosim, &mut Ran::default()).err().is_some_and(|g| g.kind == f.kind)
                        },
                        REDUCE_BUDGET,
                    );
                    let _ = std::fs::remove_dir_all(&rdir);
                    r
                });
                // Kept at once, so that a campaign stopped before its end keeps what it found.
                let kept = args.out_dir.join(format!("fail-{seed}"));
                keep(&kept, &p, &f);
                if let Some(r) = &reduced {
                    keep(&kept.join("reduced"), r, &f);
                }
                Some((seed, f))
            })
            .collect()
    });
    let _ = std::fs::remove_dir_all(&work);
    let mut internal = 0;
    let mut mismatches = 0;
    let mut refused = 0;
    for (seed, f) in &failures {
        let dir = args.out_dir.join(format!("fail-{seed}"));
        if f.kind.starts_with("internal") || f.kind.starts_with("panic") {
            internal += 1;
        } else if f.kind.contains("mismatch") || f.kind.contains("disagree") {
            mismatches += 1;
        } else {
            refused += 1;
        }
        let _ = writeln!(io.out, "FAIL seed {seed}: {}: {} (kept in {})", f.kind, f.headline(), dir.display());
    }
    let n = |i: usize| counts[i].load(Ordering::Relaxed);
    let last = args.seed.saturating_add(args.count).saturating_sub(1);
    let _ = writeln!(
        io.out,
        "kiln fuzz: {} kernels (seeds {}..={last}) in {:.0} s: {} emu, {} sim, {} cosim, {} PoCL ({} it could not run), {} gcc; {mismatches} mismatches, {internal} internal errors, {refused} other failures",
        n(0),
        args.seed,
        start.elapsed().as_secs_f64(),
        n(0),
        n(1),
        n(2),
        n(3),
        n(5),
        n(4),
    );
    if failures.is_empty() {
        Ok(())
    } else {
        let d = Diagnostic::error(
            codes::ENGINE_MISMATCH,
            format!("{} of {} generated kernels failed (kept in {})", failures.len(), n(0), args.out_dir.display()),
        );
        Err((SourceMap::new(), d.into()))
    }
}
