// expect: E0201
kernel void k(global int *a) { a[0] = 1 }
