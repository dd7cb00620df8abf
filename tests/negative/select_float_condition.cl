// expect: E0330
kernel void k(global float *o) { o[0] = select(o[1], o[2], o[3]); }
