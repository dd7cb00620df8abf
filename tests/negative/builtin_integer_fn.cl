// expect: E0511
kernel void k(global uint *a) { a[0] = bit_reverse(a[1]); }
