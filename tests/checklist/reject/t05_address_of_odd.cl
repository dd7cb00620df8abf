// expect: E0419
kernel void t05(void) {
    float8 vf;
    float4 *odd  = &vf.odd;        // REJECT
}
