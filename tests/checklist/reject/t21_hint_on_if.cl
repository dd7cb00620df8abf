// expect: E0210
kernel void k(int x) {
    __attribute__((opencl_unroll_hint)) if (x) { }                    // REJECT: not a loop
}
