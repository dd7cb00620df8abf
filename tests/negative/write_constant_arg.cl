// expect: E0410
kernel void k(constant int *a) { a[0] = 1; }
