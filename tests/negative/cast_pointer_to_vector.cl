// expect: E0310
kernel void k(global int *o) { int4 v = (int4)o; o[0] = v.x; }
