// expect: E0507
kernel void k(volatile global int *a) { atomic_add(a, 1); }
