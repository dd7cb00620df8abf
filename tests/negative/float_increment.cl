// expect: E0419
kernel void k(global float *o) { float f = o[0]; f++; o[0] = f; }
