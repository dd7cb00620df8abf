// expect: E0503
kernel void k(global int4 *a) { }
