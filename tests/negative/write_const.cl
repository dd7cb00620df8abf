// expect: E0306
kernel void k(global int *a) { const int x = 1; x = 2; }
