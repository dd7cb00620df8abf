// expect: E0424
kernel void k(global atomic_uint *a) { a[1]++; }
