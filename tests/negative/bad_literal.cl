// expect: E0205
kernel void k(global int *o) { o[0] = 0x; }
