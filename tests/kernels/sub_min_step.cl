// A kernel of kiln fuzz (seed 253916): a value a loop carries and decreases by 2^63 in each
// iteration (unsigned, so well defined) made the pipeliner's step of an induction variable
// overflow (`-(i64::MIN)`), a panic.
kernel void sub_min_step(global const ulong *in, global ulong *out, int n) {
    ulong v = in[0];
    for (int i = 0; i < n; i++) {
        v = v - 0x8000000000000000UL;
        out[i] = v + in[i];
    }
    out[n] = v;
}
