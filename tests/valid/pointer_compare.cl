// valid: pointer compare
kernel void k(global int *o, int n) { for (global int *p = o; p < o + n; p++) *p = 0; }
