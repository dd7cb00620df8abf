#![allow(clippy::unwrap_used)]
//! The kernel-wide range analysis (`kiln_dataflow::ranges`) is sound on real kernels: every
//! corpus kernel and every PolyBench kernel, optimized as the e-graph phase receives it (the
//! `-O1` passes) and as the scheduler receives it (after the phase and the last rewrites), is
//! emulated on its run spec's inputs block by block, and every value the emulator computes must
//! lie in the interval and agree with the known bits the analysis gives it in its block (so the
//! narrowing and folding the e-graph phase does with them, and the scheduler's reading of
//! narrowed indices, are exact).

use kiln_cli::runspec;
use kiln_dataflow::emu::{Emulation, Progress, Unconnected};
use kiln_dataflow::ir::{Block, Kernel, Value};
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_dataflow::ranges::ValueRanges;
use kiln_diagnostics::SourceMap;
use kiln_driver::session as driver;
use kiln_tests::{corpus, par_each, scratch, tests_dir};
use std::path::{Path, PathBuf};

/// Runs `source` with `spec` and checks every value against its facts; returns how many
/// values it checked.
fn check(source: &Path, spec_path: &Path) -> u64 {
    let name = source.display().to_string();
    let mut sources = SourceMap::new();
    let spec = runspec::load(spec_path, &mut sources).unwrap_or_else(|d| panic!("{name}: spec: {}", d.message));
    let mut opts = kiln_frontend::Options::default();
    for (n, v) in &spec.defines {
        opts.defines.push((n.clone(), Some(v.clone())));
    }
    let file =
        sources.add(source.display().to_string(), Some(source.to_path_buf()), std::fs::read_to_string(source).unwrap());
    let fe = driver::frontend(sources, file, &kiln_frontend::pp::FsLoader, &opts)
        .ok()
        .unwrap_or_else(|| panic!("{name}: front end"));
    let id = driver::find_kernel(&fe.program, &spec.kernel, None).ok().unwrap();
    let local = spec.local_size.as_ref().map(|l| {
        let mut out = [1u32; 3];
        for (i, v) in l.iter().take(3).enumerate() {
            out[i] = *v as u32;
        }
        out
    });
    let lower_opts = kiln_dataflow::lower::LowerOptions {
        loop_transforms: true,
        scalar_replacement: true,
        local_size: local,
        local_args: runspec::local_args(&spec.args),
        ..Default::default()
    };
    let mut k = driver::lower_with(&fe.program, id, &lower_opts).ok().unwrap();
    let m = runspec::materialize(&spec, &k).ok().unwrap_or_else(|| panic!("{name}: run spec"));
    optimize(
        &mut k,
        &PipelineOptions {
            verify_each: false,
            disabled: false,
            egraph: None,
            defer_divisions: true,
            lut_multiply_below: 0,
            first_addresses_in_outer_loops: true,
        },
    )
    .unwrap();
    let mut checked = emulate_and_check(&k, &m.args, &name);
    // And as the scheduler reads it: after the e-graph phase and the last rewrites (narrowed
    // registers, loop tests carried a cycle ahead, trip counts recorded), with the iCE40's
    // narrow multiplies made partial products.
    let options = kiln_dataflow::egraph::EgraphOptions::for_device(kiln_device::Device::generic());
    kiln_dataflow::passes::egraph_phase(&mut k, &options, false).unwrap();
    kiln_dataflow::passes::finish_for_hardware(&mut k, false, 11, true).unwrap();
    checked += emulate_and_check(&k, &m.args, &name);
    checked
}

fn emulate_and_check(k: &Kernel, args: &[kiln_dataflow::emu::Arg], name: &str) -> u64 {
    let ranges = ValueRanges::compute(k);
    let mut e = Emulation::new(k, args);
    let mut checked = 0;
    let mut block = e.block();
    check_values(k, &ranges, &e, block, &k.blocks[block].params, name, &mut checked);
    loop {
        // One block (with operations) at a time.
        let progress = e.run(&mut Unconnected, 1, 200_000_000).unwrap_or_else(|err| panic!("{name}: {err:?}"));
        let results: Vec<Value> = k.blocks[block].ops.iter().filter_map(|op| k.ops[*op].result).collect();
        check_values(k, &ranges, &e, block, &results, name, &mut checked);
        match progress {
            Progress::Yielded => {
                block = e.block();
                check_values(k, &ranges, &e, block, &k.blocks[block].params, name, &mut checked);
            }
            Progress::Done => return checked,
            other => panic!("{name}: the emulation stopped: {other:?}"),
        }
    }
}

fn check_values(
    k: &Kernel,
    ranges: &ValueRanges,
    e: &Emulation,
    b: Block,
    values: &[Value],
    name: &str,
    checked: &mut u64,
) {
    for &v in values {
        let x = e.value(v);
        let f = ranges.facts_in(k, b, v);
        assert!(
            f.lo <= x && x <= f.hi && x & f.zeros == 0 && x & f.ones == f.ones,
            "{name}: {v} = {x:#x} in {b}, but the analysis says {f:?}\n{k}"
        );
        *checked += 1;
    }
}

fn polybench() -> Vec<(PathBuf, PathBuf)> {
    let dir = tests_dir().join("..").join("bench").join("polybench-kernels");
    let out = scratch("ranges");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let at = text.find("kernel void ").unwrap() + "kernel void ".len();
            let kernel = text[at..].split('(').next().unwrap().trim().to_string();
            let spec = out.join(format!("{kernel}.toml"));
            std::fs::write(&spec, format!("kernel = \"{kernel}\"\n[args]\nchecksum = {{ len = 1 }}\n")).unwrap();
            (f, spec)
        })
        .collect()
}

#[test]
fn every_value_the_emulator_computes_lies_in_its_range() {
    let mut cases: Vec<(PathBuf, PathBuf)> = corpus()
        .into_iter()
        // Systems of kernels have `[[launch]]` specs; their kernels are plain kernels here too.
        .filter(|c| !std::fs::read_to_string(&c.spec).unwrap().contains("[[launch]]"))
        .map(|c| (c.source, c.spec))
        .collect();
    cases.extend(polybench());
    assert!(cases.len() > 100, "the corpus and PolyBench");
    let counts = std::sync::Mutex::new(Vec::new());
    par_each(&cases, |(source, spec)| {
        let n = check(source, spec);
        counts.lock().unwrap().push(n);
    });
    let total: u64 = counts.lock().unwrap().iter().sum();
    assert!(total > 1_000_000, "checked {total} values");
}
