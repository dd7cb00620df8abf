// expect: E0301
kernel void k(global int *o) { for (int i = 0; i < 4; i++) o[i] = j; }
