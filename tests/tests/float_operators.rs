#![allow(clippy::unwrap_used)]
//! Each floating-point operator in hardware against Rust's `f32`: the kernels of
//! `tests/float/operators/` apply one operator to bit patterns, and `kiln cosim` runs them on
//! every pair of edge values (signed zeros, subnormals, the normal range's ends, infinities,
//! NaNs, rounding ties, the integer conversions' limits) and on random bit patterns, in the
//! emulator, the simulator and Verilator. Each result Verilator computed is then compared with
//! what Rust computes. `bench/float/verilator-operators` runs the same kernels on a million
//! random operands each.

use kiln_tests::{kiln, par_each, require_tool, scratch};
use std::path::PathBuf;

/// Values at which operators change behaviour.
const EDGES: &[u32] = &[
    0x0000_0000,
    0x8000_0000, // zeros
    0x0000_0001,
    0x8000_0001,
    0x0000_0003,
    0x007f_ffff,
    0x807f_ffff,
    0x0040_0000, // subnormals
    0x0080_0000,
    0x8080_0000,
    0x0080_0001,
    0x0c00_0000, // smallest normals and near
    0x3f80_0000,
    0xbf80_0000,
    0x3f80_0001,
    0x3f7f_ffff,
    0x3fff_ffff,
    0x4000_0000, // around one
    0x3f00_0000,
    0x3fc0_0000,
    0x4020_0000,
    0xbfc0_0000,
    0x4060_0000, // ties for rounding to integers
    0x3380_0000,
    0x4b00_0000,
    0x4b7f_ffff,
    0xcb00_0001, // 2^-24, 2^23 and the last fractions
    0x4f00_0000,
    0xcf00_0000,
    0x4f80_0000,
    0x4eff_ffff,
    0x5f00_0000,
    0xdf00_0000, // integer limits
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f00_0000,
    0x1f80_0000,
    0x6000_0000, // overflow, underflow
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0xffc0_0001, // infinities, NaNs
];

const NAN: u32 = 0x7fc0_0000;

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// A float result as kiln defines it: IEEE 754, and a NaN from arithmetic is `0x7fc00000`.
fn float(r: f32) -> u32 {
    if r.is_nan() { NAN } else { r.to_bits() }
}

/// IEEE 754 minNum/maxNum: a NaN operand gives the other operand, and -0 is below +0.
fn min_max(x: u32, y: u32, max: bool) -> u32 {
    let (a, b) = (f(x), f(y));
    match (a.is_nan(), b.is_nan()) {
        (true, true) => NAN,
        (true, false) => y,
        (false, true) => x,
        _ if a == 0.0 && b == 0.0 => {
            let (either_negative, either_positive) = ((x | y) >> 31 == 1, x >> 31 == 0 || y >> 31 == 0);
            let negative = if max { !either_positive } else { either_negative };
            if negative { 0x8000_0000 } else { 0 }
        }
        _ => float(if max { a.max(b) } else { a.min(b) }),
    }
}

/// Each operator kernel and what Rust computes for it.
fn reference(op: &str) -> fn(u32, u32, u32) -> u32 {
    match op {
        "add" => |a, b, _| float(f(a) + f(b)),
        "sub" => |a, b, _| float(f(a) - f(b)),
        "mul" => |a, b, _| float(f(a) * f(b)),
        "div" => |a, b, _| float(f(a) / f(b)),
        "sqrt" => |a, _, _| float(f(a).sqrt()),
        "fma" => |a, b, c| float(f(a).mul_add(f(b), f(c))),
        "lt" => |a, b, _| u32::from(f(a) < f(b)),
        "fmin" => |a, b, _| min_max(a, b, false),
        "fmax" => |a, b, _| min_max(a, b, true),
        "to_int" => |a, _, _| f(a) as i32 as u32,
        "to_uint_sat_rte" => |a, _, _| f(a).round_ties_even() as u32,
        "from_int" => |a, _, _| (a as i32 as f32).to_bits(),
        "from_uint_rtz" => |a, _, _| {
            // Toward zero: the nearest float, one step down where it rounded up.
            let r = a as f32;
            if r as u64 > u64::from(a) { f32::from_bits(r.to_bits() - 1).to_bits() } else { r.to_bits() }
        },
        "floor" => |a, _, _| float(f(a).floor()),
        "rint" => |a, _, _| float(f(a).round_ties_even()),
        other => panic!("no reference for operator kernel {other}"),
    }
}

fn operators() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("float").join("operators");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    v.sort();
    v
}

/// A deterministic stream of bit patterns: random ones, and ones near the edges.
fn operands(n: usize, seed: u64) -> Vec<u32> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..n)
        .map(|_| {
            let r = next();
            match r % 4 {
                0 => EDGES[(r >> 8) as usize % EDGES.len()].wrapping_add((r >> 40) as u32 % 3),
                1 => (r >> 32) as u32 & 0x807f_ffff | 0x3f00_0000, // around one: close exponents
                _ => (r >> 32) as u32,
            }
        })
        .collect()
}

#[test]
fn every_operator_equals_rust_f32_on_edges_and_random_operands_in_verilator() {
    require_tool("verilator");
    let dir = scratch("float-operators");
    let ops = operators();
    assert!(ops.len() >= 15, "tests/float/operators has {} kernels", ops.len());
    // Every pair of edges, then random operands.
    let (mut a, mut b): (Vec<u32>, Vec<u32>) = EDGES.iter().flat_map(|x| EDGES.iter().map(move |y| (*x, *y))).unzip();
    a.extend(operands(1500, 1));
    b.extend(operands(1500, 2));
    let c: Vec<u32> = (0..a.len()).map(|i| EDGES[(i * 7) % EDGES.len()] ^ (i as u32 & 3)).collect();
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let n = a.len();
    par_each(&ops, |src| {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let spec = dir.join(format!("{name}.toml"));
        std::fs::write(
            &spec,
            format!(
                "kernel = \"op\"\n[args]\na = {{ data = [{}] }}\nb = {{ data = [{}] }}\nc = {{ data = [{}] }}\nout = {{ len = {n} }}\nn = {n}\n",
                list(&a),
                list(&b),
                list(&c)
            ),
        )
        .unwrap();
        let json = dir.join(format!("{name}.json"));
        let r = kiln(&[
            "cosim",
            &src.display().to_string(),
            "--spec",
            &spec.display().to_string(),
            "--json",
            &json.display().to_string(),
        ]);
        assert_eq!(r.code, 0, "{name}: cosim failed\n{}{}", r.stdout, r.stderr);
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["engine"], "verilator");
        let out = v["args"]["out"].as_array().unwrap();
        assert_eq!(out.len(), n);
        let want = reference(&name);
        let wrong: Vec<String> = (0..n)
            .filter_map(|i| {
                let got = out[i].as_u64().unwrap() as u32;
                let expected = want(a[i], b[i], c[i]);
                (got != expected).then(|| {
                    format!("{:#010x} {:#010x} {:#010x}: {got:#010x}, Rust {expected:#010x}", a[i], b[i], c[i])
                })
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{name}: {} of {n} results differ, first: {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
    });
}
