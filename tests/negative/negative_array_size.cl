// expect: E0320
kernel void k(global int *o) { int a[-4]; a[0] = 1; o[0] = a[0]; }
