// expect: E0410
constant int d;
kernel void k(global int *a) { }
