// expect: E0315
kernel void k(global int *o) { if (o[0]) break; }
