#![allow(clippy::unwrap_used)]
use kiln_diagnostics as diag;
use kiln_frontend::{Options, check_source};

fn codes(src: &str) -> Vec<String> {
    let out = check_source("t.cl", src, &Options::default());
    out.diags.iter().map(|d| d.code.0.to_string()).collect()
}

fn show(src: &str) -> String {
    let out = check_source("t.cl", src, &Options::default());
    diag::render(&out.sources, &out.diags)
}

#[test]
fn accepts_integer_kernels() {
    let src = r#"
        #define N 16
        typedef unsigned int u32;
        constant int table[4] = {1, 2, 3, 4};
        int helper(int a, int b) { return a * b + table[a & 3]; }
        __kernel __attribute__((reqd_work_group_size(1,1,1)))
        void k(__global int * restrict out, __global const int *in, int n, uchar s) {
            int acc[N] = {0};
            for (int i = 0; i < n; i++) {
                u32 x = in[i];
                x <<= s;
                acc[i & (N-1)] += helper(i, (int)x) ? x >> 3 : -1;
                switch (x % 3) { case 0: out[i] = 1; break; case 1: out[i]++; default: out[i] -= 2; }
            }
            char c = 200; short sh = c * 2;
            do { n--; } while (n > 0 && sh);
            out[0] = acc[3] + sizeof(long) + (int)(sizeof acc);
        }
    "#;
    let s = show(src);
    assert!(codes(src).is_empty(), "{s}");
}

#[test]
fn rejects_with_codes() {
    assert_eq!(codes("kernel void k(global double *p) {}"), ["E0502"]);
    assert_eq!(codes("kernel void k(global float *p) { p[0] = 1.5h; }"), ["E0413"]);
    assert_eq!(codes("kernel void k(global int *p, int d) { p[0] = get_global_id(d); }"), ["E0504"]);
    assert_eq!(codes("kernel void k(global int *p) { p[0] = get_global_id(0); }"), Vec::<String>::new());
    assert_eq!(codes("kernel void k(global int *p) { p[0] = undeclared_fn(1); }"), ["E0308"]);
    assert_eq!(
        codes("int f(int n) { return n <= 1 ? 1 : n * f(n - 1); } kernel void k(global int *p) { p[0] = f(3); }"),
        ["E0401"]
    );
    assert_eq!(codes("kernel void k(global int *a, int n) { int v[n]; }"), ["E0403"]);
    assert_eq!(codes("kernel int k(void) { return 0; }"), ["E0407"]);
    assert_eq!(codes("kernel void k(bool b) { }"), ["E0408"]);
    assert_eq!(codes("kernel void k(int *p) { }"), ["E0408"]);
    assert_eq!(codes("void main(void) { }"), ["E0406"]);
    assert_eq!(codes("kernel void k(global int *p) { int4 v = 1; p[0] = v.q; }"), ["E0417"]);
    assert_eq!(codes("int global = 1;"), ["E0207"]);
    assert_eq!(codes("constant int d;"), ["E0410"]);
    assert_eq!(codes("constant int a = 3; kernel void k(global int *p) { a = 42; }"), ["E0410"]);
    assert_eq!(codes("kernel void k(global int *p) { break; }"), ["E0315"]);
    assert_eq!(codes("kernel void k(global int *p) { long long x; }"), ["E0412"]);
    assert_eq!(codes("kernel void k(global int *p) { int x = p; }"), ["E0303"]);
    assert_eq!(codes("kernel void k(global int *p, local int *l) { p = l; }"), ["E0415"]);
    assert_eq!(codes("kernel void k(global int *p) { int x = 1 ^^ 2; }"), ["E0420"]);
    assert_eq!(codes("kernel void k(global int *p) { switch (p[0]) { case 1: case 1: break; } }"), ["E0317"]);
    assert_eq!(codes("kernel void k(global int *p) { register int r = 0; }"), ["E0416"]);
    assert_eq!(codes("kernel void k(global int *p) {\n#pragma unroll 4\n p[0] = 1; }"), ["E0210"]);
    assert_eq!(
        codes("kernel void k(global int *p) { __attribute__((opencl_unroll_hint(-1))) while (p[0]) {} }"),
        ["E0421"]
    );
    assert_eq!(codes("kernel void k(global int *p) { p[0] = 1 }"), ["E0201"]);
}

#[test]
fn renders_like_rustc() {
    let s = show(
        "int f(int n) { return g(n); }\nint g(int n) {\n  return f(n);\n}\nkernel void k(global int *p) { p[0] = f(3); }",
    );
    println!("{s}");
    assert!(s.contains("error[E0308]"), "{s}");
}
