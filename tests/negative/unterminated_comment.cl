// expect: E0102 E0206
kernel void k(global int *a) { /* never closed
