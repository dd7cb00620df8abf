// Float data that only moves: loads, stores, selects by integer conditions, a float4 swizzle, a
// float kernel argument and float constants folded at compile time. No float arithmetic is left
// after optimization, so the kernel builds in hardware and every engine moves the same bits.
// c-reference: no (the C reference shim has no float buffers)
kernel void float_route(global const float *in, global float *out, global float4 *quads, global const int *pick,
                        float fill, int n) {
    const float half_scale = 0.5f * 3.0f;
    for (int i = 0; i < n; i++)
        out[i] = pick[i] > 0 ? in[i] : (pick[i] < 0 ? fill : half_scale);
    for (int i = 0; i < n / 4; i++)
        quads[i] = vload4(i, in).wzyx;
}
