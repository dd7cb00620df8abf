// expect: E0417
kernel void k(global int4 *a) { int4 v = a[0]; a[1] = v.xr; }
