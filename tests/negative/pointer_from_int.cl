// expect: E0303
kernel void k(global int *o) { global int *p = 5; o[0] = *p; }
