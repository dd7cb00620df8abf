// expect: E0204 E0206
kernel void k(global int *o) { int (; o[0] = 1; }
