// expect: E0303
kernel void k(global int4 *a) { if (a[0]) a[1] = 1; }
