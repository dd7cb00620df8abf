// expect: E0426
kernel void k(global half *p, global float *o) { o[0] = p[1]; }
