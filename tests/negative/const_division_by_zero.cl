// expect: E0321
kernel void k(global int *o) { int a[4 / 0]; o[0] = 1; }
