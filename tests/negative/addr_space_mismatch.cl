// expect: E0415
kernel void k(global int *g, constant int *c) { g = c; }
