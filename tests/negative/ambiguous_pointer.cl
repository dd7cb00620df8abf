// expect: E0601
kernel void k(global int *a, global int *b, int c) { global int *p = a; if (c) p = b; p[0] = 1; }
