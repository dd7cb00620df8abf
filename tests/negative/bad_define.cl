// expect: E0112
#define 3x 1
kernel void k(global int *o) { o[0] = 1; }
