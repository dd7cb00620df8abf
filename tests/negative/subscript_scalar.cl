// expect: E0311
kernel void k(global int *o) { int x = 3; o[0] = x[1]; }
