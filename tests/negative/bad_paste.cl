// expect: E0113 E0202
#define P(a, b) a ## b
kernel void k(global int *o) { o[0] = P(1, +); }
