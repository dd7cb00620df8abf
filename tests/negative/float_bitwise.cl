// expect: E0419
kernel void k(global float *o, global int *r) { r[0] = (int)(o[0] & o[1]); }
