// expect: E0324
kernel void k(global int *o) { short long x = 1; o[0] = x; }
