// expect: E0424
kernel void k(global atomic_int *a) { *a = 3; }
