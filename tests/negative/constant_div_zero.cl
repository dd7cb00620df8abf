// expect: E0321
kernel void k(global int *a) { int v[4 / 0]; }
