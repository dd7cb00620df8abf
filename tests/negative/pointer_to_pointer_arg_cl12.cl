// expect: E0408
// options: -cl-std=CL1.2
kernel void k(global int * global *pp) { }
