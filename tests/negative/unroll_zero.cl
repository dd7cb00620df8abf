// expect: E0421
kernel void k(global int *o) {
#pragma unroll 0
    for (int i = 0; i < 4; i++) o[i] = i;
}
