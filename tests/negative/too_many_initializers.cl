// expect: E0313
kernel void k(global int *o) { int a[2] = {1, 2, 3}; o[0] = a[0]; }
