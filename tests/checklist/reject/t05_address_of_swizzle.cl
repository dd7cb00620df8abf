// expect: E0419
kernel void t05(void) {
    float8 vf;
    float2 *f2   = &vf.s07;        // REJECT
}
