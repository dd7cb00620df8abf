// valid: constant arg
kernel void k(constant int *c, global int *o) { o[0] = c[0] + c[1]; }
