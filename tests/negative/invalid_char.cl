// expect: E0101 E0201
kernel void k(global int *o) { o[0] = 1 @ 2; }
