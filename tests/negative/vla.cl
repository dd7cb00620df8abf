// expect: E0403
kernel void k(global int *a, int n) { int v[n]; a[0] = 1; }
