// expect: E0315
kernel void k(global int *o) { o[0] = 1; continue; }
