#![allow(clippy::unwrap_used)]
//! The work-group collective functions, checked against a reference computed here: PoCL 3.1,
//! the corpus's usual independent reference, has none. The corpus test runs the same kernels
//! (`tests/kernels/work_group_*.cl`) through the simulator and Verilator.

use kiln_tests::{kiln, scratch, tests_dir};
use serde_json::Value;

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

/// The work-items of each 4 x 2 work-group of the 8 x 4 range, in local linear id order, as
/// indices into the row-major global buffers.
fn groups() -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for gy in 0..2 {
        for gx in 0..2 {
            let mut members = Vec::new();
            for ly in 0..2 {
                for lx in 0..4 {
                    members.push((gy * 2 + ly) * 8 + gx * 4 + lx);
                }
            }
            out.push(members);
        }
    }
    out
}

/// Inclusive and exclusive scans of `xs` under `op` from `identity`.
fn scans<T: Copy>(xs: &[T], identity: T, op: impl Fn(T, T) -> T) -> (Vec<T>, Vec<T>) {
    let (mut inc, mut exc, mut acc) = (Vec::new(), Vec::new(), identity);
    for x in xs {
        exc.push(acc);
        acc = op(acc, *x);
        inc.push(acc);
    }
    (inc, exc)
}

/// The emulator's buffers of a corpus kernel.
fn emulate(kernel: &str) -> Value {
    let dir = tests_dir().join("kernels");
    let out = scratch(&format!("work-group-{kernel}")).join("emu.json");
    let r = kiln(&[
        "emu",
        &dir.join(format!("{kernel}.cl")).display().to_string(),
        "--spec",
        &dir.join(format!("{kernel}.toml")).display().to_string(),
        "--json",
        &out.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    v["args"].clone()
}

#[test]
fn work_group_scan_computes_its_reference() {
    let a = emulate("work_group_scan");
    let (input, out) = (ints(&a["in"]), ints(&a["out"]));
    for group in input.chunks(16).zip(out.chunks(16)) {
        let (vs, got) = group;
        let total: i64 = vs.iter().sum();
        let mut running = 0;
        for (v, g) in vs.iter().zip(got) {
            running += v;
            assert_eq!(*g, running * 2 - total + vs[0]);
        }
    }
}

#[test]
fn work_group_functions_compute_their_reference() {
    let v = emulate("work_group_functions");
    let a = &v;
    let (input, u, l) = (ints(&a["in"]), ints(&a["u"]), ints(&a["l"]));
    let (sums, umix, lmix, flags, iter) =
        (ints(&a["sums"]), ints(&a["umix"]), ints(&a["lmix"]), ints(&a["flags"]), ints(&a["iter"]));
    for members in groups() {
        let vs: Vec<i32> = members.iter().map(|g| input[*g] as i32).collect();
        let us: Vec<u32> = members.iter().map(|g| u[*g] as u32).collect();
        let ls: Vec<i64> = members.iter().map(|g| l[*g]).collect();
        let sum = vs.iter().fold(0i32, |a, b| a.wrapping_add(*b));
        let (add_inc, add_exc) = scans(&vs, 0i32, i32::wrapping_add);
        let (max_inc, _) = scans(&vs, i32::MIN, i32::max);
        let (_, min_exc) = scans(&vs, i32::MAX, i32::min);
        let (_, umax_exc) = scans(&us, 0u32, u32::max);
        let (umin_inc, _) = scans(&us, u32::MAX, u32::min);
        let (linc, _) = scans(&ls, 0i64, i64::wrapping_add);
        for (k, g) in members.iter().enumerate() {
            let s = &sums[8 * g..8 * g + 8];
            // work_group_broadcast(v, 2, 1) + work_group_broadcast(v, 3, 0): local ids (2, 1)
            // and (3, 0) are linear ids 6 and 3.
            let bc = vs[6].wrapping_add(vs[3]);
            let want = [
                sum,
                *vs.iter().min().unwrap(),
                *vs.iter().max().unwrap(),
                add_inc[k],
                add_exc[k],
                max_inc[k],
                min_exc[k],
                bc,
            ];
            assert_eq!(s, want.map(i64::from), "sums of work-item {g}");
            let m = &umix[4 * g..4 * g + 4];
            let want = [*us.iter().min().unwrap(), *us.iter().max().unwrap(), umax_exc[k], umin_inc[k]];
            assert_eq!(m.iter().map(|x| *x as u32).collect::<Vec<_>>(), want, "umix of work-item {g}");
            let lsum = ls.iter().fold(0i64, |a, b| a.wrapping_add(*b));
            assert_eq!(&lmix[3 * g..3 * g + 3], [lsum, linc[k], *ls.iter().min().unwrap()], "lmix of {g}");
            let all = vs.iter().all(|x| *x > -1000) as i64;
            let any7 = vs.contains(&7) as i64;
            let all_odd = vs.iter().all(|x| x & 1 != 0) as i64;
            let neg = if vs.iter().any(|x| *x < 0) { 1 } else { 2 };
            assert_eq!(&flags[4 * g..4 * g + 4], [all, any7, all_odd, neg], "flags of work-item {g}");
            let mut acc = vec![0i32; vs.len()];
            for r in 0..3 {
                let shifted: Vec<i32> = vs.iter().map(|x| x.wrapping_add(r)).collect();
                let (inc, _) = scans(&shifted, 0i32, i32::wrapping_add);
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = a.wrapping_add(inc[j]);
                }
                let top = *acc.iter().max().unwrap();
                assert_eq!(iter[3 * g + r as usize], i64::from(top.wrapping_sub(acc[k])), "iter {r} of {g}");
            }
        }
    }
}
