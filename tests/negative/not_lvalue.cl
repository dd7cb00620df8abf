// expect: E0305
kernel void k(global int *a) { a[0] + 1 = 2; }
