// expect: E0330
kernel void k(global float8 *v, global float *o) { o[0] = length(v[0]); }
