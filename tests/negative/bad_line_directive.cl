// expect: E0118
#line abc
kernel void k(global int *o) { o[0] = 1; }
