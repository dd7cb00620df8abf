// expect: E0207
kernel void k(global int *o) { int kernel = 1; o[0] = 1; }
