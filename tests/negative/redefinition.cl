// expect: E0302
kernel void k(global int *a) { int x = 1; int x = 2; }
