// expect: E0303
kernel void k(global int4 *a) { a[0] = (int4)(1, 2, 3); }
