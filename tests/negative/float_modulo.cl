// expect: E0419
kernel void k(global float *o) { o[0] = o[1] % 2.0f; }
