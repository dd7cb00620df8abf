// valid: const locals
kernel void k(global int *o) { const int c = 4; const int d = c * 2; o[0] = d; }
