// expect: E0330
kernel void k(global float *o, global int *r) { r[0] = popcount(o[0]); }
