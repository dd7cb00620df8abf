// expect: E0332
kernel void k(global float *a) { printf("%d\n", a[0]); }
