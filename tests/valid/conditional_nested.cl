// valid: conditional nested
kernel void k(global int *o, int x) { o[0] = x > 0 ? x > 10 ? 2 : 1 : x < -10 ? -2 : -1; }
