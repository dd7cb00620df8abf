// expect: E0510
kernel void k(global int *a) { long v = (long)a; }
