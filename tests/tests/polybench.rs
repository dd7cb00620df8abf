#![allow(clippy::unwrap_used)]
//! The PolyBench kernels of `bench/polybench-kernels/` (whole programs with an XOR checksum):
//! emulator = simulator = Verilator through `kiln cosim`, the checksum equal to gcc compiling the
//! same kernel as C, and every pipelined loop at its MII unless the loop report says why not.
//! The same programs as PolyBench writes them (`bench/polybench-written/`, initial data from the
//! run-time argument `seed`): the same three-way agreement, a checksum that is not zero, and
//! scalar replacement never slower than without it.
//! (`bench/polybench` prints the cycle table; this test keeps the kernels honest in CI.)

use kiln_tests::{kiln, par_each, require_tool, result_args, scratch, tests_dir};
use std::path::PathBuf;

fn kernel_name(text: &str) -> String {
    let at = text.find("kernel void ").unwrap() + "kernel void ".len();
    text[at..].split('(').next().unwrap().trim().to_string()
}

/// The kernel compiled as C by gcc and run with `seed` as its argument after `checksum` (none
/// for the hand-tuned kernels).
fn gcc_checksum(source: &std::path::Path, name: &str, dir: &std::path::Path, seed: Option<i32>) -> i64 {
    let tag = if seed.is_some() { "_written" } else { "" };
    let args = seed.map(|s| format!(", {s}")).unwrap_or_default();
    let c = dir.join(format!("{name}{tag}_ref.c"));
    std::fs::write(
        &c,
        format!(
            "#define kernel\n#define global\ntypedef unsigned int uint;\n#include \"{}\"\n#include <stdio.h>\n\
             int main(void) {{ int out = 0; {name}(&out{args}); printf(\"%d\\n\", out); return 0; }}\n",
            source.display()
        ),
    )
    .unwrap();
    let exe = dir.join(format!("{name}{tag}_ref"));
    let out = std::process::Command::new("gcc")
        .args(["-std=gnu99", "-O1", "-fwrapv", "-w"])
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: gcc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let run = std::process::Command::new(&exe).output().unwrap();
    assert!(run.status.success(), "{name}: the C reference crashed");
    String::from_utf8_lossy(&run.stdout).trim().parse().unwrap()
}

fn kernels_in(dir: &str) -> Vec<PathBuf> {
    let kernels = tests_dir().join("..").join("bench").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&kernels)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 25, "the PolyBench set of {dir} has 25 kernels");
    files
}

#[test]
fn polybench_checksums_agree_with_gcc_in_all_engines() {
    require_tool("gcc");
    require_tool("verilator");
    let dir = scratch("polybench");
    let files = kernels_in("polybench-kernels");
    par_each(&files, |source| {
        let text = std::fs::read_to_string(source).unwrap();
        let name = kernel_name(&text);
        let spec = dir.join(format!("{name}.toml"));
        std::fs::write(&spec, format!("kernel = \"{name}\"\n[args]\nchecksum = {{ len = 1 }}\n")).unwrap();
        let out = dir.join(&name);
        let src = source.display().to_string();
        let r = kiln(&["build", &src, "-o", &out.display().to_string()]);
        assert_eq!(r.code, 0, "{name}: build failed\n{}", r.stderr);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        for l in report["kernels"][0]["loops"].as_array().unwrap() {
            if l["pipelined"] == true {
                assert!(
                    l["achieved_ii"] == l["mii"] || l["ii_note"].is_string(),
                    "{name}: loop at {} misses its MII without a reason: {l:#}",
                    l["location"]
                );
            }
        }
        let json = dir.join(format!("{name}.json"));
        let r = kiln(&["cosim", &src, "--spec", &spec.display().to_string(), "--json", &json.display().to_string()]);
        assert_eq!(r.code, 0, "{name}: cosim failed\n{}{}", r.stdout, r.stderr);
        let got = result_args(&json)["checksum"][0].as_i64().unwrap();
        assert_eq!(got, gcc_checksum(source, &name, &dir, None), "{name}: checksum differs from gcc");
        // Without the e-graph phase: the same result, and never fewer cycles.
        let plain: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let json0 = dir.join(format!("{name}-no-egraph.json"));
        let r = kiln(&[
            "sim",
            &src,
            "--spec",
            &spec.display().to_string(),
            "--no-egraph",
            "--json",
            &json0.display().to_string(),
        ]);
        assert_eq!(r.code, 0, "{name}: sim --no-egraph failed\n{}{}", r.stdout, r.stderr);
        let without: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json0).unwrap()).unwrap();
        assert_eq!(result_args(&json0)["checksum"][0].as_i64().unwrap(), got, "{name}: --no-egraph changes the result");
        let (c, c0) = (plain["cycles"].as_u64().unwrap(), without["cycles"].as_u64().unwrap());
        assert!(c <= c0, "{name}: the e-graph phase made the kernel slower ({c} > {c0} cycles)");
    });
}

fn loop_notes(report: &serde_json::Value) -> Vec<String> {
    report["kernels"][0]["loops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["transformations"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
}

#[test]
fn polybench_as_written_agrees_with_gcc_and_scalar_replacement_pays() {
    require_tool("gcc");
    require_tool("verilator");
    let dir = scratch("polybench-written");
    let seed = 3;
    par_each(&kernels_in("polybench-written"), |source| {
        let text = std::fs::read_to_string(source).unwrap();
        let name = kernel_name(&text);
        let spec = dir.join(format!("{name}.toml"));
        std::fs::write(&spec, format!("kernel = \"{name}\"\n[args]\nchecksum = {{ len = 1 }}\nseed = {seed}\n"))
            .unwrap();
        let src = source.display().to_string();
        let spec_arg = spec.display().to_string();
        let out = dir.join(&name);
        let r = kiln(&["build", &src, "-o", &out.display().to_string()]);
        assert_eq!(r.code, 0, "{name}: build failed\n{}", r.stderr);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
        let json = dir.join(format!("{name}.json"));
        let r = kiln(&["cosim", &src, "--spec", &spec_arg, "--stall-seed", "7", "--json", &json.display().to_string()]);
        assert_eq!(r.code, 0, "{name}: cosim failed\n{}{}", r.stdout, r.stderr);
        let got = result_args(&json)["checksum"][0].as_i64().unwrap();
        assert_ne!(got, 0, "{name}: a checksum of 0 measures nothing");
        assert_eq!(got, gcc_checksum(source, &name, &dir, Some(seed)), "{name}: checksum differs from gcc");
        // Without scalar replacement: the same result, and never fewer cycles.
        let cycles = |json: &std::path::Path| -> u64 {
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
            v["cycles"].as_u64().unwrap()
        };
        let with = dir.join(format!("{name}-sr.json"));
        let without = dir.join(format!("{name}-no-sr.json"));
        for (json, flags) in [(&with, vec![]), (&without, vec!["--no-scalar-replacement"])] {
            let mut args = vec!["sim", &src, "--spec", &spec_arg, "--json"];
            let json_arg = json.display().to_string();
            args.push(&json_arg);
            args.extend(flags);
            let r = kiln(&args);
            assert_eq!(r.code, 0, "{name}: sim {args:?} failed\n{}{}", r.stdout, r.stderr);
            assert_eq!(result_args(json)["checksum"][0].as_i64().unwrap(), got, "{name}: {args:?} changes the result");
        }
        let (c, c0) = (cycles(&with), cycles(&without));
        assert!(c <= c0, "{name}: scalar replacement made the kernel slower ({c} > {c0} cycles)");
        let notes = loop_notes(&report);
        let replaced = |element: &str| notes.iter().any(|n| n.contains(&format!("`{element}` kept in a register")));
        match name.as_str() {
            // The accumulator of each product, in the inner loop that sums it.
            "k2mm" => assert!(replaced("tmp[i][j]") && replaced("D[i][j]"), "{name}: {notes:?}"),
            // `A[i][j]` apart from `A[i][k]` (k < j) and `A[k][j]` (k < j < i): by the loops' ranges.
            "lu" => assert!(replaced("A[i][j]"), "{name}: {notes:?}"),
            "trmm" => assert!(replaced("B[i][j]"), "{name}: {notes:?}"),
            "nussinov" => assert!(replaced("table[i][j]"), "{name}: {notes:?}"),
            // `path[i][k]` is written by the iteration `j == k`: not kept apart from memory, but
            // updated by that write, checked at run time.
            "floyd_warshall" => {
                assert!(!replaced("path[i][k]"), "{name}: {notes:?}");
                assert!(
                    notes
                        .iter()
                        .any(|n| n.contains("`path[i][k]` loaded once before the loop, and updated by the writes")),
                    "{name}: {notes:?}"
                );
            }
            // Rows of 10 padded to 16, so the eight unrolled copies of the `k` loop read
            // different banks: its parent loop's II falls from 21 (two banks) to at most 5.
            "heat_3d" => {
                assert!(
                    notes.iter().any(|n| n.contains("rows of `A` padded to 16 elements"))
                        && notes.iter().any(|n| n.contains("rows of `B` padded to 16 elements")),
                    "{name}: {notes:?}"
                );
                let iis: Vec<u64> = report["kernels"][0]["loops"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|l| l["achieved_ii"].as_u64())
                    .collect();
                assert!(iis.iter().all(|ii| *ii <= 5), "{name}: IIs {iis:?}");
            }
            _ => {}
        }
    });
}
