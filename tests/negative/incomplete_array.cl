// expect: E0318
kernel void k(global int *o) { int a[]; o[0] = a[0]; }
