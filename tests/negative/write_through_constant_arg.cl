// expect: E0410
kernel void k(constant int *c, global int *o) { c[0] = 1; o[0] = 1; }
