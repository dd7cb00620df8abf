// expect: E0421
kernel void k(int x) {
    __attribute__((opencl_unroll_hint(-1))) while (x) { x--; }        // REJECT: negative factor
}
