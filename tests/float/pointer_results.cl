// The math functions with a second result through a pointer: sincos, modf, fract and frexp, on
// scalars and vectors, over signed zeros, infinities and NaN (checked against PoCL).
// ulp: 4
kernel void pointer_results(global const float *in, global float *out, global float4 *v,
                            global int *ex, global float4 *mv, global int4 *ev) {
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
    out[i + 48] = frexp(x, ex + i);
    int4 e4;
    mv[i] = frexp((float4)(x * 1e-40f, x * 3e38f, 1.0f, -0.75f), &e4);
    ev[i] = e4;
}
