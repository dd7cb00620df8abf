// expect: E0419
kernel void t05(void) {
    float8 vf;
    float  *f    = &vf.x;          // REJECT
}
