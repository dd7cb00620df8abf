// expect: E0103 E0106
#include "
kernel void k(global int *o) { o[0] = 1; }
