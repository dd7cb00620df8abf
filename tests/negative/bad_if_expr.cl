// expect: E0109
#if 1 +
#endif
kernel void k(global int *o) { o[0] = 1; }
