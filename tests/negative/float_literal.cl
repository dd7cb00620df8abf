// expect: E0502
kernel void k(global int *a) { a[0] = 1.5f; }
