// expect: E0421
kernel void k(int x) {
    __attribute__((opencl_unroll_hint(x))) for (int i=0;i<x;i++) {}   // REJECT: not a constant
}
