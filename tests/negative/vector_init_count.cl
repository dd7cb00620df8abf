// expect: E0313
kernel void k(global int4 *a) { int4 v = {1, 2}; a[0] = v; }
