// expect: E0502
kernel void k(global float *o) { double2 d; o[0] = 1.0f; }
