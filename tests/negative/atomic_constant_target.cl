// expect: E0424
kernel void k(constant int *c, global int *o) { o[0] = atomic_add(c, 1); }
