// expect: E0304
kernel void k(global int4 *a, long big) { a[0] = a[0] + big; }
