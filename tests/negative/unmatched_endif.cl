// expect: E0108
#endif
kernel void k(global int *o) { o[0] = 1; }
