// expect: E0411
global int g;
kernel void k(global int *a) { }
