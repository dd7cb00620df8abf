// expect: E0330
kernel void k(global float *o, constant float *t) { o[0] = modf(o[1], t); }
