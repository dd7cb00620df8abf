// expect: E0304
kernel void k(global int *a, global int *b) { a[0] = a * b; }
