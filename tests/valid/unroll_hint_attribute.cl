// valid: unroll hint attribute
kernel void k(global int *o) { __attribute__((opencl_unroll_hint(2))) for (int i = 0; i < 8; i++) o[i] = i; }
