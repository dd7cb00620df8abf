// expect: E0312
kernel void k(global int *a) { int x = 1; a[0] = *x; }
