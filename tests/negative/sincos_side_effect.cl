// expect: E0511
kernel void k(global float *o) { int i = 0; float c; o[0] = sincos(o[i++], &c); o[1] = c; }
