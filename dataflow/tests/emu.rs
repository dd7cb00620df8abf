#![allow(clippy::unwrap_used)]
use kiln_dataflow::emu::{Arg, emulate};
use kiln_dataflow::ir::Kernel;
use kiln_dataflow::passes::{PipelineOptions, optimize};
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};

fn compile(src: &str, name: &str) -> (Kernel, Kernel) {
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let id = prog.kernel_by_name(name).expect("kernel");
    let k =
        kiln_dataflow::lower::lower_kernel(&prog, id).unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
    if let Err(e) = kiln_dataflow::verify::verify(&k) {
        panic!("lowered IR invalid: {e:?}\n{k}");
    }
    let mut opt = k.clone();
    optimize(&mut opt, &PipelineOptions { verify_each: true, ..PipelineOptions::default() })
        .unwrap_or_else(|f| panic!("{f:?}\n{k}"));
    (k, opt)
}

/// Runs both the lowered and the optimized kernel; they must agree. Returns the optimized run's buffers.
fn run(src: &str, name: &str, args: Vec<Arg>) -> Vec<Option<Vec<u64>>> {
    let (k, opt) = compile(src, name);
    let a = emulate(&k, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
    let b = emulate(&opt, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(a.buffers, b.buffers, "optimization changed the result\n{opt}");
    b.buffers
}

#[test]
fn vadd() {
    let src = "kernel void vadd(global const int *a, global const int *b, global int *c, int n) {
        for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }";
    let r = run(
        src,
        "vadd",
        vec![Arg::Buffer(vec![1, 2, 3]), Arg::Buffer(vec![10, 20, 30]), Arg::Buffer(vec![0; 3]), Arg::Scalar(3)],
    );
    assert_eq!(r[2], Some(vec![11, 22, 33]));
}

#[test]
fn gcd_and_helpers() {
    let src = "uint gcd(uint a, uint b) { while (b != 0) { uint t = a % b; a = b; b = t; } return a; }
        kernel void k(global uint *out, global const uint *x, global const uint *y, int n) {
            for (int i = 0; i < n; i++) out[i] = gcd(x[i], y[i]); }";
    let r = run(
        src,
        "k",
        vec![Arg::Buffer(vec![0; 3]), Arg::Buffer(vec![12, 17, 100]), Arg::Buffer(vec![18, 5, 75]), Arg::Scalar(3)],
    );
    assert_eq!(r[0], Some(vec![6, 1, 25]));
}

#[test]
fn wraparound_shifts_and_switch() {
    let src = "kernel void k(global char *c, global short *s, global int *o) {
        char x = 127; x++; c[0] = x;              // -128
        uchar u = 250; u += 10; c[1] = u;         // 4
        short t = -32768; t--; s[0] = t;          // 32767
        int n = -16; o[0] = n >> 34;              // -4
        uint one = 1; o[1] = one << 33;           // 2
        int acc = 0;
        for (int i = 0; i < 6; i++) {
            switch (i % 4) { case 0: acc += 1; case 1: acc += 10; break; case 2: acc += 100; break; default: acc += 1000; }
        }
        o[2] = acc;                               // i=0:11 1:10 2:100 3:1000 4:11 5:10 => 1142
        o[3] = 7 / 0 == -1;                       // division by zero convention: 1
        o[4] = (-7) % 2;                          // -1
        int arr[4] = {3, 1, 4, 1};
        int m = 0; for (int i = 0; i < 4; i++) m = arr[i] > m ? arr[i] : m;
        o[5] = m;                                 // 4
        o[6] = (o[1] == 2 && o[0] < 0) || c[0] > 0;   // 1
        o[7] = sizeof(long) + sizeof(arr);        // 24
    }";
    let r = run(src, "k", vec![Arg::Buffer(vec![0; 2]), Arg::Buffer(vec![0; 1]), Arg::Buffer(vec![0; 8])]);
    assert_eq!(r[0], Some(vec![0x80, 4]));
    assert_eq!(r[1], Some(vec![0x7fff]));
    let o: Vec<i32> = r[2].as_ref().unwrap().iter().map(|v| *v as u32 as i32).collect();
    assert_eq!(o, vec![-4, 2, 1142, 1, -1, 4, 1, 24]);
}

#[test]
fn pointers_into_private_arrays_and_inlining() {
    let src = "void fill(int *p, int n, int v) { for (int i = 0; i < n; i++) *p++ = v + i; }
        int sum(const int *p, int n) { int s = 0; while (n--) s += p[n]; return s; }
        kernel void k(global int *out) {
            int buf[8];
            fill(buf, 8, 5);
            int *mid = &buf[4];
            out[0] = sum(buf, 8);     // 5..12 = 68
            out[1] = mid[-1] + *mid;  // 8 + 9
            out[2] = mid - buf;       // 4
            int x = 3; int *px = &x; *px += 4; out[3] = x;   // 7
        }";
    let r = run(src, "k", vec![Arg::Buffer(vec![0; 4])]);
    assert_eq!(r[0], Some(vec![68, 17, 4, 7]));
}

#[test]
fn out_of_bounds_is_reported() {
    let src = "kernel void k(global int *a) { a[4] = 1; }";
    let (k, _) = compile(src, "k");
    let e = emulate(&k, &[Arg::Buffer(vec![0; 4])], 1000).unwrap_err();
    assert!(matches!(e, kiln_dataflow::emu::RunError::OutOfBounds { index: 4, len: 4, write: true, .. }), "{e:?}");
}

#[test]
fn crc32_with_constant_table() {
    let src = "constant uint poly = 0xEDB88320u;
        kernel void crc(global const uchar *data, global uint *out, int n) {
            uint crc = 0xFFFFFFFFu;
            for (int i = 0; i < n; i++) {
                crc ^= data[i];
                for (int b = 0; b < 8; b++) crc = (crc >> 1) ^ (poly & (0u - (crc & 1u)));
            }
            out[0] = ~crc;
        }";
    let data: Vec<u64> = b"123456789".iter().map(|b| *b as u64).collect();
    let r = run(src, "crc", vec![Arg::Buffer(data), Arg::Buffer(vec![0]), Arg::Scalar(9)]);
    assert_eq!(r[1], Some(vec![0xCBF43926]));
}

#[test]
fn print_vadd_ir() {
    let src = "kernel void vadd(global const int *a, global const int *b, global int *c, int n) {
        for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }";
    let (_, opt) = compile(src, "vadd");
    println!("{opt}");
}

/// `exit-test` turns `i < n` into `i != max(n, start)`, computed an iteration ahead: the
/// optimized loop tests for equality, carries the test into its header, and runs as often as
/// the original for starts and bounds at the edges of both signednesses.
#[test]
fn counted_loops_test_for_equality() {
    let src = "kernel void s(global int *out, int start, int n) {
            int t = 0; for (int i = start; i < n; i++) t += i; out[0] = t; out[1] = 7; }
        kernel void u(global uint *out, uint start, uint n) {
            uint t = 0; for (uint i = start; i < n; ++i) t = t * 3 + i; out[0] = t; out[1] = 7; }
        kernel void nest(global int *out, int start, int n) {
            int t = 0;
            for (int i = start; i < n; i++) for (int j = i; j < n; j++) t = t * 5 + j - i;
            out[0] = t; out[1] = 7; }";
    let edges: [u64; 8] = [0, 1, 5, 0x7fff_fffd, 0x7fff_ffff, 0x8000_0000, 0xffff_fffd, 0xffff_ffff];
    for (name, signed, loops) in [("s", true, 1), ("u", false, 1), ("nest", true, 2)] {
        let (_, opt) = compile(src, name);
        let equalities = opt
            .ops
            .values()
            .filter(|o| matches!(o.kind, kiln_dataflow::ir::OpKind::Cmp(kiln_dataflow::ir::CmpOp::Ne)))
            .count();
        // The entry's test and the one every latch carries into the header.
        assert_eq!(equalities, 2 * loops, "{name}: every loop tests for equality\n{opt}");
        let carried = opt.loops.iter().filter(|l| {
            matches!(&opt.blocks[l.header].term, kiln_dataflow::ir::Terminator::Branch { cond, .. }
                if matches!(opt.values[*cond].def, kiln_dataflow::ir::ValueDef::Param(b, _) if b == l.header))
        });
        assert_eq!(carried.count(), loops, "{name}: every loop's test is carried into its header\n{opt}");
        let value = |x: u64| if signed { x as u32 as i32 as i64 } else { x as i64 };
        for &start in &edges {
            for &n in &edges {
                // Loops of up to a few iterations, and loops that never start.
                if value(n) - value(start) > 4 {
                    continue;
                }
                let r = run(src, name, vec![Arg::Buffer(vec![0, 0]), Arg::Scalar(start), Arg::Scalar(n)]);
                assert_eq!(r[0].as_ref().map(|b| b[1]), Some(7), "{name}: start {start:#x} n {n:#x}");
            }
        }
    }
}

/// `exit-test` on `i <= n` with a bound that is no constant: the latches carry `i != n` (or the
/// loop never ends when `n` is the largest value), and every run, with bounds at the edges of
/// both signednesses, computes what the kernel without the passes computes.
#[test]
fn at_most_loops_carry_their_test() {
    let src = "kernel void s(global int *out, int start, int n) {
            int t = 0; for (int i = start; i <= n; i++) { t = t * 3 + i; if (i == start + 3) break; }
            out[0] = t; out[1] = 7; }
        kernel void u(global uint *out, uint start, uint n) {
            uint t = 0; for (uint i = start; i <= n; ++i) { t = t * 5 + i; if (i == start + 3) break; }
            out[0] = t; out[1] = 7; }
        kernel void tri(global int *out, int n) {
            int t = 0;
            for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) t = t * 7 + j - i;
            out[0] = t; out[1] = 7; }";
    for name in ["s", "u", "tri"] {
        let (_, opt) = compile(src, name);
        let carried = opt.loops.iter().filter(|l| {
            matches!(&opt.blocks[l.header].term, kiln_dataflow::ir::Terminator::Branch { cond, .. }
                if matches!(opt.values[*cond].def, kiln_dataflow::ir::ValueDef::Param(b, _) if b == l.header))
        });
        let loops = if name == "tri" { 2 } else { 1 };
        assert_eq!(carried.count(), loops, "{name}: every loop's test is carried into its header\n{opt}");
    }
    let edges: [u64; 8] = [0, 1, 5, 0x7fff_fffd, 0x7fff_ffff, 0x8000_0000, 0xffff_fffd, 0xffff_ffff];
    for name in ["s", "u"] {
        for &start in &edges {
            for &n in &edges {
                let r = run(src, name, vec![Arg::Buffer(vec![0, 0]), Arg::Scalar(start), Arg::Scalar(n)]);
                assert_eq!(r[0].as_ref().map(|b| b[1]), Some(7), "{name}: start {start:#x} n {n:#x}");
            }
        }
    }
    for n in [0u64, 1, 2, 5] {
        let r = run(src, "tri", vec![Arg::Buffer(vec![0, 0]), Arg::Scalar(n)]);
        assert_eq!(r[0].as_ref().map(|b| b[1]), Some(7), "tri: n {n}");
    }
}

/// `bounded-compare`: the inner test of a coalesced nest, `j + 1 < 25` in front of both
/// counters' next values, becomes an equality on the counter itself, and the nest computes
/// what the kernel without loop transformations computes.
#[test]
fn coalesced_inner_test_is_an_equality() {
    use kiln_dataflow::ir::{CmpOp, OpKind};
    let src = "kernel void k(global int *out) {
            for (int i = 0; i < 20; i++) for (int j = 0; j < 25; j++) out[i * 25 + j] = i * 3 - j; }";
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let id = prog.kernel_by_name("k").expect("kernel");
    let transforms = kiln_dataflow::lower::LowerOptions { loop_transforms: true, ..Default::default() };
    let mut k = kiln_dataflow::lower::lower_kernel_with(&prog, id, &transforms)
        .unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
    let options = PipelineOptions {
        verify_each: true,
        egraph: Some(kiln_dataflow::egraph::EgraphOptions::for_device(kiln_device::Device::generic())),
        ..PipelineOptions::default()
    };
    optimize(&mut k, &options).unwrap_or_else(|f| panic!("{f:?}"));
    assert_eq!(k.loops.len(), 1, "the nest is coalesced\n{k}");
    let ordered = k.ops.values().filter(|o| matches!(o.kind, OpKind::Cmp(CmpOp::Ult | CmpOp::Slt))).count();
    assert_eq!(ordered, 0, "no less-than is left\n{k}");
    let expected: Vec<u64> = (0..500).map(|n: i64| ((n / 25) * 3 - n % 25) as i32 as u32 as u64).collect();
    let r = emulate(&k, &[Arg::Buffer(vec![0; 500])], 1_000_000).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(r.buffers[0].as_deref(), Some(&expected[..]));
}

/// `zero-accumulator`: a sum that starts from a loaded value starts from zero and the value is
/// added after the loop (also when the loop runs no iteration); one read inside its loop keeps
/// the accumulator as written.
#[test]
fn accumulators_start_from_zero() {
    use kiln_dataflow::analysis::natural_loops;
    // 32-bit header parameters that enter their loop with a value that is not a constant (the
    // loop test carried by `exit-test` is one bit wide).
    fn computed_starts(k: &Kernel) -> usize {
        let preds = k.predecessors();
        natural_loops(k)
            .iter()
            .map(|l| {
                let entering = preds[l.header].iter().filter(|p| !l.latches.contains(p));
                entering
                    .flat_map(|p| k.blocks[*p].term.targets().into_iter().filter(|t| t.block == l.header))
                    .flat_map(|t| t.args.iter())
                    .filter(|a| k.width(**a) == 32 && k.as_const(**a).is_none())
                    .count()
            })
            .sum()
    }
    let sum = "kernel void k(global const int *a, global int *out, int n) {
        int acc = a[0] * 3;
        for (int i = 1; i < n; i++) acc -= a[i];
        out[0] = acc; }";
    let (_, opt) = compile(sum, "k");
    assert_eq!(computed_starts(&opt), 0, "the accumulator starts from zero\n{opt}");
    let a: Vec<u64> = vec![7, 1, 2, 0xffff_fff0, 5];
    for n in [0u64, 1, 5] {
        let r = run(sum, "k", vec![Arg::Buffer(a.clone()), Arg::Buffer(vec![0]), Arg::Scalar(n)]);
        let expected = (1..n.max(1) as usize).fold(21u32, |acc, i| acc.wrapping_sub(a[i] as u32));
        assert_eq!(r[1], Some(vec![expected as u64]), "n = {n}");
    }
    let read_inside = "kernel void k(global const int *a, global int *out, int n) {
        int acc = a[0] * 3;
        for (int i = 1; i < n; i++) { acc += a[i]; out[i] = acc; }
        out[0] = acc; }";
    let (_, opt) = compile(read_inside, "k");
    assert!(computed_starts(&opt) >= 1, "an accumulator read inside its loop keeps its start\n{opt}");
    let r = run(read_inside, "k", vec![Arg::Buffer(a.clone()), Arg::Buffer(vec![0; 5]), Arg::Scalar(5)]);
    assert_eq!(r[1], Some(vec![21 + 1 + 2 - 16 + 5, 22, 24, 8, 13]));
}

/// A signed remainder and quotient by a power of two of a value that is never negative are the
/// unsigned ones: PolyBench's `((i * j + 1) % 16) / 16` is 0, and its multiplier goes away.
#[test]
fn signed_power_of_two_division_of_a_nonnegative_value_folds() {
    use kiln_dataflow::ir::{BinOp, OpKind};
    let src = "kernel void k(global int *out) {
        for (int i = 0; i < 16; i++) for (int j = 0; j < 22; j++) out[i * 22 + j] = ((i * j + 1) % 16) / 16 + (i * j + 1) % 16; }";
    let (_, opt) = compile(src, "k");
    let divides = opt
        .ops
        .values()
        .filter(|o| matches!(o.kind, OpKind::Binary(BinOp::SDiv | BinOp::SRem | BinOp::UDiv | BinOp::URem)))
        .count();
    assert_eq!(divides, 0, "no division is left\n{opt}");
    let slt = opt.ops.values().filter(|o| matches!(o.kind, OpKind::Cmp(kiln_dataflow::ir::CmpOp::Slt))).count();
    assert_eq!(slt, 0, "no sign test is left\n{opt}");
    let expected: Vec<u64> = (0..16 * 22).map(|n: u64| ((n / 22) * (n % 22) + 1) % 16).collect();
    let r = run(src, "k", vec![Arg::Buffer(vec![0; 16 * 22])]);
    assert_eq!(r[0].as_deref(), Some(&expected[..]));
}

/// `lut-multiply`: on a target whose synthesis builds narrow products from LUTs, a multiply of
/// two small loop counters, and one of a small value by a constant, become partial products
/// added in a tree, and compute the same.
#[test]
fn narrow_multiplies_are_partial_products() {
    use kiln_dataflow::ir::{BinOp, OpKind};
    let src = "kernel void k(global int *out) {
        for (int i = 0; i < 30; i++) for (int j = 0; j < 30; j++) out[i * 30 + j] = i * (j + 2) + 30 * (i ^ j); }";
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let id = prog.kernel_by_name("k").expect("kernel");
    let lowered =
        kiln_dataflow::lower::lower_kernel(&prog, id).unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
    let variable_multiplies = |k: &Kernel| {
        k.ops
            .values()
            .filter(|o| o.kind == OpKind::Binary(BinOp::Mul) && o.args.iter().all(|a| k.as_const(*a).is_none()))
            .count()
    };
    let multiplies = |k: &Kernel| k.ops.values().filter(|o| o.kind == OpKind::Binary(BinOp::Mul)).count();
    let expected: Vec<u64> = (0..900).map(|n: u64| (n / 30) * (n % 30 + 2) + 30 * ((n / 30) ^ (n % 30))).collect();
    for below in [0, 11] {
        let mut k = lowered.clone();
        let options = PipelineOptions { verify_each: true, lut_multiply_below: below, ..PipelineOptions::default() };
        optimize(&mut k, &options).unwrap_or_else(|f| panic!("{f:?}"));
        let left = variable_multiplies(&k);
        if below == 0 {
            assert_eq!(left, 1, "without the pass the multiply stays\n{k}");
            assert!(multiplies(&k) > left, "without the pass the address's multiply by 30 stays\n{k}");
        } else {
            assert_eq!(multiplies(&k), 0, "the 10-bit products, by a variable and by 30, are partial products\n{k}");
        }
        let r = emulate(&k, &[Arg::Buffer(vec![0; 900])], 10_000_000).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(r.buffers[0].as_deref(), Some(&expected[..]), "below = {below}");
    }
}

/// Counting a loop's trips simulates its test and step in the IR; what that emits is dropped,
/// and a loop that never ends (a nest's inner `for (j = 1; 40; j++)`, from the robustness
/// test's mutations) is simulated for a bounded number of trips. It once left five million
/// dead operations in the block, which the passes then took quadratic time over.
#[test]
fn counting_a_loop_leaves_no_simulated_operations() {
    let src = "kernel void k(global int *out) {
            int a[64];
            for (int j = 0; j < 64; j++) a[j] = j;
            for (int t = 0; t < 3; t++) for (int j = 1; 40; j++) a[j] = a[j - 1] + t;
            out[0] = a[3]; }";
    let out = check_source("t.cl", src, &Options::default());
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let id = prog.kernel_by_name("k").expect("kernel");
    let transforms = kiln_dataflow::lower::LowerOptions { loop_transforms: true, ..Default::default() };
    let k = kiln_dataflow::lower::lower_kernel_with(&prog, id, &transforms)
        .unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
    let in_blocks: usize = k.blocks.values().map(|b| b.ops.len()).sum();
    assert!(in_blocks < 500, "{in_blocks} operations in the blocks\n{k}");
    assert!(k.ops.len() < 1_000_000, "{} operations emitted", k.ops.len());
}

/// The loads of on-chip memories, and whether each takes its address (below zero extensions)
/// straight from a loop header's parameter (`induction-address`).
fn load_addresses(k: &Kernel) -> Vec<bool> {
    use kiln_dataflow::analysis::natural_loops;
    use kiln_dataflow::ir::{CastOp, OpKind, ValueDef};
    let headers: Vec<_> = natural_loops(k).iter().map(|l| l.header).collect();
    k.ops
        .values()
        .filter(|o| matches!(o.kind, OpKind::Load(m) if k.mems[m].is_on_chip()))
        .map(|o| {
            let mut a = o.args[0];
            while let Some(op) = k.def_op(a)
                && k.ops[op].kind == OpKind::Cast(CastOp::Zext)
            {
                a = k.ops[op].args[0];
            }
            matches!(k.values[a].def, ValueDef::Param(b, _) if headers.contains(&b))
        })
        .collect()
}

/// `induction-address`: a load's address computed from its loop's counter (`A[r][c]` walking a
/// column, `A[r - 1][c]`, a counter stepping down) becomes a loop parameter stepped by a
/// constant; a loop that writes the memory it reads keeps its addresses (the pipeline's
/// dependence analysis reads them). The results stay those of the lowered kernel.
#[test]
fn loop_addresses_step_in_parameters() {
    use kiln_dataflow::analysis::natural_loops;
    use kiln_dataflow::ir::OpKind;
    let fill = "int A[12][10];
        for (int i = 0; i < 12; i++) for (int j = 0; j < 10; j++) A[i][j] = i * 7 - j * j;";
    let reads = format!(
        "kernel void k(global int *out) {{ {fill}
        for (int c = 0; c < 10; c++) {{
            int s = 0;
            for (int r = 1; r < 12; r++) s += A[r][c] * r - A[r - 1][c];
            for (int r = 11; r >= 2; r--) s ^= A[r][c] + r;
            out[c] = s;
        }} }}"
    );
    let (_, opt) = compile(&reads, "k");
    let loads = load_addresses(&opt);
    assert_eq!(loads, vec![true; 3], "every load of `A` steps its address in a parameter\n{opt}");
    let r = run(&reads, "k", vec![Arg::Buffer(vec![0; 10])]);
    // With the inner loops' first addresses kept in the loop around them (the ECP5's choice):
    // the same results, and the inner loops enter with a parameter of the outer loop.
    let (lowered, _) = compile(&reads, "k");
    let mut outer = lowered.clone();
    let options =
        PipelineOptions { verify_each: true, first_addresses_in_outer_loops: true, ..PipelineOptions::default() };
    optimize(&mut outer, &options).unwrap_or_else(|f| panic!("{f:?}"));
    // Arguments of edges into inner loops computed by arithmetic in the block before them.
    fn computed_entries(k: &Kernel) -> usize {
        use kiln_dataflow::ir::BinOp;
        let loops = natural_loops(k);
        let preds = k.predecessors();
        loops
            .iter()
            .filter(|l| l.parent.is_some())
            .flat_map(|l| preds[l.header].iter().filter(|p| !l.latches.contains(p)).map(move |p| (l.header, *p)))
            .flat_map(|(h, p)| k.blocks[p].term.targets().into_iter().filter(move |t| t.block == h))
            .flat_map(|t| t.args.iter())
            .filter(|a| {
                k.def_op(**a).is_some_and(|op| {
                    matches!(k.ops[op].kind, OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl))
                })
            })
            .count()
    }
    assert!(computed_entries(&opt) >= 1, "by default the inner loops' first addresses are computed\n{opt}");
    assert_eq!(computed_entries(&outer), 0, "the first addresses are the outer loop's parameters\n{outer}");
    let args = vec![Arg::Buffer(vec![0; 10])];
    let x = emulate(&lowered, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
    let y = emulate(&outer, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(x.buffers, y.buffers, "{outer}");
    let a = |r: i32, c: i32| r * 7 - c * c;
    let expected: Vec<u64> = (0..10)
        .map(|c| {
            let s = (1..12).fold(0i32, |s, r| s + a(r, c) * r - a(r - 1, c));
            (2..12).rev().fold(s, |s, r| s ^ (a(r, c) + r)) as u32 as u64
        })
        .collect();
    assert_eq!(r[0], Some(expected));

    let updates = format!(
        "kernel void k(global int *out) {{ {fill}
        for (int c = 0; c < 10; c++)
            for (int r = 1; r < 12; r++) A[r][c] += A[r - 1][c];
        for (int c = 0; c < 10; c++) out[c] = A[11][c]; }}"
    );
    let (_, opt) = compile(&updates, "k");
    let inner = load_addresses(&opt);
    assert!(inner.iter().any(|p| !p), "the loop that writes `A` computes its read addresses\n{opt}");
    let r = run(&updates, "k", vec![Arg::Buffer(vec![0; 10])]);
    let expected: Vec<u64> = (0..10).map(|c| (0..12).map(|r| a(r, c)).sum::<i32>() as u32 as u64).collect();
    assert_eq!(r[0], Some(expected));
}

/// `bounded-compare` folds the comparisons the ranges decide: the stop `exit-test` computes
/// for `j = i + 1; j < 40` is `max(i + 1, 40)`, and with `i` counting down from 39 (the range
/// analysis bounds a counter tested `i >= 0` by its start) it is 40. The kernel computes what
/// the lowered kernel computes, and the closed form.
#[test]
fn a_stop_the_ranges_decide_is_a_constant() {
    use kiln_dataflow::ir::{CmpOp, OpKind};
    let src = "kernel void k(global int *out) {
            int x[40];
            for (int i = 39; i >= 0; i--) {
                int w = i * 3;
                for (int j = i + 1; j < 40; j++) w -= x[j] * (i + j);
                x[i] = w;
            }
            for (int i = 0; i < 40; i++) out[i] = x[i]; }";
    let (_, opt) = compile(src, "k");
    let ordered_with_40 = opt
        .ops
        .values()
        .filter(|o| matches!(o.kind, OpKind::Cmp(CmpOp::Slt | CmpOp::Ult | CmpOp::Sle | CmpOp::Ule)))
        .filter(|o| o.args.iter().any(|a| opt.as_const(*a) == Some(40)))
        .count();
    assert_eq!(ordered_with_40, 0, "the inner loop's stop is the constant 40\n{opt}");
    let r = run(src, "k", vec![Arg::Buffer(vec![0; 40])]);
    let mut x = [0i32; 40];
    for i in (0..40i32).rev() {
        let mut w = i * 3;
        for j in i + 1..40 {
            w = w.wrapping_sub(x[j as usize].wrapping_mul(i + j));
        }
        x[i as usize] = w;
    }
    assert_eq!(r[0], Some(x.iter().map(|v| *v as u32 as u64).collect()));
}

/// `induction-address` in a loop counting down to zero (`i >= 0`: the counter ends at -1, a
/// value the body never sees): the diagonal's address `A[i][i]` and the row's `A[i][j]` of the
/// loop inside it step in parameters, and the kernel computes the closed form.
#[test]
fn addresses_step_in_loops_counting_down_to_zero() {
    let src = "kernel void k(global int *out) {
            int A[10][10];
            for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) A[i][j] = i * 5 - j;
            for (int i = 9; i >= 0; i--) {
                int s = A[i][i];
                for (int j = i + 1; j < 10; j++) s -= A[i][j] * j;
                out[i] = s;
            } }";
    let (_, opt) = compile(src, "k");
    assert_eq!(load_addresses(&opt), vec![true; 2], "both loads of `A` step their addresses\n{opt}");
    let r = run(src, "k", vec![Arg::Buffer(vec![0; 10])]);
    let a = |i: i32, j: i32| i * 5 - j;
    let expected: Vec<u64> = (0..10).map(|i| (i + 1..10).fold(a(i, i), |s, j| s - a(i, j) * j) as u32 as u64).collect();
    assert_eq!(r[0], Some(expected));
}

/// `carry-compare`: equality tests of loop counters against constants are computed an
/// iteration ahead and carried in header parameters. The selects that step a coalesced nest's
/// counters (`i' = j != 4 ? i : i + 1`) then test a parameter, and every kernel computes
/// what the kernel without the passes computes: counters stepping up, down and wrapping
/// around their width, tests in the body and in selects, loops that never start.
#[test]
fn carried_compares_keep_results() {
    use kiln_dataflow::ir::{OpKind, ValueDef};
    use kiln_dataflow::lower::{LowerOptions, lower_kernel_with};
    // Built as for hardware (coalescing is a loop transformation), checked against the
    // kernel as lowered for the emulator.
    let for_hardware = |src: &str, name: &str| {
        let out = check_source("t.cl", src, &Options::default());
        let prog = out.program.unwrap();
        let id = prog.kernel_by_name(name).unwrap();
        let mut k = lower_kernel_with(&prog, id, &LowerOptions { loop_transforms: true, ..LowerOptions::default() })
            .unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
        optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
        k
    };
    let run = |src: &str, name: &str, args: Vec<Arg>| {
        let opt = for_hardware(src, name);
        let want = run(src, name, args.clone());
        let got = emulate(&opt, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(got.buffers, want, "{name}: the kernel built for hardware differs\n{opt}");
        want
    };
    let src = "kernel void nest(global int *out) {
            int t = 0;
            #pragma loop_coalesce
            for (int i = 0; i < 7; i++)
                for (int j = 0; j < 5; j++)
                    t = t * 3 + i * 10 + j;
            out[0] = t; }
        kernel void marks(global int *out, int n) {
            for (int j = 0; j < n; j++) { out[j] = j == 3 ? 100 : j; if (j == 0) out[j] += 5; } }
        kernel void down(global int *out, int n) {
            int t = 0;
            for (int j = n; j != 0; j--) { if (j == 2) t += 1000; t = t * 2 + j; }
            out[0] = t; }
        kernel void wraps(global int *out, int n) {
            uchar j = 250;
            for (int i = 0; i < n; i++) { if (j == 1) out[0] = i; if (j != 255) out[1] += j; j++; } }";
    let opt = for_hardware(src, "nest");
    let headers: Vec<_> = opt.loops.iter().map(|l| l.header).collect();
    let is_header_param = |v| matches!(opt.values[v].def, ValueDef::Param(b, _) if headers.contains(&b));
    // The selects that step the counters (`j' = j != 4 ? j + 1 : 0`, `i' = j != 4 ? i : i + 1`).
    let selects: Vec<_> = opt.ops.values().filter(|o| matches!(o.kind, OpKind::Select)).collect();
    assert!(selects.len() >= 2, "the counters step through selects\n{opt}");
    for o in selects {
        assert!(is_header_param(o.args[0]), "a counter's select tests a carried parameter\n{opt}");
    }
    let mut t: i32 = 0;
    for i in 0..7 {
        for j in 0..5 {
            t = t.wrapping_mul(3).wrapping_add(i * 10 + j);
        }
    }
    assert_eq!(run(src, "nest", vec![Arg::Buffer(vec![0])])[0], Some(vec![t as u32 as u64]));
    for n in [0u64, 1, 3, 4, 9] {
        let r = run(src, "marks", vec![Arg::Buffer(vec![0; 9]), Arg::Scalar(n)]);
        let want: Vec<u64> = (0..9)
            .map(|j| {
                if j >= n {
                    0
                } else if j == 3 {
                    100
                } else if j == 0 {
                    5
                } else {
                    j
                }
            })
            .collect();
        assert_eq!(r[0], Some(want), "marks n={n}");
        run(src, "down", vec![Arg::Buffer(vec![0]), Arg::Scalar(n)]);
    }
    for n in [0u64, 5, 6, 7, 8, 300] {
        let r = run(src, "wraps", vec![Arg::Buffer(vec![0, 0]), Arg::Scalar(n)]);
        let (mut first, mut sum, mut j) = (0u64, 0u64, 250u8);
        for i in 0..n {
            if j == 1 {
                first = i;
            }
            if j != 255 {
                sum += j as u64;
            }
            j = j.wrapping_add(1);
        }
        assert_eq!(r[0], Some(vec![first, sum & 0xffff_ffff]), "wraps n={n}");
    }
}

/// Imperfect nests coalesced while lowering (declarations before the inner loop, statements
/// after it in an iteration of their own): each candidate the lowering offers, coalesced, and
/// the pragma's nests compute what the kernel as written computes, including a `continue` in
/// the inner body and branching statements after it. A nest whose declarations read memory, or
/// that reads and writes one array, is no candidate.
#[test]
fn coalesced_imperfect_nests_keep_results() {
    use kiln_dataflow::lower::{LowerOptions, lower_kernel_with};
    let lower = |src: &str, name: &str, coalesce: bool| {
        let out = check_source("t.cl", src, &Options::default());
        let prog = out.program.unwrap();
        let id = prog.kernel_by_name(name).unwrap();
        let opts = LowerOptions {
            loop_transforms: true,
            coalesce_nests: if coalesce { (0..8).collect() } else { Default::default() },
            ..LowerOptions::default()
        };
        let mut k =
            lower_kernel_with(&prog, id, &opts).unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)));
        optimize(&mut k, &PipelineOptions { verify_each: true, ..PipelineOptions::default() }).unwrap();
        k
    };
    let coalesced =
        |k: &Kernel| k.loops.iter().filter(|l| l.transformations.iter().any(|t| t.contains("coalesced"))).count();
    let src = "kernel void reduce(global const int *in, global int *out) {
            for (int p = 0; p < 6; p++) {
                int acc = p * 2;
                for (int s = 0; s < 5; s++) {
                    if (s == 2) continue;
                    acc += in[p * 5 + s] * (s + 1);
                }
                out[p] = acc;
            } }
        kernel void after(global int *out) {
            int g = 1;
            #pragma loop_coalesce
            for (int i = 0; i < 4; i++) {
                int t = 3;
                for (int j = 0; j < 30; j++)
                    t = t * 3 + j;
                int u = t ^ i;
                if (u & 1) { out[i] = u; g += u; } else out[4 + i] = -u;
            }
            out[8] = g; }
        kernel void loads_first(global const int *in, global int *out) {
            for (int p = 0; p < 6; p++) {
                int acc = in[p];
                for (int s = 0; s < 5; s++) acc += s;
                out[p] = acc;
            } }
        kernel void rewrites(global int *out) {
            int a[30];
            for (int i = 0; i < 30; i++) a[i] = i;
            for (int p = 1; p < 6; p++) {
                int acc = 0;
                for (int s = 0; s < 5; s++) acc += a[(p - 1) * 5 + s];
                a[p * 5] = acc;
            }
            out[0] = a[25]; }";
    let input: Vec<u64> = (0..30).map(|n| (n * 7 % 11) as u64).collect();
    let cases: [(&str, Vec<Arg>, usize); 4] = [
        ("reduce", vec![Arg::Buffer(input.clone()), Arg::Buffer(vec![0; 6])], 1),
        ("after", vec![Arg::Buffer(vec![0; 9])], 0),
        ("loads_first", vec![Arg::Buffer(input.clone()), Arg::Buffer(vec![0; 6])], 0),
        ("rewrites", vec![Arg::Buffer(vec![0])], 0),
    ];
    for (name, args, candidates) in cases {
        let want = run(src, name, args.clone());
        let plain = lower(src, name, false);
        assert_eq!(plain.coalescible_nests.len(), candidates, "{name}: candidates\n{plain}");
        let k = lower(src, name, true);
        let pragma = usize::from(name == "after");
        assert_eq!(coalesced(&k), candidates + pragma, "{name}: coalesced loops\n{k}");
        let got = emulate(&k, &args, 100_000_000).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(got.buffers, want, "{name}: the coalesced kernel differs\n{k}");
    }
}
