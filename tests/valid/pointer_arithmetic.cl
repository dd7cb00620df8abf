// valid: pointer arithmetic
kernel void k(global int *o) { global int *p = o + 2; global int *q = p - 1; *q = (int)(p - o); p[1] = 3; }
