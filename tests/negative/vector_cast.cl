// expect: E0310
kernel void k(global int4 *a, global uint4 *b) { a[0] = (int4)b[0]; }
