// valid: while continue
kernel void k(global int *o, int n) { int i = 0; while (i < n) { i++; if (i & 1) continue; o[i] = i; } }
