// expect: E0330
kernel void k(global float *o, global int *i) { o[0] = convert_float_sat(i[0]); }
