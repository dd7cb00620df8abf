// expect: E0332
kernel void k(global int *a) { printf("%d and %d\n", a[0]); }
