// expect: E0209
kernel void k(global int *o) {
#pragma unroll abc
    for (int i = 0; i < 4; i++) o[i] = i;
}
