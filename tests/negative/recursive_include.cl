// expect: E0114
#include __FILE__
kernel void k(global int *o) { o[0] = 1; }
