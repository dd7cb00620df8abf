// expect: E0305
kernel void k(global int4 *o) { o[0].xx = (int2)(1, 2); }
