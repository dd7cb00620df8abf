// expect: E0410
kernel void k(constant int *c, global int4 *a) { vstore4(a[0], 0, c); }
