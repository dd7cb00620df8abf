// expect: E0419
kernel void t05(void) {
    float8 vf;
    float2 *high = &vf.even.hi;    // REJECT
}
