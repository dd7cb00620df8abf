// valid: nested loops break
kernel void k(global int *o) { for (int i = 0; i < 4; i++) { for (int j = 0; j < 4; j++) { if (j > i) break; o[i] += j; } } }
