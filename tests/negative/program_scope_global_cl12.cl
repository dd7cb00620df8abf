// expect: E0411
// options: -cl-std=CL1.2
global int g;
kernel void k(global int *a) { a[0] = g; }
