// The one-argument math functions over a range of inputs; kiln's results are within the
// specification's limits (sin, cos, tan 4 ulp; exp, log 3 ulp; ...), and so are PoCL's.
// ulp: 4
kernel void math_unary(global const float *x, global float *o) {
    int i = get_global_id(0);
    float v = x[i];
    float a = fabs(v);
    int n = 24;
    o[i * n + 0] = sqrt(a);
    o[i * n + 1] = exp(v);
    o[i * n + 2] = exp2(v);
    o[i * n + 3] = log(a + 1.0f);
    o[i * n + 4] = log2(a + 0.5f);
    o[i * n + 5] = log10(a + 2.0f);
    o[i * n + 6] = sin(v);
    o[i * n + 7] = cos(v);
    o[i * n + 8] = atan(v);
    o[i * n + 9] = cbrt(v);
    o[i * n + 10] = sinh(v);
    o[i * n + 11] = cosh(v);
    o[i * n + 12] = tanh(v);
    o[i * n + 13] = asinh(v);
    o[i * n + 14] = floor(v);
    o[i * n + 15] = ceil(v);
    o[i * n + 16] = trunc(v);
    o[i * n + 17] = round(v);
    o[i * n + 18] = rint(v);
    o[i * n + 19] = expm1(v * 0.25f);
    o[i * n + 20] = log1p(a);
    o[i * n + 21] = asin(v / 8.0f);
    o[i * n + 22] = acos(v / 8.0f);
    o[i * n + 23] = rsqrt(a + 1.0f);
}
