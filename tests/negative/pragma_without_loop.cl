// expect: E0210
kernel void k(global int *o) {
#pragma unroll
    o[0] = 1;
}
