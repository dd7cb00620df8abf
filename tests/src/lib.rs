//! Shared helpers of kiln's workspace tests: the kernel corpus, running the `kiln` tool
//! in-process, and checks that required external tools are installed.
//!
//! Tests that need a tool (Verilator, Yosys, gcc) fail when it is missing; they never skip.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The `tests/` directory.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A corpus kernel: `tests/kernels/NAME.cl` with its run spec `NAME.toml`.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub source: PathBuf,
    pub spec: PathBuf,
    pub text: String,
}

impl Case {
    /// Extra `kiln` options from a `// flags: ...` header line (e.g. `--clock-mhz 400`).
    pub fn flags(&self) -> Vec<String> {
        self.directive("flags").map(|f| f.split_whitespace().map(str::to_string).collect()).unwrap_or_default()
    }

    /// Loop expectations: `// expect-loop: key=value ...` comments, with the 1-based line they
    /// are on (the loop's line).
    pub fn loop_expectations(&self) -> Vec<(usize, Vec<(String, String)>)> {
        self.text
            .lines()
            .enumerate()
            .filter_map(|(i, l)| {
                let e = l.split_once("// expect-loop:")?.1;
                let kv = e
                    .split_whitespace()
                    .filter_map(|w| w.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
                    .collect();
                Some((i + 1, kv))
            })
            .collect()
    }

    /// A header line `// key: value` of the kernel file.
    pub fn directive(&self, key: &str) -> Option<String> {
        let prefix = format!("// {key}:");
        self.text.lines().find_map(|l| l.trim().strip_prefix(&prefix).map(|v| v.trim().to_string()))
    }
}

/// Every corpus kernel, sorted by name.
/// The hardware corpus (`tests/kernels/`): every engine runs these kernels.
pub fn corpus() -> Vec<Case> {
    cases_in("kernels")
}

/// The floating-point corpus (`tests/float/`): kernels kiln runs in the emulator and checks
/// against PoCL within the specification's ULP limits (kiln builds no float units yet).
pub fn float_corpus() -> Vec<Case> {
    cases_in("float")
}

/// The real-world corpus (`tests/real/`): kernels written as vendor examples and benchmark
/// suites write them (labels, `goto`, `printf`, NDRange kernels without a required size, ...).
pub fn real_corpus() -> Vec<Case> {
    cases_in("real")
}

/// The C++ corpus (`tests/cxx/`): C++ for OpenCL and OpenCL C++ 1.0 kernels (`.clcpp`), each with
/// its run spec and, for most, an OpenCL C twin (`NAME.cl`) that must give the same results.
pub fn cxx_corpus() -> Vec<Case> {
    cases_with("cxx", "clcpp")
}

fn cases_in(sub: &str) -> Vec<Case> {
    cases_with(sub, "cl")
}

fn cases_with(sub: &str, ext: &str) -> Vec<Case> {
    let dir = tests_dir().join(sub);
    let mut cases: Vec<Case> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|source| {
            let name = source.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let spec = source.with_extension("toml");
            assert!(spec.exists(), "corpus kernel {name} has no run spec {}", spec.display());
            let text = std::fs::read_to_string(&source).unwrap_or_default();
            Case { name, source, spec, text }
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// `kiln cosim` of a corpus case with `extra` flags: asserts that the three engines agree and
/// that the report has a cycle count and every phase's timing; returns the JSON report.
pub fn cosim(case: &Case, dir: &Path, extra: &[&str], tag: &str) -> serde_json::Value {
    let json = dir.join(format!("{}-{tag}.json", case.name));
    let mut args: Vec<String> =
        vec!["cosim".into(), case.source.display().to_string(), "--spec".into(), case.spec.display().to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(case.flags());
    args.extend(["--json".into(), json.display().to_string()]);
    let r = kiln(&args);
    assert_eq!(r.code, 0, "{} ({tag}): cosim failed\n{}{}", case.name, r.stdout, r.stderr);
    assert!(r.stdout.contains("emulator, simulator and Verilator agree"), "{}: {}", case.name, r.stdout);
    let v: serde_json::Value = result_json(&json);
    assert_eq!(v["engine"], "verilator");
    assert!(v["cycles"].as_u64().is_some_and(|c| c > 0), "{}: no cycle count", case.name);
    for phase in ["emulator_s", "simulator_s", "verilator_build_s", "verilator_run_s"] {
        assert!(
            v["timing"][phase].as_f64().is_some_and(|t| t >= 0.0),
            "{}: no `timing.{phase}`: {}",
            case.name,
            v["timing"]
        );
    }
    v
}

/// A corpus case in Verilator without and with random stalls (`--stall-seed SEED --mem-latency
/// LATENCY`): both give the emulator's buffers, and stalls cost cycles, never save them.
pub fn agrees_without_and_with_stalls(case: &Case, dir: &Path, seed: &str, latency: &str) {
    let emu = emu_args(case, dir);
    let plain = cosim(case, dir, &[], "plain");
    let stalled = cosim(case, dir, &["--stall-seed", seed, "--mem-latency", latency], "stall");
    assert_eq!(plain["args"], emu, "{}: Verilator outputs differ from the emulator", case.name);
    assert_eq!(stalled["args"], emu, "{}: outputs under stalls differ from the emulator", case.name);
    let (c0, c1) = (plain["cycles"].as_u64().unwrap_or(0), stalled["cycles"].as_u64().unwrap_or(0));
    assert!(c1 >= c0, "{}: stalls cannot make a kernel faster ({c1} < {c0})", case.name);
}

/// A JSON file that a test reads (a report, a summary, a netlist).
pub fn result_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files of a negative corpus directory, sorted.
pub fn negative_kernels(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    files
}

/// The error codes a negative kernel's first line expects (`// expect: E0401 E0402`).
pub fn expected_codes(path: &Path, text: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("// expect:"))
        .unwrap_or_else(|| panic!("{} has no `// expect:` line", path.display()))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Checks `kiln check --message-format json` of a negative kernel: exit status 1, exactly the
/// `expected` error codes, and every diagnostic located at a line. Returns what went wrong.
pub fn check_refused(path: &Path, options: &[&str], expected: &std::collections::BTreeSet<String>) -> Option<String> {
    let shown = path.display().to_string();
    let mut args = vec!["check", &shown, "--message-format", "json"];
    args.extend(options);
    let r = kiln(&args);
    let diags: Vec<serde_json::Value> = r.stderr.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let got: std::collections::BTreeSet<String> = diags
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect();
    let located = diags
        .iter()
        .all(|d| d["spans"].as_array().is_some_and(|s| !s.is_empty() && s[0]["line"].as_u64().is_some_and(|x| x > 0)));
    (r.code != 1 || &got != expected || !located).then(|| {
        format!("{shown}: exit {}, expected {expected:?}, got {got:?}, all located: {located}\n{}", r.code, r.stderr)
    })
}

/// The result of one `kiln` invocation.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Points the co-simulation model cache into the build directory (shared by all tests).
fn set_cache() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("target").join("kiln-test-cache");
        // SAFETY: called once, before any test thread reads the environment through kiln.
        unsafe { std::env::set_var("KILN_CACHE_DIR", target) };
    });
}

/// Runs `kiln ARGS...` in-process. A panic inside kiln is a test failure with the arguments.
pub fn kiln<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    set_cache();
    let mut argv: Vec<OsString> = vec!["kiln".into()];
    argv.extend(args.iter().map(|a| a.as_ref().to_os_string()));
    let shown: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| kiln_cli::run(argv.clone(), &mut out, &mut err)))
            .unwrap_or_else(|_| panic!("kiln panicked on: {}", shown.join(" ")));
    Run { code, stdout: String::from_utf8_lossy(&out).into_owned(), stderr: String::from_utf8_lossy(&err).into_owned() }
}

/// Fails the test unless `tool` can be run (`tool --version` or `tool -V`).
pub fn require_tool(tool: &str) {
    let ok = ["--version", "-V"]
        .iter()
        .any(|flag| std::process::Command::new(tool).arg(flag).output().map(|o| o.status.success()).unwrap_or(false));
    assert!(ok, "`{tool}` is required by this test but is not installed; run scripts/test.sh, which installs it");
}

/// A fresh scratch directory under the build directory.
pub fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("target").join("kiln-test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("cannot create {}: {e}", d.display()));
    d
}

/// Writes a test's own kernel (`NAME.cl`) and its run spec (`NAME.toml`) into `dir` and
/// returns their paths.
pub fn write_kernel_and_spec(dir: &Path, name: &str, source: &str, spec: &str) -> (PathBuf, PathBuf) {
    let (cl, toml) = (dir.join(format!("{name}.cl")), dir.join(format!("{name}.toml")));
    for (path, text) in [(&cl, source), (&toml, spec)] {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    (cl, toml)
}

/// The `args` object of a results JSON file.
pub fn result_args(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()));
    v["args"].clone()
}

/// Runs `f` on every item with two worker threads (the CI machine has two cores).
pub fn par_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    match items.get(i) {
                        Some(item) => f(item),
                        None => break,
                    }
                }
            });
        }
    });
}

/// A kernel's arguments as its run spec gives them, before the kernel runs (kiln's
/// materialization of the spec), in parameter order.
pub struct Inputs {
    pub name: String,
    pub kind: InputKind,
}

pub enum InputKind {
    /// Values are the stored bits read as integers (a float buffer's are its IEEE bits).
    Buffer {
        width: u32,
        signed: bool,
        float: bool,
        values: Vec<i64>,
    },
    Scalar {
        width: u32,
        value: i64,
    },
    /// A vector passed by value: its lanes in order.
    Vector {
        width: u32,
        values: Vec<i64>,
    },
    /// A `__local` pointer: the bytes of `__local` memory the launch gives it.
    Local {
        bytes: u64,
    },
}

/// The buffers of a run spec as JSON (`name: [values]`) and every argument in order.
pub fn materialized_inputs(case: &Case) -> (serde_json::Value, Vec<Inputs>) {
    let mut sm = kiln_diagnostics::SourceMap::new();
    let spec = kiln_cli::runspec::load(&case.spec, &mut sm).unwrap_or_else(|_| panic!("{}: bad spec", case.name));
    let mut opts = kiln_frontend::Options::default();
    for (n, v) in &spec.defines {
        opts.defines.push((n.clone(), Some(v.clone())));
    }
    let file = sm.add(case.source.display().to_string(), Some(case.source.clone()), case.text.clone());
    let fe = if kiln_frontend_cxx::is_cxx(&case.source.display().to_string(), &opts) {
        kiln_frontend_cxx::check(sm, file, &kiln_frontend::pp::FsLoader, &opts)
    } else {
        kiln_frontend::check(sm, file, &kiln_frontend::pp::FsLoader, &opts)
    };
    let prog = fe.program.unwrap_or_else(|| panic!("{}: does not compile", case.name));
    let id = prog.kernel_by_name(&spec.kernel).unwrap_or_else(|| panic!("{}: no kernel", case.name));
    let local_size = spec.local_size.as_ref().map(|l| {
        let mut s = [1u32; 3];
        for (d, v) in l.iter().enumerate().take(3) {
            s[d] = *v as u32;
        }
        s
    });
    let local_args = kiln_cli::runspec::local_args(&spec.args);
    let opts = kiln_dataflow::lower::LowerOptions { local_size, local_args, ..Default::default() };
    let k = kiln_dataflow::lower::lower_kernel_with(&prog, id, &opts)
        .unwrap_or_else(|_| panic!("{}: does not lower", case.name));
    let m = kiln_cli::runspec::materialize(&spec, &k).unwrap_or_else(|_| panic!("{}: bad spec", case.name));
    let mut obj = serde_json::Map::new();
    let mut list = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        if p.implicit.is_some() {
            continue;
        }
        match (&m.args[i], m.elem_types.get(i), &p.kind) {
            (kiln_dataflow::emu::Arg::Buffer(b), Some(Some(ty)), _) => {
                let values: Vec<i64> = b.iter().map(|x| ty.value(*x) as i64).collect();
                obj.insert(p.name.to_string(), serde_json::json!(values));
                list.push(Inputs {
                    name: p.name.to_string(),
                    kind: InputKind::Buffer { width: ty.width, signed: ty.signed, float: ty.float, values },
                });
            }
            (_, _, kiln_dataflow::ir::ParamKind::Local { mem }) => {
                let d = &k.mems[*mem];
                let bytes = u64::from(d.len.unwrap_or(0)) * u64::from(d.elem_width.div_ceil(8));
                list.push(Inputs { name: p.name.to_string(), kind: InputKind::Local { bytes } });
            }
            (kiln_dataflow::emu::Arg::Scalar(v), _, kiln_dataflow::ir::ParamKind::Scalar { value, signed, .. }) => {
                let width = k.width(*value);
                let shift = 64 - width.max(1);
                let value = if *signed { ((*v << shift) as i64) >> shift } else { *v as i64 };
                match &p.lane {
                    Some(lane) if lane.index > 0 => {
                        if let Some(Inputs { kind: InputKind::Vector { values, .. }, .. }) = list.last_mut() {
                            values.push(value);
                        }
                    }
                    Some(lane) => list.push(Inputs {
                        name: lane.vector.to_string(),
                        kind: InputKind::Vector { width, values: vec![value] },
                    }),
                    None => list.push(Inputs { name: p.name.to_string(), kind: InputKind::Scalar { width, value } }),
                }
            }
            _ => {}
        }
    }
    (serde_json::Value::Object(obj), list)
}

/// Runs `case` in kiln's emulator and returns the `args` object of its results (the buffers
/// after the kernel ran).
pub fn emu_args(case: &Case, dir: &Path) -> serde_json::Value {
    emu_results(case, dir)["args"].clone()
}

/// Runs `case` in kiln's emulator and returns its results (`args`, and `printed` when the kernel
/// printed).
pub fn emu_results(case: &Case, dir: &Path) -> serde_json::Value {
    let json = dir.join(format!("{}-emu.json", case.name));
    let mut args = vec![
        "emu".to_string(),
        case.source.display().to_string(),
        "--spec".to_string(),
        case.spec.display().to_string(),
        "--json".to_string(),
        json.display().to_string(),
    ];
    // The language options change what the kernel computes; the build options do not.
    args.extend(case.flags().into_iter().filter(|f| f.starts_with("-cl-")));
    let r = kiln(&args);
    assert_eq!(r.code, 0, "{}: emu failed\n{}", case.name, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap_or_default())
        .unwrap_or_else(|e| panic!("{}: bad results JSON: {e}", case.name));
    assert!(v.get("cycles").is_none(), "emu results have no cycle count");
    v
}
