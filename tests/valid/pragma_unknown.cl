// valid: pragma unknown
#pragma my_vendor something
kernel void k(global int *o) { o[0] = 1; }
