// expect: E0306
kernel void k(global const int *in, global int *o) { in[0] = 1; o[0] = in[0]; }
