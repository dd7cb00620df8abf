// expect: E0515
kernel void k(global int *a, int n) { if (n > 2) goto inside; for (int i = 0; i < 4; i++) { a[i] = 0; inside: a[i] += 1; } }
