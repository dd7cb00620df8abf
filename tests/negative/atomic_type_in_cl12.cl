// expect: E0203
// options: -cl-std=CL1.2
kernel void k(global atomic_int *a) { }
