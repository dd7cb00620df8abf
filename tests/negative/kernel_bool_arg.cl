// expect: E0408
kernel void k(global int *o, bool b) { o[0] = b; }
