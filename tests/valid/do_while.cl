// valid: do while
kernel void k(global int *o, int n) { int i = 0; do { o[i] = i; i++; } while (i < n); }
