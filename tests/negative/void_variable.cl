// expect: E0322
kernel void k(global int *o) { void v; o[0] = 1; }
