// expect: E0426
kernel void k(global float *o) { half h; o[0] = 1.0f; }
