// expect: E0403
kernel void k(global int *o, int n) { int a[n]; a[0] = 1; o[0] = a[0]; }
