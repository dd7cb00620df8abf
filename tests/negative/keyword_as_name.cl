// expect: E0202 E0207
kernel void k(global int *o) { int while = 1; o[0] = while; }
