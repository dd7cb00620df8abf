// expect: E0503
kernel void k(global int *out, int4 by_value) { out[0] = by_value.x; }
