#![allow(clippy::unwrap_used)]
//! The front end (and lowering) never panic, whatever the input: quickcheck mutates the files of
//! all four corpora (hardware and float kernels, check-only kernels and invalid ones) — deleting spans,
//! inserting tokens that open constructs, overwriting bytes — and every mutant must come back
//! as a program or as diagnostics. A failure is shrunk to a small list of edits.
//!
//! The whole hardware build (lowering with loop transformations, the optimizer with the e-graph
//! phase, scheduling, Verilog) must not panic either, nor report an internal error, on the
//! mutants of the hardware corpus that the front end accepts: whatever kiln accepts, it builds
//! or refuses with a diagnostic.
//!
//! Neither may hang: a watchdog fails the run when one input takes longer than
//! [`HANG_SECONDS`], and prints the input.
//!
//! Bounded: `KILN_MUTATIONS` mutants (default 20,000: a few seconds), a tenth as many through
//! the whole build.

use kiln_tests::tests_dir;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// One input taking longer than this is a hang (the slowest corpus kernel builds in a few
/// seconds).
const HANG_SECONDS: u64 = 120;

/// The inputs being worked on now, by ticket, with when each started.
static IN_FLIGHT: Mutex<BTreeMap<u64, (Instant, String)>> = Mutex::new(BTreeMap::new());
static NEXT_TICKET: AtomicU64 = AtomicU64::new(0);

/// Marks an input as in flight until dropped; the first one starts the watchdog, which ends the
/// process (failing the test) when any input stays in flight longer than [`HANG_SECONDS`].
struct Watched(u64);

impl Watched {
    fn start(text: &str) -> Watched {
        static WATCHDOG: OnceLock<()> = OnceLock::new();
        WATCHDOG.get_or_init(|| {
            std::thread::spawn(|| {
                loop {
                    std::thread::sleep(Duration::from_secs(1));
                    let flight = IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some((_, (_, text))) =
                        flight.iter().find(|(_, (at, _))| at.elapsed() > Duration::from_secs(HANG_SECONDS))
                    {
                        // Straight to stderr: the test harness captures `eprintln!` of the
                        // test's threads, and exiting drops what it captured.
                        use std::io::Write as _;
                        let mut err = std::io::stderr().lock();
                        let _ = writeln!(err, "hang: one input took more than {HANG_SECONDS} s:\n{text}");
                        let _ = err.flush();
                        std::process::exit(101);
                    }
                }
            });
        });
        let ticket = NEXT_TICKET.fetch_add(1, Ordering::Relaxed);
        IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner()).insert(ticket, (Instant::now(), text.to_string()));
        Watched(ticket)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.0);
    }
}

/// Fragments that open or close constructs, to reach the parser's error paths.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    ";",
    "*",
    "&",
    "#define X(",
    "#if",
    "#endif",
    "\"",
    "'",
    "/*",
    "global",
    "int",
    "[",
    "]",
    "++",
    "<<=",
    "0x",
    "...",
    "int4",
    ".xyzw",
    "atomic_add(",
    "_Atomic(",
    "shuffle(",
    "struct",
    "__attribute__((",
    "#pragma unroll",
    "barrier(",
    "return",
    "?",
    ":",
    "\\",
    "##",
];

fn inputs() -> &'static Vec<String> {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        for dir in ["kernels", "float", "valid", "negative"] {
            let mut paths: Vec<_> = std::fs::read_dir(tests_dir().join(dir))
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect();
            paths.sort();
            out.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
        }
        out
    })
}

#[derive(Clone, Debug)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Overwrite { at: usize, byte: u8 },
}

#[derive(Clone, Debug)]
struct Mutant {
    file: usize,
    edits: Vec<Edit>,
}

impl Arbitrary for Edit {
    fn arbitrary(g: &mut Gen) -> Edit {
        let at = usize::arbitrary(g);
        match u8::arbitrary(g) % 3 {
            0 => Edit::Delete { at, len: usize::arbitrary(g) % 16 },
            1 => Edit::Insert { at, token: usize::arbitrary(g) % TOKENS.len() },
            _ => Edit::Overwrite { at, byte: u8::arbitrary(g) % 128 },
        }
    }
}

impl Arbitrary for Mutant {
    fn arbitrary(g: &mut Gen) -> Mutant {
        let n = 1 + usize::arbitrary(g) % 4;
        Mutant { file: usize::arbitrary(g) % inputs().len(), edits: (0..n).map(|_| Edit::arbitrary(g)).collect() }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Mutant>> {
        let file = self.file;
        Box::new(self.edits.shrink().map(move |edits| Mutant { file, edits }))
    }
}

impl Mutant {
    fn text(&self) -> String {
        apply(&inputs()[self.file], &self.edits, TOKENS)
    }
}

/// `src` with the edits applied (inserted tokens from `tokens`).
fn apply(src: &str, edits: &[Edit], tokens: &[&str]) -> String {
    {
        let mut bytes = src.to_string().into_bytes();
        for e in edits {
            let pos = |at: usize, len: usize| at % (len + 1);
            match *e {
                Edit::Delete { at, len } => {
                    let start = pos(at, bytes.len());
                    let end = (start + len).min(bytes.len());
                    bytes.drain(start..end);
                }
                Edit::Insert { at, token } => {
                    let p = pos(at, bytes.len());
                    bytes.splice(p..p, tokens[token % tokens.len()].bytes());
                }
                Edit::Overwrite { at, byte } => {
                    if !bytes.is_empty() {
                        let p = at % bytes.len();
                        bytes[p] = byte;
                    }
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

fn never_panics(m: Mutant) -> TestResult {
    let text = m.text();
    let _watched = Watched::start(&text);
    let result = std::panic::catch_unwind(|| {
        let out = kiln_frontend::check_source("m.cl", &text, &kiln_frontend::Options::default());
        if let Some(p) = &out.program {
            for (id, _) in p.kernels() {
                let _ = kiln_dataflow::lower::lower_kernel(p, id);
            }
        }
    });
    if result.is_ok() { TestResult::passed() } else { TestResult::error(format!("panicked on:\n{text}")) }
}

/// Builds every kernel of an accepted mutant for hardware; an internal error (a verifier
/// failure after a stage) is a failure like a panic.
fn builds_or_refuses(m: Mutant) -> TestResult {
    // Only the hardware corpus (the float and negative files mostly stop in the front end).
    if m.file >= hardware_files() {
        return TestResult::discard();
    }
    let text = m.text();
    let _watched = Watched::start(&text);
    let result = std::panic::catch_unwind(|| -> Result<(), String> {
        let mut sources = kiln_diagnostics::SourceMap::new();
        let file = sources.add("m.cl", None, text.clone());
        let Ok(fe) = kiln_driver::session::frontend(
            sources,
            file,
            &kiln_frontend::pp::MemLoader::default(),
            &kiln_frontend::Options::default(),
        ) else {
            return Ok(());
        };
        let device = kiln_device::Device::by_name("ice40-up5k").unwrap();
        let hw = kiln_driver::HwOptions {
            clock_mhz: 60.0,
            device,
            optimize: true,
            egraph: true,
            explain_opt: false,
            pipeline: true,
            scalar_replacement: true,
            local_size: Some([4, 1, 1]),
            local_args: vec![],
            strict_pipe_order: false,
        };
        for name in kiln_driver::session::kernel_names(&fe.program) {
            match kiln_driver::build_kernel(&fe, &name, None, &hw) {
                Ok(b) => {
                    let _ = kiln_driver::build::emit_verilog(&b.schedule, &fe.sources);
                    BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                Err(f) => {
                    if let Some(d) = f.diags.iter().find(|d| d.code == kiln_diagnostics::codes::INTERNAL_ERROR) {
                        return Err(format!("{}: {:?}", d.message, d.notes));
                    }
                }
            }
        }
        Ok(())
    });
    match result {
        Ok(Ok(())) => TestResult::passed(),
        Ok(Err(e)) => TestResult::error(format!("internal error on:\n{text}\n{e}")),
        Err(_) => TestResult::error(format!("panicked on:\n{text}")),
    }
}

/// Kernels of mutants the whole build turned into Verilog (the property means little if none).
static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many of [`inputs`] come from the hardware corpus (listed first).
fn hardware_files() -> usize {
    std::fs::read_dir(tests_dir().join("kernels"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .count()
}

#[test]
fn whole_build_never_panics_on_mutated_hardware_kernels() {
    let n = std::env::var("KILN_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000) / 10;
    QuickCheck::new().tests(n).max_tests(n * 20).quickcheck(builds_or_refuses as fn(Mutant) -> TestResult);
    let built = BUILT.load(std::sync::atomic::Ordering::Relaxed);
    assert!(built as u64 >= n / 10, "only {built} kernels of {n} mutants reached Verilog");
}

#[test]
fn front_end_never_panics_on_mutated_corpus_files() {
    let n = std::env::var("KILN_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    QuickCheck::new().tests(n).max_tests(n * 2).quickcheck(never_panics as fn(Mutant) -> TestResult);
}

/// Fragments of C++ that open or close its constructs.
const CXX_TOKENS: &[&str] = &[
    "template <typename T>",
    "template <>",
    "<",
    ">",
    ">>",
    "::",
    "class A {",
    "struct B : A {",
    "public:",
    "private:",
    "operator+",
    "operator()",
    "[&](int x) {",
    "[=]",
    "auto",
    "constexpr",
    "static_assert(",
    "namespace n {",
    "using namespace",
    "this->",
    "*this",
    "&&",
    "virtual",
    "new",
    "typename",
    "decltype(",
    "enum class E {",
    "cl::",
    "local<",
    "array<int, 4>",
    "{",
    "}",
    "(",
    ")",
    ";",
    ",",
    "=",
    "for (auto &x : ",
    "if constexpr (",
    "static_cast<int>(",
    "~",
    "...",
    "0",
];

#[derive(Clone, Debug)]
struct CxxMutant(Mutant);

fn cxx_inputs() -> &'static Vec<String> {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        for dir in ["cxx", "cxx/negative"] {
            let mut paths: Vec<_> = std::fs::read_dir(tests_dir().join(dir))
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "clcpp"))
                .collect();
            paths.sort();
            out.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
        }
        out
    })
}

impl Arbitrary for CxxMutant {
    fn arbitrary(g: &mut Gen) -> CxxMutant {
        let n = 1 + usize::arbitrary(g) % 4;
        CxxMutant(Mutant {
            file: usize::arbitrary(g) % cxx_inputs().len(),
            edits: (0..n).map(|_| Edit::arbitrary(g)).collect(),
        })
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = CxxMutant>> {
        Box::new(self.0.shrink().map(CxxMutant))
    }
}

/// A mutated C++ kernel through the C++ front end and, when it is accepted, the whole build.
fn cxx_builds_or_refuses(m: CxxMutant) -> TestResult {
    let text = apply(&cxx_inputs()[m.0.file], &m.0.edits, CXX_TOKENS);
    let _watched = Watched::start(&text);
    let result = std::panic::catch_unwind(|| -> Result<(), String> {
        let mut sources = kiln_diagnostics::SourceMap::new();
        let file = sources.add("m.clcpp", None, text.clone());
        let Ok(fe) = kiln_driver::session::frontend(
            sources,
            file,
            &kiln_frontend::pp::MemLoader::default(),
            &kiln_frontend::Options::default(),
        ) else {
            return Ok(());
        };
        let hw = kiln_driver::HwOptions {
            clock_mhz: 100.0,
            device: kiln_device::Device::generic(),
            optimize: true,
            egraph: false,
            explain_opt: false,
            pipeline: true,
            scalar_replacement: true,
            local_size: Some([4, 1, 1]),
            local_args: vec![],
            strict_pipe_order: false,
        };
        for name in kiln_driver::session::kernel_names(&fe.program) {
            if let Err(f) = kiln_driver::build_kernel(&fe, &name, None, &hw)
                && let Some(d) = f.diags.iter().find(|d| d.code == kiln_diagnostics::codes::INTERNAL_ERROR)
            {
                return Err(format!("{}: {:?}", d.message, d.notes));
            }
        }
        Ok(())
    });
    match result {
        Ok(Ok(())) => TestResult::passed(),
        Ok(Err(e)) => TestResult::error(format!("internal error on:\n{text}\n{e}")),
        Err(_) => TestResult::error(format!("panicked on:\n{text}")),
    }
}

#[test]
fn cxx_front_end_and_build_never_panic_on_mutated_cxx_kernels() {
    let n = std::env::var("KILN_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000) / 10;
    QuickCheck::new().tests(n).max_tests(n * 2).quickcheck(cxx_builds_or_refuses as fn(CxxMutant) -> TestResult);
}
