// expect: E0315
kernel void k(global int *a) { break; }
