// expect: E0302
kernel void k(global int *a) { first: a[0] = 1; first: a[1] = 2; }
