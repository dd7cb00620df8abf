// expect: E0332
kernel void k(global int *a, constant char *fmt) { printf(fmt, a[0]); }
