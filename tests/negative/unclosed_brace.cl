// expect: E0206
kernel void k(global int *o) { o[0] = 1;
