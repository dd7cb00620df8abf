// A float sum under -cl-fast-relaxed-math: split into interleaved partial sums (as many as the
// adder's latency), the loop starts an iteration every cycle; the products are contracted into
// fused multiply-adds. Every engine computes the same reassociated sum.
// flags: -cl-fast-relaxed-math
// pocl: no (reassociation and contraction give other roundings than PoCL's evaluation order)
kernel void relaxed_sum(global const float *x, global const float *w, global float *out, int n) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += x[i] * w[i];
    out[0] = acc;
}
