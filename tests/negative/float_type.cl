// expect: E0502
kernel void k(global float *a) { }
