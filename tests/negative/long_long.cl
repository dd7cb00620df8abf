// expect: E0412
kernel void k(global int *a) { long long x = 0; }
