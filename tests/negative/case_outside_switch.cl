// expect: E0327
kernel void k(global int *a) { case 1: a[0] = 1; }
