// expect: E0304
kernel void k(global int4 *a, global int2 *b) { a[0] = a[0] + b[0]; }
