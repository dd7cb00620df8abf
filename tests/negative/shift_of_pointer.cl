// expect: E0304
kernel void k(global int *o) { o[0] = (int)(o << 1); }
