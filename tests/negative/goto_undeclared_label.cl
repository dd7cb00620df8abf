// expect: E0301
kernel void k(global int *a) { for (int i = 0; i < 4; i++) { if (a[i]) goto nowhere; } a[0] = 1; }
