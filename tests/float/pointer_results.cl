// The math functions with a second result through a pointer: sincos, modf and fract, on
// scalars and vectors, over signed zeros, infinities and NaN (checked against PoCL).
// ulp: 4
kernel void pointer_results(global const float *in, global float *out, global float4 *v) {
    int i = get_global_id(0);
    float x = in[i], c, w, f;
    out[i * 6 + 0] = sincos(x, &c);
    out[i * 6 + 1] = c;
    out[i * 6 + 2] = modf(x, &w);
    out[i * 6 + 3] = w;
    out[i * 6 + 4] = fract(x, &f);
    out[i * 6 + 5] = f;
    float4 iv;
    v[i] = modf((float4)(x, -x, 2.5f, -0.0f), &iv) + iv * 10.0f;
}
