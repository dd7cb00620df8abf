// expect: E0116
#pragma OPENCL EXTENSION cl_khr_fp64
kernel void k(global int *o) { o[0] = 1; }
