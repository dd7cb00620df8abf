// The operator `to_uint_sat_rte` on bit patterns: each result against Rust's f32 by
// tests/tests/float_operators.rs, and on a million random operands by bench/float/verilator-operators.
kernel void op(global const uint *a, global const uint *b, global const uint *c, global uint *out, int n) {
    for (int i = 0; i < n; i++) {
        float x = as_float(a[i]), y = as_float(b[i]), z = as_float(c[i]);
        out[i] = convert_uint_sat_rte(x);
    }
}
