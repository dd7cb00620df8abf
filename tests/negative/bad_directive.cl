// expect: E0106
#frobnicate 1
kernel void k(global int *o) { o[0] = 1; }
