// expect: E0107
#if 1
kernel void k(global int *a) { }
