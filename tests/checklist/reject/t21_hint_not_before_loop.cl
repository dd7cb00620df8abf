// expect: E0210
kernel void k(global int *o) {
    __attribute__((opencl_unroll_hint(2))) int k = 0; for (;k < 4;k++) { o[k] = k; }     // REJECT: not immediately before the loop
}
