// expect: E0309
kernel void k(global int *o) { int f = 3; o[0] = f(2); }
