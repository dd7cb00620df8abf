// expect: E0502
kernel void k(global int *o) { double d = 1.0; o[0] = 1; }
