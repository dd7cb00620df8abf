// expect: E0502
kernel void k(global half *p, global float *o) { o[0] = 1.0f; }
