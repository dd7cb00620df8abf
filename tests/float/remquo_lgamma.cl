// remquo and lgamma_r: a second result through a pointer, on scalars and vectors. remquo's
// quotient is compared through the bits OpenCL C guarantees (its sign and its 7 low bits);
// lgamma_r's sign over positive, negative non-integer and small arguments (its value within
// the specification's limit).
// ulp: 4
int low_bits(int q) {
    return q < 0 ? -((-q) & 0x7f) : (q & 0x7f);
}

kernel void remquo_lgamma(global const float *x, global const float *y, global float *r, global int *q,
                          global float *lg, global int *sign, global float4 *rv, global int4 *qv) {
    int i = get_global_id(0);
    int quo, s;
    r[i] = remquo(x[i], y[i], &quo);
    q[i] = low_bits(quo);
    lg[i] = lgamma_r(x[i] * 0.25f, &s);
    sign[i] = s;
    if (i < 2) {
        int4 quov;
        float4 a = vload4(i, x), b = vload4(i, y);
        rv[i] = remquo(a, b, &quov);
        qv[i] = (int4)(low_bits(quov.x), low_bits(quov.y), low_bits(quov.z), low_bits(quov.w));
    }
}
