// expect: E0410
constant int c = 3;
kernel void k(global int *a) { c = 42; }
