#![allow(clippy::unwrap_used)]
//! `kiln fuzz` as CI runs it: a few hundred generated kernels through `emu`, `sim` with random
//! stalls, `cosim` (every 20th), PoCL and gcc, with 0 mismatches, 0 internal errors and 0
//! refusals. The seed range changes from run to run (it starts at the clock's seconds), so each
//! CI run tries kernels no run tried before; it is printed, and a failure replays with the same
//! `kiln fuzz --seed S -n N`. `KILN_FUZZ_SEED` and `KILN_FUZZ_COUNT` choose the range.
//!
//! This is also the whole-pipeline verifier property on generated kernels: every stage of kiln
//! verifies its output, so a stage that breaks an invariant shows here as an internal error.

use kiln_tests::{kiln, require_tool, scratch};

#[test]
fn generated_kernels_agree_in_every_engine() {
    for tool in ["verilator", "gcc", "clang"] {
        require_tool(tool);
    }
    let seed: u64 = std::env::var("KILN_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1000, |d| d.as_secs())
    });
    let count: u64 = std::env::var("KILN_FUZZ_COUNT").ok().and_then(|v| v.parse().ok()).unwrap_or(240);
    let out = scratch("fuzz");
    let (s, n) = (seed.to_string(), count.to_string());
    println!("replay with: kiln fuzz --seed {seed} -n {count} --cosim-every 20");
    let run = kiln(&["fuzz", "--seed", &s, "-n", &n, "--cosim-every", "20", "-o", out.to_str().unwrap()]);
    print!("{}", run.stdout);
    assert_eq!(run.code, 0, "kiln fuzz --seed {seed} -n {count} found failures:\n{}{}", run.stdout, run.stderr);
    let summary = run.stdout.lines().find(|l| l.starts_with("kiln fuzz:")).unwrap();
    // Every kernel ran in the emulator and the simulator; some through Verilator, PoCL and gcc.
    assert!(summary.contains(&format!("{count} emu, {count} sim")), "{summary}");
    let ran = |engine: &str| -> u64 {
        let at = summary.find(&format!(" {engine}")).unwrap();
        summary[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(ran("cosim") >= count / 20, "{summary}");
    assert!(ran("PoCL") >= count / 2, "{summary}");
    assert!(ran("gcc") >= count / 10, "{summary}");
    assert!(summary.ends_with("0 mismatches, 0 internal errors, 0 other failures"), "{summary}");
}
