// expect: E0302
kernel void k(global int *o) { int x = 1; int x = 2; o[0] = x; }
