// expect: E0305
kernel void k(global int2 *a) { int2 v = a[0]; v.xx = (int2)(1, 2); a[1] = v; }
