// expect: E0330
kernel void k(global int *o) { o[0] = isnan(o[1]); }
