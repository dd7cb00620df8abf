// expect: E0330
kernel void k(global int *a, global short *b) { a[0] = as_int(b[0]); }
