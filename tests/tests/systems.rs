#![allow(clippy::unwrap_used)]
//! Systems of kernels connected by pipes (`tests/systems/`), run by `kiln emu` with a
//! `[[launch]]` run spec: the outputs are checked against references computed here from the
//! inputs, the three dialects of the same chain must agree, and a system that deadlocks by
//! construction must be reported naming its kernels and pipes.

use kiln_tests::{kiln, scratch, tests_dir};
use serde_json::Value;

fn system(name: &str) -> (String, String) {
    let d = tests_dir().join("systems");
    (d.join(format!("{name}.cl")).display().to_string(), d.join(format!("{name}.toml")).display().to_string())
}

/// Runs a system in the emulator and returns its `buffers` object.
fn emu(name: &str) -> Value {
    let (cl, toml) = system(name);
    let out = scratch(&format!("system-{name}")).join("out.json");
    let r = kiln(&["emu", &cl, "--spec", &toml, "--json", &out.display().to_string()]);
    assert_eq!(r.code, 0, "{name}: {}", r.stderr);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    v["buffers"].clone()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}")).iter().map(|x| x.as_i64().unwrap()).collect()
}

#[test]
fn three_stage_chain_is_the_same_in_all_three_dialects() {
    let mut outs = Vec::new();
    for name in ["chain_intel", "chain_xilinx", "chain_std"] {
        let b = emu(name);
        let (input, out) = (ints(&b["in"]), ints(&b["out"]));
        assert_eq!(input.len(), 1024);
        let want: Vec<i64> = input.iter().map(|x| x * 3 + 1).collect();
        assert_eq!(out, want, "{name}");
        outs.push(out);
    }
    assert!(outs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn int4_channel_moves_whole_packets() {
    let b = emu("int4_channel");
    let (input, out) = (ints(&b["in"]), ints(&b["out"]));
    for q in 0..16 {
        for l in 0..4 {
            // `pack` sends `v.wzyx`; `unpack` adds (1, 2, 3, 4).
            let want = (input[4 * q + 3 - l] + l as i64 + 1) as i32 as i64;
            assert_eq!(out[4 * q + l], want, "packet {q} lane {l}");
        }
    }
}

#[test]
fn feedback_between_two_kernels() {
    let b = emu("feedback");
    let (input, out) = (ints(&b["in"]), ints(&b["out"]));
    let mut sum: u32 = 0;
    for (i, x) in input.iter().enumerate() {
        let x = *x as u32;
        sum = sum.wrapping_add(x.wrapping_mul(x).wrapping_add(i as u32 + 1));
        assert_eq!(out[i] as u32, sum, "answer {i}");
    }
}

#[test]
fn polling_consumer_loses_and_reorders_nothing() {
    let b = emu("polling");
    let (input, out) = (ints(&b["in"]), ints(&b["out"]));
    let want: Vec<i64> = input.iter().map(|x| (*x as i32).wrapping_sub(7) as i64).collect();
    assert_eq!(out, want);
    assert_eq!(ints(&b["flag"]), vec![1]);
}

#[test]
fn deadlock_names_both_kernels_and_their_pipes() {
    let (cl, toml) = system("deadlock");
    let r = kiln(&["emu", &cl, "--spec", &toml]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("E0906"), "{}", r.stderr);
    for needle in
        ["kernel `left` waits here to read from pipe `pong`", "kernel `right` waits here to read from pipe `ping`"]
    {
        assert!(r.stderr.contains(needle), "missing `{needle}` in:\n{}", r.stderr);
    }
    assert!(r.stderr.contains("pipe `ping` holds 0 of 4 packet(s)"), "{}", r.stderr);
    assert!(r.stderr.contains("deadlock.cl:8:"), "the report points at the source line: {}", r.stderr);
}

#[test]
fn unconnected_pipe_is_a_spec_error() {
    let (cl, _) = system("chain_intel");
    let dir = scratch("system-unconnected");
    let spec = dir.join("spec.toml");
    // `compute` reads `c0`, but no launched kernel writes it.
    std::fs::write(&spec, "[[launch]]\nkernel = \"compute\"\nargs = { n = 4 }\n\n[[launch]]\nkernel = \"consumer\"\nargs = { out = \"@out\", n = 4 }\n\n[buffers]\nout = { len = 4 }\n").unwrap();
    let r = kiln(&["emu", &cl, "--spec", &spec.display().to_string()]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("E0807")
            && r.stderr.contains("pipe `c0` is read by `compute` but no launched kernel writes it"),
        "{}",
        r.stderr
    );
}

#[test]
fn pipes_are_refused_in_hardware_until_the_simulator_models_them() {
    let (cl, _) = system("chain_intel");
    let out = scratch("system-build");
    let r = kiln(&["build", &cl, "-o", &out.display().to_string()]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("E0506") && r.stderr.contains("`kiln emu` runs systems"), "{}", r.stderr);
}
