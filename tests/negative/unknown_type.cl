// expect: E0203
kernel void k(global int *a) { foo x; }
