// expect: E0330
kernel void k(global float *o) { o[0] = nan(1.0f); }
