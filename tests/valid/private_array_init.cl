// valid: private array init
kernel void k(global int *o) { int a[5] = {1, 2}; int b[] = {3, 4, 5}; o[0] = a[1] + a[4] + b[2] + sizeof(b) / sizeof(b[0]); }
