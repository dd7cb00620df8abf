// expect: E0417
kernel void k(global int2 *a) { int2 v = a[0]; a[1].x = v.z; }
