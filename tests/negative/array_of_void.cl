// expect: E0322
kernel void k(global int *o) { void a[4]; o[0] = 1; }
