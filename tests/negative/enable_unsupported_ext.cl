// expect: E0117
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global int *a) { }
