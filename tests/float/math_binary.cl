// Two-argument math and the exact functions: fmin/fmax ignore NaN, fmod and remainder are exact,
// copysign and fabs touch only the sign, ldexp/ilogb/logb read the exponent.
// ulp: 16
kernel void math_binary(global const float *x, global const float *y, global float *o, global int *e) {
    int i = get_global_id(0);
    float a = x[i], b = y[i];
    int n = 16;
    o[i * n + 0] = fmin(a, b);
    o[i * n + 1] = fmax(a, b);
    o[i * n + 2] = fmod(a, b);
    o[i * n + 3] = remainder(a, b);
    o[i * n + 4] = copysign(a, b);
    o[i * n + 5] = fdim(a, b);
    o[i * n + 6] = hypot(a, b);
    o[i * n + 7] = atan2(a, b);
    o[i * n + 8] = pow(fabs(a), b / 4.0f);
    o[i * n + 9] = ldexp(a, (int)b);
    o[i * n + 10] = maxmag(a, b);
    o[i * n + 11] = minmag(a, b);
    o[i * n + 12] = fma(a, b, 1.0f);
    o[i * n + 13] = nextafter(a, b);
    o[i * n + 14] = logb(a);
    o[i * n + 15] = pown(a, 3);
    e[i] = ilogb(a * b);
}
