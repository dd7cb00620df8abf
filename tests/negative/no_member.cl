// expect: E0417
typedef int T;
kernel void k(global int4 *o) { o[0].q = 1; }
