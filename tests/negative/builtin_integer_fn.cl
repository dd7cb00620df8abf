// expect: E0511
kernel void k(global uint *a) { a[0] = popcount(a[1]); }
