// expect: E0330
kernel void k(global float *o) { o[0] = abs(o[1]); }
